#include "common/storetestsupport.h"
#include "store/training/clustertrace.h"

#include <catch2/catch.hpp>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;

namespace {

const QByteArray kApps = "application,init_batch,max_batch,min_local_batch,max_local_batch,max_epochs,fixed_batch,"
                         "alpha_c,beta_c,alpha_n,beta_n,alpha_r,beta_r,gamma\n"
                         "toy,8,32,2,16,2,0,0.1,0.01,0.2,0.02,0.05,0.005,1.5\n";
const QByteArray kEpochs = "application,batch,epoch,progress,grad_sqr,grad_var\n"
                           "toy,8,0,100,1,4\ntoy,8,1,200,1,8\ntoy,8,2,300,1,9\n"
                           "toy,32,0,110,2,4\ntoy,32,1,190,2,8\ntoy,32,2,290,2,9\n";

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("cluster traces: applications and epochs read, epochs past max_epochs dropped", "[clustertrace]")
{
    const auto apps = parseClusterApplications(kApps, kEpochs, QStringLiteral("dir"));
    REQUIRE(apps.size() == 1);
    const auto &a = apps[0];
    CHECK(a.name == "toy");
    CHECK(a.initialBatch == 8);
    CHECK(a.maxMicroBatch == 16);
    CHECK(a.perf.gamma == 1.5);
    CHECK(a.perf.alphaInter == 0.2);
    CHECK(a.batches == std::vector<int64_t>{8, 32});
    CHECK(a.progress[1] == std::vector<double>{110, 190});
    CHECK(a.gradVar[0] == std::vector<double>{4, 8});
}

TEST_CASE("cluster traces: bad files are refused naming file, line and field", "[clustertrace]")
{
    auto appsError = [](const QByteArray &apps, const QByteArray &epochs) {
        return storeErrorOf([&] { parseClusterApplications(apps, epochs, QStringLiteral("dir")); });
    };
    CHECK(contains(appsError(QByteArray(kApps).replace("0.1,0.01", "x,0.01"), kEpochs),
                   "dir/applications.csv: line 2: field \"alpha_c\": 'x' is not a number"));
    CHECK(contains(appsError(kApps + "toy,8,32,2,16,2,0,0.1,0.01,0.2,0.02,0.05,0.005,1.5\n", kEpochs),
                   "line 3: field \"application\": toy is given twice"));
    CHECK(contains(appsError(QByteArray(kApps).replace(",gamma", ""), kEpochs), "field \"gamma\": missing column"));
    CHECK(contains(appsError(kApps, kEpochs + "other,8,0,1,1,1\n"),
                   "dir/epochs.csv: line 8: field \"application\": 'other' is not in applications.csv"));
    CHECK(contains(appsError(kApps, QByteArray(kEpochs).replace("toy,8,1,200", "toy,8,2,200")),
                   "line 3: field \"epoch\": 2 where epoch 1 is due"));
    CHECK(contains(appsError(kApps, "application,batch,epoch,progress,grad_sqr,grad_var\n"
                                    "toy,32,0,1,1,1\ntoy,8,0,1,1,1\n"),
                   "line 3: field \"batch\": 8 comes after batch 32"));
    CHECK(contains(appsError(kApps, "application,batch,epoch,progress,grad_sqr,grad_var\n"),
                   "application toy has no epochs"));

    auto workloadError = [](const QByteArray &csv) {
        return storeErrorOf([&] { parseClusterWorkload(csv, QStringLiteral("w.csv")); });
    };
    const QByteArray header = "name,time,application,num_replicas,batch_size\n";
    CHECK(contains(workloadError(header + "j1,0,toy,1,8\nj1,5,toy,1,8\n"), "w.csv: line 3: field \"name\": j1 is given twice"));
    CHECK(contains(workloadError(header + "j1,0,toy,0,8\n"), "field \"num_replicas\": 0 is outside 1"));
    CHECK(contains(workloadError(header + "j1,soon,toy,1,8\n"), "field \"time\": 'soon' is not a number"));
    CHECK(contains(workloadError(header), "w.csv: no job"));
    CHECK(contains(workloadError("name,time\n"), "field \"application\": missing column"));
    CHECK(contains(storeErrorOf([] { readClusterWorkload(QStringLiteral("pollux-9")); }), "pollux-9: cannot read"));
}

TEST_CASE("cluster traces: the shipped Pollux applications and workloads", "[clustertrace]")
{
    const auto apps = readClusterApplications(QString());
    REQUIRE(apps.size() == 6);
    for (const auto &a : apps) {
        INFO(a.name);
        CHECK(a.batches.front() == a.initialBatch);
        CHECK(a.batches.back() == a.maxBatch);
    }
    CHECK(apps[1].name == "cifar10");
    CHECK(apps[1].progress[0].size() == 100);   // max_epochs
    for (int i = 1; i <= 8; ++i)
        CHECK(readClusterWorkload(QStringLiteral("pollux-%1").arg(i)).size() == 160);
    const auto published = publishedAverageJct(QStringLiteral("pollux-6"));
    CHECK(published.at(QStringLiteral("pollux")) == Approx(2446.13125));
    CHECK(published.at(QStringLiteral("tiresias")) == Approx(3469.69375));
    CHECK(publishedAverageJct(QStringLiteral("my-workload.csv")).empty());
}

// Pollux's §5.3 result on its own eight workloads (results-jobload/*-1.0): Pollux's average JCT
// 31.9 % below Tiresias+TunedJobs over the eight (2,751 s against 4,038 s). The replay must keep
// that ordering on every workload, land each policy's average within 20 % of the published one,
// and reach at least the reported margin (31.9 %, less 2 points) without overshooting it by more
// than 6 points. (The replay gives 37.2 %: its Tiresias runs about 10 % slow, its Pollux about 1 %.)
TEST_CASE("cluster replay reproduces Pollux's published ordering on its eight workloads", "[clustertrace][pollux]")
{
    const auto apps = readClusterApplications(QString());
    const engine::ClusterOptions options;   // 16 nodes × 4 GPUs, 60 s interval, 30 s restart
    double coSum = 0, lasSum = 0, pubPollux = 0, pubTiresias = 0;
    for (int i = 1; i <= 8; ++i) {
        const QString name = QStringLiteral("pollux-%1").arg(i);
        INFO(name.toStdString());
        const auto jobs = readClusterWorkload(name);
        const auto published = publishedAverageJct(name);
        const auto fcfs = engine::replayCluster(apps, jobs, options, engine::ClusterPolicy::FixedFcfs);
        const auto las = engine::replayCluster(apps, jobs, options, engine::ClusterPolicy::FixedLas);
        const auto co = engine::replayCluster(apps, jobs, options, engine::ClusterPolicy::CoAdaptive);
        for (const auto *r : {&fcfs, &las, &co})
            for (const auto &j : r->jobs)
                REQUIRE(j.finishSeconds > 0);
        CHECK(co.averageJctSeconds < las.averageJctSeconds);
        CHECK(las.averageJctSeconds < fcfs.averageJctSeconds);
        CHECK(co.averageJctSeconds == Approx(published.at(QStringLiteral("pollux"))).epsilon(0.20));
        CHECK(las.averageJctSeconds == Approx(published.at(QStringLiteral("tiresias"))).epsilon(0.20));
        coSum += co.averageJctSeconds;
        lasSum += las.averageJctSeconds;
        pubPollux += published.at(QStringLiteral("pollux"));
        pubTiresias += published.at(QStringLiteral("tiresias"));
    }
    const double published = 1.0 - pubPollux / pubTiresias;
    CHECK(published == Approx(0.3187).margin(0.0005));
    const double reduction = 1.0 - coSum / lasSum;
    CHECK(reduction >= published - 0.02);
    CHECK(reduction <= published + 0.06);
    CHECK(coSum / pubPollux == Approx(1.0).margin(0.05));   // the mean over the eight: +1.0 %
}
