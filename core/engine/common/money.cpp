#include "money.h"

#include "errors.h"

#include <cmath>
#include <limits>

namespace headroom::engine {

namespace {

using Units = Decimal::Units;

constexpr Units kOne = 1'000'000'000; // 10^kScale
// Whole digits a parsed value may have: 10^27 × 10^9 units stays far inside __int128 (1.7 × 10^38).
constexpr int kMaxIntegerDigits = 27;

[[noreturn]] void outOfRange()
{
    throw InputError("amount", "amount out of range");
}

Units pow10(int exponent)
{
    Units result = 1;
    for (int i = 0; i < exponent; ++i)
        result *= 10;
    return result;
}

Units absolute(Units value)
{
    return value < 0 ? -value : value;
}

// numerator / denominator rounded half away from zero; denominator ≠ 0.
Units divideRounded(Units numerator, Units denominator)
{
    Units quotient = numerator / denominator;
    const Units remainder = absolute(numerator % denominator);
    const Units magnitude = absolute(denominator);
    if (remainder >= magnitude - remainder)
        quotient += ((numerator < 0) != (denominator < 0)) ? -1 : 1;
    return quotient;
}

Units checkedAdd(Units a, Units b)
{
    Units sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        outOfRange();
    return sum;
}

Units checkedMultiply(Units a, Units b)
{
    Units product = 0;
    if (__builtin_mul_overflow(a, b, &product))
        outOfRange();
    return product;
}

std::string digitsOf(Units magnitude)
{
    if (magnitude == 0)
        return "0";
    std::string text;
    while (magnitude > 0) {
        text.insert(text.begin(), char('0' + int(magnitude % 10)));
        magnitude /= 10;
    }
    return text;
}

// "1234567" → "1,234,567"
std::string groupThousands(const std::string &digits)
{
    std::string grouped;
    const size_t n = digits.size();
    for (size_t i = 0; i < n; ++i) {
        if (i > 0 && (n - i) % 3 == 0)
            grouped += ',';
        grouped += digits[i];
    }
    return grouped;
}

} // namespace

Decimal Decimal::fromUnits(Units units)
{
    Decimal d;
    d.m_units = units;
    return d;
}

Decimal Decimal::fromInt(int64_t value)
{
    return fromUnits(Units(value) * kOne);
}

std::optional<Decimal> Decimal::parse(std::string_view text)
{
    size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        negative = text[i] == '-';
        ++i;
    }
    const size_t wholeBegin = i;
    Units whole = 0;
    int wholeDigits = 0;
    bool significant = false;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        significant = significant || text[i] != '0';
        if (significant && ++wholeDigits > kMaxIntegerDigits)
            return std::nullopt;
        whole = whole * 10 + (text[i] - '0');
    }
    const bool hadWhole = i > wholeBegin;
    Units fraction = 0;
    int fractionDigits = 0;
    if (i < text.size() && text[i] == '.') {
        ++i;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            if (++fractionDigits > kScale)
                return std::nullopt;
            fraction = fraction * 10 + (text[i] - '0');
        }
    }
    if (i != text.size() || (!hadWhole && fractionDigits == 0))
        return std::nullopt;
    const Units units = whole * kOne + fraction * pow10(kScale - fractionDigits);
    return fromUnits(negative ? -units : units);
}

Decimal Decimal::fromDouble(double value)
{
    if (!std::isfinite(value) || std::fabs(value) > 1e27)
        throw InputError("value", "value must be a finite number of at most 27 digits");
    const long double whole = std::trunc(static_cast<long double>(value));
    const long double fraction = static_cast<long double>(value) - whole;
    const Units wholeUnits = static_cast<Units>(whole) * kOne;
    return fromUnits(wholeUnits + static_cast<Units>(std::round(fraction * 1e9L)));
}

double Decimal::toDouble() const
{
    return static_cast<double>(m_units / kOne) + static_cast<double>(m_units % kOne) / 1e9;
}

namespace {

// A whole number as int64_t; throws rather than wrap when it does not fit.
int64_t toInt64(Decimal::Units whole, const Decimal &value)
{
    if (whole > std::numeric_limits<int64_t>::max() || whole < std::numeric_limits<int64_t>::min())
        throw InputError("value", value.toString() + " is outside the 64-bit integer range");
    return static_cast<int64_t>(whole);
}

} // namespace

int64_t Decimal::toIntegerTruncated() const
{
    return toInt64(m_units / kOne, *this);
}

int64_t Decimal::ceilToInteger() const
{
    Units whole = m_units / kOne;
    if (m_units % kOne > 0)
        ++whole;
    return toInt64(whole, *this);
}

Decimal Decimal::rounded(int decimals) const
{
    if (decimals < 0 || decimals > kScale)
        throw InputError("decimals", "decimals must be between 0 and 9 (got " + std::to_string(decimals) + ")");
    const Units step = pow10(kScale - decimals);
    return fromUnits(divideRounded(m_units, step) * step);
}

std::string Decimal::toString() const
{
    const Units magnitude = absolute(m_units);
    std::string text = (m_units < 0 ? "-" : "") + digitsOf(magnitude / kOne);
    Units fraction = magnitude % kOne;
    if (fraction == 0)
        return text;
    int digits = kScale;
    while (fraction % 10 == 0) {
        fraction /= 10;
        --digits;
    }
    const std::string fractionText = digitsOf(fraction);
    return text + '.' + std::string(size_t(digits) - fractionText.size(), '0') + fractionText;
}

