// Times the shared-cluster what-if (DESIGN §3.5): each of Pollux's eight published 160-job
// workloads replayed on 16 × 4 GPUs under fixed first-come-first-served, Tiresias's least-
// attained-service and co-adaptive allocation; one workload's three replays must take < 2 s.
// Prints each average JCT beside the one Pollux's artifact published.

#include "benchtiming.h"
#include "engine/training/cluster_replay.h"
#include "store/training/clustertrace.h"

#include <QCoreApplication>
#include <cstdio>

using namespace headroom;

using headroom::bench::Timing;
using headroom::bench::measure;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    constexpr double kTargetMillis = 2000.0;
    const auto apps = store::readClusterApplications(QString());
    const engine::ClusterOptions options;
    double worst = 0;
    std::printf("workload  jobs  replay ms (3 policies)  fixed-fcfs s  fixed-las s (published tiresias)  "
                "co-adaptive s (published pollux)\n");
    for (int i = 1; i <= 8; ++i) {
        const QString name = QStringLiteral("pollux-%1").arg(i);
        const auto jobs = store::readClusterWorkload(name);
        const auto published = store::publishedAverageJct(name);
        std::vector<engine::ClusterReplay> replays;
        const Timing t = measure(1, 5, [&] {
            replays.clear();
            for (auto policy : {engine::ClusterPolicy::FixedFcfs, engine::ClusterPolicy::FixedLas,
                                engine::ClusterPolicy::CoAdaptive})
                replays.push_back(engine::replayCluster(apps, jobs, options, policy));
        });
        worst = std::max(worst, t.medianMillis());
        std::printf("%-9s %4zu  %10.1f  %22.0f  %11.0f (%6.0f, %+5.1f %%)  %12.0f (%6.0f, %+5.1f %%)\n",
                    qPrintable(name), jobs.size(), t.medianMillis(), replays[0].averageJctSeconds,
                    replays[1].averageJctSeconds, published.at(QStringLiteral("tiresias")),
                    100.0 * (replays[1].averageJctSeconds / published.at(QStringLiteral("tiresias")) - 1),
                    replays[2].averageJctSeconds, published.at(QStringLiteral("pollux")),
                    100.0 * (replays[2].averageJctSeconds / published.at(QStringLiteral("pollux")) - 1));
    }
    std::printf("slowest workload, three replays: median %.1f ms; target < %.0f ms: %s\n", worst, kTargetMillis,
                worst < kTargetMillis ? "met" : "MISSED");
    return worst < kTargetMillis ? 0 : 1;
}
