// `headroom kv` end to end: golden values of DESIGN §3.1 from the command line.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonArray>

namespace {

constexpr qint64 kGiB = qint64(1) << 30;

// The 8B-class golden case: 64 layers × 8 KV heads × 128 head_dim, 8 GiB of parameters.
const QStringList kGoldenArchitecture = {"--layers", "64", "--kv-heads", "8", "--head-dim", "128",
                                         "--params", "8589934592"};

qint64 integer(const QJsonObject &o, const char *key)
{
    INFO("key " << key);
    REQUIRE(o.contains(QLatin1String(key)));
    const QJsonValue v = o.value(QLatin1String(key));
    REQUIRE(v.isDouble());
    REQUIRE(v.toDouble() == double(v.toInteger()));
    return v.toInteger();
}

// Streams reported at `context` in a kv --json result.
qint64 streamsAt(const QJsonObject &result, qint64 context)
{
    for (const QJsonValue &v : result.value("streams").toArray()) {
        if (v.toObject().value("context").toInteger() == context)
            return integer(v.toObject(), "streams");
    }
    FAIL("no stream entry for context " << context);
    return -1;
}

} // namespace

TEST_CASE("kv --json reproduces the 8B-class golden pool and 14 streams at 16K")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {QStringList{"kv"} + kGoldenArchitecture
                         + QStringList{"--memory-gib", "80", "--util", "0.92", "--reserve-gib", "0", "--context", "16384", "--json"}});
    REQUIRE(r.exitCode == 0);
    REQUIRE(r.err.isEmpty());
    const QJsonObject o = parseJsonObject(r.out);

    CHECK(integer(o, "kv_bytes_per_token") == 262144);
    CHECK(integer(o, "weights_bytes") == 17179869184);
    // floor(80 GiB × 0.92) − 16 GiB = 79,027,398,246 − 17,179,869,184
    CHECK(integer(o, "pool_bytes") == 61847529062);
    CHECK(integer(o, "block_size") == 16);
    CHECK(integer(o, "blocks") == 61847529062 / (16 * 262144));
    const QJsonArray streams = o.value("streams").toArray();
    REQUIRE(streams.size() == 1);
    CHECK(integer(streams.at(0).toObject(), "context") == 16384);
    CHECK(integer(streams.at(0).toObject(), "streams") == 14);
    CHECK(o.value("fits").toBool());
}

TEST_CASE("kv table shows the figures and the plain-language explanation")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {QStringList{"kv"} + kGoldenArchitecture
                         + QStringList{"--memory-gib", "80", "--util", "0.92", "--reserve-gib", "0", "--context", "16384"}});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains("memory-bound: 14 streams of 16,384 tokens fit in 57.6 GiB of KV pool"));
    CHECK(r.out.contains("262,144 B (256.0 KiB)"));
    CHECK(r.out.contains("16.0 GiB per GPU"));
    CHECK(r.out.contains("57.6 GiB"));
    // One aligned row per context under the header.
    const QStringList lines = r.out.split('\n');
    const auto header = std::find_if(lines.begin(), lines.end(),
                                     [](const QString &l) { return l.contains("bytes per stream"); });
    REQUIRE(header != lines.end());
    const QString row = *(header + 1);
    CHECK(row.simplified() == "16,384 14 4.0 GiB");
    CHECK(row.size() == header->size());
}

TEST_CASE("kv raw architecture: Llama-3-70B (80 layers, GQA 8) costs 320 KiB per token")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"kv", "--layers", "80", "--kv-heads", "8", "--heads", "64", "--head-dim", "128",
                         "--params", "70600000000", "--memory-gib", "80", "--tp", "2", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    // TP 2 splits the 8 KV heads: 4 per rank, half of the 327,680 B of a single GPU.
    CHECK(integer(o, "kv_bytes_per_token") == 163840);

    RUN_HEADROOM(single, ws, {"kv", "--layers", "80", "--kv-heads", "8", "--head-dim", "128",
                              "--params", "70600000000", "--memory-gib", "192", "--json"});
    REQUIRE(single.exitCode == 0);
    const QJsonObject s = parseJsonObject(single.out);
    CHECK(integer(s, "kv_bytes_per_token") == 327680);
    CHECK(integer(s, "weights_bytes") == 141200000000);
    // Default contexts when none are given.
    CHECK(s.value("streams").toArray().size() == 2);
    CHECK(streamsAt(s, 4096) > streamsAt(s, 16384));
}

