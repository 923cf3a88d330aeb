#include "common/uitestsupport.h"

#include "ui/catalog/catalogpanel.h"
#include "ui/catalog/catalogtablemodel.h"
#include "ui/common/dialogs.h"
#include "ui/catalog/ratecardspage.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QUndoStack>

using namespace headroom;

namespace {

int columnOf(QAbstractItemModel *model, const QString &header)
{
    for (int c = 0; c < model->columnCount(); ++c)
        if (model->headerData(c, Qt::Horizontal).toString() == header)
            return c;
    return -1;
}

} // namespace

TEST_CASE("Rate cards page lists the shipped cards with their history and units")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::RateCardsPage page(*ws, &undo);
    auto *model = page.panel()->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Warning);
    CHECK(model->rowCount() == int((*ws).rateCards().size()));
    CHECK(model->rowCount() >= 7);
    CHECK(columnOf(model, "On-demand (per GPU-h)") >= 0);
    CHECK(columnOf(model, "Lead time (weeks)") >= 0);
    // GCP a3-highgpu-8g: $87.8325 per 8-GPU hour, kept exact per GPU
    int gcp = -1;
    for (int r = 0; r < model->rowCount() && gcp < 0; ++r)
        if (model->index(r, columnOf(model, "Provider")).data().toString() == "GCP")
            gcp = r;
    REQUIRE(gcp >= 0);
    CHECK(model->index(gcp, columnOf(model, "On-demand (per GPU-h)")).data().toString() == "10.9790625");
}

TEST_CASE("Editing a rate in place keeps it exact and is undoable")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::RateCardsPage page(*ws, &undo);
    auto *model = page.panel()->model();
    const int column = columnOf(model, "On-demand (per GPU-h)");
    int row = -1;
    for (int r = 0; r < model->rowCount() && row < 0; ++r)
        if (model->index(r, column).data().toString() == "6.88")
            row = r;
    REQUIRE(row >= 0);
    const QString id = model->index(row, 0).data(ui::CatalogTableModel::kIdRole).toString();
    REQUIRE(model->setData(model->index(row, column), "7.0123456"));
    CHECK((*ws).rateCard(id)->onDemand.toString() == "7.0123456");
    undo.undo();
    CHECK((*ws).rateCard(id)->onDemand.toString() == "6.88");
}

TEST_CASE("A committed rate above on-demand is refused with the field named")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::RateCardsPage page(*ws, &undo);
    auto *model = page.panel()->model();
    QString rejected;
    QObject::connect(model, &ui::CatalogTableModel::editRejected, [&](const QString &m) { rejected = m; });
    const int column = columnOf(model, "1-year (per GPU-h)");
    REQUIRE(column >= 0);
    CHECK_FALSE(model->setData(model->index(0, column), "999"));
    CHECK(rejected.contains("reserved_1y"));
    CHECK(undo.count() == 0);
}

TEST_CASE("Importing a rate card CSV with a bad value imports nothing and names the line")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::RateCardsPage page(*ws, &undo);
    QTemporaryDir dir;
    QFile bad(dir.filePath("rates.csv"));
    REQUIRE(bad.open(QIODevice::WriteOnly));
    bad.write("provider,region,gpu,instance_type,currency,effective_date,on_demand,reserved_1y,reserved_1y_upfront,"
              "reserved_3y,reserved_3y_upfront,spot,spot_interruption_rate,lead_weeks,committed_are_examples,source\n"
              "Acme,eu-1,h100-sxm,x8,USD,2026-01-01,abc,0,0,0,0,0,0,0,1,test\n");
    bad.close();
    const size_t before = (*ws).rateCards().size();
    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueFileAnswer(bad.fileName());
    page.importCsv();
    const QStringList shown = ui::Dialogs::takeShownMessages();
    ui::Dialogs::setScripted(false);
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("line 2"));
    CHECK(shown.first().contains("on_demand"));
    CHECK((*ws).rateCards().size() == before);
    CHECK(undo.count() == 0);
}

TEST_CASE("A card replaced by a newer one in force is shown as history")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::RateCardsPage page(*ws, &undo);
    auto *model = page.panel()->model();
    // AWS H100: 12.29 from 2023-07-26, replaced by 6.88 from 2025-06-01
    const int column = columnOf(model, "On-demand (per GPU-h)");
    int old = -1, current = -1;
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->index(r, column).data().toString() == "12.29")
            old = r;
        if (model->index(r, column).data().toString() == "6.88")
            current = r;
    }
    REQUIRE(old >= 0);
    REQUIRE(current >= 0);
    CHECK(model->index(old, column).data(Qt::ForegroundRole).value<QColor>() == QColor(Qt::gray));
    CHECK(model->index(old, column).data(Qt::ToolTipRole).toString().contains("superseded by the card effective 2025-06-01"));
    CHECK_FALSE(model->index(current, column).data(Qt::ForegroundRole).isValid());
}
