#include "workspace.h"

#include "store/tracking/actualstables.h"
#include "store/catalog/catalogtables.h"
#include "engine/common/errors.h"
#include "store/cost/demandtables.h"
#include "migrations.h"
#include "store/catalog/ratecardtables.h"
#include "store/report/reporttables.h"
#include "store/inference/servingtables.h"
#include "store/fleet/scenariojson.h"
#include "store/fleet/scenariotables.h"
#include "serverurl.h"
#include "sqlsupport.h"
#include "storeerror.h"
#include "store/training/trainingtables.h"
#include "store/inference/workloadtables.h"
#include "workspacecopy.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <sys/stat.h>
#include <QStringList>
#include <QThread>
#include <QTimer>
#include <QSqlDriver>
#include <QUrl>
#include <QUuid>
#include <atomic>
#include <map>
#ifdef Q_OS_UNIX
#include <pwd.h>
#include <unistd.h>
#endif
#include <set>

// Q_INIT_RESOURCE declares a global symbol, so it must be used outside any namespace.
static void initShippedCatalogResources()
{
    Q_INIT_RESOURCE(headroom_catalogs);
}

namespace headroom::store {

namespace {

const QString kSqliteDriver = QStringLiteral("QSQLITE");
const QString kServerDriver = QStringLiteral("QPSQL");

// A plain reason for a failed connection to a server, from libpq's message.
QString connectionProblem(const ServerLocation &server, const QString &driverText)
{
    const QString text = driverText.toLower();
    const QString user = server.user.isEmpty() ? QStringLiteral("the default user") : server.user;
    if (text.contains(QLatin1String("password authentication failed")))
        return QStringLiteral("the server refused the password for %1 (check ~/.pgpass or "
                              "PGPASSWORD)")
            .arg(user);
    if (text.contains(QLatin1String("no password supplied")))
        return QStringLiteral("the server asks for a password for %1: put it in ~/.pgpass or "
                              "PGPASSWORD")
            .arg(user);
    if (text.contains(QLatin1String("connection refused")))
        return QStringLiteral("no server is listening at %1 port %2 (is PostgreSQL running, "
                              "and on that port?)")
            .arg(server.host)
            .arg(server.port);
    if (text.contains(QLatin1String("could not translate host name")))
        return QStringLiteral("the host name %1 is unknown").arg(server.host);
    if (text.contains(QLatin1String("database")) && text.contains(QLatin1String("does not exist")))
        return QStringLiteral("the database %1 does not exist on the server (create it first, "
                              "e.g. createdb %1)")
            .arg(server.database);
    if (text.contains(QLatin1String("role")) && text.contains(QLatin1String("does not exist")))
        return QStringLiteral("the server has no role %1").arg(user);
    if (text.contains(QLatin1String("timeout")))
        return QStringLiteral("the server at %1 port %2 did not answer in time")
            .arg(server.host)
            .arg(server.port);
    return {};
}

void ensureResources()
{
    static const bool initialised = (initShippedCatalogResources(), true);
    Q_UNUSED(initialised);
}

// Who edits a workspace file: the OS account.
QString osUserName()
{
    for (const char *variable : {"USER", "LOGNAME", "USERNAME"}) {
        const QString name = qEnvironmentVariable(variable);
        if (!name.isEmpty())
            return name;
    }
#ifdef Q_OS_UNIX
    // Services and containers often run without USER set: ask the password database.
    if (const passwd *account = ::getpwuid(::geteuid()); account && account->pw_name)
        return QString::fromLocal8Bit(account->pw_name);
#endif
    return QStringLiteral("unknown");
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

void requireValidTrainingJob(const engine::TrainingJob &job)
{
    if (job.name.empty())
        throw StoreError(QStringLiteral("Training job: field \"name\": must not be empty"));
    const auto problems = engine::validate(job);
    if (!problems.empty())
        throw StoreError(QStringLiteral("Training job \"%1\": %2")
                             .arg(QString::fromStdString(job.name), describe(problems)));
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
    bool readOnly = false;
    bool server = false;
    bool created = false;
    bool sourceOnly = false;     // opened by openForReading: read-only connection, never migrated
    bool deferCreation = false;  // opened by openCopyTarget: a server without the schema stays so
    QString author;              // recorded as updated_by / changed_by of every write
    QString watchMode;           // "notify", "poll" or ""
    QTimer *pollTimer = nullptr; // owned by the Workspace
    qint64 dataVersion = -1;     // SQLite: PRAGMA data_version at the last look
    std::map<QString, qint64> changeCounters; // server: headroom_changes at the last look
    bool countersRead = false;                // whether there was a last look
    ServerLocation location;                  // server: where it is, for reconnecting
    ServerCredentials credentials;            // server: the password given at opening, if any
    QTimer *reconnectTimer = nullptr;         // running while the connection is being retried
    // SQLite: the file opened (device and inode), so that a write never goes into a file that
    // was replaced, moved or deleted since: the connection would write the old inode unseen.
    std::optional<std::pair<quint64, quint64>> fileIdentity;

    CatalogTables tables() const { return CatalogTables(connectionName, path); }
    RateCardTables rateCardTables() const { return RateCardTables(connectionName, path); }
    DemandTables demandTables() const { return DemandTables(connectionName, path); }
    WorkloadTables workloadTables() const { return WorkloadTables(connectionName, path); }
    TrainingTables trainingTables() const { return TrainingTables(connectionName, path); }
    ReportTables reportTables() const { return ReportTables(connectionName, path); }
    ServingTables servingTables() const { return ServingTables(connectionName, path); }
    ScenarioTables scenarioTables() const { return ScenarioTables(connectionName, path); }
    ActualsTables actualsTables() const { return ActualsTables(connectionName, path); }
    ServingMetricsTables servingMetricsTables() const { return ServingMetricsTables(connectionName, path); }
    QSqlDatabase database() const { return QSqlDatabase::database(connectionName, false); }
    void open();
    // Parses the URL, connects and opens (creating and seeding as needed) a server workspace.
    void connectServer(const QString &url, const ServerCredentials &credentials);
    void openServer(const ServerLocation &location, const ServerCredentials &credentials);
    int openReadOnly();
    // Throws StoreError naming the file when it was opened read-only.
    void requireWritable(const QString &what) const;
    // Throws StoreError when the file at `path` is no longer the one opened.
    void requireSameFile() const;
    // A write transaction on the workspace, after requireSameFile().
    SqlTransaction writeTransaction() const
    {
        requireSameFile();
        return SqlTransaction(database(), path);
    }
};

namespace {

// True when this process can change the file in place: SQLite must write the file itself
// and create its -wal and -shm files beside it.
bool canWrite(const QString &path)
{
    const QFileInfo file(path);
    return file.isWritable() && QFileInfo(file.absolutePath()).isWritable();
}

bool hasPendingLog(const QString &path)
{
    const QFileInfo log(path + QStringLiteral("-wal"));
    return log.exists() && log.size() > 0;
}

} // namespace

void Workspace::Private::requireWritable(const QString &what) const
{
    if (readOnly)
        throw StoreError(QStringLiteral("Cannot %1: workspace %2 is read-only (the file or its "
                                        "folder cannot be written). Make it writable, or save "
                                        "a copy elsewhere and work on that.")
                             .arg(what, path));
    requireSameFile();
}

static std::optional<std::pair<quint64, quint64>> identityOf(const QString &path)
{
    struct stat status {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return std::nullopt;
    return std::make_pair(quint64(status.st_dev), quint64(status.st_ino));
}

void Workspace::Private::requireSameFile() const
{
    if (server || !fileIdentity)
        return;
    const auto now = identityOf(path);
    if (now == fileIdentity)
        return;
    throw StoreError(QStringLiteral("Workspace %1 was %2 after it was opened, so nothing was written (it would "
                                    "have gone into the old file). Reopen the workspace to see the file now "
                                    "there, or save this one elsewhere.")
                         .arg(path, now ? QStringLiteral("replaced by another file") : QStringLiteral("moved or deleted")));
}

// Opens a file this process may not write, for reading only. A file in a read-only folder
// cannot get the -shm file SQLite's write-ahead log needs, so when there is no pending log it
// is read as an immutable snapshot. Returns the schema version.
int Workspace::Private::openReadOnly()
{
    readOnly = true;
    const QString options = QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=%1")
                                .arg(kBusyTimeoutMs);
    QString failure;
    QString refusal;  // a StoreError's own message (e.g. "not an SQLite database")
    for (const bool immutable : {false, true}) {
        if (immutable && hasPendingLog(path))
            break;  // a snapshot would miss the changes still in the log
        {
            QSqlDatabase db = QSqlDatabase::database(connectionName, false);
            db.close();
            if (immutable) {
                db.setConnectOptions(options + QStringLiteral(";QSQLITE_OPEN_URI"));
                db.setDatabaseName(QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath())
                                       .toString(QUrl::FullyEncoded)
                                   + QStringLiteral("?immutable=1"));
            } else {
                db.setConnectOptions(options);
                db.setDatabaseName(path);
            }
            if (!db.open()) {
                failure = db.lastError().text();
                continue;
            }
            try {
                return readSchemaVersion(db, path);
            } catch (const StoreError &error) {
                failure = error.message();
                refusal = error.message();
            }
        }
    }
    if (sourceOnly)
        throw StoreError(!refusal.isEmpty() ? refusal
                                            : QStringLiteral("Cannot read workspace %1: %2").arg(path, failure));
    throw StoreError(QStringLiteral("Cannot read workspace %1: it is read-only and SQLite "
                                    "cannot open it for reading (%2). Make the file and its "
                                    "folder writable and try again.")
                         .arg(path, failure));
}

void Workspace::Private::open()
{
    const QFileInfo info(path);
    const bool existed = info.exists();
    if (!existed && !QDir().mkpath(info.absolutePath()))
        throw StoreError(QStringLiteral("Cannot create the folder %1 for workspace %2")
                             .arg(info.absolutePath(), path));
    if (existed && !info.isFile())
        throw StoreError(QStringLiteral("Cannot open workspace %1: it is not a file").arg(path));
    if (!QSqlDatabase::isDriverAvailable(kSqliteDriver))
        throw StoreError(QStringLiteral("Cannot open workspace %1: the Qt SQLite driver "
                                        "(QSQLITE) is not installed")
                             .arg(path));

    QSqlDatabase db = QSqlDatabase::addDatabase(kSqliteDriver, connectionName);
    int fileVersion = 0;
    if (existed && (sourceOnly || !canWrite(path))) {
        fileVersion = openReadOnly();
    } else {
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(kBusyTimeoutMs));
        db.setDatabaseName(path);
        if (!db.open())
            throw StoreError(
                QStringLiteral("Cannot open workspace %1: %2").arg(path, db.lastError().text()));
        // Read before anything can write: a refused file must stay byte for byte as it was.
        fileVersion = readSchemaVersion(db, path);
    }

    // Tables under schema 0: another program may have created the workspace since the version
    // was read (creation commits its tables and version at once), so read it again.
    if (fileVersion == 0 && !db.tables().isEmpty() && !readOnly)
        fileVersion = readSchemaVersion(db, path);
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
    if (sourceOnly && fileVersion == 0)
        throw StoreError(QStringLiteral("%1 is not a Headroom workspace: %2.")
                             .arg(path, info.size() == 0 ? QStringLiteral("the file is empty (0 bytes)")
                                                         : QStringLiteral("it is an SQLite database without tables")));

    execStatement(db, QStringLiteral("PRAGMA foreign_keys = ON"), path,
                  QStringLiteral("cannot enable foreign keys"));
    if (sourceOnly && needsUpgrade(db, path, fileVersion))
        throw StoreError(
            fileVersion < kSchemaVersion
                ? QStringLiteral("Cannot copy workspace %1: it is at schema %2 and this version copies "
                                 "schema %3. A copy never writes its source, so it is not upgraded "
                                 "here: open it once with this version of Headroom (which upgrades "
                                 "it), then copy it again.")
                      .arg(path)
                      .arg(fileVersion)
                      .arg(kSchemaVersion)
                : QStringLiteral("Cannot copy workspace %1: its creation never finished (the shipped "
                                 "catalogs were not added). Open it once with this version of "
                                 "Headroom (which completes it), then copy it again.")
                      .arg(path));
    if (readOnly) {
        if (needsUpgrade(db, path, fileVersion))
            throw StoreError(
                fileVersion < kSchemaVersion
                    ? QStringLiteral("Cannot open workspace %1: it is read-only and needs an "
                                     "upgrade from schema %2 to %3 first. Make the file and its "
                                     "folder writable and open it again.")
                          .arg(path)
                          .arg(fileVersion)
                          .arg(kSchemaVersion)
                    : QStringLiteral("Cannot open workspace %1: its creation never finished "
                                     "(the shipped catalogs were not added), and it is read-only "
                                     "so they cannot be added now. Make the file and its folder "
                                     "writable and open it again.")
                          .arg(path));
        version = fileVersion;
        return;
    }
    // SQLite answers a journal-mode switch that races another connection's with "locked" at
    // once, without its busy handler: wait for the other program as an edit would.
    QElapsedTimer waited;
    waited.start();
    for (QSqlQuery wal(db); !wal.exec(QStringLiteral("PRAGMA journal_mode = WAL"));) {
        const QString code = wal.lastError().nativeErrorCode();
        const bool busy = code == QLatin1String("5") || code == QLatin1String("6");
        if (!busy || waited.elapsed() >= kBusyTimeoutMs) {
            execStatement(db, QStringLiteral("PRAGMA journal_mode = WAL"), path,
                          QStringLiteral("cannot switch to write-ahead logging"));
            break;
        }
        QThread::msleep(5);
    }
    if (needsUpgrade(db, path, fileVersion))
        migrateWorkspace(db, path);
    version = readSchemaVersion(db, path);
    fileIdentity = identityOf(path);
}

namespace {

// Connects to the server under `connectionName`; throws StoreError with a plain reason.
QSqlDatabase openServerDatabase(const ServerLocation &location, const ServerCredentials &credentials,
                                const QString &connectionName)
{
    const QString path = location.url();
    if (!QSqlDatabase::isDriverAvailable(kServerDriver))
        throw StoreError(QStringLiteral("Cannot open team workspace %1: the Qt PostgreSQL driver "
                                        "(QPSQL) is not installed (Debian: libqt6sql6-psql)")
                             .arg(path));
    QSqlDatabase db = QSqlDatabase::addDatabase(kServerDriver, connectionName);
    db.setHostName(location.host);
    db.setPort(location.port);
    db.setDatabaseName(location.database);
    if (!location.user.isEmpty())
        db.setUserName(location.user);
    if (!credentials.password.isEmpty())
        db.setPassword(credentials.password);
    QString options = location.connectOptions();
    bool hasTimeout = false;
    for (const auto &option : location.options)
        hasTimeout = hasTimeout || option.first == QLatin1String("connect_timeout");
    if (!hasTimeout)
        options += (options.isEmpty() ? QString() : QStringLiteral(";"))
                   + QStringLiteral("connect_timeout='10'");
    db.setConnectOptions(options);
    if (!db.open()) {
        const QString detail = db.lastError().text().trimmed();
        const QString problem = connectionProblem(location, detail);
        throw StoreError(problem.isEmpty()
                             ? QStringLiteral("Cannot connect to team workspace %1: %2").arg(path, detail)
                             : QStringLiteral("Cannot connect to team workspace %1: %2 (%3)")
                                   .arg(path, problem, detail));
    }
    return db;
}

} // namespace

// A role without the privileges a workspace needs is told so in those words, before any
// statement fails on a table it cannot see or create.
namespace {

void checkServerAccess(const QSqlDatabase &db, const QString &path)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral(
            "SELECT current_user, current_database(), "
            "EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() "
            "AND tablename = 'headroom_schema'), "
            "has_schema_privilege(current_schema(), 'CREATE'), "
            "(SELECT bool_and(has_table_privilege(c.oid, 'SELECT')) FROM pg_catalog.pg_class c "
            "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r')"))
        || !query.next())
        raiseSqlError(path, QStringLiteral("cannot read the role's privileges"), query.lastError());
    const QString role = query.value(0).toString();
    const QString database = query.value(1).toString();
    const bool workspace = query.value(2).toBool();
    const bool mayCreate = query.value(3).toBool();
    const bool mayRead = query.value(4).isNull() || query.value(4).toBool();
    if (workspace && !mayRead)
        throw StoreError(QStringLiteral("No access to team workspace %1: the role %2 may not read its tables. "
                                        "Ask the owner of database %3 to grant the role access to them.")
                             .arg(path, role, database));
    if (!workspace && !mayCreate)
        throw StoreError(QStringLiteral("No access to team workspace %1: database %3 holds no workspace, and "
                                        "the role %2 may not create one there (no CREATE privilege on its "
                                        "schema). Use a database the role owns, or ask the database's owner "
                                        "to create the workspace or grant the privilege.")
                             .arg(path, role, database));
}

} // namespace

