// Step-time CSV → table → decode and prefill lookups inside and beyond the measured range.
#include "fuzzsupport.h"

#include "engine/serving/step_time_table.h"
#include "store/serving/steptimecsv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto table = headroom::store::parseStepTimes(headroom::fuzz::bytesOf(data, size),
                                                           headroom::fuzz::kSource);
        const headroom::engine::StepTimeModel model(table);
        for (int64_t batch : {0, 1, 7, 300})
            for (double context : {0.0, 100.0, 1e6})
                model.decodeSeconds(batch, context);
        for (double tokens : {0.0, 1.0, 513.0, 1e6})
            model.prefillSeconds(tokens);
    });
    return 0;
}
