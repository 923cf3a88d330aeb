#pragma once

#include "common/chartexport.h"

#include <QChart>
#include <QPointF>
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

// Chart builders of the Serving simulation page.
namespace headroom::ui {

struct SimLine {
    QString name;
    std::vector<QPointF> points;
    bool dashed = false;
};

struct SimLineChart {
    QString title;
    QString xTitle;
    QString yTitle;
    std::vector<SimLine> lines;
    bool logX = false;                          // log₄ x axis
    bool logY = false;                          // log₁₀ y axis (values above 0 only)
    double yMin = 0;
    std::optional<double> yMax;                 // else from the data
    std::optional<double> markerX;              // a dashed vertical marker (the fleet as set)
    QString markerLabel;
};

// Lines on value axes (x log₂ when logX), colours from the theme, dashed lines drawn dashed.
QChart *buildSimLineChart(const SimLineChart &spec, QChart::ChartTheme theme);

// A heat strip: one row per replica, one column per sample time, the cell's shade the value
// over `maxValue` (white to deep blue), with a time axis and a colour key.
struct HeatStrip {
    QString title;
    QString valueLabel;                         // "requests in flight", "share of the KV pool"
    std::vector<double> timesS;
    std::vector<std::vector<double>> rows;      // [replica][sample]
    double maxValue = 1;
    bool percent = false;
};
void paintHeatStrip(QPainter &painter, const QRectF &rect, const HeatStrip &strip, const FigureInk &ink);

} // namespace headroom::ui