void Workspace::Private::openServer(const ServerLocation &location,
                                    const ServerCredentials &credentials)
{
    QSqlDatabase db = openServerDatabase(location, credentials, connectionName);
    // UTC timestamps and exact text whatever the server's defaults.
    execStatement(db, QStringLiteral("SET TIME ZONE 'UTC'"), path,
                  QStringLiteral("cannot set the session time zone"));
    // No statement waits on a lock longer than a write transaction would (the busy message
    // names the wait), nor runs without end.
    execStatement(db, QStringLiteral("SET lock_timeout = %1").arg(kBusyTimeoutMs), path,
                  QStringLiteral("cannot set the lock timeout"));
    execStatement(db, QStringLiteral("SET statement_timeout = %1").arg(kServerStatementTimeoutMs), path,
                  QStringLiteral("cannot set the statement timeout"));
    checkServerAccess(db, path);
    const int serverVersion = readSchemaVersion(db, path);
    if (serverVersion > kSchemaVersion)
        throw StoreError(QStringLiteral("%1 was written by a newer Headroom (schema %2; this "
                                        "version reads up to %3). Open it with a newer "
                                        "version, or choose another workspace.")
                             .arg(path)
                             .arg(serverVersion)
                             .arg(kSchemaVersion));
    if (serverVersion == 0 && serverTableCount(db, path) > 0)
        throw StoreError(QStringLiteral("%1 is not a Headroom workspace: the database holds "
                                        "other tables. Use an empty database.")
                             .arg(path));
    created = serverVersion == 0;
    if (created && deferCreation) {
        version = 0;  // replaceContents creates the schema together with the copy
    } else {
        if (needsUpgrade(db, path, serverVersion))
            migrateWorkspace(db, path);
        version = readSchemaVersion(db, path);
    }
    QSqlQuery role(db);
    if (!role.exec(QStringLiteral("SELECT current_user")) || !role.next())
        raiseSqlError(path, QStringLiteral("cannot read the database role"), role.lastError());
    author = role.value(0).toString();
}

