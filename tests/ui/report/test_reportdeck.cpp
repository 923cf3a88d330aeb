// The demo deck as a presenter gets it: the summary first with the scenarios' numbers,
// assumptions only for what the deck uses and at the end, chart text kept as text at 14 pt
// or more, and value and marker labels that never overlap each other, their line or a tick.
#include "common/uitestsupport.h"

#include "engine/cost/cost.h"
#include "engine/fleet/scenario.h"
#include "store/common/demoworkspace.h"
#include "store/fleet/scenarioinputs.h"
#include "ui/common/chartlabels.h"
#include "ui/common/chartstyle.h"
#include "ui/cost/costcharts.h"
#include "ui/fleet/scenariocharts.h"
#include "ui/fleet/scenariodeck.h"
#include "ui/fragmentation/fragmappainter.h"
#include "ui/fragmentation/fragmapview.h"
#include "ui/partitioning/miglayoutview.h"
#include "ui/partitioning/partitioningpage.h"
#include "ui/cost/costpage.h"
#include "ui/inference/kvpage.h"
#include "ui/common/chartpanel.h"
#include "ui/report/reportdeck.h"
#include "ui/report/reportsnapshot.h"

#include <QChart>
#include <QGraphicsScene>
#include <QPaintEngine>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QXmlStreamReader>
#include <memory>

using namespace headroom;

namespace {

QString run(const QString &tool, const QStringList &args)
{
    REQUIRE_FALSE(QStandardPaths::findExecutable(tool).isEmpty());
    QProcess p;
    p.start(tool, args);
    REQUIRE(p.waitForFinished(30000));
    REQUIRE(p.exitCode() == 0);
    return QString::fromUtf8(p.readAllStandardOutput());
}

// The text of one PDF page (1-based).
QString pageText(const QString &pdf, int page)
{
    return run("pdftotext", {"-f", QString::number(page), "-l", QString::number(page), "-layout", pdf, "-"});
}

struct Word {
    QString text;
    QRectF box;
};

// The words of one PDF page with their boxes in points, from pdftotext -bbox.
std::vector<Word> pageWords(const QString &pdf, int page)
{
    const QString html = run("pdftotext", {"-f", QString::number(page), "-l", QString::number(page), "-bbox", pdf, "-"});
    std::vector<Word> words;
    QXmlStreamReader xml(html);
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("word")) {
            const auto a = xml.attributes();
            const QRectF box(QPointF(a.value("xMin").toDouble(), a.value("yMin").toDouble()),
                             QPointF(a.value("xMax").toDouble(), a.value("yMax").toDouble()));
            words.push_back({xml.readElementText(), box});
        }
    }
    return words;
}

// A paint device that keeps every text item drawn on it, with its size on the page in
// points (the page is 96-dpi units, 0.75 pt each) — and whether anything came as a path.
class TextRecorder : public QPaintDevice {
public:
    struct Text {
        QString text;
        qreal points;
    };
    std::vector<Text> texts;

    QPaintEngine *paintEngine() const override { return m_engine.get(); }

protected:
    int metric(PaintDeviceMetric metric) const override
    {
        switch (metric) {
        case PdmWidth:
            return ui::kDeckPageWidth;
        case PdmHeight:
            return ui::kDeckPageHeight;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDepth:
            return 32;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(QPaintDevice::devicePixelRatioFScale());
        default:
            return QPaintDevice::metric(metric);
        }
    }

private:
    class Engine : public QPaintEngine {
    public:
        explicit Engine(TextRecorder *device)
            : QPaintEngine(AllFeatures)
            , m_device(device)
        {
        }
        bool begin(QPaintDevice *) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState &state) override
        {
            if (state.state() & DirtyTransform)
                m_transform = state.transform();
        }
        void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
        void drawPolygon(const QPointF *, int, PolygonDrawMode) override {}
        void drawPath(const QPainterPath &) override {}
        void drawTextItem(const QPointF &, const QTextItem &item) override
        {
            const QFont font = item.font();
            const qreal pixels = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 96.0 / 72.0;
            const qreal scale = std::sqrt(std::abs(m_transform.determinant()));
            m_device->texts.push_back({item.text(), pixels * scale * 0.75});
        }
        Type type() const override { return User; }

    private:
        TextRecorder *m_device;
        QTransform m_transform;
    };
    std::unique_ptr<Engine> m_engine = std::make_unique<Engine>(this);
};

std::vector<engine::ScenarioResult> evaluate(const store::Workspace &workspace, const QStringList &names)
{
    const engine::ScenarioInputs inputs = store::scenarioInputs(workspace);
    std::vector<engine::ScenarioResult> results;
    for (const QString &name : names)
        results.push_back(engine::evaluateScenario(*workspace.scenario(name), inputs));
    return results;
}

