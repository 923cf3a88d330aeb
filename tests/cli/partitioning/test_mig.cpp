// `headroom mig validate|layouts|pack` and `headroom link-time` end to end: the JSON
// contract of issue 5, the golden numbers of DESIGN §3.4 and every kind of bad input.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonDocument>
#include <set>

namespace {

// `count` tenants of `gib` GiB each, as a tenants file.
QByteArray tenantsJson(int count, double gib)
{
    QJsonArray tenants;
    for (int i = 0; i < count; ++i)
        tenants.append(QJsonObject{{"name", QStringLiteral("model-%1").arg(i)}, {"memory_gib", gib}});
    return QJsonDocument(tenants).toJson();
}

QStringList layoutTexts(const QJsonObject &result)
{
    QStringList texts;
    for (const QJsonValue &layout : result.value("layouts").toArray()) {
        QStringList parts;
        for (const QJsonValue &instance : layout.toArray())
            parts << QStringLiteral("%1@%2").arg(instance.toObject().value("profile").toString())
                         .arg(instance.toObject().value("start").toInt());
        texts << parts.join(',');
    }
    return texts;
}

} // namespace

TEST_CASE("mig validate --json accepts NVIDIA's example layouts")
{
    CliFixture fixture;
    RUN_HEADROOM(h100, fixture, {"mig", "validate", "--gpu", "h100-sxm", "--layout", "4g.40gb@0,2g.20gb@4,1g.10gb@6", "--json"});
    REQUIRE(h100.exitCode == 0);
    const QJsonObject o = parseJsonObject(h100.out);
    CHECK(o.value("valid").toBool());
    CHECK(o.value("reason").toString() == "");

    RUN_HEADROOM(a100, fixture, {"mig", "validate", "--gpu", "a100-sxm-40gb", "--layout", "3g.20gb@0,3g.20gb@4"});
    REQUIRE(a100.exitCode == 0);
    CHECK(a100.out.trimmed()
          == "valid: 3g.20gb@0, 3g.20gb@4 on a100-sxm-40gb uses 6 of 7 compute slices and 8 of 8 memory slices");
}

TEST_CASE("mig validate reports the first violation and still exits 0")
{
    CliFixture fixture;
    RUN_HEADROOM(overlap, fixture, {"mig", "validate", "--gpu", "h100-sxm", "--layout", "3g.40gb@0,2g.20gb@2", "--json"});
    REQUIRE(overlap.exitCode == 0);
    const QJsonObject o = parseJsonObject(overlap.out);
    CHECK_FALSE(o.value("valid").toBool());
    CHECK(o.value("reason").toString() == QString::fromUtf8("2g.20gb@2 overlaps 3g.40gb@0 on memory slices 2\u20133"));

    RUN_HEADROOM(eighth, fixture, {"mig", "validate", "--gpu", "h100-sxm", "--layout",
                                   "1g.10gb@0,1g.10gb@1,1g.10gb@2,1g.10gb@3,1g.10gb@4,1g.10gb@5,1g.10gb@6,1g.10gb@7"});
    REQUIRE(eighth.exitCode == 0);
    CHECK(eighth.out.trimmed() == QString::fromUtf8("invalid: 1g.10gb@7: at most 7 \u00d7 1g.10gb per GPU"));

    RUN_HEADROOM(misplaced, fixture, {"mig", "validate", "--gpu", "h100-sxm", "--layout", "3g.40gb@2"});
    REQUIRE(misplaced.exitCode == 0);
    CHECK(misplaced.out.trimmed() == "invalid: 3g.40gb@2: 3g.40gb may start only at memory slice 0 or 4");
}

