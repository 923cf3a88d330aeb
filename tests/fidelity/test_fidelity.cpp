// The fidelity suite in CTest: a representative subset of the published references (every vLLM
// and NIM row outside AIConfigurator's sample, and every sixth of its vLLM rows) replayed through
// the serving simulation, held to error limits. bench_fidelity replays all of them.
#include "fidelity.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace headroom;

// MAPE limits, %: the figures README states, a little above what the suite measures.
constexpr double FIDELITY_TTFT_LIMIT = 35; // not yet the 25 % aimed at: see README
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
        const auto all = fidelity::readReferences(QStringLiteral(HEADROOM_FIDELITY_REFERENCES));
        const fidelity::Catalogs catalogs = fidelity::shippedCatalogs(QStringLiteral(HEADROOM_DATA_DIR));
        const engine::ServingAssumptions assumptions;
        int aic = 0;
        for (const fidelity::Reference &r : all) {
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

// Calibration on public data: one deployment's published closed-loop runs (AIConfigurator's vLLM
// sample, Llama-3.1-70B FP8 on H200 at TP4, 1,024 in / 1,024 out) at 4–32 users fitted from the
// shipped profile, the run at 64 users held out.
TEST_CASE("calibration on published runs reproduces them and a concurrency left out", "[fidelity][calibration]")
{
    const auto all = fidelity::readReferences(QStringLiteral(HEADROOM_FIDELITY_REFERENCES));
    const fidelity::Catalogs catalogs = fidelity::shippedCatalogs(QStringLiteral(HEADROOM_DATA_DIR));
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