std::string Decimal::toString(int decimals) const
{
    const Units value = rounded(decimals).m_units;
    const Units magnitude = absolute(value);
    std::string text = (value < 0 ? "-" : "") + digitsOf(magnitude / kOne);
    if (decimals == 0)
        return text;
    const std::string fractionText = digitsOf((magnitude % kOne) / pow10(kScale - decimals));
    return text + '.' + std::string(size_t(decimals) - fractionText.size(), '0') + fractionText;
}

Decimal &Decimal::operator+=(Decimal other)
{
    m_units = checkedAdd(m_units, other.m_units);
    return *this;
}

Decimal &Decimal::operator-=(Decimal other)
{
    Units difference = 0;
    if (__builtin_sub_overflow(m_units, other.m_units, &difference))
        outOfRange();
    m_units = difference;
    return *this;
}

// a × b / 10^9 without forming the full 36-digit product: with |a| = whole × 10^9 + part,
// |a × b| / 10^9 = whole × |b| + part × |b| / 10^9, and only the second term needs rounding.
Decimal operator*(Decimal a, Decimal b)
{
    const Units x = absolute(a.m_units);
    const Units y = absolute(b.m_units);
    const Units exact = checkedMultiply(x / kOne, y);
    const Units rest = divideRounded(checkedMultiply(x % kOne, y), kOne);
    const Units magnitude = checkedAdd(exact, rest);
    return Decimal::fromUnits((a.m_units < 0) != (b.m_units < 0) ? -magnitude : magnitude);
}

Decimal operator*(Decimal a, int64_t n)
{
    return Decimal::fromUnits(checkedMultiply(a.m_units, Units(n)));
}

// a / b × 10^9 as quotient × 10^9 + remainder × 10^9 / b, so that only the remainder is scaled.
Decimal operator/(Decimal a, Decimal b)
{
    if (b.m_units == 0)
        throw InputError("divisor", "division by zero");
    const Units x = absolute(a.m_units);
    const Units y = absolute(b.m_units);
    const Units whole = checkedMultiply(x / y, kOne);
    const Units rest = divideRounded(checkedMultiply(x % y, kOne), y);
    const Units magnitude = checkedAdd(whole, rest);
    return Decimal::fromUnits((a.m_units < 0) != (b.m_units < 0) ? -magnitude : magnitude);
}

Decimal operator/(Decimal a, int64_t n)
{
    if (n == 0)
        throw InputError("divisor", "division by zero");
    return Decimal::fromUnits(divideRounded(a.m_units, Units(n)));
}

Money Money::parse(std::string_view text, std::string currency)
{
    const std::optional<Decimal> amount = Decimal::parse(text);
    if (!amount)
        throw InputError("amount", "not a decimal amount: \"" + std::string(text)
                                       + "\" (digits with an optional '.' and up to 9 decimals)");
    return {*amount, std::move(currency)};
}

Money &Money::operator+=(const Money &other)
{
    if (other.currency != currency)
        throw InputError("currency", "cannot add " + currency + " and " + other.currency);
    amount += other.amount;
    return *this;
}

Money &Money::operator-=(const Money &other)
{
    if (other.currency != currency)
        throw InputError("currency", "cannot subtract " + other.currency + " from " + currency);
    amount -= other.amount;
    return *this;
}

std::string Money::display() const
{
    const std::string text = amount.toString(2);
    const bool negative = text.front() == '-';
    const size_t point = text.find('.');
    const size_t begin = negative ? 1 : 0;
    const std::string number = groupThousands(text.substr(begin, point - begin)) + text.substr(point);
    const std::string sign = negative ? "-" : "";
    if (currency == "USD")
        return sign + "$" + number;
    if (currency == "EUR")
        return sign + "\u20ac" + number;
    if (currency == "GBP")
        return sign + "\u00a3" + number;
    return sign + number + " " + currency;
}

std::string Money::displayRate() const
{
    const std::string exact = amount.toString();
    const size_t point = exact.find('.');
    if (point == std::string::npos || exact.size() - point - 1 <= 2)
        return display();
    if (amount.isNegative())
        return "-" + Money{-amount, currency}.displayRate();
    // More than two decimals: the first two truncated (display() then cannot round them),
    // the remaining digits written after them.
    const std::string shown = Money{*Decimal::parse(exact.substr(0, point + 3)), currency}.display();
    const size_t end = shown.find('.') + 3;
    return shown.substr(0, end) + exact.substr(point + 3) + shown.substr(end);
}

Money sumOfShownCents(const Money *first, const Money *last)
{
    Money total{Decimal(), first != last ? first->currency : std::string("USD")};
    for (const Money *m = first; m != last; ++m)
        total += Money{m->amount.rounded(2), m->currency};
    return total;
}

ShownColumn shownColumn(const std::vector<Money> &parts, const std::string &currency)
{
    ShownColumn column;
    column.total = Money{Decimal(), parts.empty() ? currency : parts.front().currency};
    for (const Money &part : parts) {
        column.parts.push_back(Money{part.amount.rounded(2), part.currency});
        column.total += column.parts.back();
    }
    return column;
}

Money shownDifference(const Money &a, const Money &b)
{
    return Money{a.amount.rounded(2), a.currency} - Money{b.amount.rounded(2), b.currency};
}

bool reAdds(const ShownColumn &column)
{
    Money sum{Decimal(), column.total.currency};
    for (const Money &part : column.parts) {
        if (part.amount.rounded(2) != part.amount || part.currency != sum.currency)
            return false;
        sum += part;
    }
    return column.total.amount.rounded(2) == column.total.amount && sum == column.total;
}

} // namespace headroom::engine
