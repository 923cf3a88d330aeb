#include "common/uitestsupport.h"
#include "prometheussupport.h"

#include "store/common/workspace.h"
#include "ui/mainwindow.h"
#include "ui/tracking/metricssource.h"
#include "ui/tracking/trackingpage.h"
#include "ui/tracking/trackingservingpanel.h"

#include <QAction>
#include <QDateTime>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTest>
#include <QUrlQuery>

using namespace headroom;

namespace {

const QByteArray kEmpty = R"({"status":"success","data":{"resultType":"matrix","result":[]}})";

// A Prometheus that holds DCGM GPU utilization of one replica with 2 GPUs, one sample at :30
// of each of the three hours before the current one, and nothing else; answers each raw range
// query with the samples inside its window only, as Prometheus does.
QByteArray answer(const QByteArray &request, qint64 currentHour)
{
    const QByteArray target = request.mid(4, request.indexOf(" HTTP/") - 4);
    const QUrlQuery query(QUrl(QString::fromLatin1(target)).query(QUrl::FullyEncoded));
    const QString promql = query.queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded);
    if (!promql.contains(QLatin1String("DCGM_FI_DEV_GPU_UTIL")))
        return FakeHttpServer::reply(200, kEmpty);
    const double end = query.queryItemValue(QStringLiteral("time")).toDouble();
    const qsizetype open = promql.indexOf(QLatin1Char('[')) + 1;
    const double range = promql.mid(open, promql.indexOf(QLatin1String("ms]")) - open).toDouble() / 1000.0;
    QByteArray result;
    for (int gpu = 0; gpu < 2; ++gpu) {
        QByteArray values;
        for (qint64 hour = currentHour - 3; hour < currentHour; ++hour) {
            const qint64 t = hour * 3600 + 1800;
            if (t > end - range && t <= end)
                values += (values.isEmpty() ? "" : ",") + QByteArray("[") + QByteArray::number(t) + ",\"" +
                          QByteArray::number(40 + 10 * gpu) + "\"]";
        }
        if (!result.isEmpty())
            result += ',';
        result += R"({"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","instance":"r1:9400","gpu":")" + QByteArray::number(gpu)
            + R"(","deployment":"chat"},"values":[)" + values + "]}";
    }
    return FakeHttpServer::reply(200, R"({"status":"success","data":{"resultType":"matrix","result":[)" + result + "]}}");
}

bool waitForPull(ui::MetricsSourceConnection *source)
{
    QElapsedTimer timer;
    timer.start();
    while (source->isPulling() && timer.elapsed() < 20000)
        QTest::qWait(20);
    return !source->isPulling();
}

} // namespace

TEST_CASE("Tracking page: a connected metrics source pulls the hours not yet stored, says as of when, and a failing "
          "pull stores nothing")
{
    TempWorkspace ws;
    const qint64 currentHour = QDateTime::currentSecsSinceEpoch() / 3600;
    FakeHttpServer server([&](const QByteArray &request) { return answer(request, currentHour); });
    ui::TrackingPage page(*ws);
    page.resize(1280, 800);
    page.show();
    auto *status = page.findChild<QLabel *>("trackingSourceStatus");
    REQUIRE(status);
    CHECK_FALSE(status->isVisible());

    ui::MetricsSourceSettings settings;
    settings.url = server.url().toString();
    settings.refreshMinutes = 5;
    ui::MetricsSourceConnection *source = page.metricsSource();
    source->connectTo(settings);
    REQUIRE(waitForPull(source));
    CHECK(source->lastError().isEmpty());
    // A week back to the current hour, in one import named for the server.
    const auto imports = ws.workspace->servingMetricsImports();
    REQUIRE(imports.size() == 1);
    CHECK(imports.front().fileName.startsWith(QStringLiteral("prometheus 127.0.0.1:%1 ").arg(server.url().port())));
    const engine::ServingHours hours = ws.workspace->servingHours();
    REQUIRE(hours.hours.size() == 3);
    CHECK(hours.hours.front().gpus == 2);
    CHECK(hours.hours.front().gpuUtilMean == 45.0);  // (40 + 50) ÷ 2
    CHECK(source->asOf() == QDateTime::fromSecsSinceEpoch(currentHour * 3600, Qt::UTC));
    CHECK(status->isVisible());
    CHECK(status->text().contains(QStringLiteral("as of %1").arg(source->asOf().toString("yyyy-MM-dd HH:mm 'UTC'"))));
    CHECK(status->text().contains("Next pull at"));
    // The Serving section shows the pulled replica.
    CHECK(page.findChild<QTableWidget *>("servingReplicasTable")->rowCount() == 1);

    // Pulled again within the hour: nothing new, nothing stored, still current.
    const int requests = server.requests.size();
    page.findChild<QPushButton *>("trackingSourceRefresh")->click();
    REQUIRE(waitForPull(source));
    CHECK(server.requests.size() == requests);
    CHECK(ws.workspace->servingMetricsImports().size() == 1);
    CHECK(source->lastError().isEmpty());

    // A source that cannot be reached: said, nothing stored, the as-of stays the last good one.
    settings.url = QStringLiteral("http://127.0.0.1:1");
    source->connectTo(settings);
    REQUIRE(waitForPull(source));
    CHECK(source->lastError().contains("cannot be reached"));
    CHECK(status->text().contains("failed"));
    CHECK(ws.workspace->servingMetricsImports().size() == 1);

    source->disconnectSource();
    CHECK_FALSE(status->isVisible());
}

