#include "storetestsupport.h"

#include "store/catalog/catalogjson.h"
#include "store/common/workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <memory>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

QStringList workspaceConnections()
{
    return QSqlDatabase::connectionNames().filter(QStringLiteral("headroom-workspace-"));
}

struct ShippedCounts {
    size_t gpus = 0;
    size_t models = 0;
};

ShippedCounts shippedCounts()
{
    return {readCatalogFile(QStringLiteral(":/catalogs/gpus.json")).gpus.size(),
            readCatalogFile(QStringLiteral(":/catalogs/models.json")).models.size()};
}

} // namespace

TEST_CASE("a new workspace is at the current schema, in WAL mode, with foreign keys on", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("new.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    CHECK(workspace.path() == path);
    CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
    CHECK(QFileInfo::exists(path));

    const QStringList connections = workspaceConnections();
    REQUIRE(connections.size() == 1);
    {
        QSqlQuery query(QSqlDatabase::database(connections.first(), false));
        REQUIRE(query.exec(QStringLiteral("PRAGMA foreign_keys")));
        REQUIRE(query.next());
        CHECK(query.value(0).toInt() == 1);
    }

    RawDatabase raw(path);
    CHECK(raw.schemaVersion() == Workspace::kSchemaVersion);
    CHECK(raw.scalar(QStringLiteral("PRAGMA journal_mode")).toString() == QLatin1String("wal"));
}

TEST_CASE("a new workspace is seeded with the shipped catalogs", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("seeded.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    const ShippedCounts shipped = shippedCounts();
    CHECK(workspace.gpus().size() == shipped.gpus);
    CHECK(workspace.models().size() == shipped.models);
    CHECK(workspace.gpus().size() >= 9);
    CHECK(workspace.models().size() >= 7);

    // The resources are the files in data/.
    const Catalog data = readCatalogFile(sourceFile(QStringLiteral("data/gpus.json")));
    CHECK(data.gpus.size() == shipped.gpus);

    const auto h100 = workspace.gpu(QStringLiteral("h100-sxm"));
    REQUIRE(h100.has_value());
    CHECK(h100->memoryBytes == 85520809984);

    RawDatabase raw(path);
    CHECK_FALSE(raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = "
                                          "'created_at'"))
                    .toString()
                    .isEmpty());
    CHECK(raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = "
                                    "'seeded_from'"))
              .toString()
              .contains(QLatin1String("gpus.json")));
}

TEST_CASE("reopening a workspace keeps edits and does not seed again", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("reopen.headroom"));
    const QString path = location.path();
    const ShippedCounts shipped = shippedCounts();
    QString createdAt;
    {
        Workspace workspace(path);
        REQUIRE(workspace.removeGpu(QStringLiteral("h100-sxm")));
        workspace.putModel(sampleModel("my-model"));
        RawDatabase raw(path);
        createdAt = raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = "
                                              "'created_at'"))
                        .toString();
    }
    {
        Workspace workspace(path);
        CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
        CHECK(workspace.gpus().size() == shipped.gpus - 1);
        CHECK_FALSE(workspace.gpu(QStringLiteral("h100-sxm")).has_value());
        CHECK(workspace.models().size() == shipped.models + 1);
        RawDatabase raw(path);
        CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM workspace_info")).toInt() == 2);
        CHECK(raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = "
                                        "'created_at'"))
                  .toString()
              == createdAt);
    }
}

TEST_CASE("a file from a newer schema is refused and left untouched", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("future.headroom"));
    const QString path = location.path();
    {
        RawDatabase raw(path);
        raw.exec(QStringLiteral("CREATE TABLE future_thing (id INTEGER PRIMARY KEY)"));
        raw.exec(QStringLiteral("PRAGMA user_version = 99"));
    }
    const QByteArray before = readBytes(path);
    REQUIRE_FALSE(before.isEmpty());

    const std::string message = storeErrorOf([&] { Workspace workspace(path); });
    CHECK(message
          == path.toStdString()
              + " was written by a newer Headroom (schema 99; this version reads up to "
              + std::to_string(Workspace::kSchemaVersion)
              + "). Open it with a newer version, or choose another workspace.");
    CHECK(readBytes(path) == before);
    CHECK(workspaceConnections().isEmpty());
    RawDatabase raw(path);
    CHECK(raw.scalar(QStringLiteral("PRAGMA journal_mode")).toString() == QLatin1String("delete"));
}

TEST_CASE("a file that is not a database is refused and left untouched", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("notes.headroom"));
    const QString path = location.path();
    QByteArray text;
    for (int i = 0; i < 100; ++i)
        text += "These are meeting notes, not a workspace.\n";
    writeBytes(path, text);

    CHECK(storeErrorOf([&] { Workspace workspace(path); })
          == path.toStdString() + " is not a Headroom workspace: it is not an SQLite database.");
    CHECK(readBytes(path) == text);
    CHECK(workspaceConnections().isEmpty());
}

TEST_CASE("another program's SQLite database is refused", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("other.sqlite"));
    const QString path = location.path();
    {
        RawDatabase raw(path);
        raw.exec(QStringLiteral("CREATE TABLE gpu (id TEXT)"));
    }
    const QByteArray before = readBytes(path);
    CHECK_THAT(storeErrorOf([&] { Workspace workspace(path); }),
               Contains("is not a Headroom workspace: it is an SQLite database holding other "
                        "tables."));
    CHECK(readBytes(path) == before);
}

TEST_CASE("opening creates missing parent folders", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("a/b/c/deep.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    CHECK(QFileInfo::exists(path));
    CHECK_FALSE(workspace.gpus().empty());
}

TEST_CASE("a workspace whose folder cannot be created is refused", "[workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    writeBytes(dir.filePath(QStringLiteral("blocker")), "a file where a folder should be");
    const QString path = dir.filePath(QStringLiteral("blocker/ws.headroom"));
    CHECK_THAT(storeErrorOf([&] { Workspace workspace(path); }), Contains("blocker"));
    CHECK_FALSE(QFileInfo::exists(path));
    CHECK(workspaceConnections().isEmpty());
}

TEST_CASE("the default workspace lives in the application data folder", "[workspace][file]")
{
    const QString path = Workspace::defaultPath();
    CHECK(path
          == QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
              + QStringLiteral("/workspace.headroom"));
    CHECK(QStandardPaths::isTestModeEnabled());
}

TEST_CASE("each workspace has its own connection, removed when it is destroyed", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("shared.headroom"));
    const QString path = location.path();
    {
        auto first = std::make_unique<Workspace>(path);
        Workspace second(path);
        CHECK(workspaceConnections().size() == 2);

        first->putGpu(sampleGpu("seen-by-both"));
        CHECK(second.gpu(QStringLiteral("seen-by-both")).has_value());
        first.reset();
        CHECK(workspaceConnections().size() == 1);
        CHECK(second.gpu(QStringLiteral("seen-by-both")).has_value());
    }
    CHECK(workspaceConnections().isEmpty());
}
