#pragma once

#include "commitment_renewal.h"
#include "serving_metrics.h"
#include "telemetry_anomalies.h"
#include "tracking.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// What a watch cycle (headroom track watch, DESIGN §3.7c) tells a reader: the findings of the
// tracking analyses run on what the workspace holds after a pull, each with a key that stays
// the same from cycle to cycle while the finding holds, so that a cycle can say what is new and
// what went away.
//
// Findings, in this order:
//   commitment_renewal   an under-used commitment (trailing utilization below the threshold)
//                        whose term ends within `renewalNoticeDays` of the last charged hour:
//                        act before it renews. Key: kind, commitment id, currency, term end day.
//   commitment_underused an under-used commitment with no renewal inside the notice (its term
//                        ends later, or the export does not say). Key: kind, id, currency.
//   utilization_<kind>   a spike, dip or level shift of the fleet's daily GPU utilization, on
//   gpu_hours_<kind>     a day inside the last `recentDays` whole days measured (older ones
//                        were news before). Key: kind, first day.
//   rightsizing          a deployment whose replica count the measurements say to change
//                        (fewer: GPUs to give back; saturated: queueing at the busy hour).
//                        Key: kind, deployment, recommended replicas.
// A key holds only ASCII letters, digits, and "_:-.@/" with anything else replaced by "_".
namespace headroom::engine {

struct WatchOptions {
    int renewalNoticeDays = 30;  // flag an under-used commitment this many days before it ends, ≥ 0
    int recentDays = 7;          // anomalies on the last N whole days measured, ≥ 1
};

struct WatchInputs {
    const CommitmentReport *commitments = nullptr;                   // none: no billing actuals
    const std::vector<CommitmentRecommendation> *renewals = nullptr; // term ends, by id and currency
    const TelemetryAnomalyReport *telemetry = nullptr;              // none: too few days measured
    const std::vector<RightsizingResult> *rightsizing = nullptr;    // none: no serving metrics
};

struct WatchFinding {
    std::string kind;
    std::string subject;   // commitment id, deployment, or "fleet"
    std::string key;
    std::string message;   // one line, with the figures
};

// Throws InputError("renewal_notice_days") below 0, InputError("recent_days") below 1.
std::vector<WatchFinding> watchFindings(const WatchInputs &inputs, const WatchOptions &options = {});

// Findings against the keys of the previous cycle.
struct FindingsChange {
    std::vector<WatchFinding> added;     // keys not held before, in the findings' order
    std::vector<std::string> resolved;   // keys held before and not now, as given
    bool changed() const { return !added.empty() || !resolved.empty(); }
};
FindingsChange compareFindings(const std::vector<std::string> &previousKeys, const std::vector<WatchFinding> &current);

} // namespace headroom::engine
