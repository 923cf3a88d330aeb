#pragma once

#include "engine/cost/demand.h"
#include "engine/catalog/ratecard.h"
#include "engine/fleet/scenario.h"
#include "engine/catalog/specs.h"
#include "engine/inference/kv.h"
#include "engine/inference/workload.h"
#include "store/tracking/actualstables.h"
#include "store/tracking/servingmetricstables.h"
#include "store/report/reporttables.h"
#include "store/fleet/scenariotables.h"
#include "store/training/trainingtables.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace headroom::store {

// A password for a team workspace on a server, supplied by the caller (e.g. asked for in a
// prompt); used for the connection and never stored. Empty: libpq reads ~/.pgpass or
// PGPASSWORD.
struct ServerCredentials {
    QString password;
};

// One workspace: a single SQLite file (WAL, foreign keys on, schema version in
// PRAGMA user_version), or a team workspace on a PostgreSQL server named by a URL
// (postgresql://user@host:port/database, see serverurl.h; schema version in the
// headroom_schema table). A new workspace is seeded from the shipped catalogs. Every edit is
// committed at once; change signals tell pages to refresh.
class Workspace : public QObject {
    Q_OBJECT
public:
    static constexpr int kSchemaVersion = 17;

    // Opens (creating, migrating and seeding as needed, all in one transaction, so a crash
    // leaves no half-made file behind; a file an older build left unseeded gets the shipped
    // catalogs it lacks). A file this process cannot write (read-only file or folder) is
    // opened for reading; its edits then throw StoreError. Throws StoreError, e.g. for a
    // file from a newer schema version, which is refused untouched.
    // A server URL connects through Qt's PostgreSQL driver (QPSQL) and creates the schema in
    // the database's current schema when it has no tables yet; a refused connection, a wrong
    // password, a missing driver or a bad URL throw StoreError saying which.
    explicit Workspace(const QString &path, QObject *parent = nullptr);
    Workspace(const QString &serverUrl, const ServerCredentials &credentials,
              QObject *parent = nullptr);
    ~Workspace() override;

    // Opens an existing workspace file for reading only, as the source of a copy (push): the
    // SQLite connection is read-only, so the file is never created, migrated, seeded or
    // written. Throws StoreError naming the file when it is missing, empty, not a Headroom
    // workspace, from a newer schema, or at an older schema or unseeded (it would need an
    // upgrade, which is a write: open it once with this version to upgrade it, then copy it).
    static std::unique_ptr<Workspace> openForReading(const QString &path);

    // Opens `location` to receive a copy. A server database without the Headroom schema is
    // left untouched (isNew() true, schemaVersion() 0, nothing readable) until
    // replaceContents(), which then creates the schema, seeds it and copies into it in one
    // transaction, so a copy cut short leaves no workspace behind. Anything else is opened as
    // by the constructor. `credentials` as the server constructor takes them.
    static std::unique_ptr<Workspace> openCopyTarget(const QString &location, const ServerCredentials &credentials = {});

    // True when `location` holds a workspace: an existing file, or a server database with the
    // Headroom schema (creating nothing). Throws StoreError when the server cannot be reached.
    static bool exists(const QString &location);

    // <user data dir>/workspace.headroom
    static QString defaultPath();

    // The file path, or the server URL (never with a password).
    QString path() const;
    // True for a workspace on a PostgreSQL server.
    bool isServer() const;
    // True when opening created it: a new file, or a server database without the schema.
    bool isNew() const;
    int schemaVersion() const;
    // True when the file or its folder cannot be written: reads work, edits throw StoreError.
    bool isReadOnly() const;
    // A file workspace whose file at path() is no longer the one opened (replaced, moved or
    // deleted by another program): writes are refused; reading goes on from the old file.
    bool fileReplaced() const;

    std::vector<engine::GpuSpec> gpus() const;                  // ordered by id
    std::optional<engine::GpuSpec> gpu(const QString &id) const;
    std::vector<engine::ModelSpec> models() const;
    std::optional<engine::ModelSpec> model(const QString &id) const;

