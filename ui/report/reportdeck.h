#pragma once

#include "store/common/exportfile.h"

#include <QByteArray>
#include <QList>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

class QPainter;

namespace headroom::ui {

// A table as printed in the deck: a header row and rows of text cells. Cells that read as
// numbers or money are right-aligned; long tables continue on the next page.
struct DeckTable {
    QStringList columns;
    QList<QStringList> rows;
};

// One entry of the deck: a figure (SVG, kept as vectors), a table or a paragraph of text.
struct DeckItem {
    enum class Kind { Figure, Table, Text };
    Kind kind = Kind::Figure;
    QString title;
    QString caption;
    QByteArray svg;   // Figure
    // Figure: the same drawing recorded as a QPicture (QPicture::save), which the deck replays
    // so that its text stays text in the PDF (QSvgRenderer draws SVG text as outlines), and
    // the size of the canvas it was drawn on. Empty for figures stored before it existed.
    QByteArray picture;
    QSizeF canvas;
    DeckTable table;  // Table
    // Table: headline numbers (label, value) shown as tiles above it, e.g. cost per month.
    std::vector<std::pair<QString, QString>> keyFigures;
    QString text;     // Text: paragraphs separated by blank lines
    bool bulleted = false; // Text: paragraphs as a list of warnings
};

// A titled block of the assumptions pages, e.g. "Rate cards in force".
struct DeckSection {
    QString heading;
    DeckTable table;
};

// One block of the summary slide: what a scenario (or a figure of the deck) decides, in one
// sentence, with its headline numbers (label, value).
struct DeckSummaryEntry {
    QString name;
    QString decision;
    std::vector<std::pair<QString, QString>> figures;
};

// Everything a deck shows, in order: title page, the summary slide (the recommendation and a
// table with one row per entry: name, headline numbers, decision; four rows fit one slide, more
// go on "Summary (continued)" slides) when there is one, the items (one chart per page, tables paginated), the
// warnings (identical ones said once, with their count), then the assumptions as an appendix.
// Page numbers in the footer.
struct Deck {
    QString title;
    QString subtitle;
    QString author;
    QString date;
    QString workspaceName;
    QString recommendation;
    std::vector<DeckSummaryEntry> summary;
    std::vector<DeckSection> assumptions;
    std::vector<DeckItem> items;
    QStringList warnings;
};

// Warnings said once each, in first-seen order; a line given n > 1 times ends "(n times)".
QStringList countedWarnings(const QStringList &warnings);

// Deck pages: 16:9 landscape, 13.333 × 7.5 in, laid out in 96-dpi units (1280 × 720), so
// 1 unit is 0.75 pt: 14 pt text is 18.67 units tall.
constexpr int kDeckPageWidth = 1280;
constexpr int kDeckPageHeight = 720;
// A figure page's figure: the whole width but a thin margin and the height left by a compact
// heading and a caption of up to three lines; charts are drawn for the deck at this size
// (reportItemFromFigure), so that they fill at least 75 % of the slide at scale 1.
constexpr int kSlideFigureWidth = 1232;
constexpr int kSlideFigureHeight = 576;
// The smallest text of a chart drawn for the deck, in points (at scale 1 on the page).
constexpr qreal kSlideMinPointSize = 15;

// The deck cut into pages. Pagination depends only on the deck, so the PDF and the on-screen
// preview show the same pages.
class DeckLayout {
public:
    explicit DeckLayout(const Deck &deck);
    ~DeckLayout();
    DeckLayout(const DeckLayout &) = delete;
    DeckLayout &operator=(const DeckLayout &) = delete;

    int pageCount() const;
    // The first page showing deck.items[item], or -1.
    int firstPageOfItem(int item) const;
    // Paints page `page` (0-based) into a 1280 × 720 logical rectangle at the origin.
    void paintPage(QPainter &painter, int page) const;
    // The page's heading ("Summary", an item's title, "Appendix: assumptions").
    QString pageHeading(int page) const;
    // On a figure page, the rectangle its figure fills; empty on other pages.
    QRectF figureRect(int page) const;
    // The title page's and footers' words: they change no page's layout.
    void setTitlePage(const QString &title, const QString &author, const QString &date);

private:
    struct Plan;
    std::unique_ptr<Plan> m_plan;
};

// Called after each page with (pages done, total); return false to cancel.
using DeckProgress = std::function<bool(int done, int total)>;

// Writes the deck as a vector PDF with its fonts embedded, through a store::ExportFile: the
// file appears only when the whole deck was written; on failure or cancel nothing is left
// behind, a previous file stays as it was and `error` says why (naming the file). A symbolic
// link at `path` is refused, and an existing file unless `existing` is Replace.
bool writeDeckPdf(const Deck &deck, const QString &path, QString *error, const DeckProgress &progress = {},
                  store::ExistingFile existing = store::ExistingFile::Refuse);

} // namespace headroom::ui
