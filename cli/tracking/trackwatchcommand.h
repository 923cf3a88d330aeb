#pragma once

#include "cli/common/args.h"
#include "cli/common/command.h"

#include <QString>
#include <functional>
#include <optional>
#include <vector>

namespace headroom::store {
class Workspace;
}

// `headroom track watch`: keeps the plan current from a live Prometheus (DESIGN §3.7c). Each
// cycle pulls the hours not yet stored, re-runs rightsizing, the utilization anomalies and the
// commitment tracker on what the workspace then holds, and when the findings change writes a
// findings file and the week's tracking deck. Dispatched from `track`.
namespace headroom::cli {

const std::vector<OptionSpec> &watchTrackOptions();
QString watchTrackUsage();
int runWatchTrack(const Args &args, Context &context);

// Exit status of a cycle whose findings changed (files written); 0 when they did not.
inline constexpr int kFindingsChangedExit = 3;

// Writes the tracking deck of `workspace` to `pdfPath`, the serving pages priced at the lowest
// on-demand rate of `gpu` when not empty; throws StoreError or InputError when it cannot. The
// deck is painted, so the widgets layer provides the writer; without one, watch writes the
// findings file alone and says so.
using TrackingDeckWriter = std::function<void(const store::Workspace &workspace, const QString &pdfPath, const QString &gpu)>;
void setTrackingDeckWriter(TrackingDeckWriter writer);

} // namespace headroom::cli
