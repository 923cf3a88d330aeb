// Nothing cut at the sizes people use (1280×800 and 1440×900), light and dark: column headers,
// chart legends and axis labels, and the labels the custom painters place.
#include "uitestsupport.h"

#include "engine/partitioning/mig.h"
#include "store/common/demoworkspace.h"
#include "ui/common/chartpanel.h"
#include "ui/common/columnfit.h"
#include "ui/common/columnviews.h"
#include "ui/common/chartstyle.h"
#include "ui/common/page.h"
#include "ui/common/paintedlabel.h"
#include "ui/common/theme.h"
#include "ui/partitioning/miglayoutpainter.h"
#include "ui/partitioning/miglayoutview.h"
#include "ui/partitioning/partitioningpage.h"
#include "ui/fleet/scenariocharts.h"
#include "ui/fleet/scenariodiagramview.h"
#include "ui/fleet/scenariospage.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QToolTip>
#include <QHelpEvent>
#include <QComboBox>
#include <QBarSeries>
#include <QBarSet>
#include <QLineSeries>
#include <QChart>
#include <QCheckBox>
#include <QStyleOptionButton>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QImage>
#include <QPainter>
#include <QStyleOptionHeader>
#include <QTabBar>
#include <QTabWidget>
#include <functional>
#include <QScrollBar>
#include <QTableView>
#include <QTableWidget>
#include <algorithm>
#include <QTreeWidget>
#include <QLegend>
#include <QValueAxis>
#include <QLegendMarker>
#include <QRegularExpression>
#include "ui/inference/kvpage.h"

using namespace headroom;

namespace {

const QSize kSizes[] = {QSize(1280, 800), QSize(1440, 900)};

// Column headers whose text does not fit their section. The rule: a header is never cut; a
// table whose columns together are wider than its viewport scrolls sideways instead (its
// horizontal scroll bar is the deliberate room), so only each section against its own text
// is checked, never the table against the page.
QStringList cutHeaders(QWidget *page)
{
    QStringList cut;
    for (QHeaderView *header : page->findChildren<QHeaderView *>()) {
        if (header->orientation() != Qt::Horizontal || !header->isVisibleTo(page) || !header->model())
            continue;
        auto *table = qobject_cast<QAbstractScrollArea *>(header->parentWidget());
        if (table && table->horizontalScrollBarPolicy() == Qt::ScrollBarAlwaysOff && header->stretchLastSection()
            && header->count() == 1)
            continue;
        for (int i = 0; i < header->count(); ++i) {
            if (header->isSectionHidden(i))
                continue;
            const QString text = header->model()->headerData(i, Qt::Horizontal, Qt::DisplayRole).toString();
            if (text.isEmpty())
                continue;
            QStyleOptionHeader option;
            option.initFrom(header);
            option.section = i;
            option.text = text;
            option.orientation = Qt::Horizontal;
            QFont font = header->font();
            const QVariant fontRole = header->model()->headerData(i, Qt::Horizontal, Qt::FontRole);
            if (fontRole.canConvert<QFont>())
                font = qvariant_cast<QFont>(fontRole);
            option.fontMetrics = QFontMetrics(font);
            const int needed = header->style()->sizeFromContents(QStyle::CT_HeaderSection, &option, QSize(), header).width();
            if (header->sectionSize(i) < needed)
                cut << QStringLiteral("%1 column %2 \"%3\": %4 px of %5")
                           .arg(header->parentWidget()->objectName())
                           .arg(i)
                           .arg(QString(text).replace('\n', ' '))
                           .arg(header->sectionSize(i))
                           .arg(needed);
        }
    }
    return cut;
}

// Texts Qt Charts shortened to fit (legend entries, axis labels, titles end in "…").
QStringList shortenedChartTexts(QWidget *page)
{
    QStringList shortened;
    for (QChartView *view : page->findChildren<QChartView *>()) {
        if (!view->isVisibleTo(page) || !view->chart() || !view->chart()->scene())
            continue;
        for (QGraphicsItem *item : view->chart()->scene()->items()) {
            if (!item->isVisible())
                continue;
            QString text;
            if (auto *rich = qgraphicsitem_cast<QGraphicsTextItem *>(item))
                text = rich->toPlainText();
            else if (auto *simple = qgraphicsitem_cast<QGraphicsSimpleTextItem *>(item))
                text = simple->text();
            if (text.contains(QChar(0x2026)) || text.endsWith(QLatin1String("...")))
                shortened << QStringLiteral("%1: \"%2\"").arg(view->chart()->title(), text);
        }
    }
    return shortened;
}

// Chart texts (axis titles, tick labels, legend entries) whose glyphs, measured with their
// font, are wider than the item Qt Charts gave them or that leave the chart view.
QStringList chartTextsOutside(QWidget *page)
{
    QStringList outside;
    for (QChartView *view : page->findChildren<QChartView *>()) {
        if (!view->isVisibleTo(page) || !view->chart() || !view->chart()->scene())
            continue;
        const QRectF area = view->mapToScene(view->viewport()->rect()).boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5);
        for (QGraphicsItem *item : view->chart()->scene()->items()) {
            if (!item->isVisible())
                continue;
            QString text;
            QFont font;
            if (auto *rich = qgraphicsitem_cast<QGraphicsTextItem *>(item)) {
                text = rich->toPlainText();
                font = rich->font();
            } else if (auto *simple = qgraphicsitem_cast<QGraphicsSimpleTextItem *>(item)) {
                text = simple->text();
                font = simple->font();
            }
            if (text.trimmed().isEmpty())
                continue;
            const QFontMetricsF metrics(font);
            qreal width = 0;
            for (const QString &line : text.split(QRegularExpression("[\\n\\x{2028}]")))
                width = std::max(width, metrics.horizontalAdvance(line));
            const QString where = QStringLiteral("%1: \"%2\"").arg(view->chart()->title(), text);
            if (width > item->boundingRect().width() + 0.5)
                outside << where + QStringLiteral(" needs %1 px, has %2").arg(width).arg(item->boundingRect().width());
            if (!area.contains(item->sceneBoundingRect()))
                outside << where + QStringLiteral(" leaves the chart");
        }
    }
    return outside;
}

