#include "common/storetestsupport.h"

#include "engine/fleet/scenario.h"
#include "store/common/workspace.h"

#include <QTemporaryDir>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

// Counts reportChanged() signals of a workspace.
struct ChangeCounter {
    explicit ChangeCounter(Workspace &workspace)
    {
        QObject::connect(&workspace, &Workspace::reportChanged, &workspace, [this] { ++count; });
    }
    int count = 0;
};

ReportItem textItem(const QString &title)
{
    ReportItem item;
    item.kind = ReportItem::Kind::Text;
    item.title = title;
    item.caption = title + QStringLiteral(" caption");
    item.content = QStringLiteral("Notes for ") + title;
    return item;
}

QStringList titles(const Workspace &workspace)
{
    QStringList result;
    for (const ReportItem &item : workspace.reportItems())
        result << item.title;
    return result;
}

} // namespace

TEST_CASE("Report items keep kind, title, caption and content in deck order", "[store][report][workspace]")
{
    WorkspaceLocation location(QStringLiteral("w.headroom"));
    const QString path = location.path();
    {
        Workspace workspace(path);
        CHECK(workspace.reportItems().empty());
        ReportItem figure;
        figure.kind = ReportItem::Kind::Figure;
        figure.title = QStringLiteral("Streams per GPU");
        figure.caption = QStringLiteral("H100, 8B model, BF16 KV");
        figure.content = QStringLiteral("<?xml version=\"1.0\"?><svg width=\"960\"></svg>");
        ReportItem table;
        table.kind = ReportItem::Kind::Table;
        table.title = QStringLiteral("Pools");
        table.content = QStringLiteral(R"({"columns":["Pool","GPUs"],"rows":[["base","200"],["flex","120"]]})");
        CHECK(workspace.appendReportItem(figure) == 0);
        CHECK(workspace.appendReportItem(table) == 1);
        CHECK(workspace.appendReportItem(textItem(QStringLiteral("Summary"))) == 2);
    }
    Workspace reopened(path);
    const auto items = reopened.reportItems();
    REQUIRE(items.size() == 3);
    CHECK(items[0].kind == ReportItem::Kind::Figure);
    CHECK(items[0].title == QStringLiteral("Streams per GPU"));
    CHECK(items[0].caption == QStringLiteral("H100, 8B model, BF16 KV"));
    CHECK(items[0].content.startsWith(QStringLiteral("<?xml")));
    CHECK(items[1].kind == ReportItem::Kind::Table);
    CHECK(items[1].content.contains(QStringLiteral("\"flex\"")));
    CHECK(items[2].kind == ReportItem::Kind::Text);
    CHECK(items[2].content == QStringLiteral("Notes for Summary"));
}

TEST_CASE("Report items move, insert and remove with contiguous positions", "[store][report][workspace]")
{
    WorkspaceLocation location(QStringLiteral("w.headroom"));
    Workspace workspace(location.path());
    for (const char *title : {"A", "B", "C", "D"})
        workspace.appendReportItem(textItem(QLatin1String(title)));
    ChangeCounter changed(workspace);

    workspace.moveReportItem(0, 2);
    CHECK(titles(workspace) == QStringList{"B", "C", "A", "D"});
    workspace.moveReportItem(3, 0);
    CHECK(titles(workspace) == QStringList{"D", "B", "C", "A"});
    CHECK(workspace.removeReportItem(1));
    CHECK(titles(workspace) == QStringList{"D", "C", "A"});
    CHECK_FALSE(workspace.removeReportItem(3));
    workspace.insertReportItem(1, textItem(QStringLiteral("B")));
    CHECK(titles(workspace) == QStringList{"D", "B", "C", "A"});
    CHECK(changed.count == 4);

    RawDatabase raw(workspace.path());
    CHECK(raw.rows(QStringLiteral("SELECT position FROM report_item ORDER BY position"))
          == QStringList{"position=0", "position=1", "position=2", "position=3"});
}

TEST_CASE("Bad report items and positions are refused and change nothing", "[store][report][workspace]")
{
    WorkspaceLocation location(QStringLiteral("w.headroom"));
    Workspace workspace(location.path());
    workspace.appendReportItem(textItem(QStringLiteral("Kept")));
    ChangeCounter changed(workspace);

    ReportItem untitled = textItem(QString());
    CHECK_THAT(storeErrorOf([&] { workspace.appendReportItem(untitled); }),
               Contains("field \"title\""));
    ReportItem notSvg;
    notSvg.kind = ReportItem::Kind::Figure;
    notSvg.title = QStringLiteral("Chart");
    notSvg.content = QStringLiteral("PNG bytes");
    CHECK_THAT(storeErrorOf([&] { workspace.appendReportItem(notSvg); }), Contains("SVG"));
    ReportItem ragged;
    ragged.kind = ReportItem::Kind::Table;
    ragged.title = QStringLiteral("Ragged");
    ragged.content = QStringLiteral(R"({"columns":["a","b"],"rows":[["1","2"],["3"]]})");
    CHECK_THAT(storeErrorOf([&] { workspace.appendReportItem(ragged); }), Contains("row 2"));
    ragged.content = QStringLiteral("{\"columns\": [");
    CHECK_THAT(storeErrorOf([&] { workspace.appendReportItem(ragged); }), Contains("not valid JSON at character 14: a list opened with [ is not closed"));
    CHECK_THAT(storeErrorOf([&] { workspace.insertReportItem(5, textItem(QStringLiteral("X"))); }),
               Contains("position 5"));
    CHECK_THAT(storeErrorOf([&] { workspace.moveReportItem(0, 1); }), Contains("has 1 items"));

    CHECK(titles(workspace) == QStringList{"Kept"});
    CHECK(changed.count == 0);
}