void Workspace::Private::connectServer(const QString &url, const ServerCredentials &credentials)
{
    ensureResources();
    const ServerLocation location = parseServerUrl(url);
    path = location.url();
    server = true;
    this->location = location;
    this->credentials = credentials;
    connectionName = nextConnectionName();
    try {
        openServer(location, credentials);
    } catch (...) {
        closeConnection(connectionName);
        throw;
    }
}

Workspace::Workspace(const QString &serverUrl, const ServerCredentials &credentials,
                     QObject *parent)
    : QObject(parent), d(std::make_unique<Private>())
{
    d->connectServer(serverUrl, credentials);
}

Workspace::Workspace(const QString &path, QObject *parent)
    : QObject(parent), d(std::make_unique<Private>())
{
    if (isServerUrl(path)) {
        d->connectServer(path, ServerCredentials{});
        return;
    }
    ensureResources();
    if (path.isEmpty())
        throw StoreError(QStringLiteral("No workspace file given"));
    d->path = path;
    d->connectionName = nextConnectionName();
    d->author = osUserName();
    const bool existed = QFileInfo::exists(path);
    d->created = !existed;
    try {
        d->open();
    } catch (...) {
        closeConnection(d->connectionName);
        if (!existed)
            removeFileAndJournals(path);
        throw;
    }
}

Workspace::Workspace(const QString &location, Opening opening, const ServerCredentials &credentials)
    : QObject(nullptr), d(std::make_unique<Private>())
{
    if (opening == Opening::CopyTarget) {
        d->deferCreation = true;
        d->connectServer(location, credentials);
        return;
    }
    ensureResources();
    d->path = location;
    d->connectionName = nextConnectionName();
    d->author = osUserName();
    d->sourceOnly = true;
    try {
        d->open();
    } catch (...) {
        closeConnection(d->connectionName);
        throw;
    }
}

std::unique_ptr<Workspace> Workspace::openForReading(const QString &path)
{
    if (isServerUrl(path))
        return std::make_unique<Workspace>(path);
    if (path.isEmpty())
        throw StoreError(QStringLiteral("No workspace file given"));
    const QFileInfo info(path);
    if (!info.exists())
        throw StoreError(QStringLiteral("Workspace %1 does not exist").arg(path));
    if (!info.isFile())
        throw StoreError(QStringLiteral("Cannot read workspace %1: it is not a file").arg(path));
    return std::unique_ptr<Workspace>(new Workspace(path, Opening::ReadOnlySource));
}