// Makes the tab that holds `widget` current in every tab widget above it.
void reveal(QWidget *widget)
{
    for (QWidget *child = widget, *parent = widget->parentWidget(); parent; child = parent, parent = parent->parentWidget())
        if (auto *tabs = qobject_cast<QTabWidget *>(parent))
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->widget(i) == child || tabs->widget(i)->isAncestorOf(child))
                    tabs->setCurrentIndex(i);
}

// Tables shown on `page` whose columns are wider than their viewport, so that some column is
// reached only by scrolling sideways.
QStringList tablesScrollingSideways(QWidget *page)
{
    QStringList wide;
    for (QAbstractItemView *view : page->findChildren<QAbstractItemView *>()) {
        auto *table = qobject_cast<QTableView *>(view);
        if (!table || !table->isVisibleTo(page) || !table->model() || table->model()->rowCount() == 0)
            continue;
        const int columns = table->horizontalHeader()->length();
        if (columns > table->viewport()->width())
            wide << QStringLiteral("%1 (columns %2 px in %3 px)")
                        .arg(table->objectName())
                        .arg(columns)
                        .arg(table->viewport()->width());
    }
    return wide;
}

// What `find` reports on `page` with each tab of each of its tab widgets shown in turn (and
// as first shown), each finding once; the tabs are left as they were.
QStringList onEveryTab(QWidget *page, const std::function<QStringList(QWidget *)> &find)
{
    QStringList found = find(page);
    auto add = [&] {
        for (const QString &f : find(page))
            if (!found.contains(f))
                found << f;
    };
    // Every tab bar, those of tab widgets included (switching the bar switches its widget).
    for (QTabBar *bar : page->findChildren<QTabBar *>()) {
        const int shown = bar->currentIndex();
        for (int i = 0; i < bar->count(); ++i) {
            bar->setCurrentIndex(i);
            QApplication::processEvents();
            QApplication::processEvents();
            add();
        }
        bar->setCurrentIndex(shown);
    }
    QApplication::processEvents();
    return found;
}

} // namespace

