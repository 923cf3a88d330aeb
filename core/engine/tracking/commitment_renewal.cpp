#include "commitment_renewal.h"

#include "engine/common/errors.h"
#include "engine/forecast/forecast.h"
#include "engine/forecast/forecast_backtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace headroom::engine {

namespace {

constexpr int64_t kHour = 3600;
constexpr int64_t kDay = 86400;
constexpr int64_t kUnitsPerCommitment = 1000;   // the optimizer's unit: 0.1 % of the commitment
constexpr int kWeekHours = 168;                 // less measured demand than this gets a caution

int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

std::string percent(double share)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", share * 100.0);
    return text;
}

std::string ratioText(double ratio)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", ratio);
    return text;
}

std::string amount(const Decimal &value, const std::string &currency)
{
    return Money{value, currency}.display();
}

std::string mase(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// The cost of committing `reserved` per hour over the measured hours, overflow at `ratio` × the
// committed price: reserved × hours + ratio × Σ (d_h − reserved)⁺.
Decimal measuredCost(const std::vector<Decimal> &demand, const Decimal &reserved, const Decimal &ratio)
{
    Decimal over;
    for (const Decimal &d : demand)
        if (d > reserved)
            over += d - reserved;
    return reserved * int64_t(demand.size()) + over * ratio;
}

// Σ min(d_h, reserved) ÷ (reserved × hours); 0 when nothing is reserved.
double measuredUtilization(const std::vector<Decimal> &demand, const Decimal &reserved)
{
    if (reserved.isZero())
        return 0.0;
    Decimal used;
    for (const Decimal &d : demand)
        used += std::min(d, reserved);
    return (used / (reserved * int64_t(demand.size()))).toDouble();
}

} // namespace

