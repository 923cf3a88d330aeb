// `headroom cost` end to end: the golden money of DESIGN §3.7 to the cent, the reservation
// optimum on a series small enough to check by hand, and bad input.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonValue>

namespace {

// A money field: a string with exactly two decimals.
QString money(const QJsonObject &o, const char *key)
{
    INFO("key " << key);
    REQUIRE(o.contains(QLatin1String(key)));
    const QJsonValue v = o.value(QLatin1String(key));
    REQUIRE(v.isString());
    return v.toString();
}

qint64 integer(const QJsonObject &o, const char *key)
{
    INFO("key " << key);
    REQUIRE(o.contains(QLatin1String(key)));
    const QJsonValue v = o.value(QLatin1String(key));
    REQUIRE(v.isDouble());
    REQUIRE(v.toDouble() == double(v.toInteger()));
    return v.toInteger();
}

double number(const QJsonObject &o, const char *key)
{
    INFO("key " << key);
    REQUIRE(o.contains(QLatin1String(key)));
    REQUIRE(o.value(QLatin1String(key)).isDouble());
    return o.value(QLatin1String(key)).toDouble();
}

QJsonObject idleJson(const CliFixture &ws, const QStringList &args)
{
    RUN_HEADROOM(r, ws, {QStringList{"cost", "idle"} + args + QStringList{"--json"}});
    REQUIRE(r.exitCode == 0);
    REQUIRE(r.err.isEmpty());
    return parseJsonObject(r.out);
}

// Ten hours of demand, in time order. Sorted: 1 2 3 3 4 5 6 8 9 10 (sum 51).
const QList<int> kHandDemand = {3, 1, 4, 10, 2, 8, 5, 9, 3, 6};

QByteArray timestampedCsv(const QList<int> &gpus)
{
    QByteArray csv = "timestamp,gpus\n";
    for (int h = 0; h < gpus.size(); ++h)
        csv += QStringLiteral("2025-01-06T%1:00:00Z,%2\n").arg(h, 2, 10, QLatin1Char('0')).arg(gpus.at(h)).toUtf8();
    return csv;
}

QByteArray singleColumnCsv(const QList<int> &gpus, bool header)
{
    QByteArray csv = header ? "gpus\n" : "";
    for (int g : gpus)
        csv += QByteArray::number(g) + '\n';
    return csv;
}

// The hand computation for kHandDemand, reserved $3.10 and on-demand $5.00 per GPU-hour
// over H = 10 hours: C(R) = 3.10 × R × 10 + 5.00 × Σ max(0, d − R).
//   C(0) = 5 × 51                 = 255.00  (all on-demand)
//   C(2) = 62 + 5 × 32            = 222.00
//   C(3) = 93 + 5 × 24            = 213.00  ← minimum
//   C(4) = 124 + 5 × 18           = 214.00
//   C(5) = 155 + 5 × 13           = 220.00  (P50 = 4.5 → 5)
//   C(8) = 248 + 5 × 3            = 263.00  (P75 = 6 + 0.75 × (8 − 6) = 7.5 → 8)
// Critical fractile 3.10 / 5.00 = 0.62: P(d > 2) = 0.8, P(d > 3) = 0.6 ≤ 0.62 → R = 3.
void checkHandOptimum(const QJsonObject &o)
{
    CHECK(integer(o, "optimal_reserved") == 3);
    CHECK(integer(o, "fractile_reserved") == 3);
    CHECK(number(o, "critical_fractile") == Approx(0.62));
    CHECK(money(o, "cost_at_optimum") == "213.00");
    CHECK(money(o, "cost_all_on_demand") == "255.00");
    CHECK(money(o, "cost_at_p50") == "220.00");
    CHECK(money(o, "cost_at_p75") == "263.00");
    CHECK(number(o, "p50") == Approx(4.5));
    CHECK(number(o, "p75") == Approx(7.5));
    CHECK(integer(o, "p50_reserved") == 5);
    CHECK(integer(o, "p75_reserved") == 8);
    CHECK(money(o, "saving_vs_on_demand") == "42.00");
    CHECK(money(o, "p75_extra_cost") == "50.00");
    CHECK(integer(o, "hours") == 10);
    CHECK(o.value("reserved_rate").toString() == "3.10");
    CHECK(o.value("elastic_rate").toString() == "5.00");
    CHECK(o.value("commitment_pays").toBool());
    CHECK(o.value("currency").toString() == "USD");
}

const QStringList kHandRates = {"--reserved-rate", "3.10", "--on-demand-rate", "5.00"};

} // namespace