    // Insert or replace by id after engine::validate(); throws StoreError naming the field.
    void putGpu(const engine::GpuSpec &gpu);
    void putModel(const engine::ModelSpec &model);
    // Several at once, all or nothing.
    void putCatalog(const std::vector<engine::GpuSpec> &gpus,
                    const std::vector<engine::ModelSpec> &models);
    bool removeGpu(const QString &id);
    bool removeModel(const QString &id);

    // Rate cards, history kept by effective date; ordered by provider, region, GPU, date.
    std::vector<engine::RateCard> rateCards() const;
    std::optional<engine::RateCard> rateCard(const QString &key) const; // RateCard::key()
    // Insert or replace by key after engine::validate(); throws StoreError naming the field.
    void putRateCard(const engine::RateCard &card);
    void putRateCards(const std::vector<engine::RateCard> &cards); // all or nothing
    bool removeRateCard(const QString &key);

    // Hourly demand series by unique name.
    QStringList demandSeriesNames() const;
    std::optional<engine::DemandSeries> demandSeries(const QString &name) const;
    // Insert or replace by name (values ≥ 0, at least one hour); all or nothing.
    void putDemandSeries(const engine::DemandSeries &series);
    bool removeDemandSeries(const QString &name);

    // Workload profiles by unique name.
    std::vector<engine::WorkloadProfile> workloads() const;
    std::optional<engine::WorkloadProfile> workload(const QString &name) const;
    // Insert or replace by name after engine::validate(); throws StoreError naming the field.
    void putWorkload(const engine::WorkloadProfile &workload);
    bool removeWorkload(const QString &name);

    // Training jobs (engine::TrainingJob, stored as trainingjson documents) by unique name.
    std::vector<engine::TrainingJob> trainingJobs() const; // ordered by name
    std::optional<engine::TrainingJob> trainingJob(const QString &name) const;
    // The job with its version and ISO 8601 UTC creation and change times.
    std::optional<TrainingJobRecord> trainingJobRecord(const QString &name) const;
    // Insert (version 1) or replace by name (version + 1, created_at kept, updated_at now)
    // after engine::validate(); throws StoreError naming the job and field, changing nothing.
    // Unconditional: for imports. Editors use saveTrainingJob.
    void putTrainingJob(const engine::TrainingJob &job);
    // Saves over the version the caller read (`loadedVersion`; 0 = a new job that must not exist
    // yet) and returns the new version; throws ConflictError (storeerror.h) naming who changed
    // it and when if another writer got there first, changing nothing. With `previousName`
    // (the name the caller read it under, when it differs) the job is renamed in the same write:
    // StoreError when the new name is taken.
    int64_t saveTrainingJob(const engine::TrainingJob &job, int64_t loadedVersion, const QString &previousName = {});
    // Removes the job; with `loadedVersion`, only if it is still at that version (else
    // ConflictError as for saveTrainingJob).
    bool removeTrainingJob(const QString &name, std::optional<int64_t> loadedVersion = std::nullopt);

    // The report deck's items in order (positions 0..n-1) and its title page. Every edit is
    // all or nothing; a bad item or position throws StoreError naming it.
    std::vector<ReportItem> reportItems() const;
    int appendReportItem(const ReportItem &item);              // returns its position
    void insertReportItem(int position, const ReportItem &item); // 0..count
    void moveReportItem(int from, int to);
    // Puts `item` in place of the one at `position` (pinning, unpinning); throws StoreError
    // naming a bad item or position.
    void replaceReportItem(int position, const ReportItem &item);
    bool removeReportItem(int position);
    // A digest of everything an analysis reads (catalogs, rate cards, demand, workloads, jobs,
    // scenarios, serving assumptions, actuals and serving metrics), not of the report itself
    // or of versions and edit times: equal digests, equal inputs.
    QString inputsFingerprint() const;
    ReportSettings reportSettings() const;
    void setReportSettings(const ReportSettings &settings);

