// MIG geometry (DESIGN §3.4): layout validation with its reasons, the maximal layouts, tenant
// packing against brute force, OOM flags, the sharing comparison and link times.
#include "engine/common/errors.h"
#include "engine/partitioning/mig.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace headroom::engine;

namespace {

// A 7-slice GPU as NVIDIA's tables give it (the same rows as data/mig_profiles.json): GB of
// the 1-, 2- and 4-memory-slice profiles and of the whole GPU.
MigGpuProfiles sevenSliceGpu(const std::string &id, int one, int two, int four, int whole)
{
    const auto gb = [](int n) { return "." + std::to_string(n) + "gb"; };
    MigGpuProfiles gpu;
    gpu.gpuId = id;
    gpu.profiles = {
        {"1g" + gb(one), 1, 1, double(one), {0, 1, 2, 3, 4, 5, 6}, 7, false},
        {"1g" + gb(one) + "+me", 1, 1, double(one), {0, 1, 2, 3, 4, 5, 6}, 1, true},
        {"1g" + gb(two), 1, 2, double(two), {0, 2, 4, 6}, 4, false},
        {"2g" + gb(two), 2, 2, double(two), {0, 2, 4}, 3, false},
        {"3g" + gb(four), 3, 4, double(four), {0, 4}, 2, false},
        {"4g" + gb(four), 4, 4, double(four), {0}, 1, false},
        {"7g" + gb(whole), 7, 8, double(whole), {0}, 1, false},
    };
    return gpu;
}

const MigGpuProfiles &h100()
{
    static const MigGpuProfiles gpu = sevenSliceGpu("h100-sxm", 10, 20, 40, 80);
    return gpu;
}

const MigGpuProfiles &a100Small()
{
    static const MigGpuProfiles gpu = sevenSliceGpu("a100-sxm-40gb", 5, 10, 20, 40);
    return gpu;
}

// H100 SXM as nvidia-smi reports it: 81559 MiB.
constexpr double kH100GiB = 81559.0 / 1024.0;

LayoutCheck check(const MigGpuProfiles &gpu, const std::string &layout)
{
    return validateLayout(gpu, parseLayout(layout));
}

std::string threeDecimals(double seconds)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
    return buffer;
}

Tenant tenant(const std::string &name, double gib, int replicas = 1, const std::string &isolation = "none",
              int compute = 0)
{
    Tenant t;
    t.name = name;
    t.memoryGiB = gib;
    t.replicas = replicas;
    t.isolation = isolation;
    t.computeSlices = compute;
    return t;
}

std::string sortedKey(MigLayout layout)
{
    std::sort(layout.begin(), layout.end(), [](const MigInstance &a, const MigInstance &b) {
        return a.start != b.start ? a.start < b.start : a.profile < b.profile;
    });
    return formatLayout(layout);
}

// Every valid layout by including or excluding each (profile, start), pruning invalid sets.
std::set<std::string> bruteForceValidLayouts(const MigGpuProfiles &gpu)
{
    std::vector<MigInstance> all;
    for (const MigProfile &p : gpu.profiles) {
        for (int s = 0; s < gpu.memorySlices; ++s)
            all.push_back({p.name, s, {}});
    }
    std::set<std::string> found;
    MigLayout current;
    std::function<void(size_t)> walk = [&](size_t i) {
        if (i == all.size()) {
            if (!current.empty())
                found.insert(sortedKey(current));
            return;
        }
        walk(i + 1);
        current.push_back(all[i]);
        if (validateLayout(gpu, current).valid)
            walk(i + 1);
        current.pop_back();
    };
    walk(0);
    return found;
}

bool canAddAny(const MigGpuProfiles &gpu, const MigLayout &layout)
{
    for (const MigProfile &p : gpu.profiles) {
        for (int s = 0; s < gpu.memorySlices; ++s) {
            MigLayout bigger = layout;
            bigger.push_back({p.name, s, {}});
            if (validateLayout(gpu, bigger).valid)
                return true;
        }
    }
    return false;
}

// Whether some placement of these profiles on one GPU is valid (tries every start).
bool placeable(const MigGpuProfiles &gpu, const std::vector<std::string> &profiles)
{
    MigLayout layout;
    std::function<bool(size_t)> place = [&](size_t i) {
        if (i == profiles.size())
            return true;
        for (int s = 0; s < gpu.memorySlices; ++s) {
            layout.push_back({profiles[i], s, {}});
            if (validateLayout(gpu, layout).valid && place(i + 1))
                return true;
            layout.pop_back();
        }
        return false;
    };
    return place(0);
}

