#include "columnviews.h"

#include "columnfit.h"

#include <QAbstractItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace headroom::ui {

ColumnViews::ColumnViews(QTableView *table, std::vector<View> views, QWidget *parent)
    : QTabBar(parent)
    , m_table(table)
    , m_views(std::move(views))
{
    setObjectName(table->objectName() + QStringLiteral("Views"));
    setDocumentMode(true);
    setExpanding(false);
    for (const View &view : m_views)
        setTabToolTip(addTab(view.name), view.toolTip);
    connect(this, &QTabBar::currentChanged, this, &ColumnViews::apply);
    if (QAbstractItemModel *model = table->model()) {
        connect(model, &QAbstractItemModel::columnsInserted, this, &ColumnViews::apply);
        connect(model, &QAbstractItemModel::columnsRemoved, this, &ColumnViews::apply);
        connect(model, &QAbstractItemModel::modelReset, this, &ColumnViews::apply);
    }
    apply();
}

QWidget *ColumnViews::above(ColumnViews *views, QTableView *table, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(views);
    layout->addWidget(table, 1);
    return box;
}

void ColumnViews::apply()
{
    const QAbstractItemModel *model = m_table->model();
    if (!model || currentIndex() < 0)
        return;
    const View &view = m_views.at(size_t(currentIndex()));
    for (int c = 0; c < model->columnCount(); ++c)
        m_table->setColumnHidden(c, !view.shows(c));
    ColumnFit::fitColumns(m_table);
}

} // namespace headroom::ui
