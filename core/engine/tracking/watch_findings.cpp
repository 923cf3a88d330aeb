#include "watch_findings.h"

#include "engine/common/calendar.h"
#include "engine/common/errors.h"
#include "engine/common/explain_text.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace headroom::engine {

namespace {

constexpr int64_t kDaySeconds = 86400;

std::string day(int64_t daysSinceEpoch) { return isoDate(dateFromDays(daysSinceEpoch)); }

std::string keyPart(const std::string &text)
{
    std::string out = text;
    for (char &c : out) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || c == '_' || c == ':' || c == '-' || c == '.' || c == '@' || c == '/';
        if (!plain)
            c = '_';
    }
    return out;
}

std::string key(std::initializer_list<std::string> parts)
{
    std::string out;
    for (const std::string &part : parts) {
        if (!out.empty())
            out += ':';
        out += keyPart(part);
    }
    return out;
}

std::string commitmentName(const CommitmentUsage &c)
{
    return c.name.empty() || c.name == c.id ? c.id : c.name + " (" + c.id + ")";
}

void addCommitments(const WatchInputs &inputs, const WatchOptions &options, std::vector<WatchFinding> &out)
{
    if (!inputs.commitments)
        return;
    for (const CommitmentUsage &c : inputs.commitments->commitments) {
        if (!c.underUsed)
            continue;
        const CommitmentRecommendation *renewal = nullptr;
        if (inputs.renewals) {
            for (const CommitmentRecommendation &r : *inputs.renewals)
                if (r.id == c.id && r.currency == c.currency)
                    renewal = &r;
        }
        const std::string usage = "trailing utilization " + explain::percent(c.trailingUtilization) + ", "
            + c.unusedCost.toString(2) + " " + c.currency + " unused so far";
        const bool renewing = renewal && renewal->termEnd > 0 && renewal->daysToRenewal
            && *renewal->daysToRenewal >= 0 && *renewal->daysToRenewal <= options.renewalNoticeDays;
        if (renewing) {
            const int64_t endDay = renewal->termEnd / kDaySeconds;
            std::string message = "Commitment " + commitmentName(c) + " is under-used (" + usage + ") and its term ends "
                + day(endDay) + ", in " + std::to_string(*renewal->daysToRenewal) + " days";
            if (renewal->available)
                message += ": renew at " + renewal->recommendedPerHour.toString(2) + " " + c.currency
                    + "/h instead of " + renewal->currentPerHour.toString(2) + " (saves "
                    + renewal->savingPerTerm.amount.toString(2) + " " + c.currency + " per term)";
            out.push_back({"commitment_renewal", c.id, key({"commitment_renewal", c.id, c.currency, day(endDay)}),
                           message + "."});
        } else {
            std::string message = "Commitment " + commitmentName(c) + " is under-used (" + usage + ")";
            if (renewal && renewal->termEnd > 0 && renewal->daysToRenewal)
                message += *renewal->daysToRenewal < 0
                    ? "; its term ended " + day(renewal->termEnd / kDaySeconds)
                    : "; its term ends " + day(renewal->termEnd / kDaySeconds) + ", in "
                        + std::to_string(*renewal->daysToRenewal) + " days";
            else
                message += "; the export does not say when its term ends";
            out.push_back({"commitment_underused", c.id, key({"commitment_underused", c.id, c.currency}), message + "."});
        }
    }
}