TEST_CASE("kv raw MLA: DeepSeek-V3 latent cache is 70,272 B per token and not split by TP")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"kv", "--layers", "61", "--mla-rank", "512", "--rope-dim", "64",
                         "--params", "671000000000", "--memory-gib", "141", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(integer(o, "kv_bytes_per_token") == 70272);
    // 1.342 TB of bf16 weights cannot fit one 141 GiB GPU.
    CHECK_FALSE(o.value("fits").toBool());
    CHECK(integer(o, "shortfall_bytes") > 0);

    RUN_HEADROOM(tp8, ws, {"kv", "--layers", "61", "--mla-rank", "512", "--rope-dim", "64",
                           "--heads", "128", "--params", "671000000000", "--memory-gib", "141",
                           "--tp", "8", "--weights", "fp8", "--json"});
    REQUIRE(tp8.exitCode == 0);
    const QJsonObject p = parseJsonObject(tp8.out);
    CHECK(integer(p, "kv_bytes_per_token") == 70272);
    CHECK(integer(p, "weights_bytes") == 671000000000 / 8);
    CHECK(p.value("fits").toBool());
    CHECK(streamsAt(p, 16384) > 0);
}

TEST_CASE("kv says when the weights do not fit")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {QStringList{"kv"} + kGoldenArchitecture
                         + QStringList{"--memory-gib", "16", "--context", "4096"}});
    REQUIRE(r.exitCode == 0);
    // usable = floor(16 GiB × 0.9) = 14.4 GiB; the weights need 16 GiB and the workspace's
    // serving assumptions reserve 2 GiB: 3.6 GiB more.
    CHECK(r.out.contains("does not fit: weights and reserve need 3.6 GiB more than the 14.4 GiB usable"));

    RUN_HEADROOM(j, ws, {QStringList{"kv"} + kGoldenArchitecture
                         + QStringList{"--memory-gib", "16", "--context", "4096", "--json"}});
    REQUIRE(j.exitCode == 0);
    const QJsonObject o = parseJsonObject(j.out);
    CHECK_FALSE(o.value("fits").toBool());
    CHECK(integer(o, "shortfall_bytes") == 18 * kGiB - (16 * kGiB * 9) / 10);
    CHECK(streamsAt(o, 4096) == 0);
}

TEST_CASE("kv precisions: fp8 weights halve weight memory, fp8 KV halves bytes per token")
{
    CliFixture ws;
    const QStringList base = QStringList{"kv"} + kGoldenArchitecture
        + QStringList{"--memory-gib", "80", "--context", "16384", "--json"};
    RUN_HEADROOM(bf16, ws, {base});
    RUN_HEADROOM(fp8, ws, {base + QStringList{"--weights", "fp8", "--kv-dtype", "fp8"}});
    REQUIRE(bf16.exitCode == 0);
    REQUIRE(fp8.exitCode == 0);
    const QJsonObject a = parseJsonObject(bf16.out);
    const QJsonObject b = parseJsonObject(fp8.out);
    CHECK(integer(b, "weights_bytes") * 2 == integer(a, "weights_bytes"));
    CHECK(integer(b, "kv_bytes_per_token") * 2 == integer(a, "kv_bytes_per_token"));
    CHECK(streamsAt(b, 16384) > 2 * streamsAt(a, 16384));
}

TEST_CASE("kv reserve, block size, shared prefix and sliding window change the pool as stated")
{
    CliFixture ws;
    const QStringList base = QStringList{"kv"} + kGoldenArchitecture
        + QStringList{"--memory-gib", "80", "--util", "0.92", "--context", "16384", "--json"};
    const QStringList noReserve{"--reserve-gib", "0"};
    RUN_HEADROOM(plain, ws, {base + noReserve});
    RUN_HEADROOM(reserved, ws, {base + QStringList{"--reserve-gib", "4", "--block", "32"}});
    RUN_HEADROOM(prefix, ws, {base + noReserve + QStringList{"--prefix-tokens", "8192"}});
    RUN_HEADROOM(window, ws, {base + noReserve + QStringList{"--window", "4096", "--sliding-layers", "32"}});
    REQUIRE(plain.exitCode == 0);
    REQUIRE(reserved.exitCode == 0);
    REQUIRE(prefix.exitCode == 0);
    REQUIRE(window.exitCode == 0);
    const QJsonObject p = parseJsonObject(plain.out);
    const QJsonObject r = parseJsonObject(reserved.out);
    CHECK(integer(r, "pool_bytes") == integer(p, "pool_bytes") - 4 * kGiB);
    CHECK(integer(r, "block_size") == 32);
    CHECK(integer(r, "blocks") == integer(r, "pool_bytes") / (32 * 262144));
    // Half of every stream's context is the shared prefix, held once: more streams fit.
    CHECK(streamsAt(parseJsonObject(prefix.out), 16384) > streamsAt(p, 16384));
    // Half the layers keep only 4,096 tokens: more streams fit.
    CHECK(streamsAt(parseJsonObject(window.out), 16384) > streamsAt(p, 16384));
}

