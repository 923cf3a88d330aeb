// Rate card CSV → rate cards, written back to CSV.
#include "fuzzsupport.h"

#include "store/cost/costcsv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto cards = headroom::store::parseRateCardsCsv(headroom::fuzz::bytesOf(data, size),
                                                              headroom::fuzz::kSource);
        headroom::store::rateCardsToCsv(cards);
    });
    return 0;
}
