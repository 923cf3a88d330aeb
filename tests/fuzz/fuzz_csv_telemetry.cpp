// Telemetry CSV by primitive → samples → hourly series per primitive (and the total).
#include "fuzzsupport.h"

#include "engine/forecast/telemetry.h"
#include "store/forecast/telemetrycsv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto samples = headroom::store::parseTelemetry(headroom::fuzz::bytesOf(data, size),
                                                             headroom::fuzz::kSource);
        const auto hourly = headroom::engine::aggregateHourly(samples);
        hourly.total();
    });
    return 0;
}
