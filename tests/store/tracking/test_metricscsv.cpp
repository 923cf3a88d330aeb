#include "common/storetestsupport.h"

#include "engine/common/calendar.h"
#include "store/tracking/metricscsv.h"
#include "store/common/workspace.h"

#include <QDateTime>
#include <QSignalSpy>
#include <cmath>
#include <string>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

const QByteArray kHeader = "timestamp,instance,gpu,metric,value\n";

std::string errorOf(const QByteArray &csv)
{
    return storeErrorOf([&] { parseMetricsCsv(csv, QStringLiteral("m.csv")); });
}

} // namespace

TEST_CASE("a metrics export reads RFC 3339 and epoch times, any column order, and ignores unknown metrics with a count",
          "[metricscsv]")
{
    // 2026-03-02T10:00:00Z = 1772445600.
    const QByteArray csv = "value,metric,gpu,instance,timestamp,job\n"
                           "40,DCGM_FI_DEV_GPU_UTIL,0,a,2026-03-02T10:00:00Z,x\n"
                           "80,DCGM_FI_DEV_GPU_UTIL,1,a,1772445600,x\n"
                           "\n"
                           "60,DCGM_FI_DEV_GPU_UTIL,0,a,2026-03-02T11:30:00+01:00,x\n"
                           "1980,DCGM_FI_DEV_SM_CLOCK,0,a,1772445600,x\n"
                           "1980,DCGM_FI_DEV_SM_CLOCK,1,a,1772445600,x\n"
                           "0,vllm:generation_tokens_total,,a,1772445600.25,x\n"
                           "36000,vllm:generation_tokens_total,,a,1772447400,x\n"
                           "3,vllm:num_requests_waiting,,a,1772445600,x\n"
                           "5,vllm:time_to_first_token_seconds_sum,,a,1772445600,x\n";
    const MetricsFile file = parseMetricsCsv(csv, QStringLiteral("m.csv"));
    CHECK(file.rows == 9);
    CHECK(file.samples == 6);
    REQUIRE(file.ignored.size() == 2);
    CHECK(file.ignored[0].first == QStringLiteral("DCGM_FI_DEV_SM_CLOCK"));
    CHECK(file.ignored[0].second == 2);
    CHECK(file.ignoredRows() == 3);
    REQUIRE(file.hours.hours.size() == 1);
    const engine::ServingHour &h = file.hours.hours[0];
    CHECK(h.deployment == "default");
    CHECK(h.instance == "a");
    CHECK(h.hour == 1772445600 / 3600);
    CHECK(h.gpus == 2);
    CHECK(h.gpuUtilMean == Approx(60.0));     // 11:30+01:00 is 10:30Z: (40 + 80 + 60) / 3
    CHECK(h.gpuUtilPeak == 80.0);
    CHECK(h.waitingMean == 3.0);
    CHECK(h.generationTokens.increase == 36000.0);
    CHECK(h.generationTokens.seconds == 1800.0);   // the fraction of .25 is cut
    CHECK(h.generationTokens.perSecond() == Approx(20.0));
}

TEST_CASE("a counter reset in a metrics export is read as a restart from 0", "[metricscsv]")
{
    const QByteArray csv = kHeader + "1772445600,a,,vllm:request_success_total,100\n"
                                     "1772447400,a,,vllm:request_success_total,280\n"
                                     "1772449200,a,,vllm:request_success_total,30\n";
    const MetricsFile file = parseMetricsCsv(csv, QStringLiteral("m.csv"));
    CHECK(file.hours.counterResets == 1);
    REQUIRE(file.hours.hours.size() == 2);
    CHECK(file.hours.hours[0].requests.increase == 180.0);
    CHECK(file.hours.hours[1].requests.increase == 30.0);
    CHECK(file.hours.hours[1].requests.perSecond() == Approx(30.0 / 1800.0));
}

