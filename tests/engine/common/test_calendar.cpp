#include "cost/costsupport.h"

#include "engine/common/calendar.h"
#include "engine/common/errors.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;

namespace {
CivilDate date(const char *iso)
{
    const auto d = parseIsoDate(iso);
    REQUIRE(d.has_value());
    return *d;
}
} // namespace

TEST_CASE("A 12-month term is 8,760 h from 2025-01-01 and 8,784 h from 2028-01-01", "[calendar]")
{
    CHECK(termHours(date("2025-01-01"), 12) == 8760);
    CHECK(termHours(date("2028-01-01"), 12) == 8784);
    CHECK(termHours("2025-01-01", 12) == 8760);
    // A year that ends after 29 February of a leap year holds it.
    CHECK(termHours(date("2027-03-01"), 12) == 8784);
    CHECK(termHours(date("2025-01-01"), 36) == 26280); // 2025, 2026, 2027: 1,095 days
    CHECK(termHours(date("2026-01-01"), 36) == 26304); // 2026, 2027, 2028: 1,096 days
    CHECK(termHours(date("2025-01-01"), 1) == 744);
    CHECK(termHours(date("2025-02-01"), 1) == 672);
    CHECK(termHours(date("2025-01-01"), 0) == 0);
}

TEST_CASE("Dates parse strictly, months add with the day clamped", "[calendar]")
{
    CHECK_FALSE(parseIsoDate("2025-02-29"));
    CHECK_FALSE(parseIsoDate("2025-13-01"));
    CHECK_FALSE(parseIsoDate("2025-1-01"));
    CHECK_FALSE(parseIsoDate(""));
    CHECK(parseIsoDate("2028-02-29").has_value());
    CHECK(isoDate(addMonths(date("2025-01-31"), 1)) == "2025-02-28");
    CHECK(isoDate(addMonths(date("2028-01-31"), 1)) == "2028-02-29");
    CHECK(isoDate(addMonths(date("2025-11-15"), 3)) == "2026-02-15");
    CHECK(isoDate(firstOfNextMonth(date("2025-12-14"))) == "2026-01-01");
    CHECK(hoursBetween(date("2025-01-02"), date("2025-01-01")) == -24);
    try {
        termHours("2025-02-30", 12, "start_date");
        FAIL("a bad date was accepted");
    } catch (const InputError &e) {
        CHECK(e.field() == "start_date");
        CHECK(std::string(e.what()).find("2025-02-30") != std::string::npos);
    }
    CHECK_THROWS_AS(termHours(date("2025-01-01"), -1), InputError);
}

TEST_CASE("A year of hours from the first of a month is exactly 12 calendar months", "[calendar]")
{
    const auto months = calendarMonths(date("2025-01-01"), 8760);
    REQUIRE(months.size() == 12);
    CHECK(months.front().label == "2025-01");
    CHECK(months.front().hours == 744);
    CHECK(months[1].hours == 672);
    CHECK(months.back().label == "2025-12");
    CHECK(months.back().firstHour == 8760 - 744);
    int64_t sum = 0;
    for (const auto &m : months) {
        CHECK_FALSE(m.partial);
        sum += m.hours;
    }
    CHECK(sum == 8760);
    // Starting mid-month: the first and last months are partial, nothing is lost.
    const auto mid = calendarMonths(date("2025-01-15"), 24 * 31);
    REQUIRE(mid.size() == 2);
    CHECK(mid[0].hours == 17 * 24);
    CHECK(mid[0].partial);
    CHECK(mid[1].hours == 14 * 24);
    CHECK(mid[1].partial);
}
