#pragma once

#include "chartexport.h"
#include "report/reportdeck.h"

#include <QList>
#include <QPointer>
#include <QWidget>
#include <limits>
#include <optional>

class QLabel;
class QSplitter;
class QTableWidget;

namespace headroom::ui {

class ChartPanel;

// A page of the workbench. Pages talk to the workspace, never to each other.
// The results column of DESIGN §5 for any panel: `top` (charts) over the table and its
// explanation, split by a movable handle; a long explanation scrolls rather than being cut.
QWidget *resultsColumn(QWidget *parent, QWidget *top, QWidget *table, QWidget *explanation);

// Shows `table` in a results table: its columns as headers, its rows as read-only cells, those
// from `firstNumberColumn` (-1: none) to `lastNumberColumn` aligned right as numbers; a long
// cell also as its tooltip.
void fillResultsTable(QTableWidget &widget, const DeckTable &table, int firstNumberColumn = -1,
                      int lastNumberColumn = std::numeric_limits<int>::max());
// `source` of the table `widget` shows, with the columns it hides left out:
// {"shown_columns": [index, …]} added where any is hidden (selectShownColumns applies it).
QJsonObject shownTableSource(const QTableWidget &widget, QJsonObject source);

class Page : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // Charts on this page, the first being the one File ▸ Export acts on.
    virtual QList<ChartPanel *> chartPanels() const { return {}; }
    // The chart or view File ▸ Export and Copy act on: the first chart panel's by default.
    virtual std::optional<ChartFigure> currentFigure() const;
    // The numbers table "Add Table to Report" acts on: by default the first results table
    // (newResultsTable) that shows rows, as displayed.
    virtual std::optional<DeckTable> currentTable() const;
    // How the report draws that table again from the workspace (ChartFigure::source); empty:
    // it is kept as a snapshot of the page.
    virtual QJsonObject currentTableSource() const { return {}; }

protected:
    // The results table currentTable() snapshots: the first that shows rows, or none.
    QTableWidget *currentResultsTable() const;
    // The analysis page layout of DESIGN §5: inputs on the left in a scroll area (at least
    // `inputsWidth` wide), the results filling the rest, split by a movable handle.
    void layOutPage(QWidget *inputs, QWidget *results, int inputsWidth);
    // The same inputs-and-results pair as a splitter, for a page that shows it inside a tab.
    QSplitter *inputsBeside(QWidget *inputs, QWidget *results, int inputsWidth);
    // Results on the right: `top` (charts) above a read-only numbers table and an explanation.
    QWidget *resultsColumn(QWidget *top, QWidget *table, QWidget *explanation) { return ui::resultsColumn(this, top, table, explanation); }
    // A read-only table of numbers and a selectable, word-wrapped explanation label.
    QTableWidget *newResultsTable(const char *objectName);
    QLabel *newExplanation(const char *objectName);
    // A headline result card: a framed label showing a large value above its caption.
    QLabel *newResultCard(const char *objectName);
    static QString resultCardText(const QString &value, const QString &caption);

private:
    QList<QPointer<QTableWidget>> m_resultsTables;
};

} // namespace headroom::ui
