#pragma once

#include <QString>

namespace headroom::ui {

// Texts shared by the Serving simulation page's widgets.

// "93.5 %" for a share of 0.935.
QString sharePercent(double share, int decimals = 1);
// Milliseconds with one decimal below 100 ms, whole above ("8.4", "2,150").
QString msText(double value);

} // namespace headroom::ui
