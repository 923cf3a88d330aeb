#pragma once

#include "theme.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

// What the application remembers between runs, in QSettings (organisation "Headroom",
// application "headroom"; ~/.config/Headroom/headroom.conf on Linux): recent workspaces, the
// folder last used in a file dialog, the palette, and window and splitter states. The metrics
// source connected to each workspace file is kept there too (ui/tracking/metricssource.h).
namespace headroom::ui::settings {

constexpr int kMaxRecentWorkspaces = 10;

// Most recent first, at most kMaxRecentWorkspaces, files and server URLs alike.
QStringList recentWorkspaces();
// Moves `path` (made absolute when it is a file) to the front of the list.
void addRecentWorkspace(const QString &path);
void clearRecentWorkspaces();

// The folder a file dialog starts in: the one last chosen in any of them, else the home folder.
QString lastFolder();
// Remembers the folder of `filePath`.
void rememberFolderOf(const QString &filePath);

Theme theme();
void setTheme(Theme theme);

// Opaque window and splitter states (QWidget::saveGeometry, QSplitter::saveState) by key.
QByteArray state(const QString &key);
void setState(const QString &key, const QByteArray &value);

} // namespace headroom::ui::settings
