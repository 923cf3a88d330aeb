#include "reportsnapshot.h"

#include "common/chartstyle.h"
#include "common/format.h"
#include "cost/costanalysis.h"
#include "reportreads.h"
#include "fleet/scenariodeck.h"
#include "inference/kvchart.h"
#include "inference/kvlevers.h"
#include "inference/sizingcharts.h"
#include "partitioning/migfigure.h"
#include "tracking/trackingsource.h"
#include "training/clusterpanel.h"
#include "training/goodputpanel.h"
#include "training/trainingsizing.h"

#include "engine/common/errors.h"
#include "engine/fleet/scenario.h"
#include "store/fleet/scenarioinputs.h"

#include "engine/common/money.h"
#include "store/common/workspace.h"

#include <QBuffer>
#include <QChart>
#include <QDate>
#include <QDateTime>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QPainter>
#include <QPaintEngine>
#include <QPicture>
#include <QSvgGenerator>
#include <QTableWidget>
#include <algorithm>
#include <cmath>
#include <memory>
#include <map>
#include <set>

namespace headroom::ui {

namespace {

// A figure's QPicture recording rides in its SVG as a metadata element, which SVG readers
// ignore: the stored item stays one SVG document.
constexpr char kPictureOpen[] = "<metadata id=\"headroom-picture\" encoding=\"base64\">";
constexpr char kPictureClose[] = "</metadata>";

// The recording and the canvas (the SVG's view box) of a figure stored by reportItemFromFigure.
void figurePicture(const QByteArray &svg, QByteArray *picture, QSizeF *canvas)
{
    const qsizetype open = svg.indexOf(kPictureOpen);
    const qsizetype close = open < 0 ? -1 : svg.indexOf(kPictureClose, open);
    static const QRegularExpression viewBox(QStringLiteral("viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\""));
    const QRegularExpressionMatch box = viewBox.match(QString::fromUtf8(svg.left(1000)));
    if (close < 0 || !box.hasMatch())
        return;
    const qsizetype begin = open + qsizetype(qstrlen(kPictureOpen));
    *picture = QByteArray::fromBase64(svg.mid(begin, close - begin));
    *canvas = QSizeF(box.captured(1).toDouble(), box.captured(2).toDouble());
}

// A paint device that draws nothing and keeps the size of the smallest text drawn on it, in
// points at its 96 dpi: a custom painter's smallest font as it comes out at a given size.
class SmallestTextProbe : public QPaintDevice {
public:
    explicit SmallestTextProbe(const QSize &size)
        : m_size(size)
    {
    }
    // 0 when no text was drawn.
    qreal smallestPoints() const { return m_engine->smallest; }
    QPaintEngine *paintEngine() const override { return m_engine.get(); }

protected:
    int metric(PaintDeviceMetric metric) const override
    {
        switch (metric) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
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
        Engine()
            : QPaintEngine(AllFeatures)
        {
        }
        qreal smallest = 0;
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
            if (item.text().trimmed().isEmpty())
                return;
            const QFont font = item.font();
            const qreal pixels = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 96.0 / 72.0;
            const qreal points = pixels * std::sqrt(std::abs(m_transform.determinant())) * 0.75;
            smallest = smallest > 0 ? std::min(smallest, points) : points;
        }
        Type type() const override { return User; }

