#pragma once

#include "engine/frag.h"

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

} // namespace headroom::ui
