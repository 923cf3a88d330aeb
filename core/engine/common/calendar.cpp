#include "calendar.h"

#include "errors.h"

#include <cstdio>

namespace headroom::engine {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

int digits(std::string_view text, size_t from, size_t count)
{
    int value = 0;
    for (size_t i = from; i < from + count; ++i)
        value = value * 10 + (text[i] - '0');
    return value;
}

} // namespace

std::optional<CivilDate> parseIsoDate(std::string_view text)
{
    if (text.size() != 10 || text[4] != '-' || text[7] != '-')
        return std::nullopt;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (!isDigit(text[i]))
            return std::nullopt;
    const CivilDate date{std::chrono::year{digits(text, 0, 4)}, std::chrono::month{unsigned(digits(text, 5, 2))},
                         std::chrono::day{unsigned(digits(text, 8, 2))}};
    if (!date.ok())
        return std::nullopt;
    return date;
}

std::string isoDate(CivilDate date)
{
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u", int(date.year()), unsigned(date.month()),
                  unsigned(date.day()));
    return buffer;
}

int64_t daysSinceEpoch(CivilDate date)
{
    return std::chrono::sys_days{date}.time_since_epoch().count();
}

CivilDate dateFromDays(int64_t days)
{
    return CivilDate{std::chrono::sys_days{std::chrono::days{days}}};
}

CivilDate addMonths(CivilDate start, int months)
{
    const std::chrono::year_month target =
        std::chrono::year_month{start.year(), start.month()} + std::chrono::months{months};
    const std::chrono::day last = std::chrono::year_month_day_last{target.year(),
                                                                   std::chrono::month_day_last{target.month()}}
                                      .day();
    return CivilDate{target.year(), target.month(), start.day() > last ? last : start.day()};
}

int64_t hoursBetween(CivilDate from, CivilDate to)
{
    return (daysSinceEpoch(to) - daysSinceEpoch(from)) * 24;
}

int64_t termHours(CivilDate start, int months)
{
    if (months < 0)
        throw InputError("months", "a term has 0 or more months (got " + std::to_string(months) + ")");
    return hoursBetween(start, addMonths(start, months));
}

int64_t termHours(std::string_view startIso, int months, const std::string &field)
{
    const auto start = parseIsoDate(startIso);
    if (!start)
        throw InputError(field, field + " must be an ISO date yyyy-mm-dd (got \"" + std::string(startIso) + "\")");
    return termHours(*start, months);
}

CivilDate firstOfNextMonth(CivilDate date)
{
    const std::chrono::year_month next = std::chrono::year_month{date.year(), date.month()} + std::chrono::months{1};
    return CivilDate{next.year(), next.month(), std::chrono::day{1}};
}

CivilDate todayUtc()
{
    return CivilDate{std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
}

std::vector<CalendarMonth> calendarMonths(CivilDate start, int64_t seriesHours)
{
    std::vector<CalendarMonth> months;
    const int64_t startDays = daysSinceEpoch(start);
    std::chrono::year_month ym{start.year(), start.month()};
    int64_t hour = 0;
    while (hour < seriesHours) {
        const CivilDate next{(ym + std::chrono::months{1}).year(), (ym + std::chrono::months{1}).month(),
                             std::chrono::day{1}};
        const int64_t end = (daysSinceEpoch(next) - startDays) * 24;
        CalendarMonth m;
        char label[16];
        std::snprintf(label, sizeof label, "%04d-%02u", int(ym.year()), unsigned(ym.month()));
        m.label = label;
        m.firstHour = hour;
        m.hours = std::min(end, seriesHours) - hour;
        const int64_t monthStart = (daysSinceEpoch(CivilDate{ym.year(), ym.month(), std::chrono::day{1}}) - startDays) * 24;
        m.partial = monthStart < 0 || end > seriesHours;
        months.push_back(m);
        hour += m.hours;
        ym += std::chrono::months{1};
    }
    return months;
}

} // namespace headroom::engine
