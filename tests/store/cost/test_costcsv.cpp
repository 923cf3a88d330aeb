#include "common/storetestsupport.h"

#include "store/cost/costcsv.h"

#include <QFile>
#include <QTemporaryDir>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using engine::Decimal;

namespace {

const QByteArray kRateHeader =
    "provider,region,gpu,instance_type,currency,effective_date,on_demand,reserved_1y,"
    "reserved_1y_upfront,reserved_3y,reserved_3y_upfront,spot,spot_interruption_rate,"
    "lead_weeks,committed_are_examples,source\n";

QByteArray rateRow(const QByteArray &date, const QByteArray &onDemand = "6.88",
                   const QByteArray &source = "list price")
{
    return "AWS,us-east-1,h100-sxm,p5.48xlarge,USD," + date + "," + onDemand
        + ",4.2656,0,3.096,0.5,0,0,8,1," + source + "\n";
}

std::string rateErrorOf(const QByteArray &csv)
{
    return storeErrorOf([&] { parseRateCardsCsv(csv, QStringLiteral("rates.csv")); });
}

std::string demandErrorOf(const QByteArray &csv)
{
    return storeErrorOf([&] { parseDemandCsv(csv, QStringLiteral("demand.csv")); });
}

std::vector<std::string> texts(const std::vector<Decimal> &values)
{
    std::vector<std::string> result;
    for (const Decimal &value : values)
        result.push_back(value.toString());
    return result;
}

// Hourly rows from 2024-01-01T00:00:00Z, one per value.
QByteArray isoRows(const std::vector<int> &hours)
{
    QByteArray out;
    for (int hour : hours)
        out += QStringLiteral("2024-01-01T%1:00:00Z,%2\n")
                   .arg(hour, 2, 10, QLatin1Char('0'))
                   .arg(hour + 100)
                   .toUtf8();
    return out;
}

} // namespace

TEST_CASE("rate card CSV: quoted fields, CRLF and a last line without a line break")
{
    const QByteArray csv = QByteArray(kRateHeader).replace("\n", "\r\n")
        + "\"AWS\",us-east-1,h100-sxm,p5.48xlarge,USD,2025-06-01,6.88,4.2656,0,3.096,0.5,0,0,8,1,"
          "\"AWS, \"\"after the cut\"\"\r\nsecond line\"\r\n"
        + "  GCP , us-central1,h100-sxm,a3-highgpu-8g,USD,2025-01-01,10.9790625,6.80701875,0,"
          "4.940578125,0.5,6.57,0.05,8,true,\" spaced \"";
    const auto cards = parseRateCardsCsv(csv, QStringLiteral("rates.csv"));
    REQUIRE(cards.size() == 2);
    CHECK(cards[0].provider == "AWS");
    CHECK(cards[0].source == "AWS, \"after the cut\"\nsecond line");
    CHECK(cards[0].onDemand.toString() == "6.88");
    CHECK(cards[1].provider == "GCP");
    CHECK(cards[1].region == "us-central1");
    CHECK(cards[1].onDemand.toString() == "10.9790625");
    CHECK(cards[1].reserved3y.toString() == "4.940578125");
    CHECK(cards[1].spot.toString() == "6.57");
    CHECK(cards[1].committedAreExamples);
    CHECK(cards[1].source == " spaced ");
}

TEST_CASE("rate card CSV: columns in any order")
{
    const QByteArray csv =
        "source,currency,gpu,region,provider,instance_type,effective_date,on_demand,reserved_1y,"
        "reserved_1y_upfront,reserved_3y,reserved_3y_upfront,spot,spot_interruption_rate,"
        "lead_weeks,committed_are_examples\n"
        "quote,EUR,h200,eu-west-1,Cloud,x,2025-03-01,7.91,0,0,0,0,2,0.1,0,0\n";
    const auto cards = parseRateCardsCsv(csv, QStringLiteral("rates.csv"));
    REQUIRE(cards.size() == 1);
    CHECK(cards[0].source == "quote");
    CHECK(cards[0].currency == "EUR");
    CHECK(cards[0].gpuId == "h200");
    CHECK(cards[0].spot.toString() == "2");
    CHECK(cards[0].spotInterruptionRate.toString() == "0.1");
    CHECK_FALSE(cards[0].committedAreExamples);
}

