// FOCUS import benchmark (target: a year of hourly rows for 500 resources, ~4.4 M rows,
// imported in < 30 s and < 1 GB): generates the export in a temporary folder, streams it
// through store::readFocusCsv, then runs the commitment analysis and the daily actuals on it.
// Peak memory is the process's maximum resident set (getrusage), which the generator keeps
// small by writing the file in blocks.
#include "engine/tracking/actuals_anomalies.h"
#include "engine/tracking/commitment_renewal.h"
#include "engine/tracking/tracking.h"
#include "store/tracking/focuscsv.h"
#include "store/common/workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>
#include <sys/resource.h>
#include <ctime>

using namespace headroom;

namespace {

constexpr int kResources = 500;
int kHours = 8760;          // `bench_focus HOURS` for a shorter run
constexpr int kCommitted = 200;     // resources covered by the savings plan (Used), the rest on demand

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // kilobytes on Linux
}

// Writes the export: per hour, 500 usage rows (200 committed, 300 on-demand) with 20 of the
// FOCUS columns a provider export carries.
qint64 writeExport(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return -1;
    file.write("BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ChargeFrequency,"
               "BillingCurrency,BilledCost,EffectiveCost,ListCost,PricingCategory,ResourceId,SkuId,RegionId,ServiceName,"
               "ServiceCategory,ConsumedQuantity,ConsumedUnit,CommitmentDiscountId,CommitmentDiscountStatus\r\n");
    QByteArray block;
    block.reserve(8 << 20);
    char line[512];
    const long long start = 1767225600; // 2026-01-01T00:00:00Z
    for (int h = 0; h < kHours; ++h) {
        const long long t = start + 3600LL * h;
        const long long days = t / 86400, secs = t % 86400;
        // civil date from days (Howard Hinnant's algorithm)
        const long long z = days + 719468, era = z / 146097, doe = z - era * 146097;
        const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
        const int d = int(doy - (153 * mp + 2) / 5 + 1), m = int(mp < 10 ? mp + 3 : mp - 9);
        const int y = int(yoe + era * 400 + (m <= 2));
        const int hour = int(secs / 3600);
        const int nextHour = (hour + 1) % 24;
        char from[32], to[32];
        std::snprintf(from, sizeof from, "%04d-%02d-%02dT%02d:00:00Z", y, m, d, hour);
        if (nextHour == 0) {
            const long long t2 = t + 3600, z2 = t2 / 86400 + 719468, era2 = z2 / 146097, doe2 = z2 - era2 * 146097;
            const long long yoe2 = (doe2 - doe2 / 1460 + doe2 / 36524 - doe2 / 146096) / 365;
            const long long doy2 = doe2 - (365 * yoe2 + yoe2 / 4 - yoe2 / 100), mp2 = (5 * doy2 + 2) / 153;
            const int d2 = int(doy2 - (153 * mp2 + 2) / 5 + 1), m2 = int(mp2 < 10 ? mp2 + 3 : mp2 - 9);
            std::snprintf(to, sizeof to, "%04d-%02d-%02dT00:00:00Z", int(yoe2 + era2 * 400 + (m2 <= 2)), m2, d2);
        } else {
            std::snprintf(to, sizeof to, "%04d-%02d-%02dT%02d:00:00Z", y, m, d, nextHour);
        }
        for (int r = 0; r < kResources; ++r) {
            const bool committed = r < kCommitted;
            const int cents = 98000 + (r * 37 + h * 11) % 2000; // $9.8000–$9.9999 an hour, 4 decimals
            const int n = std::snprintf(
                line, sizeof line,
                "%04d-%02d-01T00:00:00Z,%04d-%02d-01T00:00:00Z,%s,%s,Usage,Usage-Based,USD,%s,%d.%04d,%d.%04d,%s,"
                "arn:aws:ec2:us-east-1:123456789012:instance/i-%012d,AWS-USEAST1-P5-%s,us-east-1,"
                "Amazon Elastic Compute Cloud,Compute,1,Hours,%s,%s\r\n",
                y, m, y, m, from, to, committed ? "0" : "9.9999", cents / 10000, cents % 10000, 12, 2345,
                committed ? "Committed" : "Standard", r, committed ? "COMMITTED" : "ONDEMAND",
                committed ? "arn:aws:savingsplans::123456789012:savingsplan/sp-gpu-fleet" : "",
                committed ? "Used" : "");
            block.append(line, n);
        }
        if (block.size() > (6 << 20)) {
            file.write(block);
            block.clear();
        }
    }
    file.write(block);
    return file.size();
}

