#pragma once

#include <QChart>

namespace headroom::ui {

// Light and dark palettes for the whole application (Fusion style).
enum class Theme { Light, Dark };

void applyTheme(Theme theme);
Theme currentTheme();
// The Qt Charts theme matching the current palette.
QChart::ChartTheme chartTheme();

} // namespace headroom::ui