TEST_CASE("Column headers fit their sections, tables show every column without scrolling sideways and charts shorten no "
          "legend or axis label, on every tab at 1280×800 and 1440×900")
{
    DemoWindow demo(QSize{});
    ui::MainWindow &window = *demo.window;
    for (const QSize size : kSizes) {
        window.resize(size);
        window.show();
        for (QTreeWidgetItemIterator it(window.navigator()); *it; ++it) {
            if (!(*it)->parent())
                continue;
            const QString title = (*it)->text(0);
            REQUIRE(window.showPage(title));
            QApplication::processEvents();
            INFO(title.toStdString() << " at " << size.width() << "×" << size.height());
            QWidget *page = window.currentPage();
            CHECK(onEveryTab(page, cutHeaders).join("; ").toStdString() == "");
            CHECK(onEveryTab(page, shortenedChartTexts).join("; ").toStdString() == "");
            CHECK(onEveryTab(page, chartTextsOutside).join("; ").toStdString() == "");
            QStringList wide = onEveryTab(page, tablesScrollingSideways);
            // The catalog and rate-card grids hold every field of an entry, one column each, as a
            // spreadsheet does: they scroll sideways by design, their headers whole.
            const QStringList grids{"gpuTable", "modelTable", "rateCardTable"};
            wide.erase(std::remove_if(wide.begin(), wide.end(),
                                      [&](const QString &t) { return grids.contains(t.section(' ', 0, 0)); }),
                       wide.end());
            CHECK(wide.join("; ").toStdString() == "");
        }
    }
    // The checks see a cut header and a shortened legend entry.
    auto *table = new QTableWidget(1, 1, window.currentPage());
    table->setObjectName("narrow");
    table->setHorizontalHeaderLabels({QStringLiteral("A header much wider than its column")});
    table->horizontalHeader()->resizeSection(0, 40);
    table->show();
    CHECK(cutHeaders(window.currentPage()).filter("narrow column 0").size() == 1);
    // ... and a table wider than its viewport.
    table->horizontalHeader()->resizeSection(0, 4000);
    QApplication::processEvents();
    CHECK(tablesScrollingSideways(window.currentPage()).filter("narrow").size() == 1);
    delete table;
    auto *view = new QChartView(window.currentPage());
    auto *chart = new QChart;
    chart->setTitle("narrow");
    auto *line = new QLineSeries;
    line->append(0, 0);
    line->append(1, 1);
    chart->addSeries(line);
    chart->createDefaultAxes();
    chart->axes(Qt::Vertical).first()->setTitleText("An axis title far longer than a small chart is tall");
    view->setChart(chart);
    view->resize(220, 160);
    view->show();
    QApplication::processEvents();
    CHECK(shortenedChartTexts(window.currentPage()).filter("narrow").size() >= 1);
    chart->scene()->addSimpleText("stray")->setPos(-400, -400);
    CHECK(chartTextsOutside(window.currentPage()).filter("stray").size() == 1);
    delete view;
}

TEST_CASE("The KV chart's legend entries read differently and fit, at 1280×800 and 1440×900")
{
    DemoWindow demo(QSize{});
    ui::MainWindow &window = *demo.window;
    for (const QSize size : kSizes) {
        window.resize(size);
        window.show();
        REQUIRE(window.showPage("KV & concurrency"));
        QApplication::processEvents();
        INFO(size.width() << "×" << size.height());
        auto *panel = window.currentPage()->findChild<ui::ChartPanel *>();
        REQUIRE(panel);
        QChart *chart = panel->chart();
        REQUIRE(chart);
        QLegend *legend = chart->legend();
        REQUIRE(legend->isVisible());
        const QRectF legendArea = legend->sceneBoundingRect().adjusted(-0.5, -0.5, 0.5, 0.5);
        QStringList shown;
        // Each marker is an item (inside the legend's group) holding its swatch and its text.
        QList<QGraphicsItem *> items = legend->childItems();
        for (qsizetype i = 0; i < items.size(); ++i)
            items << items[i]->childItems();
        {
            for (QGraphicsItem *child : items) {
                auto *text = qgraphicsitem_cast<QGraphicsTextItem *>(child);
                if (!text || !text->isVisible() || text->toPlainText().isEmpty())
                    continue;
                const QString visible = text->toPlainText();
                INFO(visible.toStdString());
                const qreal needed = QFontMetricsF(text->font()).horizontalAdvance(visible);
                CHECK(needed <= text->boundingRect().width() + 0.5);
                CHECK(legendArea.contains(text->sceneBoundingRect()));
                CHECK_FALSE(visible.contains(QChar(0x2026)));
                shown << visible;
            }
        }
        int variants = 0;
        for (QLegendMarker *marker : legend->markers())
            variants += marker->isVisible() ? 1 : 0;
        CHECK(shown.size() == variants);
        CHECK(shown.size() >= 4);
        QStringList distinct = shown;
        distinct.removeDuplicates();
        CHECK(distinct.size() == shown.size());
    }
}