TEST_CASE("rate card CSV errors name the file, the line and the field")
{
    QByteArray csv = kRateHeader;
    for (int month = 1; month <= 5; ++month)
        csv += rateRow(QStringLiteral("2025-0%1-01").arg(month).toUtf8());
    CHECK(rateErrorOf(csv + rateRow("2025-06-01", "abc"))
          == "rates.csv: line 7: field \"on_demand\": expected a decimal number, got \"abc\"");
    CHECK(rateErrorOf(csv + rateRow("2025-06-01", "1e3"))
          == "rates.csv: line 7: field \"on_demand\": expected a decimal number, got \"1e3\"");
    CHECK(rateErrorOf(csv + rateRow("2025-06-01", "0"))
          == "rates.csv: line 7: field \"on_demand\": on_demand must be greater than 0 (got 0)");
    CHECK_THAT(rateErrorOf(csv + rateRow("2025-06-01", "4")),
               StartsWith("rates.csv: line 7: field \"reserved_1y\": ") && Contains("never pays"));
    CHECK(rateErrorOf(csv + rateRow("2025-02-01"))
          == "rates.csv: line 7: rate card \"AWS/us-east-1/h100-sxm@2025-02-01\" appears more than "
             "once (first on line 3)");
    CHECK(rateErrorOf(csv + "AWS,us-east-1,h100-sxm\n")
          == "rates.csv: line 7 has 3 values but the header names 16 columns");
    CHECK(rateErrorOf(kRateHeader
                      + "AWS,us-east-1,h100-sxm,p5,USD,2025-06-01,6.88,4,0,3,0.5,0,0,eight,1,x\n")
          == "rates.csv: line 2: field \"lead_weeks\": expected a whole number, got \"eight\"");
    CHECK(rateErrorOf(kRateHeader
                      + "AWS,us-east-1,h100-sxm,p5,USD,2025-06-01,6.88,4,0,3,0.5,0,0,8,maybe,x\n")
          == "rates.csv: line 2: field \"committed_are_examples\": expected 1 or 0, got \"maybe\"");
    CHECK(rateErrorOf(kRateHeader + rateRow("2025-6-1"))
          == "rates.csv: line 2: field \"effective_date\": effective_date must be a date as "
             "yyyy-mm-dd (got \"2025-6-1\")");
    CHECK(rateErrorOf(kRateHeader + rateRow("2025-06-01", "6.88", "\"unclosed"))
          == "rates.csv: line 2: a value opens with a quote mark that is never closed, so the rest of the file would be read as that one value");
    CHECK(rateErrorOf(kRateHeader + rateRow("2025-06-01", "6.88", "\"closed\" then more"))
          == "rates.csv: line 2, value 16: there is text after the closing quote mark; a quote mark inside "
             "a quoted value is written twice (\"\")");
}

TEST_CASE("rate card CSV: a bad header, an empty file or no rows is an error")
{
    CHECK_THAT(rateErrorOf(""), StartsWith("rates.csv: the file is empty; expected a header row "
                                           "with the columns provider, region, gpu,"));
    CHECK_THAT(rateErrorOf("\n\r\n"), StartsWith("rates.csv: the file is empty"));
    CHECK(rateErrorOf(kRateHeader) == "rates.csv: no rate cards after the header on line 1");
    CHECK(rateErrorOf(QByteArray(kRateHeader).replace(",spot,", ",")
                      + "AWS,us-east-1,h100-sxm,p5,USD,2025-06-01,6.88,4,0,3,0.5,0,8,1,x\n")
          == "rates.csv: line 1: missing column \"spot\"");
    CHECK(rateErrorOf(QByteArray(kRateHeader).replace(",spot,", ",").replace(",source", ""))
          == "rates.csv: line 1: missing columns \"spot\", \"source\"");
    CHECK_THAT(rateErrorOf(QByteArray(kRateHeader).replace("source", "notes")),
               StartsWith("rates.csv: line 1: unknown column \"notes\""));
    CHECK(rateErrorOf(QByteArray(kRateHeader).replace("source", "spot"))
          == "rates.csv: line 1: column \"spot\" appears twice");
}

