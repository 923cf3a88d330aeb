// `headroom train` end to end: the JSON contract, formulas with hand-computed numbers,
// solving for GPUs and for days as inverses, the readable table and bad input.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonValue>

namespace {

qint64 integer(const QJsonObject &o, const char *key)
{
    INFO("key " << key);
    REQUIRE(o.contains(QLatin1String(key)));
    const QJsonValue v = o.value(QLatin1String(key));
    REQUIRE(v.isDouble());
    REQUIRE(v.toDouble() == double(v.toInteger()));
    return v.toInteger();
}

double number(const QJsonObject &o, const char *key)
{
    INFO("key " << key);
    REQUIRE(o.contains(QLatin1String(key)));
    REQUIRE(o.value(QLatin1String(key)).isDouble());
    return o.value(QLatin1String(key)).toDouble();
}

QJsonObject trainJson(const CliFixture &ws, const QStringList &args)
{
    RUN_HEADROOM(r, ws, {QStringList{"train"} + args + QStringList{"--json"}});
    REQUIRE(r.exitCode == 0);
    REQUIRE(r.err.isEmpty());
    return parseJsonObject(r.out);
}

// 70 billion parameters on 1.4 trillion tokens at a measured 400 TFLOP/s per H100, tp 8 × pp 1,
// ZeRO-3, the 4 Mi-token batch.
const QStringList kMeasured = {"--params", "70e9", "--tokens", "1.4e12", "--tflops-per-gpu", "400",
                               "--tp", "8", "--pp", "1", "--zero", "3", "--global-batch-tokens", "4194304"};

} // namespace

TEST_CASE("train --json prints every contract key with its type and the formula values")
{
    CliFixture ws;
    const QJsonObject o = trainJson(ws, kMeasured + QStringList{"--gpus", "1024"});
    // 6 × 70e9 × 1.4e12 = 5.88e23 FLOPs; ÷ (1,024 × 400e12) = 1,435,546.875 s = 16.6151 days.
    CHECK(number(o, "total_flops") == Approx(5.88e23));
    CHECK(number(o, "days") == Approx(16.615125868));
    CHECK(integer(o, "gpus") == 1024);
    CHECK(number(o, "gpu_hours") == Approx(1024 * 16.615125868 * 24));
    // ZeRO-3: 16Ψ'/N with Ψ' = 70e9 ÷ 8 and N = 128, plus activations.
    CHECK(number(o, "memory_per_gpu_bytes") > 16 * 70e9 / 8 / 128);
    const qint64 fewest = integer(o, "min_gpus_for_memory");
    CHECK(fewest >= 8);
    CHECK(fewest % 8 == 0);
    CHECK(integer(o, "gpus_node_rounded") == 1024);
    CHECK(integer(o, "nodes") == 128);
    CHECK(o.value("memory_fits").toBool(false));
    CHECK(number(o, "efficiency") == 1.0);
    CHECK(o.value("gpu").toString() == "h100-sxm");
    CHECK(integer(o, "zero_stage") == 3);
    REQUIRE(o.value("explanation").isArray());
    CHECK_FALSE(o.value("explanation").toArray().isEmpty());
}

TEST_CASE("train: recomputation is 8 N D and the ZeRO stages differ by the formulas")
{
    CliFixture ws;
    const QJsonObject recompute = trainJson(ws, kMeasured + QStringList{"--gpus", "1024", "--recompute"});
    CHECK(number(recompute, "total_flops") == Approx(7.84e23));
    CHECK(number(recompute, "days") == Approx(16.615125868 * 8 / 6));

    // Activations cancel at the same micro-batch: ZeRO-2 − ZeRO-3 = (2Ψ' + 14Ψ'/N) − 16Ψ'/N = 2Ψ'(1 − 1/N).
    const QJsonObject zero3 =
        trainJson(ws, kMeasured + QStringList{"--gpus", "1024", "--recompute", "--micro-batch", "1"});
    QStringList zero2Args = kMeasured + QStringList{"--gpus", "1024", "--recompute", "--micro-batch", "1"};
    zero2Args.replace(zero2Args.indexOf("3"), "2");
    const QJsonObject zero2 = trainJson(ws, zero2Args);
    const double psi = 70e9 / 8;
    CHECK(number(zero2, "memory_per_gpu_bytes") - number(zero3, "memory_per_gpu_bytes")
          == Approx(2 * psi * (1 - 1.0 / 128)));
}

