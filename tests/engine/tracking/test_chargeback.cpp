#include "engine/common/errors.h"
#include "engine/tracking/chargeback.h"

#include <catch2/catch.hpp>

#include <string>

using namespace headroom::engine;

namespace {

Decimal dec(const char *text) { return *Decimal::parse(text); }

constexpr int64_t kT0 = 1772323200;   // 2026-03-01T00:00:00Z
constexpr int64_t kHour = 3600;

MigGpuProfiles h100Mig()
{
    MigGpuProfiles gpu;
    gpu.gpuId = "h100-sxm";
    gpu.computeSlices = 7;
    gpu.memorySlices = 8;
    const auto add = [&](const char *name, int compute, int memory) {
        MigProfile p;
        p.name = name;
        p.computeSlices = compute;
        p.memorySlices = memory;
        gpu.profiles.push_back(p);
    };
    add("1g.10gb", 1, 1);
    add("2g.20gb", 2, 2);
    add("3g.40gb", 3, 4);
    add("4g.40gb", 4, 4);
    add("7g.80gb", 7, 8);
    return gpu;
}

PoolResource machine(const char *id, int gpus)
{
    PoolResource r;
    r.id = id;
    r.gpus = gpus;
    r.gpuType = "h100-sxm";
    r.gpuMemoryGiB = 80.0;
    r.mig = h100Mig();
    return r;
}

GpuClaim claim(const char *tenant, SharingMode mode, int64_t startHour, int64_t endHour, int gpu = 0,
               const char *resource = "node-a")
{
    static int line = 1;
    GpuClaim c;
    c.tenant = tenant;
    c.resource = resource;
    c.gpu = gpu;
    c.mode = mode;
    c.start = kT0 + startHour * kHour;
    c.end = kT0 + endHour * kHour;
    c.line = ++line;
    return c;
}

GpuClaim mig(const char *tenant, const char *profile, int64_t startHour = 0, int64_t endHour = 24)
{
    GpuClaim c = claim(tenant, SharingMode::Mig, startHour, endHour);
    c.profile = profile;
    return c;
}

GpuClaim shared(const char *tenant, SharingMode mode, const char *share, int64_t startHour = 0, int64_t endHour = 24)
{
    GpuClaim c = claim(tenant, mode, startHour, endHour);
    c.share = dec(share);
    return c;
}

// Hourly charges of `perHour` on `resource` for `hours` hours from kT0.
FocusCharges hourly(const char *perHour, int hours, const char *resource = "node-a")
{
    FocusCharges charges;
    charges.currencies = {"USD"};
    charges.names = {"", resource, "other-node"};
    for (int h = 0; h < hours; ++h) {
        FocusCharge row;
        row.periodStart = kT0 + h * kHour;
        row.periodEnd = row.periodStart + kHour;
        row.effectiveCost = dec(perHour);
        row.billedCost = row.effectiveCost;
        row.resource = 1;
        row.line = h + 2;
        charges.rows.push_back(row);
    }
    return charges;
}

ChargebackOptions day(MigBasis basis = MigBasis::Compute, IdleShare idle = IdleShare::Apart)
{
    ChargebackOptions o;
    o.from = kT0;
    o.to = kT0 + 24 * kHour;
    o.basis = basis;
    o.idle = idle;
    return o;
}

const ChargebackLine &line(const ChargebackResult &r, const std::string &key, ChargebackBy by = ChargebackBy::Tenant)
{
    for (const ChargebackLine &l : r.table(by).lines)
        if (l.key == key)
            return l;
    FAIL("no line " << key);
    throw 0;
}

// Every table re-adds to the invoice to the cent, in the slice-hour and in the quota split.
void requireReAdds(const ChargebackResult &r)
{
    for (const ChargebackTable &t : r.tables) {
        Decimal sum, quota;
        for (const ChargebackLine &l : t.lines) {
            REQUIRE(l.cost == l.cost.rounded(2));
            sum += l.cost;
            quota += l.quotaCost;
        }
        REQUIRE(sum == r.invoice);
        REQUIRE(quota == r.invoice);
    }
}

} // namespace

