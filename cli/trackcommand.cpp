#include "trackcommand.h"

#include "args.h"
#include "format.h"
#include "scenariocommand.h"
#include "trackservingcommand.h"

#include "engine/calendar.h"
#include "engine/scenario.h"
#include "engine/tracking.h"
#include "store/focuscsv.h"
#include "store/scenarioinputs.h"
#include "store/seriescsv.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <set>

namespace headroom::cli {

namespace {

using engine::Decimal;

const char kUsage[] = R"(usage: headroom track commitments [--focus FILE.csv] [--threshold F]
                              [--trailing-hours H] [--currency C] [--json]
       headroom track import --focus FILE.csv [--json]
       headroom track anomalies --series FILE.csv [--period N] [--history N] [--json]
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
  --json               {"commitments": [{"id", "name", "hours_used", "hours_unused",
                       "utilization", "unused_cost", "currency", "used_cost",
                       "trailing_utilization", "under_used"}], "on_demand_overflow_cost",
                       "currency", "threshold", "warnings"}

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
    {QStringLiteral("json"), false},
};

QString qs(const std::string &text) { return QString::fromStdString(text); }
QString cents(Decimal amount) { return qs(amount.toString(2)); }

QString required(const Args &args, const QString &name, const QString &action)
{
    const auto value = args.text(name);
    if (!value || value->isEmpty())
        throw UsageError(QStringLiteral("track %1: %2 is required (see headroom track --help)")
                             .arg(action, Args::flag(name)));
    return *value;
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
    if (const auto focus = args.text(QStringLiteral("focus")); focus && !focus->isEmpty()) {
        const engine::FocusCharges charges = store::readFocusCsv(*focus);
        printWarnings(charges, context);
        *warnings = charges.warnings;
        return engine::summarizeActuals(charges);
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
    return 0;
}

QString kindName(engine::AnomalyKind kind)
{
    switch (kind) {
    case engine::AnomalyKind::Spike:
        return QStringLiteral("spike");
    case engine::AnomalyKind::Dip:
        return QStringLiteral("dip");
    case engine::AnomalyKind::LevelShift:
        return QStringLiteral("level_shift");
    }
    return {};
}

int runAnomalies(const Args &args, Context &context)
{
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
            QJsonObject o{{QStringLiteral("kind"), kindName(a.kind)},
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
        table.addRow({kindName(a.kind).replace(QLatin1Char('_'), QLatin1Char(' ')),
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
    const engine::ActualsSummary summary = engine::summarizeActuals(charges);
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
    for (const OptionSpec &option : all)
        if (args.has(option.name) && !allowed.contains(option.name) && option.name != QLatin1String("json"))
            throw UsageError(QStringLiteral("track %1: %2 does not apply here (see headroom track --help)")
                                 .arg(action, Args::flag(option.name)));
}

int runTrack(const QStringList &argList, Context &context)
{
    std::vector<OptionSpec> options = kOptions;
    options.insert(options.end(), servingTrackOptions().begin(), servingTrackOptions().end());
    const Args args(argList, options);
    if (args.positionals().size() != 1)
        throw UsageError(QStringLiteral("track: give one action: commitments, anomalies, plan, import, rightsizing or benchmarks"));
    const QString action = args.positionals().constFirst();
    if (isServingTrackAction(action) || (action == QLatin1String("import") && args.has(QStringLiteral("metrics"))))
        return runServingTrack(action, args, context);
    if (action == QLatin1String("commitments"))
        rejectOthers(args, action, {QStringLiteral("focus"), QStringLiteral("threshold"), QStringLiteral("trailing-hours"), QStringLiteral("currency")});
    else if (action == QLatin1String("anomalies"))
        rejectOthers(args, action, {QStringLiteral("series"), QStringLiteral("period"), QStringLiteral("history")});
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
    throw UsageError(QStringLiteral("track: unknown action '%1'; known: commitments, anomalies, plan, import, rightsizing, benchmarks").arg(action));
}

} // namespace

Command trackCommand()
{
    return {QStringLiteral("track"),
            QStringLiteral("plan versus actual from FOCUS billing: commitment utilization, anomalies, plan drift"),
            QString::fromUtf8(kUsage) + servingTrackUsage(), &runTrack};
}

} // namespace headroom::cli
