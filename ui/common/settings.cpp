#include "settings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace headroom::ui::settings {

namespace {

const QString kRecent = QStringLiteral("workspaces/recent");
const QString kLastFolder = QStringLiteral("dialogs/lastFolder");
const QString kTheme = QStringLiteral("view/theme");

bool isServerUrl(const QString &path)
{
    return path.startsWith(QLatin1String("postgresql://")) || path.startsWith(QLatin1String("postgres://"));
}

} // namespace

QStringList recentWorkspaces()
{
    QStringList list = QSettings().value(kRecent).toStringList();
    list.removeAll(QString());
    list.removeDuplicates();
    while (list.size() > kMaxRecentWorkspaces)
        list.removeLast();
    return list;
}

void addRecentWorkspace(const QString &path)
{
    if (path.isEmpty())
        return;
    const QString entry = isServerUrl(path) ? path : QFileInfo(path).absoluteFilePath();
    QStringList list = recentWorkspaces();
    list.removeAll(entry);
    list.prepend(entry);
    while (list.size() > kMaxRecentWorkspaces)
        list.removeLast();
    QSettings().setValue(kRecent, list);
}

void clearRecentWorkspaces()
{
    QSettings().remove(kRecent);
}

QString lastFolder()
{
    const QString folder = QSettings().value(kLastFolder).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberFolderOf(const QString &filePath)
{
    if (filePath.isEmpty())
        return;
    const QString folder = QFileInfo(filePath).absolutePath();
    if (QFileInfo(folder).isDir())
        QSettings().setValue(kLastFolder, folder);
}

Theme theme()
{
    return QSettings().value(kTheme).toString() == QLatin1String("dark") ? Theme::Dark : Theme::Light;
}

void setTheme(Theme theme)
{
    QSettings().setValue(kTheme, theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light"));
}

QByteArray state(const QString &key)
{
    return QSettings().value(QStringLiteral("state/") + key).toByteArray();
}

void setState(const QString &key, const QByteArray &value)
{
    QSettings().setValue(QStringLiteral("state/") + key, value);
}

} // namespace headroom::ui::settings
