// Serving fidelity benchmark: every published reference (references/serving_measurements.csv)
// replayed through the serving simulation with the shipped catalogs and default assumptions;
// prints each row's measured and predicted TTFT, ITL, E2E and throughput, then the error per
// metric (MAPE, median, mean signed) over the vLLM and NIM references, and per source.
// `bench_fidelity --all` also replays the TensorRT-LLM and SGLang rows (reported apart: they are
// other engines); `--request-overhead-ms F` replays with another per-request overhead (how its
// default was chosen). Last, the references whose measured rate needs more of the GPU's peak than
// its measured matmuls reach (fidelity::measuredComputeShare), and the campaigns replayed
// without a first wave (fidelity::leaveOutImpossibleFirstWaves) with the rows that show it.
#include "fidelity.h"

#include <QCoreApplication>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

using namespace headroom;

namespace {

std::string cell(const std::optional<double> &measured, double predicted, bool supported)
{
    char text[64];
    if (!measured)
        std::snprintf(text, sizeof text, "%9s %9s", "-", supported ? std::to_string(int(predicted + 0.5)).c_str() : "-");
    else
        std::snprintf(text, sizeof text, "%9.1f %9.1f", *measured, supported ? predicted : 0.0);
    return text;
}

std::string sourceOf(const std::string &id)
{
    return id.substr(0, id.find('-'));
}

void summary(const char *title, const std::vector<fidelity::Reference> &refs, const std::vector<fidelity::Prediction> &preds)
{
    std::printf("\n%s (%zu references)\n%-11s %6s %9s %9s %12s\n", title, refs.size(), "metric", "n", "MAPE %",
                "median %", "signed %");
    for (const fidelity::MetricError &e : fidelity::metricErrors(refs, preds))
        std::printf("%-11s %6d %9.1f %9.1f %+12.1f\n", e.metric.c_str(), e.count, e.mape, e.medianApe, e.meanSignedPct);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    bool all = false;
    engine::ServingAssumptions assumptions;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--all")
            all = true;
        else if (arg == "--request-overhead-ms" && i + 1 < argc)
            assumptions.requestOverheadMs = std::stod(argv[++i]); // what-if: the default's fit
        else if (arg == "--max-num-batched-tokens" && i + 1 < argc)
            assumptions.maxNumBatchedTokens = std::stoll(argv[++i]); // what-if: the chunk budget
    }
    const fidelity::Suite suite
        = fidelity::loadSuite(QStringLiteral(HEADROOM_FIDELITY_REFERENCES), QStringLiteral(HEADROOM_DATA_DIR));
    const std::vector<fidelity::Reference> &references = suite.references;
    const fidelity::Catalogs &catalogs = suite.catalogs;
    std::vector<fidelity::Reference> targets, others;
    std::vector<fidelity::Prediction> targetPredictions, otherPredictions;
    std::map<std::string, std::pair<std::vector<fidelity::Reference>, std::vector<fidelity::Prediction>>> bySource;
    int saturated = 0, unsupported = 0;
    const auto started = std::chrono::steady_clock::now();
    std::printf("%-70s %19s %19s %19s %19s\n", "reference", "TTFT ms meas/pred", "ITL ms meas/pred", "E2E ms meas/pred",
                "tok/s meas/pred");
    for (const fidelity::Reference &r : references) {
        const bool target = fidelity::isTarget(r);
        if (!target && !all)
            continue;
        const fidelity::Prediction p = fidelity::predict(r, catalogs, assumptions);
        if (!p.supported) {
            ++unsupported;
            std::printf("%-70.70s not replayed: %s\n", r.id.c_str(), p.why.c_str());
            continue;
        }
        const bool sat = fidelity::shownSaturated(r, p);
        saturated += target && sat ? 1 : 0;
        std::printf("%-70.70s %s %s %s %s%s\n", r.id.c_str(), cell(r.ttftMs, p.ttftMs, true).c_str(),
                    cell(r.itlMs, p.itlMs, true).c_str(), cell(r.e2eMs, p.e2eMs, true).c_str(),
                    cell(r.tokensPerS, p.tokensPerS, true).c_str(), sat ? "  SATURATED" : "");
        if (target) {
            targets.push_back(r);
            targetPredictions.push_back(p);
            bySource[sourceOf(r.id) + " (" + r.engine + ")"].first.push_back(r);
            bySource[sourceOf(r.id) + " (" + r.engine + ")"].second.push_back(p);
        } else {
            others.push_back(r);
            otherPredictions.push_back(p);
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    summary("vLLM and NIM references", targets, targetPredictions);
    for (const auto &[source, rows] : bySource)
        summary(("source " + source).c_str(), rows.first, rows.second);
    if (all)
        summary("other engines (TensorRT-LLM, SGLang): not targets", others, otherPredictions);
    std::printf("\nshown saturated where the measurement was served: %d; not replayed: %d; %.1f s\n", saturated,
                unsupported, seconds);
    // A consistency check on the measurements themselves (references/SOURCES.md).
    constexpr double kShownShare = 0.6;
    std::vector<std::pair<double, std::string>> heavy;
    for (const fidelity::Reference &r : targets) {
        const std::optional<double> share = fidelity::measuredComputeShare(r, catalogs);
        if (share && *share >= kShownShare)
            heavy.emplace_back(*share, r.id);
    }
    std::sort(heavy.rbegin(), heavy.rend());
    std::printf("\nreferences whose measured rate needs %.0f %% or more of the GPUs' dense peak in linear layers alone, "
                "had every token been computed (NVIDIA's measured FP8 GEMMs on H100 and H200 reach 0.56-0.72 of "
                "it): %zu\n", kShownShare * 100, heavy.size());
    for (const auto &[share, id] : heavy)
        std::printf("  %4.0f %%  %s\n", share * 100, id.c_str());
    // The campaigns whose means cannot hold a first wave, and the rows that show it.
    std::printf("\ncampaigns replayed without a first wave (a row's measured mean TTFT is below what its first "
                "wave alone adds at load / requests, its prompts at the GPUs' dense peak one after another): %zu\n",
                suite.withoutFirstWave.size());
    for (const std::string &campaign : suite.withoutFirstWave) {
        std::printf("  %s\n", campaign.c_str());
        for (const fidelity::Reference &r : references) {
            if (fidelity::campaignOf(r) == campaign && fidelity::firstWaveImpossible(r, catalogs))
                std::printf("    ...%s: wave floor %.1f ms x %d / %.0f = %.1f ms > %.1f ms measured\n",
                            r.id.substr(r.id.size() > 36 ? r.id.size() - 36 : 0).c_str(),
                            *fidelity::firstWaveFloorMs(r, catalogs), int(std::round(r.load)), *r.requests,
                            *fidelity::firstWaveFloorMs(r, catalogs) * std::round(r.load) / *r.requests, *r.ttftMs);
        }
    }
    return 0;
}