TEST_CASE("rate card CSV export reads back to the same cards")
{
    engine::RateCard card;
    card.provider = "Cloud \"Q\", Ltd";
    card.region = "eu-west-1";
    card.gpuId = "mi300x";
    card.instanceType = "8x MI300X";
    card.currency = "EUR";
    card.effectiveDate = "2024-02-29";
    card.onDemand = *Decimal::parse("10.9790625");
    card.reserved1y = *Decimal::parse("6.123456789");
    card.reserved1yUpfront = *Decimal::parse("0.25");
    card.reserved3y = *Decimal::parse("4.5");
    card.reserved3yUpfront = *Decimal::parse("1");
    card.spot = *Decimal::parse("3.000000001");
    card.spotInterruptionRate = *Decimal::parse("0.125");
    card.reservationLeadWeeks = 13;
    card.committedAreExamples = false;
    card.source = "line one\nline two, with comma";
    std::vector<engine::RateCard> cards = parseRateCardsCsv(
        readBytes(sourceFile(QStringLiteral("data/ratecards.csv"))),
        QStringLiteral("ratecards.csv"));
    cards.push_back(card);

    const QByteArray csv = rateCardsToCsv(cards);
    CHECK(csv.startsWith(kRateHeader));
    const auto back = parseRateCardsCsv(csv, QStringLiteral("export.csv"));
    REQUIRE(back.size() == cards.size());
    for (size_t i = 0; i < cards.size(); ++i) {
        INFO(cards[i].key());
        CHECK(back[i].key() == cards[i].key());
        CHECK(back[i].instanceType == cards[i].instanceType);
        CHECK(back[i].currency == cards[i].currency);
        CHECK(back[i].onDemand == cards[i].onDemand);
        CHECK(back[i].reserved1y == cards[i].reserved1y);
        CHECK(back[i].reserved1yUpfront == cards[i].reserved1yUpfront);
        CHECK(back[i].reserved3y == cards[i].reserved3y);
        CHECK(back[i].reserved3yUpfront == cards[i].reserved3yUpfront);
        CHECK(back[i].spot == cards[i].spot);
        CHECK(back[i].spotInterruptionRate == cards[i].spotInterruptionRate);
        CHECK(back[i].reservationLeadWeeks == cards[i].reservationLeadWeeks);
        CHECK(back[i].committedAreExamples == cards[i].committedAreExamples);
        CHECK(back[i].source == cards[i].source);
    }
    CHECK(rateCardsToCsv(back) == csv);
}

TEST_CASE("the shipped rate cards parse and hold the published rates")
{
    const QByteArray bytes = readBytes(sourceFile(QStringLiteral("data/ratecards.csv")));
    CHECK(readBytes(QStringLiteral(":/catalogs/ratecards.csv")) == bytes);
    const auto cards = parseRateCardsCsv(bytes, QStringLiteral("ratecards.csv"));
    REQUIRE(cards.size() == 7);

    const auto find = [&](const std::string &key) -> const engine::RateCard & {
        for (const auto &card : cards) {
            if (card.key() == key)
                return card;
        }
        FAIL("no rate card " << key);
        return cards.front();
    };
    CHECK(find("AWS/us-east-1/h100-sxm@2025-06-01").onDemand.toString() == "6.88");
    CHECK(find("AWS/us-east-1/h100-sxm@2023-07-26").onDemand == *Decimal::parse("98.32") / 8);
    CHECK(find("AWS/us-east-1/a100-sxm-40gb@2025-06-01").onDemand.toString() == "2.74");
    CHECK(find("AWS/us-east-1/h200@2025-06-01").onDemand.toString() == "7.91");
    const auto &gcp = find("GCP/us-central1/h100-sxm@2025-01-01");
    CHECK(gcp.onDemand.toString() == "10.9790625");
    CHECK(gcp.onDemand == *Decimal::parse("87.8325") / 8);
    CHECK(gcp.spot.toString() == "6.57");
    CHECK(find("Lambda/us-east-1/h100-sxm@2025-06-01").onDemand.toString() == "3.99");
    const auto &coreweave = find("CoreWeave/US-EAST-04/h100-sxm@2025-06-01");
    CHECK(coreweave.onDemand.toString() == "6.16");
    CHECK(coreweave.spot.toString() == "2.46");

    for (const auto &card : cards) {
        INFO(card.key());
        CHECK(card.currency == "USD");
        CHECK(card.committedAreExamples);
        CHECK_THAT(card.source, Contains("EXAMPLES"));
        CHECK(card.reserved1y == (card.onDemand * *Decimal::parse("0.62")));
        CHECK(card.reserved3y == (card.onDemand * *Decimal::parse("0.45")));
        CHECK(card.reserved1yUpfront.isZero());
        CHECK(card.reserved3yUpfront.toString() == "0.5");
        CHECK(card.reservationLeadWeeks > 0);
    }
}

