#include "common/uitestsupport.h"

#include "ui/common/chartexport.h"
#include "ui/common/chartlabels.h"
#include "ui/common/chartpanel.h"
#include "ui/cost/costanalysis.h"
#include "ui/cost/costpage.h"
#include "ui/common/dialogs.h"

#include <QAreaSeries>
#include <QBarSeries>
#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QTabWidget>
#include <QApplication>
#include <QBarSet>
#include <QDateEdit>
#include <QDoubleSpinBox>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QRegularExpression>
#include <QDateTime>
#include <QJsonObject>
#include <QLineEdit>
#include <QLineSeries>
#include <QProcess>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

using namespace headroom;

namespace {

// "$1,234.56" → 123456 cents
qint64 cents(const QString &shown)
{
    QString digits = shown;
    digits.remove(QRegularExpression(QStringLiteral("[^0-9.-]")));
    const qsizetype dot = digits.indexOf(QLatin1Char('.'));
    REQUIRE(dot >= 0);
    return digits.left(dot).toLongLong() * 100 + digits.mid(dot + 1, 2).toLongLong();
}

QLineEdit *edit(ui::CostPage &page, const char *name)
{
    auto *e = page.findChild<QLineEdit *>(name);
    REQUIRE(e);
    return e;
}

void setText(QLineEdit *e, const QString &text)
{
    e->selectAll();
    QTest::keyClicks(e, text);
}

} // namespace

TEST_CASE("Cost page starts on a year of core-and-flex demand priced from the AWS H100 card")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    REQUIRE(page.errorText().isEmpty());
    REQUIRE(page.demand());
    CHECK(page.demand()->gpus.size() == 8760);
    CHECK(edit(page, "costOnDemandRate")->text() == "6.88");
    const auto &a = page.analysis();
    CHECK(a.commitmentPays);
    CHECK(a.optimalReserved == a.fractileReserved);
    CHECK(a.optimalReserved > 150);
    CHECK(a.optimalReserved < 320);
    REQUIRE(page.options().size() == 4);
    CHECK(page.options()[3].cost.total.amount <= page.options()[0].cost.total.amount);
    CHECK(page.options()[3].cost.total.amount <= page.options()[1].cost.total.amount);
    CHECK(page.options()[3].cost.total.amount <= page.options()[2].cost.total.amount);
    CHECK(page.recommendation().contains(QStringLiteral("Reserve %1 GPUs").arg(a.optimalReserved)));
    CHECK(page.recommendation().contains("P75 rule"));
}

TEST_CASE("The sweep chart draws cost for every reserved count and marks optimum, P50 and P75")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    QChart *chart = page.chartPanels().first()->chart();
    REQUIRE(chart);
    QLineSeries *curve = nullptr;
    QStringList labels;
    for (QAbstractSeries *s : chart->series()) {
        if (auto *line = qobject_cast<QLineSeries *>(s); line && line->count() > 2)
            curve = line;
    }
    // The marker labels, placed by the chart's label layer.
    if (const ui::ChartLabels *markers = ui::ChartLabels::find(chart))
        for (const ui::LabelRequest &request : markers->requests())
            labels << request.text;
    REQUIRE(curve);
    CHECK(curve->count() == int(page.analysis().sweep.size()));
    // the minimum of the drawn curve is at the optimum
    int best = 0;
    for (int i = 1; i < curve->count(); ++i)
        if (curve->at(i).y() < curve->at(best).y())
            best = i;
    CHECK(int64_t(curve->at(best).x()) == page.analysis().optimalReserved);
    CHECK(labels.contains(QStringLiteral("optimum %1").arg(page.analysis().optimalReserved)));
    CHECK(labels.contains(QStringLiteral("P75 %1").arg(page.analysis().p75Reserved)));
}

TEST_CASE("A higher committed rate lowers the optimum, and a rate at on-demand says do not reserve")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    const int64_t before = page.analysis().optimalReserved;
    setText(edit(page, "costReservedRate"), "5.90");
    REQUIRE(page.errorText().isEmpty());
    CHECK(page.analysis().criticalFractile == Approx(5.90 / 6.88));
    CHECK(page.analysis().optimalReserved < before);

    setText(edit(page, "costReservedRate"), "6.88");
    CHECK_FALSE(page.analysis().commitmentPays);
    CHECK(page.analysis().optimalReserved == 0);
    CHECK(page.recommendation().contains("Do not reserve"));
}

