// `headroom report` end to end: a workspace prepared through the store API, the scenario
// deck's pages, text and money; the workspace's own report; bad input exits 2.
#include "common/clirunner.h"

#include "engine/fleet/scenario.h"
#include "store/common/workspace.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

using namespace headroom;

namespace {

int pdfPages(const QString &path)
{
    const QRegularExpressionMatch match = QRegularExpression("Pages:\\s+(\\d+)").match(toolOutput("pdfinfo", {path}));
    REQUIRE(match.hasMatch());
    return match.captured(1).toInt();
}

engine::Pool pool(const std::string &name, int64_t gpus, engine::PoolTier tier)
{
    engine::Pool p;
    p.name = name;
    p.gpuId = "h100-sxm";
    p.sizing = engine::PoolSizing::Fixed;
    p.gpus = gpus;
    p.tier = tier;
    return p;
}

// Two scenarios priced from the shipped AWS us-east-1 H100 card of 2025-06-01
// (1-year $4.2656, 3-year $3.096 per GPU-hour), with no workloads: only the static base costs.
//   Reserved core: 16 × 4.2656 × 24 = $1,637.9904 a day, × 30 = $49,139.712 a month
//   Three-year core: 8 × 3.096 × 24 = $594.432 a day, × 30 = $17,832.96 a month
void prepareScenarios(const QString &path)
{
    store::Workspace workspace(path);
    engine::Scenario a;
    a.name = "Reserved core";
    a.description = "Sixteen GPUs on a one-year commitment";
    a.author = "Ana Ruiz";
    a.provider = "AWS";
    a.region = "us-east-1";
    a.asOfDate = "2025-07-01";
    a.pools = {pool("core", 16, engine::PoolTier::Reserved1y), pool("flex", 8, engine::PoolTier::OnDemand)};
    workspace.putScenario(a);
    engine::Scenario b = a;
    b.name = "Three-year core";
    b.description = "Eight GPUs on a three-year commitment";
    b.pools = {pool("core", 8, engine::PoolTier::Reserved3y), pool("flex", 8, engine::PoolTier::OnDemand)};
    workspace.putScenario(b);
}

} // namespace

TEST_CASE("headroom report writes the scenario deck with pools, money and a comparison", "[report]")
{
    CliFixture fixture;
    prepareScenarios(fixture.workspace());
    const QString pdf = fixture.filePath("deck.pdf");
    RUN_HEADROOM(r, fixture, ({"report", "--scenario", "Reserved core", "--scenario", "Three-year core", "-o", pdf}));
    REQUIRE(r.exitCode == 0);
    CHECK(r.err.isEmpty());
    // title, summary, per scenario pools + diagram, the three-year scenario's warnings (its
    // commitment outlasts the 12-month horizon), comparison table, three comparison charts,
    // warnings (the card's committed rates are examples), the assumptions as an appendix
    CHECK(pdfPages(pdf) == 13);
    CHECK(r.out.contains("13 pages"));
    const QString text = toolOutput("pdftotext", {pdf, "-"});
    CHECK(text.contains("Fleet scenarios compared"));
    CHECK(text.contains("Reserved core: pools"));
    CHECK(text.contains("Three-year core: pools"));
    CHECK(text.contains("Scenarios compared"));
    // The summary's recommendation: the cheaper per month and its saving,
    // $49,139.71 − $17,832.96 = $31,306.75.
    CHECK(text.contains("Recommendation"));
    CHECK(text.contains(QRegularExpression("Choose\\s+Three-year\\s+core")));
    CHECK(text.contains("$31,306.75"));
    CHECK(text.contains("Appendix: assumptions"));
    CHECK(text.indexOf("Summary") < text.indexOf("Reserved core: pools"));
    CHECK(text.indexOf("Appendix: assumptions") > text.indexOf("Scenarios compared"));
    CHECK(text.contains("$1,637.99"));
    CHECK(text.contains("$49,139.71"));
    CHECK(text.contains("$594.43"));
    CHECK(text.contains("$17,832.96"));
    CHECK(text.contains("−$31,306.75"));  // monthly delta of the second against the first
    // The card's rates with every digit it holds (AWS us-east-1 H100, 2025-06-01): on-demand,
    // 1-year and 3-year, never rounded to cents.
    CHECK(text.contains("$6.88"));
    CHECK(text.contains("$4.2656"));
    CHECK(text.contains("$3.096"));
    CHECK_FALSE(text.contains("$4.27"));
    CHECK_FALSE(text.contains("$3.10"));
    // The 12-month term from 2025-08-01 (the month after as-of) is 8,760 h:
    // 16 × 4.2656 × 8,760 = $597,866.50 (597,866.496).
    CHECK(text.contains("$597,866.50"));
    // The three-year commitment is owed in full: 2025-08-01 to 2028-08-01 = 26,304 h,
    // 8 × 3.096 × 26,304 = $651,497.47 (651,497.472).
    CHECK(text.contains("$651,497.47"));
    CHECK(text.contains("Ana Ruiz"));
    // pdffonts: name type encoding emb sub uni object-id generation
    const QStringList fonts = toolOutput("pdffonts", {pdf}).split('\n', Qt::SkipEmptyParts).mid(2);
    REQUIRE_FALSE(fonts.isEmpty());
    for (const QString &row : fonts) {
        const QStringList columns = row.simplified().split(' ');
        REQUIRE(columns.size() >= 5);
        CHECK(columns.at(columns.size() - 5) == "yes");
    }
}

