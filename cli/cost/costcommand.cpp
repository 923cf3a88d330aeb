#include "costcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/common/moneyoptions.h"

#include "engine/cost/cost.h"
#include "engine/cost/demand.h"
#include "engine/common/errors.h"
#include "store/cost/costcsv.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonObject>
#include <functional>
#include <map>
#include <optional>

namespace headroom::cli {

namespace {

using engine::Decimal;
using engine::Money;

const char kUsage[] = R"(usage: headroom cost idle|static-vs-elastic|reserve [options]

Exact money for GPU capacity (decimal arithmetic, rounded to cents only when shown).
Rates are per GPU-hour as plain decimals (6.88, 10.9790625); with --per N they are
instance prices for N GPUs, divided exactly (--rate 87.8325 --per 8 = 10.9790625).

headroom cost idle --gpus N --idle-fraction F --rate R [--per N]
                   [--days-per-month D] [--currency C] [--json]
  What the idle share of a fleet costs: GPUs × idle fraction × rate × 24 h a day, and
  per month of D days.

headroom cost static-vs-elastic --static-gpus N --elastic-avg-gpus F --rate R [--per N]
                   [--days-per-month D] [--currency C] [--json]
  A static fleet sized for the peak versus an elastic fleet of the given average size,
  at the same rate: cost per day and the saving per day and per month.

headroom cost reserve --demand FILE.csv --reserved-rate R --on-demand-rate O
                   [--spot-rate S --spot-share F [--spot-overhead F]] [--per N]
                   [--term-months 12|36] [--start YYYY-MM-DD] [--upfront-share F]
                   [--currency C] [--json]
  How many GPUs to commit to. Reserved GPUs are paid every hour, used or not; each
  hour's demand above them is elastic: on-demand, with the --spot-share of it on spot.
  The cheapest reserved count by exact sweep, the critical fractile (reserve R where
  P(demand > R) = reserved rate / elastic rate), and the cost of the P50 and P75 rules.
  FILE.csv holds hourly demand in GPUs: `timestamp,gpus` or a single `gpus` column; one
  value is one hour and costs are over the whole series.
  A commitment is owed for its whole term whatever the series covers: the optimum's
  obligation is shown over the term's real hours (12 months from 2025-01-01 = 8,760 h),
  with the share the series consumes and a warning when the series is shorter.

options:
  --gpus N                fleet size, GPUs
  --idle-fraction F       share of the fleet's GPU-hours left idle, [0, 1]
  --static-gpus N         static fleet, GPUs
  --elastic-avg-gpus F    average size of the elastic fleet, GPUs
  --rate R                price per GPU-hour
  --demand FILE.csv       hourly demand series
  --reserved-rate R       committed price per GPU-hour (1- or 3-year term)
  --on-demand-rate O      on-demand price per GPU-hour
  --spot-rate S           spot price per GPU-hour (with --spot-share)
  --spot-share F          share of elastic demand that tolerates interruption, [0, 1]
  --spot-overhead F       extra GPU-hours per spot GPU-hour lost to interruptions (default 0)
  --term-months M         the commitment's term: 12 or 36 months (default 12)
  --start YYYY-MM-DD      the commitment's first day (default: the series' first day when it
                          has timestamps, else the first of next month)
  --upfront-share F       share of the obligation paid at signing, [0, 1] (default 0)
  --per N                 the rates are instance prices for N GPUs (default 1)
  --days-per-month D      days in a month, 1..31 (default 30)
  --currency C            ISO 4217 code of the rates (default USD)
  --json                  print JSON instead of a table; money as strings with two decimals
)";

constexpr qint64 kMaxGpus = 10'000'000;
constexpr int kDefaultDaysPerMonth = 30;

std::vector<OptionSpec> optionsWith(std::initializer_list<const char *> names)
{
    std::vector<OptionSpec> specs;
    for (const char *name : names)
        specs.push_back({QLatin1String(name)});
    for (const char *name : {"per", "currency"})
        specs.push_back({QLatin1String(name)});
    specs.push_back({QStringLiteral("json"), false});
    return specs;
}

