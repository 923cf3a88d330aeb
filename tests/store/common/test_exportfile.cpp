// Exports are written whole or not at all, never through a symbolic link, and replace an
// existing file only when asked.
#include "store/common/exportfile.h"
#include "store/common/storeerror.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <functional>
#include <stdexcept>

using namespace headroom;

namespace {

QByteArray contents(const QString &path)
{
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return file.readAll();
}

void put(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    REQUIRE(file.write(bytes) == bytes.size());
}

QStringList entries(const QTemporaryDir &dir)
{
    return QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                                      QDir::Name);
}

QString messageOf(const std::function<void()> &write)
{
    try {
        write();
    } catch (const store::StoreError &e) {
        return e.message();
    }
    return QStringLiteral("(written)");
}

} // namespace

TEST_CASE("An export writes a new file and leaves nothing else behind", "[exportfile]")
{
    QTemporaryDir dir;
    const QString path = dir.filePath("catalog.json");
    store::writeExportFile(path, "{\"gpus\": []}\n", store::ExistingFile::Refuse);
    CHECK(contents(path) == "{\"gpus\": []}\n");
    CHECK(entries(dir) == QStringList{"catalog.json"});
}

TEST_CASE("An existing file is left as it is unless replacing was asked for", "[exportfile]")
{
    QTemporaryDir dir;
    const QString path = dir.filePath("deck.pdf");
    put(path, "previous deck");
    const QString refused = messageOf([&] { store::writeExportFile(path, "new", store::ExistingFile::Refuse); });
    CHECK(refused.contains(path));
    CHECK(refused.contains("already exists"));
    CHECK(contents(path) == "previous deck");
    CHECK(entries(dir) == QStringList{"deck.pdf"});

    store::writeExportFile(path, "new deck", store::ExistingFile::Replace);
    CHECK(contents(path) == "new deck");
    CHECK(entries(dir) == QStringList{"deck.pdf"});
}

TEST_CASE("A symbolic link at the target is refused and its target is not written", "[exportfile]")
{
    QTemporaryDir dir;
    const QString victim = dir.filePath("victim.txt");
    put(victim, "keep me");
    const QString link = dir.filePath("out.json");
    REQUIRE(QFile::link(victim, link));
    for (const store::ExistingFile mode : {store::ExistingFile::Refuse, store::ExistingFile::Replace}) {
        const QString message = messageOf([&] { store::writeExportFile(link, "overwritten", mode); });
        CHECK(message.contains("symbolic link"));
        CHECK(message.contains(victim));
        CHECK(contents(victim) == "keep me");
        CHECK(QFileInfo(link).isSymLink());
    }
    // A dangling link is refused too: nothing appears where it points.
    const QString dangling = dir.filePath("dangling.json");
    REQUIRE(QFile::link(dir.filePath("nowhere.json"), dangling));
    CHECK(messageOf([&] { store::writeExportFile(dangling, "x", store::ExistingFile::Replace); })
              .contains("symbolic link"));
    CHECK_FALSE(QFileInfo::exists(dir.filePath("nowhere.json")));
    CHECK(entries(dir) == (QStringList{"dangling.json", "out.json", "victim.txt"}));
}

TEST_CASE("A folder at the target is refused", "[exportfile]")
{
    QTemporaryDir dir;
    REQUIRE(QDir(dir.path()).mkdir("deck.pdf"));
    CHECK(messageOf([&] { store::writeExportFile(dir.filePath("deck.pdf"), "x", store::ExistingFile::Replace); })
              .contains("not a file"));
}

TEST_CASE("A failed export leaves no partial file and an existing file intact", "[exportfile]")
{
    QTemporaryDir dir;
    // A folder that does not exist: an error naming the file, nothing created.
    const QString missing = dir.filePath("no/such/folder/out.csv");
    CHECK(messageOf([&] { store::writeExportFile(missing, "x", store::ExistingFile::Refuse); }).contains(missing));
    CHECK(entries(dir).isEmpty());

    // An error in the middle of writing: half the bytes are out when the export gives up.
    const QString path = dir.filePath("ratecards.csv");
    put(path, "previous,cards\n");
    const QString fresh = dir.filePath("fresh.csv");
    for (const QString &target : {path, fresh}) {
        try {
            store::ExportFile file(target, store::ExistingFile::Replace);
            REQUIRE(file.device().write(QByteArray(64 * 1024, 'x')) == 64 * 1024);
            throw std::runtime_error("the export failed half way");
        } catch (const std::runtime_error &) {
        }
    }
    CHECK(contents(path) == "previous,cards\n");
    CHECK_FALSE(QFileInfo::exists(fresh));
    CHECK(entries(dir) == QStringList{"ratecards.csv"});

    // A link put in place while the export was being written is still refused at the end.
    const QString victim = dir.filePath("victim.txt");
    put(victim, "keep me");
    const QString late = dir.filePath("late.json");
    {
        store::ExportFile file(late, store::ExistingFile::Replace);
        file.device().write("overwritten");
        REQUIRE(QFile::link(victim, late));
        CHECK(messageOf([&] { file.commit(); }).contains("symbolic link"));
    }
    CHECK(contents(victim) == "keep me");
    CHECK(QFileInfo(late).isSymLink());
    CHECK(entries(dir) == (QStringList{"late.json", "ratecards.csv", "victim.txt"}));
    // And a file that appeared meanwhile is not replaced when replacing was not asked for.
    const QString raced = dir.filePath("raced.json");
    {
        store::ExportFile file(raced, store::ExistingFile::Refuse);
        file.device().write("mine");
        put(raced, "theirs");
        CHECK(messageOf([&] { file.commit(); }).contains("already exists"));
    }
    CHECK(contents(raced) == "theirs");
}
