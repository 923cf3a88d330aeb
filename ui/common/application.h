#pragma once

#include <QStringList>

namespace headroom::ui {

// Starts the desktop application: parses GUI options (--workspace PATH, or --demo for a fresh
// demo workspace opened on the Scenarios page), opens the
// workspace and shows the main window. Returns the process exit code. Without a display
// it says so and points to the headless commands instead of failing in Qt's platform plugin.
int runGui(int &argc, char **argv, const QStringList &args);

} // namespace headroom::ui