    private:
        QTransform m_transform;
    };
    QSize m_size;
    std::unique_ptr<Engine> m_engine = std::make_unique<Engine>();
};

// The smallest text of `figure` drawn into a canvas of `size`, in points (0 without text).
qreal smallestTextAt(const ChartFigure &figure, const QSizeF &size)
{
    SmallestTextProbe probe(size.toSize());
    QPainter painter(&probe);
    renderFigure(painter, QRectF(QPointF(0, 0), size), figure);
    painter.end();
    return probe.smallestPoints();
}

// A custom-painted view keeps its own fonts (7 to 8.5 pt on screen): it is drawn on a canvas
// of the slide figure's shape, smaller by the factor that brings its smallest text to
// kSlideMinPointSize when the deck scales it up to the figure box. Painters pick smaller type
// on smaller canvases, so the factor is measured again at the canvas it gives, a few times.
QSizeF paintedSlideCanvas(const ChartFigure &figure)
{
    const QSizeF slide(kSlideFigureWidth, kSlideFigureHeight);
    qreal scale = 1.6;
    for (int round = 0; round < 4; ++round) {
        const qreal smallest = smallestTextAt(figure, slide / scale);
        if (smallest <= 0)
            break;
        if (smallest * scale >= kSlideMinPointSize)
            break;
        scale = kSlideMinPointSize / smallest * 1.001;
    }
    return slide / scale;
}

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

QString number(double value, int decimals = 0)
{
    return QLocale(QLocale::English).toString(value, 'f', decimals);
}

QString rate(const engine::Decimal &amount, const std::string &currency)
{
    if (amount.isZero())
        return QStringLiteral("—");
    return text(engine::Money{amount, currency}.displayRate());
}

QString sourceText(const QJsonObject &source)
{
    return source.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(source).toJson(QJsonDocument::Compact));
}

QString tableJson(const DeckTable &table)
{
    QJsonArray rows;
    for (const QStringList &row : table.rows)
        rows.append(QJsonArray::fromStringList(row));
    QJsonObject object;
    object.insert(QStringLiteral("columns"), QJsonArray::fromStringList(table.columns));
    object.insert(QStringLiteral("rows"), rows);
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// The columns of `table` at the indexes `shown`, in that order.
DeckTable withColumns(const DeckTable &table, const QJsonArray &shown)
{
    std::vector<qsizetype> columns;
    for (const QJsonValue &column : shown)
        if (column.toInt() >= 0 && column.toInt() < table.columns.size())
            columns.push_back(column.toInt());
    DeckTable kept;
    for (qsizetype column : columns)
        kept.columns << table.columns[column];
    for (const QStringList &row : table.rows) {
        QStringList cells;
        for (qsizetype column : columns)
            cells << (column < row.size() ? row[column] : QString());
        kept.rows << cells;
    }
    return kept;
}

std::optional<DeckTable> tableFromJson(const QString &json)
{
    const QJsonDocument document = QJsonDocument::fromJson(json.toUtf8());
    if (!document.isObject())
        return std::nullopt;
    DeckTable table;
    for (const QJsonValue &column : document.object().value(QStringLiteral("columns")).toArray())
        table.columns << column.toString();
    for (const QJsonValue &row : document.object().value(QStringLiteral("rows")).toArray()) {
        QStringList cells;
        for (const QJsonValue &cell : row.toArray())
            cells << (cell.isString() ? cell.toString() : cell.toVariant().toString());
        table.rows << cells;
    }
    if (table.columns.isEmpty())
        return std::nullopt;
    return table;
}

// The rate cards in force today: the latest effective date not after today per history.
std::vector<engine::RateCard> cardsInForce(const store::Workspace &workspace)
{
    const std::vector<engine::RateCard> cards = workspace.rateCards();
    const std::string today = QDate::currentDate().toString(Qt::ISODate).toStdString();
    std::set<std::string> histories;
    std::vector<engine::RateCard> inForce;
    for (const auto &card : cards) {
        if (!histories.insert(card.historyKey()).second)
            continue;
        if (const engine::RateCard *current = engine::cardInForce(cards, card.historyKey(), today))
            inForce.push_back(*current);
    }
    return inForce;
}

} // namespace

static std::vector<DeckSection> workspaceAssumptionsOf(const store::Workspace &workspace, const DeckSubjects *subjects);
static QStringList workspaceWarningsOf(const store::Workspace &workspace, const DeckSubjects *subjects);

