#pragma once

#include "common/chartexport.h"
#include "common/paintedlabel.h"
#include "engine/fleet/scenario.h"

#include <QWidget>
#include <optional>

namespace headroom::ui {

// Screen widget of the static base / elastic top diagram of one evaluated scenario; paints
// through paintScenarioDiagram like every export, and offers Export and Copy on right-click.
class ScenarioDiagramView : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioDiagramView(QWidget *parent = nullptr);

    void setResult(std::optional<engine::ScenarioResult> result);
    const std::optional<engine::ScenarioResult> &result() const { return m_result; }
    std::optional<ChartFigure> figure() const;
    // The texts of the last paint and where they went; a shortened one shows its whole text
    // as a tooltip.
    const PaintedLabels &paintedLabels() const { return m_labels; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool event(QEvent *event) override;

private:
    std::optional<engine::ScenarioResult> m_result;
    PaintedLabels m_labels;
};

} // namespace headroom::ui
