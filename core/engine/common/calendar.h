#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Calendar time for money over a term (DESIGN §3.7): a term is the real hours between its
// start date and the same day N months later (8,760 h for a common year, 8,784 h for a leap
// year), never N × 30 days. "Per month" figures stay the 30-day month and say so.
namespace headroom::engine {

using CivilDate = std::chrono::year_month_day;

// The 30-day month of "per month" figures: 720 hours.
inline constexpr int kHoursPer30DayMonth = 720;

// "2025-01-01" → the date; nullopt unless exactly yyyy-mm-dd and a real date (proleptic Gregorian).
std::optional<CivilDate> parseIsoDate(std::string_view text);
// The date as "2025-01-01".
std::string isoDate(CivilDate date);
// Days since 1970-01-01.
int64_t daysSinceEpoch(CivilDate date);
CivilDate dateFromDays(int64_t daysSinceEpoch);
// `months` calendar months after `start`; a day past the end of the target month is clamped
// to its last day (2025-01-31 + 1 month = 2025-02-28).
CivilDate addMonths(CivilDate start, int months);
// Hours from 00:00 UTC of `from` to 00:00 UTC of `to` (negative when `to` is earlier).
int64_t hoursBetween(CivilDate from, CivilDate to);
// The term's real hours: from `start` to addMonths(start, months). 12 months from 2025-01-01
// = 8,760 h; from 2028-01-01 = 8,784 h. Throws InputError("months") for months < 0.
int64_t termHours(CivilDate start, int months);
// Same from ISO text; throws InputError(field) naming `field` when the date is not valid.
int64_t termHours(std::string_view startIso, int months, const std::string &field = "start_date");
// The first day of the month after `date` (2025-06-14 → 2025-07-01).
CivilDate firstOfNextMonth(CivilDate date);
// Today's date in UTC, from the system clock.
CivilDate todayUtc();

// One calendar month of an hourly series that starts at 00:00 UTC of a date.
struct CalendarMonth {
    std::string label;              // "2025-07"
    int64_t firstHour = 0;          // index of its first hour in the series
    int64_t hours = 0;              // hours of it inside the series (a month may be cut by the series' end)
    bool partial = false;           // the series ends (or starts) inside the month
};
// The calendar months covered by `seriesHours` hours from 00:00 UTC of `start`. A series
// starting on the first of a month and running whole months has no partial month:
// 8,760 h from 2025-01-01 is exactly 12 months.
std::vector<CalendarMonth> calendarMonths(CivilDate start, int64_t seriesHours);

} // namespace headroom::engine
