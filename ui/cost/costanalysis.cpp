#include "costanalysis.h"

#include "costcharts.h"

#include "common/format.h"
#include "engine/common/errors.h"
#include "report/reportsnapshot.h"
#include "store/common/workspace.h"

#include <QJsonObject>
#include <QObject>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr int kHoursPerWeek = 168;

QString money(const engine::Money &m)
{
    return QString::fromStdString(m.display());
}

// A rate with every digit the card holds: "$3.8192".
QString rateText(const engine::Money &m)
{
    return QString::fromStdString(m.displayRate());
}

engine::CivilDate civil(const QDate &date)
{
    return engine::CivilDate{std::chrono::year{date.year()}, std::chrono::month{unsigned(date.month())},
                             std::chrono::day{unsigned(date.day())}};
}

// The hourly demand the inputs name, and the date of its hour 0.
engine::DemandSeries demandOf(const store::Workspace &workspace, const CostPageInputs &in, engine::CivilDate *start)
{
    const QDate startDate = in.startDate.isValid() ? in.startDate : QDate(2026, 1, 1);
    if (!in.demandSeries.isEmpty()) {
        std::optional<engine::DemandSeries> series = workspace.demandSeries(in.demandSeries);
        if (!series)
            throw engine::InputError(
                "demand",
                QObject::tr("demand series \"%1\" is no longer in the workspace").arg(in.demandSeries).toStdString());
        // A series with timestamps starts on its first hour's date; one without, on the start date.
        *start = series->startEpochSeconds != 0 ? engine::dateFromDays(series->startEpochSeconds / 86400)
                                                : civil(startDate);
        return *series;
    }
    *start = civil(startDate);
    engine::DemandShape shape;
    shape.baselineGpus = in.baselineGpus;
    shape.dailyPeakGpus = in.peakGpus;
    shape.peakHour = in.peakHour;
    shape.weekendFactor = in.weekendFactor;
    shape.growthPerMonth = in.growthPercent / 100.0;
    shape.noise = in.noisePercent / 100.0;
    shape.seed = uint32_t(in.seed);
    shape.firstWeekday = startDate.dayOfWeek() - 1; // the weekend falls on the calendar's
    shape.hours = in.horizonMonths == 0 ? kHoursPerWeek : int(engine::termHours(*start, in.horizonMonths));
    return engine::generateDemand(shape, "generated");
}

} // namespace