TEST_CASE("Labels of the scenario diagram and the MIG view are whole, inside the view and apart, light and dark")
{
    DemoWindow demo(QSize{});
    ui::MainWindow &window = *demo.window;
    for (const ui::Theme theme : {ui::Theme::Light, ui::Theme::Dark}) {
        ui::applyTheme(theme);
        for (const QSize size : kSizes) {
            window.resize(size);
            window.show();
            INFO((theme == ui::Theme::Dark ? "dark" : "light") << " at " << size.width() << "×" << size.height());

            REQUIRE(window.showPage("Scenarios"));
            window.scenariosPage()->selectScenario("Chatbot core + flex");
            auto *diagram = window.currentPage()->findChild<ui::ScenarioDiagramView *>();
            REQUIRE(diagram);
            reveal(diagram);
            QApplication::processEvents();
            INFO("scenario " << window.scenariosPage()->currentName().toStdString());
            REQUIRE(window.scenariosPage()->result().has_value());
            REQUIRE(diagram->result().has_value());
            diagram->grab();
            CHECK(diagram->paintedLabels().size() > 10);
            CHECK(ui::paintedLabelProblems(diagram->paintedLabels(), diagram->rect()).join("; ").toStdString() == "");
            // Whole, not shortened: names wrap, details go to smaller type on more lines.
            QStringList elided;
            for (const ui::PaintedLabel &label : diagram->paintedLabels())
                if (label.elided())
                    elided << label.text + " for " + label.fullText;
            CHECK(elided.join("; ").toStdString() == "");

            REQUIRE(window.showPage("Partitioning"));
            ui::MigLayoutView *mig = window.partitioningPage()->layoutView();
            REQUIRE(mig);
            reveal(mig);
            QApplication::processEvents();
            REQUIRE_FALSE(mig->picture().layouts.empty());
            mig->grab();
            CHECK(mig->paintedLabels().size() > 3);
            CHECK(ui::paintedLabelProblems(mig->paintedLabels(), mig->rect()).join("; ").toStdString() == "");
        }
    }
    ui::applyTheme(ui::Theme::Light);
}

TEST_CASE("The scenario diagram keeps its axis caption and peak label whole at its narrowest")
{
    DemoWindow demo(QSize{});
    demo.window->resize(1440, 900);
    demo.window->show();
    REQUIRE(demo.window->showPage("Scenarios"));
    demo.window->scenariosPage()->selectScenario("Chatbot core + flex");
    auto *diagram = demo.window->currentPage()->findChild<ui::ScenarioDiagramView *>();
    REQUIRE(diagram);
    reveal(diagram);
    QApplication::processEvents();
    REQUIRE(diagram->result().has_value());
    const engine::ScenarioResult result = *diagram->result();
    for (const QSize size : {diagram->minimumSize(), QSize(620, 300), QSize(900, 420)}) {
        INFO(size.width() << "×" << size.height());
        QImage image(size, QImage::Format_ARGB32);
        QPainter painter(&image);
        ui::PaintedLabels labels;
        ui::paintScenarioDiagram(painter, QRectF(QPointF(0, 0), size), result, ui::figureInk(QChart::ChartThemeLight),
                                 &labels);
        painter.end();
        CHECK(ui::paintedLabelProblems(labels, QRectF(QPointF(0, 0), size)).join("; ").toStdString() == "");
        const auto caption = std::find_if(labels.begin(), labels.end(), [](const ui::PaintedLabel &l) {
            return l.fullText.startsWith("Hour");
        });
        REQUIRE(caption != labels.end());
        const auto peak = std::find_if(labels.begin(), labels.end(), [](const ui::PaintedLabel &l) {
            return l.fullText.startsWith("peak ");
        });
        REQUIRE(peak != labels.end());
        if (size.width() >= 620) {
            CHECK_FALSE(caption->elided());
            CHECK_FALSE(peak->elided());
        }
    }
}

