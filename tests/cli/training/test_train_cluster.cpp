// `headroom train cluster` end to end: a shipped Pollux workload under the three policies with
// the published figures beside, a small workload of the user's own with hand-checked times, and
// bad input exiting 2 with the job or field named.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>

TEST_CASE("train cluster: Pollux's workload 6 under three policies, the published averages beside",
          "[train-cli][cluster]")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, ({"train", "cluster", "--workload", "pollux-6", "--json"}));
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("jobs").toInt() == 160);
    const QJsonArray policies = o.value("policies").toArray();
    REQUIRE(policies.size() == 3);
    CHECK(policies[0].toObject().value("policy").toString() == "fixed-fcfs");
    CHECK(policies[2].toObject().value("policy").toString() == "co-adaptive");
    const double fcfs = policies[0].toObject().value("average_jct_seconds").toDouble();
    const double las = policies[1].toObject().value("average_jct_seconds").toDouble();
    const double co = policies[2].toObject().value("average_jct_seconds").toDouble();
    CHECK(co < las);
    CHECK(las < fcfs);
    CHECK(o.value("jct_reduction").toObject().value("fixed-las").toDouble() == Approx(1.0 - co / las));
    CHECK(o.value("published").toObject().value("pollux").toDouble() == Approx(2446.13125));
    CHECK(co == Approx(2446.13125).epsilon(0.2));
    CHECK(o.value("cluster").toObject().value("gpus_per_node").toInt() == 4);

    RUN_HEADROOM(text, ws, ({"train", "cluster", "--policy", "co-adaptive,fixed-fcfs"}));
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("160 jobs of pollux-6 on 16 × 4 GPUs"));
    CHECK(text.out.contains("Co-adaptive allocation cuts the average JCT by"));
    CHECK(text.out.contains("against fixed-fcfs"));
    CHECK(text.out.contains("Published on this workload (Pollux's artifact"));
    CHECK(!text.out.contains("fixed-las"));
}

TEST_CASE("train cluster: a workload of one's own, by hand, with inference GPUs kept", "[train-cli][cluster]")
{
    CliFixture ws;
    // Two cifar10 jobs, each on 2 GPUs at batch 128 (the application's M₀), on 1 node of 4 GPUs
    // with 2 kept for inference: they cannot run together under FCFS, so the second starts at
    // the first interval boundary after the first finishes.
    const QString file = ws.writeFile("mix.csv", "name,time,application,num_replicas,batch_size\n"
                                                 "first,0,cifar10,2,128\nsecond,0,cifar10,2,128\n");
    RUN_HEADROOM(r, ws, ({"train", "cluster", "--workload", file, "--nodes", "1", "--inference-gpus", "2",
                          "--policy", "fixed-fcfs", "--jobs", "--json"}));
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("published").toObject().isEmpty());
    const QJsonArray jobs = o.value("policies").toArray()[0].toObject().value("jobs").toArray();
    REQUIRE(jobs.size() == 2);
    const double firstFinish = jobs[0].toObject().value("finish_seconds").toDouble();
    const double secondStart = jobs[1].toObject().value("start_seconds").toDouble();
    CHECK(jobs[0].toObject().value("start_seconds").toDouble() == 0);
    CHECK(secondStart == std::ceil(firstFinish / 60.0) * 60.0);
    // Each held 2 GPUs from its start to its finish.
    CHECK(jobs[0].toObject().value("gpu_hours").toDouble() == Approx(2.0 * firstFinish / 3600.0));
    CHECK(jobs[1].toObject().value("queue_seconds").toDouble() == Approx(secondStart));

    RUN_HEADROOM(text, ws, ({"train", "cluster", "--workload", file, "--nodes", "1", "--inference-gpus", "2", "--jobs"}));
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("(2 kept for inference, 2 for training)"));
    CHECK(text.out.contains("second"));
    CHECK(!text.out.contains("Published on this workload"));
}

TEST_CASE("train cluster: an hourly inference series is served first", "[train-cli][cluster]")
{
    CliFixture ws;
    // One node of 4 GPUs; inference holds none, then 3.5 GPUs (4 whole ones) in the second hour.
    const QString mix = ws.writeFile("mix.csv", "name,time,application,num_replicas,batch_size\n"
                                                "first,0,imagenet,2,400\nsecond,600,imagenet,2,400\n");
    const QString series = ws.writeFile("inference.csv", "gpus\n0\n3.5\n0\n");
    RUN_HEADROOM(r, ws, ({"train", "cluster", "--workload", mix, "--nodes", "1", "--inference-series", series,
                          "--policy", "fixed-fcfs", "--jobs", "--json"}));
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("cluster").toObject().value("inference_series_hours").toInt() == 3);
    const QJsonArray jobs = o.value("policies").toArray()[0].toObject().value("jobs").toArray();
    // Both were running when the second hour took every GPU: each restarted once after it.
    for (const auto &job : jobs) {
        CHECK(job.toObject().value("restarts").toInt() >= 1);
        CHECK(job.toObject().value("finish_seconds").toDouble() > 7200);
    }
    RUN_HEADROOM(text, ws, ({"train", "cluster", "--workload", mix, "--nodes", "1", "--inference-series", series}));
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("(inference first: 0–4 GPUs an hour over 3 hours, repeated)"));
    RUN_HEADROOM(both, ws, ({"train", "cluster", "--inference-series", series, "--inference-gpus", "2"}));
    CHECK(both.exitCode == 2);
    CHECK(both.err.contains("give --inference-gpus or --inference-series, not both"));
    const QString huge = ws.writeFile("huge.csv", "gpus\n0\n65\n");
    RUN_HEADROOM(over, ws, ({"train", "cluster", "--inference-series", huge}));
    CHECK(over.exitCode == 2);
    CHECK(over.err.contains("hour 1: inference may take from 0 to the cluster's 64 GPUs, not 65"));
}

TEST_CASE("train cluster: bad input exits 2 naming the job or the field", "[train-cli][cluster]")
{
    CliFixture ws;
    const QString unknown = ws.writeFile("u.csv", "name,time,application,num_replicas,batch_size\nj1,0,gpt9,1,8\n");
    RUN_HEADROOM(a, ws, ({"train", "cluster", "--workload", unknown}));
    CHECK(a.exitCode == 2);
    CHECK(a.err.contains("job j1: unknown application \"gpt9\""));
    const QString wide = ws.writeFile("w.csv", "name,time,application,num_replicas,batch_size\nj1,0,cifar10,80,4096\n");
    RUN_HEADROOM(b, ws, ({"train", "cluster", "--workload", wide}));
    CHECK(b.exitCode == 2);
    CHECK(b.err.contains("job j1: its fixed GPUs must be from 1 to the 64 training GPUs"));
    RUN_HEADROOM(c, ws, ({"train", "cluster", "--policy", "fifo"}));
    CHECK(c.exitCode == 2);
    CHECK(c.err.contains("--policy: 'fifo' is not fixed-fcfs, fixed-las or co-adaptive"));
    const QString badCsv = ws.writeFile("b.csv", "name,time,application\nj1,0,cifar10\n");
    RUN_HEADROOM(d, ws, ({"train", "cluster", "--workload", badCsv}));
    CHECK(d.exitCode == 2);
    CHECK(d.err.contains("field \"num_replicas\": missing column"));
    RUN_HEADROOM(e, ws, ({"train", "cluster", "--inference-gpus", "64"}));
    CHECK(e.exitCode == 2);
    CHECK(e.err.contains("inference may take from 0 to 63"));
}