std::unique_ptr<Workspace> Workspace::openCopyTarget(const QString &location, const ServerCredentials &credentials)
{
    if (!isServerUrl(location))
        return std::make_unique<Workspace>(location);
    return std::unique_ptr<Workspace>(new Workspace(location, Opening::CopyTarget, credentials));
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

bool Workspace::isServer() const
{
    return d->server;
}

bool Workspace::isNew() const
{
    return d->created;
}

void Workspace::replaceContents(const Workspace &source)
{
    d->requireWritable(QStringLiteral("copy workspace %1 into it").arg(source.path()));
    if (source.d->connectionName == d->connectionName || source.path() == d->path)
        throw StoreError(QStringLiteral("Cannot copy workspace %1 onto itself").arg(d->path));
    // A server opened by openCopyTarget without the schema gets it in the copy's transaction.
    const bool creating = d->server && d->version == 0;
    const int targetVersion = creating ? kSchemaVersion : d->version;
    if (source.schemaVersion() != targetVersion)
        throw StoreError(QStringLiteral("Cannot copy workspace %1 (schema %2) into %3 (schema %4)")
                             .arg(source.path())
                             .arg(source.schemaVersion())
                             .arg(d->path)
                             .arg(targetVersion));
    std::function<void()> prepareTarget;
    if (creating) {
        prepareTarget = [this, &source] {
            const QSqlDatabase db = d->database();
            execStatement(db, migrationLockStatement(), d->path,
                          QStringLiteral("cannot lock the workspace for its creation"));
            if (readSchemaVersion(db, d->path) != 0)
                throw StoreError(QStringLiteral("Cannot copy workspace %1 into %2: another program "
                                                "created a workspace there meanwhile; nothing was changed")
                                     .arg(source.path(), d->path));
            migrateWorkspaceInTransaction(db, d->path);
        };
    }
    copyWorkspaceTables(source.d->database(), source.d->path, d->database(), d->path, prepareTarget);
    if (creating)
        d->version = readSchemaVersion(d->database(), d->path);
    emit gpusChanged();
    emit modelsChanged();
    emit rateCardsChanged();
    emit demandSeriesChanged();
    emit workloadsChanged();
    emit trainingJobsChanged();
    emit reportChanged();
    emit scenariosChanged();
    emit servingAssumptionsChanged();
    emit kvVariantsChanged();
    emit servingMetricsChanged();
}

void Workspace::checkDocuments() const
{
    checkWorkspaceText(d->database(), d->path);
    // Each reader parses its documents and throws StoreError naming the workspace and entry.
    gpus();
    models();
    rateCards();
    for (const QString &name : demandSeriesNames())
        demandSeries(name);
    workloads();
    trainingJobs();
    for (const QString &name : scenarioNames()) {
        scenario(name);
        for (const ScenarioVersion &version : scenarioHistory(name))
            scenarioAtVersion(name, version.version);
    }
    reportItems();
    reportSettings();
    servingAssumptions();
    kvVariants();
}

bool Workspace::exists(const QString &location)
{
    if (!isServerUrl(location))
        return QFileInfo::exists(location);
    const ServerLocation server = parseServerUrl(location);
    const QString connectionName = nextConnectionName() + QStringLiteral("-probe");
    bool found = false;
    try {
        QSqlDatabase db = openServerDatabase(server, ServerCredentials{}, connectionName);
        found = readSchemaVersion(db, server.url()) > 0;
    } catch (...) {
        closeConnection(connectionName);
        throw;
    }
    closeConnection(connectionName);
    return found;
}

int Workspace::schemaVersion() const
{
    return d->version;
}

bool Workspace::isReadOnly() const
{
    return d->readOnly;
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
    d->requireWritable(QStringLiteral("save GPU \"%1\"").arg(QString::fromStdString(gpu.id)));
    requireValid(gpu, QStringLiteral("GPU"));
    d->tables().upsertGpu(gpu);
    emit gpusChanged();
}

void Workspace::putModel(const engine::ModelSpec &model)
{
    d->requireWritable(QStringLiteral("save model \"%1\"").arg(QString::fromStdString(model.id)));
    requireValid(model, QStringLiteral("Model"));
    d->tables().upsertModel(model);
    emit modelsChanged();
}

void Workspace::putCatalog(const std::vector<engine::GpuSpec> &gpus,
                           const std::vector<engine::ModelSpec> &models)
{
    d->requireWritable(QStringLiteral("save GPUs and models"));
    requireUniqueIds(gpus, QStringLiteral("GPU"));
    requireUniqueIds(models, QStringLiteral("Model"));
    for (const auto &gpu : gpus)
        requireValid(gpu, QStringLiteral("GPU"));
    for (const auto &model : models)
        requireValid(model, QStringLiteral("Model"));
    if (gpus.empty() && models.empty())
        return;

    {
        SqlTransaction transaction = d->writeTransaction();
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
    d->requireWritable(QStringLiteral("remove GPU \"%1\"").arg(id));
    const bool removed = d->tables().deleteGpu(id);
    if (removed)
        emit gpusChanged();
    return removed;
}

bool Workspace::removeModel(const QString &id)
{
    d->requireWritable(QStringLiteral("remove model \"%1\"").arg(id));
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
    d->requireWritable(QStringLiteral("save rate cards"));
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
        SqlTransaction transaction = d->writeTransaction();
        const RateCardTables tables = d->rateCardTables();
        for (const auto &card : cards)
            tables.upsertRateCard(card);
        transaction.commit();
    }
    emit rateCardsChanged();
}

bool Workspace::removeRateCard(const QString &key)
{
    d->requireWritable(QStringLiteral("remove rate card \"%1\"").arg(key));
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
    d->requireWritable(QStringLiteral("save demand series \"%1\"").arg(QString::fromStdString(series.name)));
    requireValidDemand(series);
    {
        SqlTransaction transaction = d->writeTransaction();
        d->demandTables().replaceSeries(series);
        transaction.commit();
    }
    emit demandSeriesChanged();
}

bool Workspace::removeDemandSeries(const QString &name)
{
    d->requireWritable(QStringLiteral("remove demand series \"%1\"").arg(name));
    const bool removed = d->demandTables().deleteSeries(name);
    if (removed)
        emit demandSeriesChanged();
    return removed;
}

std::vector<ActualsImport> Workspace::actualsImports() const
{
    return d->actualsTables().imports();
}

std::optional<engine::ActualsSummary> Workspace::actuals(qint64 importId) const
{
    return d->actualsTables().summary(importId);
}

qint64 Workspace::importActuals(const QString &fileName, const engine::ActualsSummary &summary)
{
    d->requireWritable(QStringLiteral("import the actuals of \"%1\"").arg(fileName));
    if (summary.rows == 0)
        throw StoreError(QStringLiteral("%1: the file holds no charges (only a header); nothing was imported")
                             .arg(fileName));
    try {
        engine::validate(summary);
    } catch (const engine::InputError &error) {
        throw StoreError(QStringLiteral("%1: %2").arg(fileName, QString::fromUtf8(error.what())));
    }
    qint64 id = 0;
    {
        SqlTransaction transaction = d->writeTransaction();
        id = d->actualsTables().replaceImport(
            fileName, QDateTime::currentDateTimeUtc().toString(Qt::ISODate), summary);
        transaction.commit();
    }
    emit actualsChanged();
    return id;
}

bool Workspace::removeActualsImport(qint64 importId)
{
    d->requireWritable(QStringLiteral("remove actuals import %1").arg(importId));
    const bool removed = d->actualsTables().deleteImport(importId);
    if (removed)
        emit actualsChanged();
    return removed;
}

std::vector<ServingMetricsImport> Workspace::servingMetricsImports() const
{
    return d->servingMetricsTables().imports();
}

engine::ServingHours Workspace::servingHours() const
{
    return d->servingMetricsTables().hours();
}

qint64 Workspace::importServingMetrics(const QString &fileName, qint64 rowCount, qint64 ignoredRows,
                                       const engine::ServingHours &hours)
{
    d->requireWritable(QStringLiteral("import the serving metrics of \"%1\"").arg(fileName));
    if (fileName.isEmpty())
        throw StoreError(QStringLiteral("a serving metrics import needs a file name"));
    for (const engine::ServingHour &h : hours.hours) {
        try {
            engine::validate(h);
        } catch (const engine::InputError &error) {
            throw StoreError(QStringLiteral("%1: instance %2, hour %3: field \"%4\": %5")
                                 .arg(fileName, QString::fromStdString(h.instance))
                                 .arg(h.hour)
                                 .arg(QString::fromStdString(error.field()), QString::fromUtf8(error.what())));
        }
    }
    qint64 id = 0;
    {
        SqlTransaction transaction = d->writeTransaction();
        id = d->servingMetricsTables().replaceImport(fileName, QDateTime::currentDateTimeUtc().toString(Qt::ISODate),
                                                     rowCount, ignoredRows, hours);
        transaction.commit();
    }
    emit servingMetricsChanged();
    return id;
}

bool Workspace::removeServingMetricsImport(qint64 importId)
{
    d->requireWritable(QStringLiteral("remove serving metrics import %1").arg(importId));
    const bool removed = d->servingMetricsTables().deleteImport(importId);
    if (removed)
        emit servingMetricsChanged();
    return removed;
}

std::vector<engine::Optimization> Workspace::optimizations() const
{
    return d->servingMetricsTables().optimizations();
}

void Workspace::addOptimization(const engine::Optimization &optimization)
{
    const QString name = QString::fromStdString(optimization.name);
    d->requireWritable(QStringLiteral("add optimization \"%1\"").arg(name));
    try {
        engine::validate(optimization);
    } catch (const engine::InputError &error) {
        throw StoreError(QStringLiteral("optimization: field \"%1\": %2")
                             .arg(QString::fromStdString(error.field()), QString::fromUtf8(error.what())));
    }
    {
        SqlTransaction transaction = d->writeTransaction();
        if (d->servingMetricsTables().hasOptimization(name))
            throw StoreError(QStringLiteral("optimization \"%1\" already exists; remove it first or choose another name")
                                 .arg(name));
        d->servingMetricsTables().insertOptimization(optimization);
        transaction.commit();
    }
    emit servingMetricsChanged();
}

bool Workspace::removeOptimization(const QString &name)
{
    d->requireWritable(QStringLiteral("remove optimization \"%1\"").arg(name));
    const bool removed = d->servingMetricsTables().deleteOptimization(name);
    if (removed)
        emit servingMetricsChanged();
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
    d->requireWritable(QStringLiteral("save workload \"%1\"").arg(QString::fromStdString(workload.name)));
    requireValidWorkload(workload);
    d->workloadTables().upsertWorkload(workload);
    emit workloadsChanged();
}

bool Workspace::removeWorkload(const QString &name)
{
    d->requireWritable(QStringLiteral("remove workload \"%1\"").arg(name));
    const bool removed = d->workloadTables().deleteWorkload(name);
    if (removed)
        emit workloadsChanged();
    return removed;
}

std::vector<engine::TrainingJob> Workspace::trainingJobs() const
{
    std::vector<engine::TrainingJob> jobs;
    for (TrainingJobRecord &record : d->trainingTables().records())
        jobs.push_back(std::move(record.job));
    return jobs;
}

std::optional<engine::TrainingJob> Workspace::trainingJob(const QString &name) const
{
    if (auto record = d->trainingTables().record(name))
        return std::move(record->job);
    return std::nullopt;
}

std::optional<TrainingJobRecord> Workspace::trainingJobRecord(const QString &name) const
{
    return d->trainingTables().record(name);
}

namespace {

QString utcNow()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

// "2026-12-03 14:05 UTC" from a stored ISO 8601 UTC time.
QString shownTime(const QString &iso)
{
    const QDateTime time = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return time.isValid() ? time.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")) : iso;
}

QString byWhom(const QString &who)
{
    return who.isEmpty() ? QStringLiteral("someone") : who;
}

// The refusal of a write based on `loadedVersion` of `kind` "name" (0 = meant to create it)
// when the stored row is `current` (nullopt = there is none).
ConflictError conflict(const QString &kind, const QString &name, int64_t loadedVersion,
                       std::optional<int64_t> currentVersion, const QString &changedBy,
                       const QString &changedAt)
{
    const QString again = QStringLiteral("Your change was not saved: look at the current version "
                                         "and apply your change again.");
    if (!currentVersion)
        return ConflictError(QStringLiteral("%1 \"%2\" was removed by someone else after you opened it "
                                            "(you had version %3). %4")
                                 .arg(kind, name)
                                 .arg(loadedVersion)
                                 .arg(again),
                             name, loadedVersion, 0, QString(), QString());
    if (loadedVersion == 0)
        return ConflictError(QStringLiteral("%1 \"%2\" was created by %3 at %4 while you were making "
                                            "yours (version %5). %6")
                                 .arg(kind, name, byWhom(changedBy), shownTime(changedAt))
                                 .arg(*currentVersion)
                                 .arg(again),
                             name, 0, *currentVersion, changedBy, changedAt);
    return ConflictError(QStringLiteral("%1 \"%2\" was changed by %3 at %4 after you opened it "
                                        "(version %5, yours %6). %7")
                             .arg(kind, name, byWhom(changedBy), shownTime(changedAt))
                             .arg(*currentVersion)
                             .arg(loadedVersion)
                             .arg(again),
                         name, loadedVersion, *currentVersion, changedBy, changedAt);
}

ConflictError scenarioConflict(const ScenarioTables &tables, const QString &name, int64_t loadedVersion)
{
    const auto current = tables.row(name);
    if (!current)
        return conflict(QStringLiteral("Scenario"), name, loadedVersion, std::nullopt, {}, {});
    return conflict(QStringLiteral("Scenario"), name, loadedVersion, current->summary.version,
                    current->summary.updatedBy, current->summary.updatedAt);
}

// Throws ConflictError unless `row` (the stored one, or none) is at `loadedVersion`.
void requireScenarioVersion(const ScenarioTables &tables, const QString &name,
                            const std::optional<ScenarioRow> &row, std::optional<int64_t> loadedVersion)
{
    if (!loadedVersion)
        return;
    const int64_t stored = row ? row->summary.version : 0;
    if (stored != *loadedVersion)
        throw scenarioConflict(tables, name, *loadedVersion);
}

} // namespace

void Workspace::putTrainingJob(const engine::TrainingJob &job)
{
    d->requireWritable(QStringLiteral("save training job \"%1\"").arg(QString::fromStdString(job.name)));
    requireValidTrainingJob(job);
    {
        SqlTransaction transaction = d->writeTransaction();
        const auto existing = d->trainingTables().record(QString::fromStdString(job.name));
        saveTrainingJobRow(job, existing ? existing->version : 0);
        transaction.commit();
    }
    emit trainingJobsChanged();
}

int64_t Workspace::saveTrainingJob(const engine::TrainingJob &job, int64_t loadedVersion, const QString &previousName)
{
    d->requireWritable(QStringLiteral("save training job \"%1\"").arg(QString::fromStdString(job.name)));
    requireValidTrainingJob(job);
    int64_t version = 0;
    {
        SqlTransaction transaction = d->writeTransaction();
        version = saveTrainingJobRow(job, loadedVersion, previousName);
        transaction.commit();
    }
    emit trainingJobsChanged();
    return version;
}

namespace {

// The conflict for a training job no longer at `loadedVersion`, naming who changed it.
ConflictError trainingJobConflict(const TrainingTables &tables, const QString &name, int64_t loadedVersion)
{
    const auto current = tables.record(name);
    return current ? conflict(QStringLiteral("Training job"), name, loadedVersion, current->version,
                              current->updatedBy, current->updatedAt)
                   : conflict(QStringLiteral("Training job"), name, loadedVersion, std::nullopt, {}, {});
}

} // namespace

int64_t Workspace::saveTrainingJobRow(const engine::TrainingJob &job, int64_t loadedVersion, const QString &previousName)
{
    const TrainingTables tables = d->trainingTables();
    const QString name = QString::fromStdString(job.name);
    const QString storedName = previousName.isEmpty() ? name : previousName;
    TrainingJobRecord record;
    record.job = job;
    record.updatedAt = utcNow();
    record.updatedBy = d->author;
    const auto existing = tables.record(storedName);
    if ((existing ? existing->version : 0) != loadedVersion)
        throw trainingJobConflict(tables, storedName, loadedVersion);
    if (storedName != name && tables.record(name))
        throw StoreError(QStringLiteral("Training job \"%1\" cannot be renamed to \"%2\": that name is taken.")
                             .arg(storedName, name));
    if (existing) {
        record.version = loadedVersion + 1;
        record.createdAt = existing->createdAt;
        if (!tables.updateIfVersion(record, loadedVersion, storedName))
            throw trainingJobConflict(tables, storedName, loadedVersion);
    } else {
        record.version = 1;
        record.createdAt = record.updatedAt;
        tables.upsertRecord(record);
    }
    return record.version;
}

bool Workspace::removeTrainingJob(const QString &name, std::optional<int64_t> loadedVersion)
{
    d->requireWritable(QStringLiteral("remove training job \"%1\"").arg(name));
    bool removed = false;
    if (loadedVersion) {
        SqlTransaction transaction = d->writeTransaction();
        const TrainingTables tables = d->trainingTables();
        if (!tables.deleteIfVersion(name, *loadedVersion))
            throw trainingJobConflict(tables, name, *loadedVersion);
        transaction.commit();
        removed = true;
    } else {
        removed = d->trainingTables().deleteJob(name);
    }
    if (removed)
        emit trainingJobsChanged();
    return removed;
}

std::vector<ReportItem> Workspace::reportItems() const
{
    return d->reportTables().items();
}

int Workspace::appendReportItem(const ReportItem &item)
{
    const int position = int(reportItems().size());
    insertReportItem(position, item);
    return position;
}

void Workspace::insertReportItem(int position, const ReportItem &item)
{
    placeReportItem(QStringLiteral("add report item \"%1\"").arg(item.title), item, position, false);
}

void Workspace::placeReportItem(const QString &action, const ReportItem &item, int position, bool replace)
{
    d->requireWritable(action);
    const QString problem = reportItemProblem(item);
    if (!problem.isEmpty())
        throw StoreError(QStringLiteral("Report item \"%1\": %2").arg(item.title, problem));
    {
        SqlTransaction transaction = d->writeTransaction();
        std::vector<ReportItem> items = d->reportTables().items();
        // An insertion may go after the last item; a replacement only on one.
        const int last = int(items.size()) - (replace ? 1 : 0);
        if (position < 0 || position > last)
            throw StoreError(QStringLiteral("Report item \"%1\": position %2 is outside 0…%3")
                                 .arg(item.title)
                                 .arg(position)
                                 .arg(last));
        if (replace)
            items[size_t(position)] = item;
        else
            items.insert(items.begin() + position, item);
        d->reportTables().replaceItems(items);
        transaction.commit();
    }
    emit reportChanged();
}

void Workspace::moveReportItem(int from, int to)
{
    d->requireWritable(QStringLiteral("move a report item"));
    {
        SqlTransaction transaction = d->writeTransaction();
        std::vector<ReportItem> items = d->reportTables().items();
        const int count = int(items.size());
        if (from < 0 || from >= count || to < 0 || to >= count)
            throw StoreError(QStringLiteral("Cannot move report item %1 to %2: the report has %3 "
                                            "items (positions 0…%4)")
                                 .arg(from)
                                 .arg(to)
                                 .arg(count)
                                 .arg(count - 1));
        if (from == to)
            return;
        ReportItem moved = std::move(items[size_t(from)]);
        items.erase(items.begin() + from);
        items.insert(items.begin() + to, std::move(moved));
        d->reportTables().replaceItems(items);
        transaction.commit();
    }
    emit reportChanged();
}

void Workspace::replaceReportItem(int position, const ReportItem &item)
{
    placeReportItem(QStringLiteral("change report item \"%1\"").arg(item.title), item, position, true);
}

QString Workspace::inputsFingerprint() const
{
    return workspaceInputsFingerprint(d->database(), d->path);
}

bool Workspace::removeReportItem(int position)
{
    d->requireWritable(QStringLiteral("remove a report item"));
    {
        SqlTransaction transaction = d->writeTransaction();
        std::vector<ReportItem> items = d->reportTables().items();
        if (position < 0 || position >= int(items.size()))
            return false;
        items.erase(items.begin() + position);
        d->reportTables().replaceItems(items);
        transaction.commit();
    }
    emit reportChanged();
    return true;
}

ReportSettings Workspace::reportSettings() const
{
    return d->reportTables().settings();
}

void Workspace::setReportSettings(const ReportSettings &settings)
{
    d->requireWritable(QStringLiteral("save the report settings"));
    {
        SqlTransaction transaction = d->writeTransaction();
        d->reportTables().putSettings(settings);
        transaction.commit();
    }
    emit reportChanged();
}

engine::ServingAssumptions Workspace::servingAssumptions() const
{
    return d->servingTables().assumptions();
}

void Workspace::setServingAssumptions(const engine::ServingAssumptions &assumptions)
{
    if (const auto problems = engine::validate(assumptions); !problems.empty())
        throw StoreError(QStringLiteral("Serving assumptions: field \"%1\": %2")
                             .arg(QString::fromStdString(problems.front().field),
                                  QString::fromStdString(problems.front().message)));
    {
        SqlTransaction transaction = d->writeTransaction();
        d->servingTables().putAssumptions(assumptions);
        transaction.commit();
    }
    emit servingAssumptionsChanged();
}

engine::ServingAssumptions Workspace::updateServingAssumptions(
    const std::function<engine::ServingAssumptions(const engine::ServingAssumptions &)> &change)
{
    d->requireWritable(QStringLiteral("save the serving assumptions"));
    engine::ServingAssumptions updated;
    {
        SqlTransaction transaction = d->writeTransaction();
        updated = change(d->servingTables().assumptions());
        if (const auto problems = engine::validate(updated); !problems.empty())
            throw StoreError(QStringLiteral("Serving assumptions: field \"%1\": %2")
                                 .arg(QString::fromStdString(problems.front().field),
                                      QString::fromStdString(problems.front().message)));
        d->servingTables().putAssumptions(updated);
        transaction.commit();
    }
    emit servingAssumptionsChanged();
    return updated;
}

engine::ServingAssumptions Workspace::changeServingAssumptions(const engine::ServingAssumptions &from,
                                                               const engine::ServingAssumptions &to)
{
    return updateServingAssumptions([&](const engine::ServingAssumptions &current) {
        return mergeServingAssumptions(current, from, to);
    });
}

std::optional<std::vector<engine::KvVariant>> Workspace::kvVariants() const
{
    return d->servingTables().kvVariants();
}

void Workspace::setKvVariants(const std::vector<engine::KvVariant> &variants)
{
    if (const auto problems = validate(variants); !problems.empty())
        throw StoreError(QStringLiteral("KV variants: field \"%1\": %2")
                             .arg(QString::fromStdString(problems.front().field),
                                  QString::fromStdString(problems.front().message)));
    {
        SqlTransaction transaction = d->writeTransaction();
        d->servingTables().putKvVariants(variants);
        transaction.commit();
    }
    emit kvVariantsChanged();
}

QStringList Workspace::scenarioNames() const
{
    return d->scenarioTables().names();
}

std::vector<ScenarioSummary> Workspace::scenarioSummaries() const
{
    return d->scenarioTables().summaries();
}

std::optional<ScenarioSummary> Workspace::scenarioSummary(const QString &name) const
{
    if (auto row = d->scenarioTables().row(name))
        return row->summary;
    return std::nullopt;
}

std::optional<engine::Scenario> Workspace::scenario(const QString &name) const
{
    const auto row = d->scenarioTables().row(name);
    if (!row)
        return std::nullopt;
    engine::Scenario scenario = parseScenario(row->body, QStringLiteral("%1: scenario \"%2\"").arg(d->path, name));
    scenario.name = name.toStdString();  // the row's name is the scenario's
    return scenario;
}

namespace {

void requireValidScenario(const engine::Scenario &scenario)
{
    const auto problems = engine::validate(scenario);
    if (!problems.empty())
        throw StoreError(QStringLiteral("Scenario \"%1\": %2")
                             .arg(QString::fromStdString(scenario.name), describe(problems)));
}

void requireScenarioName(const QString &name)
{
    if (name.isEmpty())
        throw StoreError(QStringLiteral("Scenario: field \"name\": must not be empty"));
    if (name.trimmed().isEmpty())
        throw StoreError(QStringLiteral("Scenario: field \"name\": must not be blank (only "
                                        "spaces)"));
}

} // namespace

void Workspace::putScenario(const engine::Scenario &scenario)
{
    requireScenarioName(QString::fromStdString(scenario.name));
    d->requireWritable(QStringLiteral("save scenario \"%1\"").arg(QString::fromStdString(scenario.name)));
    requireValidScenario(scenario);
    {
        SqlTransaction transaction = d->writeTransaction();
        const ScenarioTables tables = d->scenarioTables();
        const auto existing = tables.row(QString::fromStdString(scenario.name));
        // The import overwrites whatever is stored, so it saves over the version it finds.
        saveScenarioRow(scenario, existing ? existing->summary.version : 0);
        transaction.commit();
    }
    emit scenariosChanged();
}

int64_t Workspace::saveScenario(const engine::Scenario &scenario, int64_t loadedVersion)
{
    requireScenarioName(QString::fromStdString(scenario.name));
    d->requireWritable(QStringLiteral("save scenario \"%1\"").arg(QString::fromStdString(scenario.name)));
    requireValidScenario(scenario);
    int64_t version = 0;
    {
        SqlTransaction transaction = d->writeTransaction();
        version = saveScenarioRow(scenario, loadedVersion);
        transaction.commit();
    }
    emit scenariosChanged();
    return version;
}

int64_t Workspace::saveScenarioRow(const engine::Scenario &scenario, int64_t loadedVersion)
{
    const ScenarioTables tables = d->scenarioTables();
    ScenarioRow row;
    row.summary.name = QString::fromStdString(scenario.name);
    row.summary.description = QString::fromStdString(scenario.description);
    row.summary.author = QString::fromStdString(scenario.author);
    row.summary.updatedAt = utcNow();
    row.summary.updatedBy = d->author;
    row.body = scenarioJsonText(scenario);
    if (loadedVersion > 0) {
        const auto existing = tables.row(row.summary.name);
        if (!existing || existing->summary.version != loadedVersion)
            throw scenarioConflict(tables, row.summary.name, loadedVersion);
        row.summary.version = loadedVersion + 1;
        row.summary.createdAt = existing->summary.createdAt;
        if (!tables.updateIfVersion(row, loadedVersion))
            throw scenarioConflict(tables, row.summary.name, loadedVersion);
    } else {
        if (tables.row(row.summary.name))
            throw scenarioConflict(tables, row.summary.name, 0);
        row.summary.version = 1;
        row.summary.createdAt = row.summary.updatedAt;
        tables.removeHistory(row.summary.name);  // none is left by a removal; never mix two
        tables.insert(row);
    }
    tables.appendHistory(row);
    return row.summary.version;
}

void Workspace::renameScenario(const QString &oldName, const QString &newName,
                               std::optional<int64_t> loadedVersion)
{
    d->requireWritable(QStringLiteral("rename scenario \"%1\"").arg(oldName));
    requireScenarioName(newName);
    {
        SqlTransaction transaction = d->writeTransaction();
        const ScenarioTables tables = d->scenarioTables();
        auto row = tables.row(oldName);
        if (!row && !loadedVersion)
            throw StoreError(QStringLiteral("Scenario \"%1\" does not exist").arg(oldName));
        requireScenarioVersion(tables, oldName, row, loadedVersion);
        if (!row)
            throw StoreError(QStringLiteral("Scenario \"%1\" does not exist").arg(oldName));
        if (oldName == newName)
            return;
        if (tables.row(newName))
            throw StoreError(QStringLiteral("Cannot rename scenario \"%1\": \"%2\" already exists")
                                 .arg(oldName, newName));
        engine::Scenario scenario =
            parseScenario(row->body, QStringLiteral("%1: scenario \"%2\"").arg(d->path, oldName));
        scenario.name = newName.toStdString();
        const int64_t before = row->summary.version;
        tables.rename(oldName, newName);
        tables.removeHistory(newName);
        tables.renameHistory(oldName, newName);
        row->summary.name = newName;
        row->summary.version += 1;
        row->summary.updatedAt = utcNow();
        row->summary.updatedBy = d->author;
        row->body = scenarioJsonText(scenario);
        if (!tables.updateIfVersion(*row, before))
            throw scenarioConflict(tables, newName, before);
        tables.appendHistory(*row);
        transaction.commit();
    }
    emit scenariosChanged();
}

void Workspace::duplicateScenario(const QString &name, const QString &newName)
{
    d->requireWritable(QStringLiteral("duplicate scenario \"%1\"").arg(name));
    requireScenarioName(newName);
    {
        SqlTransaction transaction = d->writeTransaction();
        const ScenarioTables tables = d->scenarioTables();
        const auto row = tables.row(name);
        if (!row)
            throw StoreError(QStringLiteral("Scenario \"%1\" does not exist").arg(name));
        if (tables.row(newName))
            throw StoreError(QStringLiteral("Cannot duplicate scenario \"%1\": \"%2\" already exists")
                                 .arg(name, newName));
        engine::Scenario scenario =
            parseScenario(row->body, QStringLiteral("%1: scenario \"%2\"").arg(d->path, name));
        scenario.name = newName.toStdString();
        saveScenarioRow(scenario, 0);
        transaction.commit();
    }
    emit scenariosChanged();
}

bool Workspace::removeScenario(const QString &name, std::optional<int64_t> loadedVersion)
{
    d->requireWritable(QStringLiteral("remove scenario \"%1\"").arg(name));
    bool removed = false;
    {
        SqlTransaction transaction = d->writeTransaction();
        const ScenarioTables tables = d->scenarioTables();
        requireScenarioVersion(tables, name, tables.row(name), loadedVersion);
        removed = tables.remove(name);
        tables.removeHistory(name);
        transaction.commit();
    }
    if (removed)
        emit scenariosChanged();
    return removed;
}

std::vector<ScenarioVersion> Workspace::scenarioHistory(const QString &name) const
{
    return d->scenarioTables().history(name);
}

std::optional<engine::Scenario> Workspace::scenarioAtVersion(const QString &name, int64_t version) const
{
    const auto body = d->scenarioTables().historyBody(name, version);
    if (!body)
        return std::nullopt;
    engine::Scenario scenario =
        parseScenario(*body, QStringLiteral("%1: scenario \"%2\" version %3").arg(d->path, name).arg(version));
    scenario.name = name.toStdString();  // the history follows renames
    return scenario;
}

int64_t Workspace::restoreScenario(const QString &name, int64_t version, std::optional<int64_t> loadedVersion)
{
    d->requireWritable(QStringLiteral("restore scenario \"%1\"").arg(name));
    int64_t restored = 0;
    {
        SqlTransaction transaction = d->writeTransaction();
        const ScenarioTables tables = d->scenarioTables();
        const auto row = tables.row(name);
        if (!row && !loadedVersion)
            throw StoreError(QStringLiteral("Scenario \"%1\" does not exist").arg(name));
        requireScenarioVersion(tables, name, row, loadedVersion);
        if (!row)
            throw StoreError(QStringLiteral("Scenario \"%1\" does not exist").arg(name));
        const auto old = scenarioAtVersion(name, version);
        if (!old) {
            const auto kept = tables.history(name);
            throw StoreError(QStringLiteral("Scenario \"%1\" has no version %2 (kept versions: %3)")
                                 .arg(name)
                                 .arg(version)
                                 .arg(kept.empty() ? QStringLiteral("none")
                                                   : QStringLiteral("%1 to %2").arg(kept.back().version).arg(kept.front().version)));
        }
        requireValidScenario(*old);
        restored = saveScenarioRow(*old, row->summary.version);
        transaction.commit();
    }
    emit scenariosChanged();
    return restored;
}

QString Workspace::userName() const
{
    return d->author;
}

bool Workspace::fileReplaced() const
{
    return !d->server && d->fileIdentity && identityOf(d->path) != d->fileIdentity;
}

void Workspace::saveCopyAs(const QString &path) const
{
    const QFileInfo target(path);
    if (path.isEmpty())
        throw StoreError(QStringLiteral("No file given for the copy of workspace %1").arg(d->path));
    // A symbolic link, even a dangling one, is never written through.
    if (target.exists() || target.isSymLink())
        throw StoreError(QStringLiteral("Cannot save a copy as %1: %2")
                             .arg(path, target.isSymLink() ? QStringLiteral("it is a symbolic link; name the file it points to instead")
                                                           : QStringLiteral("the file already exists")));
    if (!QDir().mkpath(target.absolutePath()))
        throw StoreError(QStringLiteral("Cannot save a copy as %1: cannot create the folder %2")
                             .arg(path, target.absolutePath()));

    // VACUUM INTO (SQLite 3.27+) writes a consistent, compacted snapshot in one statement, to a
    // hidden file beside the target; renaming it into place (never over an existing file or
    // link) means the target is either absent or the whole copy.
    const QString partial = target.absoluteDir().filePath(
        QStringLiteral(".%1.%2.partial").arg(target.fileName(), QUuid::createUuid().toString(QUuid::Id128).left(12)));
    if (d->server) {
        // A new file, seeded and then filled with the server's rows, closed (which folds its
        // write-ahead log into it) before it is renamed into place.
        try {
            Workspace copy(partial);
            copy.replaceContents(*this);
        } catch (...) {
            removeFileAndJournals(partial);
            throw;
        }
        if (hasPendingLog(partial)) {
            removeFileAndJournals(partial);
            throw StoreError(QStringLiteral("Cannot save a copy as %1: its write-ahead log was not "
                                            "folded into it")
                                 .arg(path));
        }
        for (const QString &suffix : {QStringLiteral("-wal"), QStringLiteral("-shm")})
            QFile::remove(partial + suffix);
    } else {
        QSqlQuery query(d->database());
        query.prepare(QStringLiteral("VACUUM INTO :target"));
        query.bindValue(QStringLiteral(":target"), partial);
        if (!query.exec()) {
            const QString reason = query.lastError().text();
            QFile::remove(partial);
            throw StoreError(QStringLiteral("Cannot save a copy as %1: %2").arg(path, reason));
        }
    }
    if (!QFile::rename(partial, target.absoluteFilePath())) {
        QFile::remove(partial);
        const QFileInfo now(path);
        throw StoreError(QStringLiteral("Cannot save a copy as %1: %2")
                             .arg(path, now.exists() || now.isSymLink() ? QStringLiteral("the file already exists")
                                                                       : QStringLiteral("cannot rename the copy into place")));
    }
}

void Workspace::announceTableChange(const QString &table)
{
    if (table == QLatin1String("gpu")) {
        emit gpusChanged();
    } else if (table == QLatin1String("model")) {
        emit modelsChanged();
    } else if (table == QLatin1String("rate_card")) {
        emit rateCardsChanged();
    } else if (table == QLatin1String("demand_series") || table == QLatin1String("demand_point")) {
        emit demandSeriesChanged();
    } else if (table == QLatin1String("workload")) {
        emit workloadsChanged();
    } else if (table == QLatin1String("training_job")) {
        emit trainingJobsChanged();
    } else if (table == QLatin1String("scenario")) {
        emit scenariosChanged();
    } else if (table == QLatin1String("report_item")) {
        emit reportChanged();
    } else if (table == QLatin1String("workspace_info")) {
        // Serving assumptions, KV lines and the report settings live there.
        emit servingAssumptionsChanged();
        emit kvVariantsChanged();
        emit reportChanged();
    } else if (table.startsWith(QLatin1String("serving_metrics_")) || table == QLatin1String("serving_optimization")) {
        emit servingMetricsChanged();
    }
}

namespace {

const QString kChangeChannel = QStringLiteral("headroom_changes");

std::map<QString, qint64> readChangeCounters(const QSqlDatabase &db, const QString &path)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT table_name, counter FROM headroom_changes")))
        raiseSqlError(path, QStringLiteral("cannot read the change counters"), query.lastError());
    std::map<QString, qint64> counters;
    while (query.next())
        counters[query.value(0).toString()] = query.value(1).toLongLong();
    return counters;
}

qint64 readDataVersion(const QSqlDatabase &db, const QString &path)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("PRAGMA data_version")) || !query.next())
        raiseSqlError(path, QStringLiteral("cannot read the data version"), query.lastError());
    return query.value(0).toLongLong();
}

} // namespace

