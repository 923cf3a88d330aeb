// Catch2 runner for tests that need Qt. Sets the offscreen platform and QStandardPaths test
// mode before the application object exists, so `catch_discover_tests` (which runs the
// binary at build time, outside the test environment) still lists every test.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QStandardPaths>
#include <cstdlib>

#ifdef HEADROOM_TEST_GUI
#include <QApplication>
using TestApplication = QApplication;
#else
#include <QCoreApplication>
using TestApplication = QCoreApplication;
#endif

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    TestApplication app(argc, argv);
    TestApplication::setOrganizationName("Headroom");
    TestApplication::setApplicationName("headroom-tests");
    return Catch::Session().run(argc, argv);
}
