// Renders the workbench offscreen for the README and for review: a PNG of the main window
// on each built page, and the KV chart exported as PDF, SVG and PNG.
// Usage: headroom_screenshots OUTDIR [--dark] [--scale F]
#include "store/workspace.h"
#include "ui/costpage.h"
#include "ui/fragmapview.h"
#include "ui/fragmentationpage.h"
#include "ui/partitioningpage.h"
#include "ui/sizingpage.h"
#include "ui/chartexport.h"
#include "ui/chartpanel.h"
#include "ui/kvpage.h"
#include "ui/mainwindow.h"
#include "ui/theme.h"

#include <QApplication>
#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <cstdio>

using namespace headroom;

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: headroom_screenshots OUTDIR [--dark]\n");
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
    ui::MainWindow window(std::move(workspace));
    window.resize(1500, 920);
    window.show();
    QApplication::processEvents();
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
    for (const QString &page : {QStringLiteral("KV & concurrency"), QStringLiteral("Catalog"),
                                QStringLiteral("Rate cards"), QStringLiteral("Cost & reservations"),
                                QStringLiteral("Workloads"), QStringLiteral("Inference sizing"),
                                QStringLiteral("Partitioning"), QStringLiteral("Fragmentation")}) {
        window.showPage(page);
        QApplication::processEvents();
        QString name = page.toLower();
        name.replace(QRegularExpression("[^a-z]+"), "-");
        const QString path = out.filePath(QStringLiteral("page-%1%2.png").arg(name, suffix));
        window.grab().save(path);
        std::printf("%s\n", qPrintable(path));
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
    const QStringList fragNames{"frag-allocation", "frag-ratio", "frag-unallocated"};
    const auto fragPanels = fragmentation->chartPanels();
    for (int i = 0; i < fragPanels.size(); ++i)
        figures.emplace_back(fragNames.value(i), fragPanels[i]->figure());
    if (const auto map = fragmentation->findChild<ui::FragMapView *>())
        figures.emplace_back("frag-map", map->figure());
    if (const auto mig = window.partitioningPage()->currentFigure())
        figures.emplace_back("mig-layout", *mig);
    for (const auto &[name, figure] : figures) {
        for (const char *format : {"pdf", "svg", "png"}) {
            const QString path = out.filePath(QStringLiteral("%1%2.%3").arg(name, suffix, format));
            QString error;
            if (!ui::exportFigure(figure, path, &error)) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
            std::printf("%s\n", qPrintable(path));
        }
    }
    return 0;
}