    // The one set of serving assumptions (servingtables.h) every sizing in the workspace uses:
    // the defaults until set. Setting validates first; throws StoreError naming the field.
    engine::ServingAssumptions servingAssumptions() const;
    void setServingAssumptions(const engine::ServingAssumptions &assumptions);
    // Reads the stored assumptions, applies `change` and stores its result in one write
    // transaction, so a concurrent change of other fields by another program is never lost
    // (an exception from `change` leaves everything as it was). Returns what was stored.
    engine::ServingAssumptions updateServingAssumptions(
        const std::function<engine::ServingAssumptions(const engine::ServingAssumptions &)> &change);
    // Stores only the fields in which `to` differs from `from` (an edit the caller made on a
    // set it read earlier), over the assumptions stored now, in one write transaction.
    engine::ServingAssumptions changeServingAssumptions(const engine::ServingAssumptions &from,
                                                        const engine::ServingAssumptions &to);
    // The KV page's lines; nullopt until first saved. Throws StoreError naming the field.
    std::optional<std::vector<engine::KvVariant>> kvVariants() const;
    void setKvVariants(const std::vector<engine::KvVariant> &variants);

    // Fleet scenarios (engine::Scenario, stored as scenariojson documents) by unique name.
    // Listing reads no bodies. putScenario inserts (version 1) or replaces (version + 1,
    // created_at kept, updated_at now) after engine::validate(); errors throw StoreError
    // naming the scenario and field, and change nothing.
    QStringList scenarioNames() const;
    std::vector<ScenarioSummary> scenarioSummaries() const;
    std::optional<ScenarioSummary> scenarioSummary(const QString &name) const;
    std::optional<engine::Scenario> scenario(const QString &name) const;
    // Unconditional (import): editors use saveScenario.
    void putScenario(const engine::Scenario &scenario);
    // Optimistic save: `UPDATE … WHERE name = ? AND version = loadedVersion` (0 = a new
    // scenario that must not exist yet). Returns the new version; throws ConflictError naming
    // who changed, created or removed it and when if that version is no longer the stored one.
    int64_t saveScenario(const engine::Scenario &scenario, int64_t loadedVersion);
    // Renames (version + 1); throws StoreError when `oldName` is missing or `newName` taken, and
    // ConflictError when `loadedVersion` is given and no longer the stored one.
    void renameScenario(const QString &oldName, const QString &newName,
                        std::optional<int64_t> loadedVersion = std::nullopt);
    // A copy under `newName` (version 1, new timestamps, own history); same errors as renameScenario.
    void duplicateScenario(const QString &name, const QString &newName);
    // Removes the scenario and its history; ConflictError as for renameScenario.
    bool removeScenario(const QString &name, std::optional<int64_t> loadedVersion = std::nullopt);

    // Every kept version of a scenario, newest first (empty when there is no such scenario).
    std::vector<ScenarioVersion> scenarioHistory(const QString &name) const;
    // The scenario as it was at `version` (named by its current name), or nullopt.
    std::optional<engine::Scenario> scenarioAtVersion(const QString &name, int64_t version) const;
    // Saves version `version`'s document again as a new version and returns that; StoreError
    // when the scenario or the version does not exist, ConflictError as for renameScenario.
    int64_t restoreScenario(const QString &name, int64_t version,
                            std::optional<int64_t> loadedVersion = std::nullopt);

    // Who this workspace's writes are recorded as: the database role on a server
    // (current_user), the OS user for a file.
    QString userName() const;

    // Makes change signals follow other programs' edits: on a server through LISTEN/NOTIFY
    // (the schema's triggers announce each changed table), falling back to polling the
    // change counters every `pollMs`; on a file by polling SQLite's data_version. The matching
    // *Changed signals are emitted; this program's own edits are not announced twice over
    // NOTIFY. Needs an event loop in this object's thread.
    void watchForChanges(int pollMs = 1500);
    // "notify", "poll" or "" (not watching).
    QString changeWatchMode() const;

    // A team workspace whose connection was lost (a step threw ConnectionLostError) connects
    // again: reconnect() tries once (throwing StoreError with the reason; a server now at a
    // newer schema is refused as at opening), startReconnecting() keeps trying every
    // `intervalMs` in the event loop. On success every change signal is emitted (pages
    // reload what others changed meanwhile), change watching resumes, and connectionRestored()
    // follows. The password given at opening is kept in memory for this, never written.
    // Does nothing for a workspace file.
    void reconnect();
    void startReconnecting(int intervalMs = 2000);
    // True between startReconnecting() and the connection being back.
    bool isReconnecting() const;
    // One poll: emits the signals of the tables others changed since the last look; true
    // when anything changed.
    bool checkForChanges();