// Fewest GPUs for the items (profile names), trying every assignment of items to GPUs.
int bruteForceGpus(const MigGpuProfiles &gpu, const std::vector<std::string> &items)
{
    int best = int(items.size());
    std::vector<std::vector<std::string>> bins;
    std::function<void(size_t)> assign = [&](size_t i) {
        if (int(bins.size()) >= best)
            return;
        if (i == items.size()) {
            best = int(bins.size());
            return;
        }
        for (size_t b = 0; b < bins.size(); ++b) {
            bins[b].push_back(items[i]);
            if (placeable(gpu, bins[b]))
                assign(i + 1);
            bins[b].pop_back();
        }
        bins.push_back({items[i]});
        assign(i + 1);
        bins.pop_back();
    };
    assign(0);
    return best;
}

void requireValidLayouts(const MigGpuProfiles &gpu, const PackResult &r)
{
    REQUIRE(int64_t(r.layouts.size()) == r.gpus);
    for (const MigLayout &layout : r.layouts) {
        INFO(formatLayout(layout));
        REQUIRE_FALSE(layout.empty());
        const LayoutCheck c = validateLayout(gpu, layout);
        INFO(c.reason);
        REQUIRE(c.valid);
    }
}

} // namespace

TEST_CASE("golden: H100 80GB holds 7 x 1g.10gb = 70 GB and an 8th is rejected", "[mig][validate]")
{
    MigLayout seven;
    double gb = 0;
    for (int s = 0; s < 7; ++s) {
        seven.push_back({"1g.10gb", s, {}});
        gb += h100().find("1g.10gb")->memoryGB;
    }
    CHECK(validateLayout(h100(), seven).valid);
    CHECK(validateLayout(h100(), seven).reason.empty());
    CHECK(gb == 70);

    MigLayout eight = seven;
    eight.push_back({"1g.10gb", 7, {}});
    const LayoutCheck c = validateLayout(h100(), eight);
    CHECK_FALSE(c.valid);
    CHECK(c.reason == "1g.10gb@7: at most 7 \u00d7 1g.10gb per GPU");
    CHECK(maxInstancesPerGpu(h100(), "1g.10gb") == 7);
}

TEST_CASE("golden: 14 H100 give 98 one-slice instances", "[mig][validate]")
{
    CHECK(14 * maxInstancesPerGpu(h100(), "1g.10gb") == 98);
    CHECK(maxInstancesPerGpu(h100(), "1g.20gb") == 4);
    CHECK(maxInstancesPerGpu(h100(), "2g.20gb") == 3);
    CHECK(maxInstancesPerGpu(h100(), "3g.40gb") == 2);
    CHECK(maxInstancesPerGpu(h100(), "7g.80gb") == 1);
    CHECK(maxInstancesPerGpu(h100(), "5g.50gb") == 0);
}

TEST_CASE("NVIDIA's documented example layouts are valid", "[mig][validate]")
{
    for (const std::string layout : {"4g.40gb@0,2g.20gb@4,1g.10gb@6", "3g.40gb@0,2g.20gb@4,1g.10gb@6",
                                     "3g.40gb@0,3g.40gb@4", "7g.80gb@0", "2g.20gb@0,2g.20gb@2,2g.20gb@4,1g.10gb@6",
                                     "1g.20gb@0,1g.20gb@2,1g.20gb@4,1g.20gb@6", "4g.40gb@0,1g.10gb@4,1g.10gb@5,1g.20gb@6",
                                     "1g.10gb+me@0,1g.10gb@1,1g.10gb@2,1g.10gb@3,1g.10gb@4,1g.10gb@5,1g.10gb@6"}) {
        INFO(layout);
        const LayoutCheck c = check(h100(), layout);
        INFO(c.reason);
        CHECK(c.valid);
    }
    CHECK(check(a100Small(), "3g.20gb@0,3g.20gb@4").valid);
    CHECK(check(a100Small(), "4g.20gb@0,2g.10gb@4,1g.5gb@6").valid);
    CHECK(check(a100Small(), "1g.10gb@0,1g.10gb@2,1g.10gb@4,1g.10gb@6").valid);
}

