#include "cost.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace headroom::engine {

namespace {

constexpr int64_t kHoursPerDay = 24;
constexpr int kMaxDaysPerMonth = 31;
// The sweep holds one point per reserved GPU count up to the peak.
constexpr int64_t kMaxSweepGpus = 1'000'000;

Decimal one()
{
    return Decimal::fromInt(1);
}

void requirePositive(const char *field, const Money &rate)
{
    if (!(rate.amount > Decimal()))
        throw InputError(field, std::string(field) + " must be greater than 0 (got "
                                    + rate.amount.toString() + " " + rate.currency + ")");
}

void requireNonNegative(const char *field, int64_t value)
{
    if (value < 0)
        throw InputError(field, std::string(field) + " must not be negative (got "
                                    + std::to_string(value) + ")");
}

void requireShare(const char *field, Decimal value)
{
    if (value < Decimal() || value > one())
        throw InputError(field, std::string(field) + " must be between 0 and 1 (got "
                                    + value.toString() + ")");
}

void requireDaysPerMonth(int days)
{
    if (days < 1 || days > kMaxDaysPerMonth)
        throw InputError("days_per_month", "days_per_month must be between 1 and "
                                               + std::to_string(kMaxDaysPerMonth) + " (got "
                                               + std::to_string(days) + ")");
}

void requireSameCurrency(const char *field, const Money &rate, const std::string &currency)
{
    if (rate.currency != currency)
        throw InputError("currency", std::string("mixed currencies in one plan: ") + field + " is in "
                                         + rate.currency + ", the plan in " + currency
                                         + " (cannot add " + currency + " and " + rate.currency + ")");
}

void requireDemand(const DemandSeries &demand)
{
    if (demand.gpus.empty())
        throw InputError("demand", "the demand series \"" + demand.name + "\" has no hours");
    for (size_t h = 0; h < demand.gpus.size(); ++h) {
        if (demand.gpus[h].isNegative())
            throw InputError("demand", "hour " + std::to_string(h) + " of \"" + demand.name
                                           + "\" has negative demand " + demand.gpus[h].toString());
    }
}

// Checks the counts, the share and every rate the plan uses (on-demand always, as the
// reference price), and that they share one currency.
void requirePlan(const PlanMix &mix, const PlanRates &rates)
{
    requireNonNegative("reserved_3y_gpus", mix.reserved3y);
    requireNonNegative("reserved_1y_gpus", mix.reserved1y);
    requireShare("spot_share", mix.spotShare);
    if (rates.spotOverhead.isNegative())
        throw InputError("spot_overhead", "spot_overhead must not be negative (got "
                                              + rates.spotOverhead.toString() + ")");
    requirePositive("on_demand", rates.onDemand);
    const std::string &currency = rates.onDemand.currency;
    if (mix.reserved3y > 0) {
        requirePositive("reserved_3y", rates.reserved3y);
        requireSameCurrency("reserved_3y", rates.reserved3y, currency);
    }
    if (mix.reserved1y > 0) {
        requirePositive("reserved_1y", rates.reserved1y);
        requireSameCurrency("reserved_1y", rates.reserved1y, currency);
    }
    if (mix.spotShare > Decimal()) {
        requirePositive("spot", rates.spot);
        requireSameCurrency("spot", rates.spot, currency);
    }
}

// Σ max(0, d − R) over the hours, for each whole R in turn: with the values sorted and their
// suffix sums, Σ_{d > R} d − R × #{d > R}. The caller walks R upward; `advance` moves the
// boundary past every value ≤ R, so the whole walk is O(n + peak) after the sort.
class ShortfallWalk {
public:
    explicit ShortfallWalk(const std::vector<Decimal> &values)
        : m_sorted(values)
    {
        std::sort(m_sorted.begin(), m_sorted.end());
        m_suffix.resize(m_sorted.size() + 1);
        for (size_t i = m_sorted.size(); i-- > 0;)
            m_suffix[i] = m_suffix[i + 1] + m_sorted[i];
    }

    void advance(int64_t reserved)
    {
        const Decimal r = Decimal::fromInt(reserved);
        while (m_above < m_sorted.size() && m_sorted[m_above] <= r)
            ++m_above;
        m_reserved = reserved;
    }

    int64_t countAbove() const { return int64_t(m_sorted.size() - m_above); }
    Decimal shortfall() const { return m_suffix[m_above] - Decimal::fromInt(m_reserved) * countAbove(); }
    Decimal peak() const { return m_sorted.back(); }

private:
    std::vector<Decimal> m_sorted;
    std::vector<Decimal> m_suffix;
    size_t m_above = 0;
    int64_t m_reserved = 0;
};

} // namespace

