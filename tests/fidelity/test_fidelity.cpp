// The fidelity suite in CTest: a representative subset of the published references (every vLLM
// and NIM row outside AIConfigurator's sample, and every sixth of its vLLM rows) replayed through
// the serving simulation, held to error limits. bench_fidelity replays all of them.
#include "fidelity.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace headroom;

// MAPE limits, %: the figures README states, a little above what the suite measures.
constexpr double FIDELITY_TTFT_LIMIT = 25;
constexpr double FIDELITY_ITL_LIMIT = 15;
constexpr double FIDELITY_E2E_LIMIT = 15;

namespace {

struct Replayed {
    std::vector<fidelity::Reference> references;
    std::vector<fidelity::Prediction> predictions;
};

const Replayed &subset()
{
    static const Replayed replayed = [] {
        Replayed out;
        const fidelity::Suite suite
            = fidelity::loadSuite(QStringLiteral(HEADROOM_FIDELITY_REFERENCES), QStringLiteral(HEADROOM_DATA_DIR));
        const fidelity::Catalogs &catalogs = suite.catalogs;
        const engine::ServingAssumptions assumptions;
        int aic = 0;
        for (const fidelity::Reference &r : suite.references) {
            if (!fidelity::isTarget(r))
                continue;
            if (r.id.rfind("aic-", 0) == 0 && aic++ % 6 != 0)
                continue;
            const fidelity::Prediction p = fidelity::predict(r, catalogs, assumptions);
            if (!p.supported)
                continue;
            out.references.push_back(r);
            out.predictions.push_back(p);
        }
        return out;
    }();
    return replayed;
}

double mapeOf(const std::string &metric)
{
    for (const fidelity::MetricError &e : fidelity::metricErrors(subset().references, subset().predictions)) {
        if (e.metric == metric) {
            INFO(metric << ": " << e.count << " references, MAPE " << e.mape << " %, median " << e.medianApe
                        << " %, mean signed " << e.meanSignedPct << " %");
            REQUIRE(e.count >= 20);
            return e.mape;
        }
    }
    FAIL("no metric " << metric);
    return 0;
}

} // namespace

TEST_CASE("the references replay: every vLLM and NIM row of the subset is supported", "[fidelity]")
{
    CHECK(subset().references.size() >= 60);
}

TEST_CASE("mean TTFT, ITL and E2E against published vLLM and NIM measurements stay within the limits", "[fidelity]")
{
    CHECK(mapeOf("ttft") <= FIDELITY_TTFT_LIMIT);
    CHECK(mapeOf("itl") <= FIDELITY_ITL_LIMIT);
    CHECK(mapeOf("e2e") <= FIDELITY_E2E_LIMIT);
}

TEST_CASE("no reference is shown saturated that the measurement shows served", "[fidelity]")
{
    for (size_t i = 0; i < subset().references.size(); ++i) {
        INFO(subset().references[i].id << ": predicted TTFT " << subset().predictions[i].ttftMs << " ms");
        CHECK_FALSE(fidelity::shownSaturated(subset().references[i], subset().predictions[i]));
    }
}

TEST_CASE("NIM's single-user ITL for Llama-3.3-70B FP8 on 2 H100s within 10 %", "[fidelity]")
{
    int checked = 0;
    for (size_t i = 0; i < subset().references.size(); ++i) {
        const fidelity::Reference &r = subset().references[i];
        if (r.engine != "nim" || r.load != 1)
            continue;
        INFO(r.id << ": measured " << *r.itlMs << " ms, predicted " << subset().predictions[i].itlMs << " ms");
        CHECK(subset().predictions[i].itlMs == Approx(*r.itlMs).epsilon(0.10));
        ++checked;
    }
    CHECK(checked == 2);
}

