#include "engine/forecast/telemetry.h"
#include "common/storetestsupport.h"
#include "store/forecast/telemetrycsv.h"

#include <catch2/catch.hpp>

#include <QDateTime>
#include <QTemporaryDir>
#include <string>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;

namespace {

const QByteArray kHeader = "timestamp,tenant,model,workload_type,gpus\n";

std::string errorOf(const QByteArray &csv)
{
    return storeErrorOf([&] { parseTelemetry(csv, QStringLiteral("telemetry.csv")); });
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("telemetry rows read in any column order and any time zone", "[telemetrycsv]")
{
    const QByteArray csv = "gpus,workload_type,model,tenant,timestamp,note\n"
                           "12.5,chat,llama-3.1-70b,acme,2026-03-02T00:30:00Z,a\n"
                           "\n"
                           "7,batch,mixtral-8x7b,globex,2026-03-02T03:15:00+02:00,\n"
                           "3,chat,llama-3.1-70b,acme,2026-03-02T00:00:00,\n";
    const auto samples = parseTelemetry(csv, QStringLiteral("t.csv"));
    REQUIRE(samples.size() == 3);
    const qint64 monday = QDateTime::fromString(QStringLiteral("2026-03-02T00:00:00Z"), Qt::ISODate).toSecsSinceEpoch();
    CHECK(samples[0].epochSeconds == monday + 1800);
    CHECK(samples[0].gpus == 12.5);
    CHECK(samples[0].key.tenant == "acme");
    CHECK(samples[0].key.workloadType == "chat");
    CHECK(samples[0].line == 2);
    CHECK(samples[1].epochSeconds == monday + 3600 + 900); // 03:15 at +02:00 is 01:15 UTC
    CHECK(samples[1].line == 4);
    CHECK(samples[2].epochSeconds == monday);              // no offset: UTC

    const engine::HourlyTelemetry hourly = engine::aggregateHourly(samples);
    CHECK(hourly.startEpochSeconds == monday);
    CHECK(hourly.hours == 2);
    REQUIRE(hourly.primitives.size() == 2);
    CHECK(hourly.primitives[0].gpus[0] == 7.75);
}

TEST_CASE("duplicate telemetry rows are reported with their lines", "[telemetrycsv]")
{
    const QByteArray csv = kHeader + "2026-03-02T01:00:00Z,acme,m,chat,4\n"
                                     "2026-03-02T00:00:00Z,acme,m,chat,2\n"
                                     "2026-03-02T01:00:00Z,acme,m,chat,9\n";
    const engine::HourlyTelemetry hourly = engine::aggregateHourly(parseTelemetry(csv, QStringLiteral("t.csv")));
    REQUIRE(hourly.duplicates.size() == 1);
    CHECK(hourly.duplicates[0].firstLine == 2);
    CHECK(hourly.duplicates[0].line == 4);
    CHECK(hourly.primitives[0].gpus == std::vector<double>{2.0, 4.0});
}

TEST_CASE("bad telemetry files name the line and field", "[telemetrycsv]")
{
    std::string e = errorOf("timestamp,tenant,model,gpus\n2026-03-02T00:00:00Z,a,m,1\n");
    CHECK(contains(e, "line 1"));
    CHECK(contains(e, "\"workload_type\""));
    CHECK(contains(e, "missing column"));

    e = errorOf(kHeader + "2026-03-02T00:00:00Z,a,m,chat,1\n2026-03-32T00:00:00Z,a,m,chat,1\n");
    CHECK(contains(e, "telemetry.csv: line 3: field \"timestamp\""));
    CHECK(contains(e, "ISO 8601"));

    e = errorOf(kHeader + "2026-03-02T00:00:00Z,a,m,chat,nan\n");
    CHECK(contains(e, "line 2: field \"gpus\""));
    CHECK(contains(e, "finite"));

    e = errorOf(kHeader + "2026-03-02T00:00:00Z,a,m,chat,-2\n");
    CHECK(contains(e, "line 2: field \"gpus\""));
    CHECK(contains(e, "negative"));

    e = errorOf(kHeader + "2026-03-02T00:00:00Z,a,m,chat,two\n");
    CHECK(contains(e, "'two' is not a number"));

    e = errorOf(kHeader + "2026-03-02T00:00:00Z,,m,chat,1\n");
    CHECK(contains(e, "line 2: field \"tenant\": is empty"));

    e = errorOf(kHeader + "2026-03-02T00:00:00Z,a,m,chat\n");
    CHECK(contains(e, "line 2 has 4 values but the header names 5 columns"));

    CHECK(contains(errorOf(kHeader), "no samples after the header"));
    CHECK(contains(errorOf(""), "the file is empty"));
    CHECK(contains(storeErrorOf([] { readTelemetry(QStringLiteral("/nonexistent/telemetry.csv")); }),
                   "cannot read the file"));
}

TEST_CASE("the sample telemetry covers three weeks of six primitives without gaps", "[telemetrycsv]")
{
    const auto samples = readTelemetry(sourceFile(QStringLiteral("data/samples/telemetry.csv")));
    const engine::HourlyTelemetry hourly = engine::aggregateHourly(samples);
    CHECK(hourly.hours == 21 * 24);
    CHECK(hourly.primitives.size() == 6);
    CHECK_FALSE(hourly.hasGaps());
    CHECK(hourly.duplicates.empty());
    for (const auto &p : hourly.primitives) {
        INFO(p.key.label());
        CHECK(p.samples >= 21 * 24);
        for (double g : p.gpus)
            CHECK(g >= 0.0);
    }
    const std::vector<double> total = hourly.total();
    double low = total[0], high = total[0];
    for (double v : total) {
        low = std::min(low, v);
        high = std::max(high, v);
    }
    CHECK(high > 1.5 * low); // a visible daily swing
}