TEST_CASE("A MIG block too narrow for tenant and profile is shortened in the middle, its tooltip whole")
{
    engine::MigGpuProfiles profiles;
    profiles.gpuId = "h100-sxm";
    profiles.memorySlices = 8;
    profiles.computeSlices = 7;
    engine::MigProfile one;
    one.name = "1g.10gb";
    one.memorySlices = 1;
    one.computeSlices = 1;
    one.memoryGB = 10;
    one.starts = {0, 1, 2, 3, 4, 5, 6};
    one.maxInstances = 7;
    profiles.profiles = {one};
    ui::MigLayoutPicture picture;
    picture.title = "MIG layout";
    picture.profiles = &profiles;
    engine::MigLayout layout;
    for (int s = 0; s < 7; ++s)
        layout.push_back({"1g.10gb", s, "tool-0" + std::to_string(s + 1)});
    picture.layouts = {layout, layout};

    ui::MigLayoutView view;
    view.setPicture(picture);
    view.resize(view.minimumWidth(), view.minimumHeight());
    view.grab();
    const ui::PaintedLabels &labels = view.paintedLabels();
    CHECK(ui::paintedLabelProblems(labels, view.rect()).join("; ").toStdString() == "");
    const auto block = std::find_if(labels.begin(), labels.end(),
                                    [](const ui::PaintedLabel &l) { return l.fullText == "tool-01 · 1g.10gb"; });
    REQUIRE(block != labels.end());
    CHECK(block->elided());
    // The tenant whole when it fits, else the whole label shortened in the middle.
    const QFontMetricsF metrics(QApplication::font());
    CHECK(ui::migBlockLabel(metrics, "tool-01", "1g.10gb", metrics.horizontalAdvance("tool-01") + 1) == "tool-01");
    const QString squeezed = ui::migBlockLabel(metrics, "tool-01", "1g.10gb", metrics.horizontalAdvance("tool-0"));
    CHECK(squeezed.contains(QChar(0x2026)));
    CHECK(squeezed.startsWith("t"));
    CHECK(squeezed.endsWith("b"));
    CHECK((block->text == "tool-01" || block->text.contains(QChar(0x2026))));
    const ui::PaintedLabel *under = ui::elidedLabelAt(labels, block->box.center());
    REQUIRE(under);
    CHECK(under->fullText == "tool-01 · 1g.10gb");
    // The legend wraps instead of running off the right edge.
    const auto legend = std::find_if(labels.begin(), labels.end(),
                                     [](const ui::PaintedLabel &l) { return l.text.startsWith("Each row:"); });
    REQUIRE(legend != labels.end());
    CHECK(legend->bounds.right() <= view.width());
    CHECK(legend->fullText == legend->text);
}

TEST_CASE("Series have the same colours in order on a dark screen and in the light export")
{
    auto build = [](QChart::ChartTheme theme) {
        QChart *chart = ui::newStyledChart("colours", theme);
        for (int i = 0; i < 3; ++i)
            chart->addSeries(new QLineSeries);
        auto *bars = new QBarSeries;
        bars->append(new QBarSet("a"));
        bars->append(new QBarSet("b"));
        chart->addSeries(bars);
        auto *own = new QLineSeries;
        own->setColor(QColor(0x12, 0x34, 0x56));
        chart->addSeries(own);
        ui::shareSeriesColours(chart, theme);
        return std::unique_ptr<QChart>(chart);
    };
    auto colours = [](QChart *chart) {
        QStringList names;
        for (QAbstractSeries *s : chart->series()) {
            if (auto *xy = qobject_cast<QXYSeries *>(s))
                names << xy->color().name();
            else if (auto *bars = qobject_cast<QBarSeries *>(s))
                for (QBarSet *set : bars->barSets())
                    names << set->color().name();
        }
        return names;
    };
    const auto light = build(QChart::ChartThemeLight);
    const auto dark = build(QChart::ChartThemeDark);
    const QStringList lightColours = colours(light.get());
    CHECK(lightColours.size() == 6);
    CHECK(colours(dark.get()) == lightColours);
    CHECK(lightColours.back() == "#123456");
    // Without the shared order the themes differ: the check can fail.
    std::unique_ptr<QChart> raw(ui::newStyledChart("raw", QChart::ChartThemeDark));
    auto *first = new QLineSeries;
    raw->addSeries(first);
    CHECK(first->color().name() != lightColours.front());
}

