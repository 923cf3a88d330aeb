#include "training.h"

#include <algorithm>
#include <cmath>

namespace headroom::engine {

namespace {

constexpr double kSecondsPerDay = 86400.0;

std::vector<int> tensorDegrees(const TrainingSetup &setup, int64_t gpus)
{
    if (setup.job.tp > 0)
        return {setup.job.tp};
    std::vector<int> degrees;
    const int domain = std::max(1, setup.gpu.gpusPerNode);
    for (int tp = 1; tp <= domain && tp <= gpus; tp *= 2) {
        if (setup.arch.heads % tp == 0 && setup.arch.hidden % tp == 0)
            degrees.push_back(tp);
    }
    return degrees;
}

std::vector<int> pipelineDegrees(const TrainingSetup &setup, int64_t gpusPerStageSet)
{
    if (setup.job.pp > 0)
        return {setup.job.pp};
    std::vector<int> degrees;
    const int64_t most = std::min<int64_t>(setup.arch.layers, gpusPerStageSet);
    for (int pp = 1; pp <= most; ++pp)
        degrees.push_back(pp);
    return degrees;
}

std::vector<int> expertDegrees(const TrainingSetup &setup)
{
    if (setup.job.ep > 0)
        return {setup.job.ep};
    std::vector<int> degrees{1};
    for (int ep = 2; ep <= setup.experts; ++ep) {
        if (setup.experts % ep == 0)
            degrees.push_back(ep);
    }
    return degrees;
}

// Interleaved chunks per GPU: the job's, or 1 and powers of two while every chunk keeps a layer.
std::vector<int> virtualDegrees(const TrainingSetup &setup, int pp)
{
    if (setup.job.virtualStages > 0)
        return {setup.job.virtualStages};
    std::vector<int> degrees{1};
    for (int v = 2; pp > 1 && int64_t(pp) * v <= setup.arch.layers; v *= 2)
        degrees.push_back(v);
    return degrees;
}

std::vector<Recomputation> recomputations(const TrainingSetup &setup)
{
    if (setup.job.recomputeFixed)
        return {setup.job.recompute};
    std::vector<Recomputation> levels;
    for (Recomputation r : {Recomputation::None, Recomputation::Selective, Recomputation::Full}) {
        // With flash attention selective recomputation stores and computes what none does.
        const bool sameAsNone = r == Recomputation::Selective && setup.job.attention == AttentionKernel::Flash
                                && setup.job.recompute == Recomputation::None;
        if (int(r) >= int(setup.job.recompute) && !sameAsNone)
            levels.push_back(r);
    }
    return levels;
}

// Layouts that keep every GPU computing first (idle GPUs are paid for all the same), then
// fastest; equal times: less memory (more headroom), then the smaller layout.
bool faster(const LayoutCandidate &a, const LayoutCandidate &b)
{
    if (a.computingGpus != b.computingGpus)
        return a.computingGpus > b.computingGpus;
    if (a.modelledDays != b.modelledDays)
        return a.modelledDays < b.modelledDays;
    if (a.memory.totalBytes() != b.memory.totalBytes())
        return a.memory.totalBytes() < b.memory.totalBytes();
    return int64_t(a.layout.tp) * a.layout.pp * a.layout.ep < int64_t(b.layout.tp) * b.layout.pp * b.layout.ep;
}

} // namespace

bool layoutSearched(const TrainingJob &job)
{
    return job.tp == 0 || job.pp == 0 || job.ep == 0 || job.virtualStages == 0 || job.zeroStage < 0;
}

TrainingSetup withLayout(const TrainingSetup &setup, const TrainingLayout &layout, int64_t gpus)
{
    TrainingSetup out = setup;
    out.job.tp = layout.tp;
    out.job.pp = layout.pp;
    out.job.ep = layout.ep;
    out.job.zeroStage = layout.zeroStage;
    out.job.virtualStages = layout.virtualStages;
    out.job.recompute = layout.recompute;
    out.job.globalBatchTokens = layout.globalBatchTokens > 0 ? layout.globalBatchTokens : autoBatchTokens(out, gpus);
    return out;
}

namespace {

// Evaluates one layout on `gpus` GPUs into `search`: counted, kept as the smallest when it does
// not fit, and among the best `keep` when it fits and is fast enough.
void evaluate(const TrainingSetup &setup, TrainingLayout layout, int64_t gpus, size_t keep, LayoutSearch &search)
{
    const TrainingSetup trial = withLayout(setup, layout, gpus);
    layout.globalBatchTokens = trial.job.globalBatchTokens;
    ++search.evaluated;
    LayoutCandidate candidate;
    candidate.layout = layout;
    candidate.memory = trainingMemory(trial, gpus);
    if (!candidate.memory.fits) {
        if (!search.smallest || candidate.memory.totalBytes() < search.smallest->memory.totalBytes())
            search.smallest = candidate;
        return;
    }
    candidate.comm = communicationOverhead(trial, gpus, true);
    // Megatron-LM's interleaved schedule runs the micro-batches in groups of pp.
    if (layout.virtualStages > 1 && candidate.comm.microBatchesPerReplica % layout.pp != 0)
        return;
    ++search.fitting;
    candidate.computingGpus = computingGpuCount(trial, gpus);
    candidate.dataParallel = candidate.computingGpus / (int64_t(layout.tp) * layout.pp);
    candidate.modelledDays = trial.job.tokens / trial.job.globalBatchTokens * candidate.comm.stepSeconds / kSecondsPerDay;
    candidate.days = daysForGpus(trial, gpus);
    std::vector<LayoutCandidate> &best = search.best;
    if (best.size() == keep && !faster(candidate, best.back()))
        return;
    best.insert(std::upper_bound(best.begin(), best.end(), candidate, faster), std::move(candidate));
    if (best.size() > keep)
        best.pop_back();
}

} // namespace

LayoutSearch searchLayouts(const TrainingSetup &setup, int64_t gpus, size_t keep)
{
    LayoutSearch search;
    keep = std::max<size_t>(1, keep);
    const std::vector<int> eps = expertDegrees(setup);
    const std::vector<Recomputation> levels = recomputations(setup);
    const std::vector<int> stages = setup.job.zeroStage >= 0 ? std::vector<int>{setup.job.zeroStage}
                                                             : std::vector<int>{0, 1, 2, 3};
    for (int tp : tensorDegrees(setup, gpus)) {
        for (int pp : pipelineDegrees(setup, gpus / tp)) {
            const int64_t replicas = gpus / (int64_t(tp) * pp);
            for (int v : virtualDegrees(setup, pp)) {
                if (v > 1 && pp == 1)
                    continue;
                for (int ep : eps) {
                    if (replicas < ep)
                        continue;
                    for (Recomputation recompute : levels)
                        for (int stage : stages)
                            evaluate(setup, {tp, pp, ep, stage, v, recompute, setup.job.globalBatchTokens}, gpus,
                                     keep, search);
                }
            }
        }
    }
    return search;
}

} // namespace headroom::engine
