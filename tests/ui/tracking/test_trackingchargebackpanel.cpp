#include "common/uitestsupport.h"

#include "ui/common/chartpanel.h"
#include "ui/common/dialogs.h"
#include "ui/tracking/trackingchargebackpanel.h"
#include "ui/tracking/trackingpage.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using namespace headroom;

namespace {

template <class T>
T *child(QWidget &page, const char *name)
{
    auto *w = page.findChild<T *>(QLatin1String(name));
    REQUIRE(w);
    return w;
}

QString cell(QTableWidget *table, int row, int column)
{
    auto *item = table->item(row, column);
    return item ? item->text() : QString();
}

// One H100 in MIG for two days at $3.50 an hour: alpha a 1g.10gb, beta a 3g.40gb, both days.
QByteArray bill()
{
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ResourceId\n";
    for (int h = 0; h < 48; ++h) {
        const QDateTime start = QDateTime(QDate(2026, 3, 1), QTime(0, 0), Qt::UTC).addSecs(h * 3600);
        csv += QStringLiteral("USD,%1,%2,Usage,3.50,3.50,node-a\n")
                   .arg(start.toString(Qt::ISODate), start.addSecs(3600).toString(Qt::ISODate))
                   .toUtf8();
    }
    return csv;
}

const QByteArray kClaims =
    "tenant,resource_id,resource_gpus,gpu_type,gpu,mode,profile,start,end\n"
    "alpha,node-a,1,h100-sxm,0,mig,1g.10gb,2026-03-01T00:00:00Z,2026-03-03T00:00:00Z\n"
    "beta,node-a,1,h100-sxm,0,mig,3g.40gb,2026-03-01T00:00:00Z,2026-03-03T00:00:00Z\n";

bool loadAndWait(ui::TrackingChargebackPanel *panel, const QString &claims, const QString &focus)
{
    QSignalSpy finished(panel, &ui::TrackingChargebackPanel::finished);
    panel->load(claims, focus);
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 60000));
    return finished.first().first().toBool();
}

} // namespace