TEST_CASE("Chargeback MIG: a 1g.10gb and a 3g.40gb claim by compute, memory and the larger slices", "[chargeback]")
{
    // One H100 for a day at $3.50 an hour: $84.00. Compute basis: 1/7 and 3/7 of the GPU.
    const std::vector<PoolResource> pool{machine("node-a", 1)};
    const std::vector<GpuClaim> claims{mig("alpha", "1g.10gb"), mig("beta", "3g.40gb")};
    const FocusCharges bill = hourly("3.50", 24);

    const ChargebackResult compute = allocateChargeback(pool, claims, bill, day());
    REQUIRE(compute.invoice == dec("84.00"));
    REQUIRE(compute.charges == 24);
    CHECK(line(compute, "alpha").cost == dec("12.00"));           // 84 × 1/7
    CHECK(line(compute, "beta").cost == dec("36.00"));            // 84 × 3/7
    CHECK(line(compute, "(idle capacity)").cost == dec("36.00")); // 84 × 3/7 unclaimed
    CHECK(line(compute, "alpha").sliceHours == Approx(24.0 / 7));
    CHECK(line(compute, "beta").claimHours == Approx(24.0));
    requireReAdds(compute);

    // Kueue counts the two claims alike: the $48.00 they were charged, half each.
    CHECK(line(compute, "alpha").quotaCost == dec("24.00"));
    CHECK(line(compute, "beta").quotaCost == dec("24.00"));
    CHECK(line(compute, "alpha").quotaDifference == dec("12.00"));
    CHECK(line(compute, "beta").quotaDifference == dec("-12.00"));
    CHECK(line(compute, "(idle capacity)").quotaDifference == dec("0"));

    const ChargebackResult memory = allocateChargeback(pool, claims, bill, day(MigBasis::Memory));
    CHECK(line(memory, "alpha").cost == dec("10.50"));            // 84 × 1/8
    CHECK(line(memory, "beta").cost == dec("42.00"));             // 84 × 4/8
    CHECK(line(memory, "(idle capacity)").cost == dec("31.50"));
    requireReAdds(memory);

    const ChargebackResult larger = allocateChargeback(pool, claims, bill, day(MigBasis::Larger));
    CHECK(line(larger, "alpha").cost == dec("12.00"));            // max(1/7, 1/8)
    CHECK(line(larger, "beta").cost == dec("42.00"));             // max(3/7, 4/8)
    CHECK(line(larger, "(idle capacity)").cost == dec("30.00"));
    requireReAdds(larger);

    // The Kueue configuration that counts slices instead of claims names both profiles.
    const std::string yaml = kueueQuotaConfig(pool, claims, MigBasis::Compute);
    CHECK(yaml.find("input: nvidia.com/mig-1g.10gb") != std::string::npos);
    CHECK(yaml.find("input: nvidia.com/mig-3g.40gb") != std::string::npos);
    CHECK(yaml.find("headroom.io/gpu-compute-slices: \"3\"") != std::string::npos);
    CHECK(yaml.find("gpu-memory-slices") == std::string::npos);
}

TEST_CASE("Chargeback time-slicing: configured shares, idle apart and spread pro rata", "[chargeback]")
{
    // $10 an hour for 10 hours; x holds half the GPU's time, y a quarter.
    const std::vector<PoolResource> pool{machine("node-a", 1)};
    const std::vector<GpuClaim> claims{shared("x", SharingMode::TimeSlice, "0.5", 0, 10),
                                       shared("y", SharingMode::TimeSlice, "0.25", 0, 10)};
    const FocusCharges bill = hourly("10", 10);
    ChargebackOptions o = day();
    o.to = kT0 + 10 * kHour;

    const ChargebackResult apart = allocateChargeback(pool, claims, bill, o);
    CHECK(line(apart, "x").cost == dec("50.00"));
    CHECK(line(apart, "y").cost == dec("25.00"));
    CHECK(line(apart, "(idle capacity)").cost == dec("25.00"));
    requireReAdds(apart);

    // Spread: idle $25 goes 2:1, so x = 66.666…, y = 33.333…; rounding down gives 99.99 and
    // the last cent goes to the larger remainder (x's .67).
    o.idle = IdleShare::ProRata;
    const ChargebackResult spread = allocateChargeback(pool, claims, bill, o);
    CHECK(line(spread, "x").cost == dec("66.67"));
    CHECK(line(spread, "y").cost == dec("33.33"));
    CHECK(line(spread, "(idle capacity)").cost == dec("0.00"));
    requireReAdds(spread);
}

