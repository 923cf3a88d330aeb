// `headroom forecast --telemetry`: long-form telemetry aggregated to hourly series, the total or
// one primitive forecast like --series; gaps refused, duplicates noted, bad rows exit 2.
#include "common/clirunner.h"

#include "engine/forecast/forecast.h"
#include "engine/forecast/telemetry.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

using namespace headroom;

namespace {

// Two primitives, 12 hours: acme sampled twice an hour, globex once; hour `skip` of globex
// can be left out.
QByteArray telemetry(int skipGlobexHour = -1)
{
    QByteArray csv = "timestamp,tenant,model,workload_type,gpus\n";
    for (int h = 0; h < 12; ++h) {
        const QByteArray hour = QByteArray::number(h).rightJustified(2, '0');
        csv += "2026-03-02T" + hour + ":00:00Z,acme,llama,chat," + QByteArray::number(10 + h % 4) + "\n";
        csv += "2026-03-02T" + hour + ":30:00Z,acme,llama,chat," + QByteArray::number(12 + h % 4) + "\n";
        if (h != skipGlobexHour)
            csv += "2026-03-02T" + hour + ":00:00+00:00,globex,mixtral,batch," + QByteArray::number(5 + (h * 7) % 3) + "\n";
    }
    return csv;
}

std::vector<double> doubles(const QJsonValue &value)
{
    std::vector<double> out;
    for (const QJsonValue &v : value.toArray())
        out.push_back(v.toDouble());
    return out;
}

const QStringList kFixed = {"--season", "4", "--trend", "none", "--alpha", "0.3", "--gamma", "0.2", "--json"};

} // namespace

TEST_CASE("forecast --telemetry fits the hourly total of all primitives")
{
    CliFixture ws;
    const QString path = ws.writeFile("telemetry.csv", telemetry());
    RUN_HEADROOM(r, ws, (QStringList{"forecast", "--telemetry", path} + kFixed));
    REQUIRE(r.exitCode == 0);
    std::vector<double> total;
    for (int h = 0; h < 12; ++h)
        total.push_back((10 + h % 4 + 12 + h % 4) / 2.0 + 5 + (h * 7) % 3);
    engine::FitOptions fit;
    fit.fixedParams = engine::SmoothingParams{0.3, 0.0, 0.2, 1.0};
    const engine::SmoothingModel model =
        engine::fitSmoothing(total, {engine::TrendKind::None, engine::SeasonKind::Additive, 4}, fit);
    const std::vector<double> fitted = doubles(parseJsonObject(r.out)["fitted"]);
    REQUIRE(fitted.size() == 12);
    for (size_t i = 0; i < 12; ++i)
        CHECK(std::abs(fitted[i] - model.fitted[i]) <= 1e-9);
}

TEST_CASE("forecast --primitive picks one primitive of the telemetry")
{
    CliFixture ws;
    const QString path = ws.writeFile("telemetry.csv", telemetry());
    RUN_HEADROOM(r, ws, (QStringList{"forecast", "--telemetry", path, "--primitive", "acme/llama/chat"} + kFixed));
    REQUIRE(r.exitCode == 0);
    const std::vector<double> fitted = doubles(parseJsonObject(r.out)["fitted"]);
    REQUIRE(fitted.size() == 12);
    CHECK(fitted[0] == Approx(11.0)); // the heuristic level + season reproduce hour 0's mean

    RUN_HEADROOM(table, ws, ({"forecast", "--telemetry", path, "--primitive", "globex/mixtral/batch", "--season", "4",
                              "--trend", "none"}));
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("on 12 values from " + path + " (globex/mixtral/batch)"));

    RUN_HEADROOM(unknown, ws, ({"forecast", "--telemetry", path, "--primitive", "acme/llama/batch"}));
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("--primitive: no primitive 'acme/llama/batch'"));
    CHECK(unknown.err.contains("acme/llama/chat, globex/mixtral/batch"));
    RUN_HEADROOM(malformed, ws, ({"forecast", "--telemetry", path, "--primitive", "acme"}));
    CHECK(malformed.exitCode == 2);
    CHECK(malformed.err.contains("expected tenant/model/workload_type"));
}

