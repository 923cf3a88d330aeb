#include "workspace.h"

#include "catalogtables.h"
#include "demandtables.h"
#include "migrations.h"
#include "ratecardtables.h"
#include "sqlsupport.h"
#include "storeerror.h"
#include "workloadtables.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QStringList>
#include <atomic>
#include <set>

// Q_INIT_RESOURCE declares a global symbol, so it must be used outside any namespace.
static void initShippedCatalogResources()
{
    Q_INIT_RESOURCE(headroom_catalogs);
}

namespace headroom::store {

namespace {

const QString kSqliteDriver = QStringLiteral("QSQLITE");

void ensureResources()
{
    static const bool initialised = (initShippedCatalogResources(), true);
    Q_UNUSED(initialised);
}

QString nextConnectionName()
{
    static std::atomic<int> counter{0};
    return QStringLiteral("headroom-workspace-%1").arg(++counter);
}

void closeConnection(const QString &connectionName)
{
    {
        QSqlDatabase db = QSqlDatabase::database(connectionName, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(connectionName);
}

void removeFileAndJournals(const QString &path)
{
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"),
                                  QStringLiteral("-journal")})
        QFile::remove(path + suffix);
}

QString describe(const std::vector<engine::FieldProblem> &problems)
{
    QStringList parts;
    for (const auto &problem : problems)
        parts << QStringLiteral("field \"%1\": %2")
                     .arg(QString::fromStdString(problem.field),
                          QString::fromStdString(problem.message));
    return parts.join(QStringLiteral("; "));
}

template <typename Spec>
void requireValid(const Spec &spec, const QString &kind)
{
    const auto problems = engine::validate(spec);
    if (!problems.empty())
        throw StoreError(QStringLiteral("%1 \"%2\": %3")
                             .arg(kind, QString::fromStdString(spec.id), describe(problems)));
}

void requireValidRateCard(const engine::RateCard &card)
{
    const auto problems = engine::validate(card);
    if (!problems.empty())
        throw StoreError(QStringLiteral("Rate card \"%1\": %2")
                             .arg(QString::fromStdString(card.key()), describe(problems)));
}

void requireValidDemand(const engine::DemandSeries &series)
{
    const QString name = QString::fromStdString(series.name);
    if (series.name.empty())
        throw StoreError(QStringLiteral("Demand series: field \"name\": must not be empty"));
    if (series.gpus.empty())
        throw StoreError(QStringLiteral("Demand series \"%1\": field \"gpus\": needs at least one "
                                        "hour")
                             .arg(name));
    for (size_t hour = 0; hour < series.gpus.size(); ++hour) {
        if (series.gpus[hour].isNegative())
            throw StoreError(QStringLiteral("Demand series \"%1\": field \"gpus\": hour %2 must "
                                            "be ≥ 0 (got %3)")
                                 .arg(name)
                                 .arg(hour)
                                 .arg(QString::fromStdString(series.gpus[hour].toString())));
    }
}

void requireValidWorkload(const engine::WorkloadProfile &workload)
{
    if (workload.name.empty())
        throw StoreError(QStringLiteral("Workload: field \"name\": must not be empty"));
    const auto problems = engine::validate(workload);
    if (!problems.empty())
        throw StoreError(QStringLiteral("Workload \"%1\": %2")
                             .arg(QString::fromStdString(workload.name), describe(problems)));
}

template <typename Spec>
void requireUniqueIds(const std::vector<Spec> &specs, const QString &kind)
{
    std::set<std::string> seen;
    for (const auto &spec : specs) {
        if (!seen.insert(spec.id).second)
            throw StoreError(QStringLiteral("%1 \"%2\" appears more than once")
                                 .arg(kind, QString::fromStdString(spec.id)));
    }
}

} // namespace

struct Workspace::Private {
    QString path;
    QString connectionName;
    int version = 0;