store::ReportItem reportItemFromFigure(const ChartFigure &figure)
{
    // The deck page shows the title and caption: the figure goes in without them.
    ChartFigure bare = figure;
    bare.caption.clear();
    if (bare.paint) {
        const auto paint = figure.paint;
        // Its own title band is drawn above the view box, where the deck clips it off.
        bare.paint = [paint](QPainter &painter, const QRectF &rect, const FigureInk &ink) {
            paint(painter, rect.adjusted(0, -kPaintedTitleHeight, 0, 0), ink);
        };
    }
    // Drawn for the slide: a chart is laid out at the size of the deck's figure box with its
    // text at least kSlideMinPointSize; a custom-painted view keeps its own fonts and is drawn
    // on a canvas of the box's shape as much smaller as its smallest text needs to come out at
    // kSlideMinPointSize when the deck scales it up (paintedSlideCanvas).
    QSizeF canvas(kSlideFigureWidth, kSlideFigureHeight);
    if (bare.build) {
        const auto build = figure.build;
        bare.build = [build](QChart::ChartTheme theme) {
            QChart *chart = build(theme);
            chart->setTitle(QString());
            styleChartForSlide(chart, kSlideMinPointSize, QSizeF(kSlideFigureWidth, kSlideFigureHeight));
            return chart;
        };
    } else {
        canvas = paintedSlideCanvas(bare);
    }
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(canvas.toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), canvas));
        svg.setResolution(96);
        svg.setTitle(figure.title);
        svg.setDescription(figure.caption);
        QPainter painter(&svg);
        painter.setRenderHint(QPainter::Antialiasing);
        renderFigure(painter, QRectF(QPointF(0, 0), canvas), bare);
    }
    // The same drawing recorded for the deck, which replays it with its text as text.
    QByteArray recorded;
    {
        QPicture picture;
        {
            QPainter painter(&picture);
            painter.setRenderHint(QPainter::Antialiasing);
            renderFigure(painter, QRectF(QPointF(0, 0), canvas), bare);
        }
        QBuffer out(&recorded);
        out.open(QIODevice::WriteOnly);
        picture.save(&out);
    }
    QByteArray svgText = buffer.data();
    const qsizetype end = svgText.lastIndexOf("</svg>");
    if (end >= 0)
        svgText.insert(end, QByteArray(kPictureOpen) + recorded.toBase64() + kPictureClose + '\n');
    store::ReportItem item;
    item.kind = store::ReportItem::Kind::Figure;
    item.title = figure.title.isEmpty() ? QObject::tr("Chart") : figure.title;
    item.caption = figure.caption;
    item.content = QString::fromUtf8(svgText);
    item.source = sourceText(figure.source);
    return item;
}

store::ReportItem reportItemFromTable(const QString &title, const QString &caption, const DeckTable &table,
                                      const QJsonObject &source)
{
    store::ReportItem item;
    item.kind = store::ReportItem::Kind::Table;
    item.title = title;
    item.caption = caption;
    item.content = tableJson(table);
    item.source = sourceText(source);
    return item;
}

void stampReportItem(store::ReportItem &item, const store::Workspace &workspace)
{
    item.takenAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    item.inputsFingerprint = workspace.inputsFingerprint();
}

std::optional<store::ReportItem> redrawReportItem(const store::Workspace &workspace, const store::ReportItem &item,
                                                  QString *problem)
{
    problem->clear();
    if (item.source.isEmpty())
        return std::nullopt;
    const QJsonObject source = QJsonDocument::fromJson(item.source.toUtf8()).object();
    // A long run's item is what a new run would draw while nothing it read changed.
    if (auto unchanged = unchangedRunItem(workspace, source, item, problem))
        return unchanged;
    if (!problem->isEmpty())
        return std::nullopt;
    if (auto redrawn = scenarioReportItem(workspace, source, item, problem))
        return redrawn;
    // Each page's items: an analysis that does not know the kind leaves *problem empty.
    for (auto redraw : {sizingReportItem, kvReportItem, kvLeverReportItem, partitioningReportItem, trackingReportItem, trainingReportItem,
                        goodputReportItem, clusterReportItem, costReportItem}) {
        if (!problem->isEmpty())
            break;
        if (auto redrawn = redraw(workspace, source, problem)) {
            // A table keeps the title and caption it was added with; a figure's are drawn with it.
            // and shows the columns the page showed.
            if (redrawn->kind == store::ReportItem::Kind::Table) {
                redrawn->title = item.title;
                redrawn->caption = item.caption;
                const QJsonArray shown = source.value(QStringLiteral("shown_columns")).toArray();
                if (const std::optional<DeckTable> table = tableFromJson(redrawn->content); table && !shown.isEmpty())
                    redrawn->content = tableJson(withColumns(*table, shown));
            }
            return redrawn;
        }
    }
    if (problem->isEmpty())
        *problem = QObject::tr("this version of Headroom does not know its source \"%1\"")
                       .arg(source.value(QStringLiteral("kind")).toString());
    return std::nullopt;
}

