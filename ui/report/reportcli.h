#pragma once

#include "cli/common/command.h"

#include <QStringList>
#include <memory>

class QCoreApplication;

namespace headroom::ui {

// `headroom report [--scenario NAME]... -o FILE.pdf`: the PDF deck, headless. With
// scenarios, their deck (pools, diagrams, warnings, and a comparison for two to four);
// without, the workspace's own report as arranged on the Report page.
cli::Command reportCommand();

// The headless verbs that live with the widgets because they paint.
std::vector<cli::Command> paintingCommands();

// The application object for a headless run of `args`: a QApplication on the offscreen
// platform for a painting verb and for track watch (fonts and charts need one; no display is
// used), a QCoreApplication for everything else. Installs the tracking deck writer track
// watch uses.
std::unique_ptr<QCoreApplication> headlessApplication(int &argc, char **argv, const QStringList &args);

} // namespace headroom::ui
