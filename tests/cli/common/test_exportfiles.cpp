// `headroom export --out` and `headroom report -o`: a file is replaced only with --force, a
// symbolic link is never written through, and a failed export leaves nothing behind.
#include "clirunner.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace {

QByteArray contents(const QString &path)
{
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return file.readAll();
}

} // namespace

TEST_CASE("export --out refuses a symbolic link and leaves the link's target unchanged", "[export-files]")
{
    CliFixture ws;
    const QString victim = ws.writeFile("victim.txt", "keep me");
    const QString link = ws.filePath("catalog.json");
    REQUIRE(QFile::link(victim, link));
    for (const QStringList &force : {QStringList{}, QStringList{"--force"}}) {
        RUN_HEADROOM(r, ws, (QStringList{"export", "catalog", "--out", link} + force));
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("symbolic link"));
        CHECK(r.err.contains(victim));
        CHECK(contents(victim) == "keep me");
        CHECK(QFileInfo(link).isSymLink());
    }
    RUN_HEADROOM(scenario, ws, {"export", "scenario", "any", "--out", link});
    CHECK(scenario.exitCode == 2);
    CHECK(contents(victim) == "keep me");
}

TEST_CASE("export --out leaves an existing file untouched without --force and replaces it with it", "[export-files]")
{
    CliFixture ws;
    const QString out = ws.writeFile("catalog.json", "previous export");
    RUN_HEADROOM(refused, ws, {"export", "catalog", "--out", out});
    CHECK(refused.exitCode == 2);
    CHECK(refused.err.contains("already exists"));
    CHECK(refused.err.contains("--force"));
    CHECK(contents(out) == "previous export");

    RUN_HEADROOM(replaced, ws, {"export", "catalog", "--out", out, "--force"});
    REQUIRE(replaced.exitCode == 0);
    const QJsonObject catalog = parseJsonObject(QString::fromUtf8(contents(out)));
    CHECK(catalog.contains("gpus"));
    CHECK(catalog.contains("models"));
    CHECK(QDir(QFileInfo(out).path()).entryList({"catalog.json*"}, QDir::Files | QDir::Hidden).size() == 1);

    RUN_HEADROOM(forceAlone, ws, {"export", "catalog", "--force"});
    CHECK(forceAlone.exitCode == 2);
    CHECK(forceAlone.err.contains("--force: only with --out"));
}

TEST_CASE("A failed export leaves no partial file and an existing file intact", "[export-files]")
{
    CliFixture ws;
    const QString missing = ws.filePath("no/such/folder/catalog.json");
    RUN_HEADROOM(r, ws, {"export", "catalog", "--out", missing});
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains(missing));
    CHECK_FALSE(QFileInfo::exists(ws.filePath("no")));

    // An export that fails after the file was checked (no such scenario) keeps the file.
    const QString out = ws.writeFile("scenario.json", "previous scenario");
    RUN_HEADROOM(failed, ws, {"export", "scenario", "no such scenario", "--out", out, "--force"});
    CHECK(failed.exitCode == 2);
    CHECK(contents(out) == "previous scenario");

    const QString folder = ws.filePath("a-folder.json");
    REQUIRE(QDir().mkpath(folder));
    RUN_HEADROOM(toFolder, ws, {"export", "catalog", "--out", folder, "--force"});
    CHECK(toFolder.exitCode == 2);
    CHECK(toFolder.err.contains("not a file"));
}

TEST_CASE("report -o refuses a symbolic link and an existing deck without --force", "[export-files]")
{
    CliFixture fixture;
    const QString victim = fixture.writeFile("victim.pdf", "keep me");
    const QString link = fixture.filePath("deck.pdf");
    REQUIRE(QFile::link(victim, link));
    const CliResult viaLink =
        fixture.runBare({"--demo", "report", "--scenario", "Chatbot core + flex", "-o", link, "--force"});
    INFO(viaLink.err.toStdString());
    CHECK(viaLink.exitCode == 2);
    CHECK(viaLink.err.contains("symbolic link"));
    CHECK(contents(victim) == "keep me");

    const QString existing = fixture.writeFile("existing.pdf", "previous deck");
    const CliResult refused = fixture.runBare({"--demo", "report", "--scenario", "Chatbot core + flex", "-o", existing});
    INFO(refused.err.toStdString());
    CHECK(refused.exitCode == 2);
    CHECK(refused.err.contains("--force"));
    CHECK(contents(existing) == "previous deck");

    const CliResult replaced =
        fixture.runBare({"--demo", "report", "--scenario", "Chatbot core + flex", "-o", existing, "--force"});
    INFO(replaced.err.toStdString());
    REQUIRE(replaced.exitCode == 0);
    CHECK(contents(existing).startsWith("%PDF"));
}
