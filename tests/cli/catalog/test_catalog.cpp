// `headroom catalog`, `import` and `export` end to end.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace {

QStringList ids(const QJsonArray &entries)
{
    QStringList result;
    for (const QJsonValue &v : entries)
        result << v.toObject().value("id").toString();
    return result;
}

} // namespace

TEST_CASE("catalog gpus --json and catalog models --json print parseable catalog JSON")
{
    CliFixture ws;
    RUN_HEADROOM(gpus, ws, {"catalog", "gpus", "--json"});
    REQUIRE(gpus.exitCode == 0);
    const QJsonObject g = parseJsonObject(gpus.out);
    CHECK(g.value("gpus").isArray());
    CHECK(g.value("models").toArray().isEmpty());

    RUN_HEADROOM(models, ws, {"catalog", "models", "--json"});
    REQUIRE(models.exitCode == 0);
    const QJsonObject m = parseJsonObject(models.out);
    CHECK(m.value("models").isArray());
    CHECK(m.value("gpus").toArray().isEmpty());
}

TEST_CASE("the seeded workspace lists the shipped catalog")
{
    CliFixture ws;
    RUN_HEADROOM(gpus, ws, {"catalog", "gpus"});
    REQUIRE(gpus.exitCode == 0);
    CHECK(gpus.out.startsWith("id "));
    CHECK(gpus.out.contains("memory GiB"));
    CHECK(gpus.out.contains("h100-sxm"));
    // The FP4 column: B300's dense 13,500 TFLOPS, a dash for Hopper.
    CHECK(gpus.out.contains("FP4 TFLOPS"));
    const QStringList lines = gpus.out.split(QLatin1Char('\n'));
    CHECK(lines.filter(QStringLiteral("b300 ")).value(0).contains("13,500"));
    CHECK(lines.filter(QStringLiteral("h20 ")).value(0).contains(" - "));

    RUN_HEADROOM(models, ws, {"catalog", "models"});
    REQUIRE(models.exitCode == 0);
    CHECK(models.out.contains("max context"));
    CHECK(models.out.contains("llama-3.1-8b"));
    CHECK(models.out.contains("131,072"));
}

TEST_CASE("import of a good file adds its entries and catalog lists them")
{
    CliFixture ws;
    const QString file = ws.writeFile("catalog.json",
                                      catalogJson("test-gpu-96", {"test-model-8b", "test-model-9b"}));
    RUN_HEADROOM(imported, ws, {"import", file});
    REQUIRE(imported.exitCode == 0);
    CHECK(imported.out.trimmed() == QString("imported 1 GPU and 2 models into %1").arg(ws.workspace()));

    RUN_HEADROOM(models, ws, {"catalog", "models"});
    REQUIRE(models.exitCode == 0);
    const QStringList lines = models.out.split('\n');
    const auto row = std::find_if(lines.begin(), lines.end(),
                                  [](const QString &l) { return l.startsWith("test-model-8b "); });
    REQUIRE(row != lines.end());
    CHECK(row->simplified() == "test-model-8b Test model test-model-8b 8.0 32 GQA 8 128 131,072");

    RUN_HEADROOM(gpus, ws, {"catalog", "gpus"});
    REQUIRE(gpus.exitCode == 0);
    const QStringList gpuLines = gpus.out.split('\n');
    const auto gpuRow = std::find_if(gpuLines.begin(), gpuLines.end(),
                                     [](const QString &l) { return l.startsWith("test-gpu-96 "); });
    REQUIRE(gpuRow != gpuLines.end());
    CHECK(gpuRow->simplified() == "test-gpu-96 Test GPU 96GB 96.0 4,000 900 1,800 - 900");
}

TEST_CASE("import of a bad file exits 2, names the field and changes nothing")
{
    CliFixture ws;
    RUN_HEADROOM(before, ws, {"export"});
    REQUIRE(before.exitCode == 0);

    // A valid GPU next to a model with zero layers: neither may be imported.
    const QString file = ws.writeFile("bad.json", catalogJson("test-gpu-96", {"test-model-8b"}, 0));
    RUN_HEADROOM(imported, ws, {"import", file});
    CHECK(imported.exitCode == 2);
    CHECK(imported.out.isEmpty());
    CHECK(imported.err.startsWith("headroom: "));
    CHECK(imported.err.contains("layers"));

    RUN_HEADROOM(after, ws, {"export"});
    REQUIRE(after.exitCode == 0);
    CHECK(after.out == before.out);
    CHECK_FALSE(after.out.contains("test-gpu-96"));

    RUN_HEADROOM(broken, ws, {"import", ws.writeFile("broken.json", "{\"models\": [")});
    CHECK(broken.exitCode == 2);
    RUN_HEADROOM(absent, ws, {"import", ws.filePath("absent.json")});
    CHECK(absent.exitCode == 2);
    CHECK(absent.err.contains("absent.json"));
    RUN_HEADROOM(again, ws, {"export"});
    CHECK(again.out == before.out);
}

TEST_CASE("export writes the whole catalog or one part, to stdout or --out")
{
    CliFixture ws;
    const QString file = ws.writeFile("catalog.json", catalogJson("test-gpu-96", {"test-model-8b"}));
    REQUIRE(ws.run({"import", file}).exitCode == 0);

    RUN_HEADROOM(all, ws, {"export"});
    REQUIRE(all.exitCode == 0);
    const QJsonObject catalog = parseJsonObject(all.out);
    CHECK(ids(catalog.value("gpus").toArray()).contains("test-gpu-96"));
    CHECK(ids(catalog.value("models").toArray()).contains("test-model-8b"));

    RUN_HEADROOM(gpus, ws, {"export", "gpus"});
    REQUIRE(gpus.exitCode == 0);
    const QJsonObject g = parseJsonObject(gpus.out);
    CHECK(ids(g.value("gpus").toArray()).contains("test-gpu-96"));
    CHECK(g.value("models").toArray().isEmpty());

    const QString out = ws.filePath("out.json");
    RUN_HEADROOM(toFile, ws, {"export", "catalog", "--out", out});
    REQUIRE(toFile.exitCode == 0);
    CHECK(toFile.out.startsWith("exported "));
    QFile written(out);
    REQUIRE(written.open(QIODevice::ReadOnly));
    CHECK(QString::fromUtf8(written.readAll()) == all.out);

    // What export writes, import reads back into another workspace unchanged.
    CliFixture other;
    RUN_HEADROOM(roundTrip, other, {"import", out});
    REQUIRE(roundTrip.exitCode == 0);
    RUN_HEADROOM(otherGpus, other, {"export", "gpus"});
    CHECK(parseJsonObject(otherGpus.out) == g);

    RUN_HEADROOM(bad, ws, {"export", "rates"});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("unknown catalog part 'rates'"));
}

TEST_CASE("catalog without a part or with an unknown one exits 2")
{
    CliFixture ws;
    RUN_HEADROOM(none, ws, {"catalog"});
    CHECK(none.exitCode == 2);
    CHECK(none.err.contains("gpus"));
    RUN_HEADROOM(wrong, ws, {"catalog", "nodes", "--json"});
    CHECK(wrong.exitCode == 2);
    CHECK(wrong.err.contains("'nodes'"));
}
