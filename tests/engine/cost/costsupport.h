#pragma once

#include "engine/cost/demand.h"
#include "engine/common/money.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

// Small builders shared by the money and cost tests.
namespace headroom::test {

inline engine::Decimal dec(const char *text)
{
    return *engine::Decimal::parse(text);
}

inline engine::Money usd(const char *text)
{
    return engine::Money::parse(text, "USD");
}

inline engine::DemandSeries hourly(const std::vector<int64_t> &gpus, std::string name = "test")
{
    engine::DemandSeries series;
    series.name = std::move(name);
    for (int64_t g : gpus)
        series.gpus.push_back(engine::Decimal::fromInt(g));
    return series;
}

} // namespace headroom::test

// Failed checks print decimals and money as text.
namespace Catch {
template <>
struct StringMaker<headroom::engine::Decimal> {
    static std::string convert(const headroom::engine::Decimal &d) { return d.toString(); }
};
template <>
struct StringMaker<headroom::engine::Money> {
    static std::string convert(const headroom::engine::Money &m) { return m.amount.toString() + " " + m.currency; }
};
} // namespace Catch
