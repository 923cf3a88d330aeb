#include "engine/common/errors.h"
#include "engine/inference/goodput.h"
#include "engine/serving/serving_sim.h"
#include "engine/serving/step_time_table.h"
#include "common/models.h"
#include "publictraces.h"
#include "tracefiles.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace headroom::engine;

namespace {

// Decode grid batches {1, 4} × contexts {0, 1000}; prefill points (1000, 50 ms), (3000, 110 ms).
StepTimeTable smallTable()
{
    StepTimeTable t;
    t.decode = {{1, 0, 10}, {1, 1000, 12}, {4, 0, 13}, {4, 1000, 21}};
    t.prefill = {{3000, 110}, {1000, 50}};
    return t;
}

template <typename Body>
void requireStepTimesError(const std::string &words, Body body)
{
    try {
        body();
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "step_times");
        CHECK_THAT(e.what(), Catch::Contains(words));
    }
}

StepCostModel llamaStepModel(int64_t *blocks)
{
    const ServingAssumptions assumptions;
    KvInputs in;
    in.model = headroom::test::llama31_8b();
    in.gpuMemoryBytes = headroom::test::h100Sxm().memoryBytes;
    in.utilization = assumptions.memoryUtilization;
    in.reserveBytes = assumptions.reserveBytes;
    in.blockSize = 16;
    const KvResult kv = analyseKv(in);
    if (blocks)
        *blocks = kvBlocksPerReplica(in);
    return stepCostModel(in.model, headroom::test::h100Sxm(), in.weights, kv, 1, assumptions);
}

} // namespace

TEST_CASE("step-time table decode times are bilinear over the grid and extend the edge cells", "[step-times]")
{
    const StepTimeModel m(smallTable());
    // Grid points.
    CHECK(m.decodeSeconds(1, 0) == Approx(0.010));
    CHECK(m.decodeSeconds(4, 1000) == Approx(0.021));
    // Inside: b = 2, c = 500: batch 1 → 11 ms, batch 4 → 17 ms, one third of the way → 13 ms.
    CHECK(m.decodeSeconds(2, 500) == Approx(0.013));
    // Beyond the batches: b = 8, c = 1000: 12 + (21 − 12) × 7/3 = 33 ms.
    CHECK(m.decodeSeconds(8, 1000) == Approx(0.033));
    // Beyond the contexts: b = 1, c = 2000: 10 + 2 × 2 = 14 ms.
    CHECK(m.decodeSeconds(1, 2000) == Approx(0.014));
    // No decodes: no decode time.
    CHECK(m.decodeSeconds(0, 500) == 0);
    // One batch measured: constant in batch, linear in context.
    StepTimeTable oneBatch;
    oneBatch.decode = {{8, 0, 10}, {8, 1000, 20}};
    oneBatch.prefill = {{1000, 50}};
    CHECK(StepTimeModel(oneBatch).decodeSeconds(1, 250) == Approx(0.0125));
    CHECK(StepTimeModel(oneBatch).decodeSeconds(64, 250) == Approx(0.0125));
}

TEST_CASE("step-time table prefill times are piecewise linear and never negative", "[step-times]")
{
    const StepTimeModel m(smallTable());
    CHECK(m.prefillSeconds(2000) == Approx(0.080));   // halfway: (50 + 110) ÷ 2
    CHECK(m.prefillSeconds(500) == Approx(0.035));    // first segment, 0.03 ms a token, extended down
    CHECK(m.prefillSeconds(5000) == Approx(0.170));   // last segment extended up
    CHECK(m.prefillSeconds(0) == 0);
    StepTimeTable one = smallTable();
    one.prefill = {{1000, 50}};
    CHECK(StepTimeModel(one).prefillSeconds(2000) == Approx(0.100)); // proportional
    StepTimeTable steep = smallTable();
    steep.prefill = {{1000, 10}, {2000, 100}};
    CHECK(StepTimeModel(steep).prefillSeconds(100) == 0);  // 10 − 81 ms, held at 0
    CHECK(tablePrefillSeconds(steep, 1500) == Approx(0.055));
    CHECK(tableDecodeSeconds(steep, 2, 500) == Approx(0.013));
}

