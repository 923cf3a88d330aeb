#include "page.h"

#include "chartpanel.h"
#include "columnfit.h"
#include "report/reportsnapshot.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

// The inputs column: never narrower than its form plus a vertical scroll bar, so that a long form
// scrolls down but never sideways, and it follows the form when a palette, font or content change
// widens it.
class InputsScrollArea : public QScrollArea {
public:
    InputsScrollArea(int inputsWidth, QWidget *parent) : QScrollArea(parent), m_inputsWidth(inputsWidth) {}

    QSize minimumSizeHint() const override
    {
        QSize hint = QScrollArea::minimumSizeHint();
        int width = m_inputsWidth;
        if (widget())
            width = std::max(width, widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width()
                                        + 2 * frameWidth());
        hint.setWidth(width);
        return hint;
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == widget() && event->type() == QEvent::LayoutRequest)
            updateGeometry();
        return QScrollArea::eventFilter(watched, event);
    }

    void changeEvent(QEvent *event) override
    {
        if (event->type() == QEvent::StyleChange || event->type() == QEvent::FontChange
            || event->type() == QEvent::PaletteChange)
            updateGeometry();
        QScrollArea::changeEvent(event);
    }

private:
    int m_inputsWidth;
};

} // namespace

std::optional<ChartFigure> Page::currentFigure() const
{
    const QList<ChartPanel *> panels = chartPanels();
    if (panels.isEmpty())
        return std::nullopt;
    return panels.first()->figure();
}

QTableWidget *Page::currentResultsTable() const
{
    for (const QPointer<QTableWidget> &table : m_resultsTables)
        if (table && snapshotTable(*table))
            return table;
    return nullptr;
}

std::optional<DeckTable> Page::currentTable() const
{
    const QTableWidget *table = currentResultsTable();
    return table ? snapshotTable(*table) : std::nullopt;
}

void Page::layOutPage(QWidget *inputs, QWidget *results, int inputsWidth)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(inputsBeside(inputs, results, inputsWidth));
}

QSplitter *Page::inputsBeside(QWidget *inputs, QWidget *results, int inputsWidth)
{
    auto *scroll = new InputsScrollArea(inputsWidth, this);
    scroll->setWidget(inputs);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *split = new QSplitter(this);
    split->addWidget(scroll);
    split->addWidget(results);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    split->setSizes({scroll->minimumSizeHint().width() + 10, 1000});
    return split;
}

QWidget *resultsColumn(QWidget *parent, QWidget *top, QWidget *table, QWidget *explanation)
{
    auto *below = new QWidget(parent);
    auto *belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->addWidget(table, 3);
    auto *scroll = new QScrollArea(parent);
    scroll->setWidget(explanation);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    belowLayout->addWidget(scroll, 2);
    auto *column = new QSplitter(Qt::Vertical, parent);
    column->addWidget(top);
    column->addWidget(below);
    column->setStretchFactor(0, 3);
    column->setStretchFactor(1, 2);
    return column;
}

void fillResultsTable(QTableWidget &widget, const DeckTable &table, int firstNumberColumn, int lastNumberColumn)
{
    widget.clear();
    widget.setColumnCount(int(table.columns.size()));
    widget.setHorizontalHeaderLabels(table.columns);
    widget.setRowCount(int(table.rows.size()));
    for (int row = 0; row < int(table.rows.size()); ++row) {
        const QStringList &cells = table.rows[row];
        for (int column = 0; column < int(cells.size()) && column < widget.columnCount(); ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            if (firstNumberColumn >= 0 && column >= firstNumberColumn && column <= lastNumberColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            else if (cells[column].size() > 40)
                item->setToolTip(cells[column]);
            widget.setItem(row, column, item);
        }
    }
}

QJsonObject shownTableSource(const QTableWidget &widget, QJsonObject source)
{
    if (source.isEmpty())
        return source;
    QJsonArray shown;
    for (int column = 0; column < widget.columnCount(); ++column)
        if (!widget.isColumnHidden(column))
            shown << column;
    if (shown.size() < widget.columnCount())
        source.insert(QStringLiteral("shown_columns"), shown);
    return source;
}

QTableWidget *Page::newResultsTable(const char *objectName)
{
    auto *table = new QTableWidget(this);
    table->setObjectName(QLatin1String(objectName));
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->setAlternatingRowColors(true);
    ColumnFit::fitColumns(table);
    m_resultsTables << table;
    return table;
}

QLabel *Page::newExplanation(const char *objectName)
{
    auto *label = new QLabel(this);
    label->setObjectName(QLatin1String(objectName));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    return label;
}

QLabel *Page::newResultCard(const char *objectName)
{
    auto *label = new QLabel(this);
    label->setObjectName(QLatin1String(objectName));
    label->setFrameShape(QFrame::StyledPanel);
    label->setAlignment(Qt::AlignCenter);
    label->setMinimumHeight(64);
    label->setContentsMargins(6, 0, 6, 0); // the figure never touches the card's sides
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    return label;
}

QString Page::resultCardText(const QString &value, const QString &caption)
{
    // Longer figures in smaller type, so that "$4,809,023.68" fits a quarter of the results column.
    const int points = value.size() <= 6 ? 20 : value.size() <= 10 ? 17 : 15;
    return QStringLiteral("<div style='font-size:%1pt; font-weight:600'>%2</div><div>%3</div>").arg(points).arg(value, caption);
}

} // namespace headroom::ui
