#include "actuals.h"

#include "engine/common/calendar.h"
#include "engine/common/errors.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace headroom::engine {

namespace {

constexpr int64_t kHour = 3600;
constexpr int64_t kDay = 86400;
constexpr int64_t kMaxCommitmentHours = 50'000'000;
constexpr int64_t kMaxCommitmentRowHours = 31 * 24;

int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// The clock hours [first, last) a charge period touches; every charge belongs to at least
// the hour it starts in.
std::pair<int64_t, int64_t> hoursOf(const FocusCharge &row)
{
    const int64_t first = floorDiv(row.periodStart, kHour);
    return {first, std::max(first + 1, floorDiv(row.periodEnd - 1, kHour) + 1)};
}

// The largest magnitude of a stored sum: a workspace keeps amounts as decimal text that
// Decimal::parse reads back, at most 27 digits before the point (10^36 - 1 units).
constexpr Decimal::Units kMaxStoredUnits =
    Decimal::Units(1'000'000'000'000'000'000) * Decimal::Units(1'000'000'000'000'000'000) - 1;

// Adds one charge's amount to a sum the summary keeps, refusing the charge whose amount takes
// the sum past what can be stored (each amount is below the bound, and so is the sum before
// it, so the 128-bit addition itself cannot overflow).
// `what` names the sum, only when it is refused.
template <typename Describe>
void addToSum(Decimal &sum, Decimal amount, const FocusCharge &row, const Describe &what)
{
    sum += amount;
    if (sum.units() > kMaxStoredUnits || sum.units() < -kMaxStoredUnits)
        throw InputError("rows", "line " + std::to_string(row.line) + ": " + what() + " reaches " + sum.toString()
                                     + ", more than 27 digits before the decimal point, the most a workspace "
                                       "stores; check the costs and quantities of the file");
}

std::string dayName(const FocusCharges &charges, const FocusCharge &row, int64_t day)
{
    return isoDate(dateFromDays(day)) + " in " + charges.currencies.at(row.currency);
}

[[noreturn]] void broken(const std::string &what)
{
    throw InputError("actuals", "the stored actuals are inconsistent: " + what);
}

} // namespace

