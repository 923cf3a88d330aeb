#pragma once

#include <QList>
#include <QWidget>

namespace headroom::ui {

class ChartPanel;

// A page of the workbench. Pages talk to the workspace, never to each other.
class Page : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // Charts on this page, the first being the one File ▸ Export acts on.
    virtual QList<ChartPanel *> chartPanels() const { return {}; }
};

} // namespace headroom::ui