TEST_CASE("cost idle reproduces the idle-capacity golden figures to the cent")
{
    CliFixture ws;
    const QJsonObject aws = idleJson(ws, {"--gpus", "64", "--idle-fraction", "0.4", "--rate", "6.88"});
    CHECK(money(aws, "per_day") == "4227.07");
    CHECK(money(aws, "per_month") == "126812.16");
    CHECK(aws.value("currency").toString() == "USD");

    const QJsonObject gcp = idleJson(ws, {"--gpus", "64", "--idle-fraction", "0.4", "--rate", "10.9790625"});
    CHECK(money(gcp, "per_day") == "6745.54");
    CHECK(money(gcp, "per_month") == "202366.08");

    const QJsonObject lambda = idleJson(ws, {"--gpus", "64", "--idle-fraction", "0.4", "--rate", "3.99"});
    CHECK(money(lambda, "per_day") == "2451.46");
    CHECK(money(lambda, "per_month") == "73543.68");

    const QJsonObject lambda20 = idleJson(ws, {"--gpus", "64", "--idle-fraction", "0.2", "--rate", "3.99"});
    CHECK(money(lambda20, "per_day") == "1225.73");
    CHECK(money(lambda20, "per_month") == "36771.84");
}

TEST_CASE("cost idle --per divides an 8-GPU instance price exactly")
{
    CliFixture ws;
    const QJsonObject o = idleJson(ws, {"--gpus", "64", "--idle-fraction", "0.4", "--rate", "87.8325", "--per", "8"});
    CHECK(o.value("rate_per_gpu_hour").toString() == "10.9790625");
    CHECK(money(o, "per_day") == "6745.54");
    CHECK(money(o, "per_month") == "202366.08");
}

TEST_CASE("cost idle honours --days-per-month and --currency")
{
    CliFixture ws;
    const QJsonObject o = idleJson(ws, {"--gpus", "64", "--idle-fraction", "0.4", "--rate", "6.88",
                                        "--days-per-month", "31", "--currency", "eur"});
    CHECK(money(o, "per_day") == "4227.07");
    // 4,227.072 × 31 = 131,039.232
    CHECK(money(o, "per_month") == "131039.23");
    CHECK(o.value("currency").toString() == "EUR");
    CHECK(integer(o, "days_per_month") == 31);
}

TEST_CASE("cost idle table shows dollar amounts with separators and a one-line summary")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"cost", "idle", "--gpus", "64", "--idle-fraction", "0.4", "--rate", "87.8325", "--per", "8"});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains("64 GPUs, 40 % idle = 25.6 idle GPUs"));
    CHECK(r.out.contains("$10.9790625 per GPU-hour"));
    const QStringList lines = r.out.split('\n');
    const auto header = std::find_if(lines.begin(), lines.end(),
                                     [](const QString &l) { return l.startsWith("period"); });
    REQUIRE(header != lines.end());
    REQUIRE(header + 2 < lines.end());
    CHECK((header + 1)->simplified() == "per day $6,745.54");
    CHECK((header + 2)->simplified() == "per 30-day month $202,366.08");
    // Right-aligned amounts end in the same column.
    CHECK((header + 1)->size() == (header + 2)->size());
    // 64 × 0.1 × 10.9790625 × 24 = 1,686.384
    CHECK(r.out.contains("25.6 idle GPUs cost $6,745.54 a day; every 10 points of idle share cost $1,686.38 a day"));
}

