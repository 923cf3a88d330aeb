// `headroom train goodput` end to end: the hand-computed optimum per GPU count (as the engine
// test derives it), fixed against adaptive with money, and bad input exiting 2.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>



namespace {

const QStringList kJob = {"train",         "goodput",      "--alpha-c",   "0.1",   "--beta-c",          "0.01",
                          "--alpha-r",     "0.05",         "--beta-r",    "0.005", "--alpha-n",         "0.2",
                          "--beta-n",      "0.02",         "--noise-scale", "1000", "--initial-batch",  "128",
                          "--max-batch",   "512",          "--max-micro-batch", "64", "--gpus-per-node", "4",
                          "--max-gpus",    "8"};

} // namespace

TEST_CASE("train goodput: the optimum per GPU count and fixed against adaptive, to the cent", "[train-cli][coadaptive]")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, (kJob + QStringList{"--fixed-gpus", "2", "--work", "1e6", "--rate", "3.99", "--json"}));
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    const QJsonArray curve = o.value("curve").toArray();
    REQUIRE(curve.size() == 8);
    // 1 GPU: m 64 × 2 steps, 128 ÷ 1.48 s; 2 GPUs: 128 ÷ 0.79 s; 4 GPUs: m 63, M 252.
    CHECK(curve[0].toObject().value("accumulation").toInt() == 1);
    CHECK(curve[0].toObject().value("goodput").toDouble() == Approx(128.0 / 1.48));
    CHECK(curve[1].toObject().value("goodput").toDouble() == Approx(128.0 / 0.79));
    CHECK(curve[3].toObject().value("micro_batch").toInt() == 63);
    CHECK(curve[3].toObject().value("batch").toInt() == 252);
    CHECK(o.value("best").toObject().value("gpus").toInt() == 8);
    CHECK(o.value("best").toObject().value("speedup").toDouble() == Approx((8.0 * 64 * 1128 / (1.06 * 1512)) / (128.0 / 1.48)));
    const QJsonObject c = o.value("comparison").toObject();
    // Fixed: 2 × 10⁶ ÷ 162.025 ÷ 3,600 = 3.43 GPU-hours × $3.99 = $13.69; adaptive 6.17 × 3.99 = $24.62.
    CHECK(c.value("fixed_cost").toString() == "13.69");
    CHECK(c.value("adaptive_cost").toString() == "24.62");
    CHECK(c.value("currency").toString() == "USD");

    RUN_HEADROOM(text, ws, (kJob + QStringList{"--fixed-gpus", "2", "--work", "1e6", "--cheapest"}));
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("Most goodput: 8 GPUs at batch 512"));
    CHECK(text.out.contains("Adaptive 1 GPUs at batch 128"));
    CHECK(text.out.contains("(the fewest GPU-hours)"));

    RUN_HEADROOM(noPhi, ws, ({"train", "goodput", "--alpha-c", "0.1", "--beta-c", "0.01", "--initial-batch", "128",
                              "--max-batch", "512", "--max-micro-batch", "64"}));
    CHECK(noPhi.exitCode == 2);
    CHECK(noPhi.err.contains("--noise-scale is required"));
    RUN_HEADROOM(gamma, ws, (kJob + QStringList{"--gamma", "20"}));
    CHECK(gamma.exitCode == 2);
    CHECK(gamma.err.contains("gamma"));
    RUN_HEADROOM(odd, ws, (kJob + QStringList{"--fixed-gpus", "3", "--work", "1e6"}));
    CHECK(odd.exitCode == 2);
    CHECK(odd.err.contains("cannot make a batch of exactly 128"));
    RUN_HEADROOM(rateAlone, ws, (kJob + QStringList{"--rate", "3.99"}));
    CHECK(rateAlone.exitCode == 2);
}
