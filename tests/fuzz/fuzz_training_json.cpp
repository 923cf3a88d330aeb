// Training job JSON → training job, written back to JSON.
#include "fuzzsupport.h"

#include "store/training/trainingjson.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto job = headroom::store::parseTrainingJob(headroom::fuzz::bytesOf(data, size),
                                                           headroom::fuzz::kSource);
        headroom::store::trainingJobJsonText(job);
    });
    return 0;
}