TEST_CASE("headroom report of one scenario has no comparison pages", "[report]")
{
    CliFixture fixture;
    prepareScenarios(fixture.workspace());
    const QString pdf = fixture.filePath("one.pdf");
    RUN_HEADROOM(r, fixture, ({"report", "--scenario", "Three-year core", "--output", pdf}));
    REQUIRE(r.exitCode == 0);
    // title, summary, pools, diagram, the scenario's warnings (its 3-year commitment outlasts
    // the 12-month horizon), the deck's warnings, the assumptions appendix
    CHECK(pdfPages(pdf) == 7);
    const QString text = toolOutput("pdftotext", {pdf, "-"});
    CHECK(text.contains("Fleet scenario: Three-year core"));
    CHECK(text.contains("owed in full"));
    CHECK_FALSE(text.contains("Scenarios compared"));
}

TEST_CASE("headroom report without scenarios writes the workspace's own report", "[report]")
{
    CliFixture fixture;
    {
        store::Workspace workspace(fixture.workspace());
        workspace.setReportSettings({"Capacity review", "Platform team", "1 December 2026"});
        store::ReportItem note;
        note.kind = store::ReportItem::Kind::Text;
        note.title = "Recommendation";
        note.content = "Reserve the base, burst on demand.";
        workspace.appendReportItem(note);
        store::ReportItem table;
        table.kind = store::ReportItem::Kind::Table;
        table.title = "Monthly cost";
        table.caption = "Thirty-day months";
        table.content = R"({"columns":["Tier","Cost"],"rows":[["Reserved","$49,139.71"]]})";
        workspace.appendReportItem(table);
    }
    const QString pdf = fixture.filePath("report.pdf");
    RUN_HEADROOM(r, fixture, ({"report", "-o", pdf}));
    REQUIRE(r.exitCode == 0);
    // title, summary (one line per item), text, table, warnings; the items name no workload or
    // GPU, so there is no appendix and no warning about rate cards they do not use. The table
    // was stored without the time of its snapshot: the deck says so, on it and among the
    // warnings; the text is the author's and is not stamped.
    CHECK(pdfPages(pdf) == 5);
    const QString text = toolOutput("pdftotext", {pdf, "-"});
    for (const char *expected : {"Capacity review", "Platform team", "Reserve the base, burst on demand.",
                                 "Thirty-day months", "$49,139.71", "“Monthly cost” is not drawn from the workspace"})
        CHECK(text.contains(expected));
    CHECK(text.count("A snapshot of unknown date") == 2);
    CHECK_FALSE(text.contains("“Recommendation” is not drawn"));
}