ActualsSummary summarizeActuals(const FocusCharges &charges)
{
    ActualsSummary summary;
    summary.currencies = charges.currencies;
    summary.commitments = charges.commitments;
    summary.termEnds.assign(charges.commitments.size(), 0);
    summary.rows = int64_t(charges.rows.size());

    std::map<std::tuple<uint32_t, uint32_t, int64_t, CommitmentStatus>, Decimal> hours;
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> scopes;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, int64_t, int64_t>, Decimal> onDemand;
    std::map<std::pair<uint32_t, int64_t>, DayCost> days;
    std::map<std::pair<uint32_t, uint32_t>, CommitmentRate> rates;
    std::vector<char> hourUnit(charges.names.size(), 0);
    for (size_t i = 0; i < charges.names.size(); ++i)
        hourUnit[i] = isHourUnit(charges.names[i]);
    int64_t hoursHeld = 0;
    for (const FocusCharge &row : charges.rows) {
        const int64_t dayIndex = floorDiv(row.periodStart, kDay);
        DayCost &day = days[{row.currency, dayIndex}];
        addToSum(day.effectiveCost, row.effectiveCost, row,
                 [&] { return "the effective cost of " + dayName(charges, row, dayIndex); });
        addToSum(day.billedCost, row.billedCost, row, [&] { return "the billed cost of " + dayName(charges, row, dayIndex); });
        ++day.rows;
        if (row.category == ChargeCategory::Usage && row.consumedUnit < hourUnit.size() && hourUnit[row.consumedUnit])
            addToSum(day.consumedHours, row.consumedQuantity, row,
                     [&] { return "the consumed hours of " + isoDate(dateFromDays(dayIndex)); });
        if (row.status == CommitmentStatus::Used && row.commitment != 0 && !row.listCost.isZero()) {
            CommitmentRate &rate = rates[{row.commitment, row.currency}];
            const auto commitment = [&] { return "commitment \"" + charges.commitments.at(row.commitment).id + "\""; };
            addToSum(rate.usedEffectiveCost, row.effectiveCost, row, [&] { return "the used effective cost of " + commitment(); });
            addToSum(rate.usedListCost, row.listCost, row, [&] { return "the used list cost of " + commitment(); });
        }
        const auto [first, last] = hoursOf(row);
        if (row.category == ChargeCategory::Purchase && row.commitment != 0
            && row.periodEnd - row.periodStart > 31 * kDay)
            summary.termEnds[row.commitment] = std::max(summary.termEnds[row.commitment], row.periodEnd);
        if (row.status != CommitmentStatus::None && row.commitment != 0) {
            // Hours are held one by one: bound them (a year of hourly rows for 500
            // commitments is 4.4 million).
            if (last - first > kMaxCommitmentRowHours)
                throw InputError("rows", "a charge of commitment \"" + charges.commitments.at(row.commitment).id
                                             + "\" covers " + std::to_string(last - first)
                                             + " hours; commitment usage is read in charges of at most 31 days");
            hoursHeld += last - first;
            if (hoursHeld > kMaxCommitmentHours)
                throw InputError("rows", "the commitment charges cover more than "
                                             + std::to_string(kMaxCommitmentHours)
                                             + " commitment-hours; split the file by period");
            addToSum(hours[{row.commitment, row.currency, first, row.status}], row.effectiveCost, row, [&] {
                return "the hourly cost of commitment \"" + charges.commitments.at(row.commitment).id + "\"";
            });
            for (int64_t h = first + 1; h < last; ++h)
                hours[{row.commitment, row.currency, h, row.status}];
            scopes.insert({row.commitment, row.currency, row.service, row.region});
        } else if (row.category == ChargeCategory::Usage && row.commitment == 0
                   && row.pricing != PricingCategory::Committed) {
            addToSum(onDemand[{row.currency, row.service, row.region, first, last}], row.effectiveCost, row, [&] {
                return "the on-demand cost of " + charges.name(row.service) + " in " + charges.name(row.region);
            });
        }
    }
    summary.commitmentHours.reserve(hours.size());
    for (const auto &[key, cost] : hours) {
        const auto &[commitment, currency, hour, status] = key;
        summary.commitmentHours.push_back({commitment, currency, hour, status, cost});
    }
    for (const auto &[commitment, currency, service, region] : scopes)
        summary.scopes.push_back({commitment, currency, charges.name(service), charges.name(region)});
    for (const auto &[key, cost] : onDemand) {
        const auto &[currency, service, region, first, last] = key;
        summary.onDemand.push_back({currency, charges.name(service), charges.name(region), first, last, cost});
    }
    std::sort(summary.scopes.begin(), summary.scopes.end(), [](const CommitmentScope &a, const CommitmentScope &b) {
        return std::tie(a.commitment, a.currency, a.service, a.region)
            < std::tie(b.commitment, b.currency, b.service, b.region);
    });
    std::sort(summary.onDemand.begin(), summary.onDemand.end(), [](const OnDemandCost &a, const OnDemandCost &b) {
        return std::tie(a.currency, a.service, a.region, a.firstHour, a.lastHour)
            < std::tie(b.currency, b.service, b.region, b.firstHour, b.lastHour);
    });
    for (auto &[key, day] : days) {
        day.currency = key.first;
        day.day = key.second;
        summary.days.push_back(day);
    }
    for (auto &[key, rate] : rates) {
        rate.commitment = key.first;
        rate.currency = key.second;
        summary.rates.push_back(rate);
    }
    return summary;
}