TEST_CASE("Each option row's total equals the sum of its shown parts to the cent")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    auto *share = page.findChild<QDoubleSpinBox *>("costSpotShare");
    REQUIRE(share);
    setText(edit(page, "costSpotRate"), "2.46");
    share->setValue(30);
    REQUIRE(page.errorText().isEmpty());
    auto *table = page.findChild<QTableWidget *>("costTable");
    REQUIRE(table);
    REQUIRE(table->rowCount() >= 4);
    for (int row = 0; row < int(page.options().size()); ++row) {
        INFO("row " << row);
        const qint64 parts = cents(table->item(row, 2)->text()) + cents(table->item(row, 3)->text()) +
                             cents(table->item(row, 4)->text());
        CHECK(parts == cents(table->item(row, 5)->text()));
    }
    CHECK(table->item(0, 0)->text() == "All on-demand");
    CHECK(cents(table->item(3, 4)->text()) > 0); // spot carries part of the elastic demand
}

TEST_CASE("A manual plan drives the hourly and monthly charts")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    page.findChild<QCheckBox *>("costUseOptimum")->setChecked(false);
    page.findChild<QSpinBox *>("costReserved")->setValue(250);
    REQUIRE(page.options().size() == 5);
    CHECK(page.options().back().reserved == 250);
    QChart *week = page.findChild<ui::ChartPanel *>("costWeekChart")->chart();
    QStringList areas;
    for (QAbstractSeries *s : week->series())
        if (auto *area = qobject_cast<QAreaSeries *>(s))
            areas << area->name();
    CHECK(areas.contains("Reserved, used"));
    CHECK(areas.contains("On-demand"));
    QChart *month = page.findChild<ui::ChartPanel *>("costMonthChart")->chart();
    auto *bars = qobject_cast<QBarSeries *>(month->series().value(0));
    REQUIRE(bars);
    REQUIRE(bars->count() == 2);
    // A year of hours from the first of a month is 12 calendar months: no stub 13th month.
    CHECK(bars->barSets().first()->count() == 12);
    auto *x = qobject_cast<QBarCategoryAxis *>(month->axes(Qt::Horizontal).value(0));
    REQUIRE(x);
    CHECK(x->categories().size() == 12);
}

TEST_CASE("Importing demand from CSV selects it - a bad file changes nothing and names the line")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    QTemporaryDir dir;
    QFile good(dir.filePath("week.csv"));
    REQUIRE(good.open(QIODevice::WriteOnly));
    good.write("timestamp,gpus\n");
    const QDateTime start(QDate(2024, 1, 1), QTime(0, 0), Qt::UTC);
    for (int h = 0; h < 48; ++h)
        good.write(QStringLiteral("%1,%2\n").arg(start.addSecs(3600 * h).toString(Qt::ISODate)).arg(h < 24 ? 10 : 20).toUtf8());
    good.close();
    QString error;
    REQUIRE(page.importDemand(good.fileName(), &error));
    REQUIRE(page.demand());
    CHECK(page.demand()->gpus.size() == 48);
    CHECK((*ws).demandSeriesNames().contains("week"));
    // half the hours at 10, half at 20: with a 0.62 discount the optimum reserves 10 or 20
    CHECK((page.analysis().optimalReserved == 10 || page.analysis().optimalReserved == 20));

    QFile bad(dir.filePath("bad.csv"));
    REQUIRE(bad.open(QIODevice::WriteOnly));
    bad.write("gpus\n5\n6\n-1\n");
    bad.close();
    const QStringList before = (*ws).demandSeriesNames();
    CHECK_FALSE(page.importDemand(bad.fileName(), &error));
    CHECK(error.contains("line 4"));
    CHECK((*ws).demandSeriesNames() == before);
}