TEST_CASE("overlapping and misplaced layouts are rejected with the first violation in words", "[mig][validate]")
{
    CHECK(check(h100(), "3g.40gb@0,2g.20gb@2").reason == "2g.20gb@2 overlaps 3g.40gb@0 on memory slices 2\u20133");
    CHECK(check(h100(), "1g.10gb@3,3g.40gb@0").reason == "3g.40gb@0 overlaps 1g.10gb@3 on memory slice 3");
    CHECK(check(h100(), "3g.40gb@2").reason == "3g.40gb@2: 3g.40gb may start only at memory slice 0 or 4");
    CHECK(check(h100(), "2g.20gb@6").reason == "2g.20gb@6: 2g.20gb may start only at memory slice 0, 2 or 4");
    CHECK(check(h100(), "4g.40gb@4").reason == "4g.40gb@4: 4g.40gb may start only at memory slice 0");
    CHECK(check(h100(), "1g.20gb@1").reason == "1g.20gb@1: 1g.20gb may start only at memory slice 0, 2, 4 or 6");
    CHECK(check(h100(), "1g.10gb+me@0,1g.10gb+me@1").reason
          == "1g.10gb+me@1: at most one +me instance per GPU, and 1g.10gb+me@0 already has the media engines");
    CHECK(check(h100(), "1g.5gb@0").reason
          == "unknown profile '1g.5gb' for h100-sxm; known: 1g.10gb, 1g.10gb+me, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb");
    CHECK(check(h100(), "7g.80gb@0,1g.10gb@0").reason == "1g.10gb@0 overlaps 7g.80gb@0 on memory slice 0");
    CHECK_FALSE(check(h100(), "3g.40gb@0,3g.40gb@4,1g.10gb@4").valid);

    // Compute slices run out before memory on a GPU with fewer of them.
    MigGpuProfiles sixCompute = h100();
    sixCompute.computeSlices = 6;
    CHECK(check(sixCompute, "4g.40gb@0,3g.40gb@4").reason == "3g.40gb@4: needs 3 compute slices but only 2 of 6 are left");
}

TEST_CASE("layouts parse from PROFILE@START text and format back", "[mig][layout]")
{
    const MigLayout layout = parseLayout(" 3g.40gb@0, 2g.20gb@4 ,1g.10gb@6");
    REQUIRE(layout.size() == 3);
    CHECK(layout[1].profile == "2g.20gb");
    CHECK(layout[1].start == 4);
    CHECK(formatLayout(layout) == "3g.40gb@0,2g.20gb@4,1g.10gb@6");

    for (const std::string bad : {"", "  ", "3g.40gb", "3g.40gb@", "@0", "3g.40gb@x", "3g.40gb@-1", "1g.10gb@0,,1g.10gb@1",
                                  "1g.10gb@0,"}) {
        INFO("'" << bad << "'");
        try {
            parseLayout(bad);
            FAIL("accepted");
        } catch (const InputError &e) {
            CHECK(e.field() == "layout");
        }
    }
    CHECK_THROWS_WITH(parseLayout("3g.40gb@0,2g.20gb"),
                      Catch::Contains("instance 2 '2g.20gb' has no start"));
}

TEST_CASE("maximal layouts are distinct, valid, maximal and all of them", "[mig][layouts]")
{
    for (const MigGpuProfiles *gpu : {&h100(), &a100Small()}) {
        INFO(gpu->gpuId);
        const std::vector<MigLayout> layouts = maximalLayouts(*gpu);
        std::set<std::string> keys;
        for (const MigLayout &layout : layouts) {
            INFO(formatLayout(layout));
            CHECK(validateLayout(*gpu, layout).valid);
            CHECK_FALSE(canAddAny(*gpu, layout));
            CHECK(std::is_sorted(layout.begin(), layout.end(),
                                 [](const MigInstance &a, const MigInstance &b) { return a.start < b.start; }));
            keys.insert(sortedKey(layout));
        }
        CHECK(keys.size() == layouts.size());

        std::set<std::string> expected;
        for (const std::string &key : bruteForceValidLayouts(*gpu)) {
            if (!canAddAny(*gpu, parseLayout(key)))
                expected.insert(key);
        }
        CHECK(keys == expected);
        REQUIRE_FALSE(layouts.empty());
        CHECK(formatLayout(layouts.front()) == gpu->profiles.back().name + "@0");
    }
    const std::vector<MigLayout> h = maximalLayouts(h100());
    const auto has = [&](const std::string &text) {
        return std::any_of(h.begin(), h.end(), [&](const MigLayout &l) { return formatLayout(l) == text; });
    };
    CHECK(has("1g.10gb@0,1g.10gb@1,1g.10gb@2,1g.10gb@3,1g.10gb@4,1g.10gb@5,1g.10gb@6"));
    CHECK(has("3g.40gb@0,3g.40gb@4"));
    CHECK(has("4g.40gb@0,2g.20gb@4,1g.20gb@6"));
    CHECK_FALSE(has("4g.40gb@0,2g.20gb@4"));
}