TEST_CASE("bad metrics exports are refused naming the line and field", "[metricscsv]")
{
    CHECK_THAT(errorOf("timestamp,instance,metric,value\n1772445600,a,vllm:num_requests_waiting,1\n"),
               Contains("m.csv: line 1: field \"gpu\": missing column"));
    CHECK_THAT(errorOf(kHeader + "02/03/2026 10:00,a,0,DCGM_FI_DEV_GPU_UTIL,40\n"),
               Contains("m.csv: line 2: field \"timestamp\": '02/03/2026 10:00' is neither RFC 3339"));
    CHECK_THAT(errorOf(kHeader + "1772445600,a,,vllm:num_requests_waiting,-1\n"),
               Contains("line 2: field \"value\": -1 is negative"));
    CHECK_THAT(errorOf(kHeader + "1772445600,a,0,DCGM_FI_DEV_GPU_UTIL,101\n"),
               Contains("line 2: field \"value\": 101 is above 100"));
    CHECK_THAT(errorOf(kHeader + "1772445600,a,,vllm:gpu_cache_usage_perc,87\n"),
               Contains("line 2: field \"value\": 87 is above 1"));
    CHECK_THAT(errorOf(kHeader + "1772445600,a,,vllm:num_requests_running,NaN\n"),
               Contains("line 2: field \"value\": 'NaN' is not a finite number"));
    CHECK_THAT(errorOf(kHeader + "1772445600,a,,vllm:num_requests_running,lots\n"),
               Contains("line 2: field \"value\": 'lots' is not a number"));
    CHECK_THAT(errorOf(kHeader + "1772445600,,,vllm:num_requests_running,1\n"),
               Contains("line 2: field \"instance\": is empty"));
    CHECK_THAT(errorOf(kHeader + "1772445600,a,,DCGM_FI_DEV_GPU_UTIL,50\n"),
               Contains("line 2: field \"gpu\": is empty; DCGM_FI_DEV_GPU_UTIL is a per-GPU metric"));
    CHECK_THAT(errorOf(kHeader + "1772445600,a,0,DCGM_FI_DEV_GPU_UTIL,50\n1772445600,a,0,DCGM_FI_DEV_GPU_UTIL,51\n"),
               Contains("m.csv: lines 2 and 3 both give DCGM_FI_DEV_GPU_UTIL of instance 'a' gpu 0"));
    CHECK_THAT(errorOf(kHeader + "1772445600,a,0,DCGM_FI_DEV_GPU_UTIL\n"),
               Contains("line 2 has 4 values but the header names 5 columns"));
    CHECK_THAT(errorOf(kHeader + "1772445600,caf\xe9,0,DCGM_FI_DEV_GPU_UTIL,1\n"),
               Contains("line 2: field 2: not UTF-8 text (byte 0xe9)"));
    CHECK_THAT(errorOf(kHeader + "1772445600,a,0,DCGM_FI_DEV_SM_CLOCK,1\n"),
               Contains("no sample of a known metric after the header on line 1 (1 rows of other metrics ignored)"));
    CHECK_THAT(errorOf(""), Contains("the file is empty"));
}

TEST_CASE("a sample dated far in the future is refused rather than becoming the latest hour", "[metricscsv]")
{
    const QByteArray good = "2026-03-02T10:00:00Z,a,0,DCGM_FI_DEV_GPU_UTIL,40\n";
    CHECK_THAT(errorOf(kHeader + good + "9999-12-31T00:00:00Z,a,0,DCGM_FI_DEV_GPU_UTIL,40\n"),
               Contains("m.csv: line 3: field \"timestamp\": '9999-12-31T00:00:00Z' is more than a day after the "
                        "current time"));
    CHECK_THAT(errorOf(kHeader + good + "253402214400,a,0,DCGM_FI_DEV_GPU_UTIL,40\n"),
               Contains("line 3: field \"timestamp\": '253402214400' is more than a day after"));
    // Up to a day ahead of this machine's clock is accepted (exporters' clocks differ).
    const qint64 soon = QDateTime::currentSecsSinceEpoch() + 3600;
    const MetricsFile file = parseMetricsCsv(kHeader + good + QByteArray::number(soon) + ",a,0,DCGM_FI_DEV_GPU_UTIL,40\n",
                                             QStringLiteral("m.csv"));
    CHECK(file.samples == 2);
}

