// `headroom forecast` end to end: fixed parameters and known states reproduce the engine run
// in this process, fitted parameters stay in their bounds, the backtest reports its metrics,
// and bad input exits 2 naming the flag or the line.
#include "common/clirunner.h"

#include "engine/forecast/forecast.h"
#include "store/forecast/seriescsv.h"
#include "store/common/storeerror.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

using namespace headroom;

namespace {

// 20 values of a season of 4 on a rising level: five seasons.
const std::vector<double> kSeries = {12.0, 8.5,  14.2, 9.1,  13.6, 9.9,  15.8, 10.4, 15.1, 11.2,
                                     17.3, 12.0, 16.4, 12.9, 18.8, 13.1, 18.0, 14.2, 20.1, 14.9};
const std::vector<double> kSeasonal = {1.5, -2.5, 3.0, -2.0};

QByteArray valueColumn(const std::vector<double> &values, bool header = true)
{
    QByteArray csv = header ? "value\n" : "";
    for (double v : values)
        csv += QByteArray::number(v, 'g', 17) + '\n';
    return csv;
}

QByteArray timestamped(const std::vector<double> &values)
{
    QByteArray csv = "timestamp,value\n";
    for (size_t i = 0; i < values.size(); ++i)
        csv += QStringLiteral("2025-03-01T%1:00:00Z,").arg(int(i), 2, 10, QLatin1Char('0')).toUtf8()
            + QByteArray::number(values[i], 'g', 17) + '\n';
    return csv;
}

QByteArray numberLines(const std::vector<double> &values)
{
    QByteArray text;
    for (double v : values)
        text += QByteArray::number(v, 'g', 17) + '\n';
    return text;
}

std::vector<double> doubles(const QJsonValue &value)
{
    std::vector<double> out;
    for (const QJsonValue &v : value.toArray())
        out.push_back(v.toDouble());
    return out;
}

void checkClose(const std::vector<double> &actual, const std::vector<double> &expected)
{
    REQUIRE(actual.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        INFO("index " << i);
        CHECK(std::abs(actual[i] - expected[i]) <= 1e-9);
    }
}

// `headroom forecast --series bad.csv --season 4 EXTRA` on `csv` written as bad.csv.
CliResult runBad(const CliFixture &ws, const QByteArray &csv, const QStringList &extra)
{
    const QString path = ws.writeFile(QStringLiteral("bad.csv"), csv);
    return ws.run(QStringList{"forecast", "--series", path, "--season", "4"} + extra);
}

} // namespace

TEST_CASE("forecast with fixed parameters and known states matches the engine to 1e-9")
{
    CliFixture ws;
    const QString series = ws.writeFile("series.csv", valueColumn(kSeries));
    const QString seasonal = ws.writeFile("seasonal.txt", numberLines(kSeasonal));

    struct Case {
        const char *trend;
        engine::TrendKind kind;
        QStringList params;
        engine::SmoothingParams fixed;
    };
    const std::vector<Case> cases = {
        {"add", engine::TrendKind::Additive, {"--alpha", "0.35", "--beta", "0.1", "--gamma", "0.2"}, {0.35, 0.1, 0.2, 1.0}},
        {"damped", engine::TrendKind::Damped, {"--alpha", "0.35", "--beta", "0.1", "--gamma", "0.2", "--phi", "0.9"}, {0.35, 0.1, 0.2, 0.9}},
    };
    for (const Case &c : cases) {
        SECTION(std::string("trend ") + c.trend)
        {
            RUN_HEADROOM(r, ws, (QStringList{"forecast", "--series", series, "--season", "4", "--trend", c.trend,
                                  "--seasonal", "add", "--horizon", "6", "--initial-level", "10.5",
                                  "--initial-trend", "0.4", "--initial-seasonal", seasonal, "--json"}
                                 + c.params));
            REQUIRE(r.exitCode == 0);
            const QJsonObject json = parseJsonObject(r.out);
            CHECK(json.keys() == QStringList{"backtest", "fitted", "forecast", "intervals", "params", "sse"});
            CHECK(json["backtest"].isNull());

            engine::FitOptions fit;
            fit.fixedParams = c.fixed;
            fit.knownStates = engine::InitialStates{10.5, 0.4, kSeasonal};
            const engine::SmoothingSpec spec{c.kind, engine::SeasonKind::Additive, 4};
            const engine::SmoothingModel model = engine::fitSmoothing(kSeries, spec, fit);
            const std::vector<double> forecast = engine::forecastSmoothing(model, 6);

            checkClose(doubles(json["fitted"]), model.fitted);
            checkClose(doubles(json["forecast"]), forecast);
            CHECK(std::abs(json["sse"].toDouble() - model.sse) <= 1e-9);
            const QJsonObject params = json["params"].toObject();
            CHECK(params.keys() == QStringList{"alpha", "beta", "gamma", "phi"});
            CHECK(params["alpha"].toDouble() == 0.35);
            CHECK(params["beta"].toDouble() == 0.1);
            CHECK(params["gamma"].toDouble() == 0.2);
            CHECK(params["phi"].toDouble() == c.fixed.phi);

            const engine::SamplePaths paths = engine::simulatePaths(model, 6, 1000, 1);
            checkClose(doubles(json["intervals"]["p05"]), engine::pathQuantiles(paths, 0.05));
            checkClose(doubles(json["intervals"]["p95"]), engine::pathQuantiles(paths, 0.95));
        }
    }
}