    // Billing actuals: one import per file name, each that file's summary (never its rows).
    std::vector<ActualsImport> actualsImports() const;   // newest first
    std::optional<engine::ActualsSummary> actuals(qint64 importId) const;
    // Stores the summary under the file's name (replacing an import of that name), all or
    // nothing; returns the new import id. Throws StoreError.
    qint64 importActuals(const QString &fileName, const engine::ActualsSummary &summary);
    bool removeActualsImport(qint64 importId);

    // Serving telemetry: one import per file name, each its replica-hours (never the samples).
    std::vector<ServingMetricsImport> servingMetricsImports() const;   // newest first
    // Every import's replica-hours; where two overlap on a replica-hour the newer wins.
    engine::ServingHours servingHours() const;
    // Stores the replica-hours under the file's name (replacing an import of that name), all
    // or nothing; returns the new import id. Throws StoreError naming the file and field.
    qint64 importServingMetrics(const QString &fileName, qint64 rowCount, qint64 ignoredRows,
                                const engine::ServingHours &hours);
    bool removeServingMetricsImport(qint64 importId);
    // Named optimizations of the benchmark history, by day then name.
    std::vector<engine::Optimization> optimizations() const;
    // Throws StoreError when the name is empty, too long or already taken.
    void addOptimization(const engine::Optimization &optimization);
    bool removeOptimization(const QString &name);

    // Writes a consistent copy of this workspace (a file or a server workspace) to `path`,
    // which must not exist yet: the copy is made in a hidden file beside it and renamed into
    // place only when complete (never over a file that appeared meanwhile), so `path` is either
    // absent or the whole copy; the hidden file is removed on failure. Throws StoreError naming
    // the file; this workspace stays open and unchanged.
    void saveCopyAs(const QString &path) const;

    // Replaces everything in this workspace with a copy of `source` (every table, row for row;
    // file ⇄ server), in one transaction: on any failure this workspace is left as it was.
    // Throws StoreError, e.g. when `source` is this workspace or either is read-only.
    void replaceContents(const Workspace &source);

    // Checks what a copy would carry: every text value of a file is well-formed UTF-8, and
    // every stored document (catalog entries, rate cards, demand series, workloads, training
    // jobs, scenarios and their history, report items, serving assumptions, KV lines) reads
    // back as the importers would accept it. Throws StoreError naming the first that is not,
    // where it is (table, row, column or the entry's name) and what is wrong; changes nothing.
    void checkDocuments() const;

signals:
    void gpusChanged();
    void modelsChanged();
    void rateCardsChanged();
    void demandSeriesChanged();
    void workloadsChanged();
    void trainingJobsChanged();
    void reportChanged();
    void scenariosChanged();
    void servingAssumptionsChanged();
    void kvVariantsChanged();
    void actualsChanged();
    // The connection to the team server was lost and is being re-established.
    void connectionLost(const QString &reason);
    void connectionRestored();
    void servingMetricsChanged();   // a metrics import or an optimization changed

private:
    // How openForReading and openCopyTarget differ from the public constructors.
    enum class Opening { ReadOnlySource, CopyTarget };
    Workspace(const QString &location, Opening opening, const ServerCredentials &credentials = {});

    // Checks `item`, then inserts it at `position` or replaces the item there, in one
    // transaction; `action` names the edit when the workspace is read-only.
    void placeReportItem(const QString &action, const ReportItem &item, int position, bool replace);
    // Subscribes to the server's change notifications on the current connection.
    bool subscribeToChanges();
    // Emits the change signals of one table another program changed.
    void announceTableChange(const QString &table);
    // Inserts or conditionally updates one scenario row and keeps the version in the history,
    // inside the caller's transaction; returns the new version.
    int64_t saveScenarioRow(const engine::Scenario &scenario, int64_t loadedVersion);
    int64_t saveTrainingJobRow(const engine::TrainingJob &job, int64_t loadedVersion, const QString &previousName = {});

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace headroom::store
