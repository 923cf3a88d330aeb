#include "ratecard.h"

#include <algorithm>

namespace headroom::engine {

namespace {

constexpr int kMaxLeadWeeks = 104; // two years from order to capacity

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Proleptic Gregorian yyyy-mm-dd with a real day of the month.
bool isIsoDate(const std::string &text)
{
    if (text.size() != 10 || text[4] != '-' || text[7] != '-')
        return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
        if (!isDigit(text[i]))
            return false;
    }
    const int year = std::stoi(text.substr(0, 4));
    const int month = std::stoi(text.substr(5, 2));
    const int day = std::stoi(text.substr(8, 2));
    if (month < 1 || month > 12 || day < 1)
        return false;
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

bool isCurrencyCode(const std::string &code)
{
    return code.size() == 3
        && std::all_of(code.begin(), code.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

void requireText(std::vector<FieldProblem> &problems, const char *field, const std::string &value)
{
    if (value.empty())
        problems.push_back({field, std::string(field) + " must not be empty"});
}

void requireShare(std::vector<FieldProblem> &problems, const char *field, Decimal value)
{
    if (value < Decimal() || value > Decimal::fromInt(1))
        problems.push_back({field, std::string(field) + " must be between 0 and 1 (got "
                                       + value.toString() + ")"});
}

// An optional rate: 0 means not offered; otherwise it must undercut on-demand.
void requireDiscount(std::vector<FieldProblem> &problems, const char *field, Decimal rate,
                     Decimal onDemand, bool committed)
{
    if (rate.isNegative()) {
        problems.push_back({field, std::string(field) + " must not be negative (got "
                                       + rate.toString() + ")"});
        return;
    }
    if (!rate.isZero() && onDemand > Decimal() && rate >= onDemand)
        problems.push_back({field, std::string(field) + " of " + rate.toString()
                                       + " is at or above on-demand " + onDemand.toString()
                                       + (committed ? ": the commitment never pays"
                                                    : ": spot never pays")});
}

} // namespace

std::vector<FieldProblem> validate(const RateCard &card)
{
    std::vector<FieldProblem> problems;
    requireText(problems, "provider", card.provider);
    requireText(problems, "region", card.region);
    requireText(problems, "gpu", card.gpuId);
    if (!isCurrencyCode(card.currency))
        problems.push_back({"currency", "currency must be a three-letter ISO 4217 code in capitals (got \""
                                            + card.currency + "\")"});
    if (!isIsoDate(card.effectiveDate))
        problems.push_back({"effective_date", "effective_date must be a date as yyyy-mm-dd (got \""
                                                  + card.effectiveDate + "\")"});
    if (!(card.onDemand > Decimal()))
        problems.push_back({"on_demand", "on_demand must be greater than 0 (got "
                                             + card.onDemand.toString() + ")"});
    requireDiscount(problems, "reserved_1y", card.reserved1y, card.onDemand, true);
    requireShare(problems, "reserved_1y_upfront", card.reserved1yUpfront);
    requireDiscount(problems, "reserved_3y", card.reserved3y, card.onDemand, true);
    requireShare(problems, "reserved_3y_upfront", card.reserved3yUpfront);
    requireDiscount(problems, "spot", card.spot, card.onDemand, false);
    requireShare(problems, "spot_interruption_rate", card.spotInterruptionRate);
    if (card.reservationLeadWeeks < 0 || card.reservationLeadWeeks > kMaxLeadWeeks)
        problems.push_back({"lead_weeks", "lead_weeks must be between 0 and "
                                              + std::to_string(kMaxLeadWeeks) + " (got "
                                              + std::to_string(card.reservationLeadWeeks) + ")"});
    return problems;
}

const RateCard *cardInForce(const std::vector<RateCard> &cards, const std::string &historyKey,
                            const std::string &date)
{
    // ISO dates order as text.
    const RateCard *best = nullptr;
    for (const RateCard &card : cards) {
        if (card.historyKey() != historyKey || card.effectiveDate > date)
            continue;
        if (!best || card.effectiveDate > best->effectiveDate)
            best = &card;
    }
    return best;
}

} // namespace headroom::engine
