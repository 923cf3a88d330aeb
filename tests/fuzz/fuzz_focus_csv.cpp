// FOCUS cost-and-usage CSV → charge rows → commitment utilization and daily actuals.
#include "fuzzsupport.h"

#include "engine/tracking/tracking.h"
#include "store/tracking/focuscsv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto charges = headroom::store::parseFocusCsv(headroom::fuzz::bytesOf(data, size),
                                                            headroom::fuzz::kSource);
        headroom::engine::analyseCommitments(charges);
        for (const std::string &currency : charges.currencies)
            headroom::engine::dailyEffectiveCost(charges, currency);
    });
    return 0;
}