TEST_CASE("cost static-vs-elastic reproduces the golden saving to the cent")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"cost", "static-vs-elastic", "--static-gpus", "16", "--elastic-avg-gpus", "10",
                         "--rate", "3.99", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(money(o, "static_per_day") == "1532.16");
    CHECK(money(o, "elastic_per_day") == "957.60");
    CHECK(money(o, "saving_per_day") == "574.56");
    CHECK(money(o, "saving_per_month") == "17236.80");
    CHECK(money(o, "static_per_month") == "45964.80");
    CHECK(money(o, "elastic_per_month") == "28728.00");
    CHECK(o.value("currency").toString() == "USD");
}

TEST_CASE("cost static-vs-elastic table and sentence")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"cost", "static-vs-elastic", "--static-gpus", "16", "--elastic-avg-gpus", "10",
                         "--rate", "3.99"});
    REQUIRE(r.exitCode == 0);
    const QStringList lines = r.out.split('\n');
    const auto header = std::find_if(lines.begin(), lines.end(),
                                     [](const QString &l) { return l.startsWith("fleet "); });
    REQUIRE(header != lines.end());
    REQUIRE(header + 3 < lines.end());
    CHECK((header + 1)->simplified() == "static $1,532.16 $45,964.80");
    CHECK((header + 2)->simplified() == "elastic $957.60 $28,728.00");
    CHECK((header + 3)->simplified() == "saving +$574.56 +$17,236.80");
    CHECK((header + 1)->size() == header->size());
    CHECK(r.out.contains("the elastic fleet saves $574.56 a day (37.5 %) and $17,236.80 a 30-day month"));

    // An elastic fleet averaging more than the static one costs more: say so.
    RUN_HEADROOM(worse, ws, {"cost", "static-vs-elastic", "--static-gpus", "10", "--elastic-avg-gpus", "16",
                             "--rate", "3.99"});
    REQUIRE(worse.exitCode == 0);
    CHECK(worse.out.contains("the elastic fleet costs $574.56 more a day and $17,236.80 more a 30-day month"));
}

TEST_CASE("cost reserve finds the hand-computed optimum from a timestamp,gpus CSV")
{
    CliFixture ws;
    const QString csv = ws.writeFile("hand.csv", timestampedCsv(kHandDemand));
    RUN_HEADROOM(r, ws, {QStringList{"cost", "reserve", "--demand", csv} + kHandRates + QStringList{"--json"}});
    REQUIRE(r.exitCode == 0);
    REQUIRE(r.err.isEmpty());
    const QJsonObject o = parseJsonObject(r.out);
    checkHandOptimum(o);
    CHECK(o.value("recommendation").toString()
          == "reserve 3 GPUs: 16.5 % cheaper than all on-demand; the P75 rule would reserve 8 and "
             "cost $50.00 more over the series");
}

TEST_CASE("cost reserve reads the single-column form with and without a header")
{
    CliFixture ws;
    for (const bool header : {true, false}) {
        INFO("header " << header);
        const QString csv = ws.writeFile(header ? "with-header.csv" : "bare.csv", singleColumnCsv(kHandDemand, header));
        RUN_HEADROOM(r, ws, {QStringList{"cost", "reserve", "--demand", csv} + kHandRates + QStringList{"--json"}});
        REQUIRE(r.exitCode == 0);
        checkHandOptimum(parseJsonObject(r.out));
    }
}

TEST_CASE("cost reserve table lists the plans and the recommendation")
{
    CliFixture ws;
    const QString csv = ws.writeFile("hand.csv", timestampedCsv(kHandDemand));
    RUN_HEADROOM(r, ws, {QStringList{"cost", "reserve", "--demand", csv} + kHandRates});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains("hand.csv: 10 hours from 2025-01-06 00:00 UTC"));
    CHECK(r.out.contains("reserved $3.10, on-demand $5.00 per GPU-hour"));
    CHECK(r.out.contains("(the sweep agrees)"));
    const QStringList lines = r.out.split('\n');
    const auto header = std::find_if(lines.begin(), lines.end(),
                                     [](const QString &l) { return l.startsWith("plan "); });
    REQUIRE(header != lines.end());
    REQUIRE(header + 4 < lines.end());
    CHECK((header + 1)->simplified() == "optimum 3 $213.00");
    CHECK((header + 2)->simplified() == "P50 rule 5 $220.00 +$7.00");
    CHECK((header + 3)->simplified() == "P75 rule 8 $263.00 +$50.00");
    CHECK((header + 4)->simplified() == "all on-demand 0 $255.00 +$42.00");
    CHECK((header + 2)->size() == header->size());
    CHECK(r.out.contains("reserve 3 GPUs: 16.5 % cheaper than all on-demand; the P75 rule would reserve 8 "
                         "and cost $50.00 more over the series"));
}

