#pragma once

#include "chartexport.h"

#include <QWidget>

namespace headroom::ui {

// A view of a custom-painted figure with the Export and Copy menu of a chart.
class PaintedFigureView : public QWidget {
    Q_OBJECT
public:
    explicit PaintedFigureView(QWidget *parent = nullptr);
    void setFigure(ChartFigure figure);
    const ChartFigure &figure() const { return m_figure; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    ChartFigure m_figure;
};

} // namespace headroom::ui