TEST_CASE("An unchecked check box stands out from a dark window")
{
    // The strongest luminance step between the window and the check box's indicator.
    auto contrast = [](ui::Theme theme) {
        ui::applyTheme(theme);
        QWidget window;
        auto *box = new QCheckBox(QStringLiteral("Separate prefill and decode pools"), &window);
        box->move(10, 10);
        box->adjustSize();
        window.resize(box->width() + 20, box->height() + 20);
        window.show();
        QApplication::processEvents();
        const QImage image = window.grab().toImage();
        QStyleOptionButton option;
        option.initFrom(box);
        const QRect indicator =
            box->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, box).translated(box->pos());
        const int background = qGray(window.palette().color(QPalette::Window).rgb());
        int strongest = 0;
        const qreal ratio = image.devicePixelRatio();
        for (int y = indicator.top(); y <= indicator.bottom(); ++y)
            for (int x = indicator.left(); x <= indicator.right(); ++x)
                strongest = std::max(strongest, std::abs(qGray(image.pixel(int(x * ratio), int(y * ratio))) - background));
        return strongest;
    };
    const int light = contrast(ui::Theme::Light);
    const int dark = contrast(ui::Theme::Dark);
    ui::applyTheme(ui::Theme::Light);
    INFO("light " << light << ", dark " << dark);
    // Fusion's light outline is the reference; the dark one must stand out at least as much.
    CHECK(light >= 40);
    CHECK(dark >= light);
}

TEST_CASE("A combo box too narrow for its text shows it shortened in the middle and whole in its tooltip")
{
    ui::applyTheme(ui::Theme::Light);
    QWidget window;
    auto *box = new QComboBox(&window);
    const QString longText = QStringLiteral("AWS · us-east-1 · gpu_8x_h100_sxm5 · 2025-06-01");
    box->addItem(longText);
    box->setToolTip(QStringLiteral("The rate card"));
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(8);
    box->setFixedWidth(160);
    window.show();
    QApplication::processEvents();
    QHelpEvent tip(QEvent::ToolTip, QPoint(10, 10), box->mapToGlobal(QPoint(10, 10)));
    QApplication::sendEvent(box, &tip);
    CHECK(QToolTip::isVisible());
    CHECK(QToolTip::text() == longText + "\n\nThe rate card");
    QToolTip::hideText();
    // Wide enough: the box's own tooltip only.
    box->setFixedWidth(600);
    QApplication::processEvents();
    QHelpEvent wideTip(QEvent::ToolTip, QPoint(10, 10), box->mapToGlobal(QPoint(10, 10)));
    QApplication::sendEvent(box, &wideTip);
    CHECK(QToolTip::text() != longText + "\n\nThe rate card");
    QToolTip::hideText();
}