TEST_CASE("The cost chart exports to PDF with its title and optimum label as text")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    QTemporaryDir dir;
    QString error;
    REQUIRE(ui::exportFigure(page.chartPanels().first()->figure(), dir.filePath("cost.pdf"), &error));
    QProcess p;
    p.start("pdftotext", {dir.filePath("cost.pdf"), "-"});
    REQUIRE(p.waitForFinished(20000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    CHECK(text.contains("Total cost vs reserved GPUs"));
    CHECK(text.contains(QStringLiteral("optimum %1").arg(page.analysis().optimalReserved)));
    CHECK(text.contains("critical fractile"));
}

TEST_CASE("A year of demand is the real hours from the start date: 8,760 h in 2025, 8,784 h in 2028")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    auto *start = page.findChild<QDateEdit *>("costStartDate");
    REQUIRE(start);
    start->setDate(QDate(2025, 1, 1));
    REQUIRE(page.demand());
    CHECK(page.demand()->gpus.size() == 8760);
    start->setDate(QDate(2028, 1, 1));
    CHECK(page.demand()->gpus.size() == 8784);
    QChart *month = page.findChild<ui::ChartPanel *>("costMonthChart")->chart();
    auto *x = qobject_cast<QBarCategoryAxis *>(month->axes(Qt::Horizontal).value(0));
    REQUIRE(x);
    CHECK(x->categories() == QStringList{"2028-01", "2028-02", "2028-03", "2028-04", "2028-05", "2028-06",
                                         "2028-07", "2028-08", "2028-09", "2028-10", "2028-11", "2028-12"});
    // The reserved spend of February 2028 is its 29 days of hours.
    auto *bars = qobject_cast<QBarSeries *>(month->series().value(0));
    REQUIRE(bars);
    const QBarSet *reserved = bars->barSets().first();
    REQUIRE(reserved->at(0) > 0);
    CHECK(reserved->at(1) / reserved->at(0) == Approx(29.0 * 24 / (31.0 * 24)));
}

TEST_CASE("A 3-year commitment over one year of demand shows the whole obligation and points to the forecast")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    page.findChild<QDateEdit *>("costStartDate")->setDate(QDate(2025, 1, 1));
    auto *term = page.findChild<QComboBox *>("costTerm");
    REQUIRE(term);
    term->setCurrentIndex(term->findData(3));
    REQUIRE(page.errorText().isEmpty());
    const QString text = page.recommendation();
    INFO(text.toStdString());
    CHECK(text.contains("whole commitment is owed"));
    // 2025-01-01 to 2028-01-01: 1,095 days = 26,280 h; the year of demand is 8,760 h of it.
    CHECK(text.contains("26,280 h"));
    CHECK(text.contains("2025-01-01"));
    CHECK(text.contains("2028-01-01"));
    CHECK(text.contains("forecast hand-off"));
    // AWS H100 3-year rate $3.096, half upfront.
    const int64_t reserved = page.analysis().optimalReserved;
    const engine::Money owed = engine::Money::parse("3.096") * engine::Decimal::fromInt(reserved * 26280);
    CHECK(text.contains(QString::fromStdString(owed.display())));
    const engine::Money upfront{(owed.amount * engine::Decimal::parse("0.5").value()).rounded(2), "USD"};
    CHECK(text.contains(QString::fromStdString(upfront.display())));
    CHECK(text.contains("$3.096"));
    // The headline makes no claim for the whole term: the series is a third of it.
    CHECK_FALSE(text.contains("cheaper than all on-demand"));
    CHECK(text.contains("only if the rest of the term pays too"));
    CHECK(text.contains("33.3 % of the term"));

    // One year of demand for a one-year commitment covers it: no warning.
    term->setCurrentIndex(term->findData(1));
    CHECK_FALSE(page.recommendation().contains("whole commitment is owed"));
    CHECK(page.recommendation().contains("owed in full"));
}

