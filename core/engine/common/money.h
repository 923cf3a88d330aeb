#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Exact decimal arithmetic for money and quantities (DESIGN §2): never binary floating
// point in stored values, totals, reports or the CLI's money fields.
namespace headroom::engine {

// A fixed-point decimal with 9 fractional digits held in a 128-bit integer: exact for rates
// such as $87.8325 / 8 = $10.9790625 per GPU-hour and for sums of millions of hourly costs.
class Decimal {
public:
    static constexpr int kScale = 9;              // fractional digits
    using Units = __int128;                       // value × 10^9

    constexpr Decimal() = default;
    static Decimal fromUnits(Units units);
    static Decimal fromInt(int64_t value);
    // Plain decimal text: optional sign, digits, optional '.' and up to 9 fractional digits
    // ("87.8325", "-3", "0.5"). No exponent, no thousands separators. nullopt when malformed.
    static std::optional<Decimal> parse(std::string_view text);
    // Nearest decimal with 9 fractional digits, half away from zero (for values typed
    // into spin boxes; not for stored money).
    static Decimal fromDouble(double value);

    Units units() const { return m_units; }
    double toDouble() const;
    int64_t toIntegerTruncated() const;           // toward zero
    int64_t ceilToInteger() const;
    bool isNegative() const { return m_units < 0; }
    bool isZero() const { return m_units == 0; }

    // Rounded to `decimals` digits (0..9), half away from zero.
    Decimal rounded(int decimals) const;
    // Exact shortest text ("10.9790625", "4227.072", "-3"), or with exactly `decimals`
    // digits after rounding half away from zero ("4227.07").
    std::string toString() const;
    std::string toString(int decimals) const;

    Decimal operator-() const { return fromUnits(-m_units); }
    Decimal &operator+=(Decimal other);
    Decimal &operator-=(Decimal other);
    friend Decimal operator+(Decimal a, Decimal b) { return a += b; }
    friend Decimal operator-(Decimal a, Decimal b) { return a -= b; }
    // Products and quotients are rounded to 9 digits, half away from zero. Division by zero
    // throws InputError("divisor").
    friend Decimal operator*(Decimal a, Decimal b);
    friend Decimal operator*(Decimal a, int64_t n);
    friend Decimal operator/(Decimal a, Decimal b);
    friend Decimal operator/(Decimal a, int64_t n);
    // Spelled out rather than <=>: moc parses headers that include this one.
    friend bool operator==(Decimal a, Decimal b) { return a.m_units == b.m_units; }
    friend bool operator!=(Decimal a, Decimal b) { return a.m_units != b.m_units; }
    friend bool operator<(Decimal a, Decimal b) { return a.m_units < b.m_units; }
    friend bool operator<=(Decimal a, Decimal b) { return a.m_units <= b.m_units; }
    friend bool operator>(Decimal a, Decimal b) { return a.m_units > b.m_units; }
    friend bool operator>=(Decimal a, Decimal b) { return a.m_units >= b.m_units; }

private:
    Units m_units = 0;
};

// An amount of money in one currency (ISO 4217 code, e.g. "USD"). Arithmetic between two
// amounts of different currencies throws InputError("currency").
struct Money {
    Decimal amount;
    std::string currency = "USD";

    static Money parse(std::string_view text, std::string currency = "USD"); // throws InputError("amount")
    Money &operator+=(const Money &other);
    Money &operator-=(const Money &other);
    friend Money operator+(Money a, const Money &b) { return a += b; }
    friend Money operator-(Money a, const Money &b) { return a -= b; }
    friend Money operator*(Money m, Decimal factor) { return {m.amount * factor, m.currency}; }
    friend Money operator*(Money m, int64_t n) { return {m.amount * n, m.currency}; }
    friend bool operator==(const Money &a, const Money &b) { return a.amount == b.amount && a.currency == b.currency; }
    friend bool operator!=(const Money &a, const Money &b) { return !(a == b); }

    // Rounded to cents, half away from zero: "4227.07".
    std::string cents() const { return amount.toString(2); }
    // For display: "$4,227.07" (USD, EUR €, GBP £; other codes as "1,234.50 CHF").
    std::string display() const;
    // A rate as the card holds it: every digit, trailing zeros trimmed to at least cents
    // ("$3.8192", "$10.9790625", "$6.88", "$4.00"). Rates are never rounded when shown.
    std::string displayRate() const;
};

// The reconciliation rule (DESIGN §2): a figure derived from others that are shown is computed
// from them as shown, so a reader re-adding the printed parts gets the printed total or
// difference. Products of a shown exact rate and a count are rounded once, to cents.
//
// Rounds each amount to cents and returns the total of the rounded amounts, so that a table's
// total row equals the sum of the rows as shown.
Money sumOfShownCents(const Money *first, const Money *last);
// A money column as printed: each part rounded to cents (half away from zero) and the total
// of the rounded parts. `parts` share one currency (InputError("currency") otherwise); an
// empty column totals 0 in `currency`.
struct ShownColumn {
    std::vector<Money> parts;       // cents
    Money total;                    // Σ parts, cents
};
ShownColumn shownColumn(const std::vector<Money> &parts, const std::string &currency = "USD");
// a − b as shown: each rounded to cents first ($790.49 − $395.25 = $395.24).
Money shownDifference(const Money &a, const Money &b);
// Whether a printed column re-adds: every part and the total in whole cents and Σ parts = total.
bool reAdds(const ShownColumn &column);

} // namespace headroom::engine
