// Renders the workbench offscreen for the README and for review: a PNG of the main window
// on each built page, and the KV chart exported as PDF, SVG and PNG.
// Usage: headroom_screenshots OUTDIR [--dark] [--size WxH] [--tracking-only]
#include "store/common/demoworkspace.h"
#include "store/common/workspace.h"
#include "ui/cost/costpage.h"
#include "ui/forecast/forecastpage.h"
#include "ui/fragmentation/fragmapview.h"
#include "ui/fragmentation/fragmentationpage.h"
#include "ui/serving/servingsimcharts.h"
#include "ui/serving/calibrationdialog.h"
#include "ui/serving/servingsimpage.h"
#include "ui/partitioning/partitioningpage.h"
#include "ui/report/reportdeck.h"
#include "ui/report/reportpage.h"
#include "ui/fleet/scenariodeck.h"
#include "ui/fleet/scenariohistorydialog.h"
#include "ui/inference/servingassumptionsdialog.h"
#include "ui/fleet/planpage.h"
#include "ui/fleet/scenariospage.h"
#include "ui/inference/sizingpage.h"
#include "ui/training/trainingjobspage.h"
#include "ui/training/clusterpanel.h"
#include "ui/training/trainingpage.h"
#include "ui/catalog/catalogentrydialog.h"
#include "ui/common/chartexport.h"
#include "ui/common/chartpanel.h"
#include "ui/common/paintedfigureview.h"
#include "ui/inference/kvpage.h"
#include "ui/tracking/trackingdeck.h"
#include "ui/tracking/metricssource.h"
#include "ui/tracking/trackingpage.h"
#include "ui/tracking/trackingchargebackpanel.h"
#include "ui/tracking/trackingjobspanel.h"
#include "ui/tracking/trackingservingpanel.h"
#include "ui/mainwindow.h"
#include "ui/common/plurals.h"
#include "ui/common/theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QComboBox>
#include <QDate>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTableWidget>
#include <QDateTime>
#include <QTimeZone>
#include <QTemporaryDir>
#include <cmath>
#include <cstdio>

using namespace headroom;

