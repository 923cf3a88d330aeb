#pragma once

#include <QString>
#include <QStringList>

// The demo workspace: a complete example a new user can open at once (`headroom --demo`,
// File ▸ Open Demo Workspace). It is built from the shipped data/demo files — workload
// profiles, a training job, an hourly demand series and the fleet scenarios of DESIGN §3.7–3.9
// (core-and-flex chatbot, 14 MIG-partitioned H100s, a 64-GPU fleet with 40 % idle, static
// versus elastic at the same SLO) — on top of the shipped catalogs and rate cards.
namespace headroom::store {

// <user data dir>/demo.headroom, next to the default workspace.
QString demoWorkspacePath();

// Builds a fresh demo workspace at `path`, replacing any earlier file there (demo edits are
// not kept), and returns the path. Throws StoreError naming the file and field when the
// folder is not writable or a shipped demo file is damaged.
QString createDemoWorkspace(const QString &path = demoWorkspacePath());

// The demo workspace for this process, built fresh, and its path: at `path` when no other
// process has the demo there open — this process then holds its lock file (<path>.lock) until it
// exits, so that another `--demo` does not delete the file under it — else a private demo
// beside it, demo-<pid>.headroom, removed when this process exits (one a killed process left is
// removed by the next call). Throws StoreError as createDemoWorkspace.
QString openDemoWorkspace(const QString &path = demoWorkspacePath());

// Names of the shipped demo scenarios, in the order of data/demo/scenarios.json.
QStringList demoScenarioNames();

} // namespace headroom::store