TEST_CASE("Chargeback MPS: shares past the GPU are scaled to fill it, with a warning", "[chargeback]")
{
    const std::vector<PoolResource> pool{machine("node-a", 1)};
    const std::vector<GpuClaim> claims{shared("p", SharingMode::Mps, "0.6"), shared("q", SharingMode::Mps, "0.9")};
    const ChargebackResult r = allocateChargeback(pool, claims, hourly("2.50", 24), day());
    // 0.6 : 0.9 scaled to 0.4 : 0.6 of $60.00.
    CHECK(line(r, "p").cost == dec("24.00"));
    CHECK(line(r, "q").cost == dec("36.00"));
    CHECK(line(r, "(idle capacity)").cost == dec("0.00"));
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0].find("scaled down") != std::string::npos);
    requireReAdds(r);
}

TEST_CASE("Chargeback over-commit: resident memory over the GPU's memory", "[chargeback]")
{
    const std::vector<PoolResource> pool{machine("node-a", 1)};
    GpuClaim a = claim("a", SharingMode::OverCommit, 0, 24);
    a.residentGiB = 20.0;   // a quarter of 80 GiB
    GpuClaim b = claim("b", SharingMode::OverCommit, 12, 24);
    b.residentGiB = 60.0;   // three quarters, for half the day
    const ChargebackResult r = allocateChargeback(pool, {a, b}, hourly("4", 24), day());
    CHECK(line(r, "a").cost == dec("24.00"));     // 96 × 0.25
    CHECK(line(r, "b").cost == dec("36.00"));     // 96 × 0.75 × 12/24
    CHECK(line(r, "(idle capacity)").cost == dec("36.00"));
    CHECK(line(r, "b").sliceHours == Approx(9.0));
    requireReAdds(r);
}

TEST_CASE("Chargeback exclusive: whole GPUs of an 8-GPU machine, claims cut by the charge periods", "[chargeback]")
{
    // One daily charge of $768.00 for 8 GPUs (8 × 24 h × $4). t holds GPUs 0 and 1 for 12 h;
    // u holds GPU 5 from 10:30 to 12:15 (1.75 h).
    const std::vector<PoolResource> pool{machine("node-a", 8)};
    FocusCharges bill = hourly("768", 1);
    bill.rows[0].periodEnd = kT0 + 24 * kHour;
    GpuClaim t0 = claim("t", SharingMode::Exclusive, 0, 12, 0);
    GpuClaim t1 = claim("t", SharingMode::Exclusive, 0, 12, 1);
    GpuClaim u = claim("u", SharingMode::Exclusive, 0, 0, 5);
    u.start = kT0 + 10 * kHour + 1800;
    u.end = kT0 + 12 * kHour + 900;
    t0.model = "llama-3.1-8b";
    t1.model = "llama-3.1-8b";
    t0.nameSpace = t1.nameSpace = u.nameSpace = "ml";
    const ChargebackResult r = allocateChargeback(pool, {t0, t1, u}, bill, day());
    CHECK(line(r, "t").cost == dec("96.00"));     // 768 × 24 GPU-h ÷ 192
    CHECK(line(r, "u").cost == dec("7.00"));      // 768 × 1.75 ÷ 192
    CHECK(line(r, "(idle capacity)").cost == dec("665.00"));
    CHECK(line(r, "llama-3.1-8b", ChargebackBy::Model).cost == dec("96.00"));
    CHECK(line(r, "(none)", ChargebackBy::Model).cost == dec("7.00"));
    CHECK(line(r, "ml", ChargebackBy::Namespace).cost == dec("103.00"));
    CHECK(r.poolGpuHours == Approx(192.0));
    requireReAdds(r);
}