store::ReportItem pinnedReportItem(const store::Workspace &workspace, const store::ReportItem &item)
{
    QString problem;
    const std::optional<store::ReportItem> redrawn = redrawReportItem(workspace, item, &problem);
    // Drawn now, it is stamped now; a snapshot that cannot be drawn again keeps its own date.
    store::ReportItem pinned = redrawn.value_or(item);
    pinned.source = item.source;
    pinned.pinned = true;
    if (redrawn)
        stampReportItem(pinned, workspace);
    return pinned;
}

QString reportItemTakenText(const store::ReportItem &item)
{
    const QDateTime taken = QDateTime::fromString(item.takenAt, Qt::ISODate);
    return taken.isValid() ? QLocale(QLocale::English).toString(taken.toUTC(), QStringLiteral("d MMMM yyyy, HH:mm 'UTC'"))
                           : QString();
}

QString reportItemStamp(const store::ReportItem &item, const QString &inputsFingerprint, const QString &problem)
{
    const QString asOf = reportItemTakenText(item);
    if (!problem.isEmpty())
        return asOf.isEmpty() ? QObject::tr("A snapshot: it cannot be drawn again from the workspace (%1).").arg(problem)
                              : QObject::tr("As of %1: it cannot be drawn again from the workspace (%2).")
                                    .arg(asOf, problem);
    if (asOf.isEmpty() || item.inputsFingerprint.isEmpty())
        return QObject::tr("A snapshot of unknown date: the workspace's inputs may have changed since.");
    if (item.inputsFingerprint == inputsFingerprint)
        return {};
    return (item.pinned ? QObject::tr("Pinned as of %1; inputs changed since.")
                        : QObject::tr("As of %1; inputs changed since."))
        .arg(asOf);
}

std::optional<DeckTable> snapshotTable(const QTableWidget &widget)
{
    DeckTable table;
    std::vector<int> shown;
    for (int column = 0; column < widget.columnCount(); ++column) {
        if (widget.isColumnHidden(column))
            continue;
        shown.push_back(column);
        const QTableWidgetItem *header = widget.horizontalHeaderItem(column);
        table.columns << (header ? header->text() : QString::number(column + 1));
    }
    for (int row = 0; row < widget.rowCount(); ++row) {
        if (widget.isRowHidden(row))
            continue;
        QStringList cells;
        for (int column : shown) {
            const QTableWidgetItem *item = widget.item(row, column);
            cells << (item ? item->text() : QString());
        }
        table.rows << cells;
    }
    if (table.columns.isEmpty() || table.rows.isEmpty())
        return std::nullopt;
    return table;
}

DeckItem deckFigureItem(const ChartFigure &figure)
{
    return deckItemFromReportItem(reportItemFromFigure(figure));
}

DeckItem deckTableItem(const QString &title, const QString &caption, const DeckTable &table)
{
    DeckItem item;
    item.kind = DeckItem::Kind::Table;
    item.title = title;
    item.caption = caption;
    item.table = table;
    return item;
}

DeckItem deckItemFromReportItem(const store::ReportItem &item)
{
    DeckItem deckItem;
    deckItem.title = item.title;
    deckItem.caption = item.caption;
    switch (item.kind) {
    case store::ReportItem::Kind::Figure:
        deckItem.kind = DeckItem::Kind::Figure;
        deckItem.svg = item.content.toUtf8();
        figurePicture(deckItem.svg, &deckItem.picture, &deckItem.canvas);
        break;
    case store::ReportItem::Kind::Table:
        if (const auto table = tableFromJson(item.content)) {
            deckItem.kind = DeckItem::Kind::Table;
            deckItem.table = *table;
        } else {
            deckItem.kind = DeckItem::Kind::Text;
            deckItem.text = item.content;
        }
        break;
    case store::ReportItem::Kind::Text:
        deckItem.kind = DeckItem::Kind::Text;
        deckItem.text = item.content;
        break;
    }
    return deckItem;
}

