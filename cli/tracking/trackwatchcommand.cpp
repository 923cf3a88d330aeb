#include "trackwatchcommand.h"

#include "cli/common/format.h"
#include "trackservingcommand.h"

#include "engine/common/errors.h"
#include "engine/tracking/commitment_renewal.h"
#include "engine/tracking/telemetry_anomalies.h"
#include "engine/tracking/tracking.h"
#include "engine/tracking/watch_findings.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QDate>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QThread>
#include <atomic>
#include <csignal>
#include <set>

namespace headroom::cli {

namespace {

const char kUsage[] = R"usage(
Watch:
       headroom track watch --prometheus URL --out DIR [--every DURATION] [--once]
                              [--renewal-days N] [--threshold F] [--recent-days N]
                              [--gpu ID [--provider P] | --rate R [--currency C]]
                              [--token-file FILE] [--insecure-tls] [--max-series N]
                              [--compression auto|on|off] [--cycles N] [--until TIME]

track watch
  Keeps the plan current. Every --every (default 1h) a cycle:
    1. pulls the hours not yet stored from the Prometheus server, as track pull does;
    2. re-runs, on what the workspace then holds: rightsizing over the last 7 days, the
       utilization anomalies of the fleet (once 15 whole days are measured) and the
       commitment tracker with the next-term recommendation (when billing actuals were
       imported with track import --focus);
    3. lists the findings: an under-used commitment whose term ends within --renewal-days
       (commitment_renewal), one with no renewal that near (commitment_underused), an anomaly
       of the daily GPU utilization or GPU-hours on one of the last --recent-days days
       (utilization_dip, utilization_level_shift, gpu_hours_spike, ...), and a deployment
       whose replica count the measurements say to change (rightsizing);
    4. when the findings differ from the last cycle's (DIR/findings.json), writes
       DIR/findings.json and the week's tracking deck DIR/tracking-YYYY-Www.pdf (rewritten
       within an ISO week, a new file each week).
  One log line per event on standard output, each starting with the UTC time: "pulled",
  "nothing to pull", "findings N (A new, R resolved)", "new KIND SUBJECT: message",
  "resolved KEY", "wrote FILE", "error: ...". A failed pull or analysis writes nothing; in a
  loop the next cycle tries again.
  --out DIR            where the findings file and the decks go (created when missing)
  --every DURATION     time between cycles: 90s, 15m, 1h, 1d; at least 10 s; default 1h
  --once               one cycle, then exit: 0 when the findings did not change, 3 when they
                       did (files written), 2 on an error (for a cron job or a systemd timer:
                       the shipped headroom-watch.timer runs it hourly)
  --cycles N           stop after N cycles (default: until stopped by SIGTERM or SIGINT)
  --until TIME         pull up to this hour (exclusive) instead of the current one
  --renewal-days N     flag an under-used commitment N days before its term ends; default 30
  --threshold F        under-used below this trailing (720 h) utilization; default 0.8
  --recent-days N      anomalies on the last N whole days are findings; default 7
  --gpu ID, --rate R   price rightsizing and anomalies (as track rightsizing), and the deck's
                       serving pages (with --gpu)
  findings.json        {"as_of", "workspace", "source", "pulled_to", "changed",
                       "findings": [{"kind", "subject", "key", "message", "new"}],
                       "resolved": [KEY], "notes": [TEXT]}
)usage";

const std::vector<OptionSpec> kOptions = {
    {QStringLiteral("out")},          {QStringLiteral("every")},       {QStringLiteral("once"), false},
    {QStringLiteral("renewal-days")}, {QStringLiteral("recent-days")}, {QStringLiteral("cycles")},
};

TrackingDeckWriter &deckWriter()
{
    static TrackingDeckWriter writer;
    return writer;
}

std::atomic<bool> g_stop{false};

extern "C" void stopWatching(int) { g_stop = true; }

