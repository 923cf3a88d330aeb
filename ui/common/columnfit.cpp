#include "columnfit.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QRegularExpression>
#include <QTableView>
#include <QTimer>
#include <algorithm>
#include <numeric>

namespace headroom::ui {

namespace {

// Rows measured for the widest word of a column; longer tables are judged by their top.
constexpr int kMeasuredRows = 300;

// The widest word of column `column` plus a cell's margins, or the narrowest its editor
// widget can be: the column can shrink to it without cutting anything.
int narrowestWhole(const QTableView &table, int column)
{
    const QAbstractItemModel &model = *table.model();
    const int rows = std::min(model.rowCount(), kMeasuredRows);
    const int margin = 2 * (table.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &table) + 1) + 4;
    static const QRegularExpression space(QStringLiteral("\\s+"));
    int widest = 0;
    for (int row = 0; row < rows; ++row) {
        const QModelIndex index = model.index(row, column);
        if (QWidget *editor = table.indexWidget(index)) {
            widest = std::max(widest, editor->minimumSizeHint().width());
            continue;
        }
        const QString text = index.data(Qt::DisplayRole).toString();
        if (text.isEmpty())
            continue;
        const QVariant fontRole = index.data(Qt::FontRole);
        const QFontMetrics metrics(fontRole.canConvert<QFont>() ? qvariant_cast<QFont>(fontRole) : table.font());
        // Right-aligned cells hold a figure with its unit ("14.96 GiB", "$1,532.16"): kept on one line.
        const bool figure = index.data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight;
        for (const QString &word : figure ? QStringList{text} : text.split(space, Qt::SkipEmptyParts))
            widest = std::max(widest, metrics.horizontalAdvance(word) + margin);
    }
    return widest;
}

} // namespace

ColumnFit::ColumnFit(QTableView *table)
    : QObject(table)
    , m_table(table)
{
    setObjectName(QStringLiteral("columnFit"));
    table->viewport()->installEventFilter(this);
}

void ColumnFit::fitColumns(QTableView *table)
{
    auto *fit = table->findChild<ColumnFit *>(QStringLiteral("columnFit"), Qt::FindDirectChildrenOnly);
    if (!fit) {
        fit = new ColumnFit(table);
        // Any change of the contents refits, once, after the change is complete.
        if (QAbstractItemModel *model = table->model()) {
            connect(model, &QAbstractItemModel::modelReset, fit, &ColumnFit::fitLater);
            connect(model, &QAbstractItemModel::layoutChanged, fit, &ColumnFit::fitLater);
            connect(model, &QAbstractItemModel::rowsInserted, fit, &ColumnFit::fitLater);
            connect(model, &QAbstractItemModel::rowsRemoved, fit, &ColumnFit::fitLater);
            connect(model, &QAbstractItemModel::columnsInserted, fit, &ColumnFit::fitLater);
            connect(model, &QAbstractItemModel::columnsRemoved, fit, &ColumnFit::fitLater);
            connect(model, &QAbstractItemModel::dataChanged, fit, &ColumnFit::fitLater);
            connect(model, &QAbstractItemModel::headerDataChanged, fit, &ColumnFit::fitLater);
        }
    }
    fit->fit();
}

bool ColumnFit::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize && !m_fitting
        && m_table->viewport()->width() != m_fittedWidth)
        fitLater();
    return QObject::eventFilter(watched, event);
}

void ColumnFit::fitLater()
{
    if (m_pending)
        return;
    m_pending = true;
    QTimer::singleShot(0, this, [this] {
        m_pending = false;
        fit();
    });
}

void ColumnFit::fit()
{
    const QAbstractItemModel *model = m_table->model();
    if (!model || m_fitting)
        return;
    m_fitting = true;
    QHeaderView *header = m_table->horizontalHeader();
    const QAbstractItemView *view = m_table; // the size hints are public there
    const int columns = model->columnCount();
    std::vector<int> want(size_t(columns), 0), least(size_t(columns), 0);
    std::vector<int> shown;
    for (int c = 0; c < columns; ++c) {
        if (header->isSectionHidden(c))
            continue;
        shown.push_back(c);
        const int headerWidth = header->sectionSizeHint(c);
        want[size_t(c)] = std::max(view->sizeHintForColumn(c), headerWidth);
        least[size_t(c)] = std::min(want[size_t(c)], std::max(narrowestWhole(*m_table, c), headerWidth));
    }
    const int room = m_table->viewport()->width();
    auto total = [&](int cap) {
        int sum = 0;
        for (int c : shown)
            sum += std::max(least[size_t(c)], std::min(want[size_t(c)], cap));
        return sum;
    };
    // The largest cap on a column's width at which all columns fit: the widest give way first.
    int low = 0, high = 0;
    for (int c : shown)
        high = std::max(high, want[size_t(c)]);
    while (low < high) {
        const int mid = (low + high + 1) / 2;
        if (total(mid) <= room)
            low = mid;
        else
            high = mid - 1;
    }
    for (int c : shown) {
        const int width = std::max(least[size_t(c)], std::min(want[size_t(c)], low));
        if (header->sectionResizeMode(c) != QHeaderView::Interactive)
            header->setSectionResizeMode(c, QHeaderView::Interactive);
        header->resizeSection(c, width);
    }
    m_table->setWordWrap(true);
    // Rows as tall as their wrapped cells, never lower than the style's row.
    const int rows = std::min(model->rowCount(), kMeasuredRows);
    const int standard = m_table->verticalHeader()->defaultSectionSize();
    for (int row = 0; row < rows; ++row)
        m_table->verticalHeader()->resizeSection(row, std::max(standard, view->sizeHintForRow(row)));
    m_fittedWidth = m_table->viewport()->width();
    m_fitting = false;
}

} // namespace headroom::ui