std::vector<DeckSection> workspaceAssumptions(const store::Workspace &workspace)
{
    return workspaceAssumptionsOf(workspace, nullptr);
}

std::vector<DeckSection> workspaceAssumptions(const store::Workspace &workspace, const DeckSubjects &subjects)
{
    std::vector<DeckSection> sections = workspaceAssumptionsOf(workspace, &subjects);
    sections.erase(std::remove_if(sections.begin(), sections.end(),
                                  [](const DeckSection &section) { return section.table.rows.isEmpty(); }),
                   sections.end());
    return sections;
}

static std::vector<DeckSection> workspaceAssumptionsOf(const store::Workspace &workspace, const DeckSubjects *subjects)
{
    DeckSection cards{QObject::tr("Rate cards in force (per GPU-hour)"), {}};
    cards.table.columns = {QObject::tr("Provider"),  QObject::tr("Region"),  QObject::tr("GPU"),
                           QObject::tr("Effective"), QObject::tr("On-demand"), QObject::tr("1-year"),
                           QObject::tr("3-year"),    QObject::tr("Spot"),    QObject::tr("Lead time")};
    for (const auto &card : cardsInForce(workspace)) {
        if (subjects && !subjects->gpus.contains(text(card.gpuId)))
            continue;
        cards.table.rows << QStringList{text(card.provider),
                                        text(card.region),
                                        text(card.gpuId),
                                        text(card.effectiveDate),
                                        rate(card.onDemand, card.currency),
                                        rate(card.reserved1y, card.currency),
                                        rate(card.reserved3y, card.currency),
                                        rate(card.spot, card.currency),
                                        QObject::tr("%1 weeks").arg(card.reservationLeadWeeks)};
    }
    DeckSection workloads{QObject::tr("Workloads"), {}};
    workloads.table.columns = {QObject::tr("Workload"),  QObject::tr("Model"),      QObject::tr("GPU"),
                               QObject::tr("Users/day"), QObject::tr("Req/user"),   QObject::tr("Prompt P50/95"),
                               QObject::tr("Output P50/95"), QObject::tr("TTFT / ITL P95"), QObject::tr("Prefix hit")};
    for (const auto &w : workspace.workloads()) {
        if (subjects && !subjects->workloads.contains(text(w.name)))
            continue;
        workloads.table.rows << QStringList{
            text(w.name),
            text(w.modelId),
            w.tp > 1 ? QObject::tr("%1 × TP%2").arg(text(w.gpuId)).arg(w.tp) : text(w.gpuId),
            number(w.dailyActiveUsers),
            number(w.requestsPerUserPerDay, 1),
            QStringLiteral("%1 / %2").arg(number(w.promptTokens.p50), number(w.promptTokens.p95)),
            QStringLiteral("%1 / %2").arg(number(w.outputTokens.p50), number(w.outputTokens.p95)),
            QObject::tr("%1 / %2 ms").arg(number(w.ttftP95Ms), number(w.itlP95Ms)),
            QStringLiteral("%1 %").arg(number(w.prefixHitRate * 100))};
    }
    return {cards, workloads};
}

// Names in a sentence: "a", "a and b", "a, b and c".
static QString listed(const QStringList &names)
{
    if (names.size() <= 1)
        return names.value(0);
    return QObject::tr("%1 and %2").arg(names.mid(0, names.size() - 1).join(QStringLiteral(", ")), names.last());
}

// One warning per kind of problem and subject, naming everything it applies to, so that six
// rate cards with example rates make one line, not six.
QStringList workspaceWarnings(const store::Workspace &workspace)
{
    return workspaceWarningsOf(workspace, nullptr);
}

QStringList workspaceWarnings(const store::Workspace &workspace, const DeckSubjects &subjects)
{
    return workspaceWarningsOf(workspace, &subjects);
}