// "90s", "15m", "1h", "1d" (a bare number is seconds) in seconds; nullopt when unreadable.
std::optional<qint64> parseDuration(const QString &text)
{
    if (text.isEmpty())
        return std::nullopt;
    qint64 unit = 1;
    QString digits = text;
    switch (text.back().toLatin1()) {
    case 's': unit = 1; break;
    case 'm': unit = 60; break;
    case 'h': unit = 3600; break;
    case 'd': unit = 86400; break;
    default: unit = 0; break;
    }
    if (unit != 0)
        digits.chop(1);
    else
        unit = 1;
    bool ok = false;
    const qint64 value = digits.toLongLong(&ok);
    if (!ok || value <= 0 || value > 366 * 86400 / unit)
        return std::nullopt;
    return value * unit;
}

QString nowIso()
{
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss'Z'"));
}

struct Watch {
    store::PrometheusSource source;
    QDir out;
    std::optional<qint64> until;   // fixed end hour (tests); else the current hour
    engine::WatchOptions findings;
    engine::CommitmentOptions commitments;
    std::optional<engine::Money> rate;
    QString gpu;
};

struct Cycle {
    QStringList notes;
    engine::CommitmentReport commitments;
    std::vector<engine::CommitmentRecommendation> renewals;
    std::optional<engine::TelemetryAnomalyReport> telemetry;
    std::vector<engine::RightsizingResult> rightsizing;
    bool hasActuals = false;
    bool hasMetrics = false;
};

// The analyses on what the workspace holds.
Cycle analyse(const Watch &watch, store::Workspace &workspace)
{
    Cycle cycle;
    const auto imports = workspace.actualsImports();
    if (!imports.empty()) {
        const std::optional<engine::ActualsSummary> actuals = workspace.actuals(imports.front().id);
        if (actuals) {
            cycle.hasActuals = true;
            cycle.commitments = engine::analyseCommitments(*actuals, watch.commitments);
            engine::RenewalOptions renewal;
            renewal.historyHours = int(watch.commitments.trailingHours);
            cycle.renewals = engine::recommendCommitments(*actuals, renewal);
        }
    } else {
        cycle.notes << QStringLiteral("no billing actuals in the workspace: commitments not tracked (track import --focus)");
    }
    if (!workspace.servingMetricsImports().empty()) {
        const engine::ServingHours hours = workspace.servingHours();
        if (!hours.hours.empty()) {
            cycle.hasMetrics = true;
            engine::RightsizingOptions options;
            options.plannedHeadroom = workspace.servingAssumptions().plannedHeadroom;
            options.ratePerGpuHour = watch.rate;
            cycle.rightsizing = engine::rightsize(engine::lastDays(hours, 7), options);
            engine::TelemetryAnomalyOptions anomalies;
            anomalies.ratePerGpuHour = watch.rate;
            try {
                const int days = int(engine::dailyTelemetry(hours).size());
                const int needed = engine::telemetryAnomalyMinimumDays(anomalies.detector);
                if (days >= needed)
                    cycle.telemetry = engine::detectTelemetryAnomalies(hours, anomalies);
                else
                    cycle.notes << QStringLiteral("utilization anomalies need %1 whole days measured; %2 so far")
                                       .arg(needed)
                                       .arg(days);
            } catch (const engine::InputError &error) {
                cycle.notes << QStringLiteral("utilization anomalies: %1").arg(QString::fromUtf8(error.what()));
            }
        }
    }
    if (!cycle.hasMetrics)
        cycle.notes << QStringLiteral("no serving metrics in the workspace yet: no rightsizing or utilization anomalies");
    return cycle;
}

std::vector<std::string> previousKeys(const QString &path)
{
    std::vector<std::string> keys;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return keys;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll());
    for (const QJsonValue &finding : document.object().value(QStringLiteral("findings")).toArray())
        keys.push_back(finding.toObject().value(QStringLiteral("key")).toString().toStdString());
    return keys;
}