TEST_CASE("a closed loop's measured rate is held against the GPU's peak: linear-layer FLOPs of every token", "[fidelity]")
{
    const auto all = fidelity::readReferences(QStringLiteral(HEADROOM_FIDELITY_REFERENCES));
    const fidelity::Catalogs catalogs = fidelity::shippedCatalogs(QStringLiteral(HEADROOM_DATA_DIR));
    const auto find = [&](const std::string &id) {
        const auto it = std::find_if(all.begin(), all.end(), [&](const fidelity::Reference &r) { return r.id == id; });
        REQUIRE(it != all.end());
        return *it;
    };
    // Llama-3.1-8B FP8 on one H200, 2,000 in / 100 out, 64 users: TTFT 121.73 ms, TPOT 9.74 ms.
    // A request every 121.73 + 99 × 9.74 = 1,085.99 ms per user: 58.932 requests/s. Body
    // parameters 8,030,261,248 − 2 × 128,256 × 4,096 (LM head and untied embedding) =
    // 6,979,588,096; 2 × that × 2,100 tokens × 58.932 /s = 1.7276 PFLOP/s, 0.8729 of 1,979 TFLOPS.
    const fidelity::Reference heavy = find(
        "aic-nvidia_llama_3_1_8b_instruct_fp8_nvidia_llama_3_1_8b_instruct_fp8_h200_sxm_vllm_agg_2000x100_c64_tp1_epnone_2");
    const std::optional<double> share = fidelity::measuredComputeShare(heavy, catalogs);
    REQUIRE(share.has_value());
    CHECK(*share == Approx(0.8729).epsilon(0.001));
    // Two H100s at TP2, one user, 5,000 in / 500 out: a request every 406.77 + 499 × 18.58 =
    // 9,678.19 ms, 2 × 68,452,360,192 × 5,500 FLOPs each: 77.80 TFLOP/s, 0.0197 of 2 × 1,979 TFLOPS.
    const std::optional<double> light = fidelity::measuredComputeShare(find("nim180-l33-70b-fp8-tp2-h100-5000x500-c1"), catalogs);
    REQUIRE(light.has_value());
    CHECK(*light == Approx(0.01966).epsilon(0.002));
    // Poisson and offline loads have no closed-loop rate to read.
    fidelity::Reference rate = heavy;
    rate.loadKind = "rate";
    CHECK_FALSE(fidelity::measuredComputeShare(rate, catalogs).has_value());
}

TEST_CASE("a campaign whose measured mean TTFT cannot hold its first wave is replayed without one", "[fidelity]")
{
    auto all = fidelity::readReferences(QStringLiteral(HEADROOM_FIDELITY_REFERENCES));
    const fidelity::Catalogs catalogs = fidelity::shippedCatalogs(QStringLiteral(HEADROOM_DATA_DIR));
    const auto find = [&](const std::string &id) {
        const auto it = std::find_if(all.begin(), all.end(), [&](const fidelity::Reference &r) { return r.id == id; });
        REQUIRE(it != all.end());
        return *it;
    };
    // Llama-3.1-8B FP8 on one H200, 128 users of 4,000 in / 1,000 out, 1,280 requests: mean TTFT
    // 114.96 ms. A prompt's linear layers are 2 × 6,979,588,096 × 4,000 FLOPs, 28.2146 ms at
    // 1,979 TFLOPS; 128 prompts at once are done after 129 ÷ 2 = 64.5 of them on average at best:
    // 1,819.84 ms, which at 128 ÷ 1,280 of the requests adds 181.98 ms alone to the mean.
    const std::string heavyId
        = "aic-nvidia_llama_3_1_8b_instruct_fp8_nvidia_llama_3_1_8b_instruct_fp8_h200_sxm_vllm_agg_4000x1000_c128_tp1_epnone_10";
    const fidelity::Reference heavy = find(heavyId);
    const std::optional<double> floor = fidelity::firstWaveFloorMs(heavy, catalogs);
    REQUIRE(floor.has_value());
    CHECK(*floor == Approx(1819.84).epsilon(0.0005));
    CHECK(fidelity::firstWaveImpossible(heavy, catalogs));
    CHECK(fidelity::campaignOf(heavy) == "aic vllm 0.12.0 llama-3.1-8b fp8 on h200");
    // Llama-3.1-70B FP8 on four H200s, 64 users of 1,024 in / 1,024 out: its wave fits its mean.
    const fidelity::Reference light
        = find("aic-2026_04_06_llama_3_1_70b_h200_sxm_vllm_fp8_agg_1024x1024_c64_tp4_ep1_628");
    REQUIRE(fidelity::firstWaveFloorMs(light, catalogs).has_value());
    CHECK_FALSE(fidelity::firstWaveImpossible(light, catalogs));
    // Without a request count no wave is weighed, so none is ruled out.
    fidelity::Reference unknown = heavy;
    unknown.requests.reset();
    CHECK_FALSE(fidelity::firstWaveFloorMs(unknown, catalogs).has_value());
    CHECK_FALSE(fidelity::firstWaveImpossible(unknown, catalogs));

    // The whole campaign goes without its first wave, and only it.
    const std::vector<std::string> campaigns = fidelity::leaveOutImpossibleFirstWaves(all, catalogs);
    REQUIRE(campaigns == std::vector<std::string>{"aic vllm 0.12.0 llama-3.1-8b fp8 on h200"});
    int without = 0;
    for (const fidelity::Reference &r : all) {
        INFO(r.id);
        CHECK(r.firstWave == (fidelity::campaignOf(r) != campaigns.front()));
        without += r.firstWave ? 0 : 1;
    }
    CHECK(without == 21);
    CHECK_FALSE(fidelity::benchmarkRun(find(heavyId)).startsAtOnce);
    CHECK(fidelity::benchmarkRun(find(light.id)).startsAtOnce);
}

