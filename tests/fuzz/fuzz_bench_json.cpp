// `vllm bench serve` result JSON → benchmark run. Beyond "no crash", an accepted run must hold
// what calibration relies on, or the target aborts: requests ≥ 1, as many prompt as output
// lengths (at least one), every length ≥ 1, a rate ≥ 0, a concurrency ≥ 0 and one mean at least.
#include "fuzzsupport.h"

#include "store/serving/benchjson.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto run = headroom::store::parseBenchResult(headroom::fuzz::bytesOf(data, size), headroom::fuzz::kSource);
        bool ok = run.requests >= 1 && !run.promptTokens.empty() && run.promptTokens.size() == run.outputTokens.size()
                  && run.requestRate >= 0 && run.maxConcurrency >= 0
                  && (run.meanTtftMs || run.meanTpotMs || run.meanE2eMs);
        for (size_t i = 0; ok && i < run.promptTokens.size(); ++i)
            ok = run.promptTokens[i] >= 1 && run.outputTokens[i] >= 1;
        if (!ok)
            std::abort();
    });
    return 0;
}