TEST_CASE("forecast --telemetry refuses gaps and notes duplicates")
{
    CliFixture ws;
    const QString gappy = ws.writeFile("gappy.csv", telemetry(5));
    RUN_HEADROOM(gap, ws, ({"forecast", "--telemetry", gappy, "--season", "4"}));
    CHECK(gap.exitCode == 2);
    CHECK(gap.err.contains("--telemetry: globex/mixtral/batch has 1 hour without samples, the first at "
                           "2026-03-02T05:00:00Z; gaps are not filled"));
    // The primitive without gaps still forecasts.
    RUN_HEADROOM(other, ws, ({"forecast", "--telemetry", gappy, "--season", "4", "--primitive", "acme/llama/chat"}));
    CHECK(other.exitCode == 0);

    const QString doubled =
        ws.writeFile("doubled.csv", telemetry() + "2026-03-02T03:30:00Z,acme,llama,chat,99\n");
    RUN_HEADROOM(dup, ws, ({"forecast", "--telemetry", doubled, "--season", "4", "--trend", "none"}));
    CHECK(dup.exitCode == 0);
    CHECK(dup.err.contains("note: 1 duplicate sample left out"));
    CHECK(dup.err.contains("on line 38 repeating line 12"));
}

TEST_CASE("forecast --telemetry rejects bad input with exit 2")
{
    CliFixture ws;
    const QString good = ws.writeFile("telemetry.csv", telemetry());
    const QString bad = ws.writeFile("bad.csv", "timestamp,tenant,model,workload_type,gpus\n"
                                                "2026-03-02T00:00:00Z,acme,llama,chat,-3\n");
    RUN_HEADROOM(negative, ws, ({"forecast", "--telemetry", bad}));
    CHECK(negative.exitCode == 2);
    CHECK(negative.err.contains("bad.csv: line 2: field \"gpus\": -3 GPUs is negative"));
    RUN_HEADROOM(both, ws, ({"forecast", "--telemetry", good, "--series", good}));
    CHECK(both.exitCode == 2);
    CHECK(both.err.contains("either --series or --telemetry"));
    RUN_HEADROOM(stray, ws, ({"forecast", "--series", good, "--primitive", "a/b/c"}));
    CHECK(stray.exitCode == 2);
    CHECK(stray.err.contains("--primitive: only used with --telemetry"));
    RUN_HEADROOM(none, ws, ({"forecast"}));
    CHECK(none.exitCode == 2);
    CHECK(none.err.contains("--series is required"));
    RUN_HEADROOM(shortSeries, ws, ({"forecast", "--telemetry", good, "--season", "24"}));
    CHECK(shortSeries.exitCode == 2);
    CHECK(shortSeries.err.contains("--telemetry: a seasonal model needs at least two seasons"));
}

TEST_CASE("forecast --telemetry refuses a small file whose dense hourly series would not fit, with exit code 2")
{
    // 14 KB: 300 primitives sampled 20 years apart once needed 1.38 GB of hourly arrays.
    CliFixture ws;
    QByteArray csv = "timestamp,tenant,model,workload_type,gpus\n";
    for (int p = 0; p < 300; ++p) {
        const QByteArray tenant = "t" + QByteArray::number(p);
        csv += "2006-01-01T00:00:00Z," + tenant + ",m,chat,1\n2025-12-31T00:00:00Z," + tenant + ",m,chat,2\n";
    }
    const QString path = ws.writeFile("wide.csv", csv);
    RUN_HEADROOM(r, ws, ({"forecast", "--telemetry", path, "--season", "24"}));
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains("300 primitives over 175297 hours need 52589100 hourly values, more than 16000000"));

    RUN_HEADROOM(cut, ws, ({"forecast", "--telemetry",
                            ws.writeFile("long.csv", "timestamp,tenant,model,workload_type,gpus\n2026-03-02T00:00:00Z,a,m,chat,"
                                                         + QByteArray(100'000, '7') + "\n")}));
    CHECK(cut.exitCode == 2);
    CHECK(cut.err.contains("line 2: field 5: longer than 4096 characters"));
    CHECK(cut.err.size() < 400);
}

TEST_CASE("forecast --telemetry escapes control characters in the primitive names it echoes")
{
    CliFixture ws;
    const QByteArray evil = "glo\x1b]0;pwned\x07" "bex";
    const QString path = ws.writeFile("telemetry.csv", telemetry().replace("globex", evil));
    RUN_HEADROOM(unknown, ws, ({"forecast", "--telemetry", path, "--primitive", "acme/llama/batch"}));
    CHECK(unknown.exitCode == 2);
    CHECK_FALSE(unknown.err.contains(QChar(0x1b)));
    CHECK(unknown.err.contains("glo\\x1B]0;pwned\\x07bex/mixtral/batch"));
    RUN_HEADROOM(table, ws, ({"forecast", "--telemetry", path, "--primitive", QString::fromUtf8(evil) + "/mixtral/batch",
                              "--season", "4", "--trend", "none"}));
    REQUIRE(table.exitCode == 0);
    CHECK_FALSE(table.out.contains(QChar(0x1b)));
    CHECK(table.out.contains("(glo\\x1B]0;pwned\\x07bex/mixtral/batch)"));
}
