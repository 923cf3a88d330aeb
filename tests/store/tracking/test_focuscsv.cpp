#include "common/storetestsupport.h"
#include "store/tracking/focuscsv.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QTemporaryDir>
#include <string>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using engine::Decimal;

namespace {

const QString kFolder = QStringLiteral(HEADROOM_SHARED_DATA "/focus-examples/");

const QByteArray kHeader = "ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,"
                           "BillingCurrency,ResourceId,SkuId,CommitmentDiscountId,CommitmentDiscountStatus\n";

std::string errorOf(const QByteArray &csv)
{
    return storeErrorOf([&] { parseFocusCsv(csv, QStringLiteral("f.csv")); });
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

Decimal dec(const char *text) { return *Decimal::parse(text); }

} // namespace

TEST_CASE("every published FOCUS example imports", "[focuscsv]")
{
    const QStringList files = QDir(kFolder).entryList({QStringLiteral("*.csv")}, QDir::Files, QDir::Name);
    REQUIRE(files.size() == 15);
    for (const QString &name : files) {
        INFO(name.toStdString());
        const engine::FocusCharges charges = readFocusCsv(kFolder + name);
        CHECK(!charges.rows.empty());
        CHECK(!charges.currencies.empty());
    }
}

TEST_CASE("FOCUS rows keep exact costs, periods and commitments", "[focuscsv]")
{
    const auto charges = readFocusCsv(kFolder + QStringLiteral("aws_underutilized_50pct.csv"));
    // 1 purchase, 12 used and 12 unused hours, 12 on-demand rows (storage, databases, Lambda).
    REQUIRE(charges.rows.size() == 37);
    REQUIRE(charges.currencies == std::vector<std::string>{"USD"});
    const engine::FocusCharge &purchase = charges.rows.front();
    CHECK(purchase.category == engine::ChargeCategory::Purchase);
    CHECK(purchase.billedCost == dec("693000.0"));
    CHECK(purchase.effectiveCost.isZero());
    CHECK(purchase.line == 2);
    REQUIRE(charges.commitments.size() == 2);
    CHECK(charges.commitments[1].id == "arn:aws:savingsplans::123456789012:savingsplan/sp-abc123def456");
    CHECK(charges.commitments[1].name == "EC2 Instance Savings Plan");
    CHECK(charges.commitments[1].category == "Spend");
    int used = 0, unused = 0;
    for (const auto &row : charges.rows) {
        used += row.status == engine::CommitmentStatus::Used;
        unused += row.status == engine::CommitmentStatus::Unused;
        if (row.status != engine::CommitmentStatus::None) {
            CHECK(row.commitment == 1);
            CHECK(row.periodEnd - row.periodStart == 3600);
        }
    }
    CHECK(used == 12);
    CHECK(unused == 12);
    // 2026-01-01T00:00:00Z
    CHECK(charges.rows[1].periodStart == 1767225600);
    CHECK(charges.warnings.empty());
}

TEST_CASE("FOCUS appendix examples: no currency column and hours past 23 are read with warnings", "[focuscsv]")
{
    const auto usage = readFocusCsv(kFolder + QStringLiteral("commitment_discount_usage_scenario_3.csv"));
    REQUIRE(usage.rows.size() == 2);
    CHECK(usage.currencies == std::vector<std::string>{"USD"});
    REQUIRE(usage.warnings.size() == 1);
    CHECK(contains(usage.warnings[0], "no BillingCurrency column"));
    CHECK(usage.rows[0].effectiveCost == dec("0.75"));
    CHECK(usage.rows[1].status == engine::CommitmentStatus::Unused);
    CHECK(usage.rows[1].resource != 0);

    const auto purchase = readFocusCsv(kFolder + QStringLiteral("commitment_discount_purchase_scenario_2.csv"));
    bool hourWarning = false;
    for (const auto &w : purchase.warnings)
        hourWarning = hourWarning || contains(w, "hour 30 is past 23; read as 2023-02-02T06:00:00Z");
    CHECK(hourWarning);
}

TEST_CASE("FOCUS columns in any order and case, optional ones absent", "[focuscsv]")
{
    const QByteArray csv = "effectivecost,BILLEDCOST,chargecategory,ChargePeriodEnd,ChargePeriodStart,x_Custom\n"
                           "1.25,1.25,usage,2026-01-01T02:00:00+01:00,2026-01-01T00:00:00Z,anything\n";
    const auto charges = parseFocusCsv(csv, QStringLiteral("f.csv"));
    REQUIRE(charges.rows.size() == 1);
    CHECK(charges.rows[0].periodEnd - charges.rows[0].periodStart == 3600);
    CHECK(charges.rows[0].effectiveCost == dec("1.25"));
    CHECK(charges.rows[0].pricing == engine::PricingCategory::None);
}

TEST_CASE("FOCUS: a missing mandatory column is named", "[focuscsv]")
{
    const std::string message = errorOf("ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost\n"
                                        "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1\n");
    CHECK(contains(message, "f.csv: line 1: field \"EffectiveCost\": missing column"));
}

TEST_CASE("FOCUS: mixed currencies are kept apart", "[focuscsv]")
{
    const auto charges = parseFocusCsv(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,2,2,USD,r1,s,,\n"
                                                 "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,3,3,EUR,r2,s,,\n",
                                       QStringLiteral("f.csv"));
    REQUIRE(charges.currencies == std::vector<std::string>{"USD", "EUR"});
    CHECK(charges.rows[0].currency == 0);
    CHECK(charges.rows[1].currency == 1);
    CHECK(contains(errorOf(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,2,2,usd,r1,s,,\n"),
                   "line 2: field \"BillingCurrency\": \"usd\" is not a currency code"));
}

TEST_CASE("FOCUS: credits and negative costs are legal and exact", "[focuscsv]")
{
    const auto charges = parseFocusCsv(kHeader + "2026-01-01T00:00:00Z,2026-02-01T00:00:00Z,Credit,-150.123456789,-150.123456789,USD,,,,\n"
                                                 "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,0.1000000000,0.1,USD,r,s,,\n",
                                       QStringLiteral("f.csv"));
    REQUIRE(charges.rows.size() == 2);
    CHECK(charges.rows[0].category == engine::ChargeCategory::Credit);
    CHECK(charges.rows[0].billedCost == dec("-150.123456789"));
    CHECK(charges.rows[1].billedCost == dec("0.1"));
    CHECK(contains(errorOf(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,0.1234567891,0,USD,r,s,,\n"),
                   "line 2: field \"BilledCost\": \"0.1234567891\" is not a plain decimal amount"));
    CHECK(contains(errorOf(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1e3,0,USD,r,s,,\n"),
                   "field \"BilledCost\": \"1e3\" is not a plain decimal"));
}

TEST_CASE("FOCUS: overlapping charge periods for the same usage are refused naming both lines", "[focuscsv]")
{
    const QByteArray csv = kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,r1,s,,\n"
                                     "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,r2,s,,\n"
                                     "2026-01-01T00:30:00Z,2026-01-01T01:30:00Z,Usage,1,1,USD,r1,s,,\n";
    const std::string message = errorOf(csv);
    CHECK(contains(message, "f.csv: line 4: field \"ChargePeriodStart\": the charge period overlaps the one on line 2 "
                            "for the same resource \"r1\""));
    // Back-to-back hours are not an overlap; nor are two SKUs of one resource in one hour.
    CHECK(parseFocusCsv(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,r1,s,,\n"
                                  "2026-01-01T01:00:00Z,2026-01-01T02:00:00Z,Usage,1,1,USD,r1,s,,\n"
                                  "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,r1,t,,\n",
                        QStringLiteral("f.csv"))
              .rows.size()
          == 3);
}

TEST_CASE("FOCUS: bytes that are not UTF-8 are refused with line and field", "[focuscsv]")
{
    const QByteArray csv = kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,r1,s,,\n"
                                     "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,caf\xE9,s,,\n";
    CHECK(contains(errorOf(csv), "f.csv: line 3: field 7: not UTF-8 text (byte 0xe9)"));
    // A valid two-byte character is fine.
    CHECK(parseFocusCsv(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,caf\xC3\xA9,s,,\n",
                        QStringLiteral("f.csv"))
              .name(1)
          == "caf\xC3\xA9");
}

TEST_CASE("FOCUS: bad values are refused with line and field", "[focuscsv]")
{
    CHECK(contains(errorOf(kHeader + "2026-01-01T01:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,r,s,,\n"),
                   "line 2: field \"ChargePeriodEnd\": \"2026-01-01T01:00:00Z\" is not after ChargePeriodStart"));
    CHECK(contains(errorOf(kHeader + "2026-02-30T00:00:00Z,2026-03-01T01:00:00Z,Usage,1,1,USD,r,s,,\n"),
                   "field \"ChargePeriodStart\": \"2026-02-30T00:00:00Z\" is not a real date"));
    CHECK(contains(errorOf(kHeader + "yesterday,2026-03-01T01:00:00Z,Usage,1,1,USD,r,s,,\n"),
                   "field \"ChargePeriodStart\": \"yesterday\" is not an ISO 8601 time"));
    CHECK(contains(errorOf(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Refund,1,1,USD,r,s,,\n"),
                   "field \"ChargeCategory\": \"Refund\" is not a FOCUS charge category"));
    CHECK(contains(errorOf(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,,1,USD,r,s,,\n"),
                   "line 2: field \"BilledCost\": empty"));
    CHECK(contains(errorOf(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,r,s,,Used\n"),
                   "field \"CommitmentDiscountStatus\": \"Used\" on a row without CommitmentDiscountId"));
    CHECK(contains(errorOf(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,USD,r,s,c,Half\n"),
                   "\"Half\" is not Used or Unused"));
    CHECK(contains(errorOf(kHeader + "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1\n"),
                   "line 2 has 5 values but the header names 10 columns"));
    CHECK(contains(errorOf(""), "f.csv: the file is empty"));
}

TEST_CASE("FOCUS: a refused file returns nothing", "[focuscsv]")
{
    // The error is on the last line: no partial result is observable, the call throws.
    QByteArray csv = kHeader;
    for (int h = 0; h < 50; ++h)
        csv += QStringLiteral("2026-01-01T%1:00:00Z,2026-01-01T%1:30:00Z,Usage,1,1,USD,r%2,s,,\n")
                   .arg(h % 24, 2, 10, QLatin1Char('0'))
                   .arg(h)
                   .toUtf8();
    csv += "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,one,1,USD,r,s,,\n";
    CHECK(contains(errorOf(csv), "line 52: field \"BilledCost\""));
}
