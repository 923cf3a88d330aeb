#include "cost/costsupport.h"

#include "engine/common/errors.h"
#include "engine/common/money.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace headroom::engine;
using headroom::test::dec;
using headroom::test::usd;

TEST_CASE("decimal text parses exactly and prints its shortest exact form", "[money]")
{
    CHECK(dec("87.8325").toString() == "87.8325");
    CHECK(dec("87.8325").units() == Decimal::Units(87'832'500'000));
    CHECK(dec("-3").toString() == "-3");
    CHECK(dec("+2").toString() == "2");
    CHECK(dec("0.5").toString() == "0.5");
    CHECK(dec(".5").toString() == "0.5");
    CHECK(dec("5.").toString() == "5");
    CHECK(dec("007.100").toString() == "7.1");
    CHECK(dec("0.000000001").units() == 1);
    CHECK(dec("-0").toString() == "0");
    CHECK(dec("123456789012345678901234567").toString() == "123456789012345678901234567");
    CHECK(Decimal::fromInt(-42).toString() == "-42");
    CHECK(Decimal::fromUnits(4227072000000).toString() == "4227.072");
}

TEST_CASE("malformed decimal text is refused", "[money]")
{
    const std::vector<std::string> bad = {
        "", "-", "+", ".", "-.", "1e5", "1E5", "2.5e-3", "1.2345678901", "12a", " 1", "1 ",
        "1,000", "--1", "+-1", "0x10", "1.2.3", "1.-2", "$5", "inf", "nan",
        "1234567890123456789012345678",
    };
    for (const std::string &text : bad) {
        INFO(text);
        CHECK_FALSE(Decimal::parse(text).has_value());
    }
}

TEST_CASE("products and quotients round half away from zero at 9 digits", "[money]")
{
    CHECK((dec("0.000000001") * dec("0.5")).units() == 1);
    CHECK((dec("-0.000000001") * dec("0.5")).units() == -1);
    CHECK((dec("0.000000001") * dec("0.49")).units() == 0);
    CHECK((dec("1") / dec("3")).toString() == "0.333333333");
    CHECK((dec("2") / dec("3")).toString() == "0.666666667");
    CHECK((dec("-2") / dec("3")).toString() == "-0.666666667");
    CHECK((dec("2") / dec("-3")).toString() == "-0.666666667");
    CHECK((dec("-2") / int64_t(3)).toString() == "-0.666666667");
    CHECK((dec("6.88") * dec("0.4")).toString() == "2.752");
    CHECK((dec("3.99") * int64_t(-16)).toString() == "-63.84");
    CHECK((dec("1000000000000000") * dec("10000000000")).toString() == "10000000000000000000000000");
    CHECK((dec("123456789.123456789") * dec("1")).toString() == "123456789.123456789");
}

TEST_CASE("an 8-GPU instance price divides into an exact per-GPU rate", "[money]")
{
    const Decimal perGpu = Money::parse("87.8325").amount / int64_t(8);
    CHECK(perGpu.toString() == "10.9790625");
    CHECK(perGpu == dec("87.8325") / dec("8"));
    CHECK(perGpu * int64_t(8) == dec("87.8325"));
}

TEST_CASE("division by zero and overflow are input errors", "[money]")
{
    try {
        (void)(dec("1") / dec("0"));
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "divisor");
    }
    CHECK_THROWS_AS(dec("1") / int64_t(0), InputError);
    try {
        (void)(dec("100000000000000000000") * dec("100000000000000000000"));
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "amount");
    }
}

TEST_CASE("rounding to cents is half away from zero", "[money]")
{
    CHECK(dec("4227.075").rounded(2).toString() == "4227.08");
    CHECK(dec("-4227.075").rounded(2).toString() == "-4227.08");
    CHECK(dec("4227.074999999").rounded(2).toString() == "4227.07");
    CHECK(dec("4227.072").toString(2) == "4227.07");
    CHECK(dec("0.5").toString(0) == "1");
    CHECK(dec("-0.5").toString(0) == "-1");
    CHECK(dec("0.004").toString(2) == "0.00");
    CHECK(dec("-0.004").toString(2) == "0.00");
    CHECK(dec("-0.005").toString(2) == "-0.01");
    CHECK(dec("7").toString(2) == "7.00");
    CHECK(dec("10.9790625").toString(7) == "10.9790625");
    CHECK(dec("10.9790625").toString(9) == "10.979062500");
    CHECK(dec("999.995").toString(2) == "1000.00");
    CHECK_THROWS_AS(dec("1").rounded(10), InputError);
}