// The chart of a figure laid out as the deck draws it, in a scene that keeps it alive.
struct SlideChart {
    QGraphicsScene scene;
    QChart *chart = nullptr;
    explicit SlideChart(const ui::ChartFigure &figure)
    {
        chart = figure.build(QChart::ChartThemeLight);
        ui::styleChartForSlide(chart, ui::kSlideMinPointSize, QSizeF(ui::kSlideFigureWidth, ui::kSlideFigureHeight));
        scene.addItem(chart);
        chart->setGeometry(QRectF(0, 0, ui::kSlideFigureWidth, ui::kSlideFigureHeight));
        QImage image(ui::kSlideFigureWidth, ui::kSlideFigureHeight, QImage::Format_ARGB32);
        QPainter painter(&image);
        scene.render(&painter);
    }
};

void checkLabelsClear(const ui::ChartFigure &figure, int expectedLabels)
{
    SlideChart slide(figure);
    const ui::ChartLabels *labels = ui::ChartLabels::find(slide.chart);
    REQUIRE(labels);
    INFO(figure.title.toStdString());
    CHECK(int(labels->placed().size()) == expectedLabels);
    const QStringList collisions = ui::labelCollisions(labels->placed(), labels->requests(), labels->obstacles());
    INFO(collisions.join("\n").toStdString());
    CHECK(collisions.isEmpty());
    for (const ui::PlacedLabel &label : labels->placed()) {
        INFO(label.text.toStdString());
        CHECK(label.clear);
        CHECK(labels->bounds().adjusted(-1, -1, 1, 1).contains(label.box));  // inside the plot: off the ticks
    }
    CHECK(labels->font().pointSizeF() >= 14);
}

} // namespace