TEST_CASE("kv with --model and --gpu reads the seeded workspace (Llama 3.1 8B on H100 SXM)")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(integer(o, "kv_bytes_per_token") == 131072);
    CHECK(o.value("model").toString() == "llama-3.1-8b");
    CHECK(o.value("gpu").toString() == "h100-sxm");
    CHECK(streamsAt(o, 16384) > 0);
    // Default contexts plus the model's maximum.
    CHECK(o.value("streams").toArray().size() == 3);

    RUN_HEADROOM(table, ws, {"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm"});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("memory-bound: "));
    CHECK(table.out.contains("llama-3.1-8b"));
}

TEST_CASE("kv with an imported model and GPU uses their figures")
{
    CliFixture ws;
    const QString file = ws.writeFile("catalog.json", catalogJson("test-gpu-96", {"test-model-8b"}));
    RUN_HEADROOM(imported, ws, {"import", file});
    REQUIRE(imported.exitCode == 0);
    RUN_HEADROOM(r, ws, {"kv", "--context", "8192", "--json", "--model", "test-model-8b",
                         "--gpu", "test-gpu-96"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(integer(o, "kv_bytes_per_token") == 2 * 32 * 8 * 128 * 2);
    CHECK(integer(o, "weights_bytes") == 16000000000);
    CHECK(integer(o, "memory_bytes") == 96 * kGiB);
    // the workspace's serving assumptions: utilization 0.9, reserve 2 GiB
    CHECK(integer(o, "pool_bytes") == (96 * kGiB * 9) / 10 - 16000000000 - 2 * kGiB);
    CHECK(o.value("streams").toArray().size() == 1);
}

TEST_CASE("kv with an unknown model or GPU id exits 2 and names the closest ids")
{
    CliFixture ws;
    const QString file = ws.writeFile(
        "catalog.json", catalogJson("test-gpu-96", {"test-model-8b", "test-model-70b", "other-model"}));
    REQUIRE(ws.run({"import", file}).exitCode == 0);

    RUN_HEADROOM(model, ws, {"kv", "--model", "test-model-7b", "--gpu", "test-gpu-96"});
    CHECK(model.exitCode == 2);
    CHECK(model.out.isEmpty());
    CHECK(model.err.startsWith("headroom: unknown model 'test-model-7b'; closest: test-model-8b"));
    CHECK(model.err.contains("test-model-70b"));

    RUN_HEADROOM(gpu, ws, {"kv", "--model", "test-model-8b", "--gpu", "test-gpu-69"});
    CHECK(gpu.exitCode == 2);
    CHECK(gpu.err.contains("unknown GPU 'test-gpu-69'; closest: test-gpu-96"));
}

TEST_CASE("kv rejects out-of-range and malformed values with exit 2, naming the flag")
{
    CliFixture ws;
    const QStringList base = QStringList{"kv"} + kGoldenArchitecture + QStringList{"--memory-gib", "80"};

    RUN_HEADROOM(util, ws, {base + QStringList{"--util", "1.5"}});
    CHECK(util.exitCode == 2);
    CHECK(util.out.isEmpty());
    CHECK(util.err.startsWith("headroom: "));
    CHECK(util.err.contains("util"));
    CHECK(util.err.contains("1.5"));

    RUN_HEADROOM(layers, ws, {"kv", "--layers", "abc", "--kv-heads", "8", "--head-dim", "128",
                              "--params", "8e9", "--memory-gib", "80"});
    CHECK(layers.exitCode == 2);
    CHECK(layers.err.trimmed() == "headroom: --layers: expected an integer, got 'abc'");

    RUN_HEADROOM(weights, ws, {base + QStringList{"--weights", "fp3"}});
    CHECK(weights.exitCode == 2);
    CHECK(weights.err.contains("--weights: unknown precision 'fp3'"));

    RUN_HEADROOM(heads, ws, {base + QStringList{"--heads", "12"}});
    CHECK(heads.exitCode == 2);
    CHECK(heads.err.contains("kv_heads"));

    RUN_HEADROOM(tp, ws, {base + QStringList{"--tp", "3"}});
    CHECK(tp.exitCode == 2);
    CHECK(tp.err.contains("tp"));

    RUN_HEADROOM(context, ws, {base + QStringList{"--context", "0"}});
    CHECK(context.exitCode == 2);
    CHECK(context.err.contains("--context"));
}

TEST_CASE("kv reports bad command lines: unknown flag, missing value, missing or conflicting inputs")
{
    CliFixture ws;
    const QStringList base = QStringList{"kv"} + kGoldenArchitecture;

    RUN_HEADROOM(unknown, ws, {base + QStringList{"--memory-gib", "80", "--colour", "red"}});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("unknown option '--colour'"));

    RUN_HEADROOM(missing, ws, {base + QStringList{"--memory-gib"}});
    CHECK(missing.exitCode == 2);
    CHECK(missing.err.contains("--memory-gib: missing value"));

    RUN_HEADROOM(noMemory, ws, {base});
    CHECK(noMemory.exitCode == 2);
    CHECK(noMemory.err.contains("--gpu"));

    RUN_HEADROOM(noModel, ws, {"kv", "--memory-gib", "80"});
    CHECK(noModel.exitCode == 2);
    CHECK(noModel.err.contains("--model"));

    RUN_HEADROOM(both, ws, {base + QStringList{"--memory-gib", "80", "--model", "llama-3.1-8b"}});
    CHECK(both.exitCode == 2);
    CHECK(both.err.contains("--model cannot be combined with"));

    RUN_HEADROOM(half, ws, {base + QStringList{"--memory-gib", "80", "--mla-rank", "512"}});
    CHECK(half.exitCode == 2);
    CHECK(half.err.contains("--mla-rank needs --rope-dim"));
}

TEST_CASE("kv --what-if takes a catalog model through Character.AI's KV stack, step by step, with replicas and money")
{
    CliFixture ws;
    const QStringList base = {"kv", "--model", "llama-3.1-8b", "--memory-gib", "80", "--util", "0.9",
                              "--reserve-gib", "2", "--block", "16", "--context", "8192",
                              "--what-if", "mqa,local=1024/6,share=2,int8", "--streams", "1000",
                              "--price", "4.10"};
    RUN_HEADROOM(j, ws, {base + QStringList{"--json"}});
    REQUIRE(j.exitCode == 0);
    const QJsonObject o = parseJsonObject(j.out);
    CHECK(integer(o, "what_if_context") == 8192);
    const QJsonArray steps = o.value("what_if").toArray();
    REQUIRE(steps.size() == 5);
    const auto step = [&](int i) { return steps.at(i).toObject(); };
    // 131,072 → 16,384 (MQA) → 4,736 (1 in 6 global, 1,024-token window) → 2,368 (pairs share)
    // → 1,221 B per token (int8 with a 4-byte scale and zero point per vector).
    CHECK(step(0).value("kv_bytes_per_token").toDouble() == 131072);
    CHECK(step(1).value("kv_bytes_per_token").toDouble() == 16384);
    CHECK(step(2).value("kv_bytes_per_token").toDouble() == 4736);
    CHECK(step(3).value("kv_bytes_per_token").toDouble() == 2368);
    CHECK(step(4).value("kv_bytes_per_token").toDouble() == 1221);
    CHECK(step(4).value("total_factor").toDouble() > 20);
    // The pool, 0.9 × 80 GiB − 2 × 8,030,261,248 B − 2 GiB = 59,101,405,184 B, holds 55 streams
    // of 8,192 tokens as shipped: 19 GPUs for 1,000 streams, 19 × $4.10 × 720 h a (30-day) month.
    CHECK(integer(step(0), "streams_per_replica") == 55);
    CHECK(integer(step(0), "gpus") == 19);
    CHECK(step(0).value("monthly_cost").toString() == "56088.00");
    CHECK(integer(step(1), "gpus") == 3);
    CHECK(step(1).value("monthly_cost").toString() == "8856.00");

    RUN_HEADROOM(t, ws, {base});
    REQUIRE(t.exitCode == 0);
    CHECK(t.out.contains("what if, at 8,192 tokens a stream and 1,000 concurrent streams:"));
    CHECK(t.out.contains("multi-query attention (1 KV head)"));
    CHECK(t.out.contains("$56,088.00"));
    CHECK(t.out.contains("107.35×"));
}

TEST_CASE("kv --what-if refuses a lever that cannot apply, naming it, and --streams without it")
{
    CliFixture ws;
    const QStringList base = {"kv", "--model", "llama-3.1-8b", "--memory-gib", "80", "--context", "8192"};
    RUN_HEADROOM(heads, ws, {base + QStringList{"--what-if", "kv-heads=16"}});
    CHECK(heads.exitCode == 2);
    CHECK(heads.err.contains("--what-if: the KV heads must be from 1 to the 8 the model has (got 16)"));
    CHECK(heads.out.isEmpty());
    RUN_HEADROOM(unknown, ws, {base + QStringList{"--what-if", "mqa,gqa"}});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("unknown lever \"gqa\""));
    RUN_HEADROOM(streams, ws, {base + QStringList{"--streams", "10"}});
    CHECK(streams.exitCode == 2);
    CHECK(streams.err.contains("--streams goes with --what-if"));
    RUN_HEADROOM(price, ws, {base + QStringList{"--what-if", "fp8", "--streams", "10", "--price", "-1"}});
    CHECK(price.exitCode == 2);
    CHECK(price.err.contains("--price"));
}