CostAnalysis analyseCost(const store::Workspace &workspace, const CostPageInputs &in)
{
    CostAnalysis a;
    a.demand = demandOf(workspace, in, &a.seriesStart);
    a.threeYear = in.termYears == 3;
    const std::optional<engine::RateCard> card = workspace.rateCard(in.rateCard);
    a.currency = card ? QString::fromStdString(card->currency) : QStringLiteral("USD");
    const std::string currency = a.currency.toStdString();
    // A typed price, or the card's where none is typed.
    auto rate = [&](const std::optional<QString> &typed, std::optional<engine::Decimal> fromCard, const char *field) {
        if (!typed) {
            if (!fromCard)
                throw engine::InputError(field, QObject::tr("choose a rate card or enter a price").toStdString());
            return engine::Money{*fromCard, currency};
        }
        const auto parsed = engine::Decimal::parse(typed->trimmed().toStdString());
        if (!parsed)
            throw engine::InputError(field, "enter a decimal price such as 6.88");
        if (!fromCard || *parsed != *fromCard)
            a.ratesFromCard = false;
        return engine::Money{*parsed, currency};
    };
    auto cardValue = [&](engine::Decimal engine::RateCard::*member) {
        return card ? std::optional<engine::Decimal>(*card.*member) : std::nullopt;
    };
    a.rates.onDemand = rate(in.onDemandRate, cardValue(&engine::RateCard::onDemand), "on_demand");
    a.reservedRate = rate(in.reservedRate,
                          cardValue(a.threeYear ? &engine::RateCard::reserved3y : &engine::RateCard::reserved1y),
                          "reserved");
    a.rates.reserved1y = a.reservedRate;
    a.rates.reserved3y = a.reservedRate;
    a.rates.spot = rate(in.spotRate, cardValue(&engine::RateCard::spot), "spot");
    if (!card)
        a.ratesFromCard = false;
    a.rates.spotOverhead = engine::Decimal::fromDouble(in.spotOverheadPercent / 100.0);
    const engine::Decimal spotShare = engine::Decimal::fromDouble(in.spotSharePercent / 100.0);
    if (!spotShare.isZero() && a.rates.spot.amount.isZero())
        throw engine::InputError("spot", "a spot share needs a spot price above 0");
    a.elasticRate = engine::elasticRate(a.rates, spotShare);
    a.analysis = engine::analyseReservation(a.demand, a.reservedRate, a.elasticRate);

    auto mixFor = [&](int64_t reserved) {
        engine::PlanMix mix;
        (a.threeYear ? mix.reserved3y : mix.reserved1y) = reserved;
        mix.spotShare = spotShare;
        return mix;
    };
    a.chosenReserved = in.useOptimum ? a.analysis.optimalReserved : in.reserved;
    const std::pair<QString, int64_t> choices[] = {
        {QObject::tr("All on-demand"), 0},
        {QObject::tr("P50 rule"), a.analysis.p50Reserved},
        {QObject::tr("P75 rule"), a.analysis.p75Reserved},
        {QObject::tr("Optimum"), a.analysis.optimalReserved},
    };
    for (const auto &[name, reserved] : choices)
        a.options.push_back({name, reserved, engine::planCost(a.demand, mixFor(reserved), a.rates)});
    if (!in.useOptimum && a.chosenReserved != a.analysis.optimalReserved)
        a.options.push_back({QObject::tr("Your plan"), a.chosenReserved,
                             engine::planCost(a.demand, mixFor(a.chosenReserved), a.rates)});
    a.chosen = engine::planCost(a.demand, mixFor(a.chosenReserved), a.rates, true);
    a.sensitivity = engine::sensitivity(a.demand, mixFor(a.chosenReserved), a.rates);

    // The whole commitment, whatever the series covers.
    a.upfrontShare = card ? (a.threeYear ? card->reserved3yUpfront : card->reserved1yUpfront) : engine::Decimal();
    const int termMonths = a.threeYear ? 36 : 12;
    const int64_t seriesHours = int64_t(a.demand.gpus.size());
    if (a.analysis.commitmentPays)
        a.commitment = engine::commitmentObligation(a.analysis.optimalReserved, a.reservedRate, a.upfrontShare,
                                                    a.seriesStart, termMonths, seriesHours);

    a.weeks = std::max<int>(1, int((seriesHours + kHoursPerWeek - 1) / kHoursPerWeek));
    a.week = std::clamp(in.week, 1, a.weeks);
    a.months = engine::monthlySpend(a.demand, mixFor(a.chosenReserved), a.rates, a.seriesStart);
    // The chosen plan's upfront is paid at signing, in the first month.
    a.upfrontPaid = engine::Money{engine::Decimal(), currency};
    if (a.chosenReserved > 0 && a.upfrontShare > engine::Decimal()) {
        const engine::CommitmentObligation chosenCommitment = engine::commitmentObligation(
            a.chosenReserved, a.reservedRate, a.upfrontShare, a.seriesStart, termMonths, seriesHours);
        a.months = engine::withUpfront(std::move(a.months), a.upfrontShare, chosenCommitment);
        a.upfrontPaid = chosenCommitment.upfront;
    }
    return a;
}

QJsonObject costSource(const char *kind, const CostAnalysis &a, const CostPageInputs &in)
{
    QJsonObject source{{QStringLiteral("kind"), QLatin1String(kind)},
                       {QStringLiteral("rate_card"), in.rateCard},
                       {QStringLiteral("term_years"), in.termYears},
                       {QStringLiteral("spot_share"), in.spotSharePercent},
                       {QStringLiteral("spot_overhead"), in.spotOverheadPercent},
                       {QStringLiteral("use_optimum"), in.useOptimum},
                       {QStringLiteral("reserved"), in.reserved},
                       {QStringLiteral("week"), in.week},
                       {QStringLiteral("start_date"), in.startDate.toString(Qt::ISODate)}};
    if (!in.demandSeries.isEmpty()) {
        source.insert(QStringLiteral("demand_series"), in.demandSeries);
    } else {
        source.insert(QStringLiteral("shape"), QJsonObject{{QStringLiteral("baseline"), in.baselineGpus},
                                                           {QStringLiteral("peak"), in.peakGpus},
                                                           {QStringLiteral("peak_hour"), in.peakHour},
                                                           {QStringLiteral("weekend"), in.weekendFactor},
                                                           {QStringLiteral("growth"), in.growthPercent},
                                                           {QStringLiteral("noise"), in.noisePercent},
                                                           {QStringLiteral("horizon_months"), in.horizonMonths},
                                                           {QStringLiteral("seed"), in.seed}});
    }
    // Prices typed over the card's stay as typed; the card's follow the card.
    if (!a.ratesFromCard)
        source.insert(QStringLiteral("rates"),
                      QJsonObject{{QStringLiteral("on_demand"), in.onDemandRate.value_or(QString())},
                                  {QStringLiteral("reserved"), in.reservedRate.value_or(QString())},
                                  {QStringLiteral("spot"), in.spotRate.value_or(QString())}});
    return source;
}