void requireNoPositionals(const Args &args, const QString &sub)
{
    if (!args.positionals().isEmpty()) {
        throw UsageError(QStringLiteral("cost %1 takes no positional arguments, got '%2'")
                             .arg(sub, args.positionals().constFirst()));
    }
}

qint64 requiredInteger(const Args &args, const QString &name, qint64 min, qint64 max, const QString &why)
{
    const auto value = args.integer(name, min, max);
    if (!value)
        throw UsageError(QStringLiteral("%1 is required %2").arg(Args::flag(name), why));
    return *value;
}

int daysPerMonth(const Args &args)
{
    return int(args.integer(QStringLiteral("days-per-month"), 1, 31).value_or(kDefaultDaysPerMonth));
}

QString percentText(Decimal share)
{
    return QString::fromStdString((share * Decimal::fromInt(100)).toString());
}

// part / whole as a percentage with one decimal, e.g. "16.5".
QString percentOf(const Money &part, const Money &whole)
{
    return QString::fromStdString((part.amount * Decimal::fromInt(100) / whole.amount).toString(1));
}

// "+$7.00", "-$3.10": a difference for a "vs" column.
QString signedMoneyText(const Money &money)
{
    if (money.amount.isNegative())
        return QLatin1Char('-') + moneyText(Money{-money.amount, money.currency});
    return QLatin1Char('+') + moneyText(money);
}

QString monthLabel(int days)
{
    return QStringLiteral("%1-day month").arg(days);
}

void writeJsonOrTable(Context &context, const Args &args, const QJsonObject &json,
                      const std::function<void(QTextStream &)> &table)
{
    if (args.has(QStringLiteral("json")))
        context.out() << jsonText(json);
    else
        table(context.out());
}

// --- cost idle ----------------------------------------------------------------------------

int runIdle(const QStringList &argv, Context &context)
{
    const Args args(argv, optionsWith({"gpus", "idle-fraction", "rate", "days-per-month"}));
    requireNoPositionals(args, QStringLiteral("idle"));
    const QString why = QStringLiteral("for cost idle");
    const std::string currency = currencyOption(args);
    const qint64 gpus = requiredInteger(args, QStringLiteral("gpus"), 1, kMaxGpus, why);
    const Decimal idle = decimalInRange(args, QStringLiteral("idle-fraction"), Decimal(), Decimal::fromInt(1), why);
    const Money rate = requiredRate(args, QStringLiteral("rate"), currency, gpusPerInstance(args), why);
    const int days = daysPerMonth(args);

    const engine::IdleCost cost = engine::idleCost(gpus, idle, rate, days);
    const QJsonObject json{
        {QStringLiteral("per_day"), QString::fromStdString(cost.perDay.cents())},
        {QStringLiteral("per_month"), QString::fromStdString(cost.perMonth.cents())},
        {QStringLiteral("currency"), QString::fromStdString(currency)},
        {QStringLiteral("gpus"), gpus},
        {QStringLiteral("idle_fraction"), idle.toDouble()},
        {QStringLiteral("idle_gpus"), QString::fromStdString((Decimal::fromInt(gpus) * idle).toString())},
        {QStringLiteral("rate_per_gpu_hour"), rateString(rate)},
        {QStringLiteral("days_per_month"), days},
    };
    writeJsonOrTable(context, args, json, [&](QTextStream &out) {
        const QString idleGpus = decimalText(Decimal::fromInt(gpus) * idle);
        writeFields(out, {{QStringLiteral("fleet"), QStringLiteral("%1, %2 % idle = %3 idle GPUs")
                                                          .arg(countOf(gpus, QStringLiteral("GPU"), QStringLiteral("GPUs")),
                                                               percentText(idle), idleGpus)},
                          {QStringLiteral("rate"), rateText(rate) + QStringLiteral(" per GPU-hour")}});
        out << '\n';
        Table table({{QStringLiteral("period")}, {QStringLiteral("idle cost"), Table::Align::Right}});
        table.addRow({QStringLiteral("per day"), moneyText(cost.perDay)});
        table.addRow({QStringLiteral("per ") + monthLabel(days), moneyText(cost.perMonth)});
        table.write(out);
        const engine::IdleCost tenPoints = engine::idleCost(gpus, Decimal::parse("0.1").value(), rate, days);
        out << '\n'
            << QStringLiteral("%1 idle GPUs cost %2 a day; every 10 points of idle share cost %3 a day")
                   .arg(idleGpus, moneyText(cost.perDay), moneyText(tenPoints.perDay))
            << '\n';
    });
    return 0;
}

