#include "engine/fleet/capacity_mix.h"
#include "engine/common/errors.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace headroom::engine;

namespace {

// A business-hours curve peaking at `peak` GPUs at 14:00, never below a quarter of it.
std::vector<double> diurnal(double peak)
{
    std::vector<double> day(24);
    for (int h = 0; h < 24; ++h)
        day[size_t(h)] = peak * (0.25 + 0.75 * std::exp(-0.5 * std::pow((h - 14) / 3.5, 2)));
    return day;
}

TrainingDemand job(std::string name, int64_t gpus, double gpuHours, int64_t start = 0, int priority = 0)
{
    TrainingDemand demand;
    demand.name = std::move(name);
    demand.gpus = gpus;
    demand.gpuHours = gpuHours;
    demand.earliestStartHour = start;
    demand.priority = priority;
    return demand;
}

MixInput busyCluster()
{
    MixInput input;
    input.horizonHours = 24 * 7 * 8;
    input.inference = {{"chat", diurnal(40)}, {"search", diurnal(23.5)}, {"batch", {3.2}}};
    input.training = {job("pretrain", 32, 32 * 24 * 10.0, 0, 2), job("finetune", 8, 8 * 48.0, 100, 1),
                      job("eval", 4, 40, 300, 0)};
    input.startDate = "2026-01-05";
    return input;
}

template <typename F>
std::string inputErrorField(F &&call)
{
    try {
        call();
    } catch (const InputError &error) {
        return error.field();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("dynamic sharing never starves inference at its peak", "[capacity_mix]")
{
    const MixInput input = busyCluster();
    const MixResult result = planMixedCluster(input);
    // Whole GPUs per workload: chat 40, search 24, batch 4 at 14:00.
    CHECK(result.inferencePeakGpus == 68);
    CHECK(result.inferencePeakHour % 24 == 14);
    CHECK(result.dynamic.gpus >= 68);
    CHECK(result.dynamic.unservedInferenceGpuHours == 0);
    REQUIRE(result.dynamic.timeline.size() == size_t(input.horizonHours));
    for (size_t h = 0; h < result.dynamic.timeline.size(); ++h) {
        const MixHour &hour = result.dynamic.timeline[h];
        double need = 0;
        for (const InferenceDemand &workload : input.inference)
            need += std::ceil(workload.gpusPerHour[h % workload.gpusPerHour.size()] - 1e-9);
        CHECK(hour.inference == need);
        CHECK(hour.idle >= -1e-9);
        CHECK(hour.inference + hour.training + hour.idle == Approx(double(result.dynamic.gpus)));
    }
    const MixHour &peak = result.dynamic.timeline[size_t(result.inferencePeakHour)];
    CHECK(peak.inference == 68);

    // Even a pool sized to the inference peak alone serves it every hour.
    MixInput tight = input;
    tight.sharedPoolGpus = 68;
    const MixResult squeezed = planMixedCluster(tight);
    CHECK(squeezed.dynamic.unservedInferenceGpuHours == 0);
    CHECK(squeezed.dynamic.timeline[size_t(squeezed.inferencePeakHour)].inference == 68);
    CHECK(squeezed.dynamic.timeline[size_t(squeezed.inferencePeakHour)].training == 0);
}

TEST_CASE("a partitioned cluster sizes each side by its own method", "[capacity_mix]")
{
    MixInput input;
    input.horizonHours = 40;
    input.inference = {{"chat", {6, 2}}};
    // A runs hours 0–9 on 8 GPUs, B hours 5–14 on 4: 12 GPUs at the overlap.
    input.training = {job("a", 8, 80, 0), job("b", 4, 40, 5)};
    const MixResult result = planMixedCluster(input);
    const MixOutcome &split = result.partitioned;
    CHECK(split.inferenceGpus == 6);
    CHECK(split.trainingGpus == 12);
    CHECK(split.gpus == 18);
    CHECK(split.jobs[0].startHour == 0);
    CHECK(split.jobs[0].completionHour == 10);
    CHECK(split.jobs[1].startHour == 5);
    CHECK(split.jobs[1].completionHour == 15);
    // Inference: 4 GPUs on average of 6; training: 120 GPU-hours of 12 × 40.
    CHECK(split.inferenceUtilization == Approx(4.0 / 6.0));
    CHECK(split.trainingUtilization == Approx(120.0 / 480.0));
    CHECK(split.utilization == Approx((160.0 + 120.0) / (18.0 * 40)));
    CHECK(split.timeline[7].inference == 2);
    CHECK(split.timeline[7].training == 12);
    CHECK(split.timeline[7].idle == 4);
}

TEST_CASE("dynamic sharing fills what inference leaves, so training completes later", "[capacity_mix]")
{
    MixInput input;
    input.horizonHours = 12;
    input.inference = {{"chat", {4, 0}}}; // 4 GPUs in even hours, none in odd ones
    input.training = {job("run", 4, 8, 0)};
    input.sharedPoolGpus = 4;
    const MixResult result = planMixedCluster(input);
    // Training only gets the odd hours: 4 GPU-hours in hour 1 and hour 3.
    CHECK(result.partitioned.jobs[0].completionHour == 2);
    CHECK(result.dynamic.jobs[0].startHour == 1);
    CHECK(result.dynamic.jobs[0].completionHour == 4);
    CHECK(result.dynamic.timeline[0].training == 0);
    CHECK(result.dynamic.timeline[1].training == 4);
    CHECK(result.dynamic.timeline[4].idle == 0);
    CHECK(result.dynamic.timeline[5].idle == 4);
    CHECK(result.dynamic.utilization == Approx((4.0 * 6 + 8) / (4.0 * 12)));

    // Automatic size: the smallest pool finishing every job, never below the inference peak.
    const MixResult busy = planMixedCluster(busyCluster());
    CHECK(busy.dynamic.gpus <= busy.partitioned.gpus);
    CHECK(busy.dynamic.gpus >= int64_t(busy.inferencePeakGpus));
    for (size_t j = 0; j < busy.dynamic.jobs.size(); ++j) {
        CHECK(busy.dynamic.jobs[j].completionHour >= 0);
        CHECK(busy.dynamic.jobs[j].completionHour >= busy.partitioned.jobs[j].completionHour);
        CHECK(busy.dynamic.jobs[j].remainingGpuHours == 0);
    }
    MixInput smaller = busyCluster();
    smaller.sharedPoolGpus = busy.dynamic.gpus - 1;
    if (smaller.sharedPoolGpus >= int64_t(busy.inferencePeakGpus)) {
        const MixResult short_ = planMixedCluster(smaller);
        bool unfinished = false;
        for (const JobCompletion &done : short_.dynamic.jobs)
            unfinished = unfinished || done.completionHour < 0;
        CHECK(unfinished);
    }
    CHECK(busy.dynamic.utilization > busy.partitioned.utilization);
}

TEST_CASE("shared pools serve higher priority first and hold gang jobs to their minimum", "[capacity_mix]")
{
    MixInput input;
    input.horizonHours = 10;
    input.inference = {{"chat", {2}}};
    input.training = {job("low", 4, 8, 0, 0), job("high", 4, 8, 0, 5)};
    input.sharedPoolGpus = 6;
    MixResult result = planMixedCluster(input);
    CHECK(result.dynamic.jobs[1].completionHour == 2); // high: 4 GPUs, hours 0–1
    CHECK(result.dynamic.jobs[0].completionHour == 4); // low: waits, then hours 2–3
    CHECK(result.dynamic.jobs[0].startHour == 2);

    // Elastic: the low-priority job runs on what is left when it may shrink.
    input.sharedPoolGpus = 7;
    result = planMixedCluster(input);
    CHECK(result.dynamic.jobs[0].startHour == 0);
    CHECK(result.dynamic.timeline[0].training == 5);

    // A gang job below its minimum waits.
    input.training[0].minGpus = 4;
    result = planMixedCluster(input);
    CHECK(result.dynamic.jobs[0].startHour == 2);
    CHECK(result.dynamic.timeline[0].training == 4);
}

TEST_CASE("completion dates count from the start date", "[capacity_mix]")
{
    MixInput input;
    input.horizonHours = 100;
    input.inference = {{"chat", {1}}};
    input.training = {job("run", 2, 100, 0)};
    input.startDate = "2026-12-31";
    const MixResult result = planMixedCluster(input);
    // 50 hours at 2 GPUs: the last work is in hour 49, on 2 January.
    CHECK(result.partitioned.jobs[0].completionHour == 50);
    CHECK(result.partitioned.jobs[0].completionDate == "2027-01-02");

    input.training[0].gpuHours = 1000;
    const MixResult unfinished = planMixedCluster(input);
    CHECK(unfinished.partitioned.jobs[0].completionHour == -1);
    CHECK(unfinished.partitioned.jobs[0].completionDate.empty());
    CHECK(unfinished.partitioned.jobs[0].remainingGpuHours == Approx(800));
}

TEST_CASE("bad mixed-cluster input is rejected naming the field", "[capacity_mix]")
{
    const MixInput good = busyCluster();
    auto with = [&](auto change) {
        MixInput input = good;
        change(input);
        return inputErrorField([&] { planMixedCluster(input); });
    };
    CHECK(with([](MixInput &in) { in.horizonHours = 0; }) == "horizon_hours");
    CHECK(with([](MixInput &in) { in.inference[0].gpusPerHour[3] = -1; }) == "inference");
    CHECK(with([](MixInput &in) { in.inference[0].gpusPerHour.clear(); }) == "inference");
    CHECK(with([](MixInput &in) { in.training[0].gpus = 0; }) == "gpus");
    CHECK(with([](MixInput &in) { in.training[0].gpuHours = 0; }) == "gpu_hours");
    CHECK(with([](MixInput &in) { in.training[0].earliestStartHour = in.horizonHours; }) == "earliest_start_hour");
    CHECK(with([](MixInput &in) { in.training[0].minGpus = 64; }) == "min_gpus");
    CHECK(with([](MixInput &in) { in.sharedPoolGpus = 10; }) == "shared_pool_gpus");
    CHECK(with([](MixInput &in) { in.startDate = "2026-13-01"; }) == "start_date");
}

TEST_CASE("growth compounds per workload type and orders ahead by the lead time", "[capacity_mix]")
{
    GrowthInput input;
    input.streams = {{"chat", WorkloadKind::Inference, 100, 0.10}, {"pretrain", WorkloadKind::Training, 50, 0.0}};
    input.months = 24;
    input.installedGpus = 150;
    input.leadWeeks = 8;
    input.startMonth = "2026-11";
    const std::vector<GrowthMonth> plan = planGrowth(input);
    REQUIRE(plan.size() == 24);
    CHECK(plan[0].capacityNeeded == 150);
    CHECK(plan[0].capacityToAdd == 0);
    CHECK(plan[1].inferenceGpus == Approx(110));
    CHECK(plan[1].capacityNeeded == 160);
    CHECK(plan[1].capacityToAdd == 10);
    CHECK(plan[2].capacityNeeded == 171);
    CHECK(plan[2].capacityToAdd == 11);
    CHECK(plan[2].label == "2027-01");
    // 8 weeks = 2 months of lead: order month 2's capacity in month 0.
    CHECK(leadMonths(8) == 2);
    CHECK(plan[2].orderByMonth == 0);
    CHECK(plan[2].orderByLabel == "2026-11");
    CHECK(plan[1].orderByMonth == -1);
    CHECK(plan[1].orderByLabel == "2026-10");
    int64_t added = input.installedGpus;
    for (const GrowthMonth &month : plan)
        added += month.capacityToAdd;
    CHECK(added == plan.back().capacityNeeded);
    // 100 × 1.1^23 + 50 = 945.4 → 946.
    CHECK(plan.back().capacityNeeded == 946);

    // Shrinking demand adds nothing; without a start month labels are month numbers.
    input.streams = {{"chat", WorkloadKind::Inference, 100, -0.05}};
    input.startMonth.clear();
    const std::vector<GrowthMonth> shrinking = planGrowth(input);
    for (const GrowthMonth &month : shrinking)
        CHECK(month.capacityToAdd == 0);
    CHECK(shrinking[3].label == "M3");

    auto field = [&](auto change) {
        GrowthInput bad = input;
        change(bad);
        return inputErrorField([&] { planGrowth(bad); });
    };
    CHECK(field([](GrowthInput &in) { in.months = 0; }) == "months");
    CHECK(field([](GrowthInput &in) { in.installedGpus = -1; }) == "installed_gpus");
    CHECK(field([](GrowthInput &in) { in.leadWeeks = -2; }) == "lead_weeks");
    CHECK(field([](GrowthInput &in) { in.streams[0].gpusNow = -1; }) == "gpus_now");
    CHECK(field([](GrowthInput &in) { in.streams[0].monthlyGrowth = -1; }) == "monthly_growth");
    CHECK(field([](GrowthInput &in) { in.startMonth = "2026-1"; }) == "start_month");
}