static QStringList workspaceWarningsOf(const store::Workspace &workspace, const DeckSubjects *subjects)
{
    QStringList warnings;
    const std::vector<engine::RateCard> inForce = cardsInForce(workspace);
    std::set<std::string> pricedGpus;
    QStringList exampleCards;
    for (const auto &card : inForce) {
        pricedGpus.insert(card.gpuId);
        if (subjects && !subjects->gpus.contains(text(card.gpuId)))
            continue;
        if (card.committedAreExamples && (!card.reserved1y.isZero() || !card.reserved3y.isZero()))
            exampleCards << QStringLiteral("%1 / %2 / %3").arg(text(card.provider), text(card.region), text(card.gpuId));
    }
    if (exampleCards.size() == 1)
        warnings << QObject::tr("The committed rates of %1 are examples, not negotiated prices: replace them with "
                                "your quote before deciding on a reservation.")
                        .arg(exampleCards.front());
    else if (exampleCards.size() > 1)
        warnings << QObject::tr("The committed rates of %1 rate cards (%2) are examples, not negotiated prices: "
                                "replace them with your quotes before deciding on a reservation.")
                        .arg(exampleCards.size())
                        .arg(listed(exampleCards));
    // By kind of problem, then by the model or GPU: the workloads it concerns.
    std::map<std::pair<int, std::string>, QStringList> byProblem;
    for (const auto &w : workspace.workloads()) {
        const QString name = text(w.name);
        if (subjects && !subjects->workloads.contains(name))
            continue;
        if (!workspace.model(text(w.modelId)))
            byProblem[{0, w.modelId}] << name;
        if (!workspace.gpu(text(w.gpuId)))
            byProblem[{1, w.gpuId}] << name;
        else if (!pricedGpus.count(w.gpuId))
            byProblem[{2, w.gpuId}] << name;
    }
    for (const auto &[problem, names] : byProblem) {
        const QString subject = text(problem.second);
        const QString who = names.size() == 1 ? QObject::tr("Workload %1").arg(names.front())
                                              : QObject::tr("%1 workloads (%2)").arg(names.size()).arg(listed(names));
        switch (problem.first) {
        case 0:
            warnings << QObject::tr("%1 use%2 the model %3, which is not in the catalog.")
                            .arg(who, names.size() == 1 ? QStringLiteral("s") : QString(), subject);
            break;
        case 1:
            warnings << QObject::tr("%1 run%2 on the GPU %3, which is not in the catalog.")
                            .arg(who, names.size() == 1 ? QStringLiteral("s") : QString(), subject);
            break;
        default:
            warnings << QObject::tr("%1 run%2 on %3, which no rate card in force prices: %4 not in this report.")
                            .arg(who, names.size() == 1 ? QStringLiteral("s") : QString(), subject,
                                 names.size() == 1 ? QObject::tr("its cost is") : QObject::tr("their costs are"));
            break;
        }
    }
    return warnings;
}

DeckSubjects deckSubjects(const store::Workspace &workspace, const std::vector<DeckItem> &items)
{
    // All the words of the items, figure text included (SVG text is XML-escaped).
    QString all;
    for (const DeckItem &item : items) {
        all += item.title + QLatin1Char('\n') + item.caption + QLatin1Char('\n') + item.text + QLatin1Char('\n');
        for (const QString &column : item.table.columns)
            all += column + QLatin1Char('\n');
        for (const QStringList &row : item.table.rows)
            all += row.join(QLatin1Char('\n')) + QLatin1Char('\n');
        if (!item.svg.isEmpty())
            all += QString::fromUtf8(item.svg) + QLatin1Char('\n');
    }
    const auto named = [&all](const QString &name) {
        if (name.isEmpty())
            return false;
        // A whole name: not inside a longer word ("chat" in "chatbot").
        const QRegularExpression whole(QStringLiteral("(^|[^\\w-])%1($|[^\\w-])")
                                           .arg(QRegularExpression::escape(name)));
        return all.contains(whole);
    };
    DeckSubjects subjects;
    for (const auto &w : workspace.workloads()) {
        const QString name = text(w.name);
        if (named(name) || named(name.toHtmlEscaped())) {
            subjects.workloads << name;
            subjects.gpus << text(w.gpuId);
        }
    }
    for (const auto &card : workspace.rateCards()) {
        const QString gpu = text(card.gpuId);
        if (!subjects.gpus.contains(gpu) && named(gpu))
            subjects.gpus << gpu;
    }
    for (const QString &scenario : workspace.scenarioNames()) {
        for (const DeckItem &item : items) {
            if (item.title.startsWith(scenario + QLatin1Char(':')) || item.title == scenario) {
                subjects.scenarios << scenario;
                break;
            }
        }
    }
    // A scenario shown rests on the workloads its pools serve and the GPUs they run.
    for (const QString &name : std::as_const(subjects.scenarios)) {
        if (const auto scenario = workspace.scenario(name)) {
            for (const engine::Pool &pool : scenario->pools) {
                subjects.gpus << text(pool.gpuId);
                for (const std::string &w : pool.workloads) {
                    if (!subjects.workloads.contains(text(w)))
                        subjects.workloads << text(w);
                }
            }
        }
    }
    subjects.gpus.removeDuplicates();
    return subjects;
}

