#include "engine/partitioning/packing_advice.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;

namespace {

bool has(const std::vector<PackingAdvice> &advice, const std::string &subject, const std::string &what)
{
    for (const PackingAdvice &a : advice)
        if (a.subject == subject && a.advice == what && !a.reason.empty())
            return true;
    return false;
}

} // namespace

TEST_CASE("when not to pack: each rule gives its advice with a reason", "[mig][advice]")
{
    const std::vector<PackingCandidate> candidates = {
        {"chat", "flagship", "none", false},
        {"pretrain", "training", "none", false},
        {"claims", "internal", "regulated", false},
        {"embed", "embedding", "none", true},
        {"wiki-bot", "internal", "soft", false},
    };
    const auto advice = packingAdvice(candidates, 14);
    CHECK(has(advice, "chat", "give it exclusive GPUs"));
    CHECK(has(advice, "pretrain", "never pack it"));
    CHECK(has(advice, "claims", "MIG or nothing"));
    CHECK(has(advice, "embed", "skip elasticity"));
    CHECK(advice.size() == 4); // the plain internal tool is fine to pack
    CHECK_FALSE(has(advice, "fleet", "skip the partitioning machinery"));
}

TEST_CASE("when not to pack: fleets under eight GPUs skip the machinery", "[mig][advice]")
{
    const auto small = packingAdvice({{"tool", "internal", "none", false}}, 6);
    REQUIRE(small.size() == 1);
    CHECK(small.front().subject == "fleet");
    CHECK(small.front().reason.find("6 GPUs") != std::string::npos);
    CHECK(packingAdvice({{"tool", "internal", "none", false}}, 8).empty());
    // With the saving known, the reason weighs the threshold against it.
    const auto named = packingAdvice({}, 5, 4);
    REQUIRE(named.size() == 1);
    CHECK(named.front().reason == "a fleet of 5 GPUs is under the threshold of ~8: MIG layouts, sharing policies and "
                                  "their operations cost more than the 4 GPUs partitioning saves here");
}
