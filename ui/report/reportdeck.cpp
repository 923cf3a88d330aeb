#include "reportdeck.h"

#include "store/common/storeerror.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPageSize>
#include <QPainter>
#include <QPicture>
#include <QBuffer>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <algorithm>
#include <cmath>
#include <deque>

namespace headroom::ui {

namespace {

// Page geometry in 96-dpi units.
constexpr qreal kMarginX = 64;
constexpr qreal kHeadingTop = 40;
constexpr qreal kBodyTop = 116;
constexpr qreal kBodyBottom = kDeckPageHeight - 64;
constexpr qreal kContentWidth = kDeckPageWidth - 2 * kMarginX;
constexpr qreal kTableHeaderHeight = 40; // room for a header wrapped onto two lines
constexpr qreal kTableRowHeight = 26;
constexpr qreal kSectionHeadingHeight = 38;
constexpr qreal kSectionGap = 18;
constexpr qreal kCellPadding = 9;
constexpr qreal kTileHeight = 84;
constexpr qreal kTileGap = 16;
// Figure pages: a compact heading row (with the page number at its right), the figure across
// the page, the caption under it in 14 pt.
constexpr qreal kFigureMarginX = (kDeckPageWidth - kSlideFigureWidth) / 2.0;
constexpr qreal kFigureHeadingTop = 12;
constexpr qreal kFigureHeadingHeight = 44;
constexpr qreal kFigureTop = 62;
constexpr qreal kFigureBottomMargin = 10;
constexpr qreal kFigureCaptionGap = 6;
// Summary slide: the gap under the recommendation.
constexpr qreal kSummaryGap = 18;

const QColor kInk(0x1b, 0x25, 0x33);
const QColor kMuted(0x5f, 0x6b, 0x7a);
const QColor kAccent(0x1f, 0x5f, 0xa8);
const QColor kRule(0xc9, 0xd1, 0xdb);
const QColor kStripe(0xf2, 0xf5, 0xf9);
const QColor kHeaderFill(0xe3, 0xea, 0xf3);
const QColor kWarning(0xc7, 0x7c, 0x02);

QFont deckFont(qreal pixelSize, bool bold = false)
{
    QFont font;
    font.setPixelSize(qRound(pixelSize));
    font.setBold(bold);
    // No ligatures: "fi" and "fl" stay two letters when text is searched or copied out of the
    // PDF (Latin text needs no shaping; complex scripts are still shaped).
    font.setStyleStrategy(QFont::PreferNoShaping);
    return font;
}

QFont headingFont() { return deckFont(30, true); }
QFont figureHeadingFont() { return deckFont(26, true); }
QFont bodyFont() { return deckFont(19); }
QFont captionFont() { return deckFont(15); }
// 14 pt: the smallest text on a figure page.
QFont figureCaptionFont() { return deckFont(19); }
QFont cellFont() { return deckFont(14); }
QFont cellHeaderFont() { return deckFont(14, true); }
QFont sectionFont() { return deckFont(19, true); }
QFont footerFont() { return deckFont(12); }

// Cells that read as a quantity: "12", "$4,227.07", "-3.5 %", "±0", "200 GPUs", "0.81".
bool isNumeric(const QString &cell)
{
    static const QRegularExpression number(
        QStringLiteral("^[-+−±]?[$€£]?\\d[\\d,.]*( ?[%×]| [A-Za-z/µ]{1,8}| ?[A-Z]{3})?$"));
    return number.match(cell.trimmed()).hasMatch();
}

qreal wrappedHeight(const QFont &font, qreal width, const QString &text)
{
    if (text.isEmpty())
        return 0;
    const QFontMetricsF metrics(font);
    return metrics.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap | Qt::AlignLeft, text).height();
}

// A slice of one table on one page.
struct TableSlice {
    int section = 0;
    int rowBegin = 0;
    int rowEnd = 0;
    bool continued = false;
};

// A run of paragraphs on one page (text items and warnings).
struct ParagraphSlice {
    int begin = 0;
    int end = 0;
};

enum class PageKind { Title, Summary, Tables, Figure, Paragraphs };

struct PageSpec {
    PageKind kind = PageKind::Title;
    QString heading;
    QString caption;            // under the heading (tables) or the figure
    int item = -1;              // deck.items index, -1 for title/assumptions/warnings
    std::vector<DeckSection> const *sections = nullptr;
    std::vector<TableSlice> slices;
    QStringList paragraphs;     // Paragraphs pages
    bool bullets = false;          // Paragraphs pages: warnings as a bulleted list
    bool sectionHeadings = false;  // Tables pages: each table under its own heading
    std::vector<std::pair<QString, QString>> keyFigures; // Tables pages: tiles above the caption
    QByteArray svg;
    QByteArray picture;         // Figure pages: the recorded drawing, preferred to the SVG
    QSizeF canvas;
    int summaryBegin = 0;       // Summary pages: the entries shown
    int summaryEnd = 0;
    bool recommendation = false; // Summary pages: the recommendation box on top
};

qreal figureCaptionHeight(const QString &caption)
{
    return caption.isEmpty() ? 0 : wrappedHeight(figureCaptionFont(), kSlideFigureWidth, caption);
}

// The box a figure page's figure may fill.
QRectF figureBox(const QString &caption)
{
    const qreal captionHeight = figureCaptionHeight(caption);
    const qreal bottom = kDeckPageHeight - kFigureBottomMargin - (captionHeight > 0 ? captionHeight + kFigureCaptionGap : 0);
    return QRectF(kFigureMarginX, kFigureTop, kSlideFigureWidth, bottom - kFigureTop);
}

// The figure's rectangle in the box: its view box scaled to fit, centred across, at the top.
QRectF fittedFigure(const QRectF &box, const QSizeF &natural)
{
    const QSizeF fitted = natural.isEmpty() ? box.size() : natural.scaled(box.size(), Qt::KeepAspectRatio);
    return QRectF(box.left() + (box.width() - fitted.width()) / 2, box.top(), fitted.width(), fitted.height());
}

bool loadPicture(const QByteArray &data, QPicture &picture)
{
    QBuffer buffer;
    buffer.setData(data);
    return buffer.open(QIODevice::ReadOnly) && picture.load(&buffer);
}

QSizeF svgSize(const QSvgRenderer &renderer)
{
    return renderer.viewBoxF().size().isEmpty() ? QSizeF(renderer.defaultSize()) : renderer.viewBoxF().size();
}

// The summary is a table, one row per entry: the name and the headline numbers on one line,
// the decision under them across the row. Four rows and the recommendation fit one slide.
QFont summaryNameFont() { return deckFont(21, true); }
QFont summaryValueFont() { return deckFont(21, true); }
QFont summaryTextFont() { return deckFont(19); }
QFont summaryHeaderFont() { return deckFont(19, true); }
QFont recommendationFont() { return deckFont(20, true); }
constexpr qreal kSummaryHeaderHeight = 34;
constexpr qreal kSummaryRowPadding = 8;

qreal recommendationHeight(const QString &text)
{
    return text.isEmpty() ? 0 : wrappedHeight(recommendationFont(), kContentWidth - 48, text) + 46 + kSummaryGap;
}

// The headline numbers' labels across all entries, in first-seen order: the table's columns.
QStringList summaryColumns(const std::vector<DeckSummaryEntry> &entries)
{
    QStringList columns;
    for (const DeckSummaryEntry &entry : entries)
        for (const auto &figure : entry.figures)
            if (!columns.contains(figure.first))
                columns << figure.first;
    return columns;
}

// Widths of the number columns (label or widest value, padded); the name column takes the rest.
std::vector<qreal> summaryColumnWidths(const std::vector<DeckSummaryEntry> &entries, const QStringList &columns)
{
    const QFontMetricsF header(summaryHeaderFont()), value(summaryValueFont());
    std::vector<qreal> widths;
    for (const QString &column : columns) {
        qreal width = header.horizontalAdvance(column);
        for (const DeckSummaryEntry &entry : entries)
            for (const auto &figure : entry.figures)
                if (figure.first == column)
                    width = std::max(width, value.horizontalAdvance(figure.second));
        widths.push_back(std::ceil(width) + 2 * kCellPadding + 8);
    }
    return widths;
}

qreal summaryNameWidth(const std::vector<qreal> &widths)
{
    qreal used = 0;
    for (qreal w : widths)
        used += w;
    return std::max<qreal>(kContentWidth * 0.25, kContentWidth - used) - 2 * kCellPadding;
}

qreal summaryRowHeight(const DeckSummaryEntry &entry, qreal nameWidth)
{
    const qreal top = std::max(wrappedHeight(summaryNameFont(), nameWidth, entry.name),
                               QFontMetricsF(summaryValueFont()).height());
    return kSummaryRowPadding + top + 2 + wrappedHeight(summaryTextFont(), kContentWidth - 2 * kCellPadding, entry.decision)
        + kSummaryRowPadding;
}

// Column widths for a table: natural widths, scaled into the content width.
std::vector<qreal> columnWidths(const DeckTable &table)
{
    const QFontMetricsF cell(cellFont());
    const QFontMetricsF header(cellHeaderFont());
    std::vector<qreal> widths;
    for (int column = 0; column < table.columns.size(); ++column) {
        // A header may wrap onto two lines: it needs its longest word, or about half its text.
        const QString &title = table.columns.at(column);
        qreal longestWord = 0;
        for (const QString &word : title.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            longestWord = std::max(longestWord, header.horizontalAdvance(word));
        qreal width = std::max(longestWord, 0.6 * header.horizontalAdvance(title));
        for (const QStringList &row : table.rows) {
            if (column < row.size())
                width = std::max(width, cell.horizontalAdvance(row.at(column)));
        }
        widths.push_back(width + 2 * kCellPadding);
    }
    const auto sumCapped = [&widths](qreal cap) {
        qreal total = 0;
        for (qreal w : widths)
            total += std::min(w, cap);
        return total;
    };
    qreal total = sumCapped(1e9);
    if (total <= 0)
        return widths;
    if (total > kContentWidth) {
        // Too wide: narrow only the widest columns (their text wraps), to a common cap.
        qreal low = 0;
        qreal high = *std::max_element(widths.begin(), widths.end());
        for (int i = 0; i < 40; ++i) {
            const qreal mid = (low + high) / 2;
            (sumCapped(mid) > kContentWidth ? high : low) = mid;
        }
        for (qreal &w : widths)
            w = std::min(w, low);
        total = sumCapped(1e9);
    }
    // Fill the page when the table is nearly as wide; otherwise keep it compact.
    const qreal target = total > 0.7 * kContentWidth ? kContentWidth : std::min(kContentWidth, total * 1.25);
    for (qreal &w : widths)
        w *= target / total;
    return widths;
}

// A row is one line high, or up to kMaxCellLines when a text cell wraps in its column: a
// description of a few sentences is shown whole.
constexpr int kMaxCellLines = 10;

// The height `lines` lines of text take in `metrics`' font, as wrapped text is measured.
qreal linesHeight(const QFontMetricsF &metrics, int lines)
{
    QStringList text;
    for (int i = 0; i < lines; ++i)
        text << QStringLiteral("X");
    return metrics.boundingRect(QRectF(0, 0, 1e6, 1e6), Qt::TextWordWrap, text.join(QLatin1Char('\n'))).height();
}

// The lines cell `text` takes in a column `width` wide (the cell's padding excluded), at most
// kMaxCellLines.
int cellLines(const QFontMetricsF &metrics, qreal width, const QString &text)
{
    if (metrics.horizontalAdvance(text) <= width)
        return 1;
    const qreal wrapped = metrics.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text).height();
    for (int lines = 2; lines < kMaxCellLines; ++lines)
        if (wrapped <= linesHeight(metrics, lines) + 0.5)
            return lines;
    return kMaxCellLines;
}

qreal tableRowHeight(const DeckTable &table, const std::vector<qreal> &widths, int row)
{
    const QFontMetricsF metrics(cellFont());
    int lines = 1;
    const QStringList &cells = table.rows.at(row);
    for (int column = 0; column < cells.size() && column < int(widths.size()); ++column)
        lines = std::max(lines, cellLines(metrics, widths[size_t(column)] - 2 * kCellPadding, cells.at(column)));
    return kTableRowHeight + linesHeight(metrics, lines) - linesHeight(metrics, 1);
}

// The height of rows [begin, end) of `table`.
qreal tableRowsHeight(const DeckTable &table, int begin, int end)
{
    const std::vector<qreal> widths = columnWidths(table);
    qreal height = 0;
    for (int row = begin; row < end; ++row)
        height += tableRowHeight(table, widths, row);
    return height;
}

void paintTable(QPainter &painter, const DeckTable &table, int rowBegin, int rowEnd, qreal top)
{
    const std::vector<qreal> widths = columnWidths(table);
    std::vector<bool> numeric(size_t(table.columns.size()), true);
    for (int column = 0; column < table.columns.size(); ++column) {
        bool any = false;
        for (const QStringList &row : table.rows) {
            if (column < row.size() && !row.at(column).trimmed().isEmpty()) {
                any = true;
                numeric[size_t(column)] = numeric[size_t(column)] && isNumeric(row.at(column));
            }
        }
        numeric[size_t(column)] = numeric[size_t(column)] && any;
    }
    qreal tableWidth = 0;
    for (qreal w : widths)
        tableWidth += w;

    painter.fillRect(QRectF(kMarginX, top, tableWidth, kTableHeaderHeight), kHeaderFill);
    painter.setFont(cellHeaderFont());
    painter.setPen(kInk);
    qreal x = kMarginX;
    for (int column = 0; column < table.columns.size(); ++column) {
        const QRectF cell(x + kCellPadding, top, widths[size_t(column)] - 2 * kCellPadding, kTableHeaderHeight);
        const Qt::Alignment alignment = Qt::AlignVCenter | (numeric[size_t(column)] ? Qt::AlignRight : Qt::AlignLeft);
        const QString &title = table.columns.at(column);
        const QFontMetricsF headerMetrics(painter.font());
        if (headerMetrics.boundingRect(cell, Qt::TextWordWrap | alignment, title).height() <= cell.height())
            painter.drawText(cell, Qt::TextWordWrap | alignment, title);
        else
            painter.drawText(cell, alignment, headerMetrics.elidedText(title, Qt::ElideRight, cell.width()));
        x += widths[size_t(column)];
    }
    qreal y = top + kTableHeaderHeight;
    painter.setPen(QPen(kAccent, 1.5));
    painter.drawLine(QPointF(kMarginX, y), QPointF(kMarginX + tableWidth, y));

    painter.setFont(cellFont());
    const QFontMetricsF metrics(painter.font());
    for (int row = rowBegin; row < rowEnd; ++row) {
        const qreal height = tableRowHeight(table, widths, row);
        if ((row - rowBegin) % 2 == 1)
            painter.fillRect(QRectF(kMarginX, y, tableWidth, height), kStripe);
        painter.setPen(kInk);
        x = kMarginX;
        const QStringList &cells = table.rows.at(row);
        for (int column = 0; column < table.columns.size(); ++column) {
            const QRectF cell(x + kCellPadding, y, widths[size_t(column)] - 2 * kCellPadding, height);
            const Qt::Alignment alignment = Qt::AlignVCenter | (numeric[size_t(column)] ? Qt::AlignRight : Qt::AlignLeft);
            const QString text = column < cells.size() ? cells.at(column) : QString();
            if (metrics.horizontalAdvance(text) <= cell.width()) {
                painter.drawText(cell, alignment, text);
            } else {
                // Wrapped onto the row's lines; a text longer still ends in an ellipsis.
                QString shown = text;
                const qreal room = linesHeight(metrics, kMaxCellLines) + 0.5;
                while (shown.size() > 1
                       && metrics.boundingRect(QRectF(0, 0, cell.width(), 1e6), Qt::TextWordWrap, shown).height() > room)
                    shown = shown.left(shown.size() - 2).trimmed() + QChar(0x2026);
                painter.drawText(cell, alignment | Qt::TextWordWrap, shown);
            }
            x += widths[size_t(column)];
        }
        y += height;
    }
    painter.setPen(QPen(kRule, 1));
    painter.drawLine(QPointF(kMarginX, y), QPointF(kMarginX + tableWidth, y));
}

// Cuts tables into pages: each page holds as many rows as fit, a table split across pages
// repeats its header and is marked "continued".
std::vector<std::vector<TableSlice>> flowTables(const std::vector<DeckSection> &sections, qreal firstTop,
                                                bool sectionHeadings)
{
    std::vector<std::vector<TableSlice>> pages(1);
    qreal y = firstTop;
    for (int section = 0; section < int(sections.size()); ++section) {
        const DeckTable &table = sections[size_t(section)].table;
        const qreal headingHeight = sectionHeadings ? kSectionHeadingHeight : 0;
        int row = 0;
        bool continued = false;
        const std::vector<qreal> widths = columnWidths(table);
        // How many rows from `row` fit above the page's bottom when the table starts at `top`.
        const auto rowsFitting = [&](qreal top) {
            int fits = 0;
            for (qreal at = top; row + fits < int(table.rows.size()); ++fits) {
                at += tableRowHeight(table, widths, row + fits);
                if (at > kBodyBottom)
                    break;
            }
            return fits;
        };
        do {
            const qreal fixed = headingHeight + kTableHeaderHeight;
            int fits = rowsFitting(y + fixed);
            const int remaining = int(table.rows.size()) - row;
            // Start a new page rather than leave a header with fewer than three rows.
            if (fits < std::min(remaining, 3) && !pages.back().empty()) {
                pages.emplace_back();
                y = kBodyTop;
                fits = rowsFitting(y + fixed);
            }
            fits = std::max(fits, 1);
            const int end = std::min(int(table.rows.size()), row + fits);
            pages.back().push_back({section, row, end, continued});
            y += fixed + tableRowsHeight(table, row, end) + kSectionGap;
            row = end;
            continued = true;
            if (row < int(table.rows.size())) {
                pages.emplace_back();
                y = kBodyTop;
            }
        } while (row < int(table.rows.size()));
    }
    return pages;
}

// Groups paragraphs into pages by their wrapped height.
std::vector<ParagraphSlice> flowParagraphs(const QStringList &paragraphs, const QFont &font, qreal width, qreal top)
{
    std::vector<ParagraphSlice> pages{{0, 0}};
    qreal y = top;
    for (int i = 0; i < paragraphs.size(); ++i) {
        const qreal height = wrappedHeight(font, width, paragraphs.at(i)) + 14;
        if (y + height > kBodyBottom && pages.back().end > pages.back().begin) {
            pages.push_back({i, i});
            y = kBodyTop;
        }
        pages.back().end = i + 1;
        y += height;
    }
    return pages;
}

void paintHeading(QPainter &painter, const QString &heading)
{
    painter.setFont(headingFont());
    painter.setPen(kInk);
    const QRectF rect(kMarginX, kHeadingTop, kContentWidth, 48);
    painter.drawText(rect, Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetricsF(painter.font()).elidedText(heading, Qt::ElideRight, rect.width()));
    painter.fillRect(QRectF(kMarginX, kHeadingTop + 54, 72, 4), kAccent);
}

} // namespace

