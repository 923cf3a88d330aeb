#include "migrations.h"

#include "store/catalog/catalogjson.h"
#include "store/catalog/catalogtables.h"
#include "store/cost/costcsv.h"
#include "store/catalog/ratecardtables.h"
#include "sqlsupport.h"
#include "storeerror.h"
#include "workspace.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <iterator>

namespace headroom::store {

namespace {

constexpr auto kSqliteNotADatabase = "26";
// The advisory lock key schema upgrades on a server take ("HDRM" in ASCII).
constexpr qint64 kMigrationLockKey = 0x4844524d;

const QString kShippedGpus = QStringLiteral(":/catalogs/gpus.json");
const QString kShippedModels = QStringLiteral(":/catalogs/models.json");
const QString kShippedRateCards = QStringLiteral(":/catalogs/ratecards.csv");

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

// Schema 2: rate cards (rates as exact decimal text, history by effective date) and hourly
// demand series. Portable DDL as above.
const QStringList kCreateCostTables = {
    QStringLiteral("CREATE TABLE rate_card ("
                   "provider TEXT NOT NULL, "
                   "region TEXT NOT NULL, "
                   "gpu_id TEXT NOT NULL, "
                   "instance_type TEXT NOT NULL, "
                   "currency TEXT NOT NULL, "
                   "effective_date TEXT NOT NULL, "
                   "on_demand TEXT NOT NULL, "
                   "reserved_1y TEXT NOT NULL, "
                   "reserved_1y_upfront TEXT NOT NULL, "
                   "reserved_3y TEXT NOT NULL, "
                   "reserved_3y_upfront TEXT NOT NULL, "
                   "spot TEXT NOT NULL, "
                   "spot_interruption_rate TEXT NOT NULL, "
                   "lead_weeks INTEGER NOT NULL, "
                   "committed_are_examples INTEGER NOT NULL "
                   "CHECK (committed_are_examples IN (0, 1)), "
                   "source TEXT NOT NULL, "
                   "PRIMARY KEY (provider, region, gpu_id, effective_date))"),
    QStringLiteral("CREATE TABLE demand_series ("
                   "name TEXT PRIMARY KEY, "
                   "start_epoch BIGINT NOT NULL, "
                   "source TEXT NOT NULL)"),
    QStringLiteral("CREATE TABLE demand_point ("
                   "series_name TEXT NOT NULL REFERENCES demand_series (name) ON DELETE CASCADE, "
                   "hour_index INTEGER NOT NULL, "
                   "gpus TEXT NOT NULL, "
                   "PRIMARY KEY (series_name, hour_index))"),
};

// Creates the cost tables and fills `rate_card` from the shipped rate cards, so that an
// existing workspace gains them when it is opened.
void createCostTables(const QSqlDatabase &db, const QString &path)
{
    for (const QString &sql : kCreateCostTables)
        execStatement(db, sql, path,
                      QStringLiteral("cannot create the rate card and demand tables"));

    QFile file(kShippedRateCards);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("Cannot read the shipped rate cards %1: %2")
                             .arg(kShippedRateCards, file.errorString()));
    const RateCardTables tables(db.connectionName(), path);
    for (const auto &card : parseRateCardsCsv(file.readAll(), QStringLiteral("ratecards.csv")))
        tables.upsertRateCard(card);
}

// Schema 3: workload profiles, one column per field. The 24-hour diurnal curve is 24
// DOUBLE PRECISION columns d00 … d23 (UTC hours), exact and portable; enums are the
// engine's toString() text; optional measured values are NULL when absent. model_id and
// gpu_id name catalog entries without a foreign key, so a catalog entry can be removed while
// a workload still names it (sizing reports the missing entry).
QString createWorkloadTableSql()
{
    QString diurnalColumns;
    for (int hour = 0; hour < 24; ++hour)
        diurnalColumns += QStringLiteral("d%1 DOUBLE PRECISION NOT NULL, ")
                              .arg(hour, 2, 10, QLatin1Char('0'));
    return QStringLiteral(
               "CREATE TABLE workload ("
               "name TEXT PRIMARY KEY, "
               "tenant TEXT NOT NULL, "
               "model_id TEXT NOT NULL, "
               "weights TEXT NOT NULL "
               "CHECK (weights IN ('bf16', 'fp16', 'fp8', 'int8', 'int4')), "
               "kv_dtype TEXT NOT NULL CHECK (kv_dtype IN ('bf16', 'fp8')), "
               "workload_class TEXT NOT NULL "
               "CHECK (workload_class IN ('flagship', 'internal', 'batch', 'embedding')), "
               "daily_active_users DOUBLE PRECISION NOT NULL, "
               "requests_per_user_per_day DOUBLE PRECISION NOT NULL, "
               "peak_sessions_per_user DOUBLE PRECISION NOT NULL, "
               "%1"
               "prompt_p50 DOUBLE PRECISION NOT NULL, "
               "prompt_p95 DOUBLE PRECISION NOT NULL, "
               "output_p50 DOUBLE PRECISION NOT NULL, "
               "output_p95 DOUBLE PRECISION NOT NULL, "
               "prefix_hit_rate DOUBLE PRECISION NOT NULL, "
               "shared_prefix_tokens BIGINT NOT NULL, "
               "ttft_p95_ms DOUBLE PRECISION NOT NULL, "
               "itl_p95_ms DOUBLE PRECISION NOT NULL, "
               "traffic_variance DOUBLE PRECISION NOT NULL, "
               "measured_goodput_tokens_per_s DOUBLE PRECISION, "
               "measured_max_streams BIGINT, "
               "isolation TEXT NOT NULL CHECK (isolation IN ('none', 'soft', 'regulated')), "
               "gpu_id TEXT NOT NULL, "
               "tp INTEGER NOT NULL)")
        .arg(diurnalColumns);
}

// No workloads are seeded; data/samples/ holds an example workload file instead.
void createWorkloadTable(const QSqlDatabase &db, const QString &path)
{
    execStatement(db, createWorkloadTableSql(), path,
                  QStringLiteral("cannot create the workload table"));
}

// Schema 4: training jobs, fleet scenarios and the report. Jobs and scenarios are JSON
// documents (formats in trainingjson / scenariojson) with a version number bumped on every
// edit and ISO 8601 UTC timestamps; report items are ordered snapshots (an SVG figure or a
// JSON table) with their title and caption. Report settings live in workspace_info.
const QStringList kCreatePlanningTables = {
    QStringLiteral("CREATE TABLE training_job ("
                   "name TEXT PRIMARY KEY, "
                   "version INTEGER NOT NULL, "
                   "created_at TEXT NOT NULL, "
                   "updated_at TEXT NOT NULL, "
                   "body TEXT NOT NULL)"),
    QStringLiteral("CREATE TABLE scenario ("
                   "name TEXT PRIMARY KEY, "
                   "description TEXT NOT NULL, "
                   "author TEXT NOT NULL, "
                   "version INTEGER NOT NULL, "
                   "created_at TEXT NOT NULL, "
                   "updated_at TEXT NOT NULL, "
                   "body TEXT NOT NULL)"),
    QStringLiteral("CREATE TABLE report_item ("
                   "position INTEGER PRIMARY KEY, "
                   "kind TEXT NOT NULL CHECK (kind IN ('figure', 'table', 'text')), "
                   "title TEXT NOT NULL, "
                   "caption TEXT NOT NULL, "
                   "content TEXT NOT NULL)"),
};

void createPlanningTables(const QSqlDatabase &db, const QString &path)
{
    for (const QString &sql : kCreatePlanningTables)
        execStatement(db, sql, path,
                      QStringLiteral("cannot create the training, scenario and report tables"));
}

// Schema 5: where a workload's measured goodput comes from when it was not measured on real
// replicas (e.g. a serving simulation); '' = measured.
void addWorkloadGoodputSource(const QSqlDatabase &db, const QString &path)
{
    execStatement(db, QStringLiteral("ALTER TABLE workload ADD COLUMN goodput_source TEXT NOT NULL DEFAULT ''"),
                  path, QStringLiteral("cannot add the goodput source to the workload table"));
}

// Schema 6: who changed what. `scenario` and `training_job` rows record the author of their
// last change (`updated_by`: the database role on a server, the OS user for a file); every
// version of every scenario is kept in `scenario_history` (body, author, UTC time), seeded
// with the current versions. On a server, statement triggers count the changes of each table
// in `headroom_changes` and announce the table's name on the `headroom_changes` channel
// (NOTIFY), so other programs refresh their pages; the counter and triggers are the server's
// own and are not copied by push or pull. Self-contained: everything schema 6 adds is here.
void addChangeTracking(const QSqlDatabase &db, const QString &path)
{
    const QString what = QStringLiteral("cannot add change tracking (schema 6)");
    execStatement(db, QStringLiteral("ALTER TABLE scenario ADD COLUMN updated_by TEXT NOT NULL DEFAULT ''"),
                  path, what);
    execStatement(db, QStringLiteral("ALTER TABLE training_job ADD COLUMN updated_by TEXT NOT NULL DEFAULT ''"),
                  path, what);
    execStatement(db, QStringLiteral("CREATE TABLE scenario_history ("
                                     "name TEXT NOT NULL, "
                                     "version INTEGER NOT NULL, "
                                     "changed_by TEXT NOT NULL, "
                                     "changed_at TEXT NOT NULL, "
                                     "body TEXT NOT NULL, "
                                     "PRIMARY KEY (name, version))"),
                  path, what);
    execStatement(db, QStringLiteral("INSERT INTO scenario_history (name, version, changed_by, changed_at, body) "
                                     "SELECT name, version, updated_by, updated_at, body FROM scenario"),
                  path, what);
    if (!isServer(db))
        return;
    execStatement(db, QStringLiteral("CREATE TABLE headroom_changes ("
                                     "table_name TEXT PRIMARY KEY, "
                                     "counter BIGINT NOT NULL)"),
                  path, what);
    execStatement(db, QStringLiteral(
                          "CREATE FUNCTION headroom_note_change() RETURNS trigger LANGUAGE plpgsql AS $$ "
                          "BEGIN "
                          "INSERT INTO headroom_changes (table_name, counter) VALUES (TG_TABLE_NAME, 1) "
                          "ON CONFLICT (table_name) DO UPDATE SET counter = headroom_changes.counter + 1; "
                          "PERFORM pg_notify('headroom_changes', TG_TABLE_NAME); "
                          "RETURN NULL; "
                          "END $$"),
                  path, what);
    const QStringList watched = {
        QStringLiteral("workspace_info"), QStringLiteral("gpu"),          QStringLiteral("model"),
        QStringLiteral("rate_card"),      QStringLiteral("demand_series"), QStringLiteral("demand_point"),
        QStringLiteral("workload"),       QStringLiteral("training_job"), QStringLiteral("scenario"),
        QStringLiteral("report_item"),
    };
    for (const QString &table : watched)
        execStatement(db, QStringLiteral("CREATE TRIGGER headroom_note_%1 AFTER INSERT OR UPDATE OR DELETE "
                                         "OR TRUNCATE ON %1 FOR EACH STATEMENT "
                                         "EXECUTE FUNCTION headroom_note_change()")
                              .arg(table),
                      path, what);
}

// Schema 7: billing actuals (actualstables.h): one row per imported file, then that file's summary —
// per commitment-hour and status, per commitment scope, on-demand cost per service, region and
// hours, cost per currency and day. Money is exact decimal text.
void createActualsTables(const QSqlDatabase &db, const QString &path)
{
    const QStringList statements = {
        QStringLiteral("CREATE TABLE actuals_import ("
                       "id BIGINT PRIMARY KEY, "
                       "file_name TEXT NOT NULL UNIQUE, "
                       "imported_at TEXT NOT NULL, "
                       "row_count BIGINT NOT NULL CHECK (row_count >= 0), "
                       "currencies TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE actuals_commitment ("
                       "import_id BIGINT NOT NULL REFERENCES actuals_import(id) ON DELETE CASCADE, "
                       "position INTEGER NOT NULL CHECK (position >= 1), "
                       "commitment_id TEXT NOT NULL, "
                       "name TEXT NOT NULL, "
                       "category TEXT NOT NULL, "
                       "type TEXT NOT NULL, "
                       "term_end BIGINT NOT NULL, "
                       "PRIMARY KEY (import_id, position))"),
        QStringLiteral("CREATE TABLE actuals_commitment_hour ("
                       "import_id BIGINT NOT NULL, "
                       "commitment_position INTEGER NOT NULL, "
                       "currency TEXT NOT NULL, "
                       "hour BIGINT NOT NULL, "
                       "status TEXT NOT NULL CHECK (status IN ('used', 'unused')), "
                       "effective_cost TEXT NOT NULL, "
                       "PRIMARY KEY (import_id, commitment_position, currency, hour, status), "
                       "FOREIGN KEY (import_id, commitment_position) "
                       "REFERENCES actuals_commitment(import_id, position) ON DELETE CASCADE)"),
        QStringLiteral("CREATE TABLE actuals_commitment_scope ("
                       "import_id BIGINT NOT NULL, "
                       "commitment_position INTEGER NOT NULL, "
                       "currency TEXT NOT NULL, "
                       "service TEXT NOT NULL, "
                       "region TEXT NOT NULL, "
                       "PRIMARY KEY (import_id, commitment_position, currency, service, region), "
                       "FOREIGN KEY (import_id, commitment_position) "
                       "REFERENCES actuals_commitment(import_id, position) ON DELETE CASCADE)"),
        QStringLiteral("CREATE TABLE actuals_on_demand ("
                       "import_id BIGINT NOT NULL REFERENCES actuals_import(id) ON DELETE CASCADE, "
                       "currency TEXT NOT NULL, "
                       "service TEXT NOT NULL, "
                       "region TEXT NOT NULL, "
                       "first_hour BIGINT NOT NULL, "
                       "last_hour BIGINT NOT NULL CHECK (last_hour > first_hour), "
                       "effective_cost TEXT NOT NULL, "
                       "PRIMARY KEY (import_id, currency, service, region, first_hour, last_hour))"),
        QStringLiteral("CREATE TABLE actuals_day ("
                       "import_id BIGINT NOT NULL REFERENCES actuals_import(id) ON DELETE CASCADE, "
                       "currency TEXT NOT NULL, "
                       "day BIGINT NOT NULL, "
                       "effective_cost TEXT NOT NULL, "
                       "billed_cost TEXT NOT NULL, "
                       "row_count BIGINT NOT NULL, "
                       "PRIMARY KEY (import_id, currency, day))"),
    };
    for (const QString &sql : statements)
        execStatement(db, sql, path, QStringLiteral("cannot create the actuals tables"));
    // On a server, an import is announced like every other change (schema 6).
    if (!isServer(db))
        return;
    for (const char *table : {"actuals_import", "actuals_commitment", "actuals_commitment_hour",
                              "actuals_commitment_scope", "actuals_on_demand", "actuals_day"})
        execStatement(db, QStringLiteral("CREATE TRIGGER headroom_note_%1 AFTER INSERT OR UPDATE OR DELETE "
                                         "OR TRUNCATE ON %1 FOR EACH STATEMENT "
                                         "EXECUTE FUNCTION headroom_note_change()")
                              .arg(QLatin1String(table)),
                      path, QStringLiteral("cannot create the actuals tables"));
}

// Schema 8: serving telemetry (servingmetricstables.h): one row per imported metrics file, its
// replica-hours (aggregates, never samples; a gauge without samples is NULL), and the named
// optimizations of the benchmark history.
void createServingMetricsTables(const QSqlDatabase &db, const QString &path)
{
    const QStringList statements = {
        QStringLiteral("CREATE TABLE serving_metrics_import ("
                       "id BIGINT PRIMARY KEY, "
                       "file_name TEXT NOT NULL UNIQUE, "
                       "imported_at TEXT NOT NULL, "
                       "row_count BIGINT NOT NULL CHECK (row_count >= 0), "
                       "ignored_rows BIGINT NOT NULL CHECK (ignored_rows >= 0))"),
        QStringLiteral("CREATE TABLE serving_metrics_hour ("
                       "import_id BIGINT NOT NULL REFERENCES serving_metrics_import(id) ON DELETE CASCADE, "
                       "deployment TEXT NOT NULL, "
                       "instance TEXT NOT NULL, "
                       "hour BIGINT NOT NULL, "
                       "gpus INTEGER NOT NULL CHECK (gpus >= 0), "
                       "gpu_util_mean DOUBLE PRECISION, "
                       "gpu_util_peak DOUBLE PRECISION, "
                       "fb_used_mib_mean DOUBLE PRECISION, "
                       "kv_cache_mean DOUBLE PRECISION, "
                       "running_mean DOUBLE PRECISION, "
                       "waiting_mean DOUBLE PRECISION, "
                       "waiting_peak DOUBLE PRECISION, "
                       "requests DOUBLE PRECISION NOT NULL, "
                       "request_seconds DOUBLE PRECISION NOT NULL, "
                       "generation_tokens DOUBLE PRECISION NOT NULL, "
                       "generation_seconds DOUBLE PRECISION NOT NULL, "
                       "prompt_tokens DOUBLE PRECISION NOT NULL, "
                       "prompt_seconds DOUBLE PRECISION NOT NULL, "
                       "PRIMARY KEY (import_id, deployment, instance, hour))"),
        QStringLiteral("CREATE TABLE serving_optimization ("
                       "name TEXT PRIMARY KEY, "
                       "applied_on TEXT NOT NULL, "
                       "note TEXT NOT NULL)"),
    };
    for (const QString &sql : statements)
        execStatement(db, sql, path, QStringLiteral("cannot create the serving metrics tables"));
    if (!isServer(db))
        return;
    for (const char *table : {"serving_metrics_import", "serving_metrics_hour", "serving_optimization"})
        execStatement(db, QStringLiteral("CREATE TRIGGER headroom_note_%1 AFTER INSERT OR UPDATE OR DELETE "
                                         "OR TRUNCATE ON %1 FOR EACH STATEMENT "
                                         "EXECUTE FUNCTION headroom_note_change()")
                              .arg(QLatin1String(table)),
                      path, QStringLiteral("cannot create the serving metrics tables"));
}

// Schema 9: what the commitment recommendation and the usage anomalies read from an import —
// per commitment and currency, Σ EffectiveCost and Σ ListCost of its Used rows that state a
// ListCost (the on-demand ÷ committed price), and per currency and day the usage hours (Σ
// ConsumedQuantity of Usage rows in a unit of hours). Imports made before keep '0' and no rate.
void addActualsRatesAndUsageHours(const QSqlDatabase &db, const QString &path)
{
    const QString what = QStringLiteral("cannot extend the actuals tables");
    execStatement(db, QStringLiteral("ALTER TABLE actuals_day ADD COLUMN consumed_hours TEXT NOT NULL DEFAULT '0'"),
                  path, what);
    execStatement(db, QStringLiteral("CREATE TABLE actuals_commitment_rate ("
                                     "import_id BIGINT NOT NULL, "
                                     "commitment_position INTEGER NOT NULL, "
                                     "currency TEXT NOT NULL, "
                                     "used_effective_cost TEXT NOT NULL, "
                                     "used_list_cost TEXT NOT NULL, "
                                     "PRIMARY KEY (import_id, commitment_position, currency), "
                                     "FOREIGN KEY (import_id, commitment_position) "
                                     "REFERENCES actuals_commitment(import_id, position) ON DELETE CASCADE)"),
                  path, what);
    if (isServer(db))
        execStatement(db, QStringLiteral("CREATE TRIGGER headroom_note_actuals_commitment_rate AFTER INSERT OR UPDATE "
                                         "OR DELETE OR TRUNCATE ON actuals_commitment_rate FOR EACH STATEMENT "
                                         "EXECUTE FUNCTION headroom_note_change()"),
                      path, what);
}

struct MigrationStep {
    int version;  // the schema version this step produces
    void (*apply)(const QSqlDatabase &db, const QString &path);
};

// Schema 10: each replica-hour's TTFT and end-to-end latency histograms (the increase of every
// bucket counter in the hour), as text "le=count;…;+Inf=count" (core/store/README.md). Hours
// imported before hold '' (no histogram).
void addServingLatencyHistograms(const QSqlDatabase &db, const QString &path)
{
    const QString what = QStringLiteral("cannot extend the serving metrics table");
    for (const char *column : {"ttft_buckets", "e2e_buckets"})
        execStatement(db, QStringLiteral("ALTER TABLE serving_metrics_hour ADD COLUMN %1 TEXT NOT NULL DEFAULT ''")
                              .arg(QLatin1String(column)),
                      path, what);
}

// Schema 11: the step-cost model's catalog facts — a GPU's measured serving profile (its
// "efficiency" object as compact JSON, '' for none) and a model's vocabulary and tied
// embeddings. Entries under a shipped id get the shipped values; others have none (the
// workspace's efficiencies and the LM head counted per token apply to them).
void addStepCostFacts(const QSqlDatabase &db, const QString &path)
{
    const QString what = QStringLiteral("cannot extend the catalog tables");
    execStatement(db, QStringLiteral("ALTER TABLE gpu ADD COLUMN efficiency TEXT NOT NULL DEFAULT ''"), path, what);
    execStatement(db, QStringLiteral("ALTER TABLE model ADD COLUMN vocab_size BIGINT NOT NULL DEFAULT 0"), path, what);
    execStatement(db, QStringLiteral("ALTER TABLE model ADD COLUMN tied_embeddings INTEGER NOT NULL DEFAULT 0"), path,
                  what);
    // The columns of this step only: later steps add columns this step's file does not have yet.
    for (const engine::GpuSpec &shipped : readCatalogFile(kShippedGpus).gpus) {
        if (!shipped.efficiency)
            continue;
        QSqlQuery query(db);
        query.prepare(QStringLiteral("UPDATE gpu SET efficiency = :efficiency WHERE id = :id"));
        query.bindValue(QStringLiteral(":efficiency"),
                        QString::fromUtf8(QJsonDocument(efficiencyToJson(*shipped.efficiency)).toJson(QJsonDocument::Compact)));
        query.bindValue(QStringLiteral(":id"), QString::fromStdString(shipped.id));
        execPrepared(query, path, what);
    }
    for (const engine::ModelSpec &shipped : readCatalogFile(kShippedModels).models) {
        if (shipped.vocabSize <= 0)
            continue;
        QSqlQuery query(db);
        query.prepare(QStringLiteral("UPDATE model SET vocab_size = :vocab, tied_embeddings = :tied WHERE id = :id"));
        query.bindValue(QStringLiteral(":vocab"), qlonglong(shipped.vocabSize));
        query.bindValue(QStringLiteral(":tied"), shipped.tiedEmbeddings ? 1 : 0);
        query.bindValue(QStringLiteral(":id"), QString::fromStdString(shipped.id));
        execPrepared(query, path, what);
    }
}

// Schema 12: a mixture of experts' routed experts per layer and experts per token, for
// expert parallelism in training. Entries under a shipped id get the shipped counts; others
// have none (0: trained as if dense in memory).
void addExpertCounts(const QSqlDatabase &db, const QString &path)
{
    const QString what = QStringLiteral("cannot extend the model table");
    execStatement(db, QStringLiteral("ALTER TABLE model ADD COLUMN experts INTEGER NOT NULL DEFAULT 0"), path, what);
    execStatement(db, QStringLiteral("ALTER TABLE model ADD COLUMN experts_per_token INTEGER NOT NULL DEFAULT 0"), path,
                  what);
    // The columns of this step only: later steps add model columns this step's file does not
    // have yet. Counts go only where the entry holds fewer active than total parameters, as
    // engine::validate asks of a model with experts.
    for (const engine::ModelSpec &shipped : readCatalogFile(kShippedModels).models) {
        if (shipped.experts <= 0)
            continue;
        QSqlQuery query(db);
        query.prepare(QStringLiteral("UPDATE model SET experts = :experts, experts_per_token = :top_k "
                                     "WHERE id = :id AND params_active > 0 AND params_active < params_total"));
        query.bindValue(QStringLiteral(":experts"), shipped.experts);
        query.bindValue(QStringLiteral(":top_k"), shipped.expertsPerToken);
        query.bindValue(QStringLiteral(":id"), QString::fromStdString(shipped.id));
        execPrepared(query, path, what);
    }
}

// Schema 13: a GPU's profiles calibrated per deployment (model, TP, weights).
void addGpuCalibrations(const QSqlDatabase &db, const QString &path)
{
    execStatement(db, QStringLiteral("ALTER TABLE gpu ADD COLUMN calibrations TEXT NOT NULL DEFAULT ''"), path,
                  QStringLiteral("cannot extend the GPU table"));
}

// Schema 14: the productName a GPU's DRA driver publishes, which DRA claims select on exactly.
// Entries under a shipped id that still describe the shipped GPU (same vendor and memory) get
// the shipped name; others have none (their DRA claims are refused until one is set).
void addDraProductNames(const QSqlDatabase &db, const QString &path)
{
    const QString what = QStringLiteral("cannot extend the GPU table");
    execStatement(db, QStringLiteral("ALTER TABLE gpu ADD COLUMN dra_product_name TEXT NOT NULL DEFAULT ''"), path,
                  what);
    for (const engine::GpuSpec &shipped : readCatalogFile(kShippedGpus).gpus) {
        if (shipped.draProductName.empty())
            continue;
        QSqlQuery query(db);
        query.prepare(QStringLiteral("UPDATE gpu SET dra_product_name = :name "
                                     "WHERE id = :id AND vendor = :vendor AND memory_bytes = :memory"));
        query.bindValue(QStringLiteral(":name"), QString::fromStdString(shipped.draProductName));
        query.bindValue(QStringLiteral(":id"), QString::fromStdString(shipped.id));
        query.bindValue(QStringLiteral(":vendor"), QString::fromStdString(shipped.vendor));
        query.bindValue(QStringLiteral(":memory"), qlonglong(shipped.memoryBytes));
        execPrepared(query, path, what);
    }
}

// Schema 15: where a report item is drawn again from, whether it is pinned, and when its
// snapshot was taken with the workspace's inputs then. Earlier items are snapshots of unknown age.
void addReportItemSources(const QSqlDatabase &db, const QString &path)
{
    const QString what = QStringLiteral("cannot extend the report table");
    for (const char *column : {"source TEXT NOT NULL DEFAULT ''", "pinned INTEGER NOT NULL DEFAULT 0",
                               "taken_at TEXT NOT NULL DEFAULT ''", "inputs_fingerprint TEXT NOT NULL DEFAULT ''"})
        execStatement(db, QStringLiteral("ALTER TABLE report_item ADD COLUMN %1").arg(QLatin1String(column)), path,
                      what);
}

// Schema 16: a model's per-layer kinds (full, sliding, chunked, linear; layer_types.h's text
// form, '' for slidingLayers sliding and the rest full), chunked attention's chunk, sliding
// layers' sink tokens and linear layers' constant state. Existing entries keep '' and zeros:
// their KV is what it was.
void addLayerKinds(const QSqlDatabase &db, const QString &path)
{
    const QString what = QStringLiteral("cannot extend the model table");
    for (const char *column : {"layer_types TEXT NOT NULL DEFAULT ''", "attention_chunk INTEGER NOT NULL DEFAULT 0",
                               "sink_tokens INTEGER NOT NULL DEFAULT 0",
                               "state_bytes_per_layer BIGINT NOT NULL DEFAULT 0"})
        execStatement(db, QStringLiteral("ALTER TABLE model ADD COLUMN %1").arg(QLatin1String(column)), path, what);
}

// Schema 17: a GPU's dense FP4 tensor peak. Entries under a shipped id that still describe the
// shipped GPU (same vendor and memory) get the shipped figure; others have 0 (no FP4 known).
void addFp4Peaks(const QSqlDatabase &db, const QString &path)
{
    const QString what = QStringLiteral("cannot extend the GPU table");
    execStatement(db, QStringLiteral("ALTER TABLE gpu ADD COLUMN fp4_tflops DOUBLE PRECISION NOT NULL DEFAULT 0"),
                  path, what);
    for (const engine::GpuSpec &shipped : readCatalogFile(kShippedGpus).gpus) {
        if (shipped.fp4Tflops <= 0)
            continue;
        QSqlQuery query(db);
        query.prepare(QStringLiteral("UPDATE gpu SET fp4_tflops = :fp4 "
                                     "WHERE id = :id AND vendor = :vendor AND memory_bytes = :memory"));
        query.bindValue(QStringLiteral(":fp4"), shipped.fp4Tflops);
        query.bindValue(QStringLiteral(":id"), QString::fromStdString(shipped.id));
        query.bindValue(QStringLiteral(":vendor"), QString::fromStdString(shipped.vendor));
        query.bindValue(QStringLiteral(":memory"), qlonglong(shipped.memoryBytes));
        execPrepared(query, path, what);
    }
}

// Append-only: never edit a released step, add a new one and raise kSchemaVersion.
const MigrationStep kSteps[] = {
    {1, &createCatalogTables},
    {2, &createCostTables},
    {3, &createWorkloadTable},
    {4, &createPlanningTables},
    {5, &addWorkloadGoodputSource},
    {6, &addChangeTracking},
    {7, &createActualsTables},
    {8, &createServingMetricsTables},
    {9, &addActualsRatesAndUsageHours},
    {10, &addServingLatencyHistograms},
    {11, &addStepCostFacts},
    {12, &addExpertCounts},
    {13, &addGpuCalibrations},
    {14, &addDraProductNames},
    {15, &addReportItemSources},
    {16, &addLayerKinds},
    {17, &addFp4Peaks},
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

// Adds the shipped GPUs and models the file lacks and records when and from what it was
// seeded. A new file gets them all; a file whose creation was cut short by an older build
// (schema steps committed, seeding never run) keeps any entry it has under a shipped id.
void seedFromShippedCatalogs(const QSqlDatabase &db, const QString &path, bool repair)
{
    const Catalog gpus = readCatalogFile(kShippedGpus);
    const Catalog models = readCatalogFile(kShippedModels);
    const CatalogTables tables(db.connectionName(), path);
    for (const auto &gpu : gpus.gpus) {
        if (!repair || !tables.gpu(QString::fromStdString(gpu.id)))
            tables.upsertGpu(gpu);
    }
    for (const auto &model : models.models) {
        if (!repair || !tables.model(QString::fromStdString(model.id)))
            tables.upsertModel(model);
    }
    putInfo(db, path, QStringLiteral("created_at"),
            QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    QString seededFrom =
        QStringLiteral("gpus.json (%1 GPUs), models.json (%2 models), ratecards.csv (%3 "
                       "rate cards)")
            .arg(gpus.gpus.size())
            .arg(models.models.size())
            .arg(RateCardTables(db.connectionName(), path).rateCards().size());
    if (repair)
        seededFrom += QStringLiteral("; added when the file, whose creation had not finished, "
                                     "was opened again");
    putInfo(db, path, QStringLiteral("seeded_from"), seededFrom);
}

void setSchemaVersion(const QSqlDatabase &db, const QString &path, int version)
{
    if (isServer(db)) {
        // A server has no PRAGMA user_version: the version is the one row of headroom_schema,
        // created and written in the migration's transaction.
        execStatement(db, QStringLiteral("CREATE TABLE IF NOT EXISTS headroom_schema ("
                                         "id INTEGER PRIMARY KEY CHECK (id = 1), "
                                         "version INTEGER NOT NULL)"),
                      path, QStringLiteral("cannot create the schema version table"));
        execStatement(db, QStringLiteral("INSERT INTO headroom_schema (id, version) VALUES (1, %1) "
                                         "ON CONFLICT (id) DO UPDATE SET version = excluded.version")
                              .arg(version),
                      path, QStringLiteral("cannot set the schema version"));
        return;
    }
    // PRAGMA takes no bound parameters; the version is a trusted integer.
    execStatement(db, QStringLiteral("PRAGMA user_version = %1").arg(version), path,
                  QStringLiteral("cannot set the schema version"));
}

} // namespace

bool isServer(const QSqlDatabase &db)
{
    return db.driverName() == QLatin1String("QPSQL");
}

namespace {

bool hasServerTable(const QSqlDatabase &db, const QString &path, const QString &table)
{
    QSqlQuery query(db);
    // pg_tables lists every table; information_schema only those the role has a privilege on,
    // so a role without access would take a workspace for an empty database.
    query.prepare(QStringLiteral("SELECT COUNT(*) FROM pg_catalog.pg_tables "
                                 "WHERE schemaname = current_schema() AND tablename = :name"));
    query.bindValue(QStringLiteral(":name"), table);
    execPrepared(query, path, QStringLiteral("cannot list the tables"));
    return query.next() && query.value(0).toInt() > 0;
}

} // namespace

int serverTableCount(const QSqlDatabase &db, const QString &path)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT COUNT(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"));
    execPrepared(query, path, QStringLiteral("cannot list the tables"));
    return query.next() ? query.value(0).toInt() : 0;
}

int readSchemaVersion(const QSqlDatabase &db, const QString &path)
{
    if (isServer(db)) {
        if (!hasServerTable(db, path, QStringLiteral("headroom_schema")))
            return 0;
        QSqlQuery query(db);
        query.prepare(QStringLiteral("SELECT version FROM headroom_schema WHERE id = 1"));
        execPrepared(query, path, QStringLiteral("cannot read the schema version"));
        return query.next() ? query.value(0).toInt() : 0;
    }
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

namespace {

bool isSeeded(const QSqlDatabase &db, const QString &path, int version)
{
    if (version == 0)
        return false;
    // Every release records created_at in the same transaction as the seeding.
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT COUNT(*) FROM workspace_info WHERE key = 'created_at'"))
        || !query.next())
        raiseSqlError(path, QStringLiteral("cannot read the workspace information"),
                      query.lastError());
    return query.value(0).toInt() > 0;
}

} // namespace

bool needsUpgrade(const QSqlDatabase &db, const QString &path, int version)
{
    return version < Workspace::kSchemaVersion || !isSeeded(db, path, version);
}

QString migrationLockStatement()
{
    return QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kMigrationLockKey);
}

void migrateWorkspace(const QSqlDatabase &db, const QString &path)
{
    // One transaction for every step and the seeding: a crash at any point leaves the file
    // as it was. It takes the write lock first, so a second program creating the same file
    // waits and then finds it done.
    SqlTransaction transaction(db, path);
    if (isServer(db)) {
        // PostgreSQL has no database-wide write lock: a transaction-scoped advisory lock makes
        // a second program creating the same workspace wait here, then find it done.
        execStatement(db, migrationLockStatement(), path,
                      QStringLiteral("cannot lock the workspace for its schema upgrade"));
    }
    migrateWorkspaceInTransaction(db, path);
    transaction.commit();
}

void migrateWorkspaceInTransaction(const QSqlDatabase &db, const QString &path)
{
    const int fromVersion = readSchemaVersion(db, path);
    if (fromVersion > Workspace::kSchemaVersion)
        throw StoreError(QStringLiteral("%1 was written by a newer Headroom (schema %2; this "
                                        "version reads up to %3).")
                             .arg(path)
                             .arg(fromVersion)
                             .arg(Workspace::kSchemaVersion));
    if (!needsUpgrade(db, path, fromVersion))
        return;
    for (const MigrationStep &step : kSteps) {
        if (step.version > fromVersion)
            step.apply(db, path);
    }
    if (!isSeeded(db, path, fromVersion))
        seedFromShippedCatalogs(db, path, fromVersion != 0);
    setSchemaVersion(db, path, Workspace::kSchemaVersion);
}

} // namespace headroom::store
