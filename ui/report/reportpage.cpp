#include "reportpage.h"

#include "common/dialogs.h"
#include "reportcommand.h"
#include "reportdeck.h"
#include "reportsnapshot.h"

#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <algorithm>
#include <QAbstractItemModel>
#include <QDate>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

constexpr int kPositionRole = Qt::UserRole + 1;

enum SettingsField { TitleField, AuthorField, DateField };

bool sameItems(const std::vector<store::ReportItem> &a, const std::vector<store::ReportItem> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const store::ReportItem &x, const store::ReportItem &y) {
        return x.kind == y.kind && x.title == y.title && x.caption == y.caption && x.content == y.content
            && x.source == y.source && x.pinned == y.pinned && x.takenAt == y.takenAt;
    });
}

QString kindLabel(store::ReportItem::Kind kind)
{
    switch (kind) {
    case store::ReportItem::Kind::Figure:
        return QObject::tr("Chart");
    case store::ReportItem::Kind::Table:
        return QObject::tr("Table");
    case store::ReportItem::Kind::Text:
        return QObject::tr("Text");
    }
    return {};
}

} // namespace

// One deck page scaled into the widget, on a grey desk with a drop shadow.
class DeckPreview : public QWidget {
public:
    explicit DeckPreview(QWidget *parent) : QWidget(parent)
    {
        setObjectName("reportPreview");
        setMinimumSize(480, 270);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

    void showPage(const DeckLayout *layout, int page)
    {
        m_layout = layout;
        m_page = page;
        update();
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        painter.fillRect(rect(), palette().color(QPalette::Mid));
        if (!m_layout || m_page < 0 || m_page >= m_layout->pageCount()) {
            painter.setPen(palette().color(QPalette::BrightText));
            painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                             tr("Select an item to see its page.\nAdd charts with “Add to Report” "
                                "(Ctrl+Shift+R) on any chart or view."));
            return;
        }
        const QSizeF page(kDeckPageWidth, kDeckPageHeight);
        const QSizeF fitted = page.scaled(QSizeF(size()) - QSizeF(32, 32), Qt::KeepAspectRatio);
        const QRectF target(QPointF((width() - fitted.width()) / 2, (height() - fitted.height()) / 2), fitted);
        painter.fillRect(target.translated(3, 3), QColor(0, 0, 0, 60));
        painter.save();
        painter.translate(target.topLeft());
        painter.scale(fitted.width() / page.width(), fitted.height() / page.height());
        m_layout->paintPage(painter, m_page);
        painter.restore();
    }

private:
    const DeckLayout *m_layout = nullptr;
    int m_page = -1;
};

