#include "trackcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/fleet/scenariocommand.h"
#include "trackchargebackcommand.h"
#include "trackjobgoodputcommand.h"
#include "trackstallscommand.h"
#include "trackservingcommand.h"
#include "trackwatchcommand.h"

#include "engine/tracking/actuals_anomalies.h"
#include "engine/common/calendar.h"
#include "engine/common/errors.h"
#include "engine/tracking/commitment_renewal.h"
#include "engine/fleet/scenario.h"
#include "engine/tracking/tracking.h"
#include "store/tracking/focuscsv.h"
#include "store/fleet/scenarioinputs.h"
#include "store/forecast/seriescsv.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <cstdio>
#include <set>

namespace headroom::cli {

namespace {

using engine::Decimal;

const char kUsage[] = R"(usage: headroom track commitments [--focus FILE.csv] [--threshold F]
                              [--trailing-hours H] [--currency C] [--term-hours H]
                              [--on-demand-ratio R] [--json]
       headroom track import --focus FILE.csv [--json]
       headroom track anomalies --series FILE.csv [--period N] [--history N] [--json]
       headroom track anomalies [--focus FILE.csv] [--currency C] [--period N] [--history N]
                              [--json]
       headroom track plan --scenario NAME [--focus FILE.csv] [--drift-periods K]
                              [--history D] [--currency C] [--json]

Plan versus actual from a FOCUS 1.x cost-and-usage export (BillingCurrency, ChargePeriodStart/
End, ChargeCategory, BilledCost, EffectiveCost, CommitmentDiscountId/Status, …; see
core/store/README.md for the columns read) or a plain series. Without --focus, commitments
and plan read the newest actuals imported into the workspace (track import): the same
figures to the cent.

track commitments
  Per commitment (CommitmentDiscountId) and currency, over the Usage rows carrying a
  CommitmentDiscountStatus:
    utilization = Used EffectiveCost / (Used EffectiveCost + Unused EffectiveCost)
  hours used / unused (distinct clock hours with a Used / an Unused row; an hour partly used
  counts in both), the unused cost, and whether it is under-used: utilization over the
  trailing window below the threshold. On-demand overflow: effective cost of on-demand usage
  (no commitment) in a service and region a commitment covers, in hours when that commitment
  had nothing unused.
  --threshold F        under-used below this trailing utilization, (0, 1]; default 0.8
  --trailing-hours H   the trailing window, hours back from the last charged hour; default 720
  --currency C         the currency to report when the file holds several (never summed)
  Next term: the measured hourly demand each commitment served (its Used cost plus its
  on-demand overflow brought to the committed price by ListCost / EffectiveCost of its Used
  rows), over the trailing window, is forecast with Holt-Winters (daily season from 48 h) over
  the next term and handed to the reservation optimizer, in money per hour at the committed
  price: the recommended size, its expected utilization and the expected saving per term
  against keeping the current size (see core/engine/tracking/commitment_renewal.h). Under
  72 h of history, or when the forecast did worse on the last measured day than repeating
  the day before, the measured hours repeated over the term drive it instead ("basis":
  "measured"), and the forecast's own answer is printed beside.
  --term-hours H       the next term in hours; default 8760
  --on-demand-ratio R  on-demand / committed price when the Used rows state no ListCost
  --json               {"commitments": [{"id", "name", "hours_used", "hours_unused",
                       "utilization", "unused_cost", "currency", "used_cost",
                       "trailing_utilization", "under_used", "term_end", "days_to_renewal",
                       "recommendation": {"available", "reasoning", "current_per_hour",
                       "recommended_per_hour", "expected_utilization",
                       "current_expected_utilization", "current_term_cost",
                       "recommended_term_cost", "saving_per_term", "on_demand_ratio",
                       "term_hours", "history_hours", "measured_mean_per_hour",
                       "measured_peak_per_hour", "basis", "basis_reason",
                       "measured_utilization", "backtest_mase",
                       "forecast_recommended_per_hour", "forecast_expected_utilization",
                       "forecast_saving_per_term"}}], "on_demand_overflow_cost", "currency",
                       "threshold", "warnings"}

track import
  Reads the export and keeps its summary in the workspace (--workspace): per commitment-hour
  and status the effective cost, on-demand cost per service, region and hour, and per
  currency and day the effective and billed cost (exact decimals), never the rows
  themselves. An earlier import of a file with the same name is replaced, in one
  transaction: a file with any error changes nothing. The tracking page and
  `headroom report --tracking` read the newest import.
  --json               {"import_id", "file", "rows", "currencies", "commitments",
                       "commitment_hours", "days"}

track anomalies
  Samples outside the one-step P99.5 interval of a Holt-Winters model (additive season, no
  trend) fitted on the first samples, and level shifts (three samples in a row outside the
  interval, or two-sided CUSUM with k = 0.5 and h = 8 residual standard deviations), each
  with its size in the series' unit (money for a cost series, GPUs for a GPU series).
  --series FILE        CSV "timestamp,value" or a single "value" column (as forecast --series)
  --period N           season length in samples, 24 for hourly, 7 for daily, 0 for none;
                       default 24
  --history N          samples the model is fitted on; default max(2 × period, a quarter)
  --json               {"history", "residual_sd", "half_width", "anomalies": [{"kind",
                       "index", "end_index", "value", "expected", "lower", "upper", "size"}]}
  Without --series: the actuals (--focus, else the workspace's newest import), per UTC day:
  spend (Σ EffectiveCost in the currency) and usage hours (Σ ConsumedQuantity of Usage rows
  whose ConsumedUnit is in hours: GPU-hours when the SKUs are billed per GPU). Each series is
  searched as above (default --period 7, weekly); each anomaly is sized in money and in usage
  hours per day, the other series against its own forecast on the same days.
  --json               {"currency", "first_date", "days", "anomalies": [{"series"
                       ("spend"|"usage"), "kind", "date", "end_date", "spend",
                       "expected_spend", "money_size", "usage_hours",
                       "expected_usage_hours", "usage_hours_size"}]}
  With --metrics: the daily GPU utilization and GPU-hours of the serving telemetry instead
  (track anomalies --metrics, under Serving telemetry below).

track plan
  A workspace scenario's planned cost per day against the daily effective cost of the
  export (by the UTC day each charge starts): variance and cumulative variance per day; with
  more than D days, a Holt-Winters forecast fitted on the first D days gives the P05-P95
  band's coverage of what happened since, and drift when K days in a row fall outside the
  P0.5-P99.5 band.
  --scenario NAME      a scenario of the workspace
  --drift-periods K    consecutive days outside the P99 band that make drift; default 3
  --history D          days the forecast band is fitted on; default 14
  --currency C         the currency of the actuals when the file holds several; it must
                       be the scenario's currency
  --json               {"scenario", "currency", "planned_per_day", "total_planned",
                       "total_actual", "cumulative_variance", "banded", "coverage_p05_p95",
                       "drift", "drift_start", "days": [{"date", "planned", "actual",
                       "variance", "cumulative_variance", "p05", "p95", "p005", "p995",
                       "outside_p99"}]}
)";

const std::vector<OptionSpec> kOptions = {
    {QStringLiteral("focus")},          {QStringLiteral("threshold")}, {QStringLiteral("trailing-hours")},
    {QStringLiteral("currency")},       {QStringLiteral("series")},    {QStringLiteral("period")},
    {QStringLiteral("history")},        {QStringLiteral("scenario")},  {QStringLiteral("drift-periods")},
    {QStringLiteral("term-hours")},     {QStringLiteral("on-demand-ratio")},
    {QStringLiteral("json"), false},
};

QString qs(const std::string &text) { return QString::fromStdString(text); }
QString cents(Decimal amount) { return qs(amount.toString(2)); }

// Epoch seconds as ISO 8601 UTC: "2027-01-01T00:00:00Z".
std::string isoTime(int64_t seconds)
{
    const int64_t days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
    const int64_t rest = seconds - days * 86400;
    char clock[16];
    std::snprintf(clock, sizeof clock, "T%02d:%02d:%02dZ", int(rest / 3600), int(rest / 60 % 60), int(rest % 60));
    return engine::isoDate(engine::dateFromDays(days)) + clock;
}

QString required(const Args &args, const QString &name, const QString &action)
{
    const auto value = args.text(name);
    if (!value || value->isEmpty())
        throw UsageError(QStringLiteral("track %1: %2 is required (see headroom track --help)")
                             .arg(action, Args::flag(name)));
    return *value;
}

// The charges of the billing file `path` summarized; a sum past what a workspace stores is
// refused naming the file and the line that took it there.
engine::ActualsSummary summarizeFile(const engine::FocusCharges &charges, const QString &path)
{
    try {
        return engine::summarizeActuals(charges);
    } catch (const engine::InputError &error) {
        throw store::StoreError(QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(error.what())));
    }
}

void printWarnings(const engine::FocusCharges &charges, Context &context)
{
    for (const std::string &warning : charges.warnings)
        context.err() << "warning: " << qs(warning) << '\n';
}

// The one currency to report: --currency, or the only one among `present`.
std::string chooseCurrency(const Args &args, const std::set<std::string> &present, const QString &action)
{
    if (const auto wanted = args.text(QStringLiteral("currency"))) {
        if (!present.count(wanted->toStdString())) {
            QStringList known;
            for (const auto &c : present)
                known << qs(c);
            throw UsageError(QStringLiteral("track %1: --currency %2: the file holds no such charges (it holds %3)")
                                 .arg(action, *wanted, known.isEmpty() ? QStringLiteral("none") : known.join(QLatin1String(", "))));
        }
        return wanted->toStdString();
    }
    if (present.size() > 1) {
        QStringList known;
        for (const auto &c : present)
            known << qs(c);
        throw UsageError(QStringLiteral("track %1: the file holds charges in %2; amounts in different currencies "
                                        "are never added: choose one with --currency")
                             .arg(action, known.join(QLatin1String(", "))));
    }
    return present.empty() ? std::string() : *present.begin();
}

// The actuals to track: the --focus file summarized, or without it the newest import of the
// workspace (track import). Warnings of the file go to stderr.
engine::ActualsSummary actualsFor(const Args &args, Context &context, const QString &action,
                                  std::vector<std::string> *warnings)
{
    if (const auto focus = args.text(QStringLiteral("focus"))) {
        // An empty name is a mistake (an unset shell variable), not a request for the workspace's data.
        if (focus->isEmpty())
            throw UsageError(QStringLiteral("track %1: --focus needs a file name; leave it out to use the "
                                            "workspace's newest import")
                                 .arg(action));
        const engine::FocusCharges charges = store::readFocusCsv(*focus);
        printWarnings(charges, context);
        *warnings = charges.warnings;
        return summarizeFile(charges, *focus);
    }
    const auto imports = context.workspace().actualsImports();
    if (imports.empty())
        throw UsageError(QStringLiteral("track %1: give --focus FILE.csv, or import one first with headroom track "
                                        "import --focus FILE.csv (the workspace holds no actuals)")
                             .arg(action));
    return *context.workspace().actuals(imports.front().id);
}

int runCommitments(const Args &args, Context &context)
{
    std::vector<std::string> fileWarnings;
    const engine::ActualsSummary actuals = actualsFor(args, context, QStringLiteral("commitments"), &fileWarnings);
    engine::CommitmentOptions options;
    if (const auto threshold = args.number(QStringLiteral("threshold")))
        options.threshold = *threshold;
    if (const auto hours = args.integer(QStringLiteral("trailing-hours"), 1, 20 * 8784))
        options.trailingHours = *hours;
    const engine::CommitmentReport report = engine::analyseCommitments(actuals, options);
    engine::RenewalOptions renewal;
    renewal.historyHours = int(std::max<int64_t>(2, options.trailingHours));
    if (const auto hours = args.integer(QStringLiteral("term-hours"), 1, engine::kMaxTermHours))
        renewal.termHours = int(*hours);
    if (const auto ratio = args.number(QStringLiteral("on-demand-ratio")))
        renewal.onDemandRatio = *ratio;
    const std::vector<engine::CommitmentRecommendation> next = engine::recommendCommitments(actuals, renewal);
    const auto recommendationOf = [&](const engine::CommitmentUsage &c) -> const engine::CommitmentRecommendation * {
        for (const auto &r : next)
            if (r.id == c.id && r.currency == c.currency)
                return &r;
        return nullptr;
    };

    std::set<std::string> present;
    for (const auto &c : report.commitments)
        present.insert(c.currency);
    for (const auto &m : report.onDemandOverflow)
        present.insert(m.currency);
    const std::string currency = chooseCurrency(args, present, QStringLiteral("commitments"));
    Decimal overflow;
    for (const auto &m : report.onDemandOverflow)
        if (m.currency == currency)
            overflow = m.amount;

    if (args.has(QStringLiteral("json"))) {
        QJsonArray list;
        for (const auto &c : report.commitments) {
            if (c.currency != currency)
                continue;
            list.append(QJsonObject{
                {QStringLiteral("id"), qs(c.id)},
                {QStringLiteral("name"), qs(c.name)},
                {QStringLiteral("hours_used"), qint64(c.hoursUsed)},
                {QStringLiteral("hours_unused"), qint64(c.hoursUnused)},
                {QStringLiteral("utilization"), c.utilization},
                {QStringLiteral("unused_cost"), cents(c.unusedCost)},
                {QStringLiteral("currency"), qs(c.currency)},
                {QStringLiteral("used_cost"), cents(c.usedCost)},
                {QStringLiteral("trailing_utilization"), c.trailingUtilization},
                {QStringLiteral("under_used"), c.underUsed},
            });
            QJsonObject entry = list.last().toObject();
            if (const engine::CommitmentRecommendation *r = recommendationOf(c)) {
                entry.insert(QStringLiteral("term_end"), r->termEnd > 0 ? QJsonValue(qs(isoTime(r->termEnd))) : QJsonValue());
                entry.insert(QStringLiteral("days_to_renewal"),
                             r->daysToRenewal ? QJsonValue(qint64(*r->daysToRenewal)) : QJsonValue());
                QJsonObject o{{QStringLiteral("available"), r->available}, {QStringLiteral("reasoning"), qs(r->reasoning)}};
                if (r->available) {
                    o.insert(QStringLiteral("current_per_hour"), cents(r->currentPerHour));
                    o.insert(QStringLiteral("recommended_per_hour"), cents(r->recommendedPerHour));
                    o.insert(QStringLiteral("expected_utilization"), r->recommendedUtilization);
                    o.insert(QStringLiteral("current_expected_utilization"), r->currentUtilization);
                    o.insert(QStringLiteral("current_term_cost"), cents(r->currentTermCost.amount));
                    o.insert(QStringLiteral("recommended_term_cost"), cents(r->recommendedTermCost.amount));
                    o.insert(QStringLiteral("saving_per_term"), cents(r->savingPerTerm.amount));
                    o.insert(QStringLiteral("on_demand_ratio"), r->onDemandRatio);
                    o.insert(QStringLiteral("term_hours"), renewal.termHours);
                    o.insert(QStringLiteral("history_hours"), r->historyHours);
                    o.insert(QStringLiteral("measured_mean_per_hour"), cents(r->measuredMeanPerHour));
                    o.insert(QStringLiteral("measured_peak_per_hour"), cents(r->measuredPeakPerHour));
                    const bool measured = r->basis == engine::RenewalBasis::Measured;
                    o.insert(QStringLiteral("basis"), measured ? QStringLiteral("measured") : QStringLiteral("forecast"));
                    o.insert(QStringLiteral("basis_reason"), qs(r->basisReason));
                    o.insert(QStringLiteral("measured_utilization"), r->measuredUtilization);
                    o.insert(QStringLiteral("backtest_mase"), r->backtestMase ? QJsonValue(*r->backtestMase) : QJsonValue());
                    o.insert(QStringLiteral("forecast_recommended_per_hour"), cents(r->forecastRecommendedPerHour));
                    o.insert(QStringLiteral("forecast_expected_utilization"), r->forecastUtilization);
                    o.insert(QStringLiteral("forecast_saving_per_term"), cents(r->forecastSavingPerTerm.amount));
                }
                entry.insert(QStringLiteral("recommendation"), o);
            }
            list.replace(list.size() - 1, entry);
        }
        QJsonArray warnings;
        for (const auto &w : fileWarnings)
            warnings.append(qs(w));
        context.out() << jsonText(QJsonObject{{QStringLiteral("commitments"), list},
                                              {QStringLiteral("on_demand_overflow_cost"), cents(overflow)},
                                              {QStringLiteral("currency"), qs(currency)},
                                              {QStringLiteral("threshold"), options.threshold},
                                              {QStringLiteral("warnings"), warnings}});
        return 0;
    }
    QTextStream &out = context.out();
    if (report.commitments.empty()) {
        out << "No usage row carries a CommitmentDiscountStatus: nothing to track.\n";
        return 0;
    }
    Table table({{QStringLiteral("Commitment")},
                 {QStringLiteral("Hours used"), Table::Align::Right},
                 {QStringLiteral("Hours unused"), Table::Align::Right},
                 {QStringLiteral("Utilization"), Table::Align::Right},
                 {QStringLiteral("Trailing"), Table::Align::Right},
                 {QStringLiteral("Unused cost"), Table::Align::Right},
                 {QStringLiteral("Under-used")}});
    for (const auto &c : report.commitments) {
        if (c.currency != currency)
            continue;
        table.addRow({c.name.empty() ? qs(c.id) : qs(c.name + " (" + c.id + ")"), formatInteger(c.hoursUsed),
                      formatInteger(c.hoursUnused), formatDecimal(100.0 * c.utilization, 1, true) + QLatin1Char('%'),
                      formatDecimal(100.0 * c.trailingUtilization, 1, true) + QLatin1Char('%'),
                      qs(engine::Money{c.unusedCost, c.currency}.display()),
                      c.underUsed ? QStringLiteral("yes, below %1%").arg(formatDecimal(100.0 * options.threshold, 1))
                                  : QStringLiteral("no")});
    }
    table.write(out);
    out << "\nOn-demand overflow: " << qs(engine::Money{overflow, currency}.display())
        << "\nUtilization = Used EffectiveCost / (Used + Unused EffectiveCost); trailing window "
        << options.trailingHours << " h.\n";
    bool heading = false;
    for (const auto &c : report.commitments) {
        const engine::CommitmentRecommendation *r = c.currency == currency ? recommendationOf(c) : nullptr;
        if (!r)
            continue;
        if (!heading)
            out << "\nNext term (" << renewal.termHours << " h):\n";
        heading = true;
        out << "  " << printable(c.name.empty() ? qs(c.id) : qs(c.name)) << (c.underUsed ? " [under-used]" : "") << ": ";
        if (r->available) {
            out << qs(engine::Money{r->currentPerHour, currency}.display()) << "/h now ("
                << formatDecimal(100.0 * r->currentUtilization, 1, true) << "% utilized), recommended "
                << qs(engine::Money{r->recommendedPerHour, currency}.display()) << "/h";
            if (!r->recommendedPerHour.isZero())
                out << " (" << formatDecimal(100.0 * r->recommendedUtilization, 1, true) << "% utilized)";
            out << ", saving " << qs(r->savingPerTerm.display()) << " per term, on the "
                << (r->basis == engine::RenewalBasis::Measured ? "measured hours" : "forecast") << ". ";
        }
        out << printable(qs(r->reasoning)) << '\n';
    }
    return 0;
}

QString seriesName(engine::AnomalySeries series)
{
    return series == engine::AnomalySeries::Spend ? QStringLiteral("spend") : QStringLiteral("usage");
}

// Anomalies over the actuals: daily spend and usage hours, each anomaly sized in both.
int runActualsAnomalies(const Args &args, Context &context)
{
    std::vector<std::string> fileWarnings;
    const engine::ActualsSummary actuals = actualsFor(args, context, QStringLiteral("anomalies"), &fileWarnings);
    engine::AnomalyOptions options;
    options.period = 7;
    if (const auto period = args.integer(QStringLiteral("period"), 0, 10000))
        options.period = int(*period);
    if (const auto history = args.integer(QStringLiteral("history"), 1, 10'000'000))
        options.history = int(*history);
    std::set<std::string> present;
    for (const auto &d : actuals.days)
        present.insert(actuals.currencies.at(d.currency));
    const std::string currency = chooseCurrency(args, present, QStringLiteral("anomalies"));
    if (currency.empty())
        throw UsageError(QStringLiteral("track anomalies: the actuals hold no charge"));
    const engine::ActualsAnomalyReport report = engine::detectActualsAnomalies(actuals, currency, options);
    const auto date = [](int64_t day) { return qs(engine::isoDate(engine::dateFromDays(day))); };
    if (args.has(QStringLiteral("json"))) {
        QJsonArray list;
        for (const auto &a : report.anomalies)
            list.append(QJsonObject{{QStringLiteral("series"), seriesName(a.series)},
                                    {QStringLiteral("kind"), QString::fromLatin1(engine::toString(a.kind))},
                                    {QStringLiteral("date"), date(a.day)},
                                    {QStringLiteral("end_date"), date(a.endDay)},
                                    {QStringLiteral("spend"), cents(a.spend)},
                                    {QStringLiteral("expected_spend"), cents(a.expectedSpend)},
                                    {QStringLiteral("money_size"), cents(a.moneySize)},
                                    {QStringLiteral("usage_hours"), a.usageHours},
                                    {QStringLiteral("expected_usage_hours"), a.expectedUsageHours},
                                    {QStringLiteral("usage_hours_size"), a.usageHoursSize}});
        QJsonArray warnings;
        for (const auto &w : fileWarnings)
            warnings.append(qs(w));
        context.out() << jsonText(QJsonObject{{QStringLiteral("currency"), qs(currency)},
                                              {QStringLiteral("first_date"), date(report.firstDay)},
                                              {QStringLiteral("days"), qint64(report.spend.size())},
                                              {QStringLiteral("history"), report.spendReport.history},
                                              {QStringLiteral("anomalies"), list},
                                              {QStringLiteral("warnings"), warnings}});
        return 0;
    }
    QTextStream &out = context.out();
    out << "Daily spend in " << qs(currency) << " and usage hours from " << date(report.firstDay) << ", "
        << report.spend.size() << " days; model fitted on the first " << report.spendReport.history << " days.\n";
    if (report.anomalies.empty()) {
        out << "No anomaly.\n";
        return 0;
    }
    Table table({{QStringLiteral("Series")},
                 {QStringLiteral("Kind")},
                 {QStringLiteral("Day")},
                 {QStringLiteral("Spend"), Table::Align::Right},
                 {QStringLiteral("Expected"), Table::Align::Right},
                 {QStringLiteral("Size (money/day)"), Table::Align::Right},
                 {QStringLiteral("Size (hours/day)"), Table::Align::Right}});
    for (const auto &a : report.anomalies)
        table.addRow({seriesName(a.series), QString::fromLatin1(engine::toString(a.kind)).replace(QLatin1Char('_'), QLatin1Char(' ')),
                      a.day == a.endDay ? date(a.day) : QStringLiteral("%1 (confirmed %2)").arg(date(a.day), date(a.endDay)),
                      qs(engine::Money{a.spend, currency}.display()), qs(engine::Money{a.expectedSpend, currency}.display()),
                      qs(engine::Money{a.moneySize, currency}.display()), formatDecimal(a.usageHoursSize, 1)});
    table.write(out);
    return 0;
}

int runAnomalies(const Args &args, Context &context)
{
    if (!args.has(QStringLiteral("series")))
        return runActualsAnomalies(args, context);
    if (args.has(QStringLiteral("focus")) || args.has(QStringLiteral("currency")))
        throw UsageError(QStringLiteral("track anomalies: --series reads a plain series; --focus and --currency "
                                        "apply to the actuals (leave out --series)"));
    const std::vector<double> series = store::readValueSeries(required(args, QStringLiteral("series"), QStringLiteral("anomalies")));
    engine::AnomalyOptions options;
    if (const auto period = args.integer(QStringLiteral("period"), 0, 10000))
        options.period = int(*period);
    if (const auto history = args.integer(QStringLiteral("history"), 1, 10'000'000))
        options.history = int(*history);
    const engine::AnomalyReport report = engine::detectAnomalies(series, options);
    if (args.has(QStringLiteral("json"))) {
        QJsonArray list;
        for (const auto &a : report.anomalies) {
            QJsonObject o{{QStringLiteral("kind"), QString::fromLatin1(engine::toString(a.kind))},
                          {QStringLiteral("index"), a.index},
                          {QStringLiteral("end_index"), a.endIndex},
                          {QStringLiteral("value"), a.value},
                          {QStringLiteral("expected"), a.expected},
                          {QStringLiteral("size"), a.size}};
            if (a.kind != engine::AnomalyKind::LevelShift) {
                o.insert(QStringLiteral("lower"), a.lower);
                o.insert(QStringLiteral("upper"), a.upper);
            }
            list.append(o);
        }
        context.out() << jsonText(QJsonObject{{QStringLiteral("history"), report.history},
                                              {QStringLiteral("residual_sd"), report.residualSd},
                                              {QStringLiteral("half_width"), report.halfWidth},
                                              {QStringLiteral("anomalies"), list}});
        return 0;
    }
    QTextStream &out = context.out();
    out << "Model fitted on the first " << report.history << " samples; P99.5 interval ± "
        << formatDecimal(report.halfWidth, 3) << " (residual sd " << formatDecimal(report.residualSd, 3) << ").\n";
    if (report.anomalies.empty()) {
        out << "No anomaly in the " << (series.size() - size_t(report.history)) << " samples after it.\n";
        return 0;
    }
    Table table({{QStringLiteral("Kind")},
                 {QStringLiteral("Samples")},
                 {QStringLiteral("Value"), Table::Align::Right},
                 {QStringLiteral("Expected"), Table::Align::Right},
                 {QStringLiteral("Size"), Table::Align::Right}});
    for (const auto &a : report.anomalies)
        table.addRow({QString::fromLatin1(engine::toString(a.kind)).replace(QLatin1Char('_'), QLatin1Char(' ')),
                      a.index == a.endIndex ? QString::number(a.index)
                                            : QStringLiteral("%1 (confirmed at %2)").arg(a.index).arg(a.endIndex),
                      formatDecimal(a.value, 3), formatDecimal(a.expected, 3), formatDecimal(a.size, 3)});
    table.write(out);
    return 0;
}

int runImport(const Args &args, Context &context)
{
    const QString path = required(args, QStringLiteral("focus"), QStringLiteral("import"));
    const engine::FocusCharges charges = store::readFocusCsv(path);
    printWarnings(charges, context);
    const engine::ActualsSummary summary = summarizeFile(charges, path);
    const QString fileName = QFileInfo(path).fileName();
    const qint64 id = context.workspace().importActuals(fileName, summary);
    QStringList currencies;
    for (const auto &c : summary.currencies)
        currencies << qs(c);
    if (args.has(QStringLiteral("json"))) {
        context.out() << jsonText(QJsonObject{{QStringLiteral("import_id"), id},
                                              {QStringLiteral("file"), fileName},
                                              {QStringLiteral("rows"), qint64(summary.rows)},
                                              {QStringLiteral("currencies"), QJsonArray::fromStringList(currencies)},
                                              {QStringLiteral("commitments"), qint64(summary.commitments.size() - 1)},
                                              {QStringLiteral("commitment_hours"), qint64(summary.commitmentHours.size())},
                                              {QStringLiteral("days"), qint64(summary.days.size())}});
        return 0;
    }
    context.out() << "Imported " << fileName << " into " << context.workspace().path() << " as import " << id << ": "
                  << formatInteger(summary.rows) << " charge rows in " << currencies.join(QLatin1String(", ")) << ", "
                  << (summary.commitments.size() - 1) << " commitments, " << summary.days.size() << " currency-days.\n";
    return 0;
}

int runPlan(const Args &args, Context &context)
{
    const QString name = required(args, QStringLiteral("scenario"), QStringLiteral("plan"));
    std::vector<std::string> fileWarnings;
    const engine::ActualsSummary summary = actualsFor(args, context, QStringLiteral("plan"), &fileWarnings);
    engine::PlanOptions options;
    if (const auto k = args.integer(QStringLiteral("drift-periods"), 1, 10000))
        options.driftPeriods = int(*k);
    if (const auto history = args.integer(QStringLiteral("history"), 2, 100000))
        options.history = int(*history);
    const engine::Scenario scenario = findScenario(context.workspace(), name);
    const engine::ScenarioResult planned = engine::evaluateScenario(scenario, store::scenarioInputs(context.workspace()));
    const std::set<std::string> present(summary.currencies.begin(), summary.currencies.end());
    const std::string currency = chooseCurrency(args, present, QStringLiteral("plan"));
    const engine::DailyCost actuals = engine::dailyEffectiveCost(summary, currency);
    const engine::PlanVsActual result = engine::comparePlan(planned.costPerDay, actuals, options);

    if (args.has(QStringLiteral("json"))) {
        QJsonArray days;
        for (const auto &d : result.days) {
            QJsonObject o{{QStringLiteral("date"), qs(engine::isoDate(engine::dateFromDays(d.day)))},
                          {QStringLiteral("planned"), cents(d.planned)},
                          {QStringLiteral("actual"), cents(d.actual)},
                          {QStringLiteral("variance"), cents(d.variance)},
                          {QStringLiteral("cumulative_variance"), cents(d.cumulativeVariance)},
                          {QStringLiteral("outside_p99"), d.outsideP99}};
            if (d.p05) {
                o.insert(QStringLiteral("p005"), *d.p005);
                o.insert(QStringLiteral("p05"), *d.p05);
                o.insert(QStringLiteral("p95"), *d.p95);
                o.insert(QStringLiteral("p995"), *d.p995);
            }
            days.append(o);
        }
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("scenario"), name},
            {QStringLiteral("currency"), qs(result.currency)},
            {QStringLiteral("planned_per_day"), cents(planned.costPerDay.amount)},
            {QStringLiteral("total_planned"), cents(result.totalPlanned)},
            {QStringLiteral("total_actual"), cents(result.totalActual)},
            {QStringLiteral("cumulative_variance"), cents(result.cumulativeVariance)},
            {QStringLiteral("banded"), result.banded},
            {QStringLiteral("coverage_p05_p95"), result.banded ? QJsonValue(result.coverage90) : QJsonValue()},
            {QStringLiteral("drift"), result.driftDay.has_value()},
            {QStringLiteral("drift_start"), result.driftDay ? QJsonValue(qs(engine::isoDate(engine::dateFromDays(*result.driftDay))))
                                                            : QJsonValue()},
            {QStringLiteral("days"), days}});
        return 0;
    }
    QTextStream &out = context.out();
    const auto money = [&](Decimal amount) { return qs(engine::Money{amount, result.currency}.display()); };
    out << "Scenario " << name << ": planned " << money(planned.costPerDay.amount) << " a day; actuals from "
        << qs(engine::isoDate(engine::dateFromDays(actuals.firstDay))) << ", " << result.days.size() << " days\n\n";
    Table table({{QStringLiteral("Day")},
                 {QStringLiteral("Planned"), Table::Align::Right},
                 {QStringLiteral("Actual"), Table::Align::Right},
                 {QStringLiteral("Variance"), Table::Align::Right},
                 {QStringLiteral("Cumulative"), Table::Align::Right},
                 {QStringLiteral("Forecast P05-P95"), Table::Align::Right}});
    for (const auto &d : result.days)
        table.addRow({qs(engine::isoDate(engine::dateFromDays(d.day))), money(d.planned), money(d.actual), money(d.variance),
                      money(d.cumulativeVariance),
                      d.p05 ? QStringLiteral("%1 – %2%3").arg(formatDecimal(*d.p05, 2), formatDecimal(*d.p95, 2),
                                                              d.outsideP99 ? QStringLiteral(" (outside P99)") : QString())
                            : QString()});
    table.write(out);
    out << "\nTotal planned " << money(result.totalPlanned) << ", actual " << money(result.totalActual)
        << ", variance " << money(result.cumulativeVariance) << ".\n";
    if (!result.banded)
        out << "No forecast band: it needs more than " << options.history << " days of actuals.\n";
    else
        out << "P05-P95 coverage " << formatDecimal(100.0 * result.coverage90, 1, true) << "% over " << result.bandedDays
            << " days; "
            << (result.driftDay ? QStringLiteral("drift from %1 (%2 days in a row outside the P99 band).")
                                      .arg(qs(engine::isoDate(engine::dateFromDays(*result.driftDay))))
                                      .arg(options.driftPeriods)
                                : QStringLiteral("no drift."))
            << '\n';
    return 0;
}