bool Workspace::checkForChanges()
{
    const QSqlDatabase db = d->database();
    if (!d->server) {
        const qint64 now = readDataVersion(db, d->path);
        const bool changed = d->dataVersion >= 0 && now != d->dataVersion;
        d->dataVersion = now;
        if (changed) {
            // SQLite says only that another connection committed: refresh everything.
            for (const QString &table : workspaceTables())
                announceTableChange(table);
        }
        return changed;
    }
    std::map<QString, qint64> now = readChangeCounters(db, d->path);
    QStringList changed;
    for (const auto &[table, counter] : now) {
        const auto seen = d->changeCounters.find(table);
        if (d->countersRead && (seen == d->changeCounters.end() || seen->second != counter))
            changed << table;
    }
    d->changeCounters = std::move(now);
    d->countersRead = true;
    for (const QString &table : changed)
        announceTableChange(table);
    return !changed.isEmpty();
}

void Workspace::watchForChanges(int pollMs)
{
    if (!d->watchMode.isEmpty())
        return;
    const QSqlDatabase db = d->database();
    if (d->server) {
        d->changeCounters = readChangeCounters(db, d->path);
        d->countersRead = true;
        if (subscribeToChanges()) {
            d->watchMode = QStringLiteral("notify");
            return;
        }
    } else {
        d->dataVersion = readDataVersion(db, d->path);
    }
    d->pollTimer = new QTimer(this);
    d->pollTimer->setInterval(pollMs);
    connect(d->pollTimer, &QTimer::timeout, this, [this]() {
        if (d->reconnectTimer && d->reconnectTimer->isActive())
            return;
        try {
            checkForChanges();
        } catch (const ConnectionLostError &) {
            startReconnecting();
        } catch (const StoreError &) {
            // Another failure shows at the next edit, which reports it; keep polling.
        }
    });
    d->pollTimer->start();
    d->watchMode = QStringLiteral("poll");
}