// --- cost static-vs-elastic ---------------------------------------------------------------

int runStaticVsElastic(const QStringList &argv, Context &context)
{
    const Args args(argv, optionsWith({"static-gpus", "elastic-avg-gpus", "rate", "days-per-month"}));
    requireNoPositionals(args, QStringLiteral("static-vs-elastic"));
    const QString why = QStringLiteral("for cost static-vs-elastic");
    const std::string currency = currencyOption(args);
    const qint64 staticGpus = requiredInteger(args, QStringLiteral("static-gpus"), 1, kMaxGpus, why);
    const Decimal elasticGpus = decimalInRange(args, QStringLiteral("elastic-avg-gpus"), Decimal(),
                                               Decimal::fromInt(kMaxGpus), why);
    const Money rate = requiredRate(args, QStringLiteral("rate"), currency, gpusPerInstance(args), why);
    const int days = daysPerMonth(args);

    const engine::StaticVsElastic r = engine::staticVsElastic(staticGpus, elasticGpus, rate, days);
    // The saving rows are the differences of the fleet rows as printed (engine::shownDifference).
    const Money &staticPerMonth = r.staticPerMonth;
    const Money &elasticPerMonth = r.elasticPerMonth;
    const QJsonObject json{
        {QStringLiteral("static_per_day"), QString::fromStdString(r.staticPerDay.cents())},
        {QStringLiteral("elastic_per_day"), QString::fromStdString(r.elasticPerDay.cents())},
        {QStringLiteral("saving_per_day"), QString::fromStdString(r.savingPerDay.cents())},
        {QStringLiteral("saving_per_month"), QString::fromStdString(r.savingPerMonth.cents())},
        {QStringLiteral("static_per_month"), QString::fromStdString(staticPerMonth.cents())},
        {QStringLiteral("elastic_per_month"), QString::fromStdString(elasticPerMonth.cents())},
        {QStringLiteral("currency"), QString::fromStdString(currency)},
        {QStringLiteral("rate_per_gpu_hour"), rateString(rate)},
        {QStringLiteral("days_per_month"), days},
    };
    writeJsonOrTable(context, args, json, [&](QTextStream &out) {
        writeFields(out, {{QStringLiteral("fleets"), QStringLiteral("static %1, elastic averaging %2 GPUs")
                                                           .arg(countOf(staticGpus, QStringLiteral("GPU"), QStringLiteral("GPUs")),
                                                                decimalText(elasticGpus))},
                          {QStringLiteral("rate"), rateText(rate) + QStringLiteral(" per GPU-hour")}});
        out << '\n';
        Table table({{QStringLiteral("fleet")},
                     {QStringLiteral("per day"), Table::Align::Right},
                     {QStringLiteral("per ") + monthLabel(days), Table::Align::Right}});
        table.addRow({QStringLiteral("static"), moneyText(r.staticPerDay), moneyText(staticPerMonth)});
        table.addRow({QStringLiteral("elastic"), moneyText(r.elasticPerDay), moneyText(elasticPerMonth)});
        table.addRow({QStringLiteral("saving"), signedMoneyText(r.savingPerDay), signedMoneyText(r.savingPerMonth)});
        table.write(out);
        out << '\n';
        if (r.savingPerDay.amount.isNegative()) {
            const Money extraDay{-r.savingPerDay.amount, currency};
            const Money extraMonth{-r.savingPerMonth.amount, currency};
            out << QStringLiteral("the elastic fleet costs %1 more a day and %2 more a %3: keep the static fleet")
                       .arg(moneyText(extraDay), moneyText(extraMonth), monthLabel(days));
        } else {
            out << QStringLiteral("the elastic fleet saves %1 a day (%2 %) and %3 a %4")
                       .arg(moneyText(r.savingPerDay), percentOf(r.savingPerDay, r.staticPerDay),
                            moneyText(r.savingPerMonth), monthLabel(days));
        }
        out << '\n';
    });
    return 0;
}

