#pragma once

#include "store/report/reporttables.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace headroom::store {
class Workspace;
}

// Report items of long runs (a fragmentation replay, a serving simulation, a forecast fit) are
// not run again at every export. Their source records what the run read instead: a digest of
// each workspace entry and the size and time of each file outside the workspace. While none of
// them changed, the item is what a new run would draw; once one did, the item is a snapshot
// whose stamp names what changed.
namespace headroom::ui {

// What one run read.
struct RunReads {
    QStringList models;         // catalog model ids
    QStringList gpus;           // catalog GPU ids
    bool servingAssumptions = false;
    QStringList demandSeries;   // names
    QStringList rateCards;      // keys
    QStringList files;          // paths outside the workspace
};

// `source` with {"reads": {"model:<id>": digest, "gpu:<id>": …, "serving": …, "series:<name>": …,
// "rate_card:<key>": …}, "files": [{"path", "size", "modified"}]} as the workspace and the files
// are now: taken when the run reads them. Reads already in `source` are kept.
QJsonObject withRunReads(QJsonObject source, const store::Workspace &workspace, const RunReads &reads);
// The same for a run that reads nothing of the workspace, only `files`.
QJsonObject withFileReads(QJsonObject source, const QStringList &files);

// For a source with run reads: `stored` while nothing the run read changed; nullopt with *problem
// naming the first change otherwise. nullopt with *problem empty for any other source.
std::optional<store::ReportItem> unchangedRunItem(const store::Workspace &workspace, const QJsonObject &source,
                                                  const store::ReportItem &stored, QString *problem);

} // namespace headroom::ui