TEST_CASE("Chargeback rounding: thirds re-add to the invoice by largest remainder", "[chargeback]")
{
    const std::vector<PoolResource> pool{machine("node-a", 1)};
    const std::vector<GpuClaim> claims{shared("a", SharingMode::TimeSlice, "0.333333"),
                                       shared("b", SharingMode::TimeSlice, "0.333333"),
                                       shared("c", SharingMode::TimeSlice, "0.333334")};
    // $100.01 over one day in one charge: exact parts 33.3366333, 33.3366333 and 33.3367333,
    // idle 0.0000001. Rounded down they make 99.99; the two cents left go to the largest
    // remainders: c's .0067 first, then a's .0066 (tied with b's, a comes first by name).
    FocusCharges bill = hourly("100.01", 1);
    bill.rows[0].periodEnd = kT0 + 24 * kHour;
    const ChargebackResult r = allocateChargeback(pool, claims, bill, day());
    CHECK(line(r, "a").exact == dec("33.336633330"));
    CHECK(line(r, "a").cost == dec("33.34"));
    CHECK(line(r, "b").cost == dec("33.33"));
    CHECK(line(r, "c").cost == dec("33.34"));
    CHECK(line(r, "(idle capacity)").cost == dec("0.00"));
    requireReAdds(r);
}

TEST_CASE("Chargeback trend: each key's days re-add to its cost", "[chargeback]")
{
    // Three days of hourly $1.01 charges; a holds a third of the GPU's time throughout.
    const std::vector<PoolResource> pool{machine("node-a", 1)};
    const std::vector<GpuClaim> claims{shared("a", SharingMode::TimeSlice, "0.333333", 0, 72)};
    ChargebackOptions o = day();
    o.to = kT0 + 72 * kHour;
    const ChargebackResult r = allocateChargeback(pool, claims, hourly("1.01", 72), o);
    for (const ChargebackLine &l : r.table(ChargebackBy::Tenant).lines) {
        REQUIRE(l.days.size() == 3);
        Decimal sum;
        for (const ChargebackDay &d : l.days)
            sum += d.cost;
        CHECK(sum == l.cost);
    }
    // 24 × 1.01 × 0.333333 = 8.07999192 a day, 24.23997576 in all → 24.24; days 8.08, 8.08, 8.08.
    CHECK(line(r, "a").cost == dec("24.24"));
    CHECK(line(r, "a").days[0].cost == dec("8.08"));
    requireReAdds(r);
}