TEST_CASE("demand CSV: timestamp and gpus, ISO 8601 or Unix seconds")
{
    const auto iso = parseDemandCsv("timestamp,gpus\n" + isoRows({0, 1, 2, 3}),
                                    QStringLiteral("plans/q1.csv"));
    CHECK(iso.name == "q1");
    CHECK(iso.source == "plans/q1.csv");
    CHECK(iso.startEpochSeconds == 1704067200);
    CHECK(texts(iso.gpus) == std::vector<std::string>{"100", "101", "102", "103"});

    const auto fromUnix = parseDemandCsv("1704067200,212.5\n1704070800,0\n1704074400,7.000000001",
                                     QStringLiteral("demand.csv"));
    CHECK(fromUnix.startEpochSeconds == 1704067200);
    CHECK(texts(fromUnix.gpus) == std::vector<std::string>{"212.5", "0", "7.000000001"});

    const auto offset = parseDemandCsv("TIMESTAMP,GPUS\r\n2024-01-01T01:00:00+01:00,1\r\n"
                                       "2024-01-01T01:00:00,2\r\n",
                                       QStringLiteral("demand.csv"));
    CHECK(offset.startEpochSeconds == 1704067200);
    CHECK(texts(offset.gpus) == std::vector<std::string>{"1", "2"});
}

TEST_CASE("demand CSV: a single gpus column, with or without header")
{
    const auto withHeader = parseDemandCsv("gpus\n3\n4.25\n\"5\"\n\n", QStringLiteral("a.csv"));
    CHECK(withHeader.startEpochSeconds == 0);
    CHECK(texts(withHeader.gpus) == std::vector<std::string>{"3", "4.25", "5"});

    const auto bare = parseDemandCsv("3\r\n 4.25 \r\n5", QStringLiteral("b.csv"));
    CHECK(bare.name == "b");
    CHECK(texts(bare.gpus) == std::vector<std::string>{"3", "4.25", "5"});
}

TEST_CASE("demand CSV errors name the file, the line and the field")
{
    CHECK(demandErrorOf("gpus\n1\n2\n3\n-3\n4\n")
          == "demand.csv: line 5: field \"gpus\": must be ≥ 0 (got -3)");
    CHECK(demandErrorOf("gpus\n1\nabc\n")
          == "demand.csv: line 3: field \"gpus\": expected a decimal number, got \"abc\"");
    CHECK(demandErrorOf("demand\n1\n")
          == "demand.csv: line 1: field \"gpus\": expected a decimal number or the header "
             "\"gpus\", got \"demand\"");
    CHECK(demandErrorOf("timestamp,gpus\n2024-01-01T00:00:00Z,1\nyesterday,2\n")
          == "demand.csv: line 3: field \"timestamp\": expected an ISO 8601 UTC time such as "
             "2024-01-01T10:00:00Z or Unix seconds, in the years 1 to 9999, got \"yesterday\"");
    CHECK(demandErrorOf("timestamp,gpus\n2024-01-01T00:00:00Z,1\n2024-01-01T00:30:00Z,2\n")
          == "demand.csv: line 3: field \"timestamp\": expected 2024-01-01T01:00:00Z, one hour "
             "after line 2, got \"2024-01-01T00:30:00Z\"");
    CHECK(demandErrorOf("timestamp,gpus\n2024-01-01T05:00:00Z,1\n2024-01-01T05:00:00Z,2\n")
          == "demand.csv: line 3: field \"timestamp\": expected 2024-01-01T06:00:00Z, one hour "
             "after line 2, got \"2024-01-01T05:00:00Z\"");
    CHECK(demandErrorOf("timestamp,gpus\n2024-01-01T00:00:00Z,1\n2024-01-01T01:00:00Z\n")
          == "demand.csv: line 3: expected 2 fields (timestamp,gpus), got 1");
    CHECK(demandErrorOf("1\n2,3\n") == "demand.csv: line 2: expected 1 field (gpus), got 2");
    CHECK(demandErrorOf("a,b,c\n") == "demand.csv: line 1: expected 1 field (gpus) or 2 "
                                      "(timestamp,gpus), got 3");
    CHECK(demandErrorOf("gpus\n1\n\n2\n")
          == "demand.csv: line 3: empty line (every hour needs a value; remove the line or give "
             "the hour its value)");
    CHECK(demandErrorOf("gpus\n\"1\n") == "demand.csv: line 2: a value opens with a quote mark that is never closed, so the rest of the file would be read as that one value");
}

