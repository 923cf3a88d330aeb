#pragma once

#include "cli/common/args.h"
#include "cli/common/command.h"

#include "engine/common/money.h"
#include "store/tracking/prometheussource.h"

#include <QString>
#include <optional>
#include <vector>

// `headroom track import --metrics`, `track rightsizing` and `track benchmarks`: serving
// telemetry (DCGM / vLLM exports) against what the fleet could do with fewer replicas, and
// a benchmark history of named optimizations (DESIGN §3.7c). Dispatched from `track`.
namespace headroom::cli {

// The options these actions read, added to `track`'s own.
const std::vector<OptionSpec> &servingTrackOptions();
// The usage text of these actions, appended to `track`'s.
QString servingTrackUsage();
// "rightsizing" and "benchmarks".
bool isServingTrackAction(const QString &action);
// --rate (with --currency), or --gpu's lowest on-demand rate in force today in the workspace's
// rate cards (--provider narrows it); nullopt when neither is given. `source` says which.
std::optional<engine::Money> trackRate(const Args &args, Context &context, const QString &action, QString *source);

// The source --prometheus, --token-file (else $HEADROOM_PROMETHEUS_TOKEN), --insecure-tls and
// --max-series name. Throws StoreError for a bad URL or token file.
store::PrometheusSource prometheusSource(const Args &args);

// One pull into the workspace: every whole hour from `since` (nullopt: after the last hour an
// earlier pull of the same server stored, at most 7 days back) to `until` (exclusive), stored
// as one import named "prometheus HOST:PORT FROM..TO". importId 0: nothing left to pull.
struct PullResult {
    qint64 since = 0;
    qint64 until = 0;
    qint64 importId = 0;
    QString name;
    store::PrometheusPull pull;
};
PullResult pullNewHours(const store::PrometheusSource &source, store::Workspace &workspace, std::optional<qint64> since,
                        qint64 until);

// Hours since the epoch as "2026-03-02T14:00:00Z".
QString hourIso(qint64 hour);
// Option `name` (an ISO 8601 time, no offset: UTC, or a date) as the hour it falls in; a
// UsageError naming `action` and the option when it is not one.
qint64 hourOption(const Args &args, const QString &name, const QString &action);

// Runs rightsizing, benchmarks, or import --metrics; refuses options the action does not read.
int runServingTrack(const QString &action, const Args &args, Context &context);

} // namespace headroom::cli