void setDeckTitlePage(Deck &deck, const store::ReportSettings &settings)
{
    deck.title = settings.title;
    deck.author = settings.author;
    deck.date = settings.date.isEmpty()
        ? QLocale(QLocale::English).toString(QDate::currentDate(), QStringLiteral("d MMMM yyyy"))
        : settings.date;
}

Deck workspaceDeck(const store::Workspace &workspace)
{
    Deck deck;
    setDeckTitlePage(deck, workspace.reportSettings());
    deck.workspaceName = QFileInfo(workspace.path()).completeBaseName();
    // One state: an item with a source is drawn again from the workspace as it is now, unless
    // pinned; a pinned item, a snapshot of a page's own inputs and one whose source fails keep
    // their snapshot, stamped when the workspace's inputs changed since it was taken.
    const QString fingerprint = workspace.inputsFingerprint();
    QStringList stamps;
    for (const store::ReportItem &item : workspace.reportItems()) {
        QString problem;
        if (!item.pinned) {
            if (const auto redrawn = redrawReportItem(workspace, item, &problem)) {
                deck.items.push_back(deckItemFromReportItem(*redrawn));
                stamps << QString();
                continue;
            }
        }
        deck.items.push_back(deckItemFromReportItem(item));
        // Text is the author's own words, not a snapshot of the workspace.
        stamps << (item.kind == store::ReportItem::Kind::Text ? QString()
                                                              : reportItemStamp(item, fingerprint, problem));
    }
    const DeckSubjects subjects = deckSubjects(workspace, deck.items);
    deck.assumptions = workspaceAssumptions(workspace, subjects);
    deck.warnings = workspaceWarnings(workspace, subjects);

    // The summary: the scenarios the items show, evaluated with today's inputs; else what
    // each item shows, from its caption's first sentence.
    std::vector<engine::ScenarioResult> results;
    if (!subjects.scenarios.isEmpty()) {
        const engine::ScenarioInputs inputs = store::scenarioInputs(workspace);
        for (const QString &name : subjects.scenarios) {
            try {
                if (const auto scenario = workspace.scenario(name))
                    results.push_back(engine::evaluateScenario(*scenario, inputs));
            } catch (const engine::InputError &) {
                // A scenario that does not evaluate has no numbers to summarise.
            }
        }
    }
    if (!results.empty()) {
        summarizeScenarios(results, deck);
        deck.recommendation += QLatin1Char(' ') + residencySentence(workspace.servingAssumptions().residency, true);
    } else {
        for (const DeckItem &item : deck.items) {
            const QString source = item.caption.isEmpty() ? item.text : item.caption;
            const qsizetype stop = source.indexOf(QRegularExpression(QStringLiteral("[.:;](\\s|$)")));
            QString first = (stop >= 0 ? source.left(stop) : source).simplified();
            if (!first.isEmpty())
                first += QLatin1Char('.');
            deck.summary.push_back({item.title, first, {}});
        }
    }
    for (size_t i = 0; i < deck.items.size(); ++i) {
        DeckItem &item = deck.items[i];
        if (stamps[qsizetype(i)].isEmpty())
            continue;
        item.caption = item.caption.isEmpty() ? stamps[qsizetype(i)] : stamps[qsizetype(i)] + QLatin1Char(' ') + item.caption;
        deck.warnings << QObject::tr("“%1” is not drawn from the workspace as it is now: %2")
                             .arg(item.title, stamps[qsizetype(i)]);
    }
    return deck;
}

} // namespace headroom::ui
