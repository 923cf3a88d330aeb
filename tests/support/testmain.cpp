// Catch2 runner for tests that need Qt. Sets the offscreen platform and QStandardPaths test
// mode before the application object exists, so `catch_discover_tests` (which runs the
// binary at build time, outside the test environment) still lists every test.
//
// GUI tests fail on Qt warnings and critical messages: a chart fed a zero on a log axis, a
// broken connection or a bad layout would otherwise only scroll by on stderr. A message in a
// test case on the GUI thread fails that test case (FAIL_CHECK, so the test goes on); one
// outside a test case or from another thread fails the run. kAllowedWarnings lists the
// messages that are not the product's doing; keep it narrow and say why for each. A test that
// provokes a warning on purpose says so with ExpectedQtWarning (qtwarnings.h).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cstdlib>

#ifdef HEADROOM_TEST_GUI
#include <QApplication>
#include <QMutex>
#include <QStringList>
#include <QThread>
#include "qtwarnings.h"
#include "ui/common/plurals.h"
#include <vector>
using TestApplication = QApplication;
#else
#include <QCoreApplication>
using TestApplication = QCoreApplication;
#endif

#ifdef HEADROOM_TEST_GUI
namespace {

// Substrings of messages that do not fail a test.
const std::vector<const char *> kAllowedWarnings = {
    // The offscreen platform plugin cannot propagate size hints to a native window and says so
    // whenever a top-level widget is shown; there is no native window in these tests.
    "This plugin does not support propagateSizeHints()",
    // Nor can it stack windows: raising the user guide's window over the main one.
    "This plugin does not support raise()",
    // Machines without a login session (CI, containers) have no XDG_RUNTIME_DIR; Qt falls back
    // to a private directory under /tmp and says so once.
    "QStandardPaths: XDG_RUNTIME_DIR not set",
};
QStringList g_expectedWarnings; // ExpectedQtWarning guards alive

QtMessageHandler g_previousHandler = nullptr;
bool g_inTestCase = false;
QMutex g_strayMutex;
QStringList g_strayWarnings; // outside a test case or off the GUI thread

bool allowed(const QString &message)
{
    for (const char *allowedText : kAllowedWarnings)
        if (message.contains(QLatin1String(allowedText)))
            return true;
    for (const QString &expected : g_expectedWarnings)
        if (message.contains(expected))
            return true;
    return false;
}

void failOnQtWarnings(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (g_previousHandler)
        g_previousHandler(type, context, message);
    if ((type != QtWarningMsg && type != QtCriticalMsg) || allowed(message))
        return;
    const bool onGuiThread = QCoreApplication::instance()
        && QThread::currentThread() == QCoreApplication::instance()->thread();
    if (g_inTestCase && onGuiThread) {
        FAIL_CHECK("Qt " << (type == QtWarningMsg ? "warning" : "critical message") << ": "
                         << message.toStdString());
        return;
    }
    const QMutexLocker lock(&g_strayMutex);
    g_strayWarnings << message;
}

// Tells the message handler whether a test case is running.
struct QtWarningListener : Catch::TestEventListenerBase {
    using TestEventListenerBase::TestEventListenerBase;
    void testCaseStarting(const Catch::TestCaseInfo &info) override
    {
        TestEventListenerBase::testCaseStarting(info);
        g_inTestCase = true;
    }
    void testCaseEnded(const Catch::TestCaseStats &stats) override
    {
        g_inTestCase = false;
        TestEventListenerBase::testCaseEnded(stats);
    }
};

} // namespace

CATCH_REGISTER_LISTENER(QtWarningListener)

ExpectedQtWarning::ExpectedQtWarning(const QString &text)
{
    g_expectedWarnings << text;
}

ExpectedQtWarning::~ExpectedQtWarning()
{
    g_expectedWarnings.removeLast();
}
#endif

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    TestApplication app(argc, argv);
    TestApplication::setOrganizationName("Headroom");
    TestApplication::setApplicationName("headroom-tests");
    // Settings (recent workspaces, window states) in a folder of this run only, so that test
    // processes running side by side never see each other's.
    QTemporaryDir settingsDir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
#ifdef HEADROOM_TEST_GUI
    // Counted nouns as the application shows them ("1 GPU", "2 GPUs").
    headroom::ui::installEnglishPlurals();
    g_previousHandler = qInstallMessageHandler(failOnQtWarnings);
    int result = Catch::Session().run(argc, argv);
    qInstallMessageHandler(g_previousHandler);
    const QMutexLocker lock(&g_strayMutex);
    if (!g_strayWarnings.isEmpty()) {
        fprintf(stderr, "Qt warnings outside a test case or off the GUI thread:\n");
        for (const QString &warning : g_strayWarnings)
            fprintf(stderr, "  %s\n", qPrintable(warning));
        result = result == 0 ? 1 : result;
    }
    return result;
#else
    return Catch::Session().run(argc, argv);
#endif
}
