#pragma once

#include <QObject>

class QTableView;

namespace headroom::ui {

// Keeps a table's columns inside its viewport, so that no column is reached by scrolling
// sideways: each column gets the width its contents want while they fit together; when they
// do not, the widest columns give way first, down to the widest word (or cell editor) they
// hold and their header's text, and their cells wrap onto more lines. Only when even those
// widths are wider than the viewport does the table scroll.
//
// The widths follow the contents and the viewport's width: call fitColumns() once on a
// table; it refits after every change of its model and every resize of its viewport.
class ColumnFit : public QObject {
    Q_OBJECT
public:
    // Attaches a fit to `table` (once; later calls refit) and fits its columns now.
    static void fitColumns(QTableView *table);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit ColumnFit(QTableView *table);
    void fit();
    void fitLater();

    QTableView *m_table;
    bool m_pending = false;
    bool m_fitting = false;
    int m_fittedWidth = -1;
};

} // namespace headroom::ui