TEST_CASE("cost reserve: a spot share lowers the elastic rate and raises the critical fractile")
{
    // Half the elastic demand on spot at $2.00: elastic = 0.5 × 5.00 + 0.5 × 2.00 = 3.50, so the
    // fractile is 3.10 / 3.50 = 0.8857. P(d > 1) = 0.9, P(d > 2) = 0.8 ≤ 0.8857 → R = 2.
    //   C(1) = 31 + 3.5 × 41 = 174.50, C(2) = 62 + 3.5 × 32 = 174.00, C(3) = 93 + 3.5 × 24 = 177.00
    //   C(0) = 3.5 × 51 = 178.50, C(5) = 155 + 3.5 × 13 = 200.50, C(8) = 248 + 3.5 × 3 = 258.50
    CliFixture ws;
    const QString csv = ws.writeFile("hand.csv", timestampedCsv(kHandDemand));
    RUN_HEADROOM(r, ws, {QStringList{"cost", "reserve", "--demand", csv} + kHandRates
                         + QStringList{"--spot-rate", "2.00", "--spot-share", "0.5", "--json"}});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("elastic_rate").toString() == "3.50");
    CHECK(number(o, "critical_fractile") == Approx(3.10 / 3.50));
    CHECK(number(o, "critical_fractile") > 0.62);
    CHECK(integer(o, "optimal_reserved") == 2);
    CHECK(integer(o, "fractile_reserved") == 2);
    CHECK(money(o, "cost_at_optimum") == "174.00");
    CHECK(money(o, "cost_all_on_demand") == "178.50");
    CHECK(money(o, "cost_at_p50") == "200.50");
    CHECK(money(o, "cost_at_p75") == "258.50");

    // Interruptions add GPU-hours to spot: 0.5 × 5.00 + 0.5 × 2.00 × 1.25 = 3.75.
    RUN_HEADROOM(overhead, ws, {QStringList{"cost", "reserve", "--demand", csv} + kHandRates
                                + QStringList{"--spot-rate", "2.00", "--spot-share", "0.5", "--spot-overhead",
                                              "0.25", "--json"}});
    REQUIRE(overhead.exitCode == 0);
    CHECK(parseJsonObject(overhead.out).value("elastic_rate").toString() == "3.75");
}

TEST_CASE("cost reserve: a committed rate at or above on-demand never pays and reserves 0")
{
    CliFixture ws;
    const QString csv = ws.writeFile("hand.csv", timestampedCsv(kHandDemand));
    for (const char *committed : {"5.00", "5.50"}) {
        INFO("committed " << committed);
        RUN_HEADROOM(r, ws, {"cost", "reserve", "--demand", csv, "--reserved-rate", committed,
                             "--on-demand-rate", "5.00", "--json"});
        REQUIRE(r.exitCode == 0);
        const QJsonObject o = parseJsonObject(r.out);
        CHECK(integer(o, "optimal_reserved") == 0);
        CHECK_FALSE(o.value("commitment_pays").toBool());
        CHECK(money(o, "cost_at_optimum") == "255.00");
        CHECK(money(o, "cost_all_on_demand") == "255.00");
        CHECK(o.value("recommendation").toString().startsWith("the commitment never pays: reserve 0"));

        RUN_HEADROOM(table, ws, {"cost", "reserve", "--demand", csv, "--reserved-rate", committed,
                                 "--on-demand-rate", "5.00"});
        REQUIRE(table.exitCode == 0);
        CHECK(table.out.contains("the commitment never pays: reserve 0"));
    }

    // Below on-demand but not below the blended elastic rate ($3.50 with half on spot).
    RUN_HEADROOM(spot, ws, {"cost", "reserve", "--demand", csv, "--reserved-rate", "4.00", "--on-demand-rate", "5.00",
                            "--spot-rate", "2.00", "--spot-share", "0.5"});
    REQUIRE(spot.exitCode == 0);
    CHECK(spot.out.contains("the commitment never pays: reserve 0"));
    CHECK(spot.out.contains("$3.50 per GPU-hour: 50 % of elastic demand on spot at $2.00"));
}