TEST_CASE("kv --vllm-log holds a V1 log's KV cache against the analysis and the reserve it prints round-trips to the block")
{
    CliFixture ws;
    // vllm-project/vllm issue #21348: Qwen3-235B-A22B-FP8 on 4 × H100 (TP 4), vLLM V1.
    const QString log = ws.writeFile(
        "qwen.log", "(VllmWorker rank=0 pid=1) INFO [gpu_worker.py:255] Available KV cache memory: 8.11 GiB\n"
                    "INFO [kv_cache_utils.py:833] GPU KV cache size: 178,880 tokens\n");
    const QStringList base = {"kv", "--model", "qwen3-235b-a22b", "--gpu", "h100-sxm", "--tp", "4",
                              "--weights", "fp8", "--context", "8192", "--vllm-log", log};
    RUN_HEADROOM(j, ws, {base + QStringList{"--json"}});
    REQUIRE(j.exitCode == 0);
    const QJsonObject v = parseJsonObject(j.out).value("vllm_log").toObject();
    // 178,880 tokens × 48,128 B (94 layers × K and V × one head a rank × 128 × 2 B).
    CHECK(integer(v, "logged_kv_bytes") == 178880LL * 48128);
    CHECK(v.value("kv_from_tokens").toBool());
    // The workspace's flat 2 GiB reserve leaves 86 % more KV than vLLM kept.
    CHECK(v.value("kv_error_share").toDouble() == Approx(0.863).margin(0.005));
    const qint64 reserve = integer(v, "implied_reserve_bytes");

    RUN_HEADROOM(t, ws, {base});
    REQUIRE(t.exitCode == 0);
    CHECK(t.out.contains("logged 178,880, analysis 333,440"));
    CHECK(t.out.contains("(+86.4 %)"));
    const qsizetype at = t.out.indexOf("headroom serving set --reserve-gib ");
    REQUIRE(at >= 0);
    const QString gib = t.out.mid(at + 35).section('\n', 0, 0).trimmed();
    CHECK(std::llabs(std::llround(gib.toDouble() * double(kGiB)) - reserve) < 1024);

    // Set as printed, the analysis holds what vLLM held, to the block.
    RUN_HEADROOM(set, ws, {{"serving", "set", "--reserve-gib", gib}});
    REQUIRE(set.exitCode == 0);
    RUN_HEADROOM(again, ws, {base + QStringList{"--json"}});
    REQUIRE(again.exitCode == 0);
    const QJsonObject w = parseJsonObject(again.out).value("vllm_log").toObject();
    CHECK(std::llabs(integer(w, "predicted_kv_tokens") - 178880) <= 16);
}

