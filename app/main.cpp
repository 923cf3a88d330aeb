// headroom: the GUI by default, headless verbs for scripts and CI.
#include "cli/cli.h"
#include "ui/application.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);

    if (headroom::cli::isCliInvocation(args)) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setOrganizationName("Headroom");
        QCoreApplication::setApplicationName("headroom");
        QTextStream out(stdout);
        QTextStream err(stderr);
        return headroom::cli::run(args, out, err);
    }
    return headroom::ui::runGui(argc, argv, args);
}