TEST_CASE("headroom report refuses bad input with exit code 2 and writes nothing", "[report]")
{
    CliFixture fixture;
    prepareScenarios(fixture.workspace());
    const QString unwritable = fixture.filePath("missing/folder/deck.pdf");
    RUN_HEADROOM(r1, fixture, ({"report", "--scenario", "Reserved core", "-o", unwritable}));
    CHECK(r1.exitCode == 2);
    CHECK(r1.err.contains("Cannot write " + unwritable));
    CHECK_FALSE(QFileInfo::exists(unwritable));

    const QString pdf = fixture.filePath("deck.pdf");
    RUN_HEADROOM(r2, fixture, ({"report", "--scenario", "No such plan", "-o", pdf}));
    CHECK(r2.exitCode == 2);
    CHECK(r2.err.contains("no scenario named \"No such plan\""));
    CHECK(r2.err.contains("Reserved core"));
    CHECK_FALSE(QFileInfo::exists(pdf));

    RUN_HEADROOM(r3, fixture, ({"report", "--scenario", "Reserved core"}));
    CHECK(r3.exitCode == 2);
    CHECK(r3.err.contains("-o FILE.pdf is required"));

    RUN_HEADROOM(r4, fixture, ({"report", "-o", pdf}));
    CHECK(r4.exitCode == 2);
    CHECK(r4.err.contains("nothing to report"));

    RUN_HEADROOM(r5, fixture, ({"report", "--scenario", "Reserved core", "-o", fixture.filePath("deck.png")}));
    CHECK(r5.exitCode == 2);
    CHECK(r5.err.contains("ending in .pdf"));
}