TEST_CASE("a tenant gets the smallest profile that holds its memory and compute", "[mig][pack]")
{
    // memory_gb × 10^9 / 2^30: 1g.10gb holds 9.31 GiB, 1g.20gb 18.63 GiB.
    CHECK(memoryGiB(*h100().find("1g.10gb")) == Approx(9.3132257).epsilon(1e-7));
    CHECK(smallestProfileFor(h100(), 9.3, 0)->name == "1g.10gb");
    CHECK(smallestProfileFor(h100(), 9.4, 0)->name == "1g.20gb");
    CHECK(smallestProfileFor(h100(), 5, 2)->name == "2g.20gb");
    CHECK(smallestProfileFor(h100(), 20, 0)->name == "3g.40gb");
    CHECK(smallestProfileFor(h100(), 5, 4)->name == "4g.40gb");
    CHECK(smallestProfileFor(h100(), 40, 0)->name == "7g.80gb");
    CHECK(smallestProfileFor(h100(), 75, 0) == nullptr);
}

TEST_CASE("golden: 40 one-slice tenants need 6 H100 with MIG and 40 without", "[mig][pack]")
{
    std::vector<Tenant> tenants;
    for (int i = 0; i < 40; ++i)
        tenants.push_back(tenant("model-" + std::to_string(i), 8.0));
    const PackResult r = packTenants(h100(), kH100GiB, tenants);
    CHECK(r.gpus == 6);
    CHECK(r.gpusWithoutMig == 40);
    CHECK(r.optimal);
    CHECK(r.lowerBound == 6);
    CHECK(r.oomWarnings.empty());
    CHECK(r.memoryUtilization == Approx(8.0 / 9.3132257).epsilon(1e-6));
    requireValidLayouts(h100(), r);
    std::multiset<std::string> placed;
    for (const MigLayout &layout : r.layouts) {
        for (const MigInstance &instance : layout) {
            CHECK(instance.profile == "1g.10gb");
            placed.insert(instance.tenant);
        }
    }
    CHECK(placed.size() == 40);
    CHECK(std::set<std::string>(placed.begin(), placed.end()).size() == 40);
}

TEST_CASE("instances are listed largest first, the order to create them in", "[mig][pack]")
{
    const PackResult r = packTenants(h100(), kH100GiB,
                                     {tenant("small", 5), tenant("medium", 15, 1, "none", 2), tenant("large", 30, 1, "soft", 4)});
    REQUIRE(r.gpus == 1);
    CHECK(formatLayout(r.layouts[0]) == "4g.40gb@0,2g.20gb@4,1g.10gb@6");
    CHECK(r.layouts[0][0].tenant == "large");
    CHECK(r.layouts[0][2].tenant == "small");
    REQUIRE(r.fits.size() == 3);
    CHECK(r.fits[1].profile == "2g.20gb");
}

TEST_CASE("regulated tenants never share a GPU but soft ones share MIG", "[mig][pack]")
{
    const PackResult r = packTenants(h100(), kH100GiB,
                                     {tenant("bank", 5, 2, "regulated"), tenant("chat", 5, 3, "soft"), tenant("docs", 5)});
    requireValidLayouts(h100(), r);
    CHECK(r.gpus == 2);
    CHECK(r.optimal);
    for (const MigLayout &layout : r.layouts) {
        std::set<std::string> names;
        for (const MigInstance &instance : layout)
            names.insert(instance.tenant);
        if (names.count("bank"))
            CHECK(names.size() == 1);
    }
    // Two regulated tenants of one slice each: two GPUs, though one would hold both.
    CHECK(packTenants(h100(), kH100GiB, {tenant("a", 5, 1, "regulated"), tenant("b", 5, 1, "regulated")}).gpus == 2);
}

