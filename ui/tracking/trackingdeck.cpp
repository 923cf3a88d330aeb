#include "trackingdeck.h"
#include "trackingserving.h"

#include "trackinganalysis.h"
#include "trackingcharts.h"
#include "commitmentnextterm.h"

#include "engine/common/errors.h"
#include "engine/fleet/scenario.h"
#include "report/reportsnapshot.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QDate>
#include <QFileInfo>
#include <QLocale>
#include <QObject>
#include <algorithm>

namespace headroom::ui {

namespace {

constexpr int64_t kDay = 86400;
// Under-used commitments charted one by one in the deck, at most.
constexpr size_t kCommitmentCharts = 6;

QString qs(const std::string &text) { return QString::fromStdString(text); }

// "$4,227.07", "−$934,687.31": a negative amount with the minus sign the deck's other figures use.
QString money(const engine::Decimal &amount, const std::string &currency)
{
    QString text = qs(engine::Money{amount, currency}.display());
    if (text.startsWith(QLatin1Char('-')))
        text.replace(0, 1, QChar(0x2212));
    return text;
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(QString::number(100.0 * share, 'f', 1));
}

DeckItem textItem(const QString &title, const QString &text)
{
    DeckItem item;
    item.kind = DeckItem::Kind::Text;
    item.title = title;
    item.text = text;
    return item;
}

void addCurrencySection(Deck &deck, const TrackingResult &r, const QString &suffix)
{
    const std::string &c = r.currency;
    // Dashboard.
    DeckTable dashboard{{QObject::tr("Figure"), QObject::tr("Value")}, {}};
    const QString period = r.daily ? QObject::tr("%1 to %2 (%3 days)")
                                         .arg(utcDay(r.daily->firstDay),
                                              utcDay(r.daily->firstDay + int64_t(r.daily->cost.size()) - 1))
                                         .arg(r.daily->cost.size())
                                   : QObject::tr("no charge");
    dashboard.rows << QStringList{QObject::tr("Period (UTC days charges start)"), period}
                   << QStringList{QObject::tr("Effective cost"), money(r.totalEffective, c)}
                   << QStringList{QObject::tr("Billed cost"), money(r.totalBilled, c)}
                   << QStringList{QObject::tr("Commitments tracked"), QString::number(r.commitments.size())}
                   << QStringList{QObject::tr("Commitment cost used"), money(r.usedCost(), c)}
                   << QStringList{QObject::tr("Commitment cost unused"), money(r.unusedCost(), c)}
                   << QStringList{QObject::tr("Commitment utilization"), r.commitments.empty() ? QObject::tr("—") : percent(r.utilization())}
                   << QStringList{QObject::tr("Under-used commitments (trailing < %1 %)")
                                      .arg(QString::number(100.0 * r.settings.threshold, 'f', 0)),
                                  QString::number(r.underUsedCount())}
                   << QStringList{QObject::tr("On-demand overflow"), money(r.onDemandOverflow, c)}
                   << QStringList{QObject::tr("Anomalies in the daily cost"),
                                  r.anomalies ? QString::number(r.anomalies->anomalies.size()) : QObject::tr("not run")};
    if (r.planResult)
        dashboard.rows << QStringList{QObject::tr("Plan %1: planned / actual").arg(r.plan->scenario),
                                      QStringLiteral("%1 / %2").arg(money(r.planResult->totalPlanned, c),
                                                                    money(r.planResult->totalActual, c))}
                       << QStringList{QObject::tr("Cumulative variance (actual − planned)"),
                                      money(r.planResult->cumulativeVariance, c)};
    DeckItem dash = deckTableItem(QObject::tr("Dashboard%1").arg(suffix),
                              QObject::tr("Utilization = used EffectiveCost ÷ (used + unused) over the usage rows "
                                          "carrying a CommitmentDiscountStatus. Amounts in %1 only.")
                                  .arg(qs(c)),
                              dashboard);
    dash.keyFigures = {{QObject::tr("Effective cost"), money(r.totalEffective, c)},
                       {QObject::tr("Commitment utilization"), r.commitments.empty() ? QObject::tr("—") : percent(r.utilization())},
                       {QObject::tr("Paid for, unused"), money(r.unusedCost(), c)},
                       {QObject::tr("On-demand overflow"), money(r.onDemandOverflow, c)}};
    deck.items.push_back(std::move(dash));

    // Reserve-utilization tracker.
    DeckTable tracker{{QObject::tr("Commitment"), QObject::tr("Hours used"), QObject::tr("Hours unused"),
                       QObject::tr("Utilization"), QObject::tr("Trailing"), QObject::tr("Unused cost"),
                       QObject::tr("Term ends"), QObject::tr("Under-used")},
                      {}};
    for (const CommitmentTrack &t : r.commitments) {
        const engine::CommitmentUsage &u = t.usage;
        tracker.rows << QStringList{qs(u.name.empty() ? u.id : u.name),
                                    QString::number(u.hoursUsed),
                                    QString::number(u.hoursUnused),
                                    percent(u.utilization),
                                    percent(u.trailingUtilization),
                                    money(u.unusedCost, c),
                                    t.termEnd > 0 ? QObject::tr("%1 (%2 days after the last charge)")
                                                        .arg(utcDate(t.termEnd))
                                                        .arg((t.termEnd - u.lastHour) / kDay)
                                                  : QObject::tr("not in the actuals"),
                                    u.underUsed ? QObject::tr("yes") : QObject::tr("no")};
    }
    if (tracker.rows.isEmpty())
        deck.items.push_back(textItem(QObject::tr("Reserve-utilization tracker%1").arg(suffix),
                                      QObject::tr("No usage row in %1 carries a CommitmentDiscountStatus.").arg(qs(c))));
    else {
        deck.items.push_back(deckTableItem(QObject::tr("Reserve-utilization tracker%1").arg(suffix),
                                       QObject::tr("Trailing: utilization over the last %1 h of each commitment's "
                                                   "charges. Hours: distinct clock hours with a used / an unused row.")
                                           .arg(r.settings.trailingHours),
                                       tracker));
        // The next term of every commitment: the recommendation and its reasoning.
        DeckTable next{{QObject::tr("Commitment"), QObject::tr("Under-used"), QObject::tr("Days to renewal"),
                        QObject::tr("Now → recommended"), QObject::tr("Expected utilization"),
                        QObject::tr("Saving per term"), QObject::tr("Basis")},
                       {}};
        QStringList reasons;
        for (const CommitmentTrack &t : r.commitments) {
            const QString name = qs(t.usage.name.empty() ? t.usage.id : t.usage.name);
            next.rows << (QStringList{name, t.usage.underUsed ? QObject::tr("yes") : QObject::tr("no")} + nextTermCells(t));
            if (t.next)
                reasons << QObject::tr("%1: %2").arg(name, nextTermReasoning(t));
        }
        deck.items.push_back(deckTableItem(QObject::tr("Next term%1").arg(suffix),
                                           QObject::tr("The measured hourly demand each commitment served (used cost plus "
                                                       "its on-demand overflow at the committed price), forecast over the "
                                                       "next term and handed to the reservation optimizer, or repeated as "
                                                       "measured where the forecast cannot be trusted (Basis). Saving: "
                                                       "expected cost of the current size minus that of the recommended "
                                                       "one.")
                                               + QStringLiteral("\n\n") + reasons.join(QStringLiteral("\n\n")),
                                           next));
        deck.items.push_back(deckFigureItem(utilizationTrackerFigure(r)));
        size_t charted = 0;
        for (const CommitmentTrack &t : r.commitments)
            if (t.usage.underUsed && charted++ < kCommitmentCharts)
                deck.items.push_back(deckFigureItem(commitmentUtilizationFigure(t)));
    }

    // Anomalies.
    if (r.anomalies) {
        DeckTable list{{QObject::tr("Kind"), QObject::tr("Day (UTC)"), QObject::tr("Actual"), QObject::tr("Expected"),
                        QObject::tr("Size"), QObject::tr("Usage hours (size)")},
                       {}};
        const auto amount = [&](double v) { return money(engine::Decimal::fromDouble(v).rounded(2), c); };
        for (const engine::Anomaly &a : r.anomalies->anomalies)
            list.rows << QStringList{anomalyKindName(a.kind), utcDay(r.daily->firstDay + a.index), amount(a.value),
                                     amount(a.expected),
                                     a.kind == engine::AnomalyKind::LevelShift ? QObject::tr("%1 a day").arg(amount(a.size))
                                                                               : amount(a.size),
                                     usageHoursCell(r, a)};
        if (list.rows.isEmpty())
            deck.items.push_back(textItem(QObject::tr("Anomalies%1").arg(suffix),
                                          QObject::tr("No day of the %1 after the model's %2-day history left its "
                                                      "P99.5 interval, and no level shift.")
                                              .arg(r.daily->cost.size() - size_t(r.anomalies->history))
                                              .arg(r.anomalies->history)
                                          + QStringLiteral(" ") + usageAnomalyNote(r)));
        else
            deck.items.push_back(deckTableItem(QObject::tr("Anomalies%1").arg(suffix),
                                           QObject::tr("Size: actual − expected, in %1 (a level shift: per day); usage hours "
                                                       "the same for the day's ConsumedQuantity in hours.")
                                                   .arg(qs(c))
                                               + QStringLiteral(" ") + usageAnomalyNote(r),
                                           list));
        deck.items.push_back(deckFigureItem(anomalyFigure(r)));
    } else {
        deck.items.push_back(textItem(QObject::tr("Anomalies%1").arg(suffix), r.anomalyNote));
    }

    // Plan versus actual.
    if (r.plan) {
        if (r.planResult)
            deck.items.push_back(deckFigureItem(planFigure(r)));
        else
            deck.items.push_back(textItem(QObject::tr("Plan versus actual%1").arg(suffix), r.planNote));
    }
}

// A deck's title page from the workspace's report settings: `title` unless they name one,
// dated today unless they give a date.
Deck titledDeck(const store::Workspace &workspace, const QString &title)
{
    Deck deck;
    const store::ReportSettings settings = workspace.reportSettings();
    deck.title = settings.title.isEmpty() ? title : settings.title;
    deck.author = settings.author;
    deck.date = settings.date.isEmpty() ? QLocale(QLocale::English).toString(QDate::currentDate(), QStringLiteral("d MMMM yyyy"))
                                        : settings.date;
    deck.workspaceName = QFileInfo(workspace.path()).fileName();
    return deck;
}

// The title page with the chargeback and the training jobs alone, for a workspace without
// billing imports.
Deck withoutActualsDeck(const store::Workspace &workspace, const TrackingDeckOptions &options)
{
    QStringList parts;
    const bool serving = !workspace.servingMetricsImports().empty();
    if (serving)
        parts << QObject::tr("serving metrics of the workspace");
    if (options.chargeback)
        parts << QObject::tr("chargeback of %1 over %2").arg(options.chargeback->focusFile, options.chargeback->claimsFile);
    if (options.trainingJobs)
        parts << QObject::tr("training jobs from %1").arg(options.trainingJobs->telemetryFile);
    Deck deck = titledDeck(workspace, options.chargeback ? QObject::tr("Tracking: chargeback")
                                          : options.trainingJobs ? QObject::tr("Tracking: training jobs")
                                                                 : QObject::tr("Tracking: serving"));
    QString subtitle = parts.join(QStringLiteral("; "));
    subtitle[0] = subtitle[0].toUpper();
    deck.subtitle = subtitle;
    if (serving) {
        ServingSettings settings;
        settings.gpuId = options.servingGpu;
        appendServingPages(deck, workspace, settings);
    }
    if (options.chargeback)
        appendChargebackPages(deck, *options.chargeback);
    if (options.trainingJobs)
        appendTrainingJobsPages(deck, *options.trainingJobs);
    return deck;
}

} // namespace

Deck trackingDeck(const store::Workspace &workspace, const TrackingDeckOptions &options)
{
    const std::vector<store::ActualsImport> imports = workspace.actualsImports();
    if (imports.empty() && (options.chargeback || options.trainingJobs || !workspace.servingMetricsImports().empty()))
        return withoutActualsDeck(workspace, options);
    if (imports.empty())
        throw store::StoreError(QObject::tr("%1 holds no billing actuals: import a FOCUS export first "
                                            "(headroom track import --focus FILE.csv)")
                                    .arg(workspace.path()));
    const store::ActualsImport &latest = imports.front();
    std::optional<engine::ActualsSummary> actuals = workspace.actuals(latest.id);
    if (!actuals)
        throw store::StoreError(QObject::tr("%1: actuals import %2 vanished").arg(workspace.path()).arg(latest.id));
    if (options.sinceDay)
        *actuals = engine::actualsSince(*actuals, *options.sinceDay * kDay);
    if (actuals->days.empty())
        throw engine::InputError("since", "the actuals of " + latest.fileName.toStdString() + " hold no charge"
                                     + (options.sinceDay ? " since " + utcDay(*options.sinceDay).toStdString() : std::string()));

    std::optional<PlanInput> plan;
    if (!options.scenario.isEmpty()) {
        const auto scenario = workspace.scenario(options.scenario);
        if (!scenario)
            throw store::StoreError(QObject::tr("%1 has no scenario \"%2\"").arg(workspace.path(), options.scenario));
        const engine::ScenarioResult evaluated = engine::evaluateScenario(*scenario, store::scenarioInputs(workspace));
        plan = PlanInput{options.scenario, evaluated.costPerDay};
    }

    Deck deck = titledDeck(workspace, QObject::tr("Tracking: plan versus actual"));
    deck.subtitle = QObject::tr("Billing actuals from %1%2")
                        .arg(latest.fileName,
                             options.sinceDay ? QObject::tr(", charges since %1").arg(utcDay(*options.sinceDay)) : QString());

    DeckSection source{QObject::tr("Actuals"), {{QObject::tr("Item"), QObject::tr("Value")}, {}}};
    source.table.rows << QStringList{QObject::tr("File"), latest.fileName}
                      << QStringList{QObject::tr("Imported"), latest.importedAt}
                      << QStringList{QObject::tr("Charge rows in the report"), QString::number(actuals->rows)}
                      << QStringList{QObject::tr("Currencies (never added together)"), latest.currencies.join(QLatin1String(", "))}
                      << QStringList{QObject::tr("Under-use threshold"),
                                     QObject::tr("%1 % over the trailing %2 h")
                                         .arg(QString::number(100.0 * options.threshold, 'f', 0))
                                         .arg(options.trailingHours)};
    if (plan)
        source.table.rows << QStringList{QObject::tr("Plan"), QObject::tr("scenario %1: %2 a day")
                                                                  .arg(plan->scenario, qs(plan->costPerDay.displayRate()))};
    deck.assumptions = {source};

    for (const std::string &currency : actuals->currencies) {
        TrackingSettings trackingSettings;
        trackingSettings.currency = currency;
        trackingSettings.threshold = options.threshold;
        trackingSettings.trailingHours = options.trailingHours;
        const TrackingResult result = analyseTracking(*actuals, trackingSettings, plan);
        if (!result.daily)
            continue;  // a currency with no charge since the date
        const QString suffix = actuals->currencies.size() > 1 ? QStringLiteral(" (%1)").arg(qs(currency)) : QString();
        addCurrencySection(deck, result, suffix);
    }
    if (plan && std::find(actuals->currencies.begin(), actuals->currencies.end(), plan->costPerDay.currency)
                    == actuals->currencies.end())
        deck.warnings << QObject::tr("Scenario %1 is priced in %2, a currency the actuals do not hold: no plan comparison.")
                             .arg(plan->scenario, qs(plan->costPerDay.currency));
    ServingSettings serving;
    serving.gpuId = options.servingGpu;
    appendServingPages(deck, workspace, serving);
    if (options.chargeback)
        appendChargebackPages(deck, *options.chargeback);
    if (options.trainingJobs)
        appendTrainingJobsPages(deck, *options.trainingJobs);
    return deck;
}

} // namespace headroom::ui