ReportPage::ReportPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("reportPage");
    auto *inputs = new QWidget(this);
    auto *inputsLayout = new QVBoxLayout(inputs);

    auto *titleBox = new QGroupBox(tr("Title page"), inputs);
    auto *form = new QFormLayout(titleBox);
    m_title = new QLineEdit(titleBox);
    m_title->setObjectName("reportTitle");
    m_title->setPlaceholderText(tr("Capacity report"));
    m_title->setToolTip(tr("The deck's title, on the title page and in every page footer."));
    m_author = new QLineEdit(titleBox);
    m_author->setObjectName("reportAuthor");
    m_author->setToolTip(tr("Who presents the deck; printed on the title page."));
    m_date = new QLineEdit(titleBox);
    m_date->setObjectName("reportDate");
    m_date->setPlaceholderText(QLocale(QLocale::English).toString(QDate::currentDate(), QStringLiteral("d MMMM yyyy")));
    m_date->setToolTip(tr("The date printed on the title page and in the footer, as you want it written; empty: the day of the export."));
    form->addRow(tr("&Title:"), m_title);
    form->addRow(tr("&Author:"), m_author);
    form->addRow(tr("&Date:"), m_date);
    inputsLayout->addWidget(titleBox);

    auto *itemsBox = new QGroupBox(tr("Items, in deck order"), inputs);
    auto *itemsLayout = new QVBoxLayout(itemsBox);
    m_list = new QListWidget(itemsBox);
    m_list->setObjectName("reportItems");
    m_list->setDragDropMode(QAbstractItemView::InternalMove);
    m_list->setDefaultDropAction(Qt::MoveAction);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setWordWrap(true); // long titles on two lines, whole
    m_list->setResizeMode(QListView::Adjust);
    m_list->setToolTip(tr("Charts and tables added with “Add to Report”. Drag to reorder, or use "
                          "Alt+Up / Alt+Down; Delete removes the selected item."));
    itemsLayout->addWidget(m_list, 1);
    auto *buttons = new QHBoxLayout;
    m_up = new QPushButton(tr("&Up"), itemsBox);
    m_up->setObjectName("reportUp");
    m_up->setToolTip(tr("Move the selected item one page earlier (Alt+Up)."));
    m_down = new QPushButton(tr("Do&wn"), itemsBox);
    m_down->setObjectName("reportDown");
    m_down->setToolTip(tr("Move the selected item one page later (Alt+Down)."));
    m_remove = new QPushButton(tr("&Remove"), itemsBox);
    m_remove->setObjectName("reportRemove");
    m_remove->setToolTip(tr("Remove the selected item from the report (Delete). Undo brings it back."));
    m_pin = new QPushButton(tr("&Pin"), itemsBox);
    m_pin->setObjectName("reportPin");
    buttons->addWidget(m_up);
    buttons->addWidget(m_down);
    buttons->addWidget(m_pin);
    buttons->addStretch(1);
    buttons->addWidget(m_remove);
    itemsLayout->addLayout(buttons);
    inputsLayout->addWidget(itemsBox, 1);

    auto *exportBox = new QGroupBox(tr("Export"), inputs);
    auto *exportLayout = new QVBoxLayout(exportBox);
    auto *exportButtons = new QHBoxLayout;
    m_export = new QPushButton(tr("&Export PDF…"), exportBox);
    m_export->setObjectName("reportExport");
    m_export->setToolTip(tr("Write the deck as a 16:9 vector PDF with its fonts embedded: title page, "
                            "assumptions, one chart per page, tables and warnings."));
    m_cancel = new QPushButton(tr("&Cancel"), exportBox);
    m_cancel->setObjectName("reportCancel");
    m_cancel->setEnabled(false);
    exportButtons->addWidget(m_export);
    exportButtons->addWidget(m_cancel);
    exportLayout->addLayout(exportButtons);
    m_progress = new QProgressBar(exportBox);
    m_progress->setObjectName("reportProgress");
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    exportLayout->addWidget(m_progress);
    m_status = new QLabel(exportBox);
    m_status->setObjectName("reportStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    exportLayout->addWidget(m_status);
    inputsLayout->addWidget(exportBox);

    auto *results = new QWidget(this);
    auto *resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    m_preview = new DeckPreview(results);
    m_pageLabel = new QLabel(results);
    m_pageLabel->setObjectName("reportPageLabel");
    m_pageLabel->setAlignment(Qt::AlignCenter);
    resultsLayout->addWidget(m_preview, 1);
    resultsLayout->addWidget(m_pageLabel);
    layOutPage(inputs, results, 360);

    connect(m_title, &QLineEdit::textEdited, this, [this](const QString &text) { editSettings(TitleField, text); });
    connect(m_author, &QLineEdit::textEdited, this, [this](const QString &text) { editSettings(AuthorField, text); });
    connect(m_date, &QLineEdit::textEdited, this, [this](const QString &text) { editSettings(DateField, text); });
    connect(m_up, &QPushButton::clicked, this, [this] { moveSelected(-1); });
    connect(m_down, &QPushButton::clicked, this, [this] { moveSelected(1); });
    connect(m_remove, &QPushButton::clicked, this, &ReportPage::removeSelected);
    connect(m_pin, &QPushButton::clicked, this, &ReportPage::togglePinSelected);
    connect(m_export, &QPushButton::clicked, this, &ReportPage::chooseExportPath);
    connect(m_cancel, &QPushButton::clicked, this, &ReportPage::cancelExport);
    connect(m_list, &QListWidget::currentRowChanged, this, [this] {
        updatePinButton();
        refreshPreview();
    });
    for (const auto &[keys, delta] : {std::pair{Qt::ALT | Qt::Key_Up, -1}, std::pair{Qt::ALT | Qt::Key_Down, 1}}) {
        auto *shortcut = new QShortcut(QKeySequence(keys), m_list, nullptr, nullptr, Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, [this, delta = delta] { moveSelected(delta); });
    }
    auto *remove = new QShortcut(QKeySequence::Delete, m_list, nullptr, nullptr, Qt::WidgetShortcut);
    connect(remove, &QShortcut::activated, this, &ReportPage::removeSelected);
    // A drop reorders the list widget first; the move is stored once the drop has finished.
    connect(m_list->model(), &QAbstractItemModel::rowsMoved, this,
            [this](const QModelIndex &, int start, int, const QModelIndex &, int row) {
                if (m_refreshing)
                    return;
                const int to = row > start ? row - 1 : row;
                QTimer::singleShot(0, this, [this, start, to] { rowsDropped(start, to); });
            });
    connect(&m_workspace, &store::Workspace::reportChanged, this, &ReportPage::refresh);
    // Items drawn from the workspace follow its edits; a burst of edits builds the deck once.
    m_inputsTimer = new QTimer(this);
    m_inputsTimer->setSingleShot(true);
    m_inputsTimer->setInterval(250);
    connect(m_inputsTimer, &QTimer::timeout, this, [this] {
        if (m_inputsStale && isVisible()) {
            m_layout.reset();
            refresh();
        }
    });
    for (const auto signal : {&store::Workspace::gpusChanged, &store::Workspace::modelsChanged,
                              &store::Workspace::rateCardsChanged, &store::Workspace::demandSeriesChanged,
                              &store::Workspace::workloadsChanged, &store::Workspace::trainingJobsChanged,
                              &store::Workspace::scenariosChanged, &store::Workspace::servingAssumptionsChanged,
                              &store::Workspace::kvVariantsChanged, &store::Workspace::actualsChanged,
                              &store::Workspace::servingMetricsChanged})
        connect(&m_workspace, signal, this, &ReportPage::inputsChanged);
    refresh();
}