TEST_CASE("Tracking page Chargeback section: shares by slice-hours beside the quota split, re-added to the invoice")
{
    TempWorkspace ws;
    QTemporaryDir dir;
    ui::TrackingPage page(*ws);
    page.resize(1280, 800);
    page.show();
    page.showChargeback();
    ui::TrackingChargebackPanel *panel = page.chargebackPanel();
    CHECK_FALSE(child<QPushButton>(page, "chargebackLoad")->isEnabled());
    CHECK_FALSE(child<QPushButton>(page, "chargebackExportCsv")->isEnabled());
    CHECK_FALSE(page.currentTable().has_value());

    REQUIRE(loadAndWait(panel, writeFile(dir, "claims.csv", kClaims), writeFile(dir, "bill.csv", bill())));
    auto *shares = child<QTableWidget>(page, "chargebackShares");
    // $168.00: alpha 1/7 = 24.00, beta 3/7 = 72.00, idle 72.00; the quota splits the 96.00
    // charged 48.00 / 48.00.
    REQUIRE(shares->rowCount() == 4);
    CHECK(cell(shares, 0, 0) == "alpha");
    CHECK(cell(shares, 0, 3) == "24.00");
    CHECK(cell(shares, 0, 4) == "48.00");
    CHECK(cell(shares, 0, 5) == "24.00");
    CHECK(cell(shares, 1, 3) == "72.00");
    CHECK(cell(shares, 1, 5) == QString(QChar(0x2212)) + "24.00");
    CHECK(cell(shares, 2, 0) == "(idle capacity)");
    CHECK(cell(shares, 2, 3) == "72.00");
    CHECK(cell(shares, 3, 0) == "Total");
    CHECK(cell(shares, 3, 3) == "168.00");
    CHECK(cell(shares, 3, 4) == "168.00");
    CHECK(child<QLabel>(page, "chargebackStatus")->text().contains("Invoice of the pool 168.00 USD"));
    CHECK(child<QPlainTextEdit>(page, "chargebackKueue")->toPlainText().contains("input: nvidia.com/mig-3g.40gb"));
    REQUIRE(page.currentTable().has_value());
    CHECK(page.currentTable()->rows.size() == 4);

    // The chart: both bar sets re-add to the invoice.
    QChart *chart = page.chartPanels().first()->chart();
    auto *bars = qobject_cast<QBarSeries *>(chart->series().first());
    REQUIRE(bars);
    for (QBarSet *set : bars->barSets()) {
        double sum = 0;
        for (int i = 0; i < set->count(); ++i)
            sum += set->at(i);
        CHECK(sum == Approx(168.0));
    }

    // By memory slices: 1/8 and 4/8 at once, without reading the files again.
    child<QComboBox>(page, "chargebackBasis")->setCurrentIndex(1);
    CHECK(cell(shares, 0, 3) == "21.00");
    CHECK(cell(shares, 1, 3) == "84.00");
    // Idle spread pro rata: 168 split 1:4.
    child<QComboBox>(page, "chargebackIdle")->setCurrentIndex(1);
    CHECK(cell(shares, 0, 3) == "33.60");
    CHECK(cell(shares, 1, 3) == "134.40");
    CHECK(cell(shares, 2, 3) == "0.00");

    // One day only: half the invoice.
    child<QComboBox>(page, "chargebackIdle")->setCurrentIndex(0);
    child<QCheckBox>(page, "chargebackWholeSpan")->setChecked(false);
    CHECK(child<QDateEdit>(page, "chargebackFrom")->date() == QDate(2026, 3, 1));
    CHECK(child<QDateEdit>(page, "chargebackTo")->date() == QDate(2026, 3, 2));
    child<QDateEdit>(page, "chargebackTo")->setDate(QDate(2026, 3, 1));
    CHECK(cell(shares, 3, 3) == "84.00");
    CHECK(cell(shares, 0, 3) == "10.50");

    // The allocation CSV as `track chargeback --csv` writes it.
    const QString csvPath = dir.filePath("allocation.csv");
    REQUIRE(panel->exportAllocation(csvPath));
    QFile csv(csvPath);
    REQUIRE(csv.open(QIODevice::ReadOnly));
    const QStringList rows = QString::fromUtf8(csv.readAll()).trimmed().split('\n');
    REQUIRE(rows.size() == 4);
    CHECK(rows[1].startsWith("2026-03-01T00:00:00Z,2026-03-02T00:00:00Z,USD,10.50,headroom-slice-hours-memory-idle-apart,alpha,"));
    REQUIRE(panel->saveKueueConfig(dir.filePath("kueue.yaml")));
    QFile yaml(dir.filePath("kueue.yaml"));
    REQUIRE(yaml.open(QIODevice::ReadOnly));
    CHECK(yaml.readAll().contains("headroom.io/gpu-memory-slices: \"4\""));
}

TEST_CASE("Tracking page Chargeback section: a bad ledger is refused naming its line and keeps the shares shown")
{
    TempWorkspace ws;
    QTemporaryDir dir;
    ui::TrackingChargebackPanel panel(*ws);
    panel.resize(1280, 800);
    panel.show();
    const QString billFile = writeFile(dir, "bill.csv", bill());
    REQUIRE(loadAndWait(&panel, writeFile(dir, "claims.csv", kClaims), billFile));
    const QByteArray bad = "tenant,resource_id,resource_gpus,gpu_type,gpu,mode,profile,start,end\n"
                           "alpha,node-a,1,h100-sxm,0,mig,9g.90gb,2026-03-01T00:00:00Z,2026-03-03T00:00:00Z\n"
                           "beta,node-a,1,h100-sxm,3,mig,3g.40gb,2026-03-01T00:00:00Z,2026-03-03T00:00:00Z\n";
    CHECK_FALSE(loadAndWait(&panel, writeFile(dir, "bad.csv", bad), billFile));
    CHECK(panel.statusText().contains("bad.csv: line 3: field &quot;gpu&quot;"));
    REQUIRE(panel.run().has_value());
    CHECK(cell(panel.sharesView(), 0, 3) == "24.00");
}