TEST_CASE("train: --days finds the GPU count whose days it was given")
{
    CliFixture ws;
    const QJsonObject forward = trainJson(ws, kMeasured + QStringList{"--gpus", "1024"});
    const double days = number(forward, "days");
    const QJsonObject inverse =
        trainJson(ws, kMeasured + QStringList{"--days", QString::number(days, 'g', 17)});
    CHECK(integer(inverse, "gpus") == 1024);
    CHECK(number(inverse, "days") == Approx(days));

    // A 30-day window: the fewest multiple of tp = 8 meeting it.
    const QJsonObject window = trainJson(ws, kMeasured + QStringList{"--days", "30"});
    const qint64 gpus = integer(window, "gpus");
    CHECK(gpus % 8 == 0);
    CHECK(number(window, "days") <= 30);
    // 5.88e23 ÷ (30 × 86,400 × 400e12) = 567.1 GPUs → 568.
    CHECK(gpus == 568);
}

TEST_CASE("train --mfu lengthens the run by the communication overhead across nodes")
{
    CliFixture ws;
    // Peak 989 × 0.4 = 395.6 TFLOP/s before overhead.
    const QStringList common = {"--params", "70e9", "--tokens", "1.4e12", "--tp", "8", "--pp", "1", "--zero", "3",
                                "--gpus", "1024", "--global-batch-tokens", "4194304"};
    const QJsonObject mfu = trainJson(ws, common + QStringList{"--mfu", "0.4"});
    const QJsonObject measured = trainJson(ws, common + QStringList{"--tflops-per-gpu", "395.6"});
    CHECK(number(mfu, "efficiency") < 1.0);
    CHECK(number(mfu, "days") == Approx(number(measured, "days") / number(mfu, "efficiency")));
    const QJsonObject ethernet = trainJson(ws, common + QStringList{"--mfu", "0.4", "--inter-node", "ethernet"});
    CHECK(number(ethernet, "days") > number(mfu, "days"));
}

TEST_CASE("train: a catalog model and a non-default GPU")
{
    CliFixture ws;
    const QJsonObject o = trainJson(ws, {"--model", "llama-3.1-70b", "--tokens", "15e12", "--gpu", "h200", "--gpus",
                                         "2048", "--mfu", "0.4", "--tp", "8", "--pp", "1", "--zero", "1"});
    CHECK(o.value("gpu").toString() == "h200");
    CHECK(number(o, "total_flops") == Approx(6 * 70553706496.0 * 15e12).epsilon(0.01));
}

TEST_CASE("train: the table shows the results with units and how they came about")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {QStringList{"train"} + kMeasured + QStringList{"--gpus", "1024"}});
    REQUIRE(r.exitCode == 0);
    CHECK(r.err.isEmpty());
    CHECK(r.out.contains("16.62 days"));
    CHECK(r.out.contains("GPU-hours"));
    CHECK(r.out.contains("FLOPs"));
    CHECK(r.out.contains("GiB"));
    CHECK(r.out.contains("1,024 on 128 whole nodes of 8"));
    CHECK(r.out.contains("70 billion parameters, 1.4 trillion tokens"));
    CHECK(r.out.contains("\nhow:\n"));
    CHECK(r.out.contains("Total FLOPs = 6 × N × D"));
}