void addAnomalies(const WatchInputs &inputs, const WatchOptions &options, std::vector<WatchFinding> &out)
{
    if (!inputs.telemetry || inputs.telemetry->days.empty())
        return;
    const TelemetryAnomalyReport &report = *inputs.telemetry;
    const int64_t lastDay = report.days.back().day;
    const std::string where = report.deployment.empty() ? "fleet" : report.deployment;
    for (const TelemetryAnomaly &a : report.anomalies) {
        if (a.endDay <= lastDay - options.recentDays)
            continue;
        const bool utilization = a.series == TelemetrySeries::Utilization;
        const std::string kind = std::string(utilization ? "utilization_" : "gpu_hours_") + std::string(toString(a.kind));
        const std::string when = a.day == a.endDay ? "on " + day(a.day)
                                                   : "from " + day(a.day) + " (confirmed " + day(a.endDay) + ")";
        std::string what;
        switch (a.kind) {
        case AnomalyKind::Spike: what = "rose"; break;
        case AnomalyKind::Dip: what = "dropped"; break;
        case AnomalyKind::LevelShift: what = "shifted"; break;
        }
        std::string message;
        if (utilization)
            message = "GPU utilization of the " + where + " " + what + " " + when + ": " + explain::percent(a.utilization) + " against "
                + explain::percent(a.expectedUtilization) + " expected, " + explain::number(std::abs(a.sizeGpuHours))
                + (a.sizeGpuHours < 0 ? " GPU-hours a day idle" : " busy GPU-hours a day more");
        else
            message = "GPU-hours of the " + where + " " + what + " " + when + ": " + explain::number(a.gpuHours) + " a day against "
                + explain::number(a.expectedGpuHours) + " expected";
        if (a.sizeMoney)
            message += " (" + a.sizeMoney->amount.toString(2) + " " + a.sizeMoney->currency + " a day)";
        out.push_back({kind, where, key({kind, where, day(a.day)}), message + "."});
    }
}

void addRightsizing(const WatchInputs &inputs, std::vector<WatchFinding> &out)
{
    if (!inputs.rightsizing)
        return;
    for (const RightsizingResult &r : *inputs.rightsizing) {
        if (r.hours == 0 || (r.recommendedReplicas == r.currentReplicas && !r.saturated))
            continue;
        std::string message = "Deployment " + r.deployment + ": ";
        if (r.saturated)
            message += "queueing at the busy hour with " + std::to_string(r.currentReplicas) + " replicas; "
                + std::to_string(r.recommendedReplicas) + " would hold the load";
        else if (r.recommendedReplicas < r.currentReplicas)
            message += std::to_string(r.recommendedReplicas) + " replicas would hold the busy load where "
                + std::to_string(r.currentReplicas) + " run (" + std::to_string(r.gpusSaved()) + " GPUs to give back"
                + (r.savingPerMonth ? ", " + r.savingPerMonth->amount.toString(2) + " " + r.savingPerMonth->currency + " a month"
                                    : std::string())
                + ")";
        else
            message += std::to_string(r.recommendedReplicas) + " replicas are needed for the busy load where "
                + std::to_string(r.currentReplicas) + " run";
        out.push_back({"rightsizing", r.deployment,
                       key({"rightsizing", r.deployment, std::to_string(r.recommendedReplicas), r.saturated ? "saturated" : ""}),
                       message + "."});
    }
}

} // namespace

std::vector<WatchFinding> watchFindings(const WatchInputs &inputs, const WatchOptions &options)
{
    if (options.renewalNoticeDays < 0)
        throw InputError("renewal_notice_days", "the renewal notice must be 0 days or more");
    if (options.recentDays < 1)
        throw InputError("recent_days", "anomalies are looked for on 1 day or more");
    std::vector<WatchFinding> out;
    addCommitments(inputs, options, out);
    addAnomalies(inputs, options, out);
    addRightsizing(inputs, out);
    return out;
}

FindingsChange compareFindings(const std::vector<std::string> &previousKeys, const std::vector<WatchFinding> &current)
{
    const std::set<std::string> before(previousKeys.begin(), previousKeys.end());
    std::set<std::string> now;
    FindingsChange change;
    for (const WatchFinding &f : current) {
        now.insert(f.key);
        if (!before.count(f.key))
            change.added.push_back(f);
    }
    for (const std::string &k : previousKeys)
        if (!now.count(k))
            change.resolved.push_back(k);
    return change;
}

} // namespace headroom::engine