TEST_CASE("the shipped synthetic serving metrics sample reads", "[metricscsv]")
{
    const MetricsFile file = readMetricsCsv(sourceFile(QStringLiteral("data/samples/serving-metrics.csv")));
    CHECK(file.ignored.size() == 1);
    // r2 and r3 restart: 3 counters and 7 + 6 latency bucket counters each.
    CHECK(file.hours.counterResets == 32);
    const auto replicas = engine::summarizeReplicas(file.hours);
    REQUIRE(replicas.size() == 4);
    CHECK(replicas[0].deployment == "llama-3.1-70b-chat");
    CHECK(replicas[0].gpus == 2);
}

TEST_CASE("serving metrics and optimizations are kept in the workspace, all or nothing", "[metricscsv][workspace]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    QSignalSpy changed(&workspace, &Workspace::servingMetricsChanged);
    const QByteArray csv = kHeader + "1772445600,a,0,DCGM_FI_DEV_GPU_UTIL,40\n"
                                     "1772445600,a,,vllm:generation_tokens_total,0\n"
                                     "1772447400,a,,vllm:generation_tokens_total,36000\n"
                                     "1772449200,b,,vllm:num_requests_waiting,2\n";
    const MetricsFile file = parseMetricsCsv(csv, QStringLiteral("m.csv"));
    const qint64 id = workspace.importServingMetrics(QStringLiteral("m.csv"), file.rows, file.ignoredRows(), file.hours);
    CHECK(changed.count() == 1);
    const auto imports = workspace.servingMetricsImports();
    REQUIRE(imports.size() == 1);
    CHECK(imports[0].id == id);
    CHECK(imports[0].rowCount == 4);
    CHECK(imports[0].hourCount == 2);
    const engine::ServingHours stored = workspace.servingHours();
    REQUIRE(stored.hours.size() == 2);
    CHECK(stored.hours[0].gpuUtilMean == 40.0);
    CHECK(std::isnan(stored.hours[0].waitingMean));
    CHECK(stored.hours[0].generationTokens.increase == 36000.0);
    CHECK(stored.hours[1].instance == "b");
    CHECK(stored.hours[1].waitingMean == 2.0);
    CHECK(std::isnan(stored.hours[1].gpuUtilMean));

    // A bad replica-hour changes nothing.
    engine::ServingHours bad = file.hours;
    bad.hours[0].kvCacheMean = 1.5;
    CHECK_THAT(storeErrorOf([&] { workspace.importServingMetrics(QStringLiteral("bad.csv"), 1, 0, bad); }),
               Contains("bad.csv: instance a, hour 492346: field \"kv_cache_mean\""));
    CHECK(workspace.servingMetricsImports().size() == 1);

    // The same name replaces the import.
    workspace.importServingMetrics(QStringLiteral("m.csv"), file.rows, file.ignoredRows(), file.hours);
    CHECK(workspace.servingMetricsImports().size() == 1);
    CHECK(workspace.servingHours().hours.size() == 2);

    const int64_t day = engine::daysSinceEpoch(*engine::parseIsoDate("2026-03-10"));
    workspace.addOptimization({"FP8 weights", day, "weights and KV in FP8"});
    workspace.addOptimization({"prefix caching on", day - 5, ""});
    CHECK_THAT(storeErrorOf([&] { workspace.addOptimization({"FP8 weights", day + 1, ""}); }),
               Contains("optimization \"FP8 weights\" already exists"));
    CHECK_THAT(storeErrorOf([&] { workspace.addOptimization({"", day, ""}); }), Contains("field \"name\""));
    const auto optimizations = workspace.optimizations();
    REQUIRE(optimizations.size() == 2);
    CHECK(optimizations[0].name == "prefix caching on");
    CHECK(optimizations[1].day == day);
    CHECK(optimizations[1].note == "weights and KV in FP8");
    CHECK(workspace.removeOptimization(QStringLiteral("prefix caching on")));
    CHECK_FALSE(workspace.removeOptimization(QStringLiteral("prefix caching on")));
    CHECK(workspace.optimizations().size() == 1);

    CHECK(workspace.removeServingMetricsImport(imports[0].id + 1));
    CHECK(workspace.servingHours().hours.empty());
}