struct DeckLayout::Plan {
    Deck deck;
    std::deque<std::vector<DeckSection>> itemSections;  // stable addresses for PageSpec::sections
    std::vector<PageSpec> pages;

    void planTitle();
    void planSummary();
    void planTables(const QString &heading, const QString &caption, const std::vector<DeckSection> *sections,
                    bool sectionHeadings, int item, const std::vector<std::pair<QString, QString>> &keyFigures = {});
    void planParagraphs(const QString &heading, const QStringList &paragraphs, bool bullets, int item);
    void paintTitle(QPainter &painter) const;
    void paintSummary(QPainter &painter, const PageSpec &page) const;
    void paintTables(QPainter &painter, const PageSpec &page) const;
    void paintFigure(QPainter &painter, const PageSpec &page) const;
    void paintParagraphs(QPainter &painter, const PageSpec &page) const;
    void paintFooter(QPainter &painter, int page) const;
};

void DeckLayout::Plan::planTables(const QString &heading, const QString &caption,
                                  const std::vector<DeckSection> *sections, bool sectionHeadings, int item,
                                  const std::vector<std::pair<QString, QString>> &keyFigures)
{
    const qreal captionHeight = caption.isEmpty() ? 0 : wrappedHeight(captionFont(), kContentWidth, caption) + 12;
    const qreal tilesHeight = keyFigures.empty() ? 0 : kTileHeight + kTileGap;
    const auto flowed = flowTables(*sections, kBodyTop + tilesHeight + captionHeight, sectionHeadings);
    for (size_t i = 0; i < flowed.size(); ++i) {
        PageSpec page;
        page.kind = PageKind::Tables;
        page.heading = i == 0 ? heading : QCoreApplication::translate("DeckLayout", "%1 (continued)").arg(heading);
        page.caption = i == 0 ? caption : QString();
        page.item = item;
        page.sections = sections;
        page.slices = flowed[i];
        page.sectionHeadings = sectionHeadings;
        if (i == 0)
            page.keyFigures = keyFigures;
        pages.push_back(std::move(page));
    }
}