TEST_CASE("cost reserve rejects a bad demand CSV naming the line")
{
    CliFixture ws;
    const QByteArray good = "timestamp,gpus\n2025-01-06T00:00:00Z,3\n";
    const struct {
        const char *what;
        QByteArray csv;
        const char *line;
    } cases[] = {
        {"negative value", good + "2025-01-06T01:00:00Z,-1\n", ": line 3:"},
        {"bad timestamp", good + "2025-01-06T01:00:00Z,4\n2025-01-06 two o'clock,5\n", ": line 4:"},
        {"gap", good + "2025-01-06T01:00:00Z,4\n2025-01-06T03:00:00Z,5\n", ": line 4:"},
        {"malformed value", "gpus\n3\nlots\n", ": line 3:"},
    };
    for (const auto &c : cases) {
        INFO(c.what);
        const QString csv = ws.writeFile("bad.csv", c.csv);
        RUN_HEADROOM(r, ws, {QStringList{"cost", "reserve", "--demand", csv} + kHandRates});
        CHECK(r.exitCode == 2);
        CHECK(r.out.isEmpty());
        CHECK(r.err.startsWith("headroom: "));
        CHECK(r.err.contains("bad.csv"));
        CHECK(r.err.contains(QLatin1String(c.line)));
    }

    RUN_HEADROOM(missing, ws, {QStringList{"cost", "reserve", "--demand", ws.filePath("nowhere.csv")} + kHandRates});
    CHECK(missing.exitCode == 2);
    CHECK(missing.err.contains("nowhere.csv"));
}

TEST_CASE("cost verbs reject zero, negative and malformed rates naming the flag")
{
    CliFixture ws;
    const QString csv = ws.writeFile("hand.csv", timestampedCsv(kHandDemand));
    const struct {
        QStringList args;
        const char *flag;
    } cases[] = {
        {{"idle", "--gpus", "64", "--idle-fraction", "0.4", "--rate", "0"}, "--rate"},
        {{"idle", "--gpus", "64", "--idle-fraction", "0.4", "--rate", "-6.88"}, "--rate"},
        {{"idle", "--gpus", "64", "--idle-fraction", "0.4", "--rate", "abc"}, "--rate"},
        {{"idle", "--gpus", "64", "--idle-fraction", "0.4", "--rate", "6.88e0"}, "--rate"},
        {{"idle", "--gpus", "64", "--idle-fraction", "1.5", "--rate", "6.88"}, "--idle-fraction"},
        {{"idle", "--gpus", "64", "--idle-fraction", "-0.1", "--rate", "6.88"}, "--idle-fraction"},
        {{"idle", "--gpus", "0", "--idle-fraction", "0.4", "--rate", "6.88"}, "--gpus"},
        {{"idle", "--idle-fraction", "0.4", "--rate", "6.88"}, "--gpus"},
        {{"static-vs-elastic", "--static-gpus", "16", "--elastic-avg-gpus", "10", "--rate", "0.00"}, "--rate"},
        {{"static-vs-elastic", "--static-gpus", "16", "--elastic-avg-gpus", "ten", "--rate", "3.99"},
         "--elastic-avg-gpus"},
        {{"reserve", "--demand", csv, "--reserved-rate", "0", "--on-demand-rate", "5"}, "--reserved-rate"},
        {{"reserve", "--demand", csv, "--reserved-rate", "3.1", "--on-demand-rate", "-5"}, "--on-demand-rate"},
        {{"reserve", "--demand", csv, "--reserved-rate", "3.1", "--on-demand-rate", "5", "--spot-rate", "0",
          "--spot-share", "0.5"},
         "--spot-rate"},
        {{"reserve", "--demand", csv, "--reserved-rate", "3.1", "--on-demand-rate", "5", "--spot-rate", "2",
          "--spot-share", "1.2"},
         "--spot-share"},
        {{"reserve", "--demand", csv, "--reserved-rate", "3.1", "--on-demand-rate", "5", "--spot-rate", "2"},
         "--spot-share"},
        {{"reserve", "--demand", csv, "--on-demand-rate", "5"}, "--reserved-rate"},
    };
    for (const auto &c : cases) {
        INFO(c.args.join(' ').toStdString());
        RUN_HEADROOM(r, ws, {QStringList{"cost"} + c.args});
        CHECK(r.exitCode == 2);
        CHECK(r.out.isEmpty());
        CHECK(r.err.startsWith("headroom: "));
        CHECK(r.err.contains(QLatin1String(c.flag)));
    }
}

