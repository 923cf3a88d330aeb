// `headroom frag` end to end on the shipped Alibaba trace and on small hand-made files: the
// JSON contract, the table, and bad input.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>

namespace {

const QString kNodes = QStringLiteral(HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/openb_node_list_gpu_node.csv");
const QString kTasks = QStringLiteral(HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/openb_pod_list_default.csv");
const QByteArray kPodHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n";

} // namespace

TEST_CASE("frag --json prints the contract's keys with one point per arrived percent")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"frag", "--nodes", kNodes, "--tasks", kTasks, "--policy", "fgd", "--seed", "4", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject json = parseJsonObject(r.out);
    CHECK(json.keys() == QStringList{"at_100", "failed", "failed_by_gpus_at_100", "gpus", "mode", "points", "policy",
                                     "runtime_s", "seed"});
    CHECK(json["policy"].toString() == "fgd");
    CHECK(json["mode"].toString() == "study");
    CHECK(json["seed"].toInt() == 4);
    CHECK(json["gpus"].toInt() == 6212);
    const QJsonArray points = json["points"].toArray();
    REQUIRE(points.size() == 131);
    CHECK(points[0].toObject().keys() == QStringList{"allocated_pct", "arrived_pct", "frag_amount_pct", "frag_ratio_pct"});
    CHECK(points[0]["arrived_pct"].toDouble() == 0);
    CHECK(points[100]["arrived_pct"].toDouble() >= 100);
    const QJsonObject at100 = json["at_100"].toObject();
    CHECK(at100["allocated_pct"].toDouble() == points[100]["allocated_pct"].toDouble());
    CHECK(at100["unallocated_gpus"].toDouble() == Approx(6212 * (1 - at100["allocated_pct"].toDouble() / 100)));
    CHECK(json["failed"].toObject().keys() == QStringList{"cpu_only", "fractional", "multi_gpu", "one_gpu"});
    CHECK(json["runtime_s"].toDouble() > 0);
    // [0] fractional, [k] k whole GPUs: at most the tasks that failed over the whole run.
    const QJsonArray byGpus = json["failed_by_gpus_at_100"].toArray();
    qint64 failedAt100 = 0;
    for (const QJsonValue v : byGpus)
        failedAt100 += v.toInteger();
    const QJsonObject failed = json["failed"].toObject();
    CHECK(failedAt100 <= failed["fractional"].toInteger() + failed["one_gpu"].toInteger() + failed["multi_gpu"].toInteger());
}

TEST_CASE("frag --mode exact scores exactly and says so, and an unknown mode is refused")
{
    CliFixture ws;
    RUN_HEADROOM(study, ws, {"frag", "--nodes", kNodes, "--tasks", kTasks, "--policy", "clustering", "--seed", "42", "--json"});
    RUN_HEADROOM(exact, ws, {"frag", "--nodes", kNodes, "--tasks", kTasks, "--policy", "clustering", "--seed", "42",
                             "--mode", "exact", "--json"});
    REQUIRE(study.exitCode == 0);
    REQUIRE(exact.exitCode == 0);
    const QJsonObject studyJson = parseJsonObject(study.out);
    const QJsonObject exactJson = parseJsonObject(exact.out);
    CHECK(exactJson["mode"].toString() == "exact");
    // Exact clustering keys classes by GPU share and strands far more GPUs (about 86 % allocated
    // against the study's 91.7 %).
    CHECK(studyJson["at_100"]["allocated_pct"].toDouble() > exactJson["at_100"]["allocated_pct"].toDouble() + 2);
    RUN_HEADROOM(table, ws, {"frag", "--nodes", kNodes, "--tasks", kTasks, "--policy", "fgd", "--mode", "exact"});
    CHECK(table.out.contains("fgd, seed 0, exact scoring"));
    RUN_HEADROOM(bad, ws, {"frag", "--nodes", kNodes, "--tasks", kTasks, "--policy", "fgd", "--mode", "integer"});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("--mode: unknown scoring mode 'integer'; known: study, exact"));
}

