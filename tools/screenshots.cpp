// Renders the workbench offscreen for the README and for review: a PNG of the main window
// on each built page, and the KV chart exported as PDF, SVG and PNG.
// Usage: headroom_screenshots OUTDIR [--dark] [--scale F]
#include "store/workspace.h"
#include "ui/catalogpage.h"
#include "ui/chartexport.h"
#include "ui/chartpanel.h"
#include "ui/kvpage.h"
#include "ui/mainwindow.h"
#include "ui/theme.h"

#include <QApplication>
#include <QDir>
#include <QTemporaryDir>
#include <cstdio>

using namespace headroom;

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: headroom_screenshots OUTDIR [--dark]\n");
        return 2;
    }
    const QDir out(args.at(1));
    QDir().mkpath(out.path());
    ui::applyTheme(args.contains("--dark") ? ui::Theme::Dark : ui::Theme::Light);
    const QString suffix = args.contains("--dark") ? "-dark" : "";

    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("screens.headroom")));
    window.resize(1500, 920);
    window.show();
    QApplication::processEvents();
    for (const QString &page : {QStringLiteral("KV & concurrency"), QStringLiteral("Catalog")}) {
        window.showPage(page);
        QApplication::processEvents();
        QString name = page.toLower();
        name.replace(QRegularExpression("[^a-z]+"), "-");
        const QString path = out.filePath(QStringLiteral("page-%1%2.png").arg(name, suffix));
        window.grab().save(path);
        std::printf("%s\n", qPrintable(path));
    }
    const ui::ChartFigure &figure = window.kvPage()->chartPanels().first()->figure();
    for (const char *format : {"pdf", "svg", "png"}) {
        const QString path = out.filePath(QStringLiteral("kv-chart%1.%2").arg(suffix, format));
        QString error;
        if (!ui::exportFigure(figure, path, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        std::printf("%s\n", qPrintable(path));
    }
    return 0;
}