TEST_CASE("train: attention kernel, recomputation and the micro-batch that fits")
{
    CliFixture ws;
    // 7.5B parameters on 64 GPUs at ZeRO-3 with flash attention (the default) fit, at the
    // largest micro-batch that does, accumulating the rest of the replica's 16 sequences.
    const QStringList job = {"--params", "7.5e9", "--tokens", "1e9", "--gpus", "64", "--tflops-per-gpu", "100",
                             "--zero", "3", "--tp", "1", "--pp", "1", "--global-batch-tokens", "4194304"};
    const QJsonObject flash = trainJson(ws, job);
    CHECK(flash.value("memory_fits").toBool(false));
    CHECK(flash.value("attention").toString() == "flash");
    CHECK(flash.value("recompute").toString() == "none");
    const qint64 micro = integer(flash, "micro_batch");
    CHECK(micro >= 1);
    CHECK(integer(flash, "grad_accumulation_steps") == (16 + micro - 1) / micro);
    CHECK(number(flash, "activations_bytes") > 0);
    CHECK(number(flash, "memory_per_gpu_bytes") <= 0.9 * 85520809984.0);

    const QJsonObject flashOne = trainJson(ws, job + QStringList{"--micro-batch", "1"});
    CHECK(integer(flashOne, "micro_batch") == 1);
    CHECK(integer(flashOne, "grad_accumulation_steps") == 16);
    // Eager attention stores the s² scores: 108.2 GiB of activations at 4,096 tokens, which
    // no ZeRO stage fits.
    RUN_HEADROOM(eagerFull, ws, {QStringList{"train"} + job + QStringList{"--attention", "eager", "--micro-batch", "1"}});
    CHECK(eagerFull.exitCode == 2);
    CHECK(eagerFull.err.contains("activations alone: 108.2 GiB"));

    // At 1,024 tokens eager fits, with more activations than flash; selective recomputation
    // drops the score term again for 4·L·s·h more FLOPs per token; a bare --recompute is full.
    const QStringList shorter = job + QStringList{"--seq-len", "1024", "--micro-batch", "1"};
    const QJsonObject flashShort = trainJson(ws, shorter);
    const QJsonObject eager = trainJson(ws, shorter + QStringList{"--attention", "eager"});
    CHECK(number(eager, "activations_bytes") > 1.5 * number(flashShort, "activations_bytes"));
    const QJsonObject selective = trainJson(ws, shorter + QStringList{"--attention", "eager", "--recompute", "selective"});
    CHECK(selective.value("recompute").toString() == "selective");
    CHECK(number(selective, "activations_bytes") < number(eager, "activations_bytes"));
    CHECK(number(selective, "total_flops") > number(eager, "total_flops"));
    CHECK(number(eager, "total_flops") == Approx(6 * 7.5e9 * 1e9));
    const QJsonObject full = trainJson(ws, shorter + QStringList{"--recompute"});
    CHECK(full.value("recompute").toString() == "full");
    CHECK(number(full, "total_flops") == Approx(8 * 7.5e9 * 1e9));
    CHECK(number(full, "activations_bytes") < number(selective, "activations_bytes"));

    for (const auto &[args, message] :
         std::vector<std::pair<QStringList, QString>>{{{"--attention", "fast"}, "--attention: unknown kernel 'fast'"},
                                                      {{"--recompute", "some"}, "--recompute: unknown recomputation 'some'"},
                                                      {{"--micro-batch", "0"}, "--micro-batch:"}}) {
        RUN_HEADROOM(r, ws, {QStringList{"train"} + job + args});
        CHECK(r.exitCode == 2);
        CHECK(r.err.startsWith("headroom: " + message));
    }
}

TEST_CASE("train: bad input exits 2 with the reason")
{
    CliFixture ws;
    const QStringList rate = {"--tflops-per-gpu", "400"};
    const std::vector<std::pair<QStringList, QString>> cases = {
        {QStringList{"--params", "0", "--tokens", "1e12", "--gpus", "8"} + rate, "--params: params must be greater than 0"},
        {QStringList{"--params", "7e9", "--tokens", "0", "--gpus", "8"} + rate, "--tokens: tokens must be greater than 0"},
        {{"--params", "7e9", "--tokens", "1e12", "--gpus", "8", "--mfu", "1.5"}, "--mfu: must be greater than 0 and at most 1"},
        {{"--params", "7e9", "--tokens", "1e12", "--gpus", "8", "--mfu", "0"}, "--mfu: must be greater than 0 and at most 1"},
        {QStringList{"--params", "7e9", "--tokens", "1e12", "--gpus", "8", "--days", "3"} + rate,
         "give either --gpus or --days, not both"},
        {QStringList{"--params", "7e9", "--tokens", "1e12"} + rate, "train needs --gpus or --days"},
        {{"--params", "7e9", "--tokens", "1e12", "--gpus", "8"}, "train needs --tflops-per-gpu or --mfu"},
        {QStringList{"--params", "abc", "--tokens", "1e12", "--gpus", "8"} + rate, "--params: expected a number, got 'abc'"},
        {QStringList{"--params", "7e9", "--tokens", "1e12", "--gpus", "8", "--zero", "4"} + rate, "--zero:"},
        {QStringList{"--params", "7e9", "--tokens", "1e12", "--gpus", "8", "--gpu", "h100-sxn"} + rate,
         "unknown GPU 'h100-sxn'"},
        {QStringList{"--params", "70e9", "--tokens", "1.4e12", "--days", "0.01", "--tp", "8", "--pp", "1", "--zero", "3",
                     "--recompute"}
             + rate,
         "no fleet meets a 0.01-day window: the largest sensible fleet"},
        {QStringList{"--params", "1e13", "--tokens", "1e12", "--gpus", "8", "--recompute", "--tp", "1", "--pp", "1", "--zero",
                     "3"} + rate,
         "the model does not fit even with ZeRO-3 on 8 GPUs"},
        {QStringList{"--params", "1e13", "--tokens", "1e12", "--gpus", "8"} + rate,
         "no layout fits the memory on 8 GPUs"},
        {QStringList{"--params", "7e9", "--tokens", "1e12", "--gpus", "4", "--tp", "8"} + rate,
         "the job needs at least tp × pp = 8 GPUs"},
    };
    for (const auto &[args, message] : cases) {
        RUN_HEADROOM(r, ws, {QStringList{"train"} + args});
        CHECK(r.exitCode == 2);
        CHECK(r.out.isEmpty());
        CHECK(r.err.startsWith("headroom: " + message));
    }
}

