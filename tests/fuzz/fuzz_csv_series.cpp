// Forecast inputs: the first byte picks a value series CSV or a one-number-a-line file.
#include "fuzzsupport.h"

#include "store/forecast/seriescsv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray text = headroom::fuzz::bytesOf(data + 1, size - 1);
    headroom::fuzz::refusalsAreFine([&] {
        if (data[0] % 2 == 0)
            headroom::store::parseValueSeries(text, headroom::fuzz::kSource);
        else
            headroom::store::parseNumberLines(text, headroom::fuzz::kSource);
    });
    return 0;
}
