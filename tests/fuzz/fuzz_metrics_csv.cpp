// Serving metrics CSV → replica-hours → per-replica summary, rightsizing and a benchmark window.
#include "fuzzsupport.h"

#include "engine/tracking/serving_metrics.h"
#include "store/tracking/metricscsv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto file = headroom::store::parseMetricsCsv(headroom::fuzz::bytesOf(data, size),
                                                           headroom::fuzz::kSource);
        for (const auto &hour : file.hours.hours)
            headroom::engine::validate(hour);
        headroom::engine::summarizeReplicas(file.hours);
        headroom::engine::rightsize(headroom::engine::lastDays(file.hours, 7));
        if (!file.hours.hours.empty())
            headroom::engine::benchmarkHistory(file.hours, {{"x", file.hours.hours.front().hour / 24, ""}});
    });
    return 0;
}
