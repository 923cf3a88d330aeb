#pragma once

#include "engine/fragmentation/frag.h"

#include <QChart>
#include <QString>
#include <vector>

// Chart builders of the Fragmentation page: one series per policy, mean over seeds.
namespace headroom::ui {

struct PolicyRuns {
    engine::frag::Policy policy = engine::frag::Policy::Fgd;
    engine::frag::SeedsResult result;
};

QColor policyColor(engine::frag::Policy policy);
QString policyName(engine::frag::Policy policy);

// Allocated GPU % versus arrived GPU %, with the ideal (everything arrived is allocated).
QChart *buildAllocationChart(const std::vector<PolicyRuns> &runs, const QString &title, QChart::ChartTheme theme);
// Fragmentation ratio (% of idle GPU) versus arrived GPU %.
QChart *buildFragRatioChart(const std::vector<PolicyRuns> &runs, const QString &title, QChart::ChartTheme theme);
// Unallocated GPUs at 100 % arrived per policy: mean bars, ± one standard deviation as whiskers.
QChart *buildUnallocatedChart(const std::vector<PolicyRuns> &runs, const QString &title, QChart::ChartTheme theme);

// GPU request classes of failed placements: index into RunResult::failedByGpusAt100 (0 =
// fractional, k = k whole GPUs) — 0, 1, 2, 4, 8 and any other count that failed in the runs.
std::vector<size_t> requestClasses(const std::vector<const engine::frag::SeedsResult *> &results);
QString requestClassName(size_t index);  // "Fractional GPU" (0 < GPU < 1), "1 GPU", "8 GPUs"
// Mean over the seeds of the tasks of a request class that failed before 100 % arrived.
double meanFailedAt100(const engine::frag::SeedsResult &result, size_t index);
// FGD with exact and with the study's scoring: failed placements before 100 % arrived by GPU
// request, mean over the seeds, one bar set per scoring.
QChart *buildFgdScoringChart(const engine::frag::SeedsResult &exact, const engine::frag::SeedsResult &study,
                             const QString &title, QChart::ChartTheme theme);

} // namespace headroom::ui
