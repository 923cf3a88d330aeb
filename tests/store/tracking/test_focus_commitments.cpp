#include "engine/tracking/tracking.h"
#include "store/tracking/focuscsv.h"

#include <catch2/catch.hpp>

#include <QDir>

using namespace headroom;
using engine::Decimal;

namespace {

const QString kFolder = QStringLiteral(HEADROOM_SHARED_DATA "/focus-examples/");

engine::CommitmentReport commitmentsOf(const char *file)
{
    return engine::analyseCommitments(store::readFocusCsv(kFolder + QString::fromLatin1(file)));
}

Decimal dec(const char *text) { return *Decimal::parse(text); }

} // namespace

TEST_CASE("commitment figures of the published examples match the hand computation", "[focuscsv][tracking]")
{
    // aws_underutilized_50pct.csv, by hand: 12 Used rows (2026-01-01 00:00–12:00) and 12
    // Unused rows (12:00–24:00), each with EffectiveCost 79.11.
    //   used   = 12 × 79.11 = 949.32      unused = 12 × 79.11 = 949.32
    //   utilization = 949.32 ÷ (949.32 + 949.32) = 0.5; hours 12 used, 12 unused.
    // Its on-demand rows are S3, RDS, Lambda and DynamoDB, none of them EC2: no overflow.
    const auto half = commitmentsOf("aws_underutilized_50pct.csv");
    REQUIRE(half.commitments.size() == 1);
    const auto &h = half.commitments[0];
    CHECK(h.id == "arn:aws:savingsplans::123456789012:savingsplan/sp-abc123def456");
    CHECK(h.name == "EC2 Instance Savings Plan");
    CHECK(h.currency == "USD");
    CHECK(h.usedCost == dec("949.32"));
    CHECK(h.unusedCost == dec("949.32"));
    CHECK(h.utilization == 0.5);
    CHECK(h.hoursUsed == 12);
    CHECK(h.hoursUnused == 12);
    CHECK(h.underUsed);
    CHECK(half.onDemandOverflow.empty());

    // aws_overflow_150pct.csv, by hand: 24 Used rows at 24.20 (2026-01-01, all day), no Unused
    // row; 12 EC2 on-demand rows (2026-01-02 00:00–12:00, same service and region) at 36.30.
    //   used = 24 × 24.20 = 580.80, unused 0, utilization 1
    //   on-demand overflow = 12 × 36.30 = 435.60 (S3, RDS, Lambda, DynamoDB rows excluded)
    const auto over = commitmentsOf("aws_overflow_150pct.csv");
    REQUIRE(over.commitments.size() == 1);
    CHECK(over.commitments[0].usedCost == dec("580.80"));
    CHECK(over.commitments[0].unusedCost.isZero());
    CHECK(over.commitments[0].utilization == 1.0);
    CHECK(over.commitments[0].hoursUsed == 24);
    CHECK(over.commitments[0].hoursUnused == 0);
    CHECK_FALSE(over.commitments[0].underUsed);
    REQUIRE(over.onDemandOverflow.size() == 1);
    CHECK(over.onDemandOverflow[0].amount == dec("435.60"));
    CHECK(over.onDemandOverflow[0].currency == "USD");

    // aws_underutilized_75pct.csv: 18 × 52.40 = 943.20 used, 6 × 52.40 = 314.40 unused,
    // 943.20 ÷ 1,257.60 = 0.75.
    const auto threeQuarters = commitmentsOf("aws_underutilized_75pct.csv");
    CHECK(threeQuarters.commitments.at(0).usedCost == dec("943.20"));
    CHECK(threeQuarters.commitments.at(0).unusedCost == dec("314.40"));
    CHECK(threeQuarters.commitments.at(0).utilization == Approx(0.75).margin(1e-12));
}

TEST_CASE("the under-used flag fires on the under-used examples and not on the fully used ones", "[focuscsv][tracking]")
{
    for (const char *file : {"aws_underutilized_50pct.csv", "aws_underutilized_75pct.csv", "aws_zero_utilization.csv",
                             "commitment_discount_usage_scenario_2.csv", "commitment_discount_usage_scenario_3.csv"}) {
        INFO(file);
        const auto report = commitmentsOf(file);
        REQUIRE(report.commitments.size() == 1);
        CHECK(report.commitments[0].underUsed);
    }
    CHECK(commitmentsOf("aws_zero_utilization.csv").commitments[0].utilization == 0.0);
    CHECK(commitmentsOf("aws_zero_utilization.csv").commitments[0].unusedCost == dec("967.20")); // 24 × 40.30
    for (const char *file : {"aws_overflow_150pct.csv", "aws_reserved_instance_partial_upfront_100pct.csv",
                             "aws_savings_plan_no_upfront_100pct.csv", "azure_reservation_no_upfront_100pct.csv",
                             "gcp_resource_cud_no_upfront_100pct.csv", "commitment_discount_usage_scenario_1.csv",
                             "commitment_discount_usage_scenario_4.csv"}) {
        INFO(file);
        const auto report = commitmentsOf(file);
        REQUIRE(report.commitments.size() == 1);
        CHECK(report.commitments[0].utilization == 1.0);
        CHECK_FALSE(report.commitments[0].underUsed);
    }
}