TEST_CASE("The label placer keeps labels off each other, their own line and the ticks", "[deck]")
{
    // Three markers two pixels apart, each label naming its line: the "P50|234" case.
    const QRectF plot(60, 20, 600, 300);
    ui::LabelObstacles obstacles;
    std::vector<ui::LabelRequest> requests;
    for (int i = 0; i < 3; ++i) {
        const qreal x = 300 + 2 * i;
        obstacles.lines.emplace_back(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        ui::LabelRequest r;
        r.text = QString("P%1 23%1").arg(i);
        r.size = QSizeF(70, 22);
        r.candidates = ui::besideVerticalLine(x, plot.top(), plot.bottom(), r.size);
        r.ownLines = {obstacles.lines.back()};
        requests.push_back(r);
    }
    // A marker at the plot's left edge: its label may not go left over the y ticks.
    obstacles.lines.emplace_back(QPointF(plot.left(), plot.top()), QPointF(plot.left(), plot.bottom()));
    ui::LabelRequest edge;
    edge.text = "profile 0 %";
    edge.size = QSizeF(90, 22);
    edge.candidates = ui::besideVerticalLine(plot.left(), plot.top(), plot.bottom(), edge.size);
    edge.ownLines = {obstacles.lines.back()};
    requests.push_back(edge);

    const auto placed = ui::placeLabels(plot, requests, obstacles);
    REQUIRE(placed.size() == 4);
    CHECK(ui::labelCollisions(placed, requests, obstacles).isEmpty());
    for (const auto &label : placed) {
        CHECK(label.clear);
        CHECK(plot.contains(label.box));
    }
    CHECK(placed[3].box.left() > plot.left());  // right of the edge marker

    SECTION("the check fails on overlapping labels and on a label struck through by its line")
    {
        std::vector<ui::PlacedLabel> bad = placed;
        bad[1].box = bad[0].box.translated(10, 5);
        const QStringList found = ui::labelCollisions(bad, requests, obstacles);
        CHECK(found.filter("overlaps 'P0 230'").size() + found.filter("'P0 230' overlaps").size() >= 1);
        std::vector<ui::PlacedLabel> struck = placed;
        struck[0].box.moveCenter(QPointF(300, 100));  // centred on its own marker line
        const QStringList own = ui::labelCollisions(struck, requests, obstacles);
        CHECK_FALSE(own.filter("struck through by its own line").isEmpty());
        // With no free spot the placer says so instead of pretending.
        ui::LabelRequest first = requests[1];
        first.candidates = {QPointF(100, 100)};
        ui::LabelRequest crowded = requests[0];
        crowded.candidates = {QPointF(110, 104)};
        const auto forced = ui::placeLabels(plot, {first, crowded}, {});
        CHECK(forced[0].clear);
        CHECK_FALSE(forced[1].clear);
        CHECK_FALSE(ui::labelCollisions(forced, {first, crowded}, {}).isEmpty());
    }
}

TEST_CASE("Bar labels of one series share one number format", "[deck]")
{
    CHECK(ui::seriesValueTexts({660.0, 84.64, 5.439}) == QStringList{"660", "85", "5"});
    CHECK(ui::seriesValueTexts({84.64, 5.439}) == QStringList{"84.6", "5.4"});
    CHECK(ui::seriesValueTexts({4.5, 0.25}, " %") == QStringList{"4.50 %", "0.25 %"});
    CHECK(ui::seriesValueTexts({1200.0, 16.0}) == QStringList{"1,200", "16"});
}

TEST_CASE("Warnings are said once with their count", "[deck]")
{
    CHECK(ui::countedWarnings({"a", "b", "a", "a"}) == QStringList{"a (3 times)", "b"});
}

TEST_CASE("Chart labels in the deck's charts are placed clear at slide size", "[deck]")
{
    TempWorkspace ws;
    const QString path = ws.dir.filePath("demo.headroom");
    store::createDemoWorkspace(path);
    const store::Workspace workspace(path);
    const auto results = evaluate(workspace, {"Support bot static", "Support bot elastic", "Chatbot core + flex"});
    // Bars: tiers present × scenarios; pools stacked (zero segments unlabelled); two per scenario.
    // A bar of zero (a tier a scenario does not use) has no label.
    int tierBars = 0;
    for (const auto &r : results)
        for (const auto &t : r.costByTier)
            tierBars += t.perMonth.amount.isZero() ? 0 : 1;
    checkLabelsClear(ui::costByTierFigure(results), tierBars);
    int utilizationBars = 0;
    for (const auto &r : results) {
        bool hasStatic = false;
        for (const auto &p : r.pools)
            hasStatic = hasStatic || (p.role == engine::PoolRole::StaticBase && p.gpus > 0);
        utilizationBars += (hasStatic ? 1 : 0) + (r.utilization > 0 ? 1 : 0);
    }
    checkLabelsClear(ui::utilizationFigure(results), utilizationBars);
    int segments = 0;
    for (const auto &r : results)
        for (const auto &p : r.pools)
            segments += p.gpus > 0 ? 1 : 0;
    checkLabelsClear(ui::gpusByPoolFigure(results), segments);

    // Three reserve markers a few GPUs apart (optimum, P50, P75).
    engine::ReserveAnalysis analysis;
    for (int r = 0; r <= 40; ++r) {
        engine::ReservePoint point;
        point.reserved = r;
        point.cost = engine::Money{engine::Decimal::fromDouble(100000.0 + (r - 22) * (r - 22) * 150.0), "USD"};
        analysis.sweep.push_back(point);
    }
    analysis.optimalReserved = 22;
    analysis.p50Reserved = 23;
    analysis.p75Reserved = 24;
    const ui::ChartFigure sweep{"Reserve sweep", {}, [analysis](QChart::ChartTheme theme) {
                                    return ui::buildReserveSweepChart(analysis, "USD", "Reserve sweep", theme);
                                }};
    checkLabelsClear(sweep, 3);
}

TEST_CASE("The demo scenario deck: summary first, appendix of what it uses, chart text as text at 14 pt, no overlaps",
          "[deck]")
{
    TempWorkspace ws;
    const QString path = ws.dir.filePath("demo.headroom");
    store::createDemoWorkspace(path);
    const store::Workspace workspace(path);
    const QStringList names{"Support bot static", "Support bot elastic"};
    const ui::Deck deck = ui::scenarioDeck(workspace, names);
    const ui::DeckLayout layout(deck);

    // The summary is the first page after the title and holds each scenario's numbers as the
    // engine computes them.
    REQUIRE(layout.pageCount() > 4);
    CHECK(layout.pageHeading(1) == "Summary");
    const auto results = evaluate(workspace, names);
    REQUIRE(deck.summary.size() == 2);
    for (size_t i = 0; i < results.size(); ++i) {
        CHECK(deck.summary[i].name == names[int(i)]);
        const QString month = QString::fromStdString(engine::scenarioMoneyTable(results[i]).perMonth.total.display());
        CHECK(deck.summary[i].decision.contains(month));
        CHECK(deck.summary[i].figures.front().second == month);
    }
    // The recommendation: the cheaper per month and its saving against the other.
    const engine::Money staticMonth = engine::scenarioMoneyTable(results[0]).perMonth.total;
    const engine::Money elasticMonth = engine::scenarioMoneyTable(results[1]).perMonth.total;
    REQUIRE(elasticMonth.amount < staticMonth.amount);
    CHECK(deck.recommendation.startsWith("Choose " + names[1] + ":"));
    // DESIGN §3.7 golden: 16 static GPUs against an elastic fleet averaging 10 save $17,236.80 a month.
    CHECK(deck.recommendation.contains(QString::fromStdString(
        engine::Money{staticMonth.amount - elasticMonth.amount, "USD"}.display())));
    CHECK(deck.recommendation.contains("$17,236.80"));

    // Assumptions come last, and only for the workloads the scenarios serve.
    const int last = layout.pageCount() - 1;
    CHECK(layout.pageHeading(last).startsWith("Appendix: assumptions"));
    for (int page = 1; page < last; ++page) {
        if (layout.pageHeading(page).startsWith("Appendix"))
            CHECK(layout.pageHeading(page - 1).startsWith("Appendix") == false);
    }
    const auto workloads = std::find_if(deck.assumptions.begin(), deck.assumptions.end(),
                                        [](const ui::DeckSection &s) { return s.heading == "Workloads served"; });
    REQUIRE(workloads != deck.assumptions.end());
    REQUIRE(workloads->table.rows.size() == 1);
    CHECK(workloads->table.rows.front().front() == "support-assistant");
    CHECK(workspace.workloads().size() > 40);

    // Warnings: each said once.
    QStringList warnings = ui::countedWarnings(deck.warnings);
    CHECK(warnings.removeDuplicates() == 0);

    QTemporaryDir dir;
    const QString pdf = qEnvironmentVariableIsSet("HEADROOM_KEEP_DECK")
        ? qEnvironmentVariable("HEADROOM_KEEP_DECK") + "/scenario-deck.pdf"
        : dir.filePath("deck.pdf");
    QString error;
    REQUIRE(ui::writeDeckPdf(deck, pdf, &error, {}, store::ExistingFile::Replace));

    // Page 2: the summary, with the numbers.
    const QString summary = pageText(pdf, 2);
    INFO(summary.toStdString());
    CHECK(summary.contains("Summary"));
    CHECK(summary.contains("Recommendation"));
    for (size_t i = 0; i < results.size(); ++i) {
        CHECK(summary.contains(names[int(i)]));
        CHECK(summary.contains(
            QString::fromStdString(engine::scenarioMoneyTable(results[i]).perMonth.total.display())));
    }

    int chartPages = 0;
    for (int page = 0; page < layout.pageCount(); ++page) {
        const QRectF figure = layout.figureRect(page);
        if (figure.isEmpty())
            continue;
        const QString heading = layout.pageHeading(page);
        INFO("page " << page + 1 << ": " << heading.toStdString());
        // The painted diagram, titled by what the scenario has of a static base and an elastic top.
        const bool chart = !heading.contains(QRegularExpression(": (static base and elastic top|static pools|elastic pools)$"));
        // Charts fill at least 75 % of the slide.
        if (chart) {
            ++chartPages;
            CHECK(figure.width() * figure.height() >= 0.75 * ui::kDeckPageWidth * ui::kDeckPageHeight);
        }
        // Every text of the page is text in the PDF: the axis titles and the bar values are
        // found by pdftotext, and no two words of a chart page overlap. (A custom-painted
        // view's own title band is clipped off the page but stays in the PDF's text.)
        const QString text = pageText(pdf, page + 1);
        INFO(text.toStdString());
        if (heading == "Monthly cost by tier")
            CHECK(text.contains("Cost per 30-day month"));
        if (heading.startsWith("Utilization"))
            CHECK(text.contains(QRegularExpression("\\d+ %")));
        const std::vector<Word> words = pageWords(pdf, page + 1);
        CHECK(words.size() > 8);
        for (size_t a = 0; chart && a < words.size(); ++a) {
            for (size_t b = a + 1; b < words.size(); ++b) {
                const QRectF common = words[a].box.intersected(words[b].box);
                const bool overlap = common.width() > 1.0 && common.height() > 2.0;
                if (overlap)
                    FAIL_CHECK("'" << words[a].text.toStdString() << "' overlaps '" << words[b].text.toStdString() << "'");
            }
        }
        // Text sizes: every text of a figure page at 14 pt or more, the painted diagram's too.
        {
            TextRecorder recorder;
            QPainter painter(&recorder);
            layout.paintPage(painter, page);
            painter.end();
            REQUIRE_FALSE(recorder.texts.empty());
            for (const auto &t : recorder.texts) {
                INFO(t.text.toStdString() << " at " << t.points << " pt");
                CHECK(t.points >= 14 - 0.05);
            }
        }
    }
    CHECK(chartPages == 3);  // cost by tier, GPUs by pool, utilization

    // The appendix wraps long cells instead of cutting them: each scenario's description is
    // found whole in the PDF's text, and no cell ends in an ellipsis.
    QString appendix;
    for (int page = 0; page < layout.pageCount(); ++page)
        if (layout.pageHeading(page).startsWith("Appendix"))
            appendix += pageText(pdf, page + 1) + QLatin1Char(' ');
    appendix = appendix.simplified();
    CHECK_FALSE(appendix.contains(QChar(0x2026)));
    for (const QString &name : names) {
        const QString description = QString::fromStdString(workspace.scenario(name)->description).simplified();
        INFO(description.toStdString());
        REQUIRE(description.size() > 60);
        // The page text runs the table's columns side by side, line by line: the description's
        // words appear in order, other columns' words between them.
        qsizetype at = 0;
        for (const QString &word : description.split(QLatin1Char(' '))) {
            at = appendix.indexOf(word, at);
            if (at < 0)
                FAIL_CHECK("missing from the appendix: " << word.toStdString());
            if (at < 0)
                break;
            at += word.size();
        }
    }
}

TEST_CASE("The demo workspace's report: summary of the scenarios it shows, appendix of the workloads it names",
          "[deck]")
{
    TempWorkspace ws;
    const QString path = ws.dir.filePath("demo.headroom");
    store::createDemoWorkspace(path);
    store::Workspace workspace(path);
    const QStringList names{"Support bot static", "Support bot elastic"};
    const auto results = evaluate(workspace, names);
    {
        ui::KvPage kv(workspace);
        workspace.appendReportItem(ui::reportItemFromFigure(kv.chartPanels().first()->figure()));
    }
    workspace.appendReportItem(ui::reportItemFromFigure(ui::scenarioDiagramFigure(results[1])));
    workspace.appendReportItem(ui::reportItemFromFigure(ui::costByTierFigure(results)));

    const ui::Deck deck = ui::workspaceDeck(workspace);
    const ui::DeckLayout layout(deck);
    CHECK(layout.pageHeading(1) == "Summary");
    // The diagram names its scenario: the summary evaluates it and shows its numbers.
    REQUIRE(deck.summary.size() == 1);
    CHECK(deck.summary.front().name == names[1]);
    CHECK(deck.summary.front().decision.contains(
        QString::fromStdString(engine::scenarioMoneyTable(results[1]).perMonth.total.display())));
    CHECK(deck.recommendation.contains(names[1]));
    // Only the workloads the items name, at the end.
    CHECK(layout.pageHeading(layout.pageCount() - 1).startsWith("Appendix: assumptions"));
    const auto workloads = std::find_if(deck.assumptions.begin(), deck.assumptions.end(),
                                        [](const ui::DeckSection &s) { return s.heading == "Workloads"; });
    REQUIRE(workloads != deck.assumptions.end());
    CHECK(workloads->table.rows.size() < 5);
    bool support = false;
    for (const QStringList &row : workloads->table.rows)
        support = support || row.front() == "support-assistant";
    CHECK(support);

    QTemporaryDir dir;
    const QString pdf = qEnvironmentVariableIsSet("HEADROOM_KEEP_DECK")
        ? qEnvironmentVariable("HEADROOM_KEEP_DECK") + "/workspace-deck.pdf"
        : dir.filePath("deck.pdf");
    QString error;
    REQUIRE(ui::writeDeckPdf(deck, pdf, &error, {}, store::ExistingFile::Replace));
    // The charts' own text is text in the PDF: the KV chart's axis and the cost bars' axis.
    const QString text = run("pdftotext", {pdf, "-"});
    CHECK(text.contains("Cost per 30-day month"));
    CHECK(text.contains(QRegularExpression("[Cc]ontext")));
}

TEST_CASE("Painted views (MIG layout, fragmentation map, scenario diagram) keep their text at 14 pt on a slide",
          "[deck]")
{
    TempWorkspace ws;
    const QString path = ws.dir.filePath("demo.headroom");
    store::createDemoWorkspace(path);
    store::Workspace workspace(path);
    ui::Deck deck;
    deck.title = "Painted views";
    {
        ui::PartitioningPage partitioning(workspace);
        REQUIRE_FALSE(partitioning.layoutView()->picture().layouts.empty());
        deck.items.push_back(ui::deckFigureItem(partitioning.layoutView()->figure("MIG layouts of the demo tenants")));
    }
    {
        ui::FragMapPicture picture;
        picture.title = "Fragmentation map";
        for (int n = 0; n < 24; ++n) {
            engine::frag::Node node;
            node.id = "node-" + std::to_string(n);
            node.gpus = 8;
            node.gpuModel = n < 12 ? "V100M32" : "T4";
            picture.nodes.push_back(node);
            engine::frag::NodeSnapshot state;
            for (int g = 0; g < 8; ++g)
                state.freeMilli.push_back((n * 8 + g) * 137 % 1001);
            state.category = n % 4;
            picture.state.push_back(state);
        }
        ui::FragMapView view;
        view.setPicture(picture);
        deck.items.push_back(ui::deckFigureItem(view.figure()));
    }
    deck.items.push_back(
        ui::deckFigureItem(ui::scenarioDiagramFigure(evaluate(workspace, {"Chatbot core + flex"}).front())));
    const ui::DeckLayout layout(deck);
    int figures = 0;
    for (int item = 0; item < int(deck.items.size()); ++item) {
        const int page = layout.firstPageOfItem(item);
        REQUIRE_FALSE(layout.figureRect(page).isEmpty());
        ++figures;
        INFO("page " << page + 1 << ": " << layout.pageHeading(page).toStdString());
        TextRecorder recorder;
        QPainter painter(&recorder);
        layout.paintPage(painter, page);
        painter.end();
        CHECK(recorder.texts.size() > 5);
        qreal smallest = 1000;
        for (const auto &t : recorder.texts) {
            INFO(t.text.toStdString() << " at " << t.points << " pt");
            CHECK(t.points >= 14 - 0.05);
            // The view's own text: not the page's heading, caption or page number.
            const QString text = t.text.trimmed();
            if (text != layout.pageHeading(page) && !deck.items[size_t(item)].caption.contains(text)
                && !QRegularExpression("^\\d+ / \\d+$").match(text).hasMatch())
                smallest = std::min(smallest, t.points);
        }
        // Not blown up either: the view's smallest text is near the floor, so the view keeps its room.
        INFO("smallest text of the view: " << smallest << " pt");
        CHECK(smallest >= 14 - 0.05);
        CHECK(smallest < 17);
    }
    CHECK(figures == 3);
    if (qEnvironmentVariableIsSet("HEADROOM_KEEP_DECK")) {
        QString error;
        CHECK(ui::writeDeckPdf(deck, qEnvironmentVariable("HEADROOM_KEEP_DECK") + "/painted-deck.pdf", &error, {},
                               store::ExistingFile::Replace));
    }
}

TEST_CASE("The deck's recommendation compares only scenarios serving the same demand and says the money, the "
          "commitment and the risks",
          "[deck]")
{
    TempWorkspace ws;
    const QString path = ws.dir.filePath("demo.headroom");
    store::createDemoWorkspace(path);
    const store::Workspace workspace(path);

    // Same demand: the cheaper per month, by how much (37.5 %, not "37 %"), over the term, what it commits to.
    const QStringList pair{"Support bot static", "Support bot elastic"};
    const auto results = evaluate(workspace, pair);
    const ui::Deck same = ui::scenarioDeck(workspace, pair);
    INFO(same.recommendation.toStdString());
    CHECK(same.recommendation.startsWith("Choose Support bot elastic: $28,728.00 per 30-day month, $17,236.80 "
                                         "(37.5 %) less than Support bot static, the next cheapest"));
    const engine::Decimal termSaving = engine::scenarioMoneyTable(results[0]).overTerm.total.amount
        - engine::scenarioMoneyTable(results[1]).overTerm.total.amount;
    CHECK(same.recommendation.contains(QStringLiteral("Over the term (%1 to %2)")
                                           .arg(QString::fromStdString(results[1].startDate),
                                                QString::fromStdString(results[1].endDate))));
    CHECK(same.recommendation.contains(
        QString::fromStdString(engine::Money{termSaving, "USD"}.display()) + " less."));
    CHECK(same.recommendation.contains("It commits to nothing: every GPU is owned, on-demand or spot."));
    CHECK(same.recommendation.contains("Its evaluation raised no warnings."));
    CHECK_FALSE(same.recommendation.contains("37 %"));

    // Different demand: no "choose" across them.
    const ui::Deck different = ui::scenarioDeck(workspace, {"Support bot elastic", "Code fleet 64 GPUs"});
    INFO(different.recommendation.toStdString());
    CHECK(different.recommendation.startsWith("Compared only where the demand is the same."));
    CHECK_FALSE(different.recommendation.contains("Choose"));
    CHECK(different.recommendation.contains("Support bot elastic and Code fleet 64 GPUs serve other demand."));

    // One scenario with a reserved base: go ahead, with the money and the whole commitment.
    const ui::Deck one = ui::scenarioDeck(workspace, {"Chatbot core + flex"});
    const auto chatbot = evaluate(workspace, {"Chatbot core + flex"});
    INFO(one.recommendation.toStdString());
    CHECK(one.recommendation.startsWith(QStringLiteral("Go ahead with Chatbot core + flex: %1 per 30-day month and %2 over the term")
                                            .arg(QString::fromStdString(engine::scenarioMoneyTable(chatbot[0]).perMonth.total.display()),
                                                 QString::fromStdString(engine::scenarioMoneyTable(chatbot[0]).overTerm.total.display()))));
    REQUIRE_FALSE(chatbot[0].commitmentsOwed.amount.isZero());
    CHECK(one.recommendation.contains(QStringLiteral("It commits to %1 reserved (")
                                          .arg(QString::fromStdString(chatbot[0].commitmentsOwed.display()))));
}

TEST_CASE("Four scenarios' summary fits one slide, at 14 pt or more, and a fifth goes on Summary (continued)",
          "[deck]")
{
    TempWorkspace ws;
    const QString path = ws.dir.filePath("demo.headroom");
    store::createDemoWorkspace(path);
    const store::Workspace workspace(path);
    const QStringList names{"Support bot static", "Support bot elastic", "Chatbot core + flex", "Code fleet 64 GPUs"};
    const ui::Deck deck = ui::scenarioDeck(workspace, names);
    REQUIRE(deck.summary.size() == 4);
    REQUIRE_FALSE(deck.recommendation.isEmpty());
    const ui::DeckLayout layout(deck);
    CHECK(layout.pageHeading(1) == "Summary");
    for (int page = 2; page < layout.pageCount(); ++page)
        CHECK_FALSE(layout.pageHeading(page).startsWith("Summary"));

    QTemporaryDir dir;
    const QString pdf = dir.filePath("four.pdf");
    QString error;
    REQUIRE(ui::writeDeckPdf(deck, pdf, &error, {}, store::ExistingFile::Replace));
    const QString summary = pageText(pdf, 2);
    INFO(summary.toStdString());
    const auto results = evaluate(workspace, names);
    for (int i = 0; i < names.size(); ++i) {
        CHECK(summary.contains(names[i]));
        CHECK(summary.contains(
            QString::fromStdString(engine::scenarioMoneyTable(results[size_t(i)]).perMonth.total.display())));
    }
    // On the page, above the footer, and no two words on top of each other.
    const std::vector<Word> words = pageWords(pdf, 2);
    REQUIRE(words.size() > 40);
    // (The body ends 64 units above the page's foot; the footer rule is 48 units above it.)
    const qreal bodyBottomPt = (ui::kDeckPageHeight - 64) * 0.75, footerRulePt = (ui::kDeckPageHeight - 48) * 0.75;
    for (size_t a = 0; a < words.size(); ++a) {
        INFO(words[a].text.toStdString());
        if (words[a].box.top() < footerRulePt)
            CHECK(words[a].box.bottom() <= bodyBottomPt + 2);
        for (size_t b = a + 1; b < words.size(); ++b) {
            const QRectF common = words[a].box.intersected(words[b].box);
            if (common.width() > 1.0 && common.height() > 2.0)
                FAIL_CHECK("'" << words[a].text.toStdString() << "' overlaps '" << words[b].text.toStdString() << "'");
        }
    }
    TextRecorder recorder;
    QPainter painter(&recorder);
    layout.paintPage(painter, 1);
    painter.end();
    REQUIRE(recorder.texts.size() > 10);
    for (const auto &t : recorder.texts) {
        // (The footer — deck title, date, page number — is not slide text.)
        if (t.text.startsWith(deck.title) || QRegularExpression("^\\d+ / \\d+$").match(t.text).hasMatch())
            continue;
        INFO(t.text.toStdString() << " at " << t.points << " pt");
        CHECK(t.points >= 14 - 0.05);
    }

    // Past what one slide holds, the rest continues on a slide that says so.
    ui::Deck more = deck;
    for (int copy = 0; copy < 3; ++copy) {
        ui::DeckSummaryEntry extra = deck.summary[size_t(copy)];
        extra.name = QStringLiteral("Extra fleet %1").arg(QChar('A' + copy));
        more.summary.push_back(extra);
    }
    const ui::DeckLayout longer(more);
    CHECK(longer.pageHeading(1) == "Summary");
    CHECK(longer.pageHeading(2) == "Summary (continued)");
    CHECK_FALSE(longer.pageHeading(3).startsWith("Summary"));
    const QString pdf2 = dir.filePath("seven.pdf");
    REQUIRE(ui::writeDeckPdf(more, pdf2, &error, {}, store::ExistingFile::Replace));
    const QString first = pageText(pdf2, 2).simplified(), second = pageText(pdf2, 3).simplified();
    for (const ui::DeckSummaryEntry &entry : more.summary)
        CHECK((first.contains(entry.name) != second.contains(entry.name)));  // on exactly one of the two
}

TEST_CASE("One deck, one state: after an edit the chart slides, summary and appendix agree, and a pinned item says "
          "it is older",
          "[deck]")
{
    TempWorkspace ws;
    const QString path = ws.dir.filePath("demo.headroom");
    store::createDemoWorkspace(path);
    store::Workspace workspace(path);
    const QStringList names{"Support bot static", "Support bot elastic"};
    const auto before = evaluate(workspace, names);
    const auto add = [&](store::ReportItem item) {
        ui::stampReportItem(item, workspace);
        workspace.appendReportItem(item);
    };
    add(ui::reportItemFromFigure(ui::scenarioDiagramFigure(before[1])));
    add(ui::reportItemFromFigure(ui::costByTierFigure(before)));
    add(ui::reportItemFromTable("Scenarios: results", {}, ui::DeckTable{{"Metric"}, {{"stale"}}},
                                ui::scenarioReportSource(ui::kComparisonTableSource, {names[0].toStdString(),
                                                                                      names[1].toStdString()})));
    workspace.appendReportItem(ui::pinnedReportItem(workspace, workspace.reportItems().front()));
    {
        // A Cost chart as stored before report items kept their source: a snapshot of the
        // page's own inputs, which the deck can only stamp.
        ui::CostPage cost(workspace);
        ui::ChartFigure figure = cost.chartPanels().first()->figure();
        CHECK(figure.source.value("kind").toString() == "cost-sweep");
        figure.source = {};
        add(ui::reportItemFromFigure(figure));
    }
    REQUIRE(workspace.reportItems().size() == 5);
    CHECK(workspace.reportItems()[0].source.contains("scenario-diagram"));
    CHECK(workspace.reportItems()[4].source.isEmpty());
    CHECK(workspace.reportItems()[3].pinned);

    // Nothing changed yet: no stamps, and the live items are what the page drew.
    const ui::Deck unchanged = ui::workspaceDeck(workspace);
    for (const ui::DeckItem &item : unchanged.items) {
        INFO(item.title.toStdString() << ": " << item.caption.toStdString());
        CHECK_FALSE(item.caption.contains("changed since"));
    }
    CHECK(unchanged.items[0].svg == ui::deckFigureItem(ui::scenarioDiagramFigure(before[1])).svg);

    // The support assistant grows by a quarter, as 200,000 users became 250,000.
    auto workload = *workspace.workload("support-assistant");
    workload.dailyActiveUsers = workload.dailyActiveUsers * 5 / 4;
    workspace.putWorkload(workload);
    const auto after = evaluate(workspace, names);
    const QString monthBefore = QString::fromStdString(engine::scenarioMoneyTable(before[1]).perMonth.total.display());
    const QString monthAfter = QString::fromStdString(engine::scenarioMoneyTable(after[1]).perMonth.total.display());
    REQUIRE(monthAfter != monthBefore);

    const ui::Deck deck = ui::workspaceDeck(workspace);
    REQUIRE(deck.items.size() == 5);
    // The summary, the chart slides and the comparison table: the workspace as it is now.
    const auto summary = std::find_if(deck.summary.begin(), deck.summary.end(),
                                      [&](const ui::DeckSummaryEntry &line) { return line.name == names[1]; });
    REQUIRE(summary != deck.summary.end());
    CHECK(summary->decision.contains(monthAfter));
    CHECK(deck.items[0].svg == ui::deckFigureItem(ui::scenarioDiagramFigure(after[1])).svg);
    CHECK(deck.items[0].svg != ui::deckFigureItem(ui::scenarioDiagramFigure(before[1])).svg);
    CHECK(deck.items[0].caption == ui::scenarioDiagramFigure(after[1]).caption);
    CHECK(deck.items[1].svg == ui::deckFigureItem(ui::costByTierFigure(after)).svg);
    REQUIRE(deck.items[2].kind == ui::DeckItem::Kind::Table);
    CHECK(deck.items[2].title == "Scenarios: results");
    CHECK(deck.items[2].table.rows.size() > 1);
    QString deltaRow;
    for (const QStringList &cells : deck.items[2].table.rows)
        deltaRow += cells.join(QLatin1Char('|')) + QLatin1Char('\n');
    CHECK(deltaRow.contains(monthAfter));
    CHECK_FALSE(deltaRow.contains(monthBefore));
    // The appendix lists the workload as it is now.
    const auto workloads = std::find_if(deck.assumptions.begin(), deck.assumptions.end(),
                                        [](const ui::DeckSection &s) { return s.heading == "Workloads"; });
    REQUIRE(workloads != deck.assumptions.end());
    const auto row = std::find_if(workloads->table.rows.begin(), workloads->table.rows.end(),
                                  [](const QStringList &r) { return r.front() == "support-assistant"; });
    REQUIRE(row != workloads->table.rows.end());
    CHECK(row->join(' ').contains(QLocale(QLocale::English).toString(qlonglong(workload.dailyActiveUsers))));

    // The pinned diagram keeps its picture and says how old it is; so does the Cost snapshot.
    CHECK(deck.items[3].svg == ui::deckFigureItem(ui::scenarioDiagramFigure(before[1])).svg);
    CHECK(deck.items[3].caption.startsWith("Pinned as of "));
    CHECK(deck.items[3].caption.contains("; inputs changed since."));
    CHECK(deck.items[4].caption.startsWith("As of "));
    CHECK(deck.items[4].caption.contains("inputs changed since"));
    const QString warnings = deck.warnings.join('\n');
    CHECK(warnings.contains(QStringLiteral("“%1” is not drawn from the workspace as it is now").arg(deck.items[3].title)));
    CHECK(warnings.contains(QStringLiteral("“%1” is not drawn from the workspace as it is now").arg(deck.items[4].title)));

    // Pinning a snapshot of a page's inputs keeps the date it was taken, not the date pinned.
    const store::ReportItem costItem = workspace.reportItems()[4];
    const store::ReportItem costPinned = ui::pinnedReportItem(workspace, costItem);
    CHECK(costPinned.pinned);
    CHECK(costPinned.takenAt == costItem.takenAt);
    CHECK(costPinned.inputsFingerprint == costItem.inputsFingerprint);
    CHECK(costPinned.content == costItem.content);

    // The PDF says the same: the summary's month, the stamp on the pinned slide.
    QTemporaryDir out;
    const QString pdf = qEnvironmentVariableIsSet("HEADROOM_KEEP_DECK")
        ? qEnvironmentVariable("HEADROOM_KEEP_DECK") + "/one-state-deck.pdf"
        : out.filePath("deck.pdf");
    QString error;
    REQUIRE(ui::writeDeckPdf(deck, pdf, &error, {}, store::ExistingFile::Replace));
    const QString text = run("pdftotext", {pdf, "-"});
    CHECK(text.contains(monthAfter));
    CHECK(text.contains("Pinned as of"));

    // Removing a scenario a live item names keeps its snapshot and says why.
    REQUIRE(workspace.removeScenario(names[1]));
    const ui::Deck orphaned = ui::workspaceDeck(workspace);
    CHECK(orphaned.items[0].caption.contains("cannot be drawn again from the workspace (scenario \"Support bot elastic\" "
                                             "no longer exists)"));
}
