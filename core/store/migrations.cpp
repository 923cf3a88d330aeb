#include "migrations.h"

#include "catalogjson.h"
#include "catalogtables.h"
#include "sqlsupport.h"
#include "storeerror.h"
#include "workspace.h"

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <iterator>

namespace headroom::store {

namespace {

constexpr auto kSqliteNotADatabase = "26";

const QString kShippedGpus = QStringLiteral(":/catalogs/gpus.json");
const QString kShippedModels = QStringLiteral(":/catalogs/models.json");

// Portable DDL (SQLite and PostgreSQL); column names equal the catalog JSON keys.
const QStringList kCreateCatalogTables = {
    QStringLiteral("CREATE TABLE gpu ("
                   "id TEXT PRIMARY KEY, "
                   "name TEXT NOT NULL, "
                   "vendor TEXT NOT NULL, "
                   "memory_bytes BIGINT NOT NULL, "
                   "memory_nominal_gb DOUBLE PRECISION NOT NULL, "
                   "hbm_bandwidth_gbps DOUBLE PRECISION NOT NULL, "
                   "bf16_tflops DOUBLE PRECISION NOT NULL, "
                   "fp8_tflops DOUBLE PRECISION NOT NULL, "
                   "nvlink_gbps DOUBLE PRECISION NOT NULL, "
                   "pcie_gbps DOUBLE PRECISION NOT NULL, "
                   "tdp_w DOUBLE PRECISION NOT NULL, "
                   "gpus_per_node INTEGER NOT NULL, "
                   "source TEXT NOT NULL)"),
    QStringLiteral("CREATE TABLE model ("
                   "id TEXT PRIMARY KEY, "
                   "name TEXT NOT NULL, "
                   "params_total DOUBLE PRECISION NOT NULL, "
                   "params_active DOUBLE PRECISION NOT NULL, "
                   "layers INTEGER NOT NULL, "
                   "hidden_size INTEGER NOT NULL, "
                   "attention_heads INTEGER NOT NULL, "
                   "kv_heads INTEGER NOT NULL, "
                   "head_dim INTEGER NOT NULL, "
                   "attention TEXT NOT NULL CHECK (attention IN ('mha', 'gqa', 'mqa', 'mla')), "
                   "kv_lora_rank INTEGER NOT NULL, "
                   "qk_rope_head_dim INTEGER NOT NULL, "
                   "sliding_window INTEGER NOT NULL, "
                   "sliding_layers INTEGER NOT NULL, "
                   "max_context BIGINT NOT NULL, "
                   "source TEXT NOT NULL)"),
    QStringLiteral("CREATE TABLE workspace_info ("
                   "key TEXT PRIMARY KEY, "
                   "value TEXT NOT NULL)"),
};

void createCatalogTables(const QSqlDatabase &db, const QString &path)
{
    for (const QString &sql : kCreateCatalogTables)
        execStatement(db, sql, path, QStringLiteral("cannot create the catalog tables"));
}

struct MigrationStep {
    int version;  // the schema version this step produces
    void (*apply)(const QSqlDatabase &db, const QString &path);
};

// Append-only: never edit a released step, add a new one and raise kSchemaVersion.
const MigrationStep kSteps[] = {
    {1, &createCatalogTables},
};
static_assert(std::size(kSteps) == Workspace::kSchemaVersion,
              "one migration step per schema version");

void putInfo(const QSqlDatabase &db, const QString &path, const QString &key,
             const QString &value)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("INSERT INTO workspace_info (key, value) VALUES (:key, :value)"));
    query.bindValue(QStringLiteral(":key"), key);
    query.bindValue(QStringLiteral(":value"), value);
    execPrepared(query, path, QStringLiteral("cannot record workspace information"));
}

void seedFromShippedCatalogs(const QSqlDatabase &db, const QString &path)
{
    const Catalog gpus = readCatalogFile(kShippedGpus);
    const Catalog models = readCatalogFile(kShippedModels);
    const CatalogTables tables(db.connectionName(), path);
    for (const auto &gpu : gpus.gpus)
        tables.upsertGpu(gpu);
    for (const auto &model : models.models)
        tables.upsertModel(model);
    putInfo(db, path, QStringLiteral("created_at"),
            QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    putInfo(db, path, QStringLiteral("seeded_from"),
            QStringLiteral("gpus.json (%1 GPUs), models.json (%2 models)")
                .arg(gpus.gpus.size())
                .arg(models.models.size()));
}

void setSchemaVersion(const QSqlDatabase &db, const QString &path, int version)
{
    // PRAGMA takes no bound parameters; the version is a trusted integer.
    execStatement(db, QStringLiteral("PRAGMA user_version = %1").arg(version), path,
                  QStringLiteral("cannot set the schema version"));
}

} // namespace

int readSchemaVersion(const QSqlDatabase &db, const QString &path)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next()) {
        const QSqlError error = query.lastError();
        if (error.nativeErrorCode() == QLatin1String(kSqliteNotADatabase))
            throw StoreError(QStringLiteral("%1 is not a Headroom workspace: it is not an "
                                            "SQLite database.")
                                 .arg(path));
        throw StoreError(QStringLiteral("Cannot read workspace %1: %2").arg(path, error.text()));
    }
    return query.value(0).toInt();
}

void migrateWorkspace(const QSqlDatabase &db, const QString &path, int fromVersion)
{
    for (const MigrationStep &step : kSteps) {
        if (step.version <= fromVersion)
            continue;
        SqlTransaction transaction(db, path);
        step.apply(db, path);
        if (fromVersion == 0 && step.version == Workspace::kSchemaVersion)
            seedFromShippedCatalogs(db, path);
        setSchemaVersion(db, path, step.version);
        transaction.commit();
    }
}

} // namespace headroom::store