TEST_CASE("kv --vllm-log reads a V0 profile, uses its utilization, and refuses a file with no memory lines")
{
    CliFixture ws;
    // vllm-project/vllm pull request #10511: Meta-Llama-3-8B on one H100, V0.
    const QString log = ws.writeFile("v0.log", "INFO worker.py:243] total_gpu_memory     79.22GiB\n"
                                               "INFO worker.py:243] gpu_memory_utilization       0.85\n"
                                               "INFO worker.py:243] model weights take   14.96GiB\n"
                                               "INFO worker.py:243] available_kv_cache_memory    49.69GiB\n");
    RUN_HEADROOM(r, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--context", "8192", "--vllm-log", log, "--json"}});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("util").toDouble() == 0.85);  // the log's, not the workspace's 0.9
    const QJsonObject v = o.value("vllm_log").toObject();
    CHECK_FALSE(v.value("kv_from_tokens").toBool());
    CHECK(std::abs(v.value("weights_error_share").toDouble()) < 0.001);

    const QString empty = ws.writeFile("empty.log", "INFO starting the API server on port 8000\n");
    RUN_HEADROOM(bad, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--vllm-log", empty}});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("empty.log"));
    CHECK(bad.err.contains("no line of the log is one vLLM prints about its memory"));
    CHECK(bad.out.isEmpty());
}

TEST_CASE("kv with vLLM's profile reserve: the Llama 3 8B pool within 3 % of the 53.29 GiB vLLM logged, and its parts")
{
    CliFixture ws;
    // vllm-project/vllm pull request #10511: Meta-Llama-3-8B on one H100 at utilization 0.9 with
    // V0's limits, 8,192 batched tokens and 256 sequences, kept 53.29 GiB for KV.
    RUN_HEADROOM(set, ws, {{"serving", "set", "--reserve-mode", "vllm_profile", "--max-num-batched-tokens", "8192",
                            "--max-num-seqs", "256"}});
    REQUIRE(set.exitCode == 0);
    RUN_HEADROOM(show, ws, {{"serving", "show"}});
    CHECK(show.out.contains("vLLM's profile"));

    RUN_HEADROOM(r, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--context", "8192", "--json"}});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("reserve_mode").toString() == "vllm_profile");
    // sampler 256 × 128,256 × 30 B + 8,192 × 4,096 × 4 B; non-torch 1.79 GiB
    CHECK(integer(o, "activation_peak_bytes") == 1119223808);
    CHECK(integer(o, "non_torch_bytes") == 1921997865);
    CHECK(integer(o, "reserve_bytes") == 1119223808LL + 1921997865LL);
    CHECK(integer(o, "pool_bytes") == 57866984816);
    const double logged = 53.29 * double(1LL << 30);
    CHECK(std::abs(double(integer(o, "pool_bytes")) / logged - 1) < 0.03);

    // The table names the parts.
    RUN_HEADROOM(t, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--context", "8192"}});
    REQUIRE(t.exitCode == 0);
    CHECK(t.out.contains("2.8 GiB (vLLM's profile): activation peak 1.0 GiB (8,192"));
    CHECK(t.out.contains("tokens, 256 sequences) + non-torch 1.8 GiB"));

    // --reserve-gib is the flat override; both at once is refused; a raw architecture has no vocabulary.
    RUN_HEADROOM(flat, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--reserve-gib", "2", "--json"}});
    REQUIRE(flat.exitCode == 0);
    CHECK(parseJsonObject(flat.out).value("reserve_mode").toString() == "flat");
    RUN_HEADROOM(both, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--reserve-gib", "2",
                             "--reserve-mode", "vllm_profile"}});
    CHECK(both.exitCode == 2);
    CHECK(both.err.contains("not both"));
    RUN_HEADROOM(raw, ws, {{"kv", "--layers", "32", "--kv-heads", "8", "--head-dim", "128", "--params", "8e9",
                            "--gpu", "h100-sxm"}});
    CHECK(raw.exitCode == 2);
    CHECK(raw.err.contains("needs a catalog model"));
    RUN_HEADROOM(bad, ws, {{"serving", "set", "--reserve-mode", "vllm"}});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("expected flat or vllm_profile"));

    // Setting a flat reserve goes back to flat.
    RUN_HEADROOM(back, ws, {{"serving", "set", "--reserve-gib", "3"}});
    REQUIRE(back.exitCode == 0);
    RUN_HEADROOM(j, ws, {{"serving", "show", "--json"}});
    CHECK(parseJsonObject(j.out).value("reserve_mode").toString() == "flat");
}

TEST_CASE("kv on the shipped hybrids: Qwen3-Next's per-stream state and Llama 4's chunk in the table and the JSON")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {{"kv", "--model", "qwen3-next-80b-a3b", "--gpu", "h200", "--context", "8192", "--json"}});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(integer(o, "kv_bytes_per_token") == 24576);
    CHECK(integer(o, "state_bytes_per_stream") == 36LL * 1097728);
    const QJsonObject at = o.value("streams").toArray().first().toObject();
    CHECK(integer(at, "bytes_per_stream") == 8192LL * 24576 + 36LL * 1097728);

    RUN_HEADROOM(t, ws, {{"kv", "--model", "llama-4-scout", "--gpu", "h200", "--tp", "4", "--context", "131072"}});
    REQUIRE(t.exitCode == 0);
    CHECK(t.out.contains("chunked layers hold at most one 8,192-token chunk"));
    RUN_HEADROOM(n, ws, {{"kv", "--model", "qwen3-next-80b-a3b", "--gpu", "h200", "--context", "8192"}});
    REQUIRE(n.exitCode == 0);
    CHECK(n.out.contains("of linear-layer state per stream"));
}