TEST_CASE("frag prints a readable table on a small cluster")
{
    CliFixture ws;
    const QString nodes = ws.writeFile("nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\na,8000,65536,2,T4\nb,8000,65536,0,\n");
    const QString tasks = ws.writeFile("tasks.csv", kPodHeader + "p1,1000,1024,1,500\np2,1000,1024,2,1000\n");
    RUN_HEADROOM(r, ws, {"frag", "--nodes", nodes, "--tasks", tasks, "--policy", "bestfit", "--load", "1"});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains("policy             bestfit, seed 0"));
    CHECK(r.out.contains("1 node with GPUs of 2 in nodes.csv, 2 GPUs"));
    CHECK(r.out.contains("arrived  allocated  fragment / idle  fragment / capacity"));
    CHECK(r.out.contains("100.00 %"));
}

TEST_CASE("frag counts tasks that fit no node by size")
{
    CliFixture ws;
    const QString nodes = ws.writeFile("nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\na,8000,65536,1,T4\n");
    const QString tasks = ws.writeFile("tasks.csv", kPodHeader + "big,1000,1024,4,1000\nfits,1000,1024,1,1000\n");
    RUN_HEADROOM(r, ws, {"frag", "--nodes", nodes, "--tasks", tasks, "--policy", "firstfit", "--load", "5", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject failed = parseJsonObject(r.out)["failed"].toObject();
    CHECK(failed["multi_gpu"].toInt() > 0);
    CHECK(failed["cpu_only"].toInt() == 0);
}

TEST_CASE("frag --progress reports on standard error while the result stays on standard output")
{
    // Ten tiny tasks (0.001 GPU each) on the default cluster at load 1.3: about 8 million
    // placements, the run that gave no sign of life before.
    CliFixture ws;
    QByteArray tiny = kPodHeader;
    for (int i = 0; i < 10; ++i)
        tiny += "tiny" + QByteArray::number(i) + ",0,0,1,1\n";
    const QString tasks = ws.writeFile("tiny.csv", tiny);
    RUN_HEADROOM(r, ws, {"frag", "--nodes", kNodes, "--tasks", tasks, "--policy", "fgd", "--json", "--progress"});
    REQUIRE(r.exitCode == 0);
    CHECK(parseJsonObject(r.out)["at_100"].toObject()["allocated_pct"].toDouble() > 99);
    const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
    QStringList expected;
    for (int tenth = 0; tenth <= 10; ++tenth)
        expected << QStringLiteral("frag: %1 %").arg(tenth * 10);
    CHECK(lines == expected);

    RUN_HEADROOM(quiet, ws, {"frag", "--nodes", kNodes, "--tasks", tasks, "--policy", "firstfit", "--load", "0.01", "--json"});
    REQUIRE(quiet.exitCode == 0);
    CHECK(quiet.err.isEmpty());
}

TEST_CASE("frag refuses bad input with exit code 2")
{
    CliFixture ws;
    const QString cpuNodes = ws.writeFile("cpu.csv", "sn,cpu_milli,memory_mib,gpu,model\nc,8000,65536,0,\n");
    const QString badTasks = ws.writeFile("bad.csv", kPodHeader + "p1,1000,1024,1,500\np2,1000,x,1,500\n");
    RUN_HEADROOM(zero, ws, {"frag", "--nodes", cpuNodes, "--tasks", kTasks, "--policy", "fgd"});
    CHECK(zero.exitCode == 2);
    CHECK(zero.err.contains("the cluster has no GPUs"));
    RUN_HEADROOM(bad, ws, {"frag", "--nodes", kNodes, "--tasks", badTasks, "--policy", "fgd"});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.trimmed() == "headroom: " + badTasks + ": line 3: field \"memory_mib\": expected a whole number, got \"x\"");
    RUN_HEADROOM(policy, ws, {"frag", "--nodes", kNodes, "--tasks", kTasks, "--policy", "tetris"});
    CHECK(policy.exitCode == 2);
    CHECK(policy.err.contains("unknown policy 'tetris'; known: fgd, bestfit, dotprod, packing, clustering, firstfit, random"));
    RUN_HEADROOM(load, ws, {"frag", "--nodes", kNodes, "--tasks", kTasks, "--policy", "fgd", "--load", "0"});
    CHECK(load.exitCode == 2);
    RUN_HEADROOM(missing, ws, {"frag", "--tasks", kTasks, "--policy", "fgd"});
    CHECK(missing.exitCode == 2);
    CHECK(missing.err.contains("--nodes is required"));
    CHECK(bad.out.isEmpty());
}

TEST_CASE("frag --replay --json reports queue depth and waits by size class over time")
{
    CliFixture ws;
    const QString nodes = ws.writeFile("nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\na,8000,65536,1,T4\n");
    // "late" arrives at 10 and waits for "first" to leave at 100, then runs its 40 s.
    const QString tasks = ws.writeFile("tasks.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,creation_time,deletion_time\n"
                                                    "first,1000,1024,1,1000,,0,100\nlate,1000,1024,1,1000,,10,50\n"
                                                    "huge,1000,1024,4,1000,,20,30\n");
    RUN_HEADROOM(r, ws, {"frag", "--replay", "--nodes", nodes, "--tasks", tasks, "--policy", "fgd", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject json = parseJsonObject(r.out);
    CHECK(json.keys() == QStringList{"gpus", "max_queue", "max_wait_s", "mean_wait_s", "mode", "never_placed", "placed",
                                     "points", "policy", "runtime_s", "scoring", "seed"});
    CHECK(json["mode"].toString() == "replay");
    CHECK(json["scoring"].toString() == "study");
    CHECK(json["policy"].toString() == "fgd");
    const QJsonArray points = json["points"].toArray();
    REQUIRE(points.size() == 141);
    CHECK(points[0].toObject().keys() == QStringList{"allocated_pct", "frag_ratio_pct", "queued", "time_s"});
    CHECK(points[50]["time_s"].toInt() == 50);
    CHECK(points[50]["queued"]["one_gpu"].toInt() == 1);
    CHECK(points[100]["queued"]["one_gpu"].toInt() == 0);
    CHECK(points[140]["allocated_pct"].toDouble() == 0);
    CHECK(json["max_queue"].toObject() == QJsonObject{{"cpu_only", 0}, {"fractional", 0}, {"one_gpu", 1}, {"multi_gpu", 0}});
    CHECK(json["mean_wait_s"]["one_gpu"].toDouble() == 45);
    CHECK(json["max_wait_s"]["one_gpu"].toDouble() == 90);
    CHECK(json["never_placed"]["multi_gpu"].toInt() == 1);

    RUN_HEADROOM(scaled, ws, {"frag", "--replay", "--duration-scale", "2", "--nodes", nodes, "--tasks", tasks,
                              "--policy", "bestfit"});
    REQUIRE(scaled.exitCode == 0);
    CHECK(scaled.out.contains("deepest queue  0 CPU-only, 0 fractional, 1 one-GPU, 0 multi-GPU"));
    CHECK(scaled.out.contains("mean wait      0.0 s CPU-only, 0.0 s fractional, 95.0 s one-GPU, 0.0 s multi-GPU"));
    CHECK(scaled.out.contains("280 s"));

    RUN_HEADROOM(load, ws, {"frag", "--replay", "--load", "1.3", "--nodes", nodes, "--tasks", tasks, "--policy", "fgd"});
    CHECK(load.exitCode == 2);
    CHECK(load.err.contains("--load does not apply to --replay"));
    RUN_HEADROOM(scale, ws, {"frag", "--replay", "--duration-scale", "0", "--nodes", nodes, "--tasks", tasks, "--policy", "fgd"});
    CHECK(scale.exitCode == 2);
    RUN_HEADROOM(noReplay, ws, {"frag", "--duration-scale", "2", "--nodes", nodes, "--tasks", tasks, "--policy", "fgd"});
    CHECK(noReplay.exitCode == 2);
    CHECK(noReplay.err.contains("--duration-scale applies only to --replay"));
}

TEST_CASE("frag --replay plays the default trace with every task placed")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"frag", "--replay", "--nodes", kNodes, "--tasks", kTasks, "--policy", "bestfit", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject json = parseJsonObject(r.out);
    CHECK(json["gpus"].toInt() == 6212);
    CHECK(json["points"].toArray().size() == 500);
    CHECK(json["placed"].toObject() == QJsonObject{{"cpu_only", 1088}, {"fractional", 3078}, {"one_gpu", 3911}, {"multi_gpu", 75}});
    CHECK(json["never_placed"].toObject() == QJsonObject{{"cpu_only", 0}, {"fractional", 0}, {"one_gpu", 0}, {"multi_gpu", 0}});
}
