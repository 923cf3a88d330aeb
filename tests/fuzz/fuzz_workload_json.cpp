// Workload JSON → workload profile, written back to JSON.
#include "fuzzsupport.h"

#include "store/inference/workloadjson.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto workload = headroom::store::parseWorkload(headroom::fuzz::bytesOf(data, size),
                                                             headroom::fuzz::kSource);
        headroom::store::workloadJsonText(workload);
    });
    return 0;
}