void DeckLayout::Plan::planParagraphs(const QString &heading, const QStringList &paragraphs, bool bullets, int item)
{
    const qreal indent = bullets ? 28 : 0;
    const auto flowed = flowParagraphs(paragraphs, bodyFont(), kContentWidth - indent, kBodyTop);
    for (size_t i = 0; i < flowed.size(); ++i) {
        PageSpec page;
        page.kind = PageKind::Paragraphs;
        page.heading = i == 0 ? heading : QCoreApplication::translate("DeckLayout", "%1 (continued)").arg(heading);
        page.item = item;
        page.paragraphs = paragraphs.mid(flowed[i].begin, flowed[i].end - flowed[i].begin);
        page.bullets = bullets;
        pages.push_back(std::move(page));
    }
}

void DeckLayout::setTitlePage(const QString &title, const QString &author, const QString &date)
{
    m_plan->deck.title = title;
    m_plan->deck.author = author;
    m_plan->deck.date = date;
}

DeckLayout::DeckLayout(const Deck &deck)
    : m_plan(std::make_unique<Plan>())
{
    Plan &plan = *m_plan;
    plan.deck = deck;
    plan.pages.push_back({});  // the title page
    plan.planSummary();
    for (int i = 0; i < int(plan.deck.items.size()); ++i) {
        const DeckItem &item = plan.deck.items[size_t(i)];
        switch (item.kind) {
        case DeckItem::Kind::Figure: {
            PageSpec page;
            page.kind = PageKind::Figure;
            page.heading = item.title;
            page.caption = item.caption;
            page.item = i;
            page.svg = item.svg;
            page.picture = item.picture;
            page.canvas = item.canvas;
            plan.pages.push_back(std::move(page));
            break;
        }
        case DeckItem::Kind::Table: {
            // A table item is a one-section flow without a section heading.
            plan.itemSections.push_back({{QString(), item.table}});
            plan.planTables(item.title, item.caption, &plan.itemSections.back(), false, i, item.keyFigures);
            break;
        }
        case DeckItem::Kind::Text: {
            QStringList paragraphs = item.text.split(QRegularExpression(QStringLiteral("\\n\\s*\\n")), Qt::SkipEmptyParts);
            if (item.bulleted)
                paragraphs = countedWarnings(paragraphs);
            if (!item.caption.isEmpty() && !item.bulleted)
                paragraphs.prepend(item.caption);
            plan.planParagraphs(item.title, paragraphs, item.bulleted, i);
            break;
        }
        }
    }
    if (!plan.deck.warnings.isEmpty())
        plan.planParagraphs(QCoreApplication::translate("DeckLayout", "Warnings"), countedWarnings(plan.deck.warnings),
                            true, -1);
    // What the deck's items rest on, after everything else.
    if (!plan.deck.assumptions.empty())
        plan.planTables(QCoreApplication::translate("DeckLayout", "Appendix: assumptions"), QString(),
                        &plan.deck.assumptions, true, -1);
}

