#include "application.h"

#include "cli/cli.h"
#include "mainwindow.h"
#include "store/demoworkspace.h"
#include "store/storeerror.h"
#include "store/workspace.h"
#include "theme.h"

#include <QApplication>
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

QString workspaceOption(const QStringList &args, QString *error)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg == QLatin1String("--workspace")) {
            if (i + 1 >= args.size()) {
                *error = QStringLiteral("--workspace needs a file path");
                return {};
            }
            return args.at(i + 1);
        }
        if (arg.startsWith(QLatin1String("--workspace=")))
            return arg.mid(12);
    }
    return {};
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
    QString optionError;
    QString path = workspaceOption(args, &optionError);
    if (!optionError.isEmpty()) {
        err << "headroom: " << optionError << '\n';
        return 2;
    }
    // `headroom FILE.headroom`, as a desktop launcher runs it for a double-clicked workspace.
    if (const auto file = cli::workspaceArgument(args)) {
        if (!path.isEmpty()) {
            err << "headroom: give the workspace once, either as --workspace or as a file\n";
            return 2;
        }
        path = *file;
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName("Headroom");
    QApplication::setApplicationName("headroom");
    QApplication::setApplicationDisplayName("Headroom");
    QApplication::setApplicationVersion(QStringLiteral(HEADROOM_VERSION));
    QGuiApplication::setDesktopFileName("io.headroom.headroom");
    QApplication::setWindowIcon(QIcon(":/headroom/headroom.svg"));
    applyTheme(Theme::Light);

    // --demo: a freshly built demo workspace, opened on the Scenarios page.
    const bool demo = args.contains(QStringLiteral("--demo"));
    if (demo && !path.isEmpty()) {
        err << "headroom: --demo and --workspace exclude each other\n";
        return 2;
    }
    if (path.isEmpty())
        path = store::Workspace::defaultPath();
    std::unique_ptr<store::Workspace> workspace;
    try {
        if (demo)
            path = store::createDemoWorkspace();
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