TEST_CASE("kv --vllm-log --save keeps the measured reserve for that deployment only and serving set --clear-measured forgets it")
{
    CliFixture ws;
    // vllm-project/vllm pull request #10511: Meta-Llama-3-8B on one H100, V0.
    const QString log = ws.writeFile("v0.log", "INFO worker.py:243] gpu_memory_utilization       0.90\n"
                                               "INFO worker.py:243] model weights take   14.96GiB\n"
                                               "INFO worker.py:243] available_kv_cache_memory    53.29GiB\n");
    RUN_HEADROOM(saved, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--vllm-log", log, "--save"}});
    REQUIRE(saved.exitCode == 0);
    CHECK(saved.out.contains("kept a reserve of 3.43"));

    RUN_HEADROOM(r, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--json"}});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("reserve_mode").toString() == "measured");
    CHECK(integer(o, "pool_bytes") == std::llround(53.29 * double(1LL << 30)));
    // Another GPU, or another TP, keeps the workspace's 2 GiB.
    RUN_HEADROOM(other, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h200", "--json"}});
    CHECK(integer(parseJsonObject(other.out), "reserve_bytes") == 2LL << 30);
    RUN_HEADROOM(tp2, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--tp", "2", "--json"}});
    CHECK(integer(parseJsonObject(tp2.out), "reserve_bytes") == 2LL << 30);
    // An explicit mode sets it aside for one run.
    RUN_HEADROOM(flat, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--reserve-mode", "flat", "--json"}});
    CHECK(parseJsonObject(flat.out).value("reserve_mode").toString() == "flat");

    RUN_HEADROOM(show, ws, {{"serving", "show"}});
    CHECK(show.out.contains("Measured reserve:"));
    CHECK(show.out.contains("for llama-3.1-8b on h100-sxm at TP 1 (vLLM log v0.log)"));
    RUN_HEADROOM(json, ws, {{"serving", "show", "--json"}});
    const QJsonArray overrides = parseJsonObject(json.out).value("reserve_overrides").toArray();
    REQUIRE(overrides.size() == 1);
    CHECK(overrides[0].toObject().value("gpu").toString() == "h100-sxm");

    // --save needs a log and a catalog deployment.
    RUN_HEADROOM(noLog, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--save"}});
    CHECK(noLog.exitCode == 2);
    CHECK(noLog.err.contains("--save keeps the reserve of a --vllm-log FILE"));
    RUN_HEADROOM(noGpu, ws, {{"kv", "--model", "llama-3.1-8b", "--memory-gib", "80", "--vllm-log", log, "--save"}});
    CHECK(noGpu.exitCode == 2);
    CHECK(noGpu.err.contains("--model and --gpu"));

    RUN_HEADROOM(clear, ws, {{"serving", "set", "--clear-measured"}});
    REQUIRE(clear.exitCode == 0);
    RUN_HEADROOM(after, ws, {{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--json"}});
    CHECK(parseJsonObject(after.out).value("reserve_mode").toString() == "flat");
}