TEST_CASE("mig validate: malformed layouts, unknown profiles and GPUs without MIG exit 2")
{
    CliFixture fixture;
    RUN_HEADROOM(malformed, fixture, {"mig", "validate", "--gpu", "h100-sxm", "--layout", "3g.40gb0"});
    CHECK(malformed.exitCode == 2);
    CHECK(malformed.out.isEmpty());
    CHECK(malformed.err.trimmed()
          == "headroom: --layout: instance 1 '3g.40gb0' has no start (write PROFILE@START, e.g. "
             "\"3g.40gb@0,2g.20gb@4,1g.10gb@6\")");

    RUN_HEADROOM(badStart, fixture, {"mig", "validate", "--gpu", "h100-sxm", "--layout", "3g.40gb@0,1g.10gb@x"});
    CHECK(badStart.exitCode == 2);
    CHECK(badStart.err.contains("instance 2 '1g.10gb@x': start 'x' is not a memory slice number"));

    RUN_HEADROOM(unknown, fixture, {"mig", "validate", "--gpu", "h100-sxm", "--layout", "3g.20gb@0"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.trimmed()
          == "headroom: --layout: unknown profile '3g.20gb' for h100-sxm; known: 1g.10gb, 1g.10gb+me, 1g.20gb, "
             "2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb");

    RUN_HEADROOM(noMig, fixture, {"mig", "validate", "--gpu", "l40s", "--layout", "1g.10gb@0"});
    CHECK(noMig.exitCode == 2);
    CHECK(noMig.err.trimmed()
          == "headroom: --gpu: no MIG profiles for 'l40s'; GPUs with MIG: a100-sxm-40gb, a100-sxm-80gb, h100-sxm, "
             "h100-pcie, h100-nvl, h200, b200");

    RUN_HEADROOM(missing, fixture, {"mig", "validate", "--gpu", "h100-sxm"});
    CHECK(missing.exitCode == 2);
    CHECK(missing.err.contains("--layout is required"));

    RUN_HEADROOM(action, fixture, {"mig", "split", "--gpu", "h100-sxm"});
    CHECK(action.exitCode == 2);
    CHECK(action.err.trimmed() == "headroom: mig: unknown action 'split'; known: validate, layouts, pack");
}

TEST_CASE("mig layouts --json lists distinct maximal layouts sorted by start")
{
    CliFixture fixture;
    RUN_HEADROOM(r, fixture, {"mig", "layouts", "--gpu", "h100-sxm", "--json"});
    REQUIRE(r.exitCode == 0);
    const QStringList layouts = layoutTexts(parseJsonObject(r.out));
    REQUIRE(layouts.size() > 10);
    CHECK(layouts.first() == "7g.80gb@0");
    CHECK(layouts.contains("1g.10gb@0,1g.10gb@1,1g.10gb@2,1g.10gb@3,1g.10gb@4,1g.10gb@5,1g.10gb@6"));
    CHECK(layouts.contains("3g.40gb@0,3g.40gb@4"));
    CHECK(std::set<QString>(layouts.begin(), layouts.end()).size() == size_t(layouts.size()));
    for (const QString &layout : layouts) {
        RUN_HEADROOM(v, fixture, {"mig", "validate", "--gpu", "h100-sxm", "--layout", layout, "--json"});
        INFO(layout.toStdString());
        CHECK(parseJsonObject(v.out).value("valid").toBool());
    }

    RUN_HEADROOM(text, fixture, {"mig", "layouts", "--gpu", "b200"});
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("distinct maximal layouts of b200"));
    CHECK(text.out.contains("7g.180gb@0"));
}