TEST_CASE("decimals convert to and from floating point for display only", "[money]")
{
    CHECK(Decimal::fromDouble(0.1).toString() == "0.1");
    CHECK(Decimal::fromDouble(-2.5).toString() == "-2.5");
    CHECK(Decimal::fromDouble(0.123456789012).toString() == "0.123456789");
    CHECK(dec("10.9790625").toDouble() == 10.9790625);
    CHECK(dec("-7.9").toIntegerTruncated() == -7);
    CHECK(dec("7.9").toIntegerTruncated() == 7);
    CHECK(dec("7.000000001").ceilToInteger() == 8);
    CHECK(dec("-7.9").ceilToInteger() == -7);
    CHECK(dec("7").ceilToInteger() == 7);
    CHECK_THROWS_AS(Decimal::fromDouble(1.0 / 0.0), InputError);
}

TEST_CASE("money displays with its currency symbol and thousands separators", "[money]")
{
    CHECK(Money::parse("4227.072").display() == "$4,227.07");
    CHECK(Money::parse("1000", "EUR").display() == "\u20ac1,000.00");
    CHECK(Money::parse("3.99", "GBP").display() == "\u00a33.99");
    CHECK(Money::parse("1234.5", "CHF").display() == "1,234.50 CHF");
    CHECK(Money::parse("-1234567.891").display() == "-$1,234,567.89");
    CHECK(Money::parse("0").display() == "$0.00");
    CHECK(Money::parse("999.995").display() == "$1,000.00");
    CHECK(Money::parse("126812.16").cents() == "126812.16");
}

TEST_CASE("money of different currencies does not add up", "[money]")
{
    Money dollars = usd("10");
    try {
        dollars += Money::parse("5", "EUR");
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "currency");
        CHECK(std::string(e.what()) == "cannot add USD and EUR");
    }
    CHECK(dollars == usd("10"));
    CHECK_THROWS_AS(usd("1") - Money::parse("1", "GBP"), InputError);
    CHECK((usd("10") - usd("2.5")).amount.toString() == "7.5");
    try {
        Money::parse("1e3");
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "amount");
    }
}

TEST_CASE("a total row equals the sum of the cents shown above it", "[money]")
{
    const std::vector<Money> rows = {usd("0.005"), usd("0.005"), usd("0.005")};
    const Money shown = sumOfShownCents(rows.data(), rows.data() + rows.size());
    CHECK(shown.cents() == "0.03");
    Money exact;
    for (const Money &m : rows)
        exact += m;
    CHECK(exact.cents() == "0.02");

    const std::vector<Money> mixed = {usd("1"), Money::parse("1", "EUR")};
    CHECK_THROWS_AS(sumOfShownCents(mixed.data(), mixed.data() + mixed.size()), InputError);
    CHECK(sumOfShownCents(rows.data(), rows.data()).cents() == "0.00");
}

TEST_CASE("a year of hourly costs summed hour by hour does not drift", "[money]")
{
    const Money rate = Money::parse("87.8325") * (Decimal::fromInt(1) / Decimal::fromInt(8));
    REQUIRE(rate.amount.toString() == "10.9790625");
    const Money hourly = rate * int64_t(64);
    Money total;
    double floating = 0;
    for (int h = 0; h < 8760; ++h) {
        total += hourly;
        floating += hourly.amount.toDouble();
    }
    CHECK(total == rate * int64_t(64 * 8760));
    CHECK(total.amount.toString() == "6155301.6");
    CHECK(total.cents() == "6155301.60");
    // The same sum in binary floating point is not exactly representable.
    CHECK(floating != 6155301.6);
}

TEST_CASE("rates show every digit the card holds, trimmed to at least cents", "[money][rate]")
{
    using headroom::test::usd;
    CHECK(usd("3.8192").displayRate() == "$3.8192");
    CHECK(usd("10.9790625").displayRate() == "$10.9790625");
    CHECK(usd("6.88").displayRate() == "$6.88");
    CHECK(usd("4").displayRate() == "$4.00");
    CHECK(usd("4.2656").displayRate() == "$4.2656");
    CHECK(usd("1234.5678").displayRate() == "$1,234.5678");
    CHECK(usd("0.999").displayRate() == "$0.999"); // never rounded up into $1.00
    CHECK(usd("-2.125").displayRate() == "-$2.125");
    CHECK(Money::parse("2.5", "EUR").displayRate() == "\u20ac2.50");
    CHECK(Money::parse("0.1234567", "CHF").displayRate() == "0.1234567 CHF");
}

TEST_CASE("a shown column re-adds and a shown difference is the difference of the shown figures", "[money][reconcile]")
{
    using headroom::test::usd;
    const ShownColumn c = shownColumn({usd("0.005"), usd("0.005"), usd("0.005")});
    CHECK(c.parts[0].cents() == "0.01");
    CHECK(c.total.cents() == "0.03"); // not the exact 0.015 rounded to 0.02
    CHECK(reAdds(c));
    ShownColumn broken = c;
    broken.total = usd("0.02");
    CHECK_FALSE(reAdds(broken));
    CHECK(shownDifference(usd("790.4925"), usd("395.24625")).cents() == "395.24");
    CHECK(shownColumn({}, "EUR").total == Money::parse("0", "EUR"));
}
