#include "page.h"

#include "chartpanel.h"

namespace headroom::ui {

std::optional<ChartFigure> Page::currentFigure() const
{
    const QList<ChartPanel *> panels = chartPanels();
    if (panels.isEmpty())
        return std::nullopt;
    return panels.first()->figure();
}

} // namespace headroom::ui