void DeckLayout::Plan::planSummary()
{
    if (deck.summary.empty() && deck.recommendation.isEmpty())
        return;
    PageSpec page;
    page.kind = PageKind::Summary;
    page.heading = QCoreApplication::translate("DeckLayout", "Summary");
    page.recommendation = !deck.recommendation.isEmpty();
    const qreal nameWidth = summaryNameWidth(summaryColumnWidths(deck.summary, summaryColumns(deck.summary)));
    qreal y = kBodyTop + recommendationHeight(deck.recommendation) + kSummaryHeaderHeight;
    for (int i = 0; i < int(deck.summary.size()); ++i) {
        const qreal height = summaryRowHeight(deck.summary[size_t(i)], nameWidth);
        if (y + height > kBodyBottom && page.summaryEnd > page.summaryBegin) {
            pages.push_back(page);
            page.heading = QCoreApplication::translate("DeckLayout", "Summary (continued)");
            page.recommendation = false;
            page.summaryBegin = i;
            y = kBodyTop + kSummaryHeaderHeight;
        }
        page.summaryEnd = i + 1;
        y += height;
    }
    pages.push_back(page);
}

QStringList countedWarnings(const QStringList &warnings)
{
    QStringList unique;
    std::vector<int> counts;
    for (const QString &line : warnings) {
        const qsizetype at = unique.indexOf(line);
        if (at >= 0) {
            ++counts[size_t(at)];
        } else {
            unique << line;
            counts.push_back(1);
        }
    }
    for (qsizetype i = 0; i < unique.size(); ++i) {
        if (counts[size_t(i)] > 1)
            unique[i] = QCoreApplication::translate("DeckLayout", "%1 (%2 times)").arg(unique[i]).arg(counts[size_t(i)]);
    }
    return unique;
}

