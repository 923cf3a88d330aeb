#include "reportcli.h"

#include "reportdeck.h"
#include "reportsnapshot.h"
#include "fleet/plandeck.h"
#include "fleet/scenariodeck.h"
#include "tracking/trackingdeck.h"

#include "cli/catalog/lookup.h"
#include "cli/common/args.h"
#include "cli/common/outputfile.h"
#include "cli/fleet/plancommand.h"
#include "cli/tracking/trackchargebackcommand.h"
#include "cli/tracking/trackwatchcommand.h"
#include "cli/common/cli.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "store/tracking/chargebackinputs.h"
#include "store/tracking/jobtelemetrycsv.h"

#include <QApplication>
#include <QDate>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace headroom::ui {

namespace {

const char kUsage[] = R"(usage: headroom report [--scenario NAME]... -o FILE.pdf [--force]
       headroom report --tracking [--since DATE] [--threshold F] [--scenario NAME] [--gpu ID]
                       [--claims FILE.csv --focus FILE.csv [--mig-basis B] [--idle I] [--by K]]
                       [--telemetry FILE.csv [--below F]] -o FILE.pdf [--force]

Writes a PDF deck: 16:9 landscape pages (13.33 × 7.5 in), vector charts, fonts embedded,
page numbers in the footer.

With --scenario (repeatable, in the order given): a title page, a summary (per scenario
the decision in one sentence with its cost per month, term cost, GPUs and utilization, and
the recommendation: the cheapest per month and its saving), then per scenario its pools
table (GPUs, tier, utilization, cost per day and per month), its static base and elastic
top diagram and its warnings; with two to four scenarios a comparison table with deltas
against the first and charts of monthly cost by tier, GPUs by pool and utilization; the
deck's warnings (each once, with its count), and as an appendix the assumptions (the
scenarios' terms, the rate cards they are priced from, the workloads they serve).

Without --scenario: the workspace's report as arranged on the Report page (title page,
summary, the charts and tables added to it, warnings, and an appendix of the rate cards
and workloads those items use).