// --- cost reserve -------------------------------------------------------------------------

struct ReserveInputs {
    QString demandPath;
    engine::DemandSeries demand;
    engine::PlanRates rates;
    Decimal spotShare;
    Money reservedRate;
    Money elasticRate;
    int termMonths = 12;
    engine::CivilDate termStart;
    Decimal upfrontShare;
};

// Engine fields as the flags that set them.
QString flagForField(const std::string &field)
{
    static const std::map<std::string, QString> flags = {
        {"reserved_rate", QStringLiteral("--reserved-rate")},
        {"elastic_rate", QStringLiteral("--on-demand-rate")},
        {"on_demand", QStringLiteral("--on-demand-rate")},
        {"spot", QStringLiteral("--spot-rate")},
        {"spot_share", QStringLiteral("--spot-share")},
        {"spot_overhead", QStringLiteral("--spot-overhead")},
        {"currency", QStringLiteral("--currency")},
    };
    const auto it = flags.find(field);
    return it == flags.end() ? QString() : it->second;
}

// Runs `analysis`, reporting engine input errors by the flag or file they came from.
template<typename F>
auto namingInputs(const ReserveInputs &in, F analysis)
{
    try {
        return analysis();
    } catch (const engine::InputError &e) {
        if (e.field() == "demand")
            throw UsageError(QStringLiteral("%1: %2").arg(in.demandPath, QString::fromStdString(e.what())));
        const QString flag = flagForField(e.field());
        if (flag.isEmpty())
            throw;
        throw UsageError(QStringLiteral("%1 (%2)").arg(QString::fromStdString(e.what()), flag));
    }
}

