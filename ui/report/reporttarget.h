#pragma once

#include "common/chartexport.h"
#include "store/report/reporttables.h"

#include <vector>

class QWidget;

namespace headroom::ui {

// Where "Add to Report" of a chart or view goes: the main window the widget sits in.
class ReportTarget {
public:
    virtual ~ReportTarget() = default;
    // Snapshots the figure (vector SVG) into the report; undoable.
    virtual void addFigureToReport(const ChartFigure &figure) = 0;
    // Appends the items, in order, as one undoable step named `what` ("the plan").
    virtual void addItemsToReport(const std::vector<store::ReportItem> &items, const QString &what) = 0;

    // The target `widget` sits in, or nullptr (a chart shown outside a main window).
    static ReportTarget *of(const QWidget *widget);
};

} // namespace headroom::ui