// Calibration on public data: one deployment's published closed-loop runs (AIConfigurator's vLLM
// sample, Llama-3.1-70B FP8 on H200 at TP4, 1,024 in / 1,024 out) at 4–32 users fitted from the
// shipped profile, the run at 64 users held out.
TEST_CASE("calibration on published runs reproduces them and a concurrency left out", "[fidelity][calibration]")
{
    const fidelity::Suite suite
        = fidelity::loadSuite(QStringLiteral(HEADROOM_FIDELITY_REFERENCES), QStringLiteral(HEADROOM_DATA_DIR));
    const std::vector<fidelity::Reference> &all = suite.references;
    const fidelity::Catalogs &catalogs = suite.catalogs;
    const engine::ServingAssumptions assumptions;
    engine::CalibrationInputs fitted, heldOut;
    fitted.maxSimulatedRequests = heldOut.maxSimulatedRequests = 192;
    for (const fidelity::Reference &r : all) {
        if (r.id.rfind("aic-", 0) != 0 || r.engine != "vllm" || r.model != "llama-3.1-70b" || r.gpu != "h200"
            || r.tp != 4 || r.weights != "fp8" || r.inputTokens != 1024 || r.outputTokens != 1024)
            continue;
        const auto replica = fidelity::replicaConfig(r, catalogs, assumptions);
        REQUIRE(replica);
        engine::CalibrationInputs &into = r.load == 64 ? heldOut : fitted;
        into.model = *replica->stepModel;
        into.serving = *replica;
        into.runs.push_back(fidelity::benchmarkRun(r));
        // TTFT rises with the users in these runs (90 → 265 ms from 4 to 64), mostly from the
        // benchmark's first wave (engine::simulateBenchmark), which the shipped profile predicts
        // within 18 %. Fitted as well, it drives η_bw and η_mm to their bound of 1 and TPOT at 16
        // users 5.2 % off, so the fit takes TPOT and E2E.
        into.runs.back().meanTtftMs.reset();
    }
    REQUIRE(fitted.runs.size() == 4);
    REQUIRE(heldOut.runs.size() == 1);
    const engine::CalibrationResult fit = engine::calibrate(fitted);
    for (const engine::CalibrationCoefficient &c : fit.coefficients)
        UNSCOPED_INFO(c.name << ": " << c.prior << " -> " << c.fitted);
    for (const engine::CalibrationPoint &p : fit.points) {
        INFO(p.label << " " << p.metric << ": measured " << p.measuredMs << " ms, predicted " << p.predictedMs);
        CHECK(std::abs(p.errorPct) < 5.0);
    }
    for (const engine::CalibrationPoint &p : engine::predictPoints(heldOut, fit.efficiency, fit.requestOverheadMs)) {
        INFO(p.label << " " << p.metric << ": measured " << p.measuredMs << " ms, predicted " << p.predictedMs);
        CHECK(std::abs(p.errorPct) < 15.0);
    }
}