TEST_CASE("a tenant near or past its slice is flagged as an OOM at the partition boundary", "[mig][pack]")
{
    const PackResult near = packTenants(h100(), kH100GiB, {tenant("tight", 9.0), tenant("roomy", 6.0)});
    REQUIRE(near.oomWarnings.size() == 1);
    CHECK(near.oomWarnings[0]
          == "tenant 'tight' needs 9.0 GiB of its 1g.10gb slice's 9.3 GiB (97 %): within 10 % of the partition "
             "boundary, an OOM risk when it grows");

    // Larger than 7g.80gb (74.5 GiB) but not than the GPU (79.6 GiB): the whole GPU, flagged.
    const PackResult big = packTenants(h100(), kH100GiB, {tenant("huge", 76.0)});
    CHECK(big.gpus == 1);
    CHECK(formatLayout(big.layouts[0]) == "7g.80gb@0");
    REQUIRE(big.oomWarnings.size() == 1);
    CHECK(big.oomWarnings[0]
          == "tenant 'huge' needs 76.0 GiB, 1.5 GiB more than its largest slice 7g.80gb (74.5 GiB): an OOM at the "
             "partition boundary; give it a whole GPU without MIG");
}

TEST_CASE("bad tenant lists: empty, larger than the GPU, malformed fields", "[mig][pack]")
{
    CHECK_THROWS_AS(packTenants(h100(), kH100GiB, {}), InputError);
    CHECK_THROWS_WITH(packTenants(h100(), kH100GiB, {tenant("fits", 5), tenant("giant", 90)}),
                      "tenant 'giant' needs 90.0 GiB, 10.4 GiB more than a whole h100-sxm (79.6 GiB)");
    CHECK_THROWS_WITH(packTenants(h100(), kH100GiB, {tenant("a", 5), tenant("a", 6)}), "tenant 'a' is listed twice");
    CHECK_THROWS_WITH(packTenants(h100(), kH100GiB, {tenant("z", 0)}),
                      "tenant 'z': memory need must be a positive number of GiB");
    CHECK_THROWS_WITH(packTenants(h100(), kH100GiB, {tenant("r", 5, 0)}), "tenant 'r': replicas must be at least 1, got 0");
    CHECK_THROWS_WITH(packTenants(h100(), kH100GiB, {tenant("i", 5, 1, "strict")}),
                      "tenant 'i': isolation must be none, soft or regulated, got 'strict'");
}

TEST_CASE("packing is optimal against brute force on seeded random small cases", "[mig][pack]")
{
    std::mt19937 random(20250605);
    const std::vector<double> needs = {4, 9, 12, 17, 25, 35, 60};
    std::uniform_int_distribution<int> count(1, 9);
    std::uniform_int_distribution<size_t> pick(0, needs.size() - 1);
    std::uniform_int_distribution<int> compute(0, 3);
    for (int round = 0; round < 40; ++round) {
        std::vector<Tenant> tenants;
        std::vector<std::string> items;
        const int n = count(random);
        for (int i = 0; i < n; ++i) {
            const int c = compute(random) == 3 ? 2 : 0;
            Tenant t = tenant("t" + std::to_string(i), needs[pick(random)], 1, "none", c);
            items.push_back(smallestProfileFor(h100(), t.memoryGiB, t.computeSlices)->name);
            tenants.push_back(t);
        }
        const PackResult r = packTenants(h100(), kH100GiB, tenants);
        std::string described;
        for (const std::string &item : items)
            described += item + " ";
        INFO("round " << round << ": " << described);
        requireValidLayouts(h100(), r);
        CHECK(r.optimal);
        CHECK(r.gpus == bruteForceGpus(h100(), items));
        CHECK(r.lowerBound <= r.gpus);
    }
}

TEST_CASE("the exact search proves a packing above the lower bound", "[mig][pack]")
{
    // Two 4g and three 2g: the slice counts allow 2 GPUs, but a 4g leaves room for one 2g only.
    const PackResult r = packTenants(h100(), kH100GiB,
                                     {tenant("a", 4, 1, "none", 4), tenant("b", 12, 1, "none", 2), tenant("c", 9, 1, "none", 2),
                                      tenant("d", 12, 1, "none", 2), tenant("e", 9, 1, "none", 4)});
    requireValidLayouts(h100(), r);
    CHECK(r.lowerBound == 2);
    CHECK(r.gpus == 3);
    CHECK(r.optimal);
    CHECK(r.gpus == bruteForceGpus(h100(), {"4g.40gb", "2g.20gb", "2g.20gb", "2g.20gb", "4g.40gb"}));
}