TEST_CASE("forecast reads timestamp,value the same as a bare value column")
{
    CliFixture ws;
    const QString bare = ws.writeFile("bare.csv", valueColumn(kSeries, false));
    const QString stamped = ws.writeFile("stamped.csv", timestamped(kSeries));
    const QStringList fixed = {"--season", "4", "--alpha", "0.4", "--beta", "0.05", "--gamma", "0.3", "--json"};
    RUN_HEADROOM(a, ws, (QStringList{"forecast", "--series", bare} + fixed));
    RUN_HEADROOM(b, ws, (QStringList{"forecast", "--series", stamped} + fixed));
    REQUIRE(a.exitCode == 0);
    REQUIRE(b.exitCode == 0);
    CHECK(a.out == b.out);
    CHECK(doubles(parseJsonObject(a.out)["fitted"]).size() == kSeries.size());
}

TEST_CASE("forecast fits parameters within [0, 1] when none is given")
{
    CliFixture ws;
    const QString series = ws.writeFile("series.csv", valueColumn(kSeries));
    for (const char *trend : {"add", "damped", "none"}) {
        SECTION(std::string("trend ") + trend)
        {
            RUN_HEADROOM(r, ws, {"forecast", "--series", series, "--season", "4", "--trend", trend,
                                 "--seasonal", "mul", "--horizon", "8", "--json"});
            REQUIRE(r.exitCode == 0);
            const QJsonObject json = parseJsonObject(r.out);
            const QJsonObject params = json["params"].toObject();
            for (const char *key : {"alpha", "beta", "gamma", "phi"}) {
                INFO(key);
                CHECK(params[key].toDouble() >= 0.0);
                CHECK(params[key].toDouble() <= 1.0);
            }
            if (std::string(trend) == "damped") {
                // statsmodels' bounds for the default fit (initial states estimated).
                CHECK(params["phi"].toDouble() >= 0.8);
                CHECK(params["phi"].toDouble() <= 0.995);
                CHECK(params["beta"].toDouble() <= params["alpha"].toDouble());
            } else {
                CHECK(params["phi"].toDouble() == 1.0);
            }
            if (std::string(trend) == "none")
                CHECK(params["beta"].toDouble() == 0.0);
            const std::vector<double> forecast = doubles(json["forecast"]);
            const std::vector<double> p05 = doubles(json["intervals"]["p05"]);
            const std::vector<double> p95 = doubles(json["intervals"]["p95"]);
            REQUIRE(forecast.size() == 8);
            REQUIRE(p05.size() == 8);
            REQUIRE(p95.size() == 8);
            for (size_t i = 0; i < 8; ++i)
                CHECK(p05[i] < p95[i]);
            // The CLI's default fit is the engine's, which also reports the initial states.
            REQUIRE(json["initial_states"].isObject());
            CHECK(json["initial_states"]["seasonal"].toArray().size() == 4);
            const engine::SmoothingSpec spec{std::string(trend) == "add" ? engine::TrendKind::Additive
                                             : std::string(trend) == "damped" ? engine::TrendKind::Damped
                                                                              : engine::TrendKind::None,
                                             engine::SeasonKind::Multiplicative, 4};
            CHECK(json["sse"].toDouble() == Approx(engine::fitSmoothing(kSeries, spec).sse).epsilon(1e-12));
        }
    }
}