TEST_CASE("cost idle refuses an instance price written as a fraction and suggests --per")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"cost", "idle", "--gpus", "64", "--idle-fraction", "0.4", "--rate", "87.8325/8"});
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains("--rate"));
    CHECK(r.err.contains("--rate 87.8325 --per 8"));
}

TEST_CASE("cost needs a known sub-command and prints its usage with --help")
{
    CliFixture ws;
    RUN_HEADROOM(none, ws, {"cost"});
    CHECK(none.exitCode == 2);
    CHECK(none.err.contains("idle, static-vs-elastic, reserve"));

    RUN_HEADROOM(unknown, ws, {"cost", "forecast"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("unknown cost sub-command 'forecast'"));

    RUN_HEADROOM(help, ws, {"cost", "reserve", "--help"});
    CHECK(help.exitCode == 0);
    CHECK(help.out.startsWith("usage: headroom cost"));
    CHECK(help.out.contains("--spot-share"));
    CHECK(help.out.contains("--per N"));
}

TEST_CASE("cost reserve over a year of hourly demand: the sweep agrees with the critical fractile")
{
    // 8,760 whole-GPU hours: a daily swing of 200 to 320 GPUs plus a deterministic jitter.
    // With whole GPUs, C(R + 1) − C(R) = H × reserved − elastic × #{d > R}, so the smallest
    // optimum is the smallest R with #{d > R} / H ≤ reserved / elastic.
    QByteArray csv = "gpus\n";
    quint32 state = 12345;
    for (int h = 0; h < 8760; ++h) {
        state = state * 1664525u + 1013904223u;
        const int daily = (h % 24 >= 9 && h % 24 < 18) ? 100 : 0;
        csv += QByteArray::number(200 + daily + int(state >> 28)) + '\n';
    }
    CliFixture ws;
    const QString path = ws.writeFile("year.csv", csv);
    RUN_HEADROOM(r, ws, {"cost", "reserve", "--demand", path, "--reserved-rate", "4.20", "--on-demand-rate", "6.88",
                         "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(integer(o, "hours") == 8760);
    CHECK(number(o, "critical_fractile") == Approx(4.20 / 6.88));
    CHECK(integer(o, "optimal_reserved") == integer(o, "fractile_reserved"));
    // 37.5 % of hours are in the 300-plus daytime band and 62.5 % below 216: the optimum sits
    // in the night band, far below the P75 rule.
    CHECK(integer(o, "optimal_reserved") >= 200);
    CHECK(integer(o, "optimal_reserved") < 216);
    CHECK(integer(o, "p75_reserved") >= 300);
}

TEST_CASE("cost static-vs-elastic: the saving printed is the difference of the rows printed")
{
    // $87.8325 per 8 GPUs = $10.9790625 per GPU-hour. 3 static GPUs: $790.4925 a day, shown
    // $790.49; 1.5 elastic: $395.24625, shown $395.25; the saving shown is $790.49 − $395.25 = $395.24.
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"cost", "static-vs-elastic", "--static-gpus", "3", "--elastic-avg-gpus", "1.5",
                         "--rate", "87.8325", "--per", "8"});
    REQUIRE(r.exitCode == 0);
    INFO(r.out.toStdString());
    CHECK(r.out.contains("$10.9790625 per GPU-hour"));
    const QStringList lines = r.out.split('\n');
    const auto header = std::find_if(lines.begin(), lines.end(),
                                     [](const QString &l) { return l.startsWith("fleet "); });
    REQUIRE(header != lines.end());
    REQUIRE(header + 3 < lines.end());
    // A 30-day month: $23,714.775 → $23,714.78 and $11,857.3875 → $11,857.39.
    CHECK((header + 1)->simplified() == "static $790.49 $23,714.78");
    CHECK((header + 2)->simplified() == "elastic $395.25 $11,857.39");
    CHECK((header + 3)->simplified() == "saving +$395.24 +$11,857.39");
    CHECK(r.out.contains("the elastic fleet saves $395.24 a day"));

    RUN_HEADROOM(j, ws, {"cost", "static-vs-elastic", "--static-gpus", "3", "--elastic-avg-gpus", "1.5",
                         "--rate", "87.8325", "--per", "8", "--json"});
    REQUIRE(j.exitCode == 0);
    const QJsonObject o = parseJsonObject(j.out);
    CHECK(money(o, "static_per_day") == "790.49");
    CHECK(money(o, "elastic_per_day") == "395.25");
    CHECK(money(o, "saving_per_day") == "395.24");
    CHECK(money(o, "saving_per_month") == "11857.39");
}

TEST_CASE("cost reserve owes the optimum's commitment for its whole term and warns when the series is shorter")
{
    CliFixture ws;
    // kHandDemand starts on 2025-01-06; the optimum reserves 3 GPUs at $3.10.
    const QString csv = ws.writeFile("hand.csv", timestampedCsv(kHandDemand));
    RUN_HEADROOM(r, ws, {QStringList{"cost", "reserve", "--demand", csv} + kHandRates
                         + QStringList{"--term-months", "36", "--upfront-share", "0.5", "--json"}});
    REQUIRE(r.exitCode == 0);
    const QJsonObject c = parseJsonObject(r.out).value("commitment").toObject();
    // 2025-01-06 to 2028-01-06: 365 + 365 + 366 (29 Feb 2028 is after the end: 2027 is common) days.
    CHECK(c.value("start_date").toString() == "2025-01-06");
    CHECK(c.value("end_date").toString() == "2028-01-06");
    CHECK(integer(c, "term_hours") == 26280);
    CHECK(integer(c, "series_hours") == 10);
    // 3 × $3.10 × 26,280 h = $244,404.00, half upfront; the series consumes 3 × 3.10 × 10 = $93.00.
    CHECK(money(c, "obligation") == "244404.00");
    CHECK(money(c, "upfront") == "122202.00");
    CHECK(money(c, "consumed_in_series") == "93.00");
    CHECK_FALSE(c.value("covers_term").toBool());
    CHECK(c.value("warning").toString().contains("3-year commitment of 3 GPUs runs 2025-01-06 to 2028-01-06"));

    // A leap year counts: 12 months from 2028-01-01 are 8,784 h; the table shows the warning.
    RUN_HEADROOM(t, ws, {QStringList{"cost", "reserve", "--demand", csv} + kHandRates
                         + QStringList{"--start", "2028-01-01"}});
    REQUIRE(t.exitCode == 0);
    CHECK(t.out.contains("3 GPUs for 12 months, 2028-01-01 to 2029-01-01 (8,784 h): $81,691.20 owed in full; "
                         "the series consumes $93.00 (0.1 %)"));
    CHECK(t.out.contains("warning: The 1-year commitment of 3 GPUs"));

    for (const QStringList &bad : {QStringList{"--term-months", "24"}, QStringList{"--start", "2025-02-30"},
                                   QStringList{"--upfront-share", "1.5"}}) {
        RUN_HEADROOM(e, ws, {QStringList{"cost", "reserve", "--demand", csv} + kHandRates + bad});
        INFO(bad.join(' ').toStdString());
        CHECK(e.exitCode == 2);
        CHECK(e.err.contains(bad.first()));
    }
}