TEST_CASE("A 1-year commitment over three years of demand lists its renewals, and the weekend follows the calendar")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    page.findChild<QDateEdit *>("costStartDate")->setDate(QDate(2025, 1, 1));
    auto *horizon = page.findChild<QComboBox *>("costHorizon");
    horizon->setCurrentIndex(horizon->findData(36));
    auto *term = page.findChild<QComboBox *>("costTerm");
    term->setCurrentIndex(term->findData(1));
    REQUIRE(page.errorText().isEmpty());
    const QString text = page.recommendation();
    INFO(text.toStdString());
    CHECK(text.contains("cheaper than all on-demand"));
    // 2025-01-01 + 3 × 12 months: three terms of 8,760 h, each owed at $/h × reserved × hours.
    CHECK(text.contains("renewed 2 times"));
    CHECK(text.contains("the first term 2025-01-01 to 2026-01-01, 8,760 h"));
    CHECK(text.contains("renewal 1: 2026-01-01 to 2027-01-01, 8,760 h"));
    CHECK(text.contains("renewal 2: 2027-01-01 to 2028-01-01, 8,760 h"));
    const int64_t reserved = page.analysis().optimalReserved;
    REQUIRE(reserved > 0);
    // One term's obligation, as the line before says it, three times over.
    const QRegularExpressionMatch one = QRegularExpression("owed in full: \\$([0-9,.]+) from").match(text);
    REQUIRE(one.hasMatch());
    const engine::Decimal perTerm = *engine::Decimal::parse(one.captured(1).remove(',').toStdString());
    CHECK(text.contains(QString::fromStdString(engine::Money{perTerm * int64_t(3), "USD"}.display()) + " owed in all"));

    // 36 monthly bars: labelled by quarter, each label whole (not elided to "..." as 36 upright labels were).
    QChart *month = page.findChild<ui::ChartPanel *>("costMonthChart")->chart();
    auto *bars = qobject_cast<QBarSeries *>(month->series().value(0));
    REQUIRE(bars);
    CHECK(bars->barSets().first()->count() == 36);
    auto *quarters = qobject_cast<QCategoryAxis *>(month->axes(Qt::Horizontal).value(0));
    REQUIRE(quarters);
    CHECK(quarters->categoriesLabels()
          == (QStringList{"2025-01", "2025-04", "2025-07", "2025-10", "2026-01", "2026-04", "2026-07", "2026-10",
                          "2027-01", "2027-04", "2027-07", "2027-10"}));
    CHECK(quarters->min() == Approx(-0.5));
    CHECK(quarters->max() == Approx(35.5));
    page.resize(1280, 800);
    page.show();
    auto *panel = page.findChild<ui::ChartPanel *>("costMonthChart");
    for (QTabWidget *tabs : page.findChildren<QTabWidget *>())
        if (tabs->indexOf(panel) >= 0)
            tabs->setCurrentWidget(panel);
    QApplication::processEvents();
    REQUIRE(panel->isVisible());
    REQUIRE(month->scene());
    QStringList shortened;
    for (QGraphicsItem *item : month->scene()->items()) {
        QString label;
        if (auto *rich = qgraphicsitem_cast<QGraphicsTextItem *>(item))
            label = rich->toPlainText();
        else if (auto *simple = qgraphicsitem_cast<QGraphicsSimpleTextItem *>(item))
            label = simple->text();
        if (item->isVisible() && (label.contains(QChar(0x2026)) || label.contains(QLatin1String("..."))))
            shortened << label;
    }
    INFO(shortened.join(", ").toStdString());
    CHECK(shortened.isEmpty());
    page.hide();

    // The generated week of a Friday start has its weekend on days 1 and 2 (Saturday, Sunday).
    page.findChild<QDoubleSpinBox *>("costNoise")->setValue(0);  // the shape alone, no hour-to-hour noise
    page.findChild<QDateEdit *>("costStartDate")->setDate(QDate(2027, 1, 1));  // a Friday
    horizon->setCurrentIndex(horizon->findData(0));
    REQUIRE(page.errorText().isEmpty());
    REQUIRE(page.demand());
    const auto &gpus = page.demand()->gpus;
    REQUIRE(gpus.size() == 168);
    CHECK(gpus[0 * 24 + 14] > gpus[1 * 24 + 14]);   // Friday peak above Saturday's
    CHECK(gpus[1 * 24 + 14] == gpus[2 * 24 + 14]);  // Saturday and Sunday alike
    CHECK(gpus[3 * 24 + 14] == gpus[0 * 24 + 14]);  // Monday like Friday
}