TEST_CASE("Tracking page: a metrics source remembered for the workspace file connects when the page opens it, and "
          "a forgotten one does not")
{
    TempWorkspace ws;
    const qint64 currentHour = QDateTime::currentSecsSinceEpoch() / 3600;
    FakeHttpServer server([&](const QByteArray &request) { return answer(request, currentHour); });
    ui::MetricsSourceSettings settings;
    settings.url = server.url().toString();
    settings.refreshMinutes = 30;
    ui::MetricsSourceSettings::save(ws.workspace->path(), settings);
    {
        const auto loaded = ui::MetricsSourceSettings::load(ws.workspace->path());
        REQUIRE(loaded);
        CHECK(loaded->url == settings.url);
        CHECK(loaded->refreshMinutes == 30);
        CHECK(loaded->verifyTls);
        ui::TrackingPage page(*ws);
        REQUIRE(page.metricsSource()->isConnected());
        REQUIRE(waitForPull(page.metricsSource()));
        CHECK(ws.workspace->servingMetricsImports().size() == 1);
    }
    ui::MetricsSourceSettings::forget(ws.workspace->path());
    CHECK_FALSE(ui::MetricsSourceSettings::load(ws.workspace->path()));
    ui::TrackingPage page(*ws);
    CHECK_FALSE(page.metricsSource()->isConnected());
}

TEST_CASE("Connect Metrics Source dialog refuses a URL with a password and a missing token file, saying why")
{
    ui::MetricsSourceDialog dialog(std::nullopt);
    dialog.show();
    auto *url = dialog.findChild<QLineEdit *>("metricsSourceUrl");
    auto *error = dialog.findChild<QLabel *>("metricsSourceError");
    REQUIRE(url);
    REQUIRE(error);
    url->setText("http://ops:secret@prometheus:9090");
    dialog.accept();
    CHECK(dialog.isVisible());
    CHECK(error->isVisible());
    CHECK(error->text().contains("password"));
    CHECK_FALSE(error->text().contains("secret"));
    url->setText("http://prometheus:9090");
    dialog.findChild<QLineEdit *>("metricsSourceTokenFile")->setText("/nonexistent/token");
    dialog.accept();
    CHECK(dialog.isVisible());
    CHECK(error->text().contains("/nonexistent/token"));
    dialog.findChild<QLineEdit *>("metricsSourceTokenFile")->clear();
    dialog.accept();
    CHECK_FALSE(dialog.isVisible());
    CHECK(dialog.result() == QDialog::Accepted);
    CHECK(dialog.settings().url == "http://prometheus:9090");
    CHECK(dialog.settings().verifyTls);
}

TEST_CASE("File menu offers Connect Metrics Source")
{
    DemoWindow demo;
    auto *action = demo.window->findChild<QAction *>("connectMetricsSource");
    REQUIRE(action);
    CHECK(action->text() == "Connect &Metrics Source…");
}