With --tracking: the tracking deck from the newest billing actuals of the workspace
(headroom track import), one section per currency, never summed: a dashboard of the headline
figures (effective and billed cost, commitment utilization, unused commitment cost, on-demand
overflow, anomalies), the reserve-utilization tracker (table and chart, each under-used
commitment's use over time), the anomalies of the daily cost, and with --scenario the
scenario's planned cost per day against the actuals; with serving metrics imported
(headroom track import --metrics), rightsizing and the replicas' figures (last 7 days), and
with optimizations (headroom track benchmarks --add) the benchmark history; with --claims and
--focus, the chargeback of the shared pool the claims describe (headroom track chargeback: the
table, slice-hours against the quota's claim count, the trend and the Kueue configuration);
with --telemetry, training jobs' telemetry: the data-loading stall audit of the last five jobs
(headroom track stalls) and each job's goodput per GPU against the plan of the workspace training
job of the same name (headroom track goodput: the table and the hours against plan). Both also
without billing imports. Made to run weekly from cron.

The title, author and date come from the workspace's report settings (Report page); a
scenario deck without them is titled after the scenarios and dated today.

options:
  --scenario NAME   a fleet scenario of the workspace; repeat for a comparison (with
                    --tracking: the one scenario whose plan is compared with the actuals)
  --tracking        the tracking deck instead
  --since DATE      with --tracking: only charges starting on or after DATE (YYYY-MM-DD, UTC)
  --threshold F     with --tracking: under-used below this trailing utilization, (0, 1];
                    default 0.8 (the trailing window is 720 h)
  --gpu ID          with --tracking: price the serving pages (rightsizing saving, cost per
                    1M tokens) at this GPU's lowest on-demand rate in the rate cards
  --claims FILE     with --tracking and --focus: a GPU claims ledger (track chargeback)
  --focus FILE      the FOCUS export whose charges of the claims' machines are charged back
  --mig-basis B     compute, memory or larger (default compute); --idle apart or pro-rata
                    (default apart); --by tenant, model or namespace (default tenant)
  --telemetry FILE  with --tracking: a job telemetry CSV (track stalls, track goodput)
  --below F         an hour below F of the job's plan is flagged, (0, 1]; default 0.9
  -o, --output FILE the PDF to write: written in full to a temporary file beside it, then
                    renamed into place, so a failed export leaves no partial file. A
                    symbolic link at FILE is refused (name the file it points to instead)
  --force           replace FILE when it exists (without it an existing file is left as it
                    is and the command exits 2)
)";

const std::vector<cli::OptionSpec> kOptions = {
    {QStringLiteral("scenario"), true, true},
    {QStringLiteral("output")},
    {QStringLiteral("force"), false},
    {QStringLiteral("tracking"), false},
    {QStringLiteral("since")},
    {QStringLiteral("threshold")},
    {QStringLiteral("gpu")},
    {QStringLiteral("claims")},
    {QStringLiteral("focus")},
    {QStringLiteral("mig-basis")},
    {QStringLiteral("idle")},
    {QStringLiteral("by")},
    {QStringLiteral("telemetry")},
    {QStringLiteral("below")},
};

// --claims and --focus as a chargeback for the tracking deck.
ChargebackRun chargebackRun(const cli::Args &parsed, const store::Workspace &workspace)
{
    const auto claims = parsed.text(QStringLiteral("claims"));
    const auto focus = parsed.text(QStringLiteral("focus"));
    if (!claims || !focus || claims->isEmpty() || focus->isEmpty())
        throw cli::UsageError(QStringLiteral("report --tracking: --claims FILE.csv and --focus FILE.csv go together"));
    ChargebackRun run;
    const cli::ChargebackChoices choices = cli::chargebackChoices(parsed, QStringLiteral("report"));
    run.options.basis = choices.basis;
    run.options.idle = choices.idle;
    run.by = choices.by;
    const store::ChargebackInputs inputs = store::readChargebackInputs(workspace, *claims, *focus);
    run.options.from = inputs.firstCharge;
    run.options.to = inputs.lastCharge;
    run.result = store::runChargeback(inputs, run.options);
    run.claimsFile = QFileInfo(*claims).fileName();
    run.focusFile = QFileInfo(*focus).fileName();
    run.kueueConfig = QString::fromStdString(engine::kueueQuotaConfig(inputs.resources, inputs.claims, run.options.basis));
    return run;
}

int runReport(const QStringList &rawArgs, cli::Context &context)
{
    // A verb that paints needs a QApplication; a caller without one gets it here, offscreen.
    if (!QCoreApplication::instance()) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        static int argc = 1;
        static char name[] = "headroom";
        static char *argv[] = {name, nullptr};
        new QApplication(argc, argv);  // kept until the process ends, with the workspace it serves
    } else if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
        throw cli::UsageError(QStringLiteral("report: the deck is painted and needs a QApplication; start "
                                             "headroom through ui::headlessApplication"));
    }
    QStringList args = rawArgs;
    for (QString &arg : args) {
        if (arg == QLatin1String("-o"))
            arg = QStringLiteral("--output");
    }
    const cli::Args parsed(args, kOptions);
    if (!parsed.positionals().isEmpty())
        throw cli::UsageError(QStringLiteral("report: unexpected argument '%1'; see headroom report --help")
                                  .arg(parsed.positionals().constFirst()));
    const std::optional<QString> output = parsed.text(QStringLiteral("output"));
    if (!output || output->isEmpty())
        throw cli::UsageError(QStringLiteral("report: -o FILE.pdf is required"));
    if (!output->endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        throw cli::UsageError(QStringLiteral("report: -o %1: the deck is a PDF; give a file name ending in .pdf")
                                  .arg(*output));
    const store::ExistingFile existing =
        cli::checkOutputFile(QStringLiteral("-o"), *output, parsed.has(QStringLiteral("force")));
    QStringList scenarios = parsed.texts(QStringLiteral("scenario"));
    if (scenarios.size() > 4)
        throw cli::UsageError(QStringLiteral("report: at most 4 scenarios can be compared in one deck (got %1)")
                                  .arg(scenarios.size()));
    if (scenarios.removeDuplicates() > 0)
        throw cli::UsageError(QStringLiteral("report: a scenario is named more than once"));

    store::Workspace &workspace = context.workspace();
    Deck deck;
    const bool tracking = parsed.has(QStringLiteral("tracking"));
    if (!tracking && (parsed.has(QStringLiteral("since")) || parsed.has(QStringLiteral("threshold"))
                      || parsed.has(QStringLiteral("gpu")) || parsed.has(QStringLiteral("claims"))
                      || parsed.has(QStringLiteral("focus")) || parsed.has(QStringLiteral("mig-basis"))
                      || parsed.has(QStringLiteral("idle")) || parsed.has(QStringLiteral("by"))
                      || parsed.has(QStringLiteral("telemetry")) || parsed.has(QStringLiteral("below"))))
        throw cli::UsageError(QStringLiteral("report: --since, --threshold, --gpu, --claims, --focus, --mig-basis, --idle, "
                                             "--by, --telemetry and --below apply to --tracking only"));
    if (tracking) {
        TrackingDeckOptions options;
        if (scenarios.size() > 1)
            throw cli::UsageError(QStringLiteral("report --tracking: name at most one --scenario, the plan to compare"));
        if (!scenarios.isEmpty())
            options.scenario = scenarios.constFirst();
        if (const auto since = parsed.text(QStringLiteral("since"))) {
            const QDate date = QDate::fromString(*since, Qt::ISODate);
            if (!date.isValid() || since->size() != 10)
                throw cli::UsageError(QStringLiteral("report: --since %1: give a date as YYYY-MM-DD").arg(*since));
            options.sinceDay = QDate(1970, 1, 1).daysTo(date);
        }
        if (const auto threshold = parsed.number(QStringLiteral("threshold"))) {
            if (!(*threshold > 0.0 && *threshold <= 1.0))
                throw cli::UsageError(QStringLiteral("report: --threshold %1: give a utilization in (0, 1]")
                                          .arg(*threshold));
            options.threshold = *threshold;
        }
        options.servingGpu = parsed.text(QStringLiteral("gpu")).value_or(QString());
        // An unknown id is a typo, not a GPU without a price: refused, naming the closest ids.
        if (!options.servingGpu.isEmpty())
            options.servingGpu = QString::fromStdString(cli::findGpu(workspace, options.servingGpu).id);
        if (parsed.has(QStringLiteral("claims")) || parsed.has(QStringLiteral("focus")))
            options.chargeback = chargebackRun(parsed, workspace);
        if (const auto telemetry = parsed.text(QStringLiteral("telemetry"))) {
            const double below = parsed.number(QStringLiteral("below")).value_or(0.9);
            if (!(below > 0 && below <= 1))
                throw cli::UsageError(QStringLiteral("report: --below %1: give a share of the plan in (0, 1]").arg(below));
            std::vector<std::string> names;
            for (const engine::TrainingJob &job : workspace.trainingJobs())
                names.push_back(job.name);
            const std::map<std::string, double> planned = store::plannedTrainingRates(workspace, names);
            std::map<std::string, QString> sources;
            for (const auto &[name, rate] : planned)
                sources[name] = QObject::tr("training job");
            options.trainingJobs = runTrainingJobs(*telemetry, planned, sources, below);
        } else if (parsed.has(QStringLiteral("below"))) {
            throw cli::UsageError(QStringLiteral("report: --below needs --telemetry"));
        }
        deck = trackingDeck(workspace, options);
    } else if (scenarios.isEmpty()) {
        if (workspace.reportItems().empty())
            throw cli::UsageError(QStringLiteral("report: nothing to report: name --scenario NAME, or add charts and "
                                                 "tables to the report of %1 on the Report page")
                                      .arg(workspace.path()));
        deck = workspaceDeck(workspace);
    } else {
        deck = scenarioDeck(workspace, scenarios);
    }
    QString error;
    if (!writeDeckPdf(deck, *output, &error, {}, existing))
        throw cli::UsageError(QStringLiteral("report: %1").arg(error));
    const DeckLayout layout(deck);
    context.out() << "Wrote " << QDir::toNativeSeparators(*output) << ": " << layout.pageCount() << " pages\n";
    return 0;
}

} // namespace