    CatalogTables tables() const { return CatalogTables(connectionName, path); }
    RateCardTables rateCardTables() const { return RateCardTables(connectionName, path); }
    DemandTables demandTables() const { return DemandTables(connectionName, path); }
    WorkloadTables workloadTables() const { return WorkloadTables(connectionName, path); }
    QSqlDatabase database() const { return QSqlDatabase::database(connectionName, false); }
    void open();
};

void Workspace::Private::open()
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        throw StoreError(QStringLiteral("Cannot create the folder %1 for workspace %2")
                             .arg(info.absolutePath(), path));
    if (!QSqlDatabase::isDriverAvailable(kSqliteDriver))
        throw StoreError(QStringLiteral("Cannot open workspace %1: the Qt SQLite driver "
                                        "(QSQLITE) is not installed")
                             .arg(path));

    QSqlDatabase db = QSqlDatabase::addDatabase(kSqliteDriver, connectionName);
    db.setDatabaseName(path);
    if (!db.open())
        throw StoreError(
            QStringLiteral("Cannot open workspace %1: %2").arg(path, db.lastError().text()));

    // Read before anything can write: a refused file must stay byte for byte as it was.
    const int fileVersion = readSchemaVersion(db, path);
    if (fileVersion > kSchemaVersion)
        throw StoreError(QStringLiteral("%1 was written by a newer Headroom (schema %2; this "
                                        "version reads up to %3). Open it with a newer "
                                        "version, or choose another workspace.")
                             .arg(path)
                             .arg(fileVersion)
                             .arg(kSchemaVersion));
    if (fileVersion == 0 && !db.tables().isEmpty())
        throw StoreError(QStringLiteral("%1 is not a Headroom workspace: it is an SQLite "
                                        "database holding other tables.")
                             .arg(path));

    execStatement(db, QStringLiteral("PRAGMA foreign_keys = ON"), path,
                  QStringLiteral("cannot enable foreign keys"));
    execStatement(db, QStringLiteral("PRAGMA journal_mode = WAL"), path,
                  QStringLiteral("cannot switch to write-ahead logging"));
    migrateWorkspace(db, path, fileVersion);
    version = readSchemaVersion(db, path);
}

Workspace::Workspace(const QString &path, QObject *parent)
    : QObject(parent), d(std::make_unique<Private>())
{
    ensureResources();
    if (path.isEmpty())
        throw StoreError(QStringLiteral("No workspace file given"));
    d->path = path;
    d->connectionName = nextConnectionName();
    const bool existed = QFileInfo::exists(path);
    try {
        d->open();
    } catch (...) {
        closeConnection(d->connectionName);
        if (!existed)
            removeFileAndJournals(path);
        throw;
    }
}

Workspace::~Workspace()
{
    closeConnection(d->connectionName);
}

QString Workspace::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
        + QStringLiteral("/workspace.headroom");
}

QString Workspace::path() const
{
    return d->path;
}

int Workspace::schemaVersion() const
{
    return d->version;
}

std::vector<engine::GpuSpec> Workspace::gpus() const
{
    return d->tables().gpus();
}

std::optional<engine::GpuSpec> Workspace::gpu(const QString &id) const
{
    return d->tables().gpu(id);
}

std::vector<engine::ModelSpec> Workspace::models() const
{
    return d->tables().models();
}

std::optional<engine::ModelSpec> Workspace::model(const QString &id) const
{
    return d->tables().model(id);
}

void Workspace::putGpu(const engine::GpuSpec &gpu)
{
    requireValid(gpu, QStringLiteral("GPU"));
    d->tables().upsertGpu(gpu);
    emit gpusChanged();
}

void Workspace::putModel(const engine::ModelSpec &model)
{
    requireValid(model, QStringLiteral("Model"));
    d->tables().upsertModel(model);
    emit modelsChanged();
}

void Workspace::putCatalog(const std::vector<engine::GpuSpec> &gpus,
                           const std::vector<engine::ModelSpec> &models)
{
    requireUniqueIds(gpus, QStringLiteral("GPU"));
    requireUniqueIds(models, QStringLiteral("Model"));
    for (const auto &gpu : gpus)
        requireValid(gpu, QStringLiteral("GPU"));
    for (const auto &model : models)
        requireValid(model, QStringLiteral("Model"));
    if (gpus.empty() && models.empty())
        return;

    {
        SqlTransaction transaction(d->database(), d->path);
        const CatalogTables tables = d->tables();
        for (const auto &gpu : gpus)
            tables.upsertGpu(gpu);
        for (const auto &model : models)
            tables.upsertModel(model);
        transaction.commit();
    }
    if (!gpus.empty())
        emit gpusChanged();
    if (!models.empty())
        emit modelsChanged();
}