// Refuses an option that the action does not read, rather than ignoring it.
void rejectOthers(const Args &args, const QString &action, const QStringList &allowed)
{
    std::vector<OptionSpec> all = kOptions;
    all.insert(all.end(), servingTrackOptions().begin(), servingTrackOptions().end());
    all.insert(all.end(), chargebackTrackOptions().begin(), chargebackTrackOptions().end());
    all.insert(all.end(), stallsTrackOptions().begin(), stallsTrackOptions().end());
    all.insert(all.end(), jobGoodputTrackOptions().begin(), jobGoodputTrackOptions().end());
    all.insert(all.end(), watchTrackOptions().begin(), watchTrackOptions().end());
    for (const OptionSpec &option : all)
        if (args.has(option.name) && !allowed.contains(option.name) && option.name != QLatin1String("json"))
            throw UsageError(QStringLiteral("track %1: %2 does not apply here (see headroom track --help)")
                                 .arg(action, Args::flag(option.name)));
}

int runTrack(const QStringList &argList, Context &context)
{
    std::vector<OptionSpec> options = kOptions;
    options.insert(options.end(), servingTrackOptions().begin(), servingTrackOptions().end());
    options.insert(options.end(), chargebackTrackOptions().begin(), chargebackTrackOptions().end());
    options.insert(options.end(), stallsTrackOptions().begin(), stallsTrackOptions().end());
    options.insert(options.end(), jobGoodputTrackOptions().begin(), jobGoodputTrackOptions().end());
    options.insert(options.end(), watchTrackOptions().begin(), watchTrackOptions().end());
    const Args args(argList, options);
    if (args.positionals().size() != 1)
        throw UsageError(QStringLiteral("track: give one action: commitments, anomalies, plan, import, rightsizing, "
                                        "benchmarks, pull, watch, chargeback, stalls or goodput"));
    const QString action = args.positionals().constFirst();
    if (action == QLatin1String("stalls")) {
        rejectOthers(args, action, {QStringLiteral("telemetry"), QStringLiteral("last"), QStringLiteral("idle-below"),
                                    QStringLiteral("cpu-saturated"), QStringLiteral("rate"), QStringLiteral("currency"),
                                    QStringLiteral("gpu"), QStringLiteral("provider")});
        return runStallsTrack(args, context);
    }
    if (action == QLatin1String("goodput")) {
        rejectOthers(args, action, {QStringLiteral("telemetry"), QStringLiteral("planned"), QStringLiteral("below"),
                                    QStringLiteral("hours"), QStringLiteral("rate"), QStringLiteral("currency"),
                                    QStringLiteral("gpu"), QStringLiteral("provider")});
        return runJobGoodputTrack(args, context);
    }
    if (action == QLatin1String("watch")) {
        rejectOthers(args, action, {QStringLiteral("prometheus"), QStringLiteral("token-file"), QStringLiteral("insecure-tls"),
                                    QStringLiteral("max-series"), QStringLiteral("compression"), QStringLiteral("until"),
                                    QStringLiteral("out"),
                                    QStringLiteral("every"), QStringLiteral("once"), QStringLiteral("cycles"),
                                    QStringLiteral("renewal-days"), QStringLiteral("recent-days"), QStringLiteral("threshold"),
                                    QStringLiteral("rate"), QStringLiteral("currency"), QStringLiteral("gpu"),
                                    QStringLiteral("provider")});
        return runWatchTrack(args, context);
    }
    if (action == QLatin1String("chargeback")) {
        rejectOthers(args, action, {QStringLiteral("claims"), QStringLiteral("focus"), QStringLiteral("scenario"), QStringLiteral("metrics"),
                                    QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("mig-basis"),
                                    QStringLiteral("idle"), QStringLiteral("by"), QStringLiteral("currency"),
                                    QStringLiteral("csv"), QStringLiteral("kueue-config")});
        return runChargebackTrack(args, context);
    }
    if (isServingTrackAction(action)
        || ((action == QLatin1String("import") || action == QLatin1String("anomalies")) && args.has(QStringLiteral("metrics"))))
        return runServingTrack(action, args, context);
    if (action == QLatin1String("commitments"))
        rejectOthers(args, action, {QStringLiteral("focus"), QStringLiteral("threshold"), QStringLiteral("trailing-hours"),
                                    QStringLiteral("currency"), QStringLiteral("term-hours"), QStringLiteral("on-demand-ratio")});
    else if (action == QLatin1String("anomalies"))
        rejectOthers(args, action, {QStringLiteral("series"), QStringLiteral("period"), QStringLiteral("history"),
                                    QStringLiteral("focus"), QStringLiteral("currency")});
    else if (action == QLatin1String("import"))
        rejectOthers(args, action, {QStringLiteral("focus")});
    else if (action == QLatin1String("plan"))
        rejectOthers(args, action, {QStringLiteral("scenario"), QStringLiteral("focus"), QStringLiteral("drift-periods"), QStringLiteral("history"), QStringLiteral("currency")});
    if (action == QLatin1String("commitments"))
        return runCommitments(args, context);
    if (action == QLatin1String("anomalies"))
        return runAnomalies(args, context);
    if (action == QLatin1String("plan"))
        return runPlan(args, context);
    if (action == QLatin1String("import"))
        return runImport(args, context);
    throw UsageError(QStringLiteral("track: unknown action '%1'; known: commitments, anomalies, plan, import, rightsizing, "
                                    "benchmarks, pull, watch, chargeback, stalls, goodput")
                         .arg(action));
}

} // namespace

Command trackCommand()
{
    return {QStringLiteral("track"),
            QStringLiteral("plan versus actual from FOCUS billing: commitment utilization, anomalies, plan drift, chargeback"),
            QString::fromUtf8(kUsage) + servingTrackUsage() + watchTrackUsage() + chargebackTrackUsage() + stallsTrackUsage() + jobGoodputTrackUsage(), &runTrack};
}

} // namespace headroom::cli