cli::Command reportCommand()
{
    return {QStringLiteral("report"), QStringLiteral("PDF deck of fleet scenarios or of the workspace's report"),
            QString::fromUtf8(kUsage), &runReport};
}

std::vector<cli::Command> paintingCommands()
{
    return {reportCommand()};
}

std::unique_ptr<QCoreApplication> headlessApplication(int &argc, char **argv, const QStringList &args)
{
    cli::setTrackingDeckWriter([](const store::Workspace &workspace, const QString &pdfPath, const QString &gpu) {
        TrackingDeckOptions options;
        if (!gpu.isEmpty())
            options.servingGpu = QString::fromStdString(cli::findGpu(workspace, gpu).id);
        const Deck deck = trackingDeck(workspace, options);
        QString error;
        if (!writeDeckPdf(deck, pdfPath, &error, {}, store::ExistingFile::Replace))
            throw store::StoreError(error);
    });
    cli::setPlanDeckWriter([](const store::Workspace &workspace, const engine::PlanRequest &request,
                              const engine::PlanResult &result, const std::optional<engine::ScenarioResult> &compared,
                              const QStringList &notes, const QString &pdfPath, store::ExistingFile existing) {
        const PlanReport plan{request, result, compared, QString(), notes};
        const Deck deck = planDeck(workspace, plan);
        QString error;
        if (!writeDeckPdf(deck, pdfPath, &error, {}, existing))
            throw store::StoreError(error);
        return DeckLayout(deck).pageCount();
    });
    const QString verb = cli::verbOf(args);
    // track watch writes the tracking deck, plan --deck the plan's.
    const bool paints = (verb == QLatin1String("track") && args.contains(QLatin1String("watch")))
        || (verb == QLatin1String("plan")
            && std::any_of(args.begin(), args.end(), [](const QString &a) { return a.startsWith(QLatin1String("--deck")); }));
    for (const cli::Command &command : paintingCommands()) {
        if (command.name == verb || paints) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
            // The platform wants a private runtime folder; on a bare CI shell there is none, and
            // Qt would make one and warn on stderr. Make it quietly, as Qt does.
            if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
                const QString user = qEnvironmentVariable("USER", QStringLiteral("user"));
                const QString runtime = QDir::temp().filePath(QStringLiteral("runtime-headroom-%1").arg(user));
                if (QDir().mkpath(runtime)
                    && QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
                    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(runtime));
            }
            return std::make_unique<QApplication>(argc, argv);
        }
    }
    return std::make_unique<QCoreApplication>(argc, argv);
}

} // namespace headroom::ui
