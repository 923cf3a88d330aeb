#pragma once

#include <QString>
#include <vector>

namespace headroom::store {

// One entry of the report deck (DESIGN §5): a snapshot taken when it was added and, when it
// names one, the source it is drawn again from at every export, so that one deck shows one
// state of the workspace. A pinned item keeps its snapshot; the deck stamps it when the
// workspace's inputs have changed since.
struct ReportItem {
    enum class Kind { Figure, Table, Text };
    Kind kind = Kind::Figure;
    QString title;
    QString caption;
    // Figure: the chart as SVG text (vector, text kept as text). Table: JSON
    // {"columns": [str], "rows": [[str]]}, every row as long as the columns. Text: plain text.
    QString content;
    // How to draw it again from the workspace, as compact JSON {"kind": ..., ...}; empty: drawn
    // from a page's own inputs, kept as a snapshot.
    QString source;
    bool pinned = false;
    // When the snapshot was taken (ISO 8601 UTC) and the workspace's inputs then
    // (Workspace::inputsFingerprint()); empty for items stored before schema 15.
    QString takenAt;
    QString inputsFingerprint;
};

// The deck's title page; empty fields are left off it.
struct ReportSettings {
    QString title;
    QString author;
    QString date;  // as the author wants it printed, e.g. "2 December 2026"
};

// "figure", "table", "text" (the `kind` column), and back; false for anything else.
QString reportKindName(ReportItem::Kind kind);
bool parseReportKind(const QString &name, ReportItem::Kind *kind);

// The first problem with an item ("field \"content\": …"), or an empty string when none.
QString reportItemProblem(const ReportItem &item);

// SQL access to `report_item` (positions 0..n-1, contiguous) and the report keys of
// `workspace_info`. No validation and no transactions here: Workspace decides both.
class ReportTables {
public:
    ReportTables(const QString &connectionName, const QString &path);

    std::vector<ReportItem> items() const;  // in deck order
    // Replaces every item; the caller wraps it in a transaction.
    void replaceItems(const std::vector<ReportItem> &items) const;

    ReportSettings settings() const;
    void putSettings(const ReportSettings &settings) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
