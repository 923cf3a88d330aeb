#include "engine/forecast/forecast_backtest.h"
#include "publictraces.h"
#include "engine/forecast/telemetry.h"
#include "common/storetestsupport.h"
#include "store/forecast/podsdemand.h"

#include <catch2/catch.hpp>

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <string>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;

namespace {

const QString kFolder = QStringLiteral(HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/");
const QByteArray kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

std::string errorOf(const QByteArray &csv)
{
    return storeErrorOf([&] { parsePodRecords(csv, QStringLiteral("pods.csv")); });
}

} // namespace

TEST_CASE("pod rows read GPUs, share, model list, QoS and times", "[podsdemand]")
{
    const QByteArray csv = kPodHeader + "p0,8000,1024,1,460,V100M16|V100M32,LS,Running,100,7300,100\n"
                                        "p1,4000,1024,0,0,,BE,Pending,0,3600,\n";
    const auto pods = parsePodRecords(csv, QStringLiteral("pods.csv"));
    REQUIRE(pods.size() == 2);
    CHECK(pods[0].name == "p0");
    CHECK(pods[0].gpus == 1);
    CHECK(pods[0].gpuMilli == 460);
    CHECK(pods[0].gpuSpec == "V100M16|V100M32");
    CHECK(pods[0].qos == "LS");
    CHECK(pods[0].phase == "Running");
    CHECK(pods[0].creationTime == 100);
    CHECK(pods[0].deletionTime == 7300);
    CHECK(pods[0].line == 2);
    CHECK(pods[1].phase == "Pending");
}

TEST_CASE("bad pod rows name the line and field", "[podsdemand]")
{
    std::string e = errorOf("name,num_gpu,gpu_milli\np,1,1000\n");
    CHECK(contains(e, "line 1: field \"creation_time\": missing column"));
    e = errorOf(kPodHeader + "p,1,1,1,1500,,LS,Running,0,10,0\n");
    CHECK(contains(e, "pods.csv: line 2: field \"gpu_milli\": 1500 is outside 0..1000"));
    e = errorOf(kPodHeader + "p,1,1,1,1000,,LS,Running,0,,0\n");
    CHECK(contains(e, "line 2: field \"deletion_time\": expected a whole number"));
    e = errorOf(kPodHeader + "p,1,1,1,1000,,LS,Running,50,10,0\n");
    CHECK(contains(e, "line 2: field \"deletion_time\": 10 is before the creation time 50"));
    e = errorOf(kPodHeader + "p,1,1,x,1000,,LS,Running,0,10,0\n");
    CHECK(contains(e, "field \"num_gpu\""));
    CHECK(contains(errorOf(kPodHeader), "no pods"));
}

TEST_CASE("the Alibaba-derived series imports and backtests", "[podsdemand][forecast]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("alibaba-gpu-v2023");
    const QString path = kFolder + "openb_pod_list_gpuspec33.csv";
    if (!QFileInfo::exists(path)) {
        WARN("skipped: the Alibaba GPU trace is not at " << path.toStdString());
        return;
    }
    const auto pods = readPodRecords(path);
    REQUIRE(pods.size() == 8152);
    const engine::PodDemand demand = engine::demandFromPods(pods, engine::PodSplit::GpuModel);
    CHECK(demand.startSeconds == 0);
    CHECK(demand.hours == 3585);
    CHECK(std::is_sorted(demand.names.begin(), demand.names.end()));
    CHECK(demand.names.size() > 5);
    REQUIRE(std::find(demand.names.begin(), demand.names.end(), "T4") != demand.names.end());
    REQUIRE(demand.names.back() == "any");

    // Every GPU-second lands in exactly one hour: the series add up to the pods' GPU-hours.
    double podHours = 0.0, seriesHours = 0.0;
    for (const auto &pod : pods)
        if (pod.deletionTime > pod.creationTime)
            podHours += pod.gpus * pod.gpuMilli / 1000.0 * double(pod.deletionTime - pod.creationTime) / 3600.0;
    for (double v : demand.total)
        seriesHours += v;
    CHECK(seriesHours == Approx(podHours).epsilon(1e-9));

    // The last four weeks of the unconstrained ("any") demand, daily season, three one-day origins.
    const std::vector<double> &any = demand.gpus.back();
    const std::vector<double> recent(any.end() - 28 * 24, any.end());
    engine::BacktestOptions options;
    options.origins = 3;
    options.horizon = 24;
    options.paths = 300;
    const engine::BacktestResult r = engine::backtestSmoothing(
        recent, {engine::TrendKind::None, engine::SeasonKind::Additive, 24}, {}, options);
    CHECK(r.points == 72);
    CHECK(std::isfinite(r.mape));
    CHECK(r.mape > 0.0);
    CHECK(r.mape < 50.0);
    CHECK(r.smape > 0.0);
    CHECK(r.smape < 50.0);
    CHECK(std::isfinite(r.mase));
    CHECK(r.mase > 0.0);
    CHECK(r.mase < 5.0);
    CHECK(r.coverage >= 0.5);
    CHECK(r.coverage <= 1.0);
    REQUIRE(r.pinball.size() == 2);
    CHECK(r.pinball[0] > 0.0);
    CHECK(r.pinball[1] > 0.0);
    CHECK(r.pinball[1] < r.pinball[0] * 3.0);
}

TEST_CASE("the default Alibaba pod list splits demand by QoS class", "[podsdemand]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("alibaba-gpu-v2023");
    const QString path = kFolder + "openb_pod_list_default.csv";
    if (!QFileInfo::exists(path)) {
        WARN("skipped: the Alibaba GPU trace is not at " << path.toStdString());
        return;
    }
    const engine::PodDemand demand = engine::demandFromPods(readPodRecords(path), engine::PodSplit::Qos);
    CHECK(demand.names == std::vector<std::string>{"BE", "Burstable", "Guaranteed", "LS"});
    CHECK(demand.podsCounted + demand.podsSkipped == 8152);
    double peak = 0.0;
    for (double v : demand.total)
        peak = std::max(peak, v);
    CHECK(peak > 10.0);
    CHECK(peak < 6212.0); // never more than the cluster's GPUs
}
