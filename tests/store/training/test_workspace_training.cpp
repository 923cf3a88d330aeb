#include "common/storetestsupport.h"

#include "store/training/trainingjson.h"
#include "store/common/workspace.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QThread>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

// A job whose every field differs from the defaults.
engine::TrainingJob sampleJob(const std::string &name = "pretrain \"EU\", ünïcode")
{
    engine::TrainingJob job;
    job.name = name;
    job.modelId = "llama-3.1-70b";
    job.params = 70.5e9;
    job.tokens = 1.4e12;
    job.seqLen = 8192;
    job.globalBatchTokens = 16777216;
    job.microBatch = 2;
    job.attention = engine::AttentionKernel::Eager;
    job.recompute = engine::Recomputation::Selective;
    job.vocabSize = 152064;
    job.gpuId = "h200";
    job.throughputBasis = engine::ThroughputBasis::AchievedTflops;
    job.throughput = 412.5;
    job.target = engine::TrainingTarget::GpuCount;
    job.targetValue = 2048;
    job.tp = 8;
    job.pp = 4;
    job.dp = 16;
    job.zeroStage = 2;
    job.intraNode = engine::IntraNodeLink::Pcie;
    job.interNode = engine::InterNodeLink::Roce;
    job.cpuCoresPerGpu = 24;
    job.startDate = "2026-03-01";
    job.priority = 3;
    job.preemptible = true;
    job.checkpointIntervalHours = 1.5;
    return job;
}

QByteArray jsonOf(const engine::TrainingJob &job)
{
    return QJsonDocument(trainingJobToJson(job)).toJson(QJsonDocument::Compact);
}

int jobRows(const QString &path)
{
    RawDatabase raw(path);
    return raw.scalar(QStringLiteral("SELECT COUNT(*) FROM training_job")).toInt();
}

} // namespace

TEST_CASE("a training job is stored whole and read back with version 1", "[training][workspace]")
{
    WorkspaceLocation location(QStringLiteral("jobs.headroom"));
    const QString path = location.path();
    const engine::TrainingJob job = sampleJob();
    {
        Workspace workspace(path);
        CHECK(workspace.trainingJobs().empty());
        int changes = 0;
        QObject::connect(&workspace, &Workspace::trainingJobsChanged, [&changes] { ++changes; });
        workspace.putTrainingJob(job);
        CHECK(changes == 1);
    }
    Workspace workspace(path);
    const auto jobs = workspace.trainingJobs();
    REQUIRE(jobs.size() == 1);
    CHECK(jsonOf(jobs.front()) == jsonOf(job));
    const auto record = workspace.trainingJobRecord(QString::fromStdString(job.name));
    REQUIRE(record.has_value());
    CHECK(record->version == 1);
    CHECK(record->createdAt == record->updatedAt);
    CHECK(record->createdAt.endsWith(QLatin1Char('Z')));
    RawDatabase raw(path);
    const QByteArray body = raw.scalar(QStringLiteral("SELECT body FROM training_job")).toString().toUtf8();
    CHECK(parseTrainingJob(body, QStringLiteral("body")).throughput == 412.5);
}

TEST_CASE("replacing a training job raises its version and keeps its creation time", "[training][workspace]")
{
    WorkspaceLocation location(QStringLiteral("jobs.headroom"));
    Workspace workspace(location.path());
    engine::TrainingJob job = sampleJob("run");
    workspace.putTrainingJob(job);
    const auto first = workspace.trainingJobRecord(QStringLiteral("run"));
    REQUIRE(first.has_value());
    QThread::msleep(5);
    job.tokens = 2e12;
    workspace.putTrainingJob(job);
    job.priority = 7;
    workspace.putTrainingJob(job);
    const auto third = workspace.trainingJobRecord(QStringLiteral("run"));
    REQUIRE(third.has_value());
    CHECK(third->version == 3);
    CHECK(third->createdAt == first->createdAt);
    CHECK(third->updatedAt > first->updatedAt);
    CHECK(third->job.tokens == 2e12);
    CHECK(third->job.priority == 7);
    CHECK(workspace.trainingJobs().size() == 1);
}

