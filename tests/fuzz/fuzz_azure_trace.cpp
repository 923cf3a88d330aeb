// Azure LLM inference trace CSV → requests → trace statistics.
#include "fuzzsupport.h"

#include "engine/serving/trace.h"
#include "store/serving/tracereaders.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto requests = headroom::store::parseAzureTrace(headroom::fuzz::bytesOf(data, size),
                                                               headroom::fuzz::kSource);
        headroom::engine::analyseTrace(requests);
    });
    return 0;
}
