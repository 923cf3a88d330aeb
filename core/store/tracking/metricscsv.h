#pragma once

#include "engine/tracking/serving_metrics.h"

#include <QByteArray>
#include <QString>
#include <optional>
#include <vector>

// Serving and GPU telemetry as a DCGM-exporter / Prometheus range-query export in long form,
// one sample per row (core/store/README.md, "Serving metrics CSV"):
//   timestamp,instance,gpu,metric,value[,deployment][,le]
// timestamp is RFC 3339 ("2026-03-02T14:00:00Z", an offset is applied) or Unix epoch seconds
// ("1772460000", a fraction is cut); instance names the replica; gpu the GPU index for the
// DCGM metrics (empty for the serving metrics); deployment, when the column is there, groups
// replicas serving the same model ("default" otherwise). Metrics read: DCGM_FI_DEV_GPU_UTIL
// (percent, 0–100), DCGM_FI_DEV_FB_USED (MiB), vllm:num_requests_running,
// vllm:num_requests_waiting, vllm:gpu_cache_usage_perc (0–1), and the counters
// vllm:request_success_total, vllm:generation_tokens_total and vllm:prompt_tokens_total, and
// the histogram bucket counters vllm:time_to_first_token_seconds_bucket and
// vllm:e2e_request_latency_seconds_bucket, one series per upper bound in the le column
// (seconds, or "+Inf"; Prometheus' le label). Rows of any other metric are counted and ignored. Columns are found by name in any order; extra
// columns are ignored; blank lines are skipped.
//
// Refused with a StoreError "<source>: line N: field "F": ..." (or "line N: field M: not
// UTF-8 text"), nothing returned: a missing column, a bad time, an empty instance, a DCGM row
// without gpu, a sample dated more than a day after the current time (a 9999-12-31 stamp
// would become the latest hour), a bucket row without a positive le or +Inf, a value that is not a finite number, a negative value, GPU utilization above
// 100 or cache usage above 1, two samples of one series at the same time, no sample of a
// known metric, and anything past the "serving metrics CSV" import limits.
namespace headroom::store {

// The file reduced to replica-hours (engine::aggregateServingHours): the samples themselves
// are not kept.
struct MetricsFile {
    engine::ServingHours hours;
    qint64 rows = 0;                                     // data rows read
    qint64 samples = 0;                                  // rows of a known metric
    std::vector<std::pair<QString, qint64>> ignored;     // unknown metric → rows, in first-seen order
    qint64 ignoredRows() const;
};

MetricsFile parseMetricsCsv(const QByteArray &csv, const QString &sourceName);

// A histogram bucket's upper bound (Prometheus' le label): a positive number of seconds, or
// +∞ for "+Inf"; nullopt for anything else.
std::optional<double> parseBucketBound(const QString &le);
// Why a sample's value cannot be the metric's ("is negative; … is never below 0", "is above
// 100; …", "is above 1; …"), or "" when it can; `metricName` is the name it came under.
QString servingValueProblem(engine::ServingMetric metric, const QString &metricName, double value);
MetricsFile readMetricsCsv(const QString &path);

} // namespace headroom::store
