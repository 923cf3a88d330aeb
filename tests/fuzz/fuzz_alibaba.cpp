// Alibaba GPU trace v2023 lists: the first byte picks the reader (node list, task list for
// the fragmentation simulator, pod list for hourly demand); the rest is the file.
#include "fuzzsupport.h"

#include "engine/forecast/telemetry.h"
#include "store/fragmentation/fragtrace.h"
#include "store/forecast/podsdemand.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray csv = headroom::fuzz::bytesOf(data + 1, size - 1);
    headroom::fuzz::refusalsAreFine([&] {
        switch (data[0] % 3) {
        case 0:
            headroom::store::parseFragNodes(csv, headroom::fuzz::kSource);
            break;
        case 1:
            headroom::store::parseFragTasks(csv, headroom::fuzz::kSource);
            break;
        default: {
            const auto pods = headroom::store::parsePodRecords(csv, headroom::fuzz::kSource);
            headroom::engine::demandFromPods(pods, headroom::engine::PodSplit(data[0] / 3 % 3));
            break;
        }
        }
    });
    return 0;
}
