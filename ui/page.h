#pragma once

#include "chartexport.h"

#include <QList>
#include <QWidget>
#include <optional>

namespace headroom::ui {

class ChartPanel;

// A page of the workbench. Pages talk to the workspace, never to each other.
class Page : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // Charts on this page, the first being the one File ▸ Export acts on.
    virtual QList<ChartPanel *> chartPanels() const { return {}; }
    // The chart or view File ▸ Export and Copy act on: the first chart panel's by default.
    virtual std::optional<ChartFigure> currentFigure() const;
};

} // namespace headroom::ui
