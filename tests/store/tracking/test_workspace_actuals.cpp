#include "common/storetestsupport.h"

#include "engine/tracking/tracking.h"
#include "store/tracking/focuscsv.h"
#include "store/common/workspace.h"

#include <QDir>
#include <QFileInfo>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;
using engine::Decimal;

namespace {

const QString kFolder = QStringLiteral(HEADROOM_SHARED_DATA "/focus-examples/");

Decimal dec(const char *text) { return *Decimal::parse(text); }

QStringList focusFiles()
{
    return QDir(kFolder).entryList({QStringLiteral("*.csv")}, QDir::Files, QDir::Name);
}

// Every figure of two summaries, as text, so a difference shows where it is.
QStringList dump(const engine::ActualsSummary &s)
{
    QStringList lines;
    lines << QStringLiteral("rows %1").arg(s.rows);
    for (const auto &c : s.currencies)
        lines << QStringLiteral("currency %1").arg(QString::fromStdString(c));
    for (size_t i = 0; i < s.commitments.size(); ++i)
        lines << QStringLiteral("commitment %1 %2 %3 %4 %5 %6")
                     .arg(i)
                     .arg(QString::fromStdString(s.commitments[i].id), QString::fromStdString(s.commitments[i].name),
                          QString::fromStdString(s.commitments[i].category), QString::fromStdString(s.commitments[i].type))
                     .arg(s.termEnds.at(i));
    for (const auto &h : s.commitmentHours)
        lines << QStringLiteral("hour %1 %2 %3 %4 %5")
                     .arg(h.commitment)
                     .arg(h.currency)
                     .arg(h.hour)
                     .arg(int(h.status))
                     .arg(QString::fromStdString(h.effectiveCost.toString()));
    for (const auto &c : s.scopes)
        lines << QStringLiteral("scope %1 %2 %3 %4")
                     .arg(c.commitment)
                     .arg(c.currency)
                     .arg(QString::fromStdString(c.service), QString::fromStdString(c.region));
    for (const auto &o : s.onDemand)
        lines << QStringLiteral("on-demand %1 %2 %3 %4 %5 %6")
                     .arg(o.currency)
                     .arg(QString::fromStdString(o.service), QString::fromStdString(o.region))
                     .arg(o.firstHour)
                     .arg(o.lastHour)
                     .arg(QString::fromStdString(o.effectiveCost.toString()));
    for (const auto &d : s.days)
        lines << QStringLiteral("day %1 %2 %3 %4 %5 %6")
                     .arg(d.currency)
                     .arg(d.day)
                     .arg(QString::fromStdString(d.effectiveCost.toString()),
                          QString::fromStdString(d.billedCost.toString()))
                     .arg(d.rows)
                     .arg(QString::fromStdString(d.consumedHours.toString()));
    for (const auto &r : s.rates)
        lines << QStringLiteral("rate %1 %2 %3 %4")
                     .arg(r.commitment)
                     .arg(r.currency)
                     .arg(QString::fromStdString(r.usedEffectiveCost.toString()),
                          QString::fromStdString(r.usedListCost.toString()));
    return lines;
}

qint64 storedRows(const QString &path)
{
    RawDatabase raw(path);
    qint64 total = 0;
    for (const char *table : {"actuals_import", "actuals_commitment", "actuals_commitment_hour",
                              "actuals_commitment_scope", "actuals_on_demand", "actuals_day",
                              "actuals_commitment_rate"})
        total += raw.scalar(QStringLiteral("SELECT COUNT(*) FROM %1").arg(QLatin1String(table))).toLongLong();
    return total;
}

} // namespace

TEST_CASE("every published FOCUS example is stored and read back figure for figure", "[workspace][actuals]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    const QStringList files = focusFiles();
    REQUIRE(files.size() == 15);
    for (const QString &file : files) {
        INFO(file.toStdString());
        const engine::FocusCharges charges = readFocusCsv(kFolder + file);
        const engine::ActualsSummary summary = engine::summarizeActuals(charges);
        const qint64 id = workspace.importActuals(file, summary);
        const auto stored = workspace.actuals(id);
        REQUIRE(stored);
        CHECK(dump(*stored) == dump(summary));
        CHECK(stored->rows == qint64(charges.rows.size()));
        // The same figures from the file and from the workspace, to the cent.
        const auto fromFile = engine::analyseCommitments(charges);
        const auto fromStore = engine::analyseCommitments(*stored);
        REQUIRE(fromFile.commitments.size() == fromStore.commitments.size());
        for (size_t i = 0; i < fromFile.commitments.size(); ++i) {
            CHECK(fromFile.commitments[i].usedCost == fromStore.commitments[i].usedCost);
            CHECK(fromFile.commitments[i].unusedCost == fromStore.commitments[i].unusedCost);
            CHECK(fromFile.commitments[i].hoursUsed == fromStore.commitments[i].hoursUsed);
            CHECK(fromFile.commitments[i].hoursUnused == fromStore.commitments[i].hoursUnused);
        }
        for (const std::string &currency : stored->currencies) {
            const auto daily = engine::dailyEffectiveCost(*stored, currency);
            CHECK(daily.cost == engine::dailyEffectiveCost(charges, currency).cost);
        }
    }
    const auto imports = workspace.actualsImports();
    REQUIRE(imports.size() == size_t(files.size()));
    CHECK(imports.front().fileName == files.back());  // newest first
    CHECK(imports.front().currencies == QStringList{QStringLiteral("USD")});
}

