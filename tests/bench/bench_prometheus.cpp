// Prometheus pull benchmark: every series the serving metrics CSV reads, pulled from a local
// Prometheus (scripts/promserver.sh with the benchmark's series: 64 replicas of 8 GPUs, 512
// GPUs, a week) and reduced to replica-hours, as `track pull` does. Run it as
//   bash scripts/promserver.sh --series --replicas 64 --gpus-per-replica 8 --hours 168
//        --interval 300 --no-csv -- build/tests/bench/bench_prometheus  (one line)
// Prints the wall time of three pulls (median and minimum), queries, series, samples,
// replica-hours and the process's peak resident memory.
#include "store/tracking/prometheussource.h"
#include "benchtiming.h"

#include <QCoreApplication>
#include <cstdio>
#include <sys/resource.h>

using namespace headroom;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString url = qEnvironmentVariable("HEADROOM_TEST_PROMETHEUS");
    const qint64 startHour = qEnvironmentVariable("HEADROOM_TEST_PROMETHEUS_START").toLongLong() / 3600;
    const qint64 hours = qEnvironmentVariable("HEADROOM_TEST_PROMETHEUS_HOURS").toLongLong();
    if (url.isEmpty() || hours <= 0) {
        std::fprintf(stderr, "bench_prometheus: run it under scripts/promserver.sh (HEADROOM_TEST_PROMETHEUS unset)\n");
        return 2;
    }
    store::PrometheusSource source;
    source.url = store::parsePrometheusUrl(url);
    store::PrometheusPull pull;
    const bench::Timing timing = bench::measure(0, 3, [&] { pull = store::pullServingMetrics(source, startHour, startHour + hours); });
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("pull of %lld hours: median %.2f s, min %.2f s (target < 5 s)\n", static_cast<long long>(hours),
                timing.medianMillis() / 1000.0, timing.minMillis() / 1000.0);
    std::printf("  %d queries, %lld series, %lld samples, %zu replica-hours, peak RSS %.0f MiB\n", pull.queries,
                static_cast<long long>(pull.series), static_cast<long long>(pull.samples), pull.hours.hours.size(),
                double(usage.ru_maxrss) / 1024.0);
    return 0;
}
