#include "application.h"

#include "cli/common/args.h"
#include "cli/common/cli.h"
#include "mainwindow.h"
#include "store/common/demoworkspace.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "plurals.h"
#include "settings.h"
#include "theme.h"

#include <QApplication>
#include <QFileInfo>
#include <QFontDatabase>
#include <QIcon>
#include <QMessageBox>
#include <QTextStream>
#include <memory>

namespace headroom::ui {

namespace {

bool displayAvailable()
{
    if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        return true;
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

} // namespace

int runGui(int &argc, char **argv, const QStringList &args)
{
    QTextStream err(stderr);
    if (!displayAvailable()) {
        err << "headroom: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set), so the "
               "window cannot open.\n"
               "  Run it in a desktop session, or under a virtual display: xvfb-run headroom\n"
               "  Headless commands work anywhere: headroom --help, e.g. headroom kv --model "
               "llama-3.1-8b --gpu h100-sxm\n";
        return 1;
    }
    cli::WindowOptions options;
    try {
        options = cli::windowOptions(args);
    } catch (const cli::UsageError &e) {
        err << "headroom: " << e.message() << '\n';
        return 2;
    }
    QString path = options.workspace;

    QApplication app(argc, argv);
    QApplication::setOrganizationName("Headroom");
    QApplication::setApplicationName("headroom");
    QApplication::setApplicationDisplayName("Headroom");
    QApplication::setApplicationVersion(QStringLiteral(HEADROOM_VERSION));
    QGuiApplication::setDesktopFileName("io.headroom.headroom");
    QApplication::setWindowIcon(QIcon(":/headroom/headroom.svg"));
    installEnglishPlurals();
    applyTheme(settings::theme());

    // --demo: a freshly built demo workspace, opened on the Scenarios page. Without
    // --workspace: the workspace file used last, else the default one.
    const bool demo = options.demo;
    if (path.isEmpty()) {
        const QStringList recent = settings::recentWorkspaces();
        const bool lastIsFile = !recent.isEmpty() && !recent.front().contains(QLatin1String("://"))
            && QFileInfo(recent.front()).isFile();
        path = lastIsFile ? recent.front() : store::Workspace::defaultPath();
    }
    std::unique_ptr<store::Workspace> workspace;
    try {
        if (demo)
            path = store::openDemoWorkspace();
        workspace = std::make_unique<store::Workspace>(path);
    } catch (const store::StoreError &e) {
        QMessageBox::critical(nullptr, QObject::tr("Cannot open workspace"), e.message());
        err << "headroom: " << e.message() << '\n';
        return 2;
    }

    MainWindow window(std::move(workspace));
    if (demo)
        window.showPage(QStringLiteral("Scenarios"));
    window.show();
    return app.exec();
}

} // namespace headroom::ui