TEST_CASE("forecast --backtest 2 reports MAPE, sMAPE, MASE and coverage")
{
    CliFixture ws;
    const QString series = ws.writeFile("series.csv", valueColumn(kSeries));
    RUN_HEADROOM(r, ws, {"forecast", "--series", series, "--season", "4", "--horizon", "4", "--backtest", "2", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject backtest = parseJsonObject(r.out)["backtest"].toObject();
    CHECK(backtest.keys() == QStringList{"coverage", "mape", "mase", "smape"});
    CHECK(backtest["mape"].toDouble() > 0.0);
    CHECK(backtest["mape"].toDouble() < 50.0);
    CHECK(backtest["smape"].toDouble() > 0.0);
    CHECK(backtest["mase"].toDouble() > 0.0);
    CHECK(backtest["coverage"].toDouble() >= 0.0);
    CHECK(backtest["coverage"].toDouble() <= 1.0);
    // Coverage is a share of the 8 held-out values.
    const double eighths = backtest["coverage"].toDouble() * 8.0;
    CHECK(eighths == Approx(std::round(eighths)));

    RUN_HEADROOM(t, ws, {"forecast", "--series", series, "--season", "4", "--horizon", "4", "--backtest", "2"});
    REQUIRE(t.exitCode == 0);
    CHECK(t.out.contains("backtest, 2 windows of 4 steps (8 values scored):"));
    CHECK(t.out.contains("MAPE"));
    CHECK(t.out.contains("MASE"));
    CHECK(t.out.contains("P05-P95 coverage"));
}

TEST_CASE("forecast prints parameters, SSE and the first forecast steps as a table")
{
    CliFixture ws;
    const QString series = ws.writeFile("series.csv", valueColumn(kSeries));
    RUN_HEADROOM(r, ws, {"forecast", "--series", series, "--season", "4", "--alpha", "0.35", "--beta", "0.1",
                         "--gamma", "0.2", "--horizon", "30"});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.startsWith("Holt-Winters, additive trend and additive season of 4, on 20 values from "));
    CHECK(r.out.contains("alpha 0.35, beta 0.1, gamma 0.2 (fixed)"));
    CHECK(r.out.contains("SSE"));
    CHECK(r.out.contains("forecast, first 12 of 30 steps (P05/P95 from 1000 simulated paths, seed 1):"));
    CHECK(r.out.contains("step"));
    CHECK(r.out.contains("P05"));
    CHECK(r.out.contains("\n  12 "));
    CHECK_FALSE(r.out.contains("\n  13 "));
    CHECK_FALSE(r.out.contains("backtest"));
}

TEST_CASE("forecast rejects bad input with exit 2 naming the flag or line")
{
    CliFixture ws;
    SECTION("a series shorter than two seasons")
    {
        const CliResult r = runBad(ws, valueColumn({1, 2, 3, 4, 5, 6, 7}), {});
        CHECK(r.exitCode == 2);
        CHECK(r.err.startsWith("headroom: --series: a seasonal model needs at least two seasons (8 values), got 7"));
    }
    SECTION("a non-positive value for a multiplicative season")
    {
        std::vector<double> values = kSeries;
        values[5] = 0.0;
        const CliResult r = runBad(ws, valueColumn(values), {"--seasonal", "mul"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.startsWith("headroom: --series: a multiplicative season needs positive values; value 5"));
    }
    SECTION("NaN in the series")
    {
        const CliResult r = runBad(ws, "value\n1\n2\nnan\n4\n", {});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("bad.csv: line 4: field \"value\": 'nan' is not a finite number"));
    }
    SECTION("a non-numeric and an empty value")
    {
        CliResult r = runBad(ws, "timestamp,value\n2025-01-01T00:00:00Z,1\n2025-01-01T01:00:00Z,abc\n", {});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("bad.csv: line 3: field \"value\": 'abc' is not a number"));
        r = runBad(ws, "value\n1\n\n3\n", {});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("bad.csv: line 3: field \"value\": the value is empty"));
    }
    SECTION("unsorted timestamps")
    {
        const CliResult r = runBad(ws,
                                   "timestamp,value\n2025-01-01T00:00:00Z,1\n2025-01-01T02:00:00Z,2\n"
                                   "2025-01-01T01:00:00Z,3\n",
                                   {});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("bad.csv: line 4: field \"timestamp\": 2025-01-01T01:00:00Z is not after "
                             "2025-01-01T02:00:00Z on line 3"));
    }
    SECTION("a repeated timestamp and a malformed one")
    {
        CliResult r = runBad(ws, "timestamp,value\n2025-01-01T00:00:00Z,1\n2025-01-01T00:00:00Z,2\n", {});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("line 3: field \"timestamp\""));
        r = runBad(ws, "timestamp,value\nyesterday,1\n", {});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("line 2: field \"timestamp\": 'yesterday' is not an ISO 8601 date and time"));
    }
    SECTION("unknown option values")
    {
        const QByteArray csv = valueColumn(kSeries);
        CliResult r = runBad(ws, csv, {"--trend", "cubic"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.trimmed() == "headroom: --trend: unknown value 'cubic'; expected none, add or damped");
        r = runBad(ws, csv, {"--seasonal", "multiplicative"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.trimmed() == "headroom: --seasonal: unknown value 'multiplicative'; expected none, add or mul");
        r = runBad(ws, csv, {"--season", "1"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("--season"));
        r = runBad(ws, csv, {"--horizon", "0"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("--horizon"));
        r = runBad(ws, csv, {"--backtest", "many"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("--backtest"));
    }
    SECTION("parameters out of range, partly given or unused")
    {
        const QByteArray csv = valueColumn(kSeries);
        CliResult r = runBad(ws, csv, {"--alpha", "1.5", "--beta", "0.1", "--gamma", "0.1"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.startsWith("headroom: --alpha: alpha must be in [0"));
        r = runBad(ws, csv, {"--alpha", "0.5"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.trimmed() == "headroom: --alpha: to fix the parameters give all of --alpha, --beta, --gamma "
                                 "(missing --beta, --gamma)");
        r = runBad(ws, csv, {"--phi", "0.9"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.trimmed() == "headroom: --phi: not used by this model (only a damped trend has phi)");
        r = runBad(ws, csv, {"--seasonal", "none", "--gamma", "0.2"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("--gamma: not used by this model (--seasonal none)"));
    }
    SECTION("initial states incomplete or of the wrong length")
    {
        const QByteArray csv = valueColumn(kSeries);
        CliResult r = runBad(ws, csv, {"--initial-level", "10"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("--initial-level: to use known initial states give all of"));
        const QString three = ws.writeFile("three.txt", "1\n2\n3\n");
        r = runBad(ws, csv, {"--initial-level", "10", "--initial-trend", "0", "--initial-seasonal", three});
        CHECK(r.exitCode == 2);
        CHECK(r.err.startsWith("headroom: --initial-seasonal: expected 4 initial seasonal values, got 3"));
        const QString broken = ws.writeFile("broken.txt", "1\n2\nx\n4\n");
        r = runBad(ws, csv, {"--initial-level", "10", "--initial-trend", "0", "--initial-seasonal", broken});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("broken.txt: line 3: 'x' is not a number"));
    }
    SECTION("too little history for the backtest")
    {
        const CliResult r = runBad(ws, valueColumn(kSeries), {"--horizon", "8", "--backtest", "2"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.startsWith("headroom: --backtest: "));
    }
    SECTION("no --series or a missing file")
    {
        CliResult r = ws.run({"forecast"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.trimmed() == "headroom: --series is required");
        r = ws.run({"forecast", "--series", ws.filePath("absent.csv")});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("absent.csv: cannot read the file"));
    }
}

TEST_CASE("readValueSeries takes an optional header and readNumberLines one number a line")
{
    CliFixture ws;
    CHECK(store::readValueSeries(ws.writeFile("a.csv", "1.5\n2\n-3e2\n")) == std::vector<double>{1.5, 2.0, -300.0});
    CHECK(store::readValueSeries(ws.writeFile("b.csv", "Value\n4\n5\n\n")) == std::vector<double>{4.0, 5.0});
    CHECK(store::readValueSeries(ws.writeFile("c.csv", "2025-01-01T00:00:00+01:00,7\n2025-01-01T00:30:00Z,8\n"))
          == std::vector<double>{7.0, 8.0});
    CHECK_THROWS_AS(store::readValueSeries(ws.writeFile("d.csv", "a,b,c\n")), store::StoreError);
    CHECK_THROWS_AS(store::readValueSeries(ws.writeFile("e.csv", "value\n")), store::StoreError);
    CHECK_THROWS_AS(store::readValueSeries(ws.writeFile("f.csv", "1\n2,3\n")), store::StoreError);
    CHECK(store::readNumberLines(ws.writeFile("g.txt", " 1\n-2.5\n3\n\n")) == std::vector<double>{1.0, -2.5, 3.0});
    CHECK_THROWS_AS(store::readNumberLines(ws.writeFile("h.txt", "1\ninf\n")), store::StoreError);
}
