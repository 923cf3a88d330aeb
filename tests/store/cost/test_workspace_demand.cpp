#include "common/storetestsupport.h"

#include "store/common/workspace.h"

#include <QTemporaryDir>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;
using engine::Decimal;

namespace {

constexpr int kHoursPerYear = 8760;
constexpr int64_t kJanuary2024 = 1704067200;  // 2024-01-01T00:00:00Z

// A year of hourly demand whose values differ in every one of their nine decimals.
engine::DemandSeries yearOfDemand(const std::string &name)
{
    engine::DemandSeries series;
    series.name = name;
    series.startEpochSeconds = kJanuary2024;
    series.source = "generated: baseline 200, peak 320";
    series.gpus.reserve(kHoursPerYear);
    for (int hour = 0; hour < kHoursPerYear; ++hour)
        series.gpus.push_back(Decimal::fromUnits(Decimal::Units(200'000'000'000)
                                                 + Decimal::Units(hour) * 13'579'246 + hour % 7));
    return series;
}

int pointCount(const QString &path, const QString &name)
{
    RawDatabase raw(path);
    return raw
        .scalar(QStringLiteral("SELECT COUNT(*) FROM demand_point WHERE series_name = '%1'")
                    .arg(name))
        .toInt();
}

} // namespace

TEST_CASE("a year of hourly demand is stored and read back exactly", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("demand.headroom"));
    const QString path = location.path();
    const engine::DemandSeries year = yearOfDemand("inference 2024");
    {
        Workspace workspace(path);
        int changes = 0;
        QObject::connect(&workspace, &Workspace::demandSeriesChanged, &workspace,
                         [&] { ++changes; });
        workspace.putDemandSeries(year);
        CHECK(changes == 1);
    }
    Workspace workspace(path);
    CHECK(workspace.demandSeriesNames() == QStringList{QStringLiteral("inference 2024")});
    const auto stored = workspace.demandSeries(QStringLiteral("inference 2024"));
    REQUIRE(stored.has_value());
    CHECK(stored->name == year.name);
    CHECK(stored->startEpochSeconds == kJanuary2024);
    CHECK(stored->source == year.source);
    REQUIRE(stored->gpus.size() == size_t(kHoursPerYear));
    CHECK(stored->gpus == year.gpus);
    CHECK(stored->gpus[8759].toString() == "318.940615716");
    CHECK_FALSE(workspace.demandSeries(QStringLiteral("no such series")).has_value());

    RawDatabase raw(path);
    CHECK(raw.scalar(QStringLiteral("SELECT gpus FROM demand_point WHERE hour_index = 1"))
              .toString()
          == QLatin1String("200.013579247"));
}

TEST_CASE("putting a demand series again replaces all of its points", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("replace.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    workspace.putDemandSeries(yearOfDemand("a"));
    workspace.putDemandSeries(yearOfDemand("b"));

    engine::DemandSeries shorter;
    shorter.name = "a";
    shorter.source = "demand.csv";
    shorter.gpus = {Decimal::fromInt(3), Decimal(), *Decimal::parse("2.5")};
    int changes = 0;
    QObject::connect(&workspace, &Workspace::demandSeriesChanged, &workspace, [&] { ++changes; });
    workspace.putDemandSeries(shorter);
    CHECK(changes == 1);

    const auto stored = workspace.demandSeries(QStringLiteral("a"));
    REQUIRE(stored.has_value());
    CHECK(stored->gpus == shorter.gpus);
    CHECK(stored->startEpochSeconds == 0);
    CHECK(stored->source == "demand.csv");
    CHECK(pointCount(path, QStringLiteral("a")) == 3);
    CHECK(pointCount(path, QStringLiteral("b")) == kHoursPerYear);
    CHECK(workspace.demandSeriesNames() == (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
}

TEST_CASE("removing a demand series removes its points with it", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("cascade.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    workspace.putDemandSeries(yearOfDemand("gone"));
    workspace.putDemandSeries(yearOfDemand("kept"));
    int changes = 0;
    QObject::connect(&workspace, &Workspace::demandSeriesChanged, &workspace, [&] { ++changes; });

    CHECK(workspace.removeDemandSeries(QStringLiteral("gone")));
    CHECK(changes == 1);
    CHECK_FALSE(workspace.removeDemandSeries(QStringLiteral("gone")));
    CHECK(changes == 1);
    CHECK(workspace.demandSeriesNames() == QStringList{QStringLiteral("kept")});
    CHECK(pointCount(path, QStringLiteral("gone")) == 0);
    CHECK(pointCount(path, QStringLiteral("kept")) == kHoursPerYear);
}

TEST_CASE("an empty or negative demand series is refused and nothing is written", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("bad-demand.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    engine::DemandSeries original;
    original.name = "plan";
    original.gpus = {Decimal::fromInt(1), Decimal::fromInt(2)};
    workspace.putDemandSeries(original);
    int changes = 0;
    QObject::connect(&workspace, &Workspace::demandSeriesChanged, &workspace, [&] { ++changes; });

    engine::DemandSeries empty;
    empty.name = "plan";
    CHECK(storeErrorOf([&] { workspace.putDemandSeries(empty); })
          == "Demand series \"plan\": field \"gpus\": needs at least one hour");

    engine::DemandSeries negative = original;
    negative.gpus = {Decimal::fromInt(5), Decimal::fromInt(4), Decimal::fromInt(-3)};
    CHECK(storeErrorOf([&] { workspace.putDemandSeries(negative); })
          == "Demand series \"plan\": field \"gpus\": hour 2 must be ≥ 0 (got -3)");

    engine::DemandSeries unnamed = original;
    unnamed.name.clear();
    CHECK_THAT(storeErrorOf([&] { workspace.putDemandSeries(unnamed); }),
               Contains("field \"name\""));

    CHECK(changes == 0);
    CHECK(workspace.demandSeries(QStringLiteral("plan"))->gpus == original.gpus);
    CHECK(pointCount(path, QStringLiteral("plan")) == 2);
}