DeckLayout::~DeckLayout() = default;

int DeckLayout::pageCount() const
{
    return int(m_plan->pages.size());
}

int DeckLayout::firstPageOfItem(int item) const
{
    for (int page = 0; page < pageCount(); ++page) {
        if (m_plan->pages[size_t(page)].item == item)
            return page;
    }
    return -1;
}

void DeckLayout::paintPage(QPainter &painter, int pageIndex) const
{
    const PageSpec &page = m_plan->pages.at(size_t(pageIndex));
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(QRectF(0, 0, kDeckPageWidth, kDeckPageHeight), Qt::white);
    switch (page.kind) {
    case PageKind::Title:
        m_plan->paintTitle(painter);
        break;
    case PageKind::Summary:
        m_plan->paintSummary(painter, page);
        break;
    case PageKind::Tables:
        m_plan->paintTables(painter, page);
        break;
    case PageKind::Figure:
        m_plan->paintFigure(painter, page);
        break;
    case PageKind::Paragraphs:
        m_plan->paintParagraphs(painter, page);
        break;
    }
    if (page.kind != PageKind::Title && page.kind != PageKind::Figure)
        m_plan->paintFooter(painter, pageIndex);
    if (page.kind == PageKind::Figure) {
        // No footer: the page number sits at the right of the heading row, in 14 pt.
        painter.setFont(figureCaptionFont());
        painter.setPen(kMuted);
        painter.drawText(QRectF(kFigureMarginX, kFigureHeadingTop, kSlideFigureWidth, kFigureHeadingHeight),
                         Qt::AlignRight | Qt::AlignVCenter,
                         QCoreApplication::translate("DeckLayout", "%1 / %2").arg(pageIndex + 1).arg(pageCount()));
    }
    painter.restore();
}