TEST_CASE("Sensitivity rows show every part and compare with no commitment at the same demand")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    setText(edit(page, "costSpotRate"), "2.46");
    page.findChild<QDoubleSpinBox *>("costSpotShare")->setValue(30);
    REQUIRE(page.errorText().isEmpty());
    auto *table = page.findChild<QTableWidget *>("costTable");
    REQUIRE(table);
    const int first = int(page.options().size());
    REQUIRE(table->rowCount() == first + 4);
    qint64 previousOnDemandOnly = 0;
    for (int row = first; row < table->rowCount(); ++row) {
        INFO("row " << row << " " << table->item(row, 0)->text().toStdString());
        CHECK(table->item(row, 0)->text().startsWith("Plan, demand"));
        for (int column = 2; column <= 6; ++column)
            CHECK_FALSE(table->item(row, column)->text().isEmpty());
        const qint64 parts = cents(table->item(row, 2)->text()) + cents(table->item(row, 3)->text()) +
                             cents(table->item(row, 4)->text());
        CHECK(parts == cents(table->item(row, 5)->text()));
        // Like with like: no commitment at this row's demand grows with the demand.
        const qint64 onDemandOnly = cents(table->item(row, 6)->text());
        CHECK(onDemandOnly > previousOnDemandOnly);
        previousOnDemandOnly = onDemandOnly;
        const double expected = double(cents(table->item(row, 5)->text())) / double(onDemandOnly) - 1.0;
        QString shown = table->item(row, 7)->text();
        shown.remove(QStringLiteral(" %"));
        CHECK(shown.toDouble() == Approx(expected * 100).margin(0.051));
    }
    // −10 % demand: no commitment costs 0.9 × the base row's (the "All on-demand" option, same
    // spot share), to within rounding of the scaled hours.
    const qint64 base = cents(table->item(0, 6)->text());
    CHECK(double(cents(table->item(first + 1, 6)->text())) == Approx(0.9 * double(base)).epsilon(1e-6));
}

TEST_CASE("An invalid price clears the results and says the field's label, not the engine's key")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    REQUIRE(page.errorText().isEmpty());
    auto *table = page.findChild<QTableWidget *>("costTable");
    REQUIRE(table->rowCount() > 0);
    setText(edit(page, "costOnDemandRate"), "0");
    INFO(page.errorText().toStdString());
    CHECK(page.errorText().startsWith("On-demand price must be greater than 0"));
    CHECK_FALSE(page.errorText().contains("on_demand"));
    CHECK(table->rowCount() == 0);
    // Back to a valid price: the results return.
    setText(edit(page, "costOnDemandRate"), "6.88");
    CHECK(page.errorText().isEmpty());
    CHECK(table->rowCount() > 0);
}

TEST_CASE("The report redraws a Cost chart with a typed price as typed, and with the card's prices from the card")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    auto sweep = [&] { return page.findChild<ui::ChartPanel *>("costSweepChart")->figure(); };
    CHECK(sweep().source.value("kind").toString() == "cost-sweep");
    CHECK_FALSE(sweep().source.contains("rates"));

    setText(edit(page, "costReservedRate"), "2.5");
    const ui::ChartFigure typed = sweep();
    REQUIRE(typed.source.contains("rates"));
    CHECK(typed.source.value("rates").toObject().value("reserved").toString() == "2.5");
    QString problem;
    const auto item = ui::costReportItem(*ws, typed.source, &problem);
    INFO(problem.toStdString());
    REQUIRE(item);
    CHECK(item->title == typed.title);
    CHECK(item->caption == typed.caption);
    CHECK(item->caption.contains("$2.5"));

    // A source whose demand series is gone says so and draws nothing.
    QJsonObject gone = typed.source;
    gone.remove("shape");
    gone.insert("demand_series", "no-such-series");
    CHECK_FALSE(ui::costReportItem(*ws, gone, &problem));
    CHECK(problem.contains("no-such-series"));
    // Another page's kind is not the Cost page's to draw.
    CHECK_FALSE(ui::costReportItem(*ws, QJsonObject{{"kind", "kv-concurrency"}}, &problem));
    CHECK(problem.isEmpty());
}
