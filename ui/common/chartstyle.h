#pragma once

#include "chartexport.h"

#include <QChart>
#include <QColor>
#include <QSizeF>
#include <QString>

class QAbstractAxis;
class QAbstractBarSeries;
class QDateTimeAxis;

// The look every chart of the workbench shares, so that screens and exported decks match.
namespace headroom::ui {

// A chart in `theme` with a bold 12 pt title, the legend at the bottom in 8.5 pt, tight margins.
QChart *newStyledChart(const QString &title, QChart::ChartTheme theme);

// Text of a chart shown on a slide of `size`: every axis label and title, the legend and the
// value and marker labels at least `minPointSize` points; an axis title longer than its axis
// goes on two lines, and a legend wider than the chart moves to its right side, so that
// nothing is cut short.
void styleChartForSlide(QChart *chart, qreal minPointSize, const QSizeF &size);

// Qt's chart themes colour series differently (the light theme starts blue, the dark one green),
// and exports are drawn in the light theme. A chart built in another theme gets the light
// theme's series colours in the same order, so "the blue line" is blue on screen in either
// palette and on the exported slide. Series with colours of their own are left alone.
void shareSeriesColours(QChart *chart, QChart::ChartTheme theme);

// An opaque fill for a band (a forecast interval, a provisioned-but-idle area): `base` laid on
// the chart's ground at `strength` (0 … 1). On a dark ground the colour is lighter and
// stronger, so the band and its legend swatch stand out in either palette. Nested bands drawn
// outermost first read as with transparency.
QColor bandFill(const QChart *chart, const QColor &base, double strength);

// A date axis titled "Date (UTC)" over [fromEpoch, toEpoch] (seconds): the range widened to
// round times so that every tick falls on a whole hour or day, the same step between ticks
// (1, 2, 3, 6 or 12 hours; 1, 2, 3, 7, 14 or 28 days), at most `maxTicks` ticks. Values go on
// it through utcAxisX, as QDateTimeAxis labels in local time.
QDateTimeAxis *utcDateAxis(int64_t fromEpoch, int64_t toEpoch, int maxTicks = 9);
// x of an epoch second on a utcDateAxis: milliseconds shifted so that the labels read UTC.
double utcAxisX(int64_t epochSeconds);

// An empty chart with a title and a caption saying why there is nothing to show, so that a
// chart of older data is not left up.
ChartFigure emptyFigure(const QString &title, const QString &why = QString());

// A dashed vertical marker from `bottom` to `top` at x = `at`, kept out of the legend, with
// its label beside it no higher than `labelAt`, placed by ChartLabels clear of the line, of
// other markers and labels and inside the plot.
void addMarkerLine(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, double at, double bottom, double top,
                   double labelAt, const QString &label, const QColor &color, qreal width = 1.4);

// The value of every bar of `series` written at its end (stacked: in its segment), one
// number format for the whole series (seriesValueTexts), placed clear of other bars and labels.
void addBarValueLabels(QChart *chart, QAbstractBarSeries *series, const QString &suffix = QString());

} // namespace headroom::ui