TEST_CASE("demand CSV: a gap in the hours is reported with its missing hours")
{
    QByteArray csv = "timestamp,gpus\n" + isoRows({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    CHECK(demandErrorOf(csv + isoRows({13}))
          == "demand.csv: line 12: gap: hours 2024-01-01T10:00:00Z to 2024-01-01T12:00:00Z are "
             "missing (series must be hourly without gaps)");
    CHECK(demandErrorOf(csv + isoRows({11}))
          == "demand.csv: line 12: gap: hour 2024-01-01T10:00:00Z is missing (series must be "
             "hourly without gaps)");
    CHECK(demandErrorOf("1704067200,1\n1704078000,1\n")
          == "demand.csv: line 2: gap: hours 2024-01-01T01:00:00Z to 2024-01-01T02:00:00Z are "
             "missing (series must be hourly without gaps)");
    CHECK(parseDemandCsv(csv + isoRows({10}), QStringLiteral("demand.csv")).gpus.size() == 11);
}

TEST_CASE("demand CSV: an empty file or a header without rows is an error")
{
    CHECK(demandErrorOf("") == "demand.csv: the file is empty; expected a \"gpus\" column or "
                               "\"timestamp,gpus\" columns with one row per hour");
    CHECK(demandErrorOf("\r\n\n") == demandErrorOf(""));
    CHECK(demandErrorOf("timestamp,gpus\n")
          == "demand.csv: no data rows after the header on line 1");
    CHECK(demandErrorOf("gpus") == "demand.csv: no data rows after the header on line 1");
}

TEST_CASE("demand CSV export reads back to the same series")
{
    engine::DemandSeries timed;
    timed.startEpochSeconds = 1704067200;
    for (int hour = 0; hour < 48; ++hour)
        timed.gpus.push_back(Decimal::fromUnits(Decimal::Units(hour) * 1'234'567'891));
    const QByteArray csv = demandToCsv(timed);
    CHECK(csv.startsWith("timestamp,gpus\n2024-01-01T00:00:00Z,0\n"
                         "2024-01-01T01:00:00Z,1.234567891\n"));
    const auto back = parseDemandCsv(csv, QStringLiteral("timed.csv"));
    CHECK(back.startEpochSeconds == timed.startEpochSeconds);
    CHECK(back.gpus == timed.gpus);

    engine::DemandSeries bare;
    bare.gpus = {Decimal::fromInt(7), *Decimal::parse("0.5")};
    CHECK(demandToCsv(bare) == "gpus\n7\n0.5\n");
    const auto bareBack = parseDemandCsv(demandToCsv(bare), QStringLiteral("bare.csv"));
    CHECK(bareBack.startEpochSeconds == 0);
    CHECK(bareBack.gpus == bare.gpus);
}

TEST_CASE("reading a demand file names the file in every error")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("week.csv"));
    writeBytes(path, "gpus\n1\n-2\n");
    CHECK(storeErrorOf([&] { readDemandCsvFile(path); })
          == path.toStdString() + ": line 3: field \"gpus\": must be ≥ 0 (got -2)");

    writeBytes(path, "gpus\n1\n2\n");
    const auto series = readDemandCsvFile(path);
    CHECK(series.name == "week");
    CHECK(texts(series.gpus) == std::vector<std::string>{"1", "2"});

    const QString missing = dir.filePath(QStringLiteral("missing.csv"));
    CHECK_THAT(storeErrorOf([&] { readDemandCsvFile(missing); }),
               StartsWith("Cannot read the demand file " + missing.toStdString() + ": "));
}