TEST_CASE("step-time table validation names the list and the row", "[step-times]")
{
    StepTimeTable t = smallTable();
    t.decode.clear();
    requireStepTimesError("at least one decode point", [&] { validate(t); });
    t = smallTable();
    t.prefill.clear();
    requireStepTimesError("at least one prefill point", [&] { validate(t); });
    t = smallTable();
    t.decode[2].batch = 0;
    requireStepTimesError("decode row 3: batch must be at least 1", [&] { validate(t); });
    t = smallTable();
    t.decode[1].contextTokens = -5;
    requireStepTimesError("decode row 2: context_tokens must be at least 0", [&] { validate(t); });
    t = smallTable();
    t.decode[3].ms = std::nan("");
    requireStepTimesError("decode row 4: ms must be a finite number above 0", [&] { validate(t); });
    t = smallTable();
    t.decode[3] = {1, 1000, 30};
    requireStepTimesError("decode row 4: batch 1 at context_tokens 1000 appears twice", [&] { validate(t); });
    t = smallTable();
    t.decode.pop_back();
    requireStepTimesError("batch 4 has no point at context_tokens 1000", [&] { validate(t); });
    t = smallTable();
    t.prefill[1].tokens = 0;
    requireStepTimesError("prefill row 2: prefill_tokens must be at least 1", [&] { validate(t); });
    t = smallTable();
    t.prefill[0].ms = -1;
    requireStepTimesError("prefill row 1: ms must be a finite number above 0", [&] { validate(t); });
    t = smallTable();
    t.prefill[1].tokens = 3000;
    requireStepTimesError("prefill row 2: prefill_tokens 3000 appears twice", [&] { validate(t); });
    // The simulation refuses a bad table before running.
    ServingSimConfig c;
    c.kvBlocksPerReplica = 100;
    c.stepTable = t;
    requireStepTimesError("appears twice", [&] { validate(c); });
}

TEST_CASE("a simulation timed by a step-time table matches a hand computation", "[step-times]")
{
    // One replica, ample pool, 16-token blocks. A: t = 0, 1,000 prompt tokens, 3 output tokens.
    // B: t = 10 ms, 2,000 prompt tokens, 2 output tokens.
    //   iteration 1, 0 → 50 ms: prefill A (1,000 tokens, 50 ms); A's first token.
    //   iteration 2, 50 → 142.002 ms: decode A at context 1,001 (10 + 2 × 1.001 = 12.002 ms)
    //     + prefill B (2,000 tokens, 80 ms); A's second token, B's first.
    //   iteration 3, 142.002 → 159.008 ms: decode batch 2 at mean context (1,002 + 2,001) ÷ 2 =
    //     1,501.5: batch 1 → 13.003 ms, batch 4 → 25.012 ms, batch 2 → 17.006 ms; both finish.
    // TTFT: A 50, B 132.002 ms. ITL: A (159.008 − 50) ÷ 2 = 54.504, B 17.006 ms.
    // E2E: A 159.008, B 149.008 ms.
    std::vector<TraceRequest> trace(2);
    trace[0] = {0.0, 1000, 3, {}};
    trace[1] = {0.010, 2000, 2, {}};
    ServingSimConfig c;
    c.blockSize = 16;
    c.kvBlocksPerReplica = 1000;
    c.stepTable = smallTable();
    const ServingSimResult r = simulateServing(trace, c);
    CHECK(r.timed);
    CHECK(r.stepModel == StepModelKind::Table);
    CHECK(r.completed == 2);
    CHECK(r.ttftMs.p50 == Approx((50 + 132.002) / 2));
    CHECK(r.ttftMs.p99 == Approx(50 + 0.99 * 82.002));
    CHECK(r.itlMs.p50 == Approx((54.504 + 17.006) / 2));
    CHECK(r.e2eMs.p50 == Approx((159.008 + 149.008) / 2));
    CHECK(r.lastCompletionS == Approx(0.159008));
    CHECK(r.perReplica[0].busySeconds == Approx(0.159008));
    // The table wins over a roofline given beside it.
    c.stepModel = llamaStepModel(nullptr);
    const ServingSimResult both = simulateServing(trace, c);
    CHECK(both.stepModel == StepModelKind::Table);
    CHECK(both.lastCompletionS == Approx(0.159008));
    c.stepTable.reset();
    const ServingSimResult roofline = simulateServing(trace, c);
    CHECK(roofline.stepModel == StepModelKind::Roofline);
    CHECK(roofline.lastCompletionS != Approx(0.159008));
    c.stepModel.reset();
    CHECK(simulateServing(trace, c).stepModel == StepModelKind::None);
    CHECK(toString(StepModelKind::Table) == "table");
}