void ReportPage::inputsChanged()
{
    m_inputsStale = true;
    m_inputsTimer->start();
}

void ReportPage::showEvent(QShowEvent *event)
{
    Page::showEvent(event);
    if (m_inputsStale)
        m_inputsTimer->start(0);
}

ReportPage::~ReportPage() = default;

int ReportPage::addFigure(const ChartFigure &figure)
{
    store::ReportItem item = reportItemFromFigure(figure);
    stampReportItem(item, m_workspace);
    m_undoStack->push(new ReportAddCommand(m_workspace, item));
    return m_list->count();
}

int ReportPage::addTable(const QString &title, const QString &caption, const DeckTable &table,
                         const QJsonObject &source)
{
    store::ReportItem item = reportItemFromTable(title, caption, table, source);
    stampReportItem(item, m_workspace);
    m_undoStack->push(new ReportAddCommand(m_workspace, item));
    return m_list->count();
}

int ReportPage::addItems(const std::vector<store::ReportItem> &items, const QString &what)
{
    m_undoStack->beginMacro(tr("Add %1 to the report").arg(what));
    for (const store::ReportItem &item : items)
        m_undoStack->push(new ReportAddCommand(m_workspace, item));
    m_undoStack->endMacro();
    return m_list->count();
}

QString ReportPage::itemCountText(int count)
{
    return count == 1 ? tr("1 item") : tr("%1 items").arg(count);
}

int ReportPage::previewPage() const
{
    const int row = m_list->currentRow();
    return m_layout && row >= 0 ? m_layout->firstPageOfItem(row) : -1;
}

int ReportPage::deckPageCount() const
{
    return m_layout ? m_layout->pageCount() : 0;
}