QString DeckLayout::pageHeading(int page) const
{
    return m_plan->pages.at(size_t(page)).heading;
}

QRectF DeckLayout::figureRect(int page) const
{
    const PageSpec &spec = m_plan->pages.at(size_t(page));
    if (spec.kind != PageKind::Figure)
        return {};
    const QRectF box = figureBox(spec.caption);
    if (!spec.picture.isEmpty() && !spec.canvas.isEmpty())
        return fittedFigure(box, spec.canvas);
    const QSvgRenderer renderer(spec.svg);
    return renderer.isValid() ? fittedFigure(box, svgSize(renderer)) : box;
}

void DeckLayout::Plan::paintSummary(QPainter &painter, const PageSpec &page) const
{
    paintHeading(painter, page.heading);
    qreal y = kBodyTop;
    if (page.recommendation) {
        const qreal textHeight = wrappedHeight(recommendationFont(), kContentWidth - 48, deck.recommendation);
        const QRectF box(kMarginX, y, kContentWidth, textHeight + 46);
        painter.fillRect(box, kHeaderFill);
        painter.fillRect(QRectF(box.left(), box.top(), 6, box.height()), kAccent);
        painter.setPen(kAccent);
        painter.setFont(deckFont(19, true));
        painter.drawText(QRectF(box.left() + 24, box.top() + 6, box.width() - 48, 26), Qt::AlignLeft | Qt::AlignVCenter,
                         QCoreApplication::translate("DeckLayout", "Recommendation"));
        painter.setPen(kInk);
        painter.setFont(recommendationFont());
        painter.drawText(QRectF(box.left() + 24, box.top() + 34, box.width() - 48, textHeight),
                         Qt::AlignLeft | Qt::TextWordWrap, deck.recommendation);
        y += box.height() + kSummaryGap;
    }
    if (page.summaryEnd <= page.summaryBegin)
        return;
    const QStringList columns = summaryColumns(deck.summary);
    const std::vector<qreal> widths = summaryColumnWidths(deck.summary, columns);
    const qreal nameWidth = summaryNameWidth(widths);
    // Header row: the scenario, then one right-aligned column per headline number.
    painter.fillRect(QRectF(kMarginX, y, kContentWidth, kSummaryHeaderHeight), kHeaderFill);
    painter.setFont(summaryHeaderFont());
    painter.setPen(kInk);
    painter.drawText(QRectF(kMarginX + kCellPadding, y, nameWidth, kSummaryHeaderHeight), Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("DeckLayout", "Scenario"));
    qreal x = kMarginX + kContentWidth;
    std::vector<qreal> lefts(widths.size());
    for (size_t c = widths.size(); c-- > 0;) {
        x -= widths[c];
        lefts[c] = x;
    }
    for (size_t c = 0; c < widths.size(); ++c)
        painter.drawText(QRectF(lefts[c], y, widths[c] - kCellPadding, kSummaryHeaderHeight),
                         Qt::AlignRight | Qt::AlignVCenter, columns[qsizetype(c)]);
    y += kSummaryHeaderHeight;
    for (int i = page.summaryBegin; i < page.summaryEnd; ++i) {
        const DeckSummaryEntry &entry = deck.summary[size_t(i)];
        const qreal height = summaryRowHeight(entry, nameWidth);
        if ((i - page.summaryBegin) % 2 == 1)
            painter.fillRect(QRectF(kMarginX, y, kContentWidth, height), kStripe);
        painter.setPen(QPen(kRule, 1));
        painter.drawLine(QPointF(kMarginX, y + height), QPointF(kMarginX + kContentWidth, y + height));
        qreal top = y + kSummaryRowPadding;
        painter.setPen(kInk);
        painter.setFont(summaryNameFont());
        const qreal nameHeight = wrappedHeight(painter.font(), nameWidth, entry.name);
        painter.drawText(QRectF(kMarginX + kCellPadding, top, nameWidth, nameHeight), Qt::AlignLeft | Qt::TextWordWrap,
                         entry.name);
        painter.setFont(summaryValueFont());
        const qreal valueHeight = QFontMetricsF(painter.font()).height();
        for (const auto &figure : entry.figures) {
            const qsizetype c = columns.indexOf(figure.first);
            painter.drawText(QRectF(lefts[size_t(c)], top, widths[size_t(c)] - kCellPadding, valueHeight),
                             Qt::AlignRight | Qt::AlignVCenter, figure.second);
        }
        top += std::max(nameHeight, valueHeight) + 2;
        painter.setFont(summaryTextFont());
        painter.setPen(kMuted);
        const qreal textWidth = kContentWidth - 2 * kCellPadding;
        painter.drawText(QRectF(kMarginX + kCellPadding, top, textWidth, wrappedHeight(painter.font(), textWidth,
                                                                                       entry.decision)),
                         Qt::AlignLeft | Qt::TextWordWrap, entry.decision);
        y += height;
    }
}

