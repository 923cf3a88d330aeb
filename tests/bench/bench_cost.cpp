// Times the reservation optimizer and a plan's hourly cost over a year of hourly demand
// (DESIGN §3.7, §7): analyseReservation over 8,760 hours must take < 5,000 µs.

#include "benchtiming.h"
#include "engine/cost/cost.h"
#include "engine/cost/demand.h"
#include "engine/common/money.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace headroom::engine;

using headroom::bench::Timing;
using headroom::bench::measure;

namespace {

constexpr int kHours = 8760;
constexpr int kWarmup = 20;
constexpr int kRepetitions = 500;
constexpr double kTargetMicros = 5000.0;

} // namespace

int main()
{
    // Core-and-flex: a 200-GPU baseline with weekday bursts to 320, 3 %/month growth and noise.
    DemandShape shape;
    shape.hours = kHours;
    shape.growthPerMonth = 0.03;
    shape.noise = 0.05;
    shape.seed = 2025;
    const DemandSeries year = generateDemand(shape, "bench year");

    const Money onDemand = Money::parse("6.88");
    const Money reserved1y = Money::parse("3.784"); // 45 % off
    PlanRates rates;
    rates.reserved3y = Money::parse("3.096");
    rates.reserved1y = reserved1y;
    rates.onDemand = onDemand;
    rates.spot = Money::parse("2.75");
    rates.spotOverhead = *Decimal::parse("0.05");

    volatile int64_t sink = 0;
    const ReserveAnalysis analysis = analyseReservation(year, reserved1y, onDemand);
    const Timing reserve = measure(kWarmup, kRepetitions, [&] {
        sink = sink + analyseReservation(year, reserved1y, onDemand).optimalReserved;
    });
    const bool met = reserve.medianMicros < kTargetMicros;
    std::printf("reserve_sweep %d hours, R = 0..%zu  median %8.2f us  min %8.2f us  "
                "(optimum %lld, fractile %lld)  target < %.0f us: %s\n",
                kHours, analysis.sweep.size() - 1, reserve.medianMicros, reserve.minMicros,
                static_cast<long long>(analysis.optimalReserved),
                static_cast<long long>(analysis.fractileReserved), kTargetMicros, met ? "met" : "MISSED");

    const PlanMix mix{150, std::max<int64_t>(0, analysis.optimalReserved - 150), *Decimal::parse("0.3")};
    const PlanCost plan = planCost(year, mix, rates, true);
    const Timing cost = measure(kWarmup, kRepetitions, [&] {
        sink = sink + static_cast<int64_t>(planCost(year, mix, rates, true).hours.size());
    });
    std::printf("plan_cost %d hours with hourly breakdown  median %8.2f us  min %8.2f us  "
                "(total %s, reserved utilization %.1f %%)\n",
                kHours, cost.medianMicros, cost.minMicros, plan.total.display().c_str(),
                plan.reservedUtilization * 100);
    return met ? 0 : 1;
}
