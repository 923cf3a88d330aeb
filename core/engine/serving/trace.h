#pragma once

#include "engine/inference/workload.h"

#include <cstdint>
#include <optional>
#include <vector>

// Request traces (Azure LLM inference 2023, Mooncake): arrival rate, token percentiles and
// the prefix hit rate an infinite cache would see.
namespace headroom::engine {

struct TraceRequest {
    double timestampS = 0;               // seconds from any origin
    int64_t promptTokens = 0;
    int64_t outputTokens = 0;
    std::vector<int64_t> blockHashes;    // prefix-block hashes (512-token blocks), if the trace has them
};

struct TraceStats {
    int64_t requests = 0;
    double durationS = 0;                // last − first timestamp (latest − earliest)
    double rateMeanPerS = 0;             // requests / duration
    int64_t ratePeakPerMin = 0;          // most requests in one clock minute from the first timestamp
    TokenPercentiles promptTokens;       // type-7 percentiles
    TokenPercentiles outputTokens;
    std::optional<double> prefixHitRate; // share of blocks that are a leading block seen earlier
};

// Throws InputError("trace") for an empty trace, "timestamp" for a non-finite time and
// "prompt_tokens" / "output_tokens" for negative counts (the message names the request).
// rateMeanPerS is 0 when every request has the same timestamp.
TraceStats analyseTrace(const std::vector<TraceRequest> &requests);

} // namespace headroom::engine