IdleCost idleCost(int64_t gpus, Decimal idleFraction, const Money &ratePerGpuHour, int daysPerMonth)
{
    requireNonNegative("gpus", gpus);
    requireShare("idle_fraction", idleFraction);
    requirePositive("rate", ratePerGpuHour);
    requireDaysPerMonth(daysPerMonth);
    // Idle GPU-hours per day are exact; the one product with the rate is the only rounding.
    const Decimal idleGpuHours = idleFraction * (gpus * kHoursPerDay);
    const Money perDay = ratePerGpuHour * idleGpuHours;
    return {perDay, perDay * int64_t(daysPerMonth)};
}

StaticVsElastic staticVsElastic(int64_t staticGpus, Decimal elasticAverageGpus, const Money &ratePerGpuHour,
                                int daysPerMonth)
{
    requireNonNegative("static_gpus", staticGpus);
    if (elasticAverageGpus.isNegative())
        throw InputError("elastic_avg_gpus", "elastic_avg_gpus must not be negative (got "
                                                 + elasticAverageGpus.toString() + ")");
    requirePositive("rate", ratePerGpuHour);
    requireDaysPerMonth(daysPerMonth);
    StaticVsElastic result;
    result.staticPerDay = ratePerGpuHour * (staticGpus * kHoursPerDay);
    result.elasticPerDay = ratePerGpuHour * (elasticAverageGpus * kHoursPerDay);
    result.staticPerMonth = ratePerGpuHour * (staticGpus * kHoursPerDay * daysPerMonth);
    result.elasticPerMonth = ratePerGpuHour * (elasticAverageGpus * (kHoursPerDay * daysPerMonth));
    result.savingPerDay = shownDifference(result.staticPerDay, result.elasticPerDay);
    result.savingPerMonth = shownDifference(result.staticPerMonth, result.elasticPerMonth);
    return result;
}

// Each hour: reserved R = 3y + 1y GPUs are paid; used = min(d, R), filling the 3-year
// commitment before the 1-year one; the elastic rest d − used splits into spot (× spotShare,
// inflated by the interruption overhead) and on-demand. GPU-hours are summed exactly in
// Decimal and multiplied by each rate once.
PlanCost planCost(const DemandSeries &demand, const PlanMix &mix, const PlanRates &rates, bool withHours)
{
    requireDemand(demand);
    requirePlan(mix, rates);
    const std::string &currency = rates.onDemand.currency;
    const Decimal reserved3y = Decimal::fromInt(mix.reserved3y);
    const Decimal reserved = Decimal::fromInt(mix.reserved3y + mix.reserved1y);
    const Decimal spotFactor = one() + rates.spotOverhead;
    const int64_t hours = int64_t(demand.gpus.size());

    PlanCost cost;
    if (withHours)
        cost.hours.reserve(demand.gpus.size());
    for (Decimal d : demand.gpus) {
        const Decimal used = std::min(d, reserved);
        const Decimal elastic = d - used;
        const Decimal spot = elastic * mix.spotShare;
        const Decimal spotGpuHours = spot * spotFactor;
        cost.reserved3yUsedGpuHours += std::min(used, reserved3y);
        cost.reservedUsedGpuHours += used;
        cost.onDemandGpuHours += elastic - spot;
        cost.spotGpuHours += spotGpuHours;
        if (withHours)
            cost.hours.push_back({used, reserved - used, elastic - spot, spotGpuHours});
    }
    cost.reserved1yUsedGpuHours = cost.reservedUsedGpuHours - cost.reserved3yUsedGpuHours;
    cost.reservedGpuHours = reserved * hours;

    cost.reserved3y = {Decimal(), currency};
    cost.reserved1y = {Decimal(), currency};
    if (mix.reserved3y > 0)
        cost.reserved3y = rates.reserved3y * (mix.reserved3y * hours);
    if (mix.reserved1y > 0)
        cost.reserved1y = rates.reserved1y * (mix.reserved1y * hours);
    cost.reserved = cost.reserved3y + cost.reserved1y;
    cost.onDemand = rates.onDemand * cost.onDemandGpuHours;
    cost.spot = {Decimal(), currency};
    if (mix.spotShare > Decimal())
        cost.spot = rates.spot * cost.spotGpuHours;
    cost.total = cost.reserved + cost.onDemand + cost.spot;
    cost.reservedUtilization = cost.reservedGpuHours.isZero()
        ? 0.0
        : (cost.reservedUsedGpuHours / cost.reservedGpuHours).toDouble();
    return cost;
}

