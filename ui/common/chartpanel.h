#pragma once

#include "chartexport.h"

#include <QWidget>

class QChart;
class QChartView;

namespace headroom::ui {

// A chart on a page: shows the figure's chart and offers Export (PDF, PNG, SVG) and Copy
// from its context menu. refresh() rebuilds the chart from the same builder the export uses.
class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(QWidget *parent = nullptr);

    void setFigure(ChartFigure figure);
    const ChartFigure &figure() const { return m_figure; }
    QChart *chart() const;
    QChartView *chartView() const { return m_view; }

    // Asks for a file name and writes the figure; the format follows the suffix.
    void exportWithDialog(const QString &format);
    void copyToClipboard();
    // Snapshots the figure into the report of the main window it sits in; false outside one.
    bool addToReport();

signals:
    void chartRebuilt();

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void rebuild();

    ChartFigure m_figure;
    QChartView *m_view;
};

} // namespace headroom::ui
