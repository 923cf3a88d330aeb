// Store benchmarks: importing the shipped request traces (read + analyse, target < 300 ms
// for the Mooncake trace) and saving and reading back a year of hourly demand.
#include "engine/cost/demand.h"
#include "engine/serving/trace.h"
#include "store/inference/workloadjson.h"
#include "store/common/workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace headroom;

namespace {

void measure(const char *what, int repetitions, double targetMs, const std::function<void()> &work)
{
    std::vector<double> ms;
    for (int i = 0; i < repetitions; ++i) {
        QElapsedTimer timer;
        timer.start();
        work();
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-58s median %8.2f ms  min %8.2f ms  (n=%d, target < %.0f ms) %s\n", what, ms[ms.size() / 2],
                ms.front(), repetitions, targetMs, ms[ms.size() / 2] < targetMs ? "OK" : "MISSED");
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QString traces = QStringLiteral(HEADROOM_SHARED_DATA "/traces");
    int64_t sink = 0;
    measure("import Mooncake trace (12,031 requests): read + analyse", 10, 300, [&] {
        const auto requests = store::readMooncakeTrace(traces + "/mooncake-fast25/conversation_trace.jsonl");
        sink += engine::analyseTrace(requests).requests;
    });
    measure("import Azure conv trace (19,366 requests): read + analyse", 10, 300, [&] {
        const auto requests = store::readAzureTrace(traces + "/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv");
        sink += engine::analyseTrace(requests).requests;
    });

    QTemporaryDir dir;
    store::Workspace workspace(dir.filePath("bench.headroom"));
    engine::DemandShape shape;
    shape.hours = 8760;
    shape.noise = 0.05;
    const engine::DemandSeries year = engine::generateDemand(shape, "year");
    measure("save a year of hourly demand (8,760 points)", 10, 100, [&] { workspace.putDemandSeries(year); });
    measure("read a year of hourly demand back", 10, 100,
            [&] { sink += int64_t(workspace.demandSeries("year")->gpus.size()); });
    measure("open an existing workspace", 10, 1000, [&] {
        store::Workspace again(dir.filePath("bench.headroom"));
        sink += int64_t(again.gpus().size());
    });
    std::printf("(checksum %lld)\n", static_cast<long long>(sink));
    return 0;
}
