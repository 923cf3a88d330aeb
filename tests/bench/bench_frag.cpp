// Fragmentation simulator benchmark (DESIGN §7): FGD over the full default Alibaba trace at
// 1.3 × load on one core (target < 2 s), its peak memory, then every policy × 10 seeds on
// parallel threads with the allocation rate at 100 % arrived (mean ± sd).
#include "engine/frag.h"
#include "store/fragtrace.h"

#include <QCoreApplication>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>
#include <thread>

using namespace headroom;
using namespace headroom::engine;

namespace {

constexpr double kTargetSeconds = 2.0;
constexpr int kSeeds = 10;

// Peak resident memory of this process in KiB (VmHWM in /proc/self/status), 0 if unknown.
long peakResidentKiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6));
    }
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QString folder = QStringLiteral(HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/");
    const auto nodes = store::readFragNodes(folder + QStringLiteral("openb_node_list_gpu_node.csv"));
    const auto tasks = store::readFragTasks(folder + QStringLiteral("openb_pod_list_default.csv"));
    std::printf("trace: %zu nodes, %zu tasks\n", nodes.size(), tasks.size());
    const long baseKiB = peakResidentKiB();

    frag::RunOptions options;
    options.policy = frag::Policy::Fgd;
    options.load = 1.3;
    std::vector<double> seconds;
    frag::RunResult fgd;
    for (int i = 0; i < 3; ++i) {
        fgd = frag::simulate(nodes, tasks, options);
        seconds.push_back(fgd.runtimeS);
    }
    std::sort(seconds.begin(), seconds.end());
    std::printf("FGD, default trace, load 1.3, seed 0, one core: median %.3f s  min %.3f s  (n=3, %lld tasks, "
                "target < %.0f s) %s\n",
                seconds[1], seconds[0], static_cast<long long>(fgd.arrivedTasks), kTargetSeconds,
                seconds[1] < kTargetSeconds ? "OK" : "MISSED");
    std::printf("peak resident memory: %.1f MiB (%.1f MiB after loading the trace)\n", peakResidentKiB() / 1024.0,
                baseKiB / 1024.0);

    std::vector<uint32_t> seeds(kSeeds);
    std::iota(seeds.begin(), seeds.end(), 0u);
    std::printf("\nall policies x %d seeds on %u threads, load 1.3\n", kSeeds, std::thread::hardware_concurrency());
    std::printf("%-11s %22s %24s %8s\n", "policy", "allocated % at 100 %", "unallocated GPUs at 100 %", "wall s");
    for (const frag::Policy policy : frag::allPolicies()) {
        options.policy = policy;
        const auto started = std::chrono::steady_clock::now();
        const frag::SeedsResult result = frag::simulateSeeds(nodes, tasks, options, seeds);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::printf("%-11s %14.2f ± %5.2f %16.1f ± %5.1f %8.2f\n", std::string(frag::toString(policy)).c_str(),
                    result.allocatedPctAt100.mean, result.allocatedPctAt100.sd, result.unallocatedGpusAt100.mean,
                    result.unallocatedGpusAt100.sd, wall);
    }
    std::printf("peak resident memory: %.1f MiB\n", peakResidentKiB() / 1024.0);
    return 0;
}