// CPU seconds this process has used (user + system): on a shared machine the wall time
// also counts the time other programs held the cores.
double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc > 1)
        kHours = std::max(1, std::atoi(argv[1]));
    QTemporaryDir dir;
    const QString path = dir.filePath("focus-year.csv");
    QElapsedTimer timer;
    timer.start();
    const qint64 bytes = writeExport(path);
    std::printf("generated %d resources x %d hours = %d rows, %.0f MiB, in %.1f s (peak RSS so far %.0f MiB)\n",
                kResources, kHours, kResources * kHours, double(bytes) / 1048576.0, timer.elapsed() / 1000.0,
                peakRssMiB());

    timer.restart();
    const double cpuBefore = cpuSeconds();
    const engine::FocusCharges charges = store::readFocusCsv(path);
    const double importSeconds = timer.elapsed() / 1000.0;
    const double importCpu = cpuSeconds() - cpuBefore;
    const double rss = peakRssMiB();
    std::printf("import FOCUS CSV (%zu rows): %.2f s wall, %.2f s CPU (target < 30 s) %s; peak RSS %.0f MiB "
                "(target < 1024 MiB) %s\n",
                charges.rows.size(), importSeconds, importCpu, importSeconds < 30 ? "OK" : "MISSED", rss,
                rss < 1024 ? "OK" : "MISSED");

    timer.restart();
    const engine::CommitmentReport report = engine::analyseCommitments(charges);
    std::printf("commitment utilization: %.2f s (%zu commitments, utilization %.3f)\n", timer.elapsed() / 1000.0,
                report.commitments.size(), report.commitments.empty() ? 0.0 : report.commitments[0].utilization);
    timer.restart();
    const engine::DailyCost daily = engine::dailyEffectiveCost(charges, "USD");
    std::printf("daily actuals: %.2f s (%zu days); peak RSS %.0f MiB\n", timer.elapsed() / 1000.0, daily.cost.size(),
                peakRssMiB());

    // What the workspace keeps and the Tracking page reads: the summary, stored and read back.
    timer.restart();
    const engine::ActualsSummary summary = engine::summarizeActuals(charges);
    std::printf("summarize: %.2f s (%zu commitment-hours, %zu on-demand entries, %zu currency-days)\n",
                timer.elapsed() / 1000.0, summary.commitmentHours.size(), summary.onDemand.size(), summary.days.size());
    double storeSeconds = 0, loadSeconds = 0;
    std::optional<engine::ActualsSummary> stored;
    {
        store::Workspace workspace(dir.filePath("bench.headroom"));
        timer.restart();
        const qint64 id = workspace.importActuals(QStringLiteral("focus-year.csv"), summary);
        storeSeconds = timer.elapsed() / 1000.0;
        timer.restart();
        stored = workspace.actuals(id);
        loadSeconds = timer.elapsed() / 1000.0;
    }
    std::printf("store the summary in a workspace: %.2f s; read it back: %.3f s; total import (read + summarize + "
                "store) %.2f s (target < 30 s) %s\n",
                storeSeconds, loadSeconds, importSeconds + storeSeconds, importSeconds + storeSeconds < 30 ? "OK" : "MISSED");

    // The Tracking page's recompute on a settings change: commitments, daily cost, anomalies on
    // it, plan versus actual (the engine part; median of 11 runs).
    std::vector<double> runs, commitmentRuns, anomalyRuns, planRuns, nextTermRuns;
    const auto cpuNow = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
    };
    for (int i = 0; i < 11; ++i) {
        const double t0 = cpuNow();
        const auto r = engine::analyseCommitments(*stored);
        const auto d = engine::dailyEffectiveCost(*stored, "USD");
        const double t1 = cpuNow();
        std::vector<double> series;
        for (const auto &c : d.cost)
            series.push_back(c.toDouble());
        engine::AnomalyOptions anomalyOptions;
        anomalyOptions.period = 7;
        // The page's anomalies: daily spend and usage hours, each sized in both.
        const auto a = engine::detectActualsAnomalies(*stored, "USD", anomalyOptions);
        const double t2 = cpuNow();
        const auto p = engine::comparePlan({*engine::Decimal::parse("95000"), "USD"}, d);
        const double t3 = cpuNow();
        // The next term of every commitment (reservation optimizer on the forecast).
        const auto next = engine::recommendCommitments(*stored);
        const double t4 = cpuNow();
        // The page keeps the next terms while the threshold or the plan change (they depend on
        // the import and the trailing window only): a recompute is t0 … t3; the next terms
        // are computed once per import or trailing window, reported on their own.
        runs.push_back(t3 - t0);
        commitmentRuns.push_back(t1 - t0);
        anomalyRuns.push_back(t2 - t1);
        planRuns.push_back(t3 - t2);
        nextTermRuns.push_back(t4 - t3);
        if (r.commitments.empty() || a.spendReport.history == 0 || a.usageReport.history == 0 || p.days.empty()
            || next.empty() || !next[0].available)
            return 1;
        if (i == 0)
            std::printf("next term of %s: %s\n", next[0].id.c_str(), next[0].reasoning.c_str());
    }
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("tracking recompute from the stored summary (CPU time of this thread, median of 11): %.1f ms "
                "(target < 50 ms) %s — commitments and daily cost %.1f ms, anomalies in spend and usage hours "
                "%.1f ms, plan with its forecast band %.1f ms; next-term recommendation (once per import or "
                "trailing window) %.1f ms; peak RSS %.0f MiB\n",
                median(runs), median(runs) < 50 ? "OK" : "MISSED", median(commitmentRuns), median(anomalyRuns),
                median(planRuns), median(nextTermRuns), peakRssMiB());
    return 0;
}