TEST_CASE("an invalid training job is refused naming the field and nothing changes", "[training][workspace]")
{
    WorkspaceLocation location(QStringLiteral("jobs.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    workspace.putTrainingJob(sampleJob("kept"));
    int changes = 0;
    QObject::connect(&workspace, &Workspace::trainingJobsChanged, [&changes] { ++changes; });

    engine::TrainingJob mfu = sampleJob("kept");
    mfu.throughputBasis = engine::ThroughputBasis::Mfu;
    mfu.throughput = 1.5;
    CHECK_THAT(storeErrorOf([&] { workspace.putTrainingJob(mfu); }),
               Contains("Training job \"kept\"") && Contains("field \"throughput\""));

    engine::TrainingJob noTokens = sampleJob("new");
    noTokens.tokens = 0;
    CHECK_THAT(storeErrorOf([&] { workspace.putTrainingJob(noTokens); }), Contains("field \"tokens\""));

    engine::TrainingJob unnamed = sampleJob("");
    CHECK_THAT(storeErrorOf([&] { workspace.putTrainingJob(unnamed); }), Contains("field \"name\""));

    CHECK(changes == 0);
    CHECK(jobRows(path) == 1);
    const auto kept = workspace.trainingJobRecord(QStringLiteral("kept"));
    REQUIRE(kept.has_value());
    CHECK(kept->version == 1);
    CHECK(kept->job.throughput == 412.5);
}

TEST_CASE("removing a training job deletes its row and says whether there was one", "[training][workspace]")
{
    WorkspaceLocation location(QStringLiteral("jobs.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    workspace.putTrainingJob(sampleJob("a"));
    workspace.putTrainingJob(sampleJob("b"));
    int changes = 0;
    QObject::connect(&workspace, &Workspace::trainingJobsChanged, [&changes] { ++changes; });
    CHECK(workspace.removeTrainingJob(QStringLiteral("a")));
    CHECK_FALSE(workspace.removeTrainingJob(QStringLiteral("a")));
    CHECK(changes == 1);
    CHECK_FALSE(workspace.trainingJob(QStringLiteral("a")).has_value());
    REQUIRE(workspace.trainingJob(QStringLiteral("b")).has_value());
    CHECK(jobRows(path) == 1);
}

TEST_CASE("the sample training job file parses and is written back byte for byte", "[training][workspace]")
{
    const QString path = sourceFile(QStringLiteral("data/samples/training-job.json"));
    const engine::TrainingJob job = readTrainingJobFile(path);
    CHECK(job.name == "llama-70b-pretrain");
    CHECK(job.modelId == "llama-3.1-70b");
    CHECK(job.tokens == 1.4e12);
    CHECK(job.recompute == engine::Recomputation::Full);
    CHECK(job.attention == engine::AttentionKernel::Flash);
    CHECK(job.tp == 8);
    CHECK(job.pp == 4);
    CHECK(job.target == engine::TrainingTarget::WindowDays);
    CHECK(job.targetValue == 30);
    CHECK(trainingJobJsonText(job) == readBytes(path));

    const engine::TrainingJob every = sampleJob();
    CHECK(jsonOf(parseTrainingJob(trainingJobJsonText(every), QStringLiteral("x.json"))) == jsonOf(every));
}

TEST_CASE("training job JSON fills defaults and reports bad fields by name", "[training][workspace]")
{
    const engine::TrainingJob minimal =
        parseTrainingJob(R"({"name": "small", "params": 7e9, "tokens": 1e12})", QStringLiteral("small.json"));
    const engine::TrainingJob defaults;
    CHECK(minimal.params == 7e9);
    CHECK(minimal.seqLen == defaults.seqLen);
    CHECK(minimal.gpuId == defaults.gpuId);
    CHECK(minimal.zeroStage == defaults.zeroStage);
    CHECK(minimal.throughputBasis == engine::ThroughputBasis::Mfu);

    const auto errorOf = [](const char *json) {
        return storeErrorOf([json] { parseTrainingJob(QByteArray(json), QStringLiteral("job.json")); });
    };
    CHECK_THAT(errorOf(R"({"name": "j", "params": 7e9})"),
               Contains("job.json (training job \"j\"): field \"tokens\": missing"));
    CHECK_THAT(errorOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "tpp": 2})"),
               Contains("unknown field \"tpp\""));
    CHECK_THAT(errorOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "recompute": 1})"),
               Contains("field \"recompute\": expected one of \"none\", \"selective\", \"full\" (or true/false), got a number"));
    CHECK_THAT(errorOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "recompute": "some"})"),
               Contains("field \"recompute\": expected one of \"none\", \"selective\", \"full\""));
    CHECK_THAT(errorOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "attention": "fast"})"),
               Contains("field \"attention\": expected one of \"flash\", \"eager\""));
    // Files written before the recomputation choices hold a boolean: true is full, false none.
    const auto recomputeOf = [](const char *json) {
        return parseTrainingJob(QByteArray(json), QStringLiteral("old.json")).recompute;
    };
    CHECK(recomputeOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "recompute": true})")
          == engine::Recomputation::Full);
    CHECK(recomputeOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "recompute": false})")
          == engine::Recomputation::None);
    CHECK(recomputeOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "recompute": "selective"})")
          == engine::Recomputation::Selective);
    CHECK_THAT(errorOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "tp": 1.5})"),
               Contains("field \"tp\": expected a whole number"));
    CHECK_THAT(errorOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "target": "weeks"})"),
               Contains("field \"target\": expected one of \"days\", \"gpus\", got \"weeks\""));
    CHECK_THAT(errorOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "throughput": 0})"),
               Contains("field \"throughput\""));
    CHECK_THAT(errorOf(R"({"name": "j", "params": 0, "tokens": 1e12})"), Contains("field \"params\""));
    CHECK_THAT(errorOf(R"({"name": "j", "params": 7e9, "tokens": 1e12, "zero_stage": 4})"),
               Contains("field \"zero_stage\""));
    CHECK_THAT(errorOf(R"([1, 2])"), Contains("the top level must be one training job object"));
    CHECK_THAT(errorOf(R"({"name": "j",)"), Contains("job.json: line 1"));
}