bool Workspace::removeGpu(const QString &id)
{
    const bool removed = d->tables().deleteGpu(id);
    if (removed)
        emit gpusChanged();
    return removed;
}

bool Workspace::removeModel(const QString &id)
{
    const bool removed = d->tables().deleteModel(id);
    if (removed)
        emit modelsChanged();
    return removed;
}

std::vector<engine::RateCard> Workspace::rateCards() const
{
    return d->rateCardTables().rateCards();
}

std::optional<engine::RateCard> Workspace::rateCard(const QString &key) const
{
    return d->rateCardTables().rateCard(key);
}

void Workspace::putRateCard(const engine::RateCard &card)
{
    putRateCards({card});
}

void Workspace::putRateCards(const std::vector<engine::RateCard> &cards)
{
    std::set<std::string> seen;
    for (const auto &card : cards) {
        requireValidRateCard(card);
        if (!seen.insert(card.key()).second)
            throw StoreError(QStringLiteral("Rate card \"%1\" appears more than once")
                                 .arg(QString::fromStdString(card.key())));
    }
    if (cards.empty())
        return;

    {
        SqlTransaction transaction(d->database(), d->path);
        const RateCardTables tables = d->rateCardTables();
        for (const auto &card : cards)
            tables.upsertRateCard(card);
        transaction.commit();
    }
    emit rateCardsChanged();
}

bool Workspace::removeRateCard(const QString &key)
{
    const bool removed = d->rateCardTables().deleteRateCard(key);
    if (removed)
        emit rateCardsChanged();
    return removed;
}

QStringList Workspace::demandSeriesNames() const
{
    return d->demandTables().names();
}

std::optional<engine::DemandSeries> Workspace::demandSeries(const QString &name) const
{
    return d->demandTables().series(name);
}

void Workspace::putDemandSeries(const engine::DemandSeries &series)
{
    requireValidDemand(series);
    {
        SqlTransaction transaction(d->database(), d->path);
        d->demandTables().replaceSeries(series);
        transaction.commit();
    }
    emit demandSeriesChanged();
}

bool Workspace::removeDemandSeries(const QString &name)
{
    const bool removed = d->demandTables().deleteSeries(name);
    if (removed)
        emit demandSeriesChanged();
    return removed;
}

std::vector<engine::WorkloadProfile> Workspace::workloads() const
{
    return d->workloadTables().workloads();
}

std::optional<engine::WorkloadProfile> Workspace::workload(const QString &name) const
{
    return d->workloadTables().workload(name);
}

void Workspace::putWorkload(const engine::WorkloadProfile &workload)
{
    requireValidWorkload(workload);
    d->workloadTables().upsertWorkload(workload);
    emit workloadsChanged();
}

bool Workspace::removeWorkload(const QString &name)
{
    const bool removed = d->workloadTables().deleteWorkload(name);
    if (removed)
        emit workloadsChanged();
    return removed;
}

void Workspace::saveCopyAs(const QString &path) const
{
    const QFileInfo target(path);
    if (path.isEmpty())
        throw StoreError(QStringLiteral("No file given for the copy of workspace %1").arg(d->path));
    if (target.exists())
        throw StoreError(
            QStringLiteral("Cannot save a copy as %1: the file already exists").arg(path));
    if (!QDir().mkpath(target.absolutePath()))
        throw StoreError(QStringLiteral("Cannot save a copy as %1: cannot create the folder %2")
                             .arg(path, target.absolutePath()));

    // VACUUM INTO (SQLite 3.27+) writes a consistent, compacted snapshot in one statement.
    QSqlQuery query(d->database());
    query.prepare(QStringLiteral("VACUUM INTO :target"));
    query.bindValue(QStringLiteral(":target"), target.absoluteFilePath());
    if (!query.exec()) {
        const QString reason = query.lastError().text();
        QFile::remove(target.absoluteFilePath());
        throw StoreError(QStringLiteral("Cannot save a copy as %1: %2").arg(path, reason));
    }
}

} // namespace headroom::store
