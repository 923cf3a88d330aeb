#include "common/uitestsupport.h"

#include "ui/common/chartexport.h"
#include "ui/partitioning/miglayoutview.h"
#include "ui/partitioning/partitioningpage.h"
#include "ui/report/reportsnapshot.h"

#include <QComboBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QTest>

using namespace headroom;

namespace {

std::vector<engine::Tenant> smallTenants(int count)
{
    std::vector<engine::Tenant> out;
    for (int i = 0; i < count; ++i)
        out.push_back({"t" + std::to_string(i), 8, 0, 1, "none"});
    return out;
}

} // namespace

TEST_CASE("Golden: 40 one-slice tenants need 6 H100 with MIG and 40 without")
{
    TempWorkspace ws;
    ui::PartitioningPage page(*ws);
    page.setTenants(smallTenants(40));
    REQUIRE(page.errorText().isEmpty());
    CHECK(page.packResult().gpus == 6);
    CHECK(page.packResult().gpusWithoutMig == 40);
    CHECK(page.layoutView()->picture().layouts.size() == 6);
    CHECK(page.summary().contains("MIG saves 34 of 40 H100"));
}

TEST_CASE("The headline states the saving and the small-fleet advice judges the fleet run without MIG")
{
    TempWorkspace ws;
    ui::PartitioningPage page(*ws);
    auto *warnings = page.findChild<QLabel *>("migWarnings");
    REQUIRE(warnings);
    // 40 tenants on 40 GPUs without MIG: a fleet well past the threshold, whatever MIG packs it into.
    page.setTenants(smallTenants(40));
    CHECK(page.summary().contains("MIG saves 34 of 40 H100"));
    CHECK(page.summary().contains("6 with MIG instead of 40"));
    CHECK_FALSE(warnings->text().contains("skip the partitioning machinery"));
    // Five tenants: five GPUs without MIG, under the threshold; the advice names what MIG saves.
    page.setTenants(smallTenants(5));
    CHECK(page.summary().contains("MIG saves 4 of 5 H100"));
    CHECK(warnings->text().contains("skip the partitioning machinery"));
    CHECK(warnings->text().contains("a fleet of 5 GPUs is under the threshold of ~8"));
    CHECK(warnings->text().contains("the 4 GPUs partitioning saves here"));
}

TEST_CASE("The layout view paints every GPU row and exports as a vector PDF")
{
    TempWorkspace ws;
    ui::PartitioningPage page(*ws);
    page.setTenants(smallTenants(14));
    page.resize(1400, 900);
    page.show();
    const QImage image = page.layoutView()->grab().toImage();
    int coloured = 0;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            coloured += image.pixelColor(x, y).saturation() > 60;
    CHECK(coloured > 200);

    QTemporaryDir dir;
    QString error;
    const auto figure = page.currentFigure();
    REQUIRE(figure);
    REQUIRE(ui::exportFigure(*figure, dir.filePath("mig.pdf"), &error));
    QProcess p;
    p.start("pdftotext", {dir.filePath("mig.pdf"), "-"});
    REQUIRE(p.waitForFinished(20000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    CHECK(text.contains("MIG layout to provision"));
    CHECK(text.contains("GPU 2"));
    CHECK(text.contains("1g.10gb"));
}

TEST_CASE("Editing a GPU's layout validates live and refuses overlaps with the reason")
{
    TempWorkspace ws;
    ui::PartitioningPage page(*ws);
    page.setTenants(smallTenants(7));
    QString reason;
    CHECK_FALSE(page.applyLayout(0, "3g.40gb@0,4g.40gb@2", &reason));
    CHECK_FALSE(reason.isEmpty());
    CHECK(page.applyLayout(0, "4g.40gb@0,2g.20gb@4,1g.10gb@6", &reason));
    CHECK(page.layoutView()->picture().layouts[0].size() == 3);
    auto *edit = page.findChild<QLineEdit *>("migLayoutEdit");
    auto *check = page.findChild<QLabel *>("migLayoutCheck");
    REQUIRE(edit);
    REQUIRE(check);
    edit->setText("7g.80gb@0");
    CHECK(check->text().contains("valid"));
    edit->setText("7g.80gb@3");
    CHECK_FALSE(check->text().contains("valid layout"));
}

TEST_CASE("A tenant larger than the GPU is reported by name, and advice names the regulated tenant")
{
    TempWorkspace ws;
    ui::PartitioningPage page(*ws);
    page.setTenants({{"huge", 500, 0, 1, "none"}});
    CHECK(page.errorText().contains("huge"));
    page.setTenants({{"claims", 9, 0, 1, "regulated"}, {"tool", 9, 0, 1, "none"}});
    CHECK(page.errorText().isEmpty());
    CHECK(page.findChild<QLabel *>("migWarnings")->text().contains("MIG or nothing"));
}

TEST_CASE("The MIG layout in the report is packed again with its tenants and keeps a layout edited by hand")
{
    TempWorkspace ws;
    ui::PartitioningPage page(*ws);
    page.setTenants(smallTenants(7));
    REQUIRE(page.packResult().gpus == 1);
    QString reason;
    REQUIRE(page.applyLayout(0, "4g.40gb@0,2g.20gb@4,1g.10gb@6", &reason));
    const auto figure = page.currentFigure();
    REQUIRE(figure);
    CHECK(figure->source.value("kind").toString() == "mig-layout");
    CHECK(figure->source.value("tenants").toArray().size() == 7);
    REQUIRE(figure->source.value("edited").toArray().size() == 1);
    const store::ReportItem item = ui::reportItemFromFigure(*figure);
    QString problem;
    const auto drawn = ui::redrawReportItem(*ws, item, &problem);
    REQUIRE(drawn);
    CHECK(problem.isEmpty());
    CHECK(drawn->content == item.content);
    CHECK(drawn->caption == item.caption);
    // Without the hand edit the page's packing differs from the report's picture.
    page.setTenants(smallTenants(7));
    CHECK(ui::reportItemFromFigure(*page.currentFigure()).content != item.content);

    // The GPU gone from the catalog: it stays a snapshot and says why.
    REQUIRE((*ws).removeGpu(figure->source.value("gpu").toString()));
    CHECK_FALSE(ui::redrawReportItem(*ws, item, &problem));
    CHECK(problem.contains("is no longer in the catalog"));
}