TEST_CASE("ColumnFit narrows the wordy column to fit, keeps figures on one line and grows the rows that wrap")
{
    QWidget window;
    window.resize(420, 300);
    auto *table = new QTableWidget(2, 3, &window);
    table->setGeometry(0, 0, 420, 300);
    table->setHorizontalHeaderLabels({QStringLiteral("Note"), QStringLiteral("Cost"), QStringLiteral("GPUs")});
    const QString wordy = QStringLiteral("A long explanation in many words that cannot fit the column on one line, nor on "
                                         "two, as a reviewer's note about where a figure comes from often is");
    table->setItem(0, 0, new QTableWidgetItem(wordy));
    table->setItem(1, 0, new QTableWidgetItem(QStringLiteral("short")));
    for (int row = 0; row < 2; ++row) {
        auto *money = new QTableWidgetItem(QStringLiteral("$9,125,428.51"));
        money->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, 1, money);
        auto *gpus = new QTableWidgetItem(QStringLiteral("240 + 80"));
        gpus->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, 2, gpus);
    }
    window.show();
    ui::ColumnFit::fitColumns(table);
    QApplication::processEvents();
    QApplication::processEvents();
    const QFontMetrics metrics(table->font());
    // Everything in view, the note narrowed; each figure whole on its line.
    CHECK(table->horizontalHeader()->length() <= table->viewport()->width());
    CHECK(table->columnWidth(0) < metrics.horizontalAdvance(wordy));
    CHECK(table->columnWidth(1) > metrics.horizontalAdvance(QStringLiteral("$9,125,428.51")));
    CHECK(table->columnWidth(2) > metrics.horizontalAdvance(QStringLiteral("240 + 80")));
    // The wrapped row is taller than the one-line row.
    CHECK(table->rowHeight(0) > table->rowHeight(1));
    // Widened, the note takes one line again.
    window.resize(2000, 300);
    table->setGeometry(0, 0, 2000, 300);
    QApplication::processEvents();
    QApplication::processEvents();
    CHECK(table->columnWidth(0) >= metrics.horizontalAdvance(wordy));
    CHECK(table->rowHeight(0) == table->rowHeight(1));
}

TEST_CASE("ColumnViews shows each view's columns and keeps the model's columns and numbers")
{
    QWidget window;
    auto *table = new QTableWidget(1, 5, &window);
    table->setObjectName("wideTable");
    ui::ColumnViews views(table, {{QStringLiteral("First"), QString(), [](int c) { return c <= 2; }},
                                  {QStringLiteral("Second"), QString(), [](int c) { return c == 0 || c >= 3; }}});
    CHECK(views.objectName() == "wideTableViews");
    CHECK(views.count() == 2);
    auto shown = [&] {
        QList<int> columns;
        for (int c = 0; c < table->columnCount(); ++c)
            if (!table->isColumnHidden(c))
                columns << c;
        return columns;
    };
    CHECK(shown() == QList<int>{0, 1, 2});
    views.setCurrentIndex(1);
    CHECK(shown() == QList<int>{0, 3, 4});
    CHECK(table->columnCount() == 5);
    // Columns added later follow the view shown.
    table->setColumnCount(7);
    CHECK(shown() == QList<int>{0, 3, 4, 5, 6});
}

TEST_CASE("Left panels neither clip nor scroll sideways on any page, light and dark, after switching the palette")
{
    DemoWindow demo(QSize{});
    ui::MainWindow &window = *demo.window;
    // Scroll areas whose content is wider than their viewport, and forms whose fields are narrower
    // than the text they hold.
    auto sideways = [](QWidget *page) {
        QStringList found;
        for (QScrollArea *area : page->findChildren<QScrollArea *>()) {
            if (!area->isVisibleTo(page) || !area->widget())
                continue;
            if (area->horizontalScrollBar()->maximum() > 0)
                found << QStringLiteral("%1 scrolls sideways by %2 px")
                             .arg(area->objectName().isEmpty() ? area->widget()->metaObject()->className()
                                                               : area->objectName())
                             .arg(area->horizontalScrollBar()->maximum());
            else if (area->widget()->width() > area->viewport()->width() + 1)
                found << QStringLiteral("%1 clipped: %2 px in %3 px")
                             .arg(area->objectName())
                             .arg(area->widget()->width())
                             .arg(area->viewport()->width());
        }
        return found;
    };
    for (const ui::Theme theme : {ui::Theme::Dark, ui::Theme::Light}) {
        for (const QSize size : kSizes) {
            window.resize(size);
            window.show();
            ui::applyTheme(theme);  // switched with the window open, as View ▸ Theme does
            QApplication::processEvents();
            for (QTreeWidgetItemIterator it(window.navigator()); *it; ++it) {
                if (!(*it)->parent() || !window.showPage((*it)->text(0)))
                    continue;
                QApplication::processEvents();
                INFO((*it)->text(0).toStdString() << " at " << size.width() << "×" << size.height()
                                                  << (theme == ui::Theme::Dark ? " dark" : " light"));
                CHECK(onEveryTab(window.currentPage(), sideways).join("; ").toStdString() == "");
            }
        }
    }
    ui::applyTheme(ui::Theme::Light);
}