TEST_CASE("Report title, author and date are stored in the workspace information", "[store][report][workspace]")
{
    WorkspaceLocation location(QStringLiteral("w.headroom"));
    const QString path = location.path();
    {
        Workspace workspace(path);
        CHECK(workspace.reportSettings().title.isEmpty());
        ChangeCounter changed(workspace);
        workspace.setReportSettings({QStringLiteral("Q3 GPU plan"), QStringLiteral("Ana Ruiz"),
                                     QStringLiteral("2 December 2026")});
        workspace.setReportSettings({QStringLiteral("Q4 GPU plan"), QStringLiteral("Ana Ruiz"),
                                     QStringLiteral("3 December 2026")});
        workspace.setReportSettings({QStringLiteral("Q4 GPU plan"), QString(), QStringLiteral("3 December 2026")});
        workspace.setReportSettings({QStringLiteral("Q4 GPU plan"), QStringLiteral("Ana Ruiz"),
                                     QStringLiteral("3 December 2026")});
        CHECK(changed.count == 4);
    }
    Workspace reopened(path);
    const ReportSettings settings = reopened.reportSettings();
    CHECK(settings.title == QStringLiteral("Q4 GPU plan"));
    CHECK(settings.author == QStringLiteral("Ana Ruiz"));
    CHECK(settings.date == QStringLiteral("3 December 2026"));
    RawDatabase raw(path);
    CHECK(raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = 'report_title'"))
              .toString()
          == QStringLiteral("Q4 GPU plan"));
}

TEST_CASE("Report items keep their source, pin and snapshot time, and replacing one is checked like adding",
          "[store][report][workspace]")
{
    WorkspaceLocation location(QStringLiteral("w.headroom"));
    const QString path = location.path();
    ReportItem live = textItem(QStringLiteral("Live"));
    live.source = QStringLiteral(R"({"kind":"scenario-diagram","scenarios":["core"]})");
    live.takenAt = QStringLiteral("2026-12-04T14:02:00Z");
    live.inputsFingerprint = QStringLiteral("abc123");
    {
        Workspace workspace(path);
        workspace.appendReportItem(live);
        workspace.appendReportItem(textItem(QStringLiteral("Notes")));
        ReportItem pinned = live;
        pinned.pinned = true;
        ChangeCounter changes(workspace);
        workspace.replaceReportItem(0, pinned);
        CHECK(changes.count == 1);
    }
    Workspace workspace(path);
    const std::vector<ReportItem> items = workspace.reportItems();
    REQUIRE(items.size() == 2);
    CHECK(items[0].source == live.source);
    CHECK(items[0].pinned);
    CHECK(items[0].takenAt == live.takenAt);
    CHECK(items[0].inputsFingerprint == live.inputsFingerprint);
    CHECK_FALSE(items[1].pinned);
    CHECK(items[1].source.isEmpty());

    ReportItem bad = live;
    bad.source = QStringLiteral("{\"scenarios\": []}");
    CHECK_THAT(storeErrorOf([&] { workspace.replaceReportItem(0, bad); }),
               Contains("field \"source\": must be a JSON object naming its \"kind\""));
    bad.source = QStringLiteral("{not json");
    CHECK_THAT(storeErrorOf([&] { workspace.appendReportItem(bad); }), Contains("field \"source\": not valid JSON"));
    bad = live;
    bad.takenAt = QStringLiteral("yesterday");
    CHECK_THAT(storeErrorOf([&] { workspace.replaceReportItem(1, bad); }),
               Contains("field \"taken_at\": \"yesterday\" is not an ISO 8601 date and time"));
    CHECK_THAT(storeErrorOf([&] { workspace.replaceReportItem(2, live); }), Contains("position 2 is outside 0…1"));
    CHECK(workspace.reportItems()[0].pinned);
    CHECK(workspace.reportItems().size() == 2);
}

TEST_CASE("The inputs fingerprint changes with what analyses read, not with the report or edit bookkeeping",
          "[store][report][workspace]")
{
    WorkspaceLocation location(QStringLiteral("w.headroom"));
    Workspace workspace(location.path());
    const QString initial = workspace.inputsFingerprint();
    CHECK(initial.size() == 64);
    CHECK(workspace.inputsFingerprint() == initial);

    // The report itself is not an input.
    workspace.appendReportItem(textItem(QStringLiteral("Notes")));
    workspace.setReportSettings({QStringLiteral("Capacity review"), QStringLiteral("Planning"), QString()});
    CHECK(workspace.inputsFingerprint() == initial);

    // A catalog edit is; putting the entry back as it was restores the fingerprint.
    const engine::GpuSpec original = *workspace.gpu(QStringLiteral("h100-sxm"));
    engine::GpuSpec faster = original;
    faster.hbmBandwidthGBps *= 1.1;
    workspace.putGpu(faster);
    const QString edited = workspace.inputsFingerprint();
    CHECK(edited != initial);
    workspace.putGpu(original);
    CHECK(workspace.inputsFingerprint() == initial);

    // A scenario saved twice with the same content: versions and times differ, inputs do not.
    engine::Scenario s;
    s.name = "core";
    s.provider = "AWS";
    s.region = "us-east-1";
    engine::Pool pool;
    pool.name = "base";
    pool.gpuId = "h100-sxm";
    pool.gpus = 8;
    s.pools = {pool};
    workspace.putScenario(s);
    const QString withScenario = workspace.inputsFingerprint();
    CHECK(withScenario != initial);
    workspace.putScenario(s);
    CHECK(workspace.inputsFingerprint() == withScenario);
    s.pools[0].gpus = 9;
    workspace.putScenario(s);
    CHECK(workspace.inputsFingerprint() != withScenario);
}
