// `headroom frag` end to end on the shipped Alibaba trace and on small hand-made files: the
// JSON contract, the table, and bad input.
#include "clirunner.h"

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
    CHECK(json.keys() == QStringList{"at_100", "failed", "gpus", "points", "policy", "runtime_s", "seed"});
    CHECK(json["policy"].toString() == "fgd");
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