CostFigures costFigures(const CostAnalysis &a, const CostPageInputs &in)
{
    CostFigures f;
    const QString currency = a.currency;
    const engine::ReserveAnalysis analysis = a.analysis;
    const QString termText = a.threeYear ? QObject::tr("3-year") : QObject::tr("1-year");
    const QString sweepTitle = QObject::tr("Total cost vs reserved GPUs (%1 commitment)").arg(termText);
    f.sweep = ChartFigure{
        sweepTitle,
        QObject::tr("Cost over the whole series (%1): reserved GPUs × %2 every hour plus elastic demand above "
                    "them at %3. The optimum reserves where P(demand > R) = %4 (critical fractile).")
            .arg(formatCountOf(int64_t(a.demand.gpus.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n hour(s)")),
                 rateText(a.reservedRate), rateText(a.elasticRate))
            .arg(analysis.criticalFractile, 0, 'f', 3),
        [analysis, currency, sweepTitle](QChart::ChartTheme theme) {
            return buildReserveSweepChart(analysis, currency, sweepTitle, theme);
        }};
    const std::vector<engine::HourBreakdown> hours = a.chosen.hours;
    const int firstHour = (a.week - 1) * kHoursPerWeek;
    const QString weekTitle = QObject::tr("Hourly GPU mix, week %1, %2 reserved").arg(a.week).arg(a.chosenReserved);
    f.week = ChartFigure{weekTitle,
                         QObject::tr("Reserved GPUs are paid every hour; demand above them runs on on-demand "
                                     "and spot. Reserved utilization over the series: %1.")
                             .arg(formatPercent(a.chosen.reservedUtilization)),
                         [hours, firstHour, weekTitle](QChart::ChartTheme theme) {
                             return buildWeekStackChart(hours, firstHour, weekTitle, theme);
                         }};
    const std::vector<engine::MonthSpend> months = a.months;
    const QString monthTitle = QObject::tr("Monthly spend, %1 reserved").arg(a.chosenReserved);
    f.month = ChartFigure{
        monthTitle,
        QObject::tr("Reserved spend follows the days in each month; elastic spend follows demand. "
                    "Calendar months of the series from %1, %2.%3")
            .arg(QString::fromStdString(engine::isoDate(a.seriesStart)), currency,
                 a.upfrontPaid.amount.isZero()
                     ? QString()
                     : QObject::tr(" The commitment's upfront, %1 for the whole term, is paid at "
                                   "signing in the first month; the months carry the rest.")
                           .arg(money(a.upfrontPaid))),
        [months, currency, monthTitle](QChart::ChartTheme theme) {
            return buildMonthlySpendChart(months, currency, monthTitle, theme);
        }};
    f.sweep.source = costSource("cost-sweep", a, in);
    f.week.source = costSource("cost-week", a, in);
    f.month.source = costSource("cost-month", a, in);
    return f;
}

DeckTable costTable(const CostAnalysis &a)
{
    DeckTable table;
    table.columns = {QObject::tr("Option"),        QObject::tr("Reserved\nGPUs"),
                     QObject::tr("Reserved"),      QObject::tr("On-demand"),
                     QObject::tr("Spot"),          QObject::tr("Total"),
                     QObject::tr("No commitment,\nsame demand"), QObject::tr("vs all\non-demand"),
                     QObject::tr("Reserved\nutilization")};
    // Parts in cents, the total their sum, the comparison between totals as shown.
    auto row = [&](const QString &name, int64_t reserved, const engine::PlanCost &c,
                   const engine::Money &onDemandOnly) {
        const engine::ShownColumn shown = engine::shownPlanCost(c);
        const double base = onDemandOnly.amount.toDouble();
        table.rows << QStringList{name,
                                  formatCount(reserved),
                                  money(shown.parts[0]),
                                  money(shown.parts[1]),
                                  money(shown.parts[2]),
                                  money(shown.total),
                                  money(onDemandOnly),
                                  base > 0 ? formatPercent(shown.total.amount.toDouble() / base - 1.0) : QStringLiteral("—"),
                                  reserved > 0 ? formatPercent(c.reservedUtilization) : QStringLiteral("—")};
    };
    const engine::Money allOnDemand = a.options.front().cost.total;
    const engine::Money shownAllOnDemand{allOnDemand.amount.rounded(2), allOnDemand.currency};
    for (const CostOption &o : a.options)
        row(o.name, o.reserved, o.cost, shownAllOnDemand);
    for (const engine::Sensitivity &s : a.sensitivity)
        row(QObject::tr("Plan, demand %1%2 %").arg(s.change > 0 ? "+" : "−").arg(std::abs(s.change) * 100, 0, 'f', 0),
            a.chosenReserved, s.plan, engine::Money{s.noCommitment.amount.rounded(2), s.noCommitment.currency});
    return table;
}

std::optional<store::ReportItem> costReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                QString *problem)
{
    problem->clear();
    const QString kind = source.value(QStringLiteral("kind")).toString();
    if (!kind.startsWith(QLatin1String("cost-")))
        return std::nullopt;
    CostPageInputs in;
    in.rateCard = source.value(QStringLiteral("rate_card")).toString();
    in.termYears = source.value(QStringLiteral("term_years")).toInt(1) == 3 ? 3 : 1;
    in.spotSharePercent = source.value(QStringLiteral("spot_share")).toDouble();
    in.spotOverheadPercent = source.value(QStringLiteral("spot_overhead")).toDouble(in.spotOverheadPercent);
    in.useOptimum = source.value(QStringLiteral("use_optimum")).toBool(true);
    in.reserved = source.value(QStringLiteral("reserved")).toInt();
    in.week = source.value(QStringLiteral("week")).toInt(1);
    in.startDate = QDate::fromString(source.value(QStringLiteral("start_date")).toString(), Qt::ISODate);
    in.demandSeries = source.value(QStringLiteral("demand_series")).toString();
    const QJsonObject shape = source.value(QStringLiteral("shape")).toObject();
    in.baselineGpus = shape.value(QStringLiteral("baseline")).toDouble(in.baselineGpus);
    in.peakGpus = shape.value(QStringLiteral("peak")).toDouble(in.peakGpus);
    in.peakHour = shape.value(QStringLiteral("peak_hour")).toInt(in.peakHour);
    in.weekendFactor = shape.value(QStringLiteral("weekend")).toDouble(in.weekendFactor);
    in.growthPercent = shape.value(QStringLiteral("growth")).toDouble(in.growthPercent);
    in.noisePercent = shape.value(QStringLiteral("noise")).toDouble(in.noisePercent);
    in.horizonMonths = shape.value(QStringLiteral("horizon_months")).toInt(in.horizonMonths);
    in.seed = shape.value(QStringLiteral("seed")).toInt(in.seed);
    const QJsonObject rates = source.value(QStringLiteral("rates")).toObject();
    if (!rates.isEmpty()) {
        in.onDemandRate = rates.value(QStringLiteral("on_demand")).toString();
        in.reservedRate = rates.value(QStringLiteral("reserved")).toString();
        in.spotRate = rates.value(QStringLiteral("spot")).toString();
    }
    if (!in.rateCard.isEmpty() && rates.isEmpty() && !workspace.rateCard(in.rateCard)) {
        *problem = QObject::tr("rate card \"%1\" no longer exists").arg(in.rateCard);
        return std::nullopt;
    }
    try {
        const CostAnalysis a = analyseCost(workspace, in);
        if (kind == QLatin1String("cost-table"))
            return reportItemFromTable(QString(), QString(), costTable(a), costSource("cost-table", a, in));
        const CostFigures f = costFigures(a, in);
        if (kind == QLatin1String("cost-sweep"))
            return reportItemFromFigure(f.sweep);
        if (kind == QLatin1String("cost-week"))
            return reportItemFromFigure(f.week);
        if (kind == QLatin1String("cost-month"))
            return reportItemFromFigure(f.month);
    } catch (const engine::InputError &e) {
        *problem = QObject::tr("its inputs no longer compute: %1").arg(QString::fromUtf8(e.what()));
        return std::nullopt;
    }
    *problem = QObject::tr("this version of Headroom does not know its source \"%1\"").arg(kind);
    return std::nullopt;
}

} // namespace headroom::ui