TEST_CASE("golden: mig pack puts 40 one-slice tenants on 6 H100 instead of 40")
{
    CliFixture fixture;
    const QString file = fixture.writeFile("tenants.json", tenantsJson(40, 8.0));
    RUN_HEADROOM(r, fixture, {"mig", "pack", "--gpu", "h100-sxm", "--tenants", file, "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("gpus").toInteger() == 6);
    CHECK(o.value("gpus_without_mig").toInteger() == 40);
    CHECK(o.value("optimal").toBool());
    CHECK(o.value("oom_warnings").toArray().isEmpty());
    const QJsonArray layouts = o.value("layouts").toArray();
    REQUIRE(layouts.size() == 6);
    std::set<QString> tenants;
    int instances = 0;
    for (const QJsonValue &layout : layouts) {
        for (const QJsonValue &v : layout.toArray()) {
            const QJsonObject instance = v.toObject();
            CHECK(instance.value("profile").toString() == "1g.10gb");
            CHECK(instance.value("start").isDouble());
            tenants.insert(instance.value("tenant").toString());
            ++instances;
        }
    }
    CHECK(instances == 40);
    CHECK(tenants.size() == 40);
    CHECK(layouts.first().toArray().size() == 7);
}

TEST_CASE("mig pack: largest first, regulated tenants alone, OOM warnings in words")
{
    CliFixture fixture;
    const QString file = fixture.writeFile("tenants.json", R"([
        {"name": "chat", "memory_gib": 30, "compute_slices": 3},
        {"name": "embed", "memory_gib": 9, "replicas": 3},
        {"name": "ledger", "memory_gib": 15, "isolation": "regulated"}])");
    RUN_HEADROOM(r, fixture, {"mig", "pack", "--gpu", "h100-sxm", "--tenants", file, "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("gpus").toInteger() == 2);
    CHECK(o.value("gpus_without_mig").toInteger() == 5);
    CHECK(layoutTexts(o) == QStringList{"3g.40gb@0,1g.10gb@4,1g.10gb@5,1g.10gb@6", "1g.20gb@0"});
    CHECK(o.value("layouts").toArray().at(1).toArray().at(0).toObject().value("tenant").toString() == "ledger");
    const QJsonArray warnings = o.value("oom_warnings").toArray();
    REQUIRE(warnings.size() == 1);
    CHECK(warnings.at(0).toString()
          == "tenant 'embed' needs 9.0 GiB of its 1g.10gb slice's 9.3 GiB (97 %): within 10 % of the partition "
             "boundary, an OOM risk when it grows");

    RUN_HEADROOM(text, fixture, {"mig", "pack", "--gpu", "h100-sxm", "--tenants", file});
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("GPUs with MIG       2 h100-sxm (the minimum)"));
    CHECK(text.out.contains("1  3g.40gb@0 chat, 1g.10gb@4 embed"));
    CHECK(text.out.contains("warning: tenant 'embed'"));
}

TEST_CASE("mig pack: empty, oversized and malformed tenant files exit 2")
{
    CliFixture fixture;
    RUN_HEADROOM(empty, fixture, {"mig", "pack", "--gpu", "h100-sxm", "--tenants", fixture.writeFile("e.json", "[]")});
    CHECK(empty.exitCode == 2);
    CHECK(empty.err.contains("e.json: no tenants to pack (the list is empty)"));

    RUN_HEADROOM(giant, fixture, {"mig", "pack", "--gpu", "h100-sxm", "--tenants",
                                  fixture.writeFile("g.json", R"([{"name": "small", "memory_gib": 5}, {"name": "giant", "memory_gib": 95}])")});
    CHECK(giant.exitCode == 2);
    CHECK(giant.err.trimmed() == "headroom: tenant 'giant' needs 95.0 GiB, 15.4 GiB more than a whole h100-sxm (79.6 GiB)");

    RUN_HEADROOM(field, fixture, {"mig", "pack", "--gpu", "h100-sxm", "--tenants",
                                  fixture.writeFile("f.json", R"([{"name": "a", "memory_gib": "lots"}])")});
    CHECK(field.exitCode == 2);
    CHECK(field.err.contains("f.json: tenant 0 (\"a\"): field \"memory_gib\": required, a number of GiB above 0"));

    RUN_HEADROOM(isolation, fixture, {"mig", "pack", "--gpu", "h100-sxm", "--tenants",
                                      fixture.writeFile("i.json", R"([{"name": "a", "memory_gib": 5, "isolation": "strict"}])")});
    CHECK(isolation.exitCode == 2);
    CHECK(isolation.err.contains("field \"isolation\": one of none, soft, regulated"));

    RUN_HEADROOM(notJson, fixture, {"mig", "pack", "--gpu", "h100-sxm", "--tenants", fixture.writeFile("n.json", "{")});
    CHECK(notJson.exitCode == 2);
    CHECK(notJson.err.contains("n.json: not valid JSON at byte 1: an object opened with { is not closed with }"));

    RUN_HEADROOM(noFile, fixture, {"mig", "pack", "--gpu", "h100-sxm"});
    CHECK(noFile.exitCode == 2);
    CHECK(noFile.err.contains("--tenants FILE.json is required"));
}

TEST_CASE("golden: link-time over PCIe 4.0, NVLink and 400G InfiniBand")
{
    CliFixture fixture;
    RUN_HEADROOM(swap, fixture, {"link-time", "--bytes", "5000000000", "--link", "pcie4"});
    REQUIRE(swap.exitCode == 0);
    CHECK(swap.out.trimmed() == "5,000,000,000 bytes (5 GB) over PCIe 4.0 x16 at 32 GB/s: 0.156 s");

    const auto seconds = [&](const QStringList &link) {
        const CliResult r = fixture.run(QStringList{"link-time", "--bytes", "70e9", "--json"} + link);
        INFO(r.err.toStdString());
        REQUIRE(r.exitCode == 0);
        return parseJsonObject(r.out).value("seconds").toDouble();
    };
    CHECK(QString::number(seconds({"--link", "pcie4"}), 'f', 3) == "2.188");
    CHECK(QString::number(seconds({"--link", "nvlink-h100"}), 'f', 3) == "0.078");
    CHECK(QString::number(seconds({"--link", "ib-400g"}), 'f', 3) == "1.400");
    CHECK(seconds({"--gbps", "50"}) == Approx(1.4));
    CHECK(seconds({"--link", "pcie5"}) == Approx(70.0 / 64.0));

    RUN_HEADROOM(text, fixture, {"link-time", "--bytes", "70e9", "--link", "pcie4"});
    CHECK(text.out.trimmed().endsWith(": 2.188 s"));
}

TEST_CASE("link-time: missing or conflicting link, unknown link, bad numbers exit 2")
{
    CliFixture fixture;
    RUN_HEADROOM(none, fixture, {"link-time", "--bytes", "1e9"});
    CHECK(none.exitCode == 2);
    CHECK(none.err.trimmed() == "headroom: give --link (pcie4, pcie5, nvlink-h100, ib-400g) or --gbps F");
    RUN_HEADROOM(both, fixture, {"link-time", "--bytes", "1e9", "--link", "pcie4", "--gbps", "10"});
    CHECK(both.exitCode == 2);
    CHECK(both.err.contains("either --link or --gbps, not both"));
    RUN_HEADROOM(unknown, fixture, {"link-time", "--bytes", "1e9", "--link", "pcie7"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.trimmed() == "headroom: --link: unknown link 'pcie7'; known: pcie4, pcie5, nvlink-h100, ib-400g");
    RUN_HEADROOM(zero, fixture, {"link-time", "--bytes", "1e9", "--gbps", "0"});
    CHECK(zero.exitCode == 2);
    CHECK(zero.err.contains("--gbps: must be more than 0"));
    RUN_HEADROOM(bytes, fixture, {"link-time", "--bytes", "lots", "--link", "pcie4"});
    CHECK(bytes.exitCode == 2);
    CHECK(bytes.err.contains("--bytes: expected a number, got 'lots'"));
    RUN_HEADROOM(noBytes, fixture, {"link-time", "--link", "pcie4"});
    CHECK(noBytes.exitCode == 2);
    CHECK(noBytes.err.contains("--bytes is required"));
}