TEST_CASE("beyond 64 GPUs first-fit decreasing reports its lower bound", "[mig][pack]")
{
    std::vector<Tenant> tenants;
    for (int i = 0; i < 120; ++i)
        tenants.push_back(tenant("m" + std::to_string(i), i % 3 == 0 ? 30.0 : (i % 3 == 1 ? 15.0 : 5.0), 2));
    const PackResult r = packTenants(h100(), kH100GiB, tenants);
    requireValidLayouts(h100(), r);
    CHECK(r.lowerBound > kExactPackGpus);
    CHECK(r.gpus >= r.lowerBound);
    CHECK(r.optimal == (r.gpus == r.lowerBound));
    CHECK(r.gpusWithoutMig == 240);
    size_t instances = 0;
    for (const MigLayout &layout : r.layouts)
        instances += layout.size();
    CHECK(instances == 240);
}

TEST_CASE("golden: link times over PCIe 4.0, NVLink and 400G InfiniBand", "[mig][link]")
{
    CHECK(threeDecimals(linkSeconds(5e9, findLinkPreset("pcie4")->gbps)) == "0.156");
    CHECK(linkSeconds(5e9, 32) == 0.15625);
    CHECK(threeDecimals(linkSeconds(70e9, findLinkPreset("pcie4")->gbps)) == "2.188");
    CHECK(threeDecimals(linkSeconds(70e9, findLinkPreset("nvlink-h100")->gbps)) == "0.078");
    CHECK(threeDecimals(linkSeconds(70e9, findLinkPreset("ib-400g")->gbps)) == "1.400");
    CHECK(findLinkPreset("pcie5")->gbps == 64);
    CHECK(findLinkPreset("pcie6") == nullptr);
    CHECK_THROWS_AS(linkSeconds(1e9, 0), InputError);
    CHECK_THROWS_AS(linkSeconds(-1, 32), InputError);
}

TEST_CASE("sharing compared: exclusive, MIG, time-slicing, MPS, over-commit", "[mig][sharing]")
{
    std::vector<Tenant> tenants;
    for (int i = 0; i < 40; ++i)
        tenants.push_back(tenant("model-" + std::to_string(i), 8.0));
    // 40 × 8 GiB = 320 GiB over 79.6 GiB GPUs: ceil(4.02) = 5, without memory isolation.
    CHECK(sharedGpus(kH100GiB, tenants) == 5);
    const std::vector<SharingOption> options = compareSharing(h100(), kH100GiB, tenants, 32);
    std::map<std::string, SharingOption> byMode;
    for (const SharingOption &o : options)
        byMode[toString(o.mode)] = o;
    REQUIRE(byMode.size() == 5);
    CHECK(byMode["exclusive"].gpus == 40);
    CHECK(byMode["mig"].gpus == 6);
    CHECK(byMode["mig"].memoryIsolation);
    CHECK(byMode["time-slice"].gpus == 5);
    CHECK_FALSE(byMode["time-slice"].memoryIsolation);
    CHECK(byMode["mps"].gpus == 5);
    CHECK(byMode["over-commit"].gpus == 6); // 40 compute slices / 7
    CHECK(byMode["over-commit"].coldSwapSeconds == Approx(8.0 * 1073741824.0 / 32e9));
}

TEST_CASE("a workload becomes a tenant needing its weights per GPU plus 20 %", "[mig][pack]")
{
    headroom::engine::ModelSpec model;
    model.name = "m";
    model.paramsTotal = 8.0 * 1024 * 1024 * 1024; // 8 Gi parameters: 16 GiB in BF16
    model.paramsActive = model.paramsTotal;
    headroom::engine::WorkloadProfile w;
    w.name = "chat";
    w.weights = headroom::engine::WeightPrecision::Bf16;
    w.tp = 2;
    w.isolation = headroom::engine::Isolation::Regulated;
    const auto tenant = headroom::engine::tenantForWorkload(w, model);
    CHECK(tenant.name == "chat");
    CHECK(tenant.memoryGiB == Approx(9.6)); // 8 GiB per GPU at TP 2, × 1.2
    CHECK(tenant.isolation == "regulated");
    CHECK(tenant.replicas == 1);
}
