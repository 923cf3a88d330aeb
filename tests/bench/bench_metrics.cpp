// Serving metrics import benchmark: the largest export the importer takes in one file (near its
// 512 MiB / 8 M row limits) — 6 replicas of 2 GPUs scraped every 60 s for 30 days, each scrape
// the DCGM utilization and framebuffer of both GPUs, 2 vLLM gauges, 3 counters and 13 latency
// histogram buckets (22 rows; 5.7 M rows, 343 MiB) — generated in a temporary folder, read (store::readMetricsCsv), stored in a
// workspace and read back, then rightsized, summarized and benchmarked as the Tracking page
// does. Peak memory is the process's maximum resident set (getrusage).
// `bench_metrics DAYS` for a shorter run.
#include "engine/tracking/serving_metrics.h"
#include "store/tracking/metricscsv.h"
#include "store/common/workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>

using namespace headroom;

namespace {

constexpr int kReplicas = 6;
constexpr int kStep = 60;            // seconds between scrapes
int kDays = 30;

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Writes the export; returns the rows written, or −1.
qint64 writeExport(const QString &path, qint64 *bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return -1;
    file.write("timestamp,instance,gpu,metric,value,deployment,le\n");
    static const char *const ttftBounds[] = {"0.1", "0.25", "0.5", "1", "2.5", "5", "+Inf"};
    static const char *const e2eBounds[] = {"2.5", "5", "10", "20", "40", "+Inf"};
    QByteArray block;
    block.reserve(8 << 20);
    char line[256];
    qint64 rows = 0;
    const long long start = 1772582400; // 2026-03-04T00:00:00Z
    double counters[kReplicas][3] = {};
    double buckets[kReplicas][13] = {};
    const int scrapes = kDays * 86400 / kStep;
    for (int s = 0; s < scrapes; ++s) {
        const long long t = start + (long long)s * kStep;
        const double day = 0.5 + 0.5 * std::cos((double(t % 86400) / 3600.0 - 15.0) / 24.0 * 6.283185307179586);
        for (int r = 0; r < kReplicas; ++r) {
            const double tokens = (300.0 + 900.0 * day) * (1.0 + 0.1 * r);
            const double ratio = tokens / 2400.0;
            auto put = [&](const char *gpu, const char *metric, double value, const char *le) {
                const int n = std::snprintf(line, sizeof line, "%lld,r%d,%s,%s,%.0f,chat,%s\n", t, r, gpu, metric, value, le);
                block.append(line, n);
                ++rows;
            };
            for (const char *gpu : {"0", "1"}) {
                put(gpu, "DCGM_FI_DEV_GPU_UTIL", 8.0 + 85.0 * ratio, "");
                put(gpu, "DCGM_FI_DEV_FB_USED", 72000.0, "");
            }
            put("", "vllm:num_requests_running", 48.0 * ratio, "");
            put("", "vllm:num_requests_waiting", 0.0, "");
            const double requests = tokens * kStep / 250.0;
            counters[r][0] += requests;
            counters[r][1] += tokens * kStep;
            counters[r][2] += requests * 900.0;
            put("", "vllm:request_success_total", counters[r][0], "");
            put("", "vllm:generation_tokens_total", counters[r][1], "");
            put("", "vllm:prompt_tokens_total", counters[r][2], "");
            const double ttftMedian = 0.12 * (1.0 + 6.0 * std::pow(ratio, 4));
            int b = 0;
            for (const char *le : ttftBounds) {
                const double x = std::atof(le);
                const double share = le[0] == '+' ? 1.0 : 0.5 * (1.0 + std::erf(std::log(x / ttftMedian) / (0.5 * std::sqrt(2.0))));
                buckets[r][b] += requests * share;
                put("", "vllm:time_to_first_token_seconds_bucket", buckets[r][b++], le);
            }
            for (const char *le : e2eBounds) {
                const double x = std::atof(le);
                const double share = le[0] == '+' ? 1.0 : 0.5 * (1.0 + std::erf(std::log(x / 6.0) / (0.35 * std::sqrt(2.0))));
                buckets[r][b] += requests * share;
                put("", "vllm:e2e_request_latency_seconds_bucket", buckets[r][b++], le);
            }
        }
        if (block.size() > (6 << 20)) {
            file.write(block);
            block.clear();
        }
    }
    file.write(block);
    *bytes = file.size();
    return rows;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc > 1)
        kDays = std::max(1, std::atoi(argv[1]));
    QTemporaryDir dir;
    const QString path = dir.filePath("metrics.csv");
    QElapsedTimer timer;
    timer.start();
    qint64 bytes = 0;
    const qint64 rows = writeExport(path, &bytes);
    if (rows < 0) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return 1;
    }
    std::printf("generated %d replicas x %d days every %d s = %lld rows, %.0f MiB, in %.1f s (peak RSS so far %.0f MiB)\n",
                kReplicas, kDays, kStep, (long long)rows, double(bytes) / 1048576.0, timer.elapsed() / 1000.0, peakRssMiB());

    timer.restart();
    double cpu = cpuSeconds();
    const store::MetricsFile file = store::readMetricsCsv(path);
    std::printf("read metrics CSV (%lld rows, %lld samples): %.2f s wall, %.2f s CPU; %zu replica-hours, %lld counter "
                "resets; peak RSS %.0f MiB\n",
                (long long)file.rows, (long long)file.samples, timer.elapsed() / 1000.0, cpuSeconds() - cpu,
                file.hours.hours.size(), (long long)file.hours.counterResets, peakRssMiB());

    const QString workspacePath = dir.filePath("bench.headroom");
    store::Workspace workspace(workspacePath);
    timer.restart();
    workspace.importServingMetrics(QStringLiteral("metrics.csv"), file.rows, file.ignoredRows(), file.hours);
    const double storeSeconds = timer.elapsed() / 1000.0;
    timer.restart();
    const engine::ServingHours stored = workspace.servingHours();
    std::printf("store the replica-hours: %.3f s; read them back: %.3f s (%zu)\n", storeSeconds,
                timer.elapsed() / 1000.0, stored.hours.size());

    // What the Serving tab recomputes on a change of its inputs: median of 11 runs.
    std::vector<double> runs;
    engine::RightsizingOptions options;
    options.ratePerGpuHour = engine::Money{*engine::Decimal::parse("3.99"), "USD"};
    options.slo = engine::LatencySlo{engine::LatencyKind::Ttft, 0.95, 1.0};
    const int64_t fp8Day = 1772582400 / 86400 + kDays / 2;
    for (int i = 0; i < 11; ++i) {
        timer.restart();
        const engine::ServingHours recent = engine::lastDays(stored, 7);
        const auto rightsizing = engine::rightsize(recent, options);
        const auto replicas = engine::summarizeReplicas(recent);
        const auto goodput = engine::dailyGoodput(stored);
        const auto history = engine::benchmarkHistory(stored, {{"FP8 weights", fp8Day, ""}}, {7, "", options.ratePerGpuHour});
        runs.push_back(double(timer.nsecsElapsed()) / 1e6);
        if (i == 0)
            std::printf("rightsizing: %d of %d replicas needed; %zu replicas summarized, %zu days of goodput, TTFT P95 of "
                        "r0 %.0f ms\n",
                        rightsizing.at(0).recommendedReplicas, rightsizing.at(0).currentReplicas, replicas.size(),
                        goodput.size(), replicas.at(0).ttftP95 * 1000.0);
    }
    std::sort(runs.begin(), runs.end());
    std::printf("Serving tab recompute (last 7 days rightsized with a TTFT SLO, replicas, daily goodput, benchmark "
                "history; median of 11): %.1f ms; peak RSS %.0f MiB\n",
                runs[runs.size() / 2], peakRssMiB());
    return 0;
}