namespace {

// Six weeks of daily billing for the tracking screens: a fleet's on-demand usage with a weekly
// wave, a spike on day 30 and a step up from day 36, and a reservation ending on day 70, used
// 100 % at first and 60 % from day 21.
QByteArray trackingSampleFocus()
{
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,PricingCategory,BilledCost,"
                     "EffectiveCost,ResourceId,ServiceName,RegionId,CommitmentDiscountId,CommitmentDiscountName,"
                     "CommitmentDiscountStatus\n";
    const QDate first(2026, 1, 5);
    const auto day = [&](int d) { return first.addDays(d).toString(Qt::ISODate) + QStringLiteral("T00:00:00Z"); };
    // The term's remaining 74 days billed upfront on day 0: it ends 4 weeks after the last charge.
    csv += QStringLiteral("USD,%1,%2,Purchase,Committed,62160.00,0,ri-h100,GPU Compute,us-east-1,ri-h100,H100 "
                          "reservation,\n")
               .arg(day(0), day(70))
               .toUtf8();
    for (int d = 0; d < 42; ++d) {
        const double demand = 1800.0 + 160.0 * std::sin(2 * M_PI * d / 7.0) + (d >= 36 ? 420.0 : 0.0)
            + (d == 30 ? 1500.0 : 0.0) + double((d * 37) % 23);
        csv += QStringLiteral("USD,%1,%2,Usage,Standard,%3,%3,fleet,GPU Compute,us-west-2,,,\n")
                   .arg(day(d), day(d + 1), QString::number(demand, 'f', 2))
                   .toUtf8();
        const double used = d < 21 ? 840.0 : 504.0;
        csv += QStringLiteral("USD,%1,%2,Usage,Committed,0,%3,gpu-node-1,GPU Compute,us-east-1,ri-h100,,Used\n")
                   .arg(day(d), day(d + 1), QString::number(used, 'f', 2))
                   .toUtf8();
        if (used < 840.0)
            csv += QStringLiteral("USD,%1,%2,Usage,Committed,0,%3,,GPU Compute,us-east-1,ri-h100,,Unused\n")
                       .arg(day(d), day(d + 1), QString::number(840.0 - used, 'f', 2))
                       .toUtf8();
    }
    return csv;
}

// Six weeks of DCGM GPU utilization for the serving anomaly screen: four 2-GPU replicas all day
// and a fifth for part of it, 62 % on weekdays and 38 % at weekends, a day at 20 % (day 30) and
// two more replicas from day 35.
QByteArray telemetrySample()
{
    QByteArray csv = "timestamp,instance,gpu,metric,value,deployment\n";
    const qint64 first = QDateTime(QDate(2026, 1, 5), QTime(0, 0), QTimeZone::utc()).toSecsSinceEpoch();
    for (int d = 0; d < 42; ++d) {
        const bool weekend = d % 7 >= 5;
        const double util = d == 30 ? 20.0 : (weekend ? 38.0 : 62.0) + ((d * 37) % 11 - 5) / 4.0;
        const int fifthHours = weekend ? 4 : 10 + (d * 7919) % 5;
        const int replicas = d >= 35 ? 7 : 5;
        for (int h = 0; h < 24; ++h) {
            const QByteArray t = QByteArray::number(first + (d * 24 + h) * 3600);
            for (int r = 1; r <= replicas; ++r) {
                if (r == 5 && h >= fifthHours)
                    continue;
                for (const char *gpu : {"0", "1"})
                    csv += t + ",r" + QByteArray::number(r) + ',' + gpu + ",DCGM_FI_DEV_GPU_UTIL,"
                        + QByteArray::number(util + (h % 6) - 2.5, 'f', 1) + ",chat\n";
            }
        }
    }
    return csv;
}

bool importForScreens(ui::TrackingPage *page, const QString &path)
{
    bool stored = false, over = false;
    const auto connection = QObject::connect(page, &ui::TrackingPage::finished, [&](bool ok) {
        stored = ok;
        over = true;
    });
    page->importFile(path);
    while (!over)
        QApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QObject::disconnect(connection);
    if (!stored)
        std::fprintf(stderr, "%s\n", qPrintable(page->statusText()));
    return stored;
}

// The Tracking page on `workspace` (with scenarios): the published under-used example, then
// six weeks of sample billing with its anomalies and a plan; the tracking deck as PDF.
int renderTracking(ui::MainWindow &window, const QDir &out, const QString &suffix, const QTemporaryDir &dir)
{
    const auto grab = [&](const QString &name) {
        QApplication::processEvents();
        const QString path = out.filePath(QStringLiteral("%1%2.png").arg(name, suffix));
        window.grab().save(path);
        std::printf("%s\n", qPrintable(path));
    };
    window.showPage(QStringLiteral("Tracking"));
    ui::TrackingPage *page = window.trackingPage();
    grab(QStringLiteral("page-tracking-empty"));
    if (!importForScreens(page, QStringLiteral(HEADROOM_SHARED_DATA "/focus-examples/aws_underutilized_75pct.csv")))
        return 1;
    grab(QStringLiteral("page-tracking"));
    QFile sample(dir.filePath(QStringLiteral("fleet-billing-6-weeks.csv")));
    if (!sample.open(QIODevice::WriteOnly) || sample.write(trackingSampleFocus()) < 0)
        return 1;
    sample.close();
    if (!importForScreens(page, sample.fileName()))
        return 1;
    auto *scenario = page->findChild<QComboBox *>(QStringLiteral("trackingScenario"));
    if (scenario && scenario->count() > 1)
        scenario->setCurrentIndex(1);
    grab(QStringLiteral("page-tracking-commitment"));
    auto *charts = page->findChild<QTabWidget *>(QStringLiteral("trackingChartTabs"));
    auto *tables = page->findChild<QTabWidget *>(QStringLiteral("trackingTableTabs"));
    charts->setCurrentIndex(2);
    tables->setCurrentIndex(2);
    grab(QStringLiteral("page-tracking-plan"));
    tables->setCurrentIndex(1);
    if (auto *anomalies = page->findChild<QTableWidget *>(QStringLiteral("trackingAnomaliesTable")); anomalies && anomalies->rowCount() > 0)
        anomalies->selectRow(0);
    grab(QStringLiteral("page-tracking-anomalies"));
    // Serving: the synthetic DCGM / vLLM sample, priced at the H100 rate, with one optimization.
    page->showServing();
    ui::TrackingServingPanel *serving = page->servingPanel();
    if (!serving->importFile(QStringLiteral(HEADROOM_SAMPLES_DIR "/serving-metrics.csv")))
        return 1;
    serving->setRateGpu(QStringLiteral("h100-sxm"));
    serving->addOptimization(QStringLiteral("FP8 weights"), QDate(2026, 3, 10), QStringLiteral("weights and KV cache in FP8"));
    grab(QStringLiteral("page-tracking-serving"));
    if (auto *tabs = page->findChild<QTabWidget *>(QStringLiteral("servingTabs")))
        tabs->setCurrentIndex(1);
    grab(QStringLiteral("page-tracking-benchmarks"));
    // A connected metrics source (HEADROOM_SCREENSHOT_PROMETHEUS, e.g. under scripts/promserver.sh;
    // else one that cannot be reached) and the dialog that connects it.
    {
        ui::MetricsSourceSettings settings;
        settings.url = qEnvironmentVariable("HEADROOM_SCREENSHOT_PROMETHEUS", QStringLiteral("http://127.0.0.1:1"));
        ui::MetricsSourceDialog dialog(settings);
        dialog.show();
        QApplication::processEvents();
        dialog.grab().save(out.filePath(QStringLiteral("dialog-metrics-source%1.png").arg(suffix)));
        dialog.hide();
        ui::MetricsSourceConnection *source = page->metricsSource();
        source->connectTo(settings);
        while (source->isPulling())
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        grab(QStringLiteral("page-tracking-source"));
        source->disconnectSource();
    }
    // Chargeback of the sample shared pool, tokens from the serving sample just imported.
    page->showChargeback();
    ui::TrackingChargebackPanel *chargeback = page->chargebackPanel();
    QEventLoop charged;
    QObject::connect(chargeback, &ui::TrackingChargebackPanel::finished, &charged, &QEventLoop::quit);
    chargeback->load(QStringLiteral(HEADROOM_SAMPLES_DIR "/gpu-claims.csv"),
                     QStringLiteral(HEADROOM_SAMPLES_DIR "/pool-billing.csv"));
    if (chargeback->isRunning())
        charged.exec();
    if (!chargeback->run()) {
        std::fprintf(stderr, "%s\n", qPrintable(chargeback->statusText()));
        return 1;
    }
    grab(QStringLiteral("page-tracking-chargeback"));
    if (auto *tabs = page->findChild<QTabWidget *>(QStringLiteral("chargebackTabs")))
        tabs->setCurrentIndex(1);
    grab(QStringLiteral("page-tracking-chargeback-chart"));
    // Training jobs: the sample job telemetry's stall audit and goodput.
    page->showTrainingJobs();
    ui::TrackingJobsPanel *jobs = page->trainingJobsPanel();
    QEventLoop read;
    QObject::connect(jobs, &ui::TrackingJobsPanel::finished, &read, &QEventLoop::quit);
    jobs->load(QStringLiteral(HEADROOM_SAMPLES_DIR "/job-telemetry.csv"));
    if (jobs->isRunning())
        read.exec();
    if (!jobs->run()) {
        std::fprintf(stderr, "%s\n", qPrintable(jobs->statusText()));
        return 1;
    }
    grab(QStringLiteral("page-tracking-training-jobs"));
    const QString path = out.filePath(QStringLiteral("tracking-deck%1.pdf").arg(suffix));
    ui::TrackingDeckOptions options;
    options.servingGpu = QStringLiteral("h100-sxm");
    if (scenario && scenario->count() > 1)
        options.scenario = scenario->itemData(1).toString();
    options.chargeback = chargeback->run();
    options.trainingJobs = jobs->run();
    QString error;
    if (!ui::writeDeckPdf(ui::trackingDeck(window.workspace(), options), path, &error, {}, store::ExistingFile::Replace)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("%s\n", qPrintable(path));
    // Six weeks of GPU telemetry in place of the sample: the utilization anomalies.
    for (const auto &entry : window.workspace().servingMetricsImports())
        window.workspace().removeServingMetricsImport(entry.id);
    QFile telemetry(dir.filePath(QStringLiteral("fleet-telemetry-6-weeks.csv")));
    if (!telemetry.open(QIODevice::WriteOnly) || telemetry.write(telemetrySample()) < 0)
        return 1;
    telemetry.close();
    if (!serving->importFile(telemetry.fileName()))
        return 1;
    if (auto *tabs = page->findChild<QTabWidget *>(QStringLiteral("servingTabs")))
        tabs->setCurrentWidget(page->findChild<QTableWidget *>(QStringLiteral("servingAnomaliesTable")));
    grab(QStringLiteral("page-tracking-serving-anomalies"));
    const QString telemetryDeck = out.filePath(QStringLiteral("tracking-deck-telemetry%1.pdf").arg(suffix));
    if (!ui::writeDeckPdf(ui::trackingDeck(window.workspace(), options), telemetryDeck, &error, {}, store::ExistingFile::Replace)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("%s\n", qPrintable(telemetryDeck));
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ui::installEnglishPlurals();
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: headroom_screenshots OUTDIR [--dark] [--size WxH]\n");
        return 2;
    }
    const QDir out(args.at(1));
    QDir().mkpath(out.path());
    ui::applyTheme(args.contains("--dark") ? ui::Theme::Dark : ui::Theme::Light);
    const QString suffix = args.contains("--dark") ? "-dark" : "";

    QTemporaryDir dir;
    auto workspace = std::make_unique<store::Workspace>(dir.filePath("screens.headroom"));
    // A chatbot profile so that the Workloads and Inference sizing pages have something to show.
    engine::WorkloadProfile chatbot;
    chatbot.name = "consumer chatbot";
    chatbot.tenant = "consumer";
    chatbot.modelId = "llama-3.1-70b";
    chatbot.gpuId = "h100-sxm";
    chatbot.tp = 4;
    chatbot.dailyActiveUsers = 200000;
    chatbot.requestsPerUserPerDay = 15;
    chatbot.peakSessionsPerUser = 0.05;
    chatbot.diurnal = engine::diurnalShape(engine::DiurnalPreset::EveningPeak);
    chatbot.promptTokens = {1500, 6000};
    chatbot.outputTokens = {300, 1000};
    chatbot.prefixHitRate = 0.2;
    chatbot.sharedPrefixTokens = 800;
    workspace->putWorkload(chatbot);
    // The sample pretraining run and a smaller fine-tune on the same GPUs, for the Training pages.
    engine::TrainingJob pretrain;
    pretrain.name = "llama-70b-pretrain";
    pretrain.modelId = "llama-3.1-70b";
    pretrain.tokens = 1.4e12;
    pretrain.seqLen = 8192;
    pretrain.globalBatchTokens = 16777216;
    pretrain.recompute = engine::Recomputation::Full;
    pretrain.tp = 8;
    pretrain.pp = 4;
    pretrain.startDate = "2026-03-01";
    pretrain.priority = 1;
    pretrain.checkpointIntervalHours = 2;
    workspace->putTrainingJob(pretrain);
    engine::TrainingJob finetune = pretrain;
    finetune.name = "chatbot fine-tune";
    finetune.modelId = "llama-3.1-8b";
    finetune.tokens = 2e11;
    finetune.tp = 1;
    finetune.pp = 1;
    finetune.targetValue = 10;
    finetune.startDate = "2026-03-15";
    finetune.priority = 2;
    finetune.preemptible = true;
    workspace->putTrainingJob(finetune);
    // A frontier run with nothing of its layout given, for the Layouts searched tab.
    engine::TrainingJob frontier;
    frontier.name = "llama-405b-plan";
    frontier.modelId = "llama-3.1-405b";
    frontier.tokens = 15.6e12;
    frontier.seqLen = 8192;
    frontier.globalBatchTokens = 0;
    frontier.throughput = 0.45;
    frontier.target = engine::TrainingTarget::GpuCount;
    frontier.targetValue = 16384;
    frontier.tp = 0;
    frontier.pp = 0;
    frontier.virtualStages = 0;
    frontier.zeroStage = -1;
    workspace->putTrainingJob(frontier);
    ui::MainWindow window(std::move(workspace));
    QSize windowSize(1500, 920);
    if (const int at = args.indexOf("--size"); at > 0 && at + 1 < args.size()) {
        const QStringList parts = args.at(at + 1).split('x');
        if (parts.size() == 2 && parts[0].toInt() > 0 && parts[1].toInt() > 0)
            windowSize = QSize(parts[0].toInt(), parts[1].toInt());
    }
    window.resize(windowSize);
    window.show();
    QApplication::processEvents();
    if (args.contains("--tracking-only")) {
        const QString demo = store::createDemoWorkspace(dir.filePath("demo.headroom"));
        if (!window.openWorkspace(demo))
            return 1;
        window.resize(windowSize);
        return renderTracking(window, out, suffix, dir);
    }
    // Run the fragmentation experiment first so that its page shows results.
    ui::FragmentationPage *fragmentation = window.fragmentationPage();
    fragmentation->setPolicies({engine::frag::Policy::Fgd, engine::frag::Policy::BestFit,
                                engine::frag::Policy::Packing, engine::frag::Policy::FirstFit});
    fragmentation->setSeeds(2);
    bool done = false;
    QObject::connect(fragmentation, &ui::FragmentationPage::finished, [&done] { done = true; });
    fragmentation->run();
    while (!done)
        QApplication::processEvents(QEventLoop::WaitForMoreEvents);
    // Fit the sample telemetry (the Forecast page's default file) so that its page shows a fan
    // chart; without the sample, a generated month of growing demand from the workspace.
    ui::ForecastPage *forecast = window.forecastPage();
    forecast->importFromInputs();
    if (forecast->input().series.empty()) {
        engine::DemandShape shape;
        shape.hours = 24 * 28;
        shape.growthPerMonth = 0.05;
        shape.noise = 0.04;
        window.workspace().putDemandSeries(engine::generateDemand(shape, "generated demand"));
        QString error;
        forecast->importWorkspaceSeries("generated demand", &error);
    }
    bool fitted = false;
    QObject::connect(forecast, &ui::ForecastPage::finished, [&fitted] { fitted = true; });
    forecast->fit();
    if (forecast->isRunning())
        while (!fitted)
            QApplication::processEvents(QEventLoop::WaitForMoreEvents);
    // And hand it to the reservation decision, so that both answers show.
    fitted = false;
    forecast->useForReservation();
    if (forecast->isRunning())
        while (!fitted)
            QApplication::processEvents(QEventLoop::WaitForMoreEvents);
    // Replay the Mooncake trace (the page's default) so that the Serving simulation page shows
    // every router compared.
    ui::ServingSimPage *serving = window.servingSimPage();
    bool simulated = false;
    QObject::connect(serving, &ui::ServingSimPage::finished, [&simulated] { simulated = true; });
    if (serving->run())
        while (!simulated)
            QApplication::processEvents(QEventLoop::WaitForMoreEvents);
    window.trainingJobsPage()->selectJob(QStringLiteral("llama-70b-pretrain"));
    window.trainingPage()->selectJob(QStringLiteral("llama-70b-pretrain"));
    for (const QString &page : {QStringLiteral("KV & concurrency"), QStringLiteral("Catalog"),
                                QStringLiteral("Rate cards"), QStringLiteral("Cost & reservations"),
                                QStringLiteral("Workloads"), QStringLiteral("Inference sizing"),
                                QStringLiteral("Serving simulation"),
                                QStringLiteral("Partitioning"), QStringLiteral("Fragmentation"),
                                QStringLiteral("Forecast"), QStringLiteral("Training jobs"),
                                QStringLiteral("Training sizing")}) {
        window.showPage(page);
        QApplication::processEvents();
        QString name = page.toLower();
        name.replace(QRegularExpression("[^a-z]+"), "-");
        const QString path = out.filePath(QStringLiteral("page-%1%2.png").arg(name, suffix));
        window.grab().save(path);
        std::printf("%s\n", qPrintable(path));
        if (page == QStringLiteral("Training sizing")) {
            // The layout search's table for a run with nothing of its layout given.
            window.trainingPage()->selectJob(QStringLiteral("llama-405b-plan"));
            auto *tabs = window.trainingPage()->findChild<QTabWidget *>("trainingTableTabs");
            tabs->setCurrentIndex(2);
            QApplication::processEvents();
            const QString layouts = out.filePath(QStringLiteral("page-training-layouts%1.png").arg(suffix));
            window.grab().save(layouts);
            std::printf("%s\n", qPrintable(layouts));
            tabs->setCurrentIndex(0);
            window.trainingPage()->selectJob(QStringLiteral("llama-70b-pretrain"));
            // The Goodput tab: Pollux's goodput against GPUs at its default job.
            auto *charts = window.trainingPage()->findChild<QTabWidget *>("trainingChartTabs");
            charts->setCurrentIndex(4);
            QApplication::processEvents();
            const QString goodput = out.filePath(QStringLiteral("page-training-goodput%1.png").arg(suffix));
            window.grab().save(goodput);
            std::printf("%s\n", qPrintable(goodput));
            // The Cluster tab: Pollux's workload 6 replayed under the three policies.
            auto *cluster = window.trainingPage()->findChild<ui::ClusterPanel *>();
            bool replayed = false;
            QObject::connect(cluster, &ui::ClusterPanel::finished, [&replayed] { replayed = true; });
            charts->setCurrentIndex(5);   // first shown: it replays
            while (!replayed)
                QApplication::processEvents(QEventLoop::WaitForMoreEvents);
            QApplication::processEvents();
            const QString clusterShot = out.filePath(QStringLiteral("page-training-cluster%1.png").arg(suffix));
            window.grab().save(clusterShot);
            std::printf("%s\n", qPrintable(clusterShot));
            charts->setCurrentIndex(0);
        }
        if (page == QStringLiteral("KV & concurrency")) {
            // The What if tab: the attention-architecture levers as a waterfall.
            auto *tabs = window.findChild<QTabWidget *>("kvChartTabs");
            tabs->setCurrentIndex(1);
            QApplication::processEvents();
            const QString levers = out.filePath(QStringLiteral("page-kv-what-if%1.png").arg(suffix));
            window.grab().save(levers);
            std::printf("%s\n", qPrintable(levers));
            tabs->setCurrentIndex(0);
        }
        if (page == QStringLiteral("Fragmentation")) {
            // FGD's exact and study scoring compared, on its own tab.
            auto *tabs = fragmentation->findChild<QTabWidget *>("fragTabs");
            tabs->setCurrentIndex(3);
            QApplication::processEvents();
            const QString scoring = out.filePath(QStringLiteral("page-fragmentation-scoring%1.png").arg(suffix));
            window.grab().save(scoring);
            std::printf("%s\n", qPrintable(scoring));
            tabs->setCurrentIndex(0);
        }
        if (page == QStringLiteral("Serving simulation")) {
            // Every tab of the page: replicas and the heat strip.
            auto *tabs = serving->findChild<QTabWidget *>("simTabs");
            const char *names[] = {"", "ttft", "attainment", "heat-strip"};
            for (int tab = 1; tab < tabs->count(); ++tab) {
                tabs->setCurrentIndex(tab);
                QApplication::processEvents();
                const QString more = out.filePath(QStringLiteral("page-serving-simulation-%1%2.png").arg(QLatin1String(names[tab]), suffix));
                window.grab().save(more);
                std::printf("%s\n", qPrintable(more));
            }
            tabs->setCurrentIndex(0);
        }
    }
    // Inference sizing and KV again with session residency, for comparison.
    if (auto *residency = window.sizingPage()->findChild<QComboBox *>("sizingResidency")) {
        residency->setCurrentIndex(residency->findData(int(engine::KvResidency::Session)));
        window.showPage(QStringLiteral("Inference sizing"));
        QApplication::processEvents();
        const QString path = out.filePath(QStringLiteral("page-inference-sizing-session%1.png").arg(suffix));
        window.grab().save(path);
        std::printf("%s\n", qPrintable(path));
        residency->setCurrentIndex(residency->findData(int(engine::KvResidency::Request)));
        // And the best-option table, sorted by cost.
        auto *options = window.sizingPage()->findChild<QTableWidget *>("sizingOptions");
        for (QWidget *w = options; w; w = w->parentWidget()) {
            if (auto *tabs = qobject_cast<QTabWidget *>(w)) {
                tabs->setCurrentWidget(tabs->widget(tabs->count() - 1));
                QApplication::processEvents();
                const QString optionsPath = out.filePath(QStringLiteral("page-inference-sizing-options%1.png").arg(suffix));
                window.grab().save(optionsPath);
                std::printf("%s\n", qPrintable(optionsPath));
                tabs->setCurrentIndex(0);
                break;
            }
        }
    }
    std::vector<std::pair<QString, ui::ChartFigure>> figures{{"kv-chart", window.kvPage()->chartPanels().first()->figure()}};
    const QStringList costNames{"cost-sweep", "cost-week", "cost-month"};
    const auto costPanels = window.costPage()->chartPanels();
    for (int i = 0; i < costPanels.size(); ++i)
        figures.emplace_back(costNames.value(i), costPanels[i]->figure());
    const QStringList sizingNames{"sizing-hit-rate", "sizing-gpu-types"};
    const auto sizingPanels = window.sizingPage()->chartPanels();
    for (int i = 0; i < sizingPanels.size(); ++i)
        figures.emplace_back(sizingNames.value(i), sizingPanels[i]->figure());
    const QStringList trainingNames{"training-memory", "training-days", "training-mix", "training-growth"};
    const auto trainingPanels = window.trainingPage()->chartPanels();
    for (int i = 0; i < trainingPanels.size(); ++i)
        figures.emplace_back(trainingNames.value(i), trainingPanels[i]->figure());
    const QStringList fragNames{"frag-allocation", "frag-ratio", "frag-unallocated", "frag-scoring"};
    const auto fragPanels = fragmentation->chartPanels();
    for (int i = 0; i < fragPanels.size(); ++i)
        figures.emplace_back(fragNames.value(i), fragPanels[i]->figure());
    const QStringList forecastNames{"forecast-fan", "forecast-compare"};
    const auto forecastPanels = forecast->chartPanels();
    for (int i = 0; i < forecastPanels.size(); ++i)
        figures.emplace_back(forecastNames.value(i), forecastPanels[i]->figure());
    const QStringList servingNames{"sim-hit-rate", "sim-ttft", "sim-attainment"};
    const auto servingPanels = serving->chartPanels();
    for (int i = 0; i < servingPanels.size(); ++i)
        figures.emplace_back(servingNames.value(i), servingPanels[i]->figure());
    if (const auto strip = serving->findChild<ui::PaintedFigureView *>("simHeatStrip"))
        figures.emplace_back("sim-heat-strip", strip->figure());
    if (const auto map = fragmentation->findChild<ui::FragMapView *>())
        figures.emplace_back("frag-map", map->figure());
    if (const auto mig = window.partitioningPage()->currentFigure())
        figures.emplace_back("mig-layout", *mig);
    for (const auto &[name, figure] : figures) {
        for (const char *format : {"pdf", "svg", "png"}) {
            const QString path = out.filePath(QStringLiteral("%1%2.%3").arg(name, suffix, format));
            QString error;
            if (!ui::exportFigure(figure, path, &error, store::ExistingFile::Replace)) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
            std::printf("%s\n", qPrintable(path));
        }
    }

    // The Scenarios page on the demo workspace (opened last: it replaces the pages above):
    // the evaluation of the core-and-flex fleet, then a comparison of three scenarios.
    const QString demo = store::createDemoWorkspace(dir.filePath("demo.headroom"));
    if (!window.openWorkspace(demo))
        return 1;
    window.showPage(QStringLiteral("Scenarios"));
    ui::ScenariosPage *scenarios = window.scenariosPage();
    scenarios->selectScenario(QStringLiteral("Chatbot core + flex"));
    auto *tabs = scenarios->findChild<QTabWidget *>("scenarioResultTabs");
    QApplication::processEvents();
    std::vector<std::pair<QString, ui::ChartFigure>> scenarioFigures;
    if (const auto diagram = scenarios->currentFigure())
        scenarioFigures.emplace_back("scenario-diagram", *diagram);
    const auto grabPage = [&](const QString &name) {
        QApplication::processEvents();
        const QString path = out.filePath(QStringLiteral("%1%2.png").arg(name, suffix));
        window.grab().save(path);
        std::printf("%s\n", qPrintable(path));
    };
    grabPage(QStringLiteral("page-scenarios"));
    {
        // The History dialog after two more saves of the selected scenario.
        store::Workspace &workspace = window.workspace();
        engine::Scenario edited = *workspace.scenario(QStringLiteral("Chatbot core + flex"));
        const int64_t version = workspace.scenarioSummary(QStringLiteral("Chatbot core + flex"))->version;
        edited.description += " Reviewed by finance.";
        workspace.saveScenario(edited, workspace.saveScenario(*workspace.scenario(QStringLiteral("Chatbot core + flex")), version));
        ui::ScenarioHistoryDialog history(workspace, QStringLiteral("Chatbot core + flex"), &window);
        history.show();
        QApplication::processEvents();
        const QString path = out.filePath(QStringLiteral("dialog-scenario-history%1.png").arg(suffix));
        history.grab().save(path);
        std::printf("%s\n", qPrintable(path));
    }
    {
        // The Plan page on the demo workspace: the chatbot scenario's workloads planned with spot.
        window.showPage(QStringLiteral("Plan"));
        ui::PlanPage *plan = window.planPage();
        plan->selectTarget(QStringLiteral("Chatbot core + flex"));
        if (auto *spot = plan->findChild<QCheckBox *>(QStringLiteral("planSpot")))
            spot->setChecked(true);
        plan->run();
        QElapsedTimer waited;
        waited.start();
        while (plan->isRunning() && waited.elapsed() < 60000)
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        grabPage(QStringLiteral("page-plan"));
    }
    {
        // Catalog ▸ Edit GPU: the H100's serving profile tab.
        if (const auto h100 = ui::catalogEntry(window.workspace(), ui::CatalogKind::Gpus, QStringLiteral("h100-sxm"))) {
            ui::CatalogEntryDialog entry(ui::CatalogKind::Gpus, *h100, true, &window);
            if (auto *pages = entry.findChild<QTabWidget *>(QStringLiteral("catalogEntryPages")))
                pages->setCurrentIndex(1);
            entry.show();
            QApplication::processEvents();
            const QString path = out.filePath(QStringLiteral("dialog-gpu-profile%1.png").arg(suffix));
            entry.grab().save(path);
            std::printf("%s\n", qPrintable(path));
        }
    }
    {
        // Edit ▸ Serving Assumptions: the workspace's assumptions and vLLM's scheduler.
        ui::ServingAssumptionsDialog assumptions(window.workspace().servingAssumptions(), &window);
        assumptions.show();
        QApplication::processEvents();
        const QString path = out.filePath(QStringLiteral("dialog-serving-assumptions%1.png").arg(suffix));
        assumptions.grab().save(path);
        std::printf("%s\n", qPrintable(path));
    }
    {
        // Serving simulation ▸ Calibrate…: the sample step-time table 15 % slower than the
        // H100 profile, fitted back.
        QTemporaryDir measured;
        QFile sample(QStringLiteral(HEADROOM_SAMPLES_DIR "/step-times-llama-3.1-8b-h100.csv"));
        QFile slow(measured.filePath(QStringLiteral("measured-steps.csv")));
        if (sample.open(QIODevice::ReadOnly) && slow.open(QIODevice::WriteOnly)) {
            bool header = true;
            for (const QByteArray &line : sample.readAll().split('\n')) {
                if (line.isEmpty() || line.startsWith('#'))
                    continue;
                QList<QByteArray> fields = line.split(',');
                if (!header)
                    fields.last() = QByteArray::number(fields.last().toDouble() * 1.15, 'g', 8);
                header = false;
                slow.write(fields.join(',') + '\n');
            }
            slow.close();
            window.servingSimPage()->setStepTimes(slow.fileName());
            ui::CalibrationDialog *calibration = window.servingSimPage()->openCalibration();
            bool fitted = false;
            QObject::connect(calibration, &ui::CalibrationDialog::fitFinished, [&fitted] { fitted = true; });
            if (calibration->fit())
                while (!fitted)
                    QApplication::processEvents(QEventLoop::WaitForMoreEvents);
            QApplication::processEvents();
            const QString path = out.filePath(QStringLiteral("dialog-calibration%1.png").arg(suffix));
            calibration->grab().save(path);
            std::printf("%s\n", qPrintable(path));
            const QString chart = out.filePath(QStringLiteral("calibration-points%1.pdf").arg(suffix));
            QString error;
            if (!ui::exportFigure(calibration->chartPanel()->figure(), chart, &error, store::ExistingFile::Replace)) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
            std::printf("%s\n", qPrintable(chart));
            calibration->close();
            window.servingSimPage()->setStepTimes(QString());
        }
    }
    scenarios->setCompared({QStringLiteral("Support bot static"), QStringLiteral("Support bot elastic"),
                            QStringLiteral("Code fleet 64 GPUs")});
    tabs->setCurrentIndex(1);
    grabPage(QStringLiteral("page-scenarios-compare"));
    scenarios->selectScenario(QStringLiteral("Support bot elastic"));
    tabs->setCurrentIndex(2);
    grabPage(QStringLiteral("page-scenarios-yaml"));
    const QStringList scenarioNames{"scenario-cost-by-tier", "scenario-gpus-by-pool", "scenario-utilization"};
    const auto scenarioPanels = scenarios->chartPanels();
    for (int i = 0; i < scenarioPanels.size(); ++i)
        scenarioFigures.emplace_back(scenarioNames.value(i), scenarioPanels[i]->figure());
    for (const auto &[name, figure] : scenarioFigures) {
        for (const char *format : {"pdf", "png"}) {
            const QString path = out.filePath(QStringLiteral("%1%2.%3").arg(name, suffix, format));
            QString error;
            if (!ui::exportFigure(figure, path, &error, store::ExistingFile::Replace)) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
            std::printf("%s\n", qPrintable(path));
        }
    }
    // The Report page with the scenario figures added, and the demo's scenario deck as PDF.
    for (const auto &entry : scenarioFigures)
        window.addFigureToReport(entry.second);
    window.showPage(QStringLiteral("Report"));
    window.reportPage()->itemList()->setCurrentRow(0);
    grabPage(QStringLiteral("page-report"));
    {
        const QString path = out.filePath(QStringLiteral("report-deck%1.pdf").arg(suffix));
        QString error;
        const ui::Deck deck = ui::scenarioDeck(window.workspace(), {QStringLiteral("Chatbot core + flex"),
                                                                  QStringLiteral("Support bot static"),
                                                                  QStringLiteral("Support bot elastic")});
        if (!ui::writeDeckPdf(deck, path, &error, {}, store::ExistingFile::Replace)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        std::printf("%s\n", qPrintable(path));
    }
    return renderTracking(window, out, suffix, dir);
}