Money elasticRate(const PlanRates &rates, Decimal spotShare)
{
    requireShare("spot_share", spotShare);
    requirePlan(PlanMix{0, 0, spotShare}, rates);
    Money rate = rates.onDemand * (one() - spotShare);
    if (spotShare > Decimal())
        rate += rates.spot * ((one() + rates.spotOverhead) * spotShare);
    return rate;
}

// C(R) = R × r × n + e × Σ max(0, d − R) for every whole R from 0 to ⌈peak⌉ (DESIGN §3.7).
// C(R + 1) − C(R) = r × n − e × Σ_{d > R} min(1, d − R), which for whole-GPU demand is
// r × n − e × #{d > R}: C falls while P(d > R) > r / e and the smallest minimiser is the
// smallest R with P(d > R) ≤ r / e, the critical fractile (newsvendor). The fractile is
// tested exactly, as #{d > R} × e ≤ n × r; with fractional demand it is the continuous
// optimum and may differ from the sweep by one GPU.
ReserveAnalysis analyseReservation(const DemandSeries &demand, const Money &reservedRate, const Money &elasticRate)
{
    requireDemand(demand);
    requirePositive("reserved_rate", reservedRate);
    requirePositive("elastic_rate", elasticRate);
    if (reservedRate.currency != elasticRate.currency)
        throw InputError("currency", "cannot add " + reservedRate.currency + " and " + elasticRate.currency);

    ShortfallWalk walk(demand.gpus);
    // Compared as decimals: a peak past 2^63 must not wrap below the limit on conversion.
    if (walk.peak() > Decimal::fromInt(kMaxSweepGpus))
        throw InputError("demand", "peak demand of " + walk.peak().toString() + " GPUs is above "
                                       + std::to_string(kMaxSweepGpus) + ", the largest reservation swept");
    const int64_t peak = walk.peak().ceilToInteger();
    const int64_t hours = int64_t(demand.gpus.size());
    const Decimal r = reservedRate.amount;
    const Decimal e = elasticRate.amount;
    const Decimal reservedPerGpu = r * hours;

    ReserveAnalysis result;
    result.criticalFractile = r.toDouble() / e.toDouble();
    result.commitmentPays = r < e;
    result.sweep.reserve(size_t(peak + 1));
    bool fractileFound = false;
    Decimal best;
    for (int64_t reserved = 0; reserved <= peak; ++reserved) {
        walk.advance(reserved);
        const Decimal cost = reservedPerGpu * reserved + e * walk.shortfall();
        result.sweep.push_back({reserved, {cost, elasticRate.currency}});
        if (reserved == 0 || cost < best) {
            best = cost;
            result.optimalReserved = reserved;
        }
        if (!fractileFound && e * walk.countAbove() <= reservedPerGpu) {
            fractileFound = true;
            result.fractileReserved = reserved;
        }
    }
    result.costAtOptimum = result.sweep[size_t(result.optimalReserved)].cost;
    result.costAllElastic = result.sweep.front().cost;

    // A tolerance well below one GPU keeps ceil(200.0000000001) from reading as 201.
    const auto ceilGpus = [peak](double q) {
        return std::clamp<int64_t>(static_cast<int64_t>(std::ceil(q - 1e-9)), 0, peak);
    };
    result.p50 = demandQuantile(demand, 0.50);
    result.p75 = demandQuantile(demand, 0.75);
    result.p50Reserved = ceilGpus(result.p50);
    result.p75Reserved = ceilGpus(result.p75);
    result.costAtP50 = result.sweep[size_t(result.p50Reserved)].cost;
    result.costAtP75 = result.sweep[size_t(result.p75Reserved)].cost;
    return result;
}

double breakEvenUtilization(const Money &reservedRate, const Money &onDemandRate)
{
    requirePositive("reserved_rate", reservedRate);
    requirePositive("on_demand_rate", onDemandRate);
    if (reservedRate.currency != onDemandRate.currency)
        throw InputError("currency", "cannot add " + reservedRate.currency + " and " + onDemandRate.currency);
    return reservedRate.amount.toDouble() / onDemandRate.amount.toDouble();
}

std::vector<Sensitivity> sensitivity(const DemandSeries &demand, const PlanMix &mix, const PlanRates &rates,
                                     const std::vector<double> &changes)
{
    requireDemand(demand);
    requirePlan(mix, rates);
    std::vector<Sensitivity> result;
    result.reserve(changes.size());
    for (double change : changes) {
        if (!(change > -1 && change <= 10))
            throw InputError("change", "a demand change must be above -100 % and at most +1000 % (got "
                                           + std::to_string(change) + ")");
        const Decimal factor = Decimal::fromDouble(1 + change);
        DemandSeries scaled = demand;
        for (Decimal &g : scaled.gpus)
            g = g * factor;
        Sensitivity row;
        row.change = change;
        row.plan = planCost(scaled, mix, rates);
        row.total = row.plan.total;
        row.noCommitment = planCost(scaled, PlanMix{0, 0, mix.spotShare}, rates).total;
        result.push_back(std::move(row));
    }
    return result;
}