QString Workspace::changeWatchMode() const
{
    return d->watchMode;
}

bool Workspace::subscribeToChanges()
{
    QSqlDriver *driver = d->database().driver();
    if (!driver->hasFeature(QSqlDriver::EventNotifications) || !driver->subscribeToNotification(kChangeChannel))
        return false;
    connect(driver, &QSqlDriver::notification, this,
            [this](const QString &name, QSqlDriver::NotificationSource source, const QVariant &payload) {
                if (name != kChangeChannel || source == QSqlDriver::SelfSource)
                    return;
                announceTableChange(payload.toString());
            });
    return true;
}

void Workspace::reconnect()
{
    if (!d->server)
        return;
    // A fresh connection under the same name: every table reader looks the connection up by it.
    closeConnection(d->connectionName);
    try {
        d->openServer(d->location, d->credentials);
    } catch (...) {
        closeConnection(d->connectionName);
        throw;
    }
    if (d->watchMode == QLatin1String("notify"))
        subscribeToChanges();
    if (!d->watchMode.isEmpty()) {
        d->changeCounters = readChangeCounters(d->database(), d->path);
        d->countersRead = true;
    }
    if (d->reconnectTimer)
        d->reconnectTimer->stop();
    // Others may have changed anything while the connection was down.
    for (const QString &table : workspaceTables())
        announceTableChange(table);
    emit connectionRestored();
}

void Workspace::startReconnecting(int intervalMs)
{
    if (!d->server || isReconnecting())
        return;
    if (!d->reconnectTimer) {
        d->reconnectTimer = new QTimer(this);
        connect(d->reconnectTimer, &QTimer::timeout, this, [this]() {
            try {
                reconnect();
            } catch (const StoreError &) {
                // Still unreachable: the timer tries again.
            }
        });
    }
    d->reconnectTimer->setInterval(std::max(intervalMs, 10));
    d->reconnectTimer->start();
    emit connectionLost(QStringLiteral("the connection to %1 was lost; reconnecting every %2 s")
                            .arg(d->path)
                            .arg(d->reconnectTimer->interval() / 1000.0, 0, 'g', 3));
}

bool Workspace::isReconnecting() const
{
    return d->reconnectTimer && d->reconnectTimer->isActive();
}

} // namespace headroom::store