TEST_CASE("stored commitment figures match the hand computation", "[workspace][actuals]")
{
    WorkspaceLocation location;
    qint64 id = 0;
    {
        Workspace workspace(location.path());
        id = workspace.importActuals(QStringLiteral("aws_underutilized_50pct.csv"),
                                     engine::summarizeActuals(readFocusCsv(kFolder + QStringLiteral("aws_underutilized_50pct.csv"))));
    }
    // Reopened: the figures come from the file on disk. By hand: 12 Used and 12 Unused hourly
    // rows of 79.11 each on 2026-01-01 → 949.32 used, 949.32 unused, utilization 0.5.
    Workspace workspace(location.path());
    const auto stored = workspace.actuals(id);
    REQUIRE(stored);
    const auto report = engine::analyseCommitments(*stored);
    REQUIRE(report.commitments.size() == 1);
    CHECK(report.commitments[0].usedCost == dec("949.32"));
    CHECK(report.commitments[0].unusedCost == dec("949.32"));
    CHECK(report.commitments[0].hoursUsed == 12);
    CHECK(report.commitments[0].hoursUnused == 12);
    CHECK(report.commitments[0].utilization == 0.5);
    CHECK(report.commitments[0].underUsed);
    // Schema 9, by hand: the 12 Used rows carry EffectiveCost 79.11 and ListCost 118.67 each →
    // 949.32 and 1,424.04; usage hours on the day: 12 "Hours" + 3 "Instance Hours" = 15 (the
    // GB and request rows are not hours).
    REQUIRE(stored->rates.size() == 1);
    CHECK(stored->rates[0].usedEffectiveCost == dec("949.32"));
    CHECK(stored->rates[0].usedListCost == dec("1424.04"));
    REQUIRE(stored->days.size() == 1);
    CHECK(stored->days[0].consumedHours == dec("15"));
    const auto days = engine::commitmentDays(*stored, report.commitments[0].id, "USD");
    REQUIRE(days.size() == 1);
    CHECK(days[0].usedCost == dec("949.32"));
    CHECK(days[0].hoursUnused == 12);
    RawDatabase raw(location.path());
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM actuals_commitment_hour")).toInt() == 24);
    CHECK(raw.scalar(QStringLiteral("SELECT effective_cost FROM actuals_commitment_hour WHERE status = 'unused' "
                                    "ORDER BY hour LIMIT 1"))
              .toString()
          == QStringLiteral("79.11"));
}

TEST_CASE("importing a file of the same name replaces it and removing an import leaves no row", "[workspace][actuals]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    const auto summary = engine::summarizeActuals(readFocusCsv(kFolder + QStringLiteral("aws_overflow_150pct.csv")));
    const qint64 first = workspace.importActuals(QStringLiteral("billing.csv"), summary);
    const qint64 rowsOnce = storedRows(location.path());
    const qint64 second = workspace.importActuals(QStringLiteral("billing.csv"), summary);
    CHECK(second != first);
    CHECK(workspace.actualsImports().size() == 1);
    CHECK_FALSE(workspace.actuals(first));
    CHECK(storedRows(location.path()) == rowsOnce);
    CHECK(workspace.removeActualsImport(second));
    CHECK_FALSE(workspace.removeActualsImport(second));
    CHECK(workspace.actualsImports().empty());
    CHECK(storedRows(location.path()) == 0);
}

TEST_CASE("an inconsistent summary is refused and changes nothing", "[workspace][actuals]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    auto summary = engine::summarizeActuals(readFocusCsv(kFolder + QStringLiteral("aws_underutilized_75pct.csv")));
    workspace.importActuals(QStringLiteral("good.csv"), summary);
    const qint64 before = storedRows(location.path());
    REQUIRE_FALSE(summary.commitmentHours.empty());
    summary.commitmentHours.push_back(summary.commitmentHours.front());  // a repeated key
    CHECK_THAT(storeErrorOf([&] { workspace.importActuals(QStringLiteral("bad.csv"), summary); }),
               Contains("bad.csv") && Contains("repeat"));
    CHECK(storedRows(location.path()) == before);
    CHECK(workspace.actualsImports().size() == 1);
}

TEST_CASE("an import that fails half way leaves the workspace as it was", "[workspace][actuals][file]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    const auto summary = engine::summarizeActuals(readFocusCsv(kFolder + QStringLiteral("aws_zero_utilization.csv")));
    workspace.importActuals(QStringLiteral("billing.csv"), summary);
    const qint64 before = storedRows(location.path());
    {
        // The daily table, written last, refuses its rows: the commitment rows written before go too.
        RawDatabase raw(location.path());
        raw.exec(QStringLiteral("CREATE TRIGGER refuse_day BEFORE INSERT ON actuals_day "
                                "BEGIN SELECT RAISE(ABORT, 'disk full'); END"));
    }
    CHECK_THAT(storeErrorOf([&] { workspace.importActuals(QStringLiteral("billing.csv"), summary); }),
               Contains("billing.csv"));
    CHECK(storedRows(location.path()) == before);
    REQUIRE(workspace.actualsImports().size() == 1);
    CHECK(workspace.actuals(workspace.actualsImports().front().id));
}