std::vector<MonthSpend> monthlySpend(const DemandSeries &demand, const PlanMix &mix, const PlanRates &rates,
                                     int hoursPerMonth)
{
    if (hoursPerMonth < 1)
        throw InputError("hours_per_month", "a month must hold at least one hour (got " +
                                                std::to_string(hoursPerMonth) + ")");
    requireDemand(demand);
    std::vector<MonthSpend> months;
    DemandSeries slice;
    for (size_t start = 0; start < demand.gpus.size(); start += size_t(hoursPerMonth)) {
        const size_t end = std::min(demand.gpus.size(), start + size_t(hoursPerMonth));
        slice.gpus.assign(demand.gpus.begin() + std::ptrdiff_t(start), demand.gpus.begin() + std::ptrdiff_t(end));
        const PlanCost month = planCost(slice, mix, rates);
        months.push_back({month.reserved, month.onDemand + month.spot, Money{Decimal(), month.reserved.currency},
                          std::string(), int64_t(end - start)});
    }
    return months;
}

std::vector<MonthSpend> monthlySpend(const DemandSeries &demand, const PlanMix &mix, const PlanRates &rates,
                                     CivilDate start)
{
    requireDemand(demand);
    std::vector<MonthSpend> months;
    DemandSeries slice;
    for (const CalendarMonth &m : calendarMonths(start, int64_t(demand.gpus.size()))) {
        const auto first = demand.gpus.begin() + std::ptrdiff_t(m.firstHour);
        slice.gpus.assign(first, first + std::ptrdiff_t(m.hours));
        const PlanCost month = planCost(slice, mix, rates);
        months.push_back({month.reserved, month.onDemand + month.spot, Money{Decimal(), month.reserved.currency},
                          m.label, m.hours});
    }
    return months;
}

std::vector<MonthSpend> withUpfront(std::vector<MonthSpend> months, Decimal upfrontShare,
                                    const CommitmentObligation &obligation)
{
    requireShare("upfront_share", upfrontShare);
    const Decimal recurring = one() - upfrontShare;
    for (MonthSpend &m : months)
        m.reserved = m.reserved * recurring;
    if (!months.empty())
        months.front().upfront = obligation.upfront;
    return months;
}

ShownColumn shownPlanCost(const PlanCost &cost)
{
    return shownColumn({cost.reserved, cost.onDemand, cost.spot}, cost.total.currency);
}

CommitmentObligation commitmentObligation(int64_t reserved, const Money &rate, Decimal upfrontShare,
                                          CivilDate start, int termMonths, int64_t horizonHours)
{
    requireNonNegative("reserved_gpus", reserved);
    requireNonNegative("horizon_hours", horizonHours);
    requirePositive("reserved_rate", rate);
    requireShare("upfront_share", upfrontShare);
    if (termMonths != 12 && termMonths != 36)
        throw InputError("term_months", "a commitment runs 12 or 36 months (got " + std::to_string(termMonths) + ")");
    CommitmentObligation o;
    o.termMonths = termMonths;
    o.startDate = isoDate(start);
    o.endDate = isoDate(addMonths(start, termMonths));
    o.termHours = termHours(start, termMonths);
    o.horizonHours = horizonHours;
    const int64_t consumed = std::min(horizonHours, o.termHours);
    o.total = rate * Decimal::fromInt(reserved * o.termHours);
    o.upfront = Money{(o.total.amount * upfrontShare).rounded(2), rate.currency};
    o.recurring = o.total - o.upfront;
    o.inHorizon = rate * Decimal::fromInt(reserved * consumed);
    o.shareConsumed = double(consumed) / double(o.termHours);
    o.coversTerm = horizonHours >= o.termHours;
    if (!o.coversTerm && reserved > 0) {
        const std::string years = termMonths == 36 ? "3-year" : "1-year";
        o.warning = "The " + years + " commitment of " + std::to_string(reserved) + " GPUs runs " + o.startDate
                    + " to " + o.endDate + " (" + std::to_string(o.termHours) + " h) and is owed in full: "
                    + o.total.display() + ". The demand series covers only " + std::to_string(horizonHours)
                    + " h of it, so the saving is measured on part of the obligation; use the forecast hand-off "
                      "(Forecast page) to cost the whole term.";
    }
    return o;
}

} // namespace headroom::engine
