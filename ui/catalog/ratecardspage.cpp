#include "ratecardspage.h"

#include "common/format.h"
#include "catalogpage.h"
#include "catalogpanel.h"
#include "common/dialogs.h"
#include "store/cost/costcsv.h"
#include "store/common/exportfile.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace headroom::ui {

RateCardsPage::RateCardsPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_panel(new CatalogPanel(workspace, CatalogKind::RateCards, undoStack, this))
    , m_status(new QLabel(this))
{
    setObjectName("rateCardsPage");
    m_panel->view()->setObjectName("rateCardTable");
    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    addEditActions(toolbar, this, [this] { return m_panel; });
    toolbar->addSeparator();
    toolbar->addAction(tr("Import CSV…"), this, &RateCardsPage::importCsv);
    toolbar->addAction(tr("Export CSV…"), this, &RateCardsPage::exportCsv);

    auto *about = new QLabel(tr("Prices per GPU-hour, exact to 9 decimals. A card applies from its effective "
                                "date until a newer card for the same provider, region and GPU; older cards are "
                                "kept as history. Committed (1- and 3-year) rates are negotiated: shipped ones "
                                "are marked as examples — replace them with yours."), this);
    about->setWordWrap(true);
    m_status->setObjectName("rateCardStatus");
    m_status->setWordWrap(true);
    connect(m_panel, &CatalogPanel::statusMessage, m_status, &QLabel::setText);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(toolbar);
    layout->addWidget(about);
    layout->addWidget(m_panel, 1);
    layout->addWidget(m_status);
}

void RateCardsPage::importCsv()
{
    const QString path = Dialogs::openFileName(this, tr("Import rate cards"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    std::vector<engine::RateCard> cards;
    try {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            throw store::StoreError(tr("Cannot read %1: %2").arg(path, file.errorString()));
        cards = store::parseRateCardsCsv(file.readAll(), QFileInfo(path).fileName());
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Import failed"), tr("Nothing was imported.\n\n%1").arg(e.message()));
        return;
    }
    std::vector<QJsonObject> entries;
    for (const auto &c : cards)
        entries.push_back(rateCardToJson(c));
    m_panel->putEntries(entries, tr("Import rate cards from %1").arg(QFileInfo(path).fileName()));
    m_status->setText(tr("Imported %1 from %2.").arg(formatCountOf(entries.size(), QT_TRANSLATE_NOOP("headroom::ui", "%n rate card(s)")), path));
}

void RateCardsPage::exportCsv()
{
    const QString path = Dialogs::exportFileName(this, tr("Export rate cards"), tr("ratecards.csv"),
                                                 tr("CSV files (*.csv)"), {QStringLiteral("csv")});
    if (path.isEmpty())
        return;
    try {
        store::writeExportFile(path, store::rateCardsToCsv(m_workspace.rateCards()), store::ExistingFile::Replace);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Export failed"), e.message());
        return;
    }
    m_status->setText(tr("Exported %1 to %2.").arg(formatCountOf(m_workspace.rateCards().size(), QT_TRANSLATE_NOOP("headroom::ui", "%n rate card(s)")), path));
}

} // namespace headroom::ui