void writeFile(const QString &path, const QByteArray &content)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size() || !file.commit())
        throw store::StoreError(QStringLiteral("cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
}

// One cycle; returns whether the findings changed. Throws on a failed pull or analysis.
bool runCycle(const Watch &watch, Context &context)
{
    QTextStream &log = context.out();
    store::Workspace &workspace = context.workspace();
    const qint64 until = watch.until.value_or(QDateTime::currentSecsSinceEpoch() / 3600);
    const PullResult pulled = pullNewHours(watch.source, workspace, std::nullopt, until);
    if (pulled.importId == 0)
        log << nowIso() << " nothing to pull: every hour before " << hourIso(until) << " is stored\n";
    else
        log << nowIso() << " pulled " << hourIso(pulled.since) << " to " << hourIso(pulled.until) << ": "
            << formatInteger(pulled.pull.samples) << " samples, " << formatInteger(qint64(pulled.pull.hours.hours.size()))
            << " replica-hours (import " << pulled.importId << ")\n";
    log.flush();

    const Cycle cycle = analyse(watch, workspace);
    engine::WatchInputs inputs;
    if (cycle.hasActuals) {
        inputs.commitments = &cycle.commitments;
        inputs.renewals = &cycle.renewals;
    }
    if (cycle.telemetry)
        inputs.telemetry = &*cycle.telemetry;
    if (cycle.hasMetrics)
        inputs.rightsizing = &cycle.rightsizing;
    const std::vector<engine::WatchFinding> findings = engine::watchFindings(inputs, watch.findings);
    const QString findingsPath = watch.out.filePath(QStringLiteral("findings.json"));
    const bool first = !QFile::exists(findingsPath);
    const engine::FindingsChange change = engine::compareFindings(previousKeys(findingsPath), findings);
    for (const QString &note : cycle.notes)
        log << nowIso() << " note: " << note << '\n';
    log << nowIso() << " findings " << findings.size() << " (" << change.added.size() << " new, "
        << change.resolved.size() << " resolved)\n";
    for (const engine::WatchFinding &f : change.added)
        log << nowIso() << " new " << QString::fromStdString(f.kind) << ' ' << printable(QString::fromStdString(f.subject))
            << ": " << printable(QString::fromStdString(f.message)) << '\n';
    for (const std::string &key : change.resolved)
        log << nowIso() << " resolved " << printable(QString::fromStdString(key)) << '\n';
    if (!change.changed() && !first) {
        log.flush();
        return false;
    }

    std::set<std::string> added;
    for (const engine::WatchFinding &f : change.added)
        added.insert(f.key);
    QJsonArray list;
    for (const engine::WatchFinding &f : findings)
        list.append(QJsonObject{{QStringLiteral("kind"), QString::fromStdString(f.kind)},
                                {QStringLiteral("subject"), QString::fromStdString(f.subject)},
                                {QStringLiteral("key"), QString::fromStdString(f.key)},
                                {QStringLiteral("message"), QString::fromStdString(f.message)},
                                {QStringLiteral("new"), bool(added.count(f.key))}});
    QJsonArray resolved;
    for (const std::string &key : change.resolved)
        resolved.append(QString::fromStdString(key));
    const QJsonObject document{{QStringLiteral("as_of"), nowIso()},
                               {QStringLiteral("workspace"), workspace.path()},
                               {QStringLiteral("source"), watch.source.url.toString()},
                               {QStringLiteral("pulled_to"), hourIso(until)},
                               {QStringLiteral("changed"), change.changed()},
                               {QStringLiteral("findings"), list},
                               {QStringLiteral("resolved"), resolved},
                               {QStringLiteral("notes"), QJsonArray::fromStringList(cycle.notes)}};

    // The deck first: the findings file is what marks a cycle as written.
    if (deckWriter() && (cycle.hasActuals || cycle.hasMetrics)) {
        const QDate today = QDateTime::currentDateTimeUtc().date();
        int year = 0;
        const int week = today.weekNumber(&year);
        const QString deck = watch.out.filePath(QStringLiteral("tracking-%1-W%2.pdf").arg(year).arg(week, 2, 10, QLatin1Char('0')));
        try {
            deckWriter()(workspace, deck, watch.gpu);
            log << nowIso() << " wrote " << QDir::toNativeSeparators(deck) << '\n';
        } catch (const store::StoreError &error) {
            log << nowIso() << " note: no deck: " << error.message() << '\n';
        } catch (const engine::InputError &error) {
            log << nowIso() << " note: no deck: " << QString::fromUtf8(error.what()) << '\n';
        }
    } else if (!deckWriter()) {
        log << nowIso() << " note: no deck: this build cannot paint\n";
    }
    writeFile(findingsPath, QJsonDocument(document).toJson(QJsonDocument::Indented));
    log << nowIso() << " wrote " << QDir::toNativeSeparators(findingsPath) << '\n';
    log.flush();
    return true;
}

} // namespace

