#pragma once

#include "engine/serving/calibration.h"

#include <QByteArray>
#include <QString>

// A `vllm bench serve` result file (`--save-result`) as a benchmark run to calibrate on
// (engine/serving/calibration.h). The fields read, as vLLM's benchmarks/serve.py writes them:
//   completed            requests that completed (≥ 1)
//   total_input_tokens, total_output_tokens   the run's prompt and output tokens
//   input_lens, output_lens   per request (--save-detailed); when present they give the
//                        requests' lengths, else every request has the run's mean lengths
//   request_rate         requests/s, or "inf" (all sent at once)
//   max_concurrency      the client's limit, or null
//   mean_ttft_ms, mean_tpot_ms, mean_e2el_ms   the means compared (any present; E2E appears
//                        only with --percentile-metrics including e2el)
// Other fields are ignored. A missing or malformed field throws StoreError
// "<source>: field "F": ..." and nothing is returned.
namespace headroom::store {

engine::BenchmarkRun parseBenchResult(const QByteArray &json, const QString &sourceName);
engine::BenchmarkRun readBenchResult(const QString &path);

} // namespace headroom::store
