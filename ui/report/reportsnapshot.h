#pragma once

#include "common/chartexport.h"
#include "reportdeck.h"
#include "store/report/reporttables.h"

#include <optional>

class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// The figure as a report item: its chart drawn to SVG in the light export theme, without
// the chart's own title and caption (the deck page shows both around it).
store::ReportItem reportItemFromFigure(const ChartFigure &figure);
// A table as a report item (content: JSON {"columns": [...], "rows": [[...]]}), with the source
// it is drawn again from (empty: a snapshot of a page's own inputs).
store::ReportItem reportItemFromTable(const QString &title, const QString &caption, const DeckTable &table,
                                      const QJsonObject &source = {});
// Notes when the snapshot is taken: now, and the workspace's inputs now.
void stampReportItem(store::ReportItem &item, const store::Workspace &workspace);
// The item drawn again from the workspace as its source says; nullopt without a source, and
// with *problem saying why when the source cannot be drawn (a scenario removed, say).
std::optional<store::ReportItem> redrawReportItem(const store::Workspace &workspace, const store::ReportItem &item,
                                                  QString *problem);
// The item pinned: drawn once more now and frozen, stamped now (a snapshot of a page's inputs,
// or one whose source cannot be drawn, keeps its content and date).
store::ReportItem pinnedReportItem(const store::Workspace &workspace, const store::ReportItem &item);
// What the deck prints before a frozen item's caption: empty while the workspace's inputs are
// those of the snapshot; "Pinned as of 4 December 2026, 14:02 UTC; inputs changed since." and
// the like otherwise, or why its source could not be drawn (`problem`).
QString reportItemStamp(const store::ReportItem &item, const QString &inputsFingerprint, const QString &problem = {});
// When the item was taken, "4 December 2026, 14:05 UTC"; empty when unknown.
QString reportItemTakenText(const store::ReportItem &item);
// The cells of a table widget as shown (header labels and display text); nullopt when it
// has no columns or no rows.
std::optional<DeckTable> snapshotTable(const QTableWidget &table);

// A stored report item as a deck item; a table whose JSON cannot be read becomes text.
DeckItem deckItemFromReportItem(const store::ReportItem &item);
// Deck items built directly, for decks assembled from analyses (scenarios, tracking): a figure
// drawn as the report stores it, and a table with its title and caption.
DeckItem deckFigureItem(const ChartFigure &figure);
DeckItem deckTableItem(const QString &title, const QString &caption, const DeckTable &table);

// The assumptions pages for a workspace: the rate cards in force today (the latest
// effective date of each provider, region and GPU) and the workloads with their key numbers.
std::vector<DeckSection> workspaceAssumptions(const store::Workspace &workspace);
// What a reader of the deck must know about those assumptions: example committed rates,
// workloads on a GPU or model the workspace does not have, GPUs without a price.
QStringList workspaceWarnings(const store::Workspace &workspace);

// What a deck's items rest on: the workloads they name (in a title, caption, table cell or
// figure text) and the GPUs those workloads run on or the items name.
struct DeckSubjects {
    QStringList workloads;
    QStringList gpus;
    QStringList scenarios;
};
DeckSubjects deckSubjects(const store::Workspace &workspace, const std::vector<DeckItem> &items);
// The assumptions and warnings limited to those subjects: the rate cards in force for their
// GPUs and their workloads; empty sections are left out.
std::vector<DeckSection> workspaceAssumptions(const store::Workspace &workspace, const DeckSubjects &subjects);
QStringList workspaceWarnings(const store::Workspace &workspace, const DeckSubjects &subjects);

// The report settings on the deck's title page; no date: today.
void setDeckTitlePage(Deck &deck, const store::ReportSettings &settings);

// The workspace's report in one state: title page from the report settings (no date: today),
// a summary (the scenarios the items show, evaluated now, with the recommendation; else one
// line per item), the stored items in order (those with a source drawn again now unless
// pinned; frozen ones stamped when the workspace's inputs changed since their snapshot, and
// named among the warnings), the warnings, and as an appendix the assumptions of what the
// items use.
Deck workspaceDeck(const store::Workspace &workspace);

} // namespace headroom::ui