TEST_CASE("latency histogram buckets read with their le bound and are kept in the workspace", "[metricscsv][workspace]")
{
    const QByteArray header = "timestamp,instance,gpu,metric,value,le\n";
    // Two scrapes of TTFT buckets 0.5 s, 1 s and +Inf: 40, 55, 60 requests in the interval.
    const QByteArray csv = header + "1772445600,a,,vllm:time_to_first_token_seconds_bucket,100,0.5\n"
                                    "1772445600,a,,vllm:time_to_first_token_seconds_bucket,110,1\n"
                                    "1772445600,a,,vllm:time_to_first_token_seconds_bucket,120,+Inf\n"
                                    "1772447400,a,,vllm:time_to_first_token_seconds_bucket,140,0.5\n"
                                    "1772447400,a,,vllm:time_to_first_token_seconds_bucket,165,1\n"
                                    "1772447400,a,,vllm:time_to_first_token_seconds_bucket,180,+Inf\n"
                                    "1772447400,a,,vllm:e2e_request_latency_seconds_bucket,7,+Inf\n";
    const MetricsFile file = parseMetricsCsv(csv, QStringLiteral("m.csv"));
    REQUIRE(file.hours.hours.size() == 1);
    const engine::LatencyHistogram &ttft = file.hours.hours[0].ttft;
    REQUIRE(ttft.buckets.size() == 3);
    CHECK(ttft.buckets[0] == std::pair<double, double>{0.5, 40});
    CHECK(ttft.buckets[1] == std::pair<double, double>{1.0, 55});
    CHECK(std::isinf(ttft.buckets[2].first));
    CHECK(ttft.count() == 60);
    // P95: rank 57 in the +Inf bucket → the largest finite bound, 1 s; P50: 0.5 × 30 ÷ 40.
    CHECK(ttft.quantile(0.95) == 1.0);
    CHECK(ttft.quantile(0.50) == Approx(0.375));

    // Kept bound by bound, +Inf included.
    WorkspaceLocation location;
    Workspace workspace(location.path());
    workspace.importServingMetrics(QStringLiteral("m.csv"), file.rows, file.ignoredRows(), file.hours);
    const engine::ServingHours stored = workspace.servingHours();
    REQUIRE(stored.hours.size() == 1);
    CHECK(stored.hours[0].ttft.buckets == ttft.buckets);
    CHECK(stored.hours[0].e2e.empty());

    // A bucket row needs its bound.
    CHECK_THAT(errorOf(kHeader + "1772445600,a,,vllm:time_to_first_token_seconds_bucket,1\n"),
               Contains("line 2: field \"le\": missing column"));
    CHECK_THAT(storeErrorOf([&] { parseMetricsCsv(header + "1772445600,a,,vllm:e2e_request_latency_seconds_bucket,1,\n", "m.csv"); }),
               Contains("line 2: field \"le\": is empty"));
    CHECK_THAT(storeErrorOf([&] { parseMetricsCsv(header + "1772445600,a,,vllm:e2e_request_latency_seconds_bucket,1,-2\n", "m.csv"); }),
               Contains("line 2: field \"le\": '-2' is not a positive number of seconds or +Inf"));
    // Other metrics ignore the column.
    CHECK(parseMetricsCsv(header + "1772445600,a,0,DCGM_FI_DEV_GPU_UTIL,40,\n", "m.csv").hours.hours.size() == 1);
}