std::vector<CommitmentRecommendation> recommendCommitments(const ActualsSummary &actuals, const RenewalOptions &options)
{
    if (options.termHours < 1 || options.termHours > kMaxTermHours)
        throw InputError("term_hours", "the next term must be 1 … " + std::to_string(kMaxTermHours) + " hours, got "
                                           + std::to_string(options.termHours));
    if (options.historyHours < 2)
        throw InputError("history_hours", "the forecast needs at least 2 hours of measured demand");
    if (options.paths < 1 || options.paths > 100)
        throw InputError("paths", "simulate 1 … 100 paths, got " + std::to_string(options.paths));
    if (!std::isfinite(options.onDemandRatio) || options.onDemandRatio < 0.0)
        throw InputError("on_demand_ratio", "the on-demand ÷ committed price ratio must be a number ≥ 0 (0: from ListCost)");

    // Which commitments cover each service, region and currency: their overflow is shared.
    std::map<std::tuple<std::string, std::string, uint32_t>, std::set<uint32_t>> covering;
    for (const CommitmentScope &scope : actuals.scopes)
        covering[{scope.service, scope.region, scope.currency}].insert(scope.commitment);

    std::vector<CommitmentRecommendation> result;
    const auto &hours = actuals.commitmentHours;
    for (size_t begin = 0; begin < hours.size();) {
        size_t end = begin;
        while (end < hours.size() && hours[end].commitment == hours[begin].commitment
               && hours[end].currency == hours[begin].currency)
            ++end;
        const uint32_t commitment = hours[begin].commitment;
        const uint32_t currencyIndex = hours[begin].currency;
        CommitmentRecommendation rec;
        rec.id = actuals.commitments.at(commitment).id;
        rec.name = actuals.commitments.at(commitment).name;
        rec.currency = actuals.currencies.at(currencyIndex);
        rec.termEnd = actuals.termEnds.at(commitment);

        // Used cost per hour, the commitment's size and the hours with something unused.
        // A charge longer than an hour is held as its cost in its first hour and zero-cost
        // entries for the hours after it (ActualsSummary): its cost is spread evenly again.
        std::map<int64_t, Decimal> used, total;
        std::set<int64_t> unusedHours;
        for (const CommitmentStatus status : {CommitmentStatus::Used, CommitmentStatus::Unused}) {
            std::vector<std::pair<int64_t, Decimal>> entries;
            for (size_t i = begin; i < end; ++i)
                if (hours[i].status == status)
                    entries.push_back({hours[i].hour, hours[i].effectiveCost});
            for (size_t k = 0; k < entries.size();) {
                size_t last = k + 1;
                while (last < entries.size() && entries[last].second.isZero()
                       && entries[last].first == entries[last - 1].first + 1)
                    ++last;
                const Decimal share = entries[k].second / int64_t(last - k);
                for (size_t j = k; j < last; ++j) {
                    total[entries[j].first] += share;
                    if (status == CommitmentStatus::Used)
                        used[entries[j].first] += share;
                    else
                        unusedHours.insert(entries[j].first);
                }
                k = last;
            }
        }
        Decimal size;
        for (const auto &[hour, cost] : total)
            size = std::max(size, cost);
        rec.currentPerHour = size;
        int64_t firstHour = hours[begin].hour;
        int64_t lastHour = hours[end - 1].hour;

        // Overflow per hour, in on-demand money.
        std::map<int64_t, Decimal> overflow;
        std::set<std::pair<std::string, std::string>> scopes;
        for (const CommitmentScope &scope : actuals.scopes)
            if (scope.commitment == commitment && scope.currency == currencyIndex)
                scopes.insert({scope.service, scope.region});
        for (const OnDemandCost &cost : actuals.onDemand) {
            if (cost.currency != currencyIndex || !scopes.count({cost.service, cost.region}))
                continue;
            const auto it = unusedHours.lower_bound(cost.firstHour);
            if (it != unusedHours.end() && *it < cost.lastHour)
                continue;
            const int64_t sharing = int64_t(covering[{cost.service, cost.region, currencyIndex}].size());
            const Decimal perHour = cost.effectiveCost / ((cost.lastHour - cost.firstHour) * std::max<int64_t>(1, sharing));
            for (int64_t h = cost.firstHour; h < cost.lastHour; ++h)
                overflow[h] += perHour;
            lastHour = std::max(lastHour, cost.lastHour - 1);
        }
        const int64_t endAsOf = (lastHour + 1) * kHour;
        const int64_t asOf = options.asOf != 0 ? options.asOf : endAsOf;
        if (rec.termEnd > 0)
            rec.daysToRenewal = floorDiv(rec.termEnd - asOf, kDay);

        // The price ratio.
        Decimal ratio;
        if (options.onDemandRatio > 0.0) {
            ratio = Decimal::fromDouble(options.onDemandRatio);
        } else {
            for (const CommitmentRate &rate : actuals.rates)
                if (rate.commitment == commitment && rate.currency == currencyIndex && !rate.usedEffectiveCost.isZero())
                    ratio = rate.usedListCost / rate.usedEffectiveCost;
        }
        begin = end;
        if (ratio.isZero()) {
            rec.reasoning = "No recommendation: the commitment's Used rows state no ListCost, so the on-demand price "
                            "it saves against is unknown; give the on-demand ÷ committed price ratio.";
            result.push_back(std::move(rec));
            continue;
        }
        rec.onDemandRatio = ratio.toDouble();
        if (!size.isNegative() && size.isZero()) {
            rec.reasoning = "No recommendation: the commitment charged nothing in any hour, so it has no size to compare.";
            result.push_back(std::move(rec));
            continue;
        }
        if (size.isNegative()) {
            rec.reasoning = "No recommendation: the commitment's hourly charges are negative.";
            result.push_back(std::move(rec));
            continue;
        }

        // Measured demand d_h, money per hour at the committed price, over the trailing history.
        firstHour = std::max(firstHour, lastHour + 1 - options.historyHours);
        const int n = int(lastHour + 1 - firstHour);
        rec.historyHours = n;
        std::vector<Decimal> demand(static_cast<size_t>(n));
        for (int64_t h = firstHour; h <= lastHour; ++h) {
            Decimal d;
            if (const auto it = used.find(h); it != used.end())
                d += it->second;
            if (const auto it = overflow.find(h); it != overflow.end())
                d += it->second / ratio;
            demand[size_t(h - firstHour)] = std::max(d, Decimal());
        }
        Decimal sum, peak;
        for (const Decimal &d : demand) {
            sum += d;
            peak = std::max(peak, d);
            rec.demandPerHour.push_back(d.toDouble());
        }
        rec.measuredMeanPerHour = sum / int64_t(n);
        rec.measuredPeakPerHour = peak;
        if (n < 2) {
            rec.reasoning = "No recommendation: the commitment has only 1 hour of measured demand; the forecast needs 2.";
            result.push_back(std::move(rec));
            continue;
        }

        // The optimizer, in units of C ÷ 1000.
        const Decimal unit = size / kUnitsPerCommitment;
        const double unitValue = unit.toDouble();
        std::vector<double> history;
        history.reserve(demand.size());
        for (const Decimal &d : demand)
            history.push_back(d.toDouble() / unitValue);
        SmoothingSpec spec;
        if (n >= 48) {
            spec.season = SeasonKind::Additive;
            spec.period = 24;
        }
        const SmoothingModel model = fitSmoothing(history, spec);
        ReservationForecastOptions forecastOptions;
        forecastOptions.termHours = options.termHours;
        forecastOptions.paths = options.paths;
        forecastOptions.seed = options.seed;
        forecastOptions.reservedRate = Money{unit, rec.currency};
        forecastOptions.elasticRate = Money{unit * ratio, rec.currency};
        // Around the point forecast: a whole term simulated hour by hour from a few weeks of
        // history lets the level wander to zero or double, and the optimum follows the wander.
        forecastOptions.spread = PathSpread::AroundPoint;
        const ReservationHandOff handOff = reservationFromForecast(history, {model}, forecastOptions);

        const int64_t term = options.termHours;
        const int64_t pooledHours = int64_t(options.paths) * term;
        const auto expectedCost = [&](int64_t reserved) {
            Decimal pooled;
            if (size_t(reserved) < handOff.onForecast.sweep.size())
                pooled = handOff.onForecast.sweep[size_t(reserved)].cost.amount;
            else
                pooled = unit * pooledHours * reserved;
            return pooled / int64_t(options.paths);
        };
        double meanTotal = 0.0;   // expected Σ demand over the term, units × hours
        for (double v : handOff.forecastMean)
            meanTotal += v;
        const auto utilization = [&](int64_t reserved) {
            if (reserved == 0)
                return 0.0;
            // cost(R) = R × unit × T + elastic × E[Σ (D − R)⁺], so E[Σ min(D, R)] = E[Σ D] − E[Σ (D − R)⁺].
            const double excess = (expectedCost(reserved) - unit * term * reserved).toDouble()
                / (unitValue * rec.onDemandRatio);
            return std::clamp((meanTotal - excess) / (double(reserved) * double(term)), 0.0, 1.0);
        };
        const int64_t forecastChoice = handOff.forecastOptimum.reserved;
        rec.forecastRecommendedPerHour = unit * forecastChoice;
        rec.forecastUtilization = utilization(forecastChoice);
        rec.forecastSavingPerTerm = Money{expectedCost(kUnitsPerCommitment) - expectedCost(forecastChoice), rec.currency};
        rec.measuredUtilization = measuredUtilization(demand, size);

        // Whether the forecast may drive: enough hours to fit its season and check it on a day.
        if (n < kForecastHours) {
            rec.basis = RenewalBasis::Measured;
            rec.basisReason = "the forecast was fitted on " + std::to_string(n) + " h, fewer than the "
                + std::to_string(kForecastHours) + " h it needs (two days to fit the daily season, one more to check "
                  "it on)";
        } else {
            BacktestOptions check;
            check.origins = 1;
            check.horizon = 24;
            check.quantiles = {};
            check.paths = 20;
            try {
                const BacktestResult backtest = backtestSmoothing(history, spec, {}, check);
                rec.backtestMase = backtest.mase;
                if (backtest.mase > 1.0) {
                    rec.basis = RenewalBasis::Measured;
                    rec.basisReason = "on the last measured day the forecast did worse than repeating the day before "
                                      "(MASE " + mase(backtest.mase) + ")";
                }
            } catch (const InputError &) {
                // The days before the last repeat exactly, so nothing scales the forecast's error
                // (MASE): the measured hours say all there is.
                rec.basis = RenewalBasis::Measured;
                rec.basisReason = "the days before the last measured one repeat exactly, so the forecast could not be "
                                  "checked against repeating them";
            }
        }
        const bool measured = rec.basis == RenewalBasis::Measured;
        const int64_t recommended = measured ? handOff.lookbackOptimum.reserved : forecastChoice;
        rec.recommendedPerHour = unit * recommended;
        if (measured) {
            // The measured hours repeated over the term.
            const auto overTerm = [&](const Decimal &reserved) {
                return Money{measuredCost(demand, reserved, ratio) * term / int64_t(n), rec.currency};
            };
            rec.currentUtilization = rec.measuredUtilization;
            rec.recommendedUtilization = measuredUtilization(demand, rec.recommendedPerHour);
            rec.currentTermCost = overTerm(size);
            rec.recommendedTermCost = overTerm(rec.recommendedPerHour);
        } else {
            rec.currentUtilization = utilization(kUnitsPerCommitment);
            rec.recommendedUtilization = rec.forecastUtilization;
            rec.currentTermCost = Money{expectedCost(kUnitsPerCommitment), rec.currency};
            rec.recommendedTermCost = Money{expectedCost(recommended), rec.currency};
        }
        rec.savingPerTerm = Money{rec.currentTermCost.amount - rec.recommendedTermCost.amount, rec.currency};
        rec.available = true;

        std::string why = "Measured demand over the last " + std::to_string(n) + " h averaged "
            + amount(rec.measuredMeanPerHour, rec.currency) + "/h at the committed price (peak "
            + amount(rec.measuredPeakPerHour, rec.currency) + "/h) against a commitment of "
            + amount(size, rec.currency) + "/h: " + percent(rec.measuredUtilization) + " used. ";
        if (measured)
            why += "Not the forecast but the measured hours drive this recommendation: " + rec.basisReason
                + ". With on-demand "
                + ratioText(rec.onDemandRatio) + "× the committed price, the reservation optimizer on the measured "
                  "hours repeated over the next " + std::to_string(term) + " h ";
        else
            why += "With on-demand " + ratioText(rec.onDemandRatio)
                + "× the committed price, the reservation optimizer on a Holt-Winters forecast of the next "
                + std::to_string(term) + " h (its expected path with the hour-to-hour spread of the history, "
                + std::to_string(options.paths) + " paths; on the last measured day it did "
                + (*rec.backtestMase < 1.0 ? "better than" : "as well as") + " repeating the day before, MASE "
                + mase(*rec.backtestMase) + ") ";
        if (recommended == kUnitsPerCommitment) {
            why += "keeps the commitment at " + amount(rec.recommendedPerHour, rec.currency) + "/h";
        } else if (recommended == 0) {
            why += "commits nothing: let it expire and run on demand";
        } else {
            why += std::string(recommended < kUnitsPerCommitment ? "lowers" : "raises") + " it to "
                + amount(rec.recommendedPerHour, rec.currency) + "/h";
        }
        if (recommended == 0)
            why += " (the current size would be " + percent(rec.currentUtilization) + " utilized), ";
        else
            why += ": expected utilization " + percent(rec.recommendedUtilization) + " against "
                + percent(rec.currentUtilization) + " at the current size, ";
        if (rec.savingPerTerm.amount.isNegative())
            why += "costing " + amount(-rec.savingPerTerm.amount, rec.currency) + " more per term";
        else
            why += "saving " + amount(rec.savingPerTerm.amount, rec.currency) + " per term";
        why += " (" + amount(rec.recommendedTermCost.amount, rec.currency) + " against "
            + amount(rec.currentTermCost.amount, rec.currency) + ").";
        // The other answer, for comparison: they differ where the forecast carries a trend, a
        // season or a recent change.
        if (measured)
            why += " The forecast alone would commit " + amount(rec.forecastRecommendedPerHour, rec.currency)
                + "/h and claim a saving of " + amount(rec.forecastSavingPerTerm.amount, rec.currency) + " per term.";
        else
            why += " On the measured hours alone the optimizer would commit "
                + amount(unit * handOff.lookbackOptimum.reserved, rec.currency) + "/h.";
        if (n < kWeekHours)
            why += " Only " + std::to_string(n) + " h of measured demand: less than a week shows neither the weekly "
                   "pattern nor whether a recent change lasts, so read these figures as a first indication and "
                   "re-run with more history before renewing.";
        if (rec.daysToRenewal)
            why += *rec.daysToRenewal >= 0 ? " Renewal in " + std::to_string(*rec.daysToRenewal) + " days."
                                           : " The term ended " + std::to_string(-*rec.daysToRenewal) + " days ago.";
        rec.reasoning = std::move(why);
        result.push_back(std::move(rec));
    }
    std::stable_sort(result.begin(), result.end(), [](const CommitmentRecommendation &x, const CommitmentRecommendation &y) {
        return std::tie(x.id, x.currency) < std::tie(y.id, y.currency);
    });
    return result;
}

} // namespace headroom::engine
