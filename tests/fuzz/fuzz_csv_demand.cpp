// Hourly demand CSV → demand series → the exact reservation sweep over it.
#include "fuzzsupport.h"

#include "engine/cost/cost.h"
#include "store/cost/costcsv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto series = headroom::store::parseDemandCsv(headroom::fuzz::bytesOf(data, size),
                                                            headroom::fuzz::kSource);
        headroom::store::demandToCsv(series);
        headroom::engine::analyseReservation(series, headroom::engine::Money::parse("2.5"),
                                             headroom::engine::Money::parse("4"));
    });
    return 0;
}
