// Fleet scenario JSON → scenario, written back to JSON.
#include "fuzzsupport.h"

#include "store/fleet/scenariojson.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto scenario = headroom::store::parseScenario(headroom::fuzz::bytesOf(data, size),
                                                             headroom::fuzz::kSource);
        headroom::store::scenarioJsonText(scenario);
    });
    return 0;
}