void DeckLayout::Plan::paintTitle(QPainter &painter) const
{
    painter.fillRect(QRectF(0, 0, 24, kDeckPageHeight), kAccent);
    const qreal left = 120;
    const qreal width = kDeckPageWidth - left - 120;
    qreal y = 220;
    painter.setPen(kMuted);
    painter.setFont(deckFont(18, true));
    painter.drawText(QRectF(left, y - 44, width, 30), Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("DeckLayout", "GPU CAPACITY PLAN"));
    painter.setPen(kInk);
    painter.setFont(deckFont(52, true));
    const QString title = deck.title.isEmpty() ? QCoreApplication::translate("DeckLayout", "Capacity report") : deck.title;
    const qreal titleHeight = wrappedHeight(painter.font(), width, title);
    painter.drawText(QRectF(left, y, width, titleHeight), Qt::AlignLeft | Qt::TextWordWrap, title);
    y += titleHeight + 16;
    if (!deck.subtitle.isEmpty()) {
        painter.setFont(deckFont(24));
        painter.setPen(kMuted);
        const qreal h = wrappedHeight(painter.font(), width, deck.subtitle);
        painter.drawText(QRectF(left, y, width, h), Qt::AlignLeft | Qt::TextWordWrap, deck.subtitle);
        y += h + 12;
    }
    painter.fillRect(QRectF(left, y + 12, 120, 4), kAccent);
    y += 48;
    painter.setPen(kInk);
    painter.setFont(deckFont(22));
    QStringList byline;
    if (!deck.author.isEmpty())
        byline << deck.author;
    if (!deck.date.isEmpty())
        byline << deck.date;
    if (!byline.isEmpty()) {
        painter.drawText(QRectF(left, y, width, 34), Qt::AlignLeft | Qt::AlignVCenter, byline.join(QStringLiteral("  ·  ")));
        y += 42;
    }
    if (!deck.workspaceName.isEmpty()) {
        painter.setFont(deckFont(16));
        painter.setPen(kMuted);
        painter.drawText(QRectF(left, y, width, 28), Qt::AlignLeft | Qt::AlignVCenter,
                         QCoreApplication::translate("DeckLayout", "Workspace: %1").arg(deck.workspaceName));
    }
}

void DeckLayout::Plan::paintTables(QPainter &painter, const PageSpec &page) const
{
    paintHeading(painter, page.heading);
    qreal y = kBodyTop;
    if (!page.keyFigures.empty()) {
        const int count = int(page.keyFigures.size());
        const qreal tileWidth = (kContentWidth - (count - 1) * kTileGap) / count;
        for (int i = 0; i < count; ++i) {
            const QRectF tile(kMarginX + i * (tileWidth + kTileGap), y, tileWidth, kTileHeight);
            painter.fillRect(tile, kStripe);
            painter.fillRect(QRectF(tile.left(), tile.top(), 4, tile.height()), kAccent);
            painter.setPen(kMuted);
            painter.setFont(deckFont(14));
            painter.drawText(tile.adjusted(18, 10, -10, -46), Qt::AlignLeft | Qt::AlignVCenter,
                             page.keyFigures[size_t(i)].first);
            painter.setPen(kInk);
            // A figure is never cut: the font shrinks until the whole value fits the tile.
            const QString &value = page.keyFigures[size_t(i)].second;
            int size = 28;
            while (size > 12 && QFontMetricsF(deckFont(size, true)).horizontalAdvance(value) > tile.width() - 28)
                --size;
            painter.setFont(deckFont(size, true));
            painter.drawText(tile.adjusted(18, 34, -10, -8), Qt::AlignLeft | Qt::AlignVCenter,
                             QFontMetricsF(painter.font()).elidedText(value, Qt::ElideRight, tile.width() - 28));
        }
        y += kTileHeight + kTileGap;
    }
    if (!page.caption.isEmpty()) {
        painter.setFont(captionFont());
        painter.setPen(kMuted);
        const qreal h = wrappedHeight(painter.font(), kContentWidth, page.caption);
        painter.drawText(QRectF(kMarginX, y, kContentWidth, h), Qt::AlignLeft | Qt::TextWordWrap, page.caption);
        y += h + 12;
    }
    const bool sectionHeadings = page.sectionHeadings;
    for (const TableSlice &slice : page.slices) {
        const DeckSection &section = page.sections->at(size_t(slice.section));
        if (sectionHeadings) {
            painter.setFont(sectionFont());
            painter.setPen(kInk);
            const QString heading = slice.continued
                ? QCoreApplication::translate("DeckLayout", "%1 (continued)").arg(section.heading)
                : section.heading;
            painter.drawText(QRectF(kMarginX, y, kContentWidth, kSectionHeadingHeight - 8),
                             Qt::AlignLeft | Qt::AlignVCenter, heading);
            y += kSectionHeadingHeight;
        }
        if (section.table.rows.isEmpty()) {
            paintTable(painter, section.table, 0, 0, y);
            painter.setFont(cellFont());
            painter.setPen(kMuted);
            painter.drawText(QRectF(kMarginX + kCellPadding, y + kTableHeaderHeight, kContentWidth, kTableRowHeight),
                             Qt::AlignVCenter | Qt::AlignLeft, QCoreApplication::translate("DeckLayout", "None."));
            y += kTableHeaderHeight + kTableRowHeight + kSectionGap;
            continue;
        }
        paintTable(painter, section.table, slice.rowBegin, slice.rowEnd, y);
        y += kTableHeaderHeight + tableRowsHeight(section.table, slice.rowBegin, slice.rowEnd) + kSectionGap;
    }
}

