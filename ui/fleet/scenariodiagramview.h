#pragma once

#include "common/chartexport.h"
#include "engine/scenario.h"

#include <QWidget>
#include <optional>

namespace headroom::ui {

// Screen widget of the static base / elastic top diagram of one evaluated scenario; paints
// through paintScenarioDiagram like every export, and offers Export and Copy on right-click.
class ScenarioDiagramView : public QWidget {
public:
    explicit ScenarioDiagramView(QWidget *parent = nullptr);

    void setResult(std::optional<engine::ScenarioResult> result);
    const std::optional<engine::ScenarioResult> &result() const { return m_result; }
    std::optional<ChartFigure> figure() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    std::optional<engine::ScenarioResult> m_result;
};

} // namespace headroom::ui
