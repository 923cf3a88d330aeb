// Mooncake trace JSONL → requests → trace statistics (with the prefix hit rate).
#include "fuzzsupport.h"

#include "engine/serving/trace.h"
#include "store/serving/tracereaders.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto requests = headroom::store::parseMooncakeTrace(headroom::fuzz::bytesOf(data, size),
                                                                  headroom::fuzz::kSource);
        headroom::engine::analyseTrace(requests);
    });
    return 0;
}