TEST_CASE("train: with no layout given the search plans it, lists the five fastest and feeds every GPU")
{
    CliFixture ws;
    // Megatron-LM's 1 T model on 3,072 A100s at 163 TFLOP/s (Narayanan et al. 2021, §5.1: 84 days).
    const QJsonObject o = trainJson(ws, {"--params", "1e12", "--tokens", "450e9", "--recompute", "--gpus", "3072",
                                         "--tflops-per-gpu", "163", "--gpu", "a100-sxm-80gb", "--seq-len", "2048"});
    CHECK(o.value("layout_searched").toBool(false));
    CHECK(o.value("memory_fits").toBool(false));
    CHECK(integer(o, "gpus") == 3072);
    CHECK(o.value("warnings").toArray().isEmpty());
    CHECK(o.value("recompute").toString() == "full");
    CHECK(number(o, "days") == Approx(84).epsilon(0.05));
    const QJsonArray layouts = o.value("layouts").toArray();
    REQUIRE(layouts.size() == 5);
    for (const QJsonValue &value : layouts) {
        const QJsonObject layout = value.toObject();
        CHECK(number(layout, "memory_per_gpu_bytes") <= 0.9 * 85899345920.0);
        CHECK(integer(layout, "tp") * integer(layout, "pp") * integer(layout, "dp") == integer(layout, "computing_gpus"));
    }
    CHECK(integer(layouts.at(0).toObject(), "tp") == integer(o, "tp"));
    CHECK(integer(layouts.at(0).toObject(), "pp") == integer(o, "pp"));

    RUN_HEADROOM(table, ws, {"train", "--params", "1e12", "--tokens", "450e9", "--recompute", "--gpus", "3072",
                             "--tflops-per-gpu", "163", "--gpu", "a100-sxm-80gb", "--seq-len", "2048"});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("fastest layouts (modelled step; every one fits memory):"));
    CHECK(table.out.contains("(searched: "));
    CHECK(table.out.contains("Layout searched on 3,072 GPUs"));

    // Llama 3.1 405B on 16,384 H100s: a layout that fits, every GPU computing.
    const QJsonObject llama = trainJson(ws, {"--model", "llama-3.1-405b", "--tokens", "15.6e12", "--gpus", "16384",
                                             "--model-tflops-per-gpu", "400", "--seq-len", "8192",
                                             "--global-batch-tokens", "16777216"});
    CHECK(llama.value("memory_fits").toBool(false));
    CHECK(integer(llama, "gpus") == 16384);
    CHECK(llama.value("warnings").toArray().isEmpty());
    CHECK(integer(llama, "tp") <= 8);
    CHECK(number(llama, "implied_mfu") == Approx(400.0 / 989.0));
}

TEST_CASE("train: a batch too small for the fleet is a warning with the numbers")
{
    CliFixture ws;
    const QStringList args = {"--params", "70e9", "--tokens", "1.4e12", "--tflops-per-gpu", "400", "--gpus", "1024",
                              "--tp", "8", "--pp", "1", "--zero", "1", "--global-batch-tokens", "262144",
                              "--micro-batch", "1"};
    const QJsonObject o = trainJson(ws, args);
    // 262,144 tokens ÷ 4,096 = 64 sequences feed 64 replicas of 8: 512 of 1,024 GPUs compute.
    const QJsonArray warnings = o.value("warnings").toArray();
    REQUIRE(warnings.size() == 1);
    CHECK(warnings.at(0).toString().startsWith("512 of 1,024 GPUs would idle: a batch of 262,144 tokens"));
    RUN_HEADROOM(table, ws, {QStringList{"train"} + args});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("\nwarning: 512 of 1,024 GPUs would idle"));

    // The batch that follows the fleet feeds them all.
    QStringList follows = args;
    follows.removeAt(follows.indexOf("--global-batch-tokens") + 1);
    follows.removeAt(follows.indexOf("--global-batch-tokens"));
    const QJsonObject fed = trainJson(ws, follows);
    CHECK(fed.value("warnings").toArray().isEmpty());
    CHECK(fed.value("batch_follows_fleet").toBool(false));
    CHECK(number(fed, "global_batch_tokens") == 4194304);
}
