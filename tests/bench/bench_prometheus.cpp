// Prometheus pull benchmark: every series the serving metrics CSV reads, pulled from a local
// Prometheus (scripts/promserver.sh with the benchmark's series: 64 replicas of 8 GPUs, 512
// GPUs, a week) and reduced to replica-hours, as `track pull` does. Run it as
//   bash scripts/promserver.sh --series --replicas 64 --gpus-per-replica 8 --hours 168
//        --interval 300 --no-csv -- build/tests/bench/bench_prometheus  (one line)
// Prints the wall time of three pulls as track pull makes them from a loopback server
// (uncompressed answers) and of three with gzip-compressed answers (median and minimum),
// queries, series, samples, replica-hours and the process's peak resident memory.
#include "store/tracking/prometheussource.h"
#include "benchtiming.h"

#include <QCoreApplication>
#include <algorithm>
#include <cstdio>
#include <vector>
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
    // As track pull reads a loopback server (answers uncompressed), then with gzip asked for, as
    // from a remote one; alternated, so that both meet the same machine.
    store::PrometheusPull pull;
    store::PrometheusSource compressed = source;
    compressed.compression = store::PrometheusSource::Compression::On;
    std::vector<double> plain, gzip;
    for (int run = 0; run < 3; ++run) {
        plain.push_back(bench::measure(0, 1, [&] { pull = store::pullServingMetrics(source, startHour, startHour + hours); })
                            .medianMillis());
        gzip.push_back(bench::measure(0, 1, [&] { pull = store::pullServingMetrics(compressed, startHour, startHour + hours); })
                           .medianMillis());
    }
    std::sort(plain.begin(), plain.end());
    std::sort(gzip.begin(), gzip.end());
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("pull of %lld hours: median %.2f s, min %.2f s (target < 5 s)\n", static_cast<long long>(hours),
                plain[1] / 1000.0, plain[0] / 1000.0);
    std::printf("  with gzip-compressed answers (--compression on): median %.2f s, min %.2f s\n", gzip[1] / 1000.0,
                gzip[0] / 1000.0);
    std::printf("  %d queries, %lld series, %lld samples, %zu replica-hours, peak RSS %.0f MiB\n", pull.queries,
                static_cast<long long>(pull.series), static_cast<long long>(pull.samples), pull.hours.hours.size(),
                double(usage.ru_maxrss) / 1024.0);
    return 0;
}
