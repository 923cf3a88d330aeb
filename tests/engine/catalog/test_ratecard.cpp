#include "cost/costsupport.h"

#include "engine/catalog/ratecard.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace headroom::engine;
using headroom::test::dec;

namespace {

// AWS p5 H100 after the June 2025 price cut, with example commitments.
RateCard awsH100()
{
    RateCard card;
    card.provider = "AWS";
    card.region = "us-east-1";
    card.gpuId = "h100-sxm";
    card.instanceType = "p5.48xlarge";
    card.effectiveDate = "2025-06-01";
    card.onDemand = dec("6.88");
    card.reserved1y = dec("4.82");
    card.reserved1yUpfront = dec("0.5");
    card.reserved3y = dec("3.44");
    card.reserved3yUpfront = dec("1");
    card.spot = dec("2.75");
    card.spotInterruptionRate = dec("0.05");
    card.reservationLeadWeeks = 8;
    card.source = "example";
    return card;
}

std::vector<std::string> fieldsOf(const std::vector<FieldProblem> &problems)
{
    std::vector<std::string> fields;
    for (const FieldProblem &p : problems)
        fields.push_back(p.field);
    return fields;
}

struct BadCard {
    std::string field;
    std::function<void(RateCard &)> spoil;
};

} // namespace

TEST_CASE("a complete rate card passes validation", "[ratecard]")
{
    CHECK(validate(awsH100()).empty());
    RateCard onDemandOnly = awsH100();
    onDemandOnly.reserved1y = Decimal();
    onDemandOnly.reserved3y = Decimal();
    onDemandOnly.spot = Decimal();
    onDemandOnly.effectiveDate = "2024-02-29";
    CHECK(validate(onDemandOnly).empty());
    CHECK(awsH100().historyKey() == "AWS/us-east-1/h100-sxm");
    CHECK(awsH100().key() == "AWS/us-east-1/h100-sxm@2025-06-01");
}

TEST_CASE("each bad rate card field is reported by its CSV key", "[ratecard]")
{
    const std::vector<BadCard> cases = {
        {"provider", [](RateCard &c) { c.provider = ""; }},
        {"region", [](RateCard &c) { c.region = ""; }},
        {"gpu", [](RateCard &c) { c.gpuId = ""; }},
        {"currency", [](RateCard &c) { c.currency = "usd"; }},
        {"currency", [](RateCard &c) { c.currency = "US"; }},
        {"currency", [](RateCard &c) { c.currency = "USDX"; }},
        {"effective_date", [](RateCard &c) { c.effectiveDate = ""; }},
        {"effective_date", [](RateCard &c) { c.effectiveDate = "2025-6-1"; }},
        {"effective_date", [](RateCard &c) { c.effectiveDate = "2025-13-01"; }},
        {"effective_date", [](RateCard &c) { c.effectiveDate = "2025-02-29"; }},
        {"effective_date", [](RateCard &c) { c.effectiveDate = "2025-04-31"; }},
        {"effective_date", [](RateCard &c) { c.effectiveDate = "2025/06/01"; }},
        {"effective_date", [](RateCard &c) { c.effectiveDate = "2025-06-00"; }},
        {"on_demand", [](RateCard &c) { c.onDemand = Decimal(); }},
        {"on_demand", [](RateCard &c) { c.onDemand = dec("-6.88"); }},
        {"reserved_1y", [](RateCard &c) { c.reserved1y = dec("-1"); }},
        {"reserved_1y", [](RateCard &c) { c.reserved1y = dec("6.88"); }},
        {"reserved_3y", [](RateCard &c) { c.reserved3y = dec("7"); }},
        {"reserved_1y_upfront", [](RateCard &c) { c.reserved1yUpfront = dec("1.01"); }},
        {"reserved_3y_upfront", [](RateCard &c) { c.reserved3yUpfront = dec("-0.1"); }},
        {"spot", [](RateCard &c) { c.spot = dec("-0.01"); }},
        {"spot", [](RateCard &c) { c.spot = dec("9"); }},
        {"spot_interruption_rate", [](RateCard &c) { c.spotInterruptionRate = dec("2"); }},
        {"lead_weeks", [](RateCard &c) { c.reservationLeadWeeks = -1; }},
        {"lead_weeks", [](RateCard &c) { c.reservationLeadWeeks = 105; }},
    };
    for (const BadCard &bad : cases) {
        RateCard card = awsH100();
        bad.spoil(card);
        INFO(bad.field);
        CHECK(fieldsOf(validate(card)) == std::vector<std::string>{bad.field});
    }
}

TEST_CASE("a committed rate at or above on-demand never pays", "[ratecard]")
{
    RateCard card = awsH100();
    card.reserved1y = dec("7.5");
    const std::vector<FieldProblem> problems = validate(card);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].field == "reserved_1y");
    CHECK(problems[0].message == "reserved_1y of 7.5 is at or above on-demand 6.88: the commitment never pays");

    card = awsH100();
    card.reserved3y = card.onDemand;
    REQUIRE(validate(card).size() == 1);
    CHECK(validate(card)[0].message == "reserved_3y of 6.88 is at or above on-demand 6.88: the commitment never pays");
}

TEST_CASE("the card in force is the latest effective on or before the date", "[ratecard]")
{
    RateCard before = awsH100();
    before.effectiveDate = "2024-01-01";
    before.onDemand = dec("12.29");
    RateCard after = awsH100();
    RateCard other = awsH100();
    other.region = "eu-west-1";
    other.effectiveDate = "2025-01-01";
    const std::vector<RateCard> cards = {after, other, before};
    const std::string key = "AWS/us-east-1/h100-sxm";

    CHECK(cardInForce(cards, key, "2023-12-31") == nullptr);
    REQUIRE(cardInForce(cards, key, "2024-01-01") != nullptr);
    CHECK(cardInForce(cards, key, "2024-01-01")->onDemand == dec("12.29"));
    CHECK(cardInForce(cards, key, "2025-05-31")->onDemand == dec("12.29"));
    CHECK(cardInForce(cards, key, "2025-06-01")->onDemand == dec("6.88"));
    CHECK(cardInForce(cards, key, "2030-01-01")->effectiveDate == "2025-06-01");
    CHECK(cardInForce(cards, "AWS/eu-west-1/h100-sxm", "2025-06-01")->region == "eu-west-1");
    CHECK(cardInForce(cards, "GCP/us-central1/h100-sxm", "2025-06-01") == nullptr);
}