TEST_CASE("Chargeback cost per million tokens from the deployments a key's claims name", "[chargeback]")
{
    const std::vector<PoolResource> pool{machine("node-a", 1)};
    GpuClaim a = mig("alpha", "3g.40gb");
    a.deployment = "chat";
    GpuClaim b = mig("beta", "4g.40gb");
    b.deployment = "code";
    const int64_t day0 = kT0 / 86400;
    TokensByDay tokens{{"chat", {{day0, {3'000'000, 600'000}}, {day0 + 1, {1'000'000, 400'000}}}},
                       {"code", {{day0, {0, 0}}}}};
    const ChargebackResult r = allocateChargeback(pool, {a, b}, hourly("3.50", 24), day(), tokens);
    const ChargebackLine &alpha = line(r, "alpha");
    REQUIRE(alpha.cost == dec("36.00"));
    REQUIRE(alpha.hasTokens);
    CHECK(*costPerMillion(alpha.cost, alpha.outputTokens) == dec("36.0000"));
    CHECK(*costPerMillion(alpha.cost, alpha.inputTokens + alpha.outputTokens) == dec("7.2000"));
    CHECK_FALSE(costPerMillion(line(r, "beta").cost, 0).has_value());
    // The trend: the day's cost (all of it on the first day) and each day's tokens.
    REQUIRE(alpha.days.size() == 2);
    CHECK(alpha.days[0].day == day0);
    CHECK(alpha.days[0].cost == dec("36.00"));
    CHECK(alpha.days[0].outputTokens == 600'000);
    CHECK(alpha.days[1].cost == dec("0.00"));
    CHECK(alpha.days[1].inputTokens == 1'000'000);

    ServingHours hours;
    ServingHour h;
    h.deployment = "chat";
    h.hour = kT0 / 3600;
    h.promptTokens.increase = 10;
    h.generationTokens.increase = 5;
    hours.hours.push_back(h);
    h.hour = kT0 / 3600 + 24;   // the next day: outside
    hours.hours.push_back(h);
    const auto counted = deploymentTokens(hours, kT0, kT0 + 24 * kHour);
    REQUIRE(counted.at("chat").size() == 1);
    CHECK(counted.at("chat").at(day0).inputTokens == 10);
    CHECK(counted.at("chat").at(day0).outputTokens == 5);
}

TEST_CASE("Chargeback refuses claims it cannot charge, naming the line", "[chargeback]")
{
    const std::vector<PoolResource> pool{machine("node-a", 1)};
    const FocusCharges bill = hourly("1", 24);
    const auto refused = [&](std::vector<GpuClaim> claims, const std::string &needle) {
        try {
            allocateChargeback(pool, claims, bill, day());
            FAIL("accepted");
        } catch (const InputError &e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(needle) != std::string::npos);
        }
    };
    refused({mig("a", "4g.40gb"), mig("b", "4g.40gb")}, "hold more than the whole of GPU 0 of node-a");
    refused({mig("a", "1g.10gb"), shared("b", SharingMode::Mps, "0.5")}, "different sharing modes");
    refused({mig("a", "5g.50gb")}, "MIG profile \"5g.50gb\" is not one of");
    GpuClaim off = mig("a", "1g.10gb");
    off.gpu = 3;
    refused({off}, "GPU 3 is not on node-a");
    GpuClaim elsewhere = mig("a", "1g.10gb");
    elsewhere.resource = "node-z";
    refused({elsewhere}, "resource \"node-z\" is not one of the pool's machines");
    GpuClaim x = mig("a", "1g.10gb");
    GpuClaim y = mig("b", "1g.10gb");
    x.deployment = y.deployment = "chat";
    refused({x, y}, "deployment \"chat\" is named by tenant \"a\"");
    refused({shared("a", SharingMode::TimeSlice, "1.5")}, "is not in (0, 1]");

    ChargebackOptions later = day();
    later.from += 48 * kHour;
    later.to += 48 * kHour;
    CHECK_THROWS_WITH(allocateChargeback(pool, {mig("a", "1g.10gb")}, bill, later),
                      Catch::Contains("no charge in the period"));
}

