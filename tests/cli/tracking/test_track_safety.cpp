// Billing imports that must be refused whole with a clear message: sums past what a workspace
// stores, a device instead of a file, a file with only a header, an empty --focus.
#include "../common/clirunner.h"

#include "store/common/workspace.h"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QProcess>

using Catch::Matchers::Contains;

namespace {

// `rows` usage rows on 2026-01-01, each of a different resource, each costing `cost`.
QByteArray sameDayFocus(int rows, const QString &cost)
{
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ResourceId\n";
    for (int r = 0; r < rows; ++r)
        csv += QStringLiteral("USD,2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,%1,%1,node-%2\n").arg(cost).arg(r).toUtf8();
    return csv;
}

} // namespace

TEST_CASE("track import refuses costs whose day sum passes what a workspace stores, naming the line", "[track-cli]")
{
    CliFixture ws;
    // 37 costs of 26 digits: each is in range, their sum on the day is not from the 11th on.
    const QString file = ws.writeFile("huge.csv", sameDayFocus(37, QStringLiteral("99999999999999999999999999.5")));
    RUN_HEADROOM(import, ws, {"track", "import", "--focus", file});
    CHECK(import.exitCode == 2);
    // The header is line 1; the 11th row, on line 12, takes the day's sum past 10^27.
    CHECK_THAT(import.err.toStdString(), Contains("huge.csv") && Contains("line 12") && Contains("2026-01-01")
                                             && Contains("27 digits"));
    {
        headroom::store::Workspace workspace(ws.workspace());
        CHECK(workspace.actualsImports().empty());
    }
    // Nothing was imported, so the tracking verbs say so rather than failing on stored data.
    RUN_HEADROOM(commitments, ws, {"track", "commitments"});
    CHECK(commitments.exitCode == 2);
    CHECK_THAT(commitments.err.toStdString(), Contains("holds no actuals") && !Contains("not a decimal number"));
    RUN_HEADROOM(direct, ws, {"track", "commitments", "--focus", file});
    CHECK(direct.exitCode == 2);
    CHECK_THAT(direct.err.toStdString(), Contains("huge.csv") && Contains("line 12"));

    // Ten such rows fit and import.
    const QString fits = ws.writeFile("large.csv", sameDayFocus(10, QStringLiteral("99999999999999999999999999.5")));
    RUN_HEADROOM(ten, ws, {"track", "import", "--focus", fits});
    CHECK(ten.exitCode == 0);
    RUN_HEADROOM(after, ws, {"track", "commitments"});
    CHECK(after.exitCode == 0);
}

TEST_CASE("track import refuses a device quickly, naming it", "[track-cli]")
{
    CliFixture ws;
    ws.run({"catalog", "gpus"});  // the workspace exists before the timing starts
    QProcess process;
    QElapsedTimer timer;
    timer.start();
    ws.startBare(process, {"--workspace", ws.workspace(), "track", "import", "--focus", "/dev/zero"});
    const bool finished = process.waitForFinished(20000);
    if (!finished) {
        process.kill();
        process.waitForFinished(10000);
    }
    REQUIRE(finished);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    INFO(err.toStdString());
    CHECK(process.exitCode() == 2);
    CHECK_THAT(err.toStdString(), Contains("/dev/zero") && Contains("not a regular file"));
    CHECK(timer.elapsed() < 10000);
}

TEST_CASE("track import refuses a FOCUS file with only a header, and --focus without a name", "[track-cli]")
{
    CliFixture ws;
    const QString header = ws.writeFile("header.csv", sameDayFocus(0, QString()));
    RUN_HEADROOM(import, ws, {"track", "import", "--focus", header});
    CHECK(import.exitCode == 2);
    CHECK_THAT(import.err.toStdString(), Contains("header.csv") && Contains("no charges") && !Contains("constraint"));

    const QString one = ws.writeFile("one.csv", sameDayFocus(1, QStringLiteral("12.5")));
    RUN_HEADROOM(first, ws, {"track", "import", "--focus", one});
    REQUIRE(first.exitCode == 0);
    // An empty name (an unset variable) must not quietly mean the workspace's import.
    RUN_HEADROOM(empty, ws, {"track", "commitments", "--focus", ""});
    CHECK(empty.exitCode == 2);
    CHECK_THAT(empty.err.toStdString(), Contains("--focus needs a file name"));
}