const std::vector<OptionSpec> &watchTrackOptions()
{
    return kOptions;
}

QString watchTrackUsage()
{
    return QString::fromUtf8(kUsage);
}

void setTrackingDeckWriter(TrackingDeckWriter writer)
{
    deckWriter() = std::move(writer);
}

int runWatchTrack(const Args &args, Context &context)
{
    if (!args.has(QStringLiteral("prometheus")))
        throw UsageError(QStringLiteral("track watch: give --prometheus URL, the server to pull from"));
    const auto outDir = args.text(QStringLiteral("out"));
    if (!outDir || outDir->isEmpty())
        throw UsageError(QStringLiteral("track watch: give --out DIR, where the findings and the decks go"));
    Watch watch;
    watch.source = prometheusSource(args);
    qint64 every = 3600;
    if (const auto text = args.text(QStringLiteral("every"))) {
        const auto seconds = parseDuration(text->trimmed());
        if (!seconds || *seconds < 10)
            throw UsageError(QStringLiteral("track watch: --every '%1': give a duration of 10 s or more such as 90s, 15m, "
                                            "1h or 1d")
                                 .arg(printable(*text)));
        every = *seconds;
    }
    if (const auto days = args.integer(QStringLiteral("renewal-days"), 0, 3660))
        watch.findings.renewalNoticeDays = int(*days);
    if (const auto days = args.integer(QStringLiteral("recent-days"), 1, 3660))
        watch.findings.recentDays = int(*days);
    if (const auto threshold = args.number(QStringLiteral("threshold"))) {
        if (!(*threshold > 0.0 && *threshold <= 1.0))
            throw UsageError(QStringLiteral("track watch: --threshold %1: give a utilization in (0, 1]").arg(*threshold));
        watch.commitments.threshold = *threshold;
    }
    std::optional<qint64> cycles;
    if (const auto n = args.integer(QStringLiteral("cycles"), 1, 1000000))
        cycles = *n;
    if (args.has(QStringLiteral("once")))
        cycles = 1;
    if (args.has(QStringLiteral("until")))
        watch.until = hourOption(args, QStringLiteral("until"), QStringLiteral("watch"));
    QString rateSource;
    watch.rate = trackRate(args, context, QStringLiteral("watch"), &rateSource);
    watch.gpu = args.text(QStringLiteral("gpu")).value_or(QString());
    if (!QDir().mkpath(*outDir))
        throw store::StoreError(QStringLiteral("track watch: cannot create the folder %1").arg(QDir::toNativeSeparators(*outDir)));
    watch.out = QDir(*outDir);
    context.workspace();  // a missing workspace is an error before the first cycle

    if (cycles == 1)
        return runCycle(watch, context) ? kFindingsChangedExit : 0;

    g_stop = false;
    std::signal(SIGTERM, stopWatching);
    std::signal(SIGINT, stopWatching);
    int status = 0;
    for (qint64 done = 0; !g_stop && (!cycles || done < *cycles); ++done) {
        if (done > 0) {
            for (qint64 waited = 0; waited < every && !g_stop; ++waited)
                QThread::sleep(1);
            if (g_stop)
                break;
        }
        try {
            status = runCycle(watch, context) ? kFindingsChangedExit : 0;
        } catch (const store::StoreError &error) {
            context.out() << nowIso() << " error: " << error.message() << '\n';
            status = 2;
        } catch (const engine::InputError &error) {
            context.out() << nowIso() << " error: " << QString::fromUtf8(error.what()) << '\n';
            status = 2;
        }
        context.out().flush();
    }
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGINT, SIG_DFL);
    context.out() << nowIso() << " stopped\n";
    return status;
}

} // namespace headroom::cli