void ReportPage::refresh()
{
    const int row = m_list->currentRow();
    const std::vector<store::ReportItem> items = m_workspace.reportItems();
    m_refreshing = true;
    m_list->clear();
    for (size_t i = 0; i < items.size(); ++i) {
        const store::ReportItem &item = items[i];
        QString text = QStringLiteral("%1. %2 — %3").arg(i + 1).arg(kindLabel(item.kind), item.title);
        if (item.pinned)
            text += tr(" (pinned)");
        auto *entry = new QListWidgetItem(text, m_list);
        entry->setData(kPositionRole, int(i));
        const QString taken = reportItemTakenText(item);
        const QString asOf = taken.isEmpty() ? tr("an unknown date") : taken;
        const QString state = item.pinned ? tr("Pinned as of %1: the deck keeps it as it was then.").arg(asOf)
            : QJsonDocument::fromJson(item.source.toUtf8()).object().contains(QLatin1String("reads"))
            ? tr("Added %1 from a run: the deck keeps it while nothing the run read changes, and says what changed "
                 "once something does.").arg(asOf)
            : !item.source.isEmpty()
            ? tr("Drawn again from the workspace at every export.")
            : tr("A snapshot of the page's inputs as of %1: the deck stamps it when the workspace changes.").arg(asOf);
        entry->setToolTip((item.caption.isEmpty() ? item.title : item.caption) + QStringLiteral("\n\n") + state);
    }
    m_refreshing = false;
    const store::ReportSettings settings = m_workspace.reportSettings();
    for (const auto &[edit, value] : {std::pair{m_title, settings.title}, std::pair{m_author, settings.author},
                                      std::pair{m_date, settings.date}}) {
        if (edit->text() != value)
            edit->setText(value);
    }
    // A change of the title page alone (a keystroke in Title, Author or Date) re-lays out
    // nothing: the words are swapped on the deck shown. Anything else builds the deck anew.
    if (m_layout && sameItems(items, m_layoutItems)) {
        Deck titlePage;
        setDeckTitlePage(titlePage, settings);
        m_layout->setTitlePage(titlePage.title, titlePage.author, titlePage.date);
    } else {
        m_layout = std::make_unique<DeckLayout>(workspaceDeck(m_workspace));
        m_layoutItems = items;
        m_inputsStale = false;
        ++m_deckBuilds;
    }
    m_list->setCurrentRow(std::min(row, m_list->count() - 1));
    const bool any = m_list->count() > 0;
    m_up->setEnabled(any);
    m_down->setEnabled(any);
    m_remove->setEnabled(any);
    updatePinButton();
    refreshPreview();
}

void ReportPage::updatePinButton()
{
    const int row = m_list->currentRow();
    const std::vector<store::ReportItem> items = m_workspace.reportItems();
    const bool selected = row >= 0 && row < int(items.size());
    const bool pinned = selected && items[size_t(row)].pinned;
    m_pin->setEnabled(selected);
    m_pin->setText(pinned ? tr("Un&pin") : tr("&Pin"));
    m_pin->setToolTip(pinned ? tr("Let the selected item follow the workspace again: drawn anew at every export "
                                  "(a snapshot of a page's inputs stays one, stamped when the workspace changes).")
                             : tr("Keep the selected item as it is drawn now. The deck stamps it “as of …, inputs "
                                  "changed since” once the workspace changes."));
}

void ReportPage::togglePinSelected()
{
    const int row = m_list->currentRow();
    const std::vector<store::ReportItem> items = m_workspace.reportItems();
    if (row < 0 || row >= int(items.size()))
        return;
    const store::ReportItem &before = items[size_t(row)];
    store::ReportItem after = before;
    if (before.pinned)
        after.pinned = false;
    else
        after = pinnedReportItem(m_workspace, before);
    m_undoStack->push(new ReportReplaceCommand(m_workspace, row, before, after,
                                               before.pinned ? tr("Unpin “%1”").arg(before.title)
                                                             : tr("Pin “%1”").arg(before.title)));
    m_list->setCurrentRow(row);
}