void DeckLayout::Plan::paintFigure(QPainter &painter, const PageSpec &page) const
{
    painter.setFont(figureHeadingFont());
    painter.setPen(kInk);
    const QRectF headingRect(kFigureMarginX, kFigureHeadingTop, kSlideFigureWidth - 120, kFigureHeadingHeight);
    painter.fillRect(QRectF(0, kFigureHeadingTop + 6, 8, kFigureHeadingHeight - 12), kAccent);
    painter.drawText(headingRect, Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetricsF(painter.font()).elidedText(page.heading, Qt::ElideRight, headingRect.width()));
    const QRectF box = figureBox(page.caption);
    QPicture picture;
    const bool recorded = !page.picture.isEmpty() && !page.canvas.isEmpty() && loadPicture(page.picture, picture);
    QSvgRenderer renderer(recorded ? QByteArray() : page.svg);
    QRectF figureRect = box;
    if (recorded) {
        // The drawing as recorded: text stays text, fonts embedded.
        figureRect = fittedFigure(box, page.canvas);
        painter.save();
        painter.setClipRect(figureRect);
        painter.translate(figureRect.topLeft());
        painter.scale(figureRect.width() / page.canvas.width(), figureRect.height() / page.canvas.height());
        painter.drawPicture(0, 0, picture);
        painter.restore();
    } else if (renderer.isValid()) {
        figureRect = fittedFigure(box, svgSize(renderer));
        // Only the view box: a custom view's own title band lies above it (see reportsnapshot).
        painter.save();
        painter.setClipRect(figureRect);
        renderer.render(&painter, figureRect);
        painter.restore();
    } else {
        painter.setPen(QPen(kRule, 1, Qt::DashLine));
        painter.drawRect(box);
        painter.setFont(bodyFont());
        painter.setPen(kMuted);
        painter.drawText(box, Qt::AlignCenter, QCoreApplication::translate("DeckLayout", "This figure could not be read."));
        figureRect = box;
    }
    if (!page.caption.isEmpty()) {
        painter.setFont(figureCaptionFont());
        painter.setPen(kMuted);
        painter.drawText(QRectF(kFigureMarginX, figureRect.bottom() + kFigureCaptionGap, kSlideFigureWidth,
                                figureCaptionHeight(page.caption)),
                         Qt::AlignLeft | Qt::TextWordWrap, page.caption);
    }
}

void DeckLayout::Plan::paintParagraphs(QPainter &painter, const PageSpec &page) const
{
    paintHeading(painter, page.heading);
    const qreal indent = page.bullets ? 28 : 0;
    qreal y = kBodyTop;
    painter.setFont(bodyFont());
    for (const QString &paragraph : page.paragraphs) {
        const qreal h = wrappedHeight(painter.font(), kContentWidth - indent, paragraph);
        if (page.bullets) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(kWarning);
            painter.drawEllipse(QPointF(kMarginX + 8, y + 12), 5, 5);
        }
        painter.setPen(kInk);
        painter.drawText(QRectF(kMarginX + indent, y, kContentWidth - indent, h), Qt::AlignLeft | Qt::TextWordWrap,
                         paragraph);
        y += h + 14;
    }
}

void DeckLayout::Plan::paintFooter(QPainter &painter, int page) const
{
    const qreal y = kDeckPageHeight - 40;
    painter.setPen(QPen(kRule, 1));
    painter.drawLine(QPointF(kMarginX, y - 8), QPointF(kDeckPageWidth - kMarginX, y - 8));
    painter.setFont(footerFont());
    painter.setPen(kMuted);
    QStringList left;
    left << (deck.title.isEmpty() ? QCoreApplication::translate("DeckLayout", "Capacity report") : deck.title);
    if (!deck.date.isEmpty())
        left << deck.date;
    painter.drawText(QRectF(kMarginX, y, kContentWidth / 2, 24), Qt::AlignLeft | Qt::AlignVCenter,
                     left.join(QStringLiteral("  ·  ")));
    painter.drawText(QRectF(kMarginX + kContentWidth / 2, y, kContentWidth / 2, 24), Qt::AlignRight | Qt::AlignVCenter,
                     QCoreApplication::translate("DeckLayout", "%1 / %2").arg(page + 1).arg(pages.size()));
}

bool writeDeckPdf(const Deck &deck, const QString &path, QString *error, const DeckProgress &progress,
                  store::ExistingFile existing)
{
    const DeckLayout layout(deck);
    try {
        store::ExportFile file(path, existing);
        {
            QPdfWriter pdf(&file.device());
            pdf.setResolution(96);
            pdf.setPageSize(QPageSize(QSizeF(kDeckPageWidth / 96.0, kDeckPageHeight / 96.0), QPageSize::Inch));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf.setTitle(deck.title);
            pdf.setCreator(QStringLiteral("Headroom"));
            QPainter painter;
            if (!painter.begin(&pdf)) {
                *error = QCoreApplication::translate("DeckLayout", "Cannot write %1: the PDF could not be started.")
                             .arg(path);
                return false;
            }
            const int total = layout.pageCount();
            for (int page = 0; page < total; ++page) {
                if (page > 0)
                    pdf.newPage();
                layout.paintPage(painter, page);
                if (progress && !progress(page + 1, total)) {
                    painter.end();
                    *error = QCoreApplication::translate("DeckLayout", "Export cancelled: %1 was not written.")
                                 .arg(path);
                    return false;
                }
            }
            painter.end();
        }
        file.commit();
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    return true;
}

} // namespace headroom::ui