bool isHourUnit(const std::string &unit)
{
    std::string lower;
    for (char c : unit)
        lower += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    while (!lower.empty() && lower.back() == ' ')
        lower.pop_back();
    if (lower == "h" || lower == "hr" || lower == "hrs" || lower == "hour" || lower == "hours")
        return true;
    // "<what> hours" or "<what>-hours" for something counted whole: not GB-hours and the like.
    for (const char *what : {"gpu", "gpus", "instance", "node", "vm", "machine", "accelerator", "compute"})
        for (const char *separator : {" ", "-"})
            for (const char *hours : {"hour", "hours", "hrs"})
                if (lower == std::string(what) + separator + hours)
                    return true;
    return false;
}

ActualsSummary actualsSince(const ActualsSummary &actuals, int64_t fromSeconds)
{
    const int64_t fromHour = floorDiv(fromSeconds, kHour);
    const int64_t fromDay = floorDiv(fromSeconds, kDay);
    ActualsSummary kept = actuals;
    kept.commitmentHours.clear();
    kept.onDemand.clear();
    kept.days.clear();
    kept.rows = 0;
    for (const CommitmentHourCost &h : actuals.commitmentHours)
        if (h.hour >= fromHour)
            kept.commitmentHours.push_back(h);
    for (const OnDemandCost &o : actuals.onDemand)
        if (o.firstHour >= fromHour)
            kept.onDemand.push_back(o);
    for (const DayCost &d : actuals.days)
        if (d.day >= fromDay) {
            kept.days.push_back(d);
            kept.rows += d.rows;
        }
    return kept;
}

void validate(const ActualsSummary &actuals)
{
    const size_t currencies = actuals.currencies.size();
    const size_t commitments = actuals.commitments.size();
    if (commitments == 0 || actuals.termEnds.size() != commitments)
        broken("the commitment list does not match its term ends");
    for (size_t i = 1; i < commitments; ++i)
        if (actuals.commitments[i].id.empty())
            broken("commitment " + std::to_string(i) + " has no id");
    for (size_t i = 0; i < actuals.commitmentHours.size(); ++i) {
        const CommitmentHourCost &h = actuals.commitmentHours[i];
        if (h.commitment == 0 || h.commitment >= commitments || h.currency >= currencies
            || h.status == CommitmentStatus::None)
            broken("a commitment hour names an unknown commitment, currency or status");
        if (i > 0) {
            const CommitmentHourCost &p = actuals.commitmentHours[i - 1];
            if (std::tie(p.commitment, p.currency, p.hour, p.status) >= std::tie(h.commitment, h.currency, h.hour, h.status))
                broken("commitment hours are not in order or repeat a key");
        }
    }
    for (const CommitmentScope &s : actuals.scopes)
        if (s.commitment == 0 || s.commitment >= commitments || s.currency >= currencies)
            broken("a commitment scope names an unknown commitment or currency");
    for (const OnDemandCost &o : actuals.onDemand)
        if (o.currency >= currencies || o.lastHour <= o.firstHour)
            broken("an on-demand cost names an unknown currency or an empty period");
    for (size_t i = 0; i < actuals.rates.size(); ++i) {
        const CommitmentRate &r = actuals.rates[i];
        if (r.commitment == 0 || r.commitment >= commitments || r.currency >= currencies)
            broken("a commitment rate names an unknown commitment or currency");
        if (i > 0 && std::tie(actuals.rates[i - 1].commitment, actuals.rates[i - 1].currency) >= std::tie(r.commitment, r.currency))
            broken("commitment rates are not in order or repeat a key");
    }
    for (size_t i = 0; i < actuals.days.size(); ++i) {
        const DayCost &d = actuals.days[i];
        if (d.currency >= currencies || d.rows < 0)
            broken("a daily cost names an unknown currency");
        if (i > 0 && std::tie(actuals.days[i - 1].currency, actuals.days[i - 1].day) >= std::tie(d.currency, d.day))
            broken("daily costs are not in order or repeat a day");
    }
}

} // namespace headroom::engine