TEST_CASE("a step-time table sampled from the step-cost model reproduces it when requests run alone", "[step-times][data]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    static const std::vector<TraceRequest> trace = headroom::test::readMooncake(
        HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl");
    ServingSimConfig c;
    c.replicas = 8;
    c.blockSize = 16;
    c.stepModel = llamaStepModel(&c.kvBlocksPerReplica);
    // Requests never overlap and every prompt fits one pass: each request is one prefill pass,
    // then decode passes of batch 1 — the passes a table samples. (Where decodes and prefill
    // chunks share a pass, the model's one forward pass differs from the table's sum of a decode
    // and a prefill time by design.)
    c.timeScale = 0.0001;
    c.tokenBudget = 1 << 18;
    StepTimeTable table;
    for (int64_t b : {1, 2, 4})
        for (int64_t ctx : {0, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072})
            table.decode.push_back({b, ctx, decodeStepSeconds(*c.stepModel, b, double(ctx)) * 1000.0});
    for (int64_t p = 64; p < 4096; p *= 2)
        table.prefill.push_back({p, prefillSeconds(*c.stepModel, double(p)) * 1000.0});
    for (int64_t p = 4096; p <= 131072; p += 4096) // attention is quadratic: finer where it counts
        table.prefill.push_back({p, prefillSeconds(*c.stepModel, double(p)) * 1000.0});
    ServingSimConfig tabled = c;
    tabled.stepModel.reset();
    tabled.stepTable = table;
    const std::vector<ServingSimResult> runs = simulateServingMany(trace, {c, tabled});
    const ServingSimResult &model = runs[0];
    const ServingSimResult &tab = runs[1];
    REQUIRE(model.stepModel == StepModelKind::Roofline);
    REQUIRE(tab.stepModel == StepModelKind::Table);
    INFO("TTFT P50/P95/P99 model " << model.ttftMs.p50 << " / " << model.ttftMs.p95 << " / " << model.ttftMs.p99
         << " ms, table " << tab.ttftMs.p50 << " / " << tab.ttftMs.p95 << " / " << tab.ttftMs.p99
         << "; ITL model " << model.itlMs.p50 << " / " << model.itlMs.p95 << " / " << model.itlMs.p99
         << " ms, table " << tab.itlMs.p50 << " / " << tab.itlMs.p95 << " / " << tab.itlMs.p99);
    // Between sample points the table is linear where the model curves (η_mm, quadratic
    // attention): 3 % at P50 and P95, 5 % at P99.
    CHECK(tab.completed == model.completed);
    CHECK(tab.ttftMs.p50 == Approx(model.ttftMs.p50).epsilon(0.03));
    CHECK(tab.ttftMs.p95 == Approx(model.ttftMs.p95).epsilon(0.03));
    CHECK(tab.ttftMs.p99 == Approx(model.ttftMs.p99).epsilon(0.05));
    CHECK(tab.itlMs.p50 == Approx(model.itlMs.p50).epsilon(0.03));
    CHECK(tab.itlMs.p95 == Approx(model.itlMs.p95).epsilon(0.03));
    CHECK(tab.itlMs.p99 == Approx(model.itlMs.p99).epsilon(0.05));
    CHECK(tab.hitRateBlocks == Approx(model.hitRateBlocks).margin(0.005));
}