TEST_CASE("headroom --demo report compares demo scenarios", "[report]")
{
    CliFixture fixture;
    const QString pdf = fixture.filePath("demo.pdf");
    const CliResult r = fixture.runBare(
        {"--demo", "report", "--scenario", "Support bot static", "--scenario", "Support bot elastic", "-o", pdf});
    INFO(r.out.toStdString() << r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    CHECK(pdfPages(pdf) >= 10);
    const QString text = toolOutput("pdftotext", {pdf, "-"});
    CHECK(text.contains("Support bot static: pools"));
    CHECK(text.contains("Support bot elastic: pools"));
    CHECK(text.contains("Scenarios compared"));
    CHECK(text.contains("support-assistant"));
    CHECK(text.contains(QRegularExpression("\\$[0-9,]+\\.[0-9]{2}")));
}

TEST_CASE("headroom --demo report: the reserved core's exact rate and its 12 calendar months agree with the page", "[report]")
{
    CliFixture fixture;
    const QString pdf = fixture.filePath("core.pdf");
    const CliResult r = fixture.runBare({"--demo", "report", "--scenario", "Chatbot core + flex", "-o", pdf});
    INFO(r.out.toStdString() << r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    const QString text = toolOutput("pdftotext", {pdf, "-"});
    INFO(text.toStdString());
    // CoreWeave US-EAST-04 H100 card: on-demand $6.16, 1-year $3.8192, 3-year $2.772, spot $2.46.
    CHECK(text.contains("$3.8192"));
    CHECK(text.contains("$2.772"));
    CHECK(text.contains("$6.16"));
    CHECK_FALSE(text.contains("$3.82"));
    // 240 reserved GPUs × $3.8192 × 24 h = $21,998.59 a day; × 8,760 h (2025-07-01 to 2026-07-01) = $8,029,486.08.
    CHECK(text.contains("$21,998.59"));
    CHECK(text.contains("$8,029,486.08"));
    CHECK(text.contains("8,760 h"));
}

namespace {

// 21 days of billing from 2026-01-01: a commitment "c1" used $100.00 a day for 14 days, then
// $60.00 used and $40.00 unused (ListCost of the used share 1.5 × its cost); an on-demand
// fleet row of $(500 + 7d).25 on day d in another region.
QByteArray trackingFocus()
{
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,PricingCategory,BilledCost,"
                     "EffectiveCost,ListCost,ResourceId,ServiceName,RegionId,CommitmentDiscountId,CommitmentDiscountName,"
                     "CommitmentDiscountStatus\n";
    for (int d = 0; d < 21; ++d) {
        const QString from = QStringLiteral("2026-01-%1T00:00:00Z").arg(d + 1, 2, 10, QLatin1Char('0'));
        const QString to = QStringLiteral("2026-01-%1T00:00:00Z").arg(d + 2, 2, 10, QLatin1Char('0'));
        csv += QStringLiteral("USD,%1,%2,Usage,Standard,%3.25,%3.25,%3.25,fleet,GPU,us-west-2,,,\n").arg(from, to).arg(500 + 7 * d).toUtf8();
        csv += QStringLiteral("USD,%1,%2,Usage,Committed,0,%3,%4,node-1,GPU,us-east-1,c1,H100 reservation,Used\n")
                   .arg(from, to, d < 14 ? QStringLiteral("100.00") : QStringLiteral("60.00"),
                        d < 14 ? QStringLiteral("150.00") : QStringLiteral("90.00"))
                   .toUtf8();
        if (d >= 14)
            csv += QStringLiteral("USD,%1,%2,Usage,Committed,0,40.00,,,GPU,us-east-1,c1,,Unused\n").arg(from, to).toUtf8();
    }
    return csv;
}

} // namespace

TEST_CASE("headroom report --tracking writes the tracking deck from the stored actuals", "[report]")
{
    CliFixture fixture;
    const QString focus = fixture.writeFile("january.csv", trackingFocus());
    RUN_HEADROOM(nothing, fixture, ({"report", "--tracking", "-o", fixture.filePath("none.pdf")}));
    CHECK(nothing.exitCode == 2);
    CHECK(nothing.err.contains("no billing actuals"));
    CHECK_FALSE(QFileInfo::exists(fixture.filePath("none.pdf")));

    RUN_HEADROOM(imported, fixture, ({"track", "import", "--focus", focus}));
    REQUIRE(imported.exitCode == 0);

    // By hand, in cents: fleet Σ (500.25 + 7d) over d = 0..20 = 21 × 500.25 + 7 × 210 = 11,975.25;
    // commitment used 14 × 100 + 7 × 60 = 1,820.00, unused 7 × 40 = 280.00; effective total
    // 11,975.25 + 1,820 + 280 = 14,075.25; utilization 1,820 ÷ 2,100 = 86.7 %.
    const QString pdf = fixture.filePath("tracking.pdf");
    RUN_HEADROOM(r, fixture, ({"report", "--tracking", "--threshold", "0.9", "-o", pdf}));
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    CHECK(pdfPages(pdf) >= 5);
    const QString text = toolOutput("pdftotext", {pdf, "-"});
    for (const char *expected : {"Dashboard", "Reserve-utilization tracker", "january.csv", "$14,075.25", "$1,820.00",
                                 "$280.00", "86.7 %", "H100 reservation", "2026-01-01 to 2026-01-21 (21 days)"})
        CHECK(text.contains(QString::fromUtf8(expected)));
    CHECK(text.contains("Anomaly detection needs at least 15 days") == false);
    // The next term: $100 a day is $4.17/h (4.166666667); used at $2.50/h (60 ÷ 24) over its last
    // week. The forecast follows the recent level, so the optimizer lowers the commitment to
    // about that (the fitted level is still settling after the step: $2.44/h); the deck gives the
    // optimum on the measured hours (three weeks, two of them at $4.17/h) beside it.
    for (const char *expected : {"Next term", "$4.17/h → $2.44/h", "$2.44/h", "per term", "H100 reservation:",
                                 "measured hours alone", "Holt-Winters forecast"})
        CHECK(text.simplified().contains(QString::fromUtf8(expected)));  // paragraphs wrap anywhere
    CHECK_FALSE(text.contains("let it expire"));

    // Since 2026-01-15: 7 days, fleet Σ (500.25 + 7d) over d = 14..20 = 7 × 500.25 + 7 × 119 = 4,334.75;
    // used 420.00, unused 280.00 → 60.0 %, total 5,034.75.
    const QString since = fixture.filePath("since.pdf");
    RUN_HEADROOM(s, fixture, ({"report", "--tracking", "--since", "2026-01-15", "-o", since}));
    REQUIRE(s.exitCode == 0);
    const QString recent = toolOutput("pdftotext", {since, "-"});
    for (const char *expected : {"$5,034.75", "$420.00", "$280.00", "60.0 %", "charges since 2026-01-15",
                                 "Anomaly detection needs at least 15 days"})
        CHECK(recent.contains(QString::fromUtf8(expected)));

    RUN_HEADROOM(badDate, fixture, ({"report", "--tracking", "--since", "15/01/2026", "-o", fixture.filePath("x.pdf")}));
    CHECK(badDate.exitCode == 2);
    CHECK(badDate.err.contains("YYYY-MM-DD"));
    RUN_HEADROOM(notTracking, fixture, ({"report", "--since", "2026-01-15", "-o", fixture.filePath("y.pdf")}));
    CHECK(notTracking.exitCode == 2);
    // A GPU id the catalog does not hold is a typo: refused naming the closest, no deck written.
    RUN_HEADROOM(badGpu, fixture, ({"report", "--tracking", "--gpu", "nope", "-o", fixture.filePath("z.pdf")}));
    CHECK(badGpu.exitCode == 2);
    CHECK(badGpu.err.contains("unknown GPU 'nope'"));
    CHECK_FALSE(QFileInfo::exists(fixture.filePath("z.pdf")));
}

TEST_CASE("headroom report --tracking --claims --focus adds the chargeback, with or without billing imports", "[report]")
{
    CliFixture fixture;
    // One H100 in MIG for a day at $3.50 an hour: alpha 1g.10gb, beta 3g.40gb.
    QByteArray bill = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ResourceId\n";
    for (int h = 0; h < 24; ++h)
        bill += QStringLiteral("USD,2026-03-01T%1:00:00Z,%2,Usage,3.50,3.50,node-a\n")
                    .arg(h, 2, 10, QLatin1Char('0'))
                    .arg(h < 23 ? QStringLiteral("2026-03-01T%1:00:00Z").arg(h + 1, 2, 10, QLatin1Char('0'))
                                : QStringLiteral("2026-03-02T00:00:00Z"))
                    .toUtf8();
    const QString focus = fixture.writeFile("pool.csv", bill);
    const QString claims = fixture.writeFile(
        "claims.csv", "tenant,resource_id,resource_gpus,gpu_type,gpu,mode,profile,start,end\n"
                      "alpha,node-a,1,h100-sxm,0,mig,1g.10gb,2026-03-01T00:00:00Z,2026-03-02T00:00:00Z\n"
                      "beta,node-a,1,h100-sxm,0,mig,3g.40gb,2026-03-01T00:00:00Z,2026-03-02T00:00:00Z\n");
    const QString pdf = fixture.filePath("chargeback.pdf");
    RUN_HEADROOM(r, fixture, ({"report", "--tracking", "--claims", claims, "--focus", focus, "--by", "tenant", "-o", pdf}));
    REQUIRE(r.exitCode == 0);
    CHECK(pdfPages(pdf) == 5);   // title, table, comparison, trend, Kueue configuration
    const QString text = toolOutput("pdftotext", {pdf, "-"}).simplified();
    for (const char *expected : {"Chargeback by tenant", "claims.csv", "84.00 USD", "12.00", "36.00", "24.00",
                                 "Kueue configuration that counts slices", "nvidia.com/mig-3g.40gb"})
        CHECK(text.contains(QString::fromUtf8(expected)));

    // Refused: one file without the other, options outside --tracking, an unknown basis.
    RUN_HEADROOM(half, fixture, ({"report", "--tracking", "--claims", claims, "-o", fixture.filePath("x.pdf")}));
    CHECK(half.exitCode == 2);
    CHECK(half.err.contains("go together"));
    RUN_HEADROOM(outside, fixture, ({"report", "--claims", claims, "--focus", focus, "-o", fixture.filePath("y.pdf")}));
    CHECK(outside.exitCode == 2);
    RUN_HEADROOM(basis, fixture, ({"report", "--tracking", "--claims", claims, "--focus", focus, "--mig-basis", "area",
                                   "-o", fixture.filePath("z.pdf")}));
    CHECK(basis.exitCode == 2);
    CHECK(basis.err.contains("--mig-basis 'area' is not one of compute, memory, larger"));
    CHECK_FALSE(QFileInfo::exists(fixture.filePath("z.pdf")));
}
