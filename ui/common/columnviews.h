#pragma once

#include <QString>
#include <QTabBar>
#include <functional>
#include <vector>

class QTableView;

namespace headroom::ui {

// Views of one wide table, each a subset of its columns, chosen on a tab bar above it: a
// table whose columns together need more room than the page gives shows them in views that
// each fit (with ColumnFit), instead of scrolling sideways. The model keeps every column,
// so column numbers stay the same; the report takes the columns of the view shown.
class ColumnViews : public QTabBar {
    Q_OBJECT
public:
    struct View {
        QString name;
        QString toolTip;
        std::function<bool(int column)> shows;
    };

    ColumnViews(QTableView *table, std::vector<View> views, QWidget *parent = nullptr);

    // The tab bar above the table, in one widget to lay out in the table's place.
    static QWidget *above(ColumnViews *views, QTableView *table, QWidget *parent);

    // Shows the columns of the current view again (after columns were added or removed).
    void apply();

private:
    QTableView *m_table;
    std::vector<View> m_views;
};

} // namespace headroom::ui