ReserveInputs reserveInputs(const Args &args)
{
    requireNoPositionals(args, QStringLiteral("reserve"));
    const QString why = QStringLiteral("for cost reserve");
    ReserveInputs in;
    const std::string currency = currencyOption(args);
    const qint64 per = gpusPerInstance(args);
    const auto path = args.text(QStringLiteral("demand"));
    if (!path)
        throw UsageError(QStringLiteral("--demand FILE.csv is required %1").arg(why));
    in.demandPath = *path;
    in.reservedRate = requiredRate(args, QStringLiteral("reserved-rate"), currency, per, why);
    in.rates.reserved1y = in.reservedRate;
    in.rates.reserved3y = Money{Decimal(), currency};
    in.rates.onDemand = requiredRate(args, QStringLiteral("on-demand-rate"), currency, per, why);
    in.rates.spot = Money{Decimal(), currency};

    const bool spotRate = args.has(QStringLiteral("spot-rate"));
    const bool spotShare = args.has(QStringLiteral("spot-share"));
    if (spotRate != spotShare) {
        throw UsageError(spotRate ? QStringLiteral("--spot-rate needs --spot-share (the share of elastic demand on spot)")
                                  : QStringLiteral("--spot-share needs --spot-rate"));
    }
    if (args.has(QStringLiteral("spot-overhead")) && !spotRate)
        throw UsageError(QStringLiteral("--spot-overhead needs --spot-rate and --spot-share"));
    if (spotRate) {
        in.rates.spot = *rateOption(args, QStringLiteral("spot-rate"), currency, per);
        in.spotShare = decimalInRange(args, QStringLiteral("spot-share"), Decimal(), Decimal::fromInt(1), why);
        in.rates.spotOverhead = decimalOption(args, QStringLiteral("spot-overhead")).value_or(Decimal());
        if (in.rates.spotOverhead.isNegative()) {
            throw UsageError(QStringLiteral("--spot-overhead: must be at least 0, got %1")
                                 .arg(QString::fromStdString(in.rates.spotOverhead.toString())));
        }
    }
    in.termMonths = int(args.integer(QStringLiteral("term-months"), 12, 36).value_or(12));
    if (in.termMonths != 12 && in.termMonths != 36)
        throw UsageError(QStringLiteral("--term-months: a commitment runs 12 or 36 months, got %1").arg(in.termMonths));
    const auto start = args.text(QStringLiteral("start"));
    std::optional<engine::CivilDate> startDate;
    if (start) {
        startDate = engine::parseIsoDate(start->toStdString());
        if (!startDate)
            throw UsageError(QStringLiteral("--start: expected a date as YYYY-MM-DD, got '%1'").arg(start->left(40)));
    }
    if (args.has(QStringLiteral("upfront-share")))
        in.upfrontShare = decimalInRange(args, QStringLiteral("upfront-share"), Decimal(), Decimal::fromInt(1), why);
    // Rates are checked before the file is read, so a bad flag is reported first.
    in.demand = store::readDemandCsvFile(in.demandPath);
    if (startDate)
        in.termStart = *startDate;
    else if (in.demand.startEpochSeconds != 0)
        in.termStart = engine::dateFromDays(in.demand.startEpochSeconds >= 0 ? in.demand.startEpochSeconds / 86400
                                                                       : (in.demand.startEpochSeconds - 86399) / 86400);
    else
        in.termStart = engine::firstOfNextMonth(engine::todayUtc());
    in.elasticRate = namingInputs(in, [&] { return engine::elasticRate(in.rates, in.spotShare); });
    return in;
}

bool allOnDemand(const ReserveInputs &in)
{
    return in.spotShare.isZero();
}

QString noCommitmentLabel(const ReserveInputs &in)
{
    return allOnDemand(in) ? QStringLiteral("all on-demand") : QStringLiteral("no commitment");
}

// Why reserving never pays, naming the rate it fails to beat.
QString neverPaysReason(const ReserveInputs &in)
{
    if (in.reservedRate.amount >= in.rates.onDemand.amount) {
        return QStringLiteral("the committed rate %1 is not below the on-demand rate %2 per GPU-hour")
            .arg(rateText(in.reservedRate), rateText(in.rates.onDemand));
    }
    return QStringLiteral("the committed rate %1 is not below the elastic rate %2 per GPU-hour with %3 % on spot")
        .arg(rateText(in.reservedRate), rateText(in.elasticRate), percentText(in.spotShare));
}

// The plain-language answer, e.g. "reserve 212 GPUs: 18.4 % cheaper than all on-demand; the
// P75 rule would reserve 241 and cost $X more over the series".
QString recommendation(const ReserveInputs &in, const engine::ReserveAnalysis &a)
{
    if (!a.commitmentPays)
        return QStringLiteral("the commitment never pays: reserve 0 (%1)").arg(neverPaysReason(in));
    QString text;
    const Money saving = a.costAllElastic - a.costAtOptimum;
    if (a.optimalReserved == 0) {
        text = QStringLiteral("reserve 0 GPUs: %1 is cheapest for this series").arg(noCommitmentLabel(in));
    } else {
        text = QStringLiteral("reserve %1: %2 % cheaper than %3")
                   .arg(countOf(a.optimalReserved, QStringLiteral("GPU"), QStringLiteral("GPUs")),
                        percentOf(saving, a.costAllElastic), noCommitmentLabel(in));
    }
    if (a.p75Reserved == a.optimalReserved) {
        text += QStringLiteral("; the P75 rule reserves the same");
    } else {
        text += QStringLiteral("; the P75 rule would reserve %1 and cost %2 more over the series")
                    .arg(formatInteger(a.p75Reserved), moneyText(engine::shownDifference(a.costAtP75, a.costAtOptimum)));
    }
    return text;
}

