// headroom: the GUI by default, headless verbs for scripts and CI.
#include "cli/common/cli.h"
#include "ui/common/application.h"
#include "ui/common/plurals.h"
#include "ui/report/reportcli.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);

    if (headroom::cli::isCliInvocation(args)) {
        headroom::cli::quietQtMessages();
        // Painting verbs (the report) get a QApplication on the offscreen platform.
        const auto app = headroom::ui::headlessApplication(argc, argv, args);
        QCoreApplication::setOrganizationName("Headroom");
        QCoreApplication::setApplicationName("headroom");
        headroom::ui::installEnglishPlurals();
        QTextStream out(stdout);
        QTextStream err(stderr);
        return headroom::cli::run(args, out, err, headroom::ui::paintingCommands());
    }
    return headroom::ui::runGui(argc, argv, args);
}