TEST_CASE("Chargeback re-adds to the cent on random pools of every mode, and the quota split keeps idle's cents", "[chargeback]")
{
    // A linear congruential stream: the same pools on every run.
    uint64_t state = 12345;
    const auto next = [&](uint64_t n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % n;
    };
    const char *profiles[] = {"1g.10gb", "2g.20gb", "3g.40gb"};
    const char *shares[] = {"0.1", "0.25", "0.333333", "0.5"};
    for (int round = 0; round < 40; ++round) {
        INFO("round " << round);
        std::vector<PoolResource> pool{machine("node-a", 4)};
        std::vector<GpuClaim> claims;
        for (int gpu = 0; gpu < 4; ++gpu) {
            const SharingMode mode = gpu == 0 ? SharingMode::Mig : gpu == 1 ? SharingMode::TimeSlice
                                   : gpu == 2 ? SharingMode::Mps : SharingMode::OverCommit;
            for (int k = 0; k < 3; ++k) {
                const int64_t start = int64_t(next(20));
                GpuClaim c = claim(("t" + std::to_string(next(5))).c_str(), mode, start, start + 1 + int64_t(next(12)), gpu);
                c.model = "m" + std::to_string(next(3));
                c.nameSpace = "ns" + std::to_string(next(2));
                if (mode == SharingMode::Mig)
                    c.profile = k == 2 ? "1g.10gb" : profiles[next(2)];   // at most 2 + 2 + 1 of 7 slices
                else if (mode == SharingMode::OverCommit)
                    c.residentGiB = 5.0 + double(next(60));
                else
                    c.share = dec(shares[next(4)]);
                c.start += int64_t(next(3600));   // off the hour
                claims.push_back(c);
            }
        }
        FocusCharges bill = hourly("0", 30);
        for (FocusCharge &row : bill.rows)
            row.effectiveCost = Decimal::fromUnits(Decimal::Units(next(900'000'000'000ULL)) + 1);   // up to $900, to 10^-9
        for (IdleShare idle : {IdleShare::Apart, IdleShare::ProRata}) {
            ChargebackOptions o = day(MigBasis::Larger, idle);
            o.to = kT0 + 30 * kHour;
            const ChargebackResult r = allocateChargeback(pool, claims, bill, o);
            requireReAdds(r);
            for (const ChargebackTable &t : r.tables) {
                CHECK(t.lines.back().idle);
                CHECK(t.lines.back().quotaCost == t.lines.back().cost);
                for (const ChargebackLine &l : t.lines) {
                    // Rounded within a cent of the exact amount, and its days re-add to it.
                    CHECK((l.cost - l.exact).units() < Decimal::Units(10'000'000));
                    CHECK((l.exact - l.cost).units() < Decimal::Units(10'000'000));
                    Decimal days;
                    for (const ChargebackDay &d : l.days)
                        days += d.cost;
                    CHECK(days == l.cost);
                }
            }
        }
    }
}

TEST_CASE("Chargeback: the user guide's hand example of each sharing mode, one GPU at $3.50 an hour for a day", "[chargeback]")
{
    const std::vector<PoolResource> pool{machine("node-a", 1)};
    const FocusCharges bill = hourly("3.50", 24);   // $84.00
    SECTION("time-slicing")
    {
        const std::vector<GpuClaim> claims{shared("x", SharingMode::TimeSlice, "0.5"),
                                           shared("y", SharingMode::TimeSlice, "0.25")};
        const ChargebackResult apart = allocateChargeback(pool, claims, bill, day());
        CHECK(line(apart, "x").cost == dec("42.00"));
        CHECK(line(apart, "y").cost == dec("21.00"));
        CHECK(line(apart, "(idle capacity)").cost == dec("21.00"));
        const ChargebackResult spread = allocateChargeback(pool, claims, bill, day(MigBasis::Compute, IdleShare::ProRata));
        CHECK(line(spread, "x").cost == dec("56.00"));
        CHECK(line(spread, "y").cost == dec("28.00"));
    }
    SECTION("MPS")
    {
        const ChargebackResult r = allocateChargeback(
            pool, {shared("p", SharingMode::Mps, "0.6"), shared("q", SharingMode::Mps, "0.9")}, bill, day());
        CHECK(line(r, "p").cost == dec("33.60"));
        CHECK(line(r, "q").cost == dec("50.40"));
    }
    SECTION("over-commit")
    {
        GpuClaim a = claim("a", SharingMode::OverCommit, 0, 24);
        a.residentGiB = 20.0;
        GpuClaim b = claim("b", SharingMode::OverCommit, 12, 24);
        b.residentGiB = 60.0;
        const ChargebackResult r = allocateChargeback(pool, {a, b}, bill, day());
        CHECK(line(r, "a").cost == dec("21.00"));
        CHECK(line(r, "b").cost == dec("31.50"));
        CHECK(line(r, "(idle capacity)").cost == dec("31.50"));
    }
}