void ReportPage::refreshPreview()
{
    const int page = previewPage();
    m_preview->showPage(m_layout.get(), page);
    m_pageLabel->setText(page >= 0 ? tr("Page %1 of %2").arg(page + 1).arg(deckPageCount())
                                   : tr("%1, %2 pages in the deck").arg(itemCountText(m_list->count())).arg(deckPageCount()));
}

void ReportPage::editSettings(int field, const QString &value)
{
    const store::ReportSettings before = m_workspace.reportSettings();
    store::ReportSettings after = before;
    (field == TitleField ? after.title : field == AuthorField ? after.author : after.date) = value;
    m_undoStack->push(new ReportSettingsCommand(m_workspace, before, after, field));
}

void ReportPage::moveSelected(int delta)
{
    const int from = m_list->currentRow();
    const int to = from + delta;
    if (from < 0 || to < 0 || to >= m_list->count())
        return;
    const QString title = m_workspace.reportItems().at(size_t(from)).title;
    m_undoStack->push(new ReportMoveCommand(m_workspace, from, to, title));
    m_list->setCurrentRow(to);
}

void ReportPage::rowsDropped(int from, int to)
{
    const std::vector<store::ReportItem> items = m_workspace.reportItems();
    if (from == to || from < 0 || to < 0 || from >= int(items.size()) || to >= int(items.size())) {
        refresh();
        return;
    }
    m_undoStack->push(new ReportMoveCommand(m_workspace, from, to, items.at(size_t(from)).title));
    m_list->setCurrentRow(to);
}

void ReportPage::removeSelected()
{
    const int row = m_list->currentRow();
    const std::vector<store::ReportItem> items = m_workspace.reportItems();
    if (row < 0 || row >= int(items.size()))
        return;
    m_undoStack->push(new ReportRemoveCommand(m_workspace, row, items.at(size_t(row))));
}

void ReportPage::chooseExportPath()
{
    QString title = m_workspace.reportSettings().title.toLower();
    title.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    title.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    const QString suggested = QDir::home().filePath((title.isEmpty() ? QStringLiteral("capacity-report") : title)
                                                    + QStringLiteral(".pdf"));
    const QString path = Dialogs::exportFileName(this, tr("Export report"), suggested, tr("PDF document (*.pdf)"),
                                                 {QStringLiteral("pdf")});
    if (path.isEmpty())
        return;
    startExport(path);
}

bool ReportPage::exportRunning() const
{
    return m_job.isRunning();
}

void ReportPage::startExport(const QString &path)
{
    if (m_job.isRunning())
        return;
    auto outcome = std::make_shared<std::pair<bool, QString>>(false, QString());
    auto work = [deck = workspaceDeck(m_workspace), path, outcome](const JobProgress &progress) {
        QString error;
        const bool written = writeDeckPdf(
            deck, path, &error, [&](int done, int total) { return progress.report(double(done) / total); },
            store::ExistingFile::Replace);
        *outcome = {written, written ? path : error};
    };
    m_export->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_status->setText(tr("Writing %1…").arg(QDir::toNativeSeparators(path)));
    m_job.start(this, m_progress, work, [this, outcome] { finishExport(outcome->first, outcome->second); });
}

void ReportPage::cancelExport()
{
    m_job.cancel();
    m_status->setText(tr("Cancelling…"));
}

void ReportPage::finishExport(bool written, const QString &message)
{
    m_export->setEnabled(true);
    m_cancel->setEnabled(false);
    if (written) {
        m_progress->setValue(100);
        m_status->setText(tr("Wrote %1 (%2 pages).").arg(QDir::toNativeSeparators(message)).arg(deckPageCount()));
    } else {
        m_progress->setValue(0);
        m_status->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(message.toHtmlEscaped()));
        if (!m_job.cancelRequested())
            Dialogs::warning(this, tr("Export failed"), message);
    }
    emit exportFinished(written, written ? tr("Wrote %1").arg(message) : message);
}

} // namespace headroom::ui