QString seriesLabel(const ReserveInputs &in)
{
    const engine::DemandSeries &d = in.demand;
    QString label = QStringLiteral("%1: %2").arg(QFileInfo(in.demandPath).fileName(),
                                                 countOf(qint64(d.gpus.size()), QStringLiteral("hour"),
                                                         QStringLiteral("hours")));
    if (d.startEpochSeconds != 0) {
        label += QStringLiteral(" from %1").arg(QDateTime::fromSecsSinceEpoch(d.startEpochSeconds, Qt::UTC)
                                                    .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
    }
    return label;
}

// The optimum's commitment over its whole term, or null when nothing is reserved.
QJsonValue commitmentJson(const std::optional<engine::CommitmentObligation> &c)
{
    if (!c)
        return QJsonValue(QJsonValue::Null);
    const auto cents = [](const Money &m) { return QString::fromStdString(m.cents()); };
    return QJsonObject{
        {QStringLiteral("term_months"), c->termMonths},
        {QStringLiteral("start_date"), QString::fromStdString(c->startDate)},
        {QStringLiteral("end_date"), QString::fromStdString(c->endDate)},
        {QStringLiteral("term_hours"), qint64(c->termHours)},
        {QStringLiteral("series_hours"), qint64(c->horizonHours)},
        {QStringLiteral("obligation"), cents(c->total)},
        {QStringLiteral("upfront"), cents(c->upfront)},
        {QStringLiteral("consumed_in_series"), cents(c->inHorizon)},
        {QStringLiteral("share_consumed"), c->shareConsumed},
        {QStringLiteral("covers_term"), c->coversTerm},
        {QStringLiteral("warning"), QString::fromStdString(c->warning)},
    };
}

QJsonObject reserveJson(const ReserveInputs &in, const engine::ReserveAnalysis &a,
                        std::optional<double> reservedUtilization,
                        const std::optional<engine::CommitmentObligation> &commitment)
{
    const auto cents = [](const Money &m) { return QString::fromStdString(m.cents()); };
    return QJsonObject{
        {QStringLiteral("commitment"), commitmentJson(commitment)},
        {QStringLiteral("optimal_reserved"), qint64(a.optimalReserved)},
        {QStringLiteral("critical_fractile"), a.criticalFractile},
        {QStringLiteral("cost_at_optimum"), cents(a.costAtOptimum)},
        {QStringLiteral("cost_all_on_demand"), cents(a.costAllElastic)},
        {QStringLiteral("cost_at_p50"), cents(a.costAtP50)},
        {QStringLiteral("cost_at_p75"), cents(a.costAtP75)},
        {QStringLiteral("p50"), a.p50},
        {QStringLiteral("p75"), a.p75},
        {QStringLiteral("fractile_reserved"), qint64(a.fractileReserved)},
        {QStringLiteral("p50_reserved"), qint64(a.p50Reserved)},
        {QStringLiteral("p75_reserved"), qint64(a.p75Reserved)},
        {QStringLiteral("saving_vs_on_demand"), cents(engine::shownDifference(a.costAllElastic, a.costAtOptimum))},
        {QStringLiteral("p75_extra_cost"), cents(engine::shownDifference(a.costAtP75, a.costAtOptimum))},
        {QStringLiteral("p50_extra_cost"), cents(engine::shownDifference(a.costAtP50, a.costAtOptimum))},
        {QStringLiteral("commitment_pays"), a.commitmentPays},
        {QStringLiteral("reserved_utilization"),
         reservedUtilization ? QJsonValue(*reservedUtilization) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("hours"), qint64(in.demand.gpus.size())},
        {QStringLiteral("mean"), engine::demandMean(in.demand)},
        {QStringLiteral("peak"), engine::demandPeak(in.demand)},
        {QStringLiteral("reserved_rate"), rateString(in.reservedRate)},
        {QStringLiteral("on_demand_rate"), rateString(in.rates.onDemand)},
        {QStringLiteral("elastic_rate"), rateString(in.elasticRate)},
        {QStringLiteral("spot_share"), in.spotShare.toDouble()},
        {QStringLiteral("currency"), QString::fromStdString(in.reservedRate.currency)},
        {QStringLiteral("recommendation"), recommendation(in, a)},
    };
}

void writeReserveTable(QTextStream &out, const ReserveInputs &in, const engine::ReserveAnalysis &a,
                       std::optional<double> reservedUtilization,
                       const std::optional<engine::CommitmentObligation> &commitment)
{
    const engine::DemandSeries &d = in.demand;
    std::vector<std::pair<QString, QString>> fields = {
        {QStringLiteral("demand"), seriesLabel(in)},
        {QString(), QStringLiteral("mean %1, P50 %2, P75 %3, peak %4 GPUs")
                        .arg(formatDecimal(engine::demandMean(d), 1), formatDecimal(a.p50, 2),
                             formatDecimal(a.p75, 2), formatDecimal(engine::demandPeak(d), 2))},
        {QStringLiteral("rates"), QStringLiteral("reserved %1, on-demand %2 per GPU-hour")
                                      .arg(rateText(in.reservedRate), rateText(in.rates.onDemand))},
    };
    if (!allOnDemand(in)) {
        QString spot = QStringLiteral("%1 per GPU-hour: %2 % of elastic demand on spot at %3")
                           .arg(rateText(in.elasticRate), percentText(in.spotShare), rateText(in.rates.spot));
        if (!in.rates.spotOverhead.isZero())
            spot += QStringLiteral(" + %1 % interruption overhead").arg(percentText(in.rates.spotOverhead));
        fields.emplace_back(QStringLiteral("elastic rate"), spot);
    }
    if (a.commitmentPays) {
        QString fractile = QStringLiteral("%1 (reserved / elastic rate): P(demand > R) ≤ %1 from R = %2")
                               .arg(QString::number(a.criticalFractile, 'g', 4), formatInteger(a.fractileReserved));
        fractile += a.fractileReserved == a.optimalReserved
            ? QStringLiteral(" (the sweep agrees)")
            : QStringLiteral(" (the sweep found %1)").arg(formatInteger(a.optimalReserved));
        fields.emplace_back(QStringLiteral("critical fractile"), fractile);
    } else {
        fields.emplace_back(QStringLiteral("critical fractile"),
                            QStringLiteral("%1: reserving costs at least as much as elastic capacity")
                                .arg(QString::number(a.criticalFractile, 'g', 4)));
    }
    if (reservedUtilization) {
        fields.emplace_back(QStringLiteral("reserved use"),
                            QStringLiteral("%1 % of the optimum's paid GPU-hours are used")
                                .arg(formatDecimal(*reservedUtilization * 100, 1)));
    }
    if (commitment) {
        QString owed = QStringLiteral("%1 GPUs for %2 months, %3 to %4 (%5 h): %6 owed in full")
                           .arg(formatInteger(a.optimalReserved), QString::number(commitment->termMonths),
                                QString::fromStdString(commitment->startDate),
                                QString::fromStdString(commitment->endDate), formatInteger(commitment->termHours),
                                moneyText(commitment->total));
        if (!commitment->upfront.amount.isZero())
            owed += QStringLiteral(", %1 of it upfront").arg(moneyText(commitment->upfront));
        owed += QStringLiteral("; the series consumes %1 (%2 %)")
                    .arg(moneyText(commitment->inHorizon), formatDecimal(commitment->shareConsumed * 100, 1));
        fields.emplace_back(QStringLiteral("commitment"), owed);
    }
    writeFields(out, fields);
    out << '\n';
    if (commitment && !commitment->warning.empty())
        out << "warning: " << QString::fromStdString(commitment->warning) << "\n\n";

    Table table({{QStringLiteral("plan")},
                 {QStringLiteral("reserved GPUs"), Table::Align::Right},
                 {QStringLiteral("cost over series"), Table::Align::Right},
                 {QStringLiteral("vs optimum"), Table::Align::Right}});
    const auto row = [&](const QString &plan, int64_t reserved, const Money &cost) {
        const Money extra = engine::shownDifference(cost, a.costAtOptimum);
        table.addRow({plan, formatInteger(reserved), moneyText(cost),
                      extra.amount.isZero() ? QString() : signedMoneyText(extra)});
    };
    row(a.commitmentPays ? QStringLiteral("optimum") : QStringLiteral("optimum (reserve none)"),
        a.optimalReserved, a.costAtOptimum);
    row(QStringLiteral("P50 rule"), a.p50Reserved, a.costAtP50);
    row(QStringLiteral("P75 rule"), a.p75Reserved, a.costAtP75);
    if (a.optimalReserved != 0)
        row(noCommitmentLabel(in), 0, a.costAllElastic);
    table.write(out);
    out << '\n' << recommendation(in, a) << '\n';
}

int runReserve(const QStringList &argv, Context &context)
{
    const Args args(argv, optionsWith({"demand", "reserved-rate", "on-demand-rate", "spot-rate", "spot-share",
                                       "spot-overhead", "term-months", "start", "upfront-share"}));
    const ReserveInputs in = reserveInputs(args);
    const engine::ReserveAnalysis a = namingInputs(in, [&] {
        return engine::analyseReservation(in.demand, in.reservedRate, in.elasticRate);
    });
    std::optional<double> reservedUtilization;
    if (a.commitmentPays && a.optimalReserved > 0) {
        const engine::PlanMix mix{0, a.optimalReserved, in.spotShare};
        reservedUtilization = namingInputs(in, [&] {
            return engine::planCost(in.demand, mix, in.rates).reservedUtilization;
        });
    }
    // A commitment is owed for its whole term, however much of it the series covers.
    std::optional<engine::CommitmentObligation> commitment;
    if (a.commitmentPays && a.optimalReserved > 0) {
        commitment = namingInputs(in, [&] {
            return engine::commitmentObligation(a.optimalReserved, in.reservedRate, in.upfrontShare, in.termStart,
                                                in.termMonths, int64_t(in.demand.gpus.size()));
        });
    }
    writeJsonOrTable(context, args, reserveJson(in, a, reservedUtilization, commitment),
                     [&](QTextStream &out) { writeReserveTable(out, in, a, reservedUtilization, commitment); });
    return 0;
}

int runCost(const QStringList &argv, Context &context)
{
    const QString known = QStringLiteral("idle, static-vs-elastic, reserve");
    if (argv.isEmpty() || argv.constFirst().startsWith(QLatin1String("--")))
        throw UsageError(QStringLiteral("cost needs a sub-command first: %1").arg(known));
    const QString sub = argv.constFirst();
    const QStringList rest = argv.mid(1);
    if (sub == QLatin1String("idle"))
        return runIdle(rest, context);
    if (sub == QLatin1String("static-vs-elastic"))
        return runStaticVsElastic(rest, context);
    if (sub == QLatin1String("reserve"))
        return runReserve(rest, context);
    throw UsageError(QStringLiteral("unknown cost sub-command '%1'; known: %2").arg(sub, known));
}

} // namespace

Command costCommand()
{
    return {QStringLiteral("cost"),
            QStringLiteral("idle cost, static vs elastic fleets, and how many GPUs to reserve"),
            QString::fromUtf8(kUsage), &runCost};
}

} // namespace headroom::cli
