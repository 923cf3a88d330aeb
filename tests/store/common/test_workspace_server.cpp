// Team workspaces on a PostgreSQL server: the URL, connection failures, the schema version
// row, refusal of newer and foreign databases, and two programs creating one workspace at
// once. The [server] tests run only in the "store-pg: " suite (HEADROOM_STORE_BACKEND=postgresql
// with HEADROOM_TEST_SERVER from scripts/pgserver.sh), and fail there when the server is missing.
#include "storetestsupport.h"

#include "store/catalog/catalogjson.h"
#include "store/common/demoworkspace.h"
#include "store/common/serverurl.h"
#include "store/common/workspace.h"
#include "store/common/workspacecopy.h"
#include "store/tracking/focuscsv.h"
#include "store/tracking/metricscsv.h"

#include <QDir>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

// The test server's location with another database or user.
ServerLocation testServerWith(const QString &database, const QString &user = {})
{
    const QString url = qEnvironmentVariable("HEADROOM_TEST_SERVER");
    if (url.isEmpty())
        FAIL("HEADROOM_TEST_SERVER is not set; run the tests through scripts/pgserver.sh");
    ServerLocation location = parseServerUrl(url);
    location.database = database;
    if (!user.isEmpty())
        location.user = user;
    return location;
}

// A local TCP port nothing listens on: one the kernel just handed out and took back.
int closedPort()
{
    const int socket = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(socket >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    const bool bound = ::bind(socket, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0
                       && ::getsockname(socket, reinterpret_cast<sockaddr *>(&address), &length) == 0;
    ::close(socket);
    REQUIRE(bound);
    return ntohs(address.sin_port);
}

size_t shippedGpuCount()
{
    return readCatalogFile(QStringLiteral(":/catalogs/gpus.json")).gpus.size();
}

} // namespace

TEST_CASE("a server URL gives user, host, port, database and TLS options", "[workspace][url]")
{
    const ServerLocation location = parseServerUrl(
        QStringLiteral("postgresql://planner@db.example.com:6543/capacity?sslmode=verify-full&sslrootcert=/etc/ca.pem"));
    CHECK(location.user == QLatin1String("planner"));
    CHECK(location.host == QLatin1String("db.example.com"));
    CHECK(location.port == 6543);
    CHECK(location.database == QLatin1String("capacity"));
    CHECK(location.connectOptions() == QLatin1String("sslmode='verify-full';sslrootcert='/etc/ca.pem'"));
    CHECK(location.url()
          == QLatin1String("postgresql://planner@db.example.com:6543/capacity?sslmode=verify-full&sslrootcert=/etc/ca.pem"));

    // A literal "%" in a value (the URL's "%25") stays one in the address shown, which parses
    // back to the same value.
    const ServerLocation percent =
        parseServerUrl(QStringLiteral("postgresql://db/plans?application_name=load%2541&sslrootcert=/ca/%25ff.pem"));
    REQUIRE(percent.options.size() == 2);
    CHECK(percent.options[0].second == QLatin1String("load%41"));
    CHECK(percent.options[1].second == QLatin1String("/ca/%ff.pem"));
    CHECK(percent.url() == QLatin1String("postgresql://db:5432/plans?application_name=load%2541&sslrootcert=/ca/%25ff.pem"));
    CHECK(parseServerUrl(percent.url()).options == percent.options);

    const ServerLocation defaults = parseServerUrl(QStringLiteral("postgres://db/plans"));
    CHECK(defaults.user.isEmpty());
    CHECK(defaults.port == 5432);
    CHECK(defaults.database == QLatin1String("plans"));
    CHECK(isServerUrl(QStringLiteral("postgresql://db/plans")));
    CHECK_FALSE(isServerUrl(QStringLiteral("/home/me/plans.headroom")));
}

TEST_CASE("a bad server URL is refused saying what is wrong, never echoing a password", "[workspace][url]")
{
    const std::string withPassword =
        storeErrorOf([] { parseServerUrl(QStringLiteral("postgresql://planner:s3cret@db/plans")); });
    CHECK_THAT(withPassword, Contains("password") && Contains(".pgpass"));
    CHECK_THAT(withPassword, !Contains("s3cret"));
    CHECK_THAT(storeErrorOf([] { Workspace workspace(QStringLiteral("postgresql://u:s3cret@db/plans")); }),
               !Contains("s3cret"));
    CHECK_THAT(storeErrorOf([] { parseServerUrl(QStringLiteral("postgresql://db")); }),
               Contains("database"));
    CHECK_THAT(storeErrorOf([] { parseServerUrl(QStringLiteral("postgresql:///plans")); }),
               Contains("host"));
    CHECK_THAT(storeErrorOf([] { parseServerUrl(QStringLiteral("postgresql://db:99999/plans")); }),
               Contains("port") || Contains("not a valid URL"));
    CHECK_THAT(storeErrorOf([] { parseServerUrl(QStringLiteral("postgresql://db/plans?sslmode=sometimes")); }),
               Contains("sslmode") && Contains("verify-full"));
    CHECK_THAT(storeErrorOf([] { parseServerUrl(QStringLiteral("postgresql://db/plans?options=-c%20x")); }),
               Contains("unknown option \"options\""));
}

TEST_CASE("a server URL's option values reach libpq quoted, so none adds a setting", "[workspace][url]")
{
    CHECK(quoteConnectValue(QStringLiteral("plain")) == QLatin1String("'plain'"));
    CHECK(quoteConnectValue(QStringLiteral("it's a\\b\\")) == QLatin1String("'it\\'s a\\\\b\\\\'"));
    // A space, a quote and a trailing backslash stay inside the one value.
    const ServerLocation location = parseServerUrl(
        QStringLiteral("postgresql://planner@db/plans?application_name=it's%20a%20plan%5C&sslmode=require"));
    CHECK(location.options.size() == 2);
    CHECK(location.options.at(0).second == QLatin1String("it's a plan\\"));
    CHECK(location.connectOptions() == QLatin1String("application_name='it\\'s a plan\\\\';sslmode='require'"));
}

TEST_CASE("a server URL cannot change the user, database, TLS or options, nor carry a password", "[workspace][url]")
{
    const auto refusal = [](const char *url) { return storeErrorOf([&] { parseServerUrl(QString::fromUtf8(url)); }); };
    // A second setting hidden in a value: refused, whichever keyword it names.
    for (const char *url : {"postgresql://planner@db/plans?application_name=x%20user=postgres",
                            "postgresql://planner@db/plans?sslmode=require&application_name=x%20sslmode=disable",
                            "postgresql://planner@db/plans?application_name=x%20dbname=other",
                            "postgresql://planner@db/plans?sslrootcert=/ca.pem%20options=-csearch_path%3Devil"}) {
        INFO(url);
        const std::string message = refusal(url);
        CHECK_THAT(message, Contains("one value"));
        CHECK_THAT(message, !Contains("postgres\"") && !Contains("=disable") && !Contains("=other")
                                && !Contains("evil"));
    }
    CHECK_THAT(refusal("postgresql://planner@db/plans?sslmode=require&sslmode=disable"),
               Contains("\"sslmode\" is given twice"));
    for (const char *key : {"user", "dbname", "host", "port", "options", "service", "passfile"}) {
        INFO(key);
        const std::string message = refusal(QStringLiteral("postgresql://planner@db/plans?%1=x").arg(QLatin1String(key)).toUtf8().constData());
        CHECK_THAT(message, Contains("unknown option") || Contains("password"));
    }
    // A password anywhere in the URL is refused and never shown.
    for (const char *url : {"postgresql://planner@db/plans?password=S3cret",
                            "postgresql://planner@db/plans?sslpassword=S3cret",
                            "postgresql://planner@db/plans?application_name=x%20password=S3cret",
                            "postgresql://planner@db/plans?application_name=x%20password%3DS3cret",
                            "postgresql://planner:S3cret@db/plans?sslmode=require"}) {
        INFO(url);
        const std::string message = refusal(url);
        CHECK_THAT(message, !Contains("S3cret"));
        CHECK_THAT(message, Contains("password") || Contains("one value"));
    }
    CHECK_THAT(refusal("postgresql://planner@db/plans?connect_timeout=0"), Contains("wait forever"));
    CHECK_THAT(refusal("postgresql://planner@db/plans?application_name=a%00b"), Contains("control character"));
    CHECK_THAT(refusal("postgresql://planner@db/plans?application_name=a;b"), Contains("\";\""));
    CHECK_THAT(refusal("postgresql://planner@db/host=evil"), Contains("database name"));
}

TEST_CASE("a server address is shown without its password or secret options", "[workspace][url]")
{
    CHECK(displayServerUrl(QStringLiteral("postgresql://planner:S3cret@db/plans?sslmode=require&password=S3cret"))
          == QLatin1String("postgresql://planner@db/plans?sslmode=require&password=***"));
    CHECK(displayServerUrl(QStringLiteral("postgresql://planner@db/plans?application_name=x%20password%3DS3cret"))
          == QLatin1String("postgresql://planner@db/plans?application_name=***"));
    const QString notUrl = displayServerUrl(QStringLiteral("mysql:// planner:S3cret@db/plans?password=S3cret"));
    CHECK_FALSE(notUrl.contains(QLatin1String("S3cret")));
    // Without a scheme, or without "//", a user and password are still not shown.
    CHECK(displayServerUrl(QStringLiteral("//planner:S3cret@db/plans")) == QStringLiteral("\"//…@db/plans\""));
    CHECK(displayServerUrl(QStringLiteral("planner:S3cret@db/plans")) == QStringLiteral("\"…@db/plans\""));
}

TEST_CASE("a server URL's quoted options connect as written", "[server]")
{
    WorkspaceLocation location;
    // A space, a quote and a trailing backslash in one value, another option after it: once
    // unquoted, the backslash swallowed the separator and libpq refused the connection.
    const QString name = QStringLiteral("it's a plan\\");
    const QString url = location.path() + QStringLiteral("?application_name=")
                        + QString::fromLatin1(QUrl::toPercentEncoding(name)) + QStringLiteral("&connect_timeout=5");
    { Workspace workspace(url); }
    RawDatabase raw(url);
    CHECK(raw.scalar(QStringLiteral("SELECT current_setting('application_name')")).toString() == name);
    CHECK(raw.scalar(QStringLiteral("SELECT current_user")).toString()
          == parseServerUrl(location.path()).user);
    CHECK(raw.scalar(QStringLiteral("SELECT current_database()")).toString()
          == parseServerUrl(location.path()).database);
}

TEST_CASE("a server workspace keeps its schema version in a table and is seeded once", "[server]")
{
    WorkspaceLocation location;
    {
        Workspace workspace(location.path());
        CHECK(workspace.isServer());
        CHECK(workspace.path() == location.path());
        CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
        CHECK(workspace.gpus().size() == shippedGpuCount());
        workspace.putGpu(sampleGpu("team-gpu"));
    }
    Workspace reopened(location.path());
    CHECK(reopened.gpus().size() == shippedGpuCount() + 1);
    RawDatabase raw(location.path());
    CHECK(raw.schemaVersion() == Workspace::kSchemaVersion);
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM headroom_schema")).toInt() == 1);
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM workspace_info WHERE key = 'created_at'")).toInt() == 1);
    // A copy to a new file (what headroom pull makes) holds the whole workspace, and no
    // hidden partial file is left beside it.
    QTemporaryDir folder;
    const QString copy = folder.filePath(QStringLiteral("copy.headroom"));
    reopened.saveCopyAs(copy);
    CHECK(Workspace(copy).gpus().size() == shippedGpuCount() + 1);
    CHECK(QDir(folder.path()).entryList(QDir::Files | QDir::Hidden) == QStringList{QStringLiteral("copy.headroom")});
}

TEST_CASE("a server workspace from a newer schema is refused and left untouched", "[server]")
{
    WorkspaceLocation location;
    { Workspace create(location.path()); }
    RawDatabase raw(location.path());
    raw.exec(QStringLiteral("UPDATE headroom_schema SET version = 99"));
    raw.exec(QStringLiteral("DELETE FROM gpu WHERE id = 'h100-sxm'"));
    const int gpus = raw.scalar(QStringLiteral("SELECT COUNT(*) FROM gpu")).toInt();

    const std::string message = storeErrorOf([&] { Workspace workspace(location.path()); });
    CHECK_THAT(message, Contains("newer Headroom") && Contains("schema 99")
                            && Contains(location.path().toStdString()));
    CHECK(raw.schemaVersion() == 99);
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM gpu")).toInt() == gpus);
}

TEST_CASE("a server database holding other tables is refused and left untouched", "[server]")
{
    WorkspaceLocation location;
    RawDatabase raw(location.path());
    raw.exec(QStringLiteral("CREATE TABLE invoices (id INTEGER PRIMARY KEY)"));
    CHECK_THAT(storeErrorOf([&] { Workspace workspace(location.path()); }),
               Contains("not a Headroom workspace"));
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM information_schema.tables "
                                    "WHERE table_schema = current_schema()"))
              .toInt()
          == 1);
}

TEST_CASE("a refused connection, a missing database and a wrong password are told apart", "[server]")
{
    ServerLocation closed = testServerWith(QStringLiteral("postgres"));
    closed.port = closedPort();
    const std::string refused = storeErrorOf([&] { Workspace workspace(closed.url()); });
    CHECK_THAT(refused, Contains("no server is listening") && Contains(closed.url().toStdString()));

    const ServerLocation missing = testServerWith(QStringLiteral("no_such_database"));
    CHECK_THAT(storeErrorOf([&] { Workspace workspace(missing.url()); }),
               Contains("database no_such_database does not exist"));

    // scripts/pgserver.sh makes this role ask for its password.
    const ServerLocation guarded = testServerWith(QStringLiteral("postgres"), QStringLiteral("headroom_password"));
    const std::string wrong = storeErrorOf(
        [&] { Workspace workspace(guarded.url(), ServerCredentials{QStringLiteral("wrong-password")}); });
    CHECK_THAT(wrong, Contains("refused the password") && Contains("headroom_password"));
    CHECK_THAT(wrong, !Contains("wrong-password"));
}

TEST_CASE("a role without access is told so, not that a schema cannot be created", "[server]")
{
    WorkspaceLocation location;
    {
        RawDatabase raw(location.path());
        raw.exec(QStringLiteral("DO $$ BEGIN CREATE ROLE headroom_reader LOGIN; "
                                "EXCEPTION WHEN duplicate_object THEN NULL; END $$"));
    }
    ServerLocation reader = parseServerUrl(location.path());
    reader.user = QStringLiteral("headroom_reader");
    // An empty database the role may not create tables in: once "cannot create the schema
    // version table: … permission denied for schema public".
    const std::string empty = storeErrorOf([&] { Workspace workspace(reader.url()); });
    CHECK_THAT(empty, Contains("No access to team workspace " + reader.url().toStdString())
                          && Contains("holds no workspace, and the role headroom_reader may not create one there"));
    CHECK_THAT(empty, !Contains("permission denied"));

    { Workspace owner(location.path()); }
    // A workspace whose tables the role may not read: once taken for an empty database and
    // answered with "cannot create the catalog tables".
    const std::string unreadable = storeErrorOf([&] { Workspace workspace(reader.url()); });
    CHECK_THAT(unreadable, Contains("No access to team workspace") && Contains("the role headroom_reader may not read its tables"));

    // Granted reading only: it reads, and a change is refused in plain words.
    {
        RawDatabase raw(location.path());
        raw.exec(QStringLiteral("GRANT SELECT ON ALL TABLES IN SCHEMA public TO headroom_reader"));
    }
    Workspace readOnly(reader.url());
    CHECK(readOnly.gpus().size() == shippedGpuCount());
    engine::ServingAssumptions serving = readOnly.servingAssumptions();
    serving.maxNumSeqs = 64;
    CHECK_THAT(storeErrorOf([&] { readOnly.setServingAssumptions(serving); }),
               Contains("the server role may not change this workspace"));
}

TEST_CASE("a read waiting on another program's lock gives up after the busy timeout, saying so", "[server]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    RawDatabase raw(location.path());
    raw.exec(QStringLiteral("BEGIN"));
    raw.exec(QStringLiteral("LOCK TABLE gpu IN ACCESS EXCLUSIVE MODE"));
    // Once the read waited as long as the lock was held, without a word.
    const auto started = std::chrono::steady_clock::now();
    const std::string busy = storeErrorOf([&] { workspace.gpus(); });
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    raw.exec(QStringLiteral("ROLLBACK"));
    CHECK_THAT(busy, Contains("the workspace is busy: another program kept it locked for longer than 5 s"));
    CHECK(waited < 60.0); // bounded by the lock timeout, not by the lock holder
    CHECK(workspace.gpus().size() == shippedGpuCount());
}

TEST_CASE("a password given by the caller opens the server workspace", "[server]")
{
    WorkspaceLocation location;
    RawDatabase raw(location.path());
    raw.exec(QStringLiteral("GRANT ALL ON SCHEMA public TO headroom_password"));
    ServerLocation guarded = parseServerUrl(location.path());
    guarded.user = QStringLiteral("headroom_password");
    Workspace workspace(guarded.url(), ServerCredentials{QStringLiteral("right-password")});
    CHECK(workspace.path() == guarded.url());
    CHECK(workspace.gpus().size() == shippedGpuCount());
}

TEST_CASE("two programs creating the same server workspace at once both open it, seeded once", "[server]")
{
    for (int run = 0; run < 3; ++run) {
        WorkspaceLocation location;
        const QString url = location.path();
        std::atomic<int> opened{0};
        std::vector<std::string> failures(2);
        std::vector<std::thread> programs;
        for (int i = 0; i < 2; ++i) {
            programs.emplace_back([&, i] {
                try {
                    Workspace workspace(url);
                    if (workspace.gpus().size() == shippedGpuCount())
                        ++opened;
                } catch (const StoreError &error) {
                    failures[size_t(i)] = error.message().toStdString();
                }
            });
        }
        for (auto &program : programs)
            program.join();
        INFO(failures[0] << " | " << failures[1]);
        CHECK(opened == 2);
        RawDatabase raw(url);
        CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM workspace_info WHERE key = 'created_at'")).toInt() == 1);
        CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM gpu")).toInt() == int(shippedGpuCount()));
    }
}

namespace {

// Every row of every workspace table as text ("<table>|col=value|…", NULL as "<null>"),
// sorted, so two workspaces on either backend compare row for row.
QStringList tableDump(const QString &location)
{
    RawDatabase raw(location);
    QStringList dump;
    for (const QString &table : workspaceTables()) {
        const int rows = raw.scalar(QStringLiteral("SELECT COUNT(*) FROM %1").arg(table)).toInt();
        dump << QStringLiteral("%1 rows: %2").arg(table).arg(rows);
        for (const QString &row : raw.rows(QStringLiteral("SELECT * FROM %1").arg(table)))
            dump << table + QLatin1Char('|') + row;
    }
    dump.sort();
    return dump;
}

} // namespace

TEST_CASE("a workspace copied to the server and back holds every table exactly", "[server]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString original = createDemoWorkspace(dir.filePath(QStringLiteral("demo.headroom")));
    {
        Workspace source(original);
        ReportItem item;
        item.kind = ReportItem::Kind::Text;
        item.title = QStringLiteral("Notes — ünïcode, 'quotes'");
        item.caption = QStringLiteral("caption");
        item.content = QStringLiteral("line one\nline two");
        source.appendReportItem(item);
        // Two imports, one with every actuals table filled (commitment hours, scopes, on-demand).
        source.importActuals(QStringLiteral("aws_overflow_150pct.csv"),
                             engine::summarizeActuals(readFocusCsv(QStringLiteral(HEADROOM_SHARED_DATA
                                                                                  "/focus-examples/aws_overflow_150pct.csv"))));
        source.importActuals(QStringLiteral("azure.csv"),
                             engine::summarizeActuals(readFocusCsv(QStringLiteral(HEADROOM_SHARED_DATA
                                                                                  "/focus-examples/azure_reservation_no_upfront_100pct.csv"))));
        // Serving metrics (replica-hours with NULL gauges among them) and an optimization.
        const MetricsFile metrics = readMetricsCsv(QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/serving-metrics.csv"));
        source.importServingMetrics(QStringLiteral("serving-metrics.csv"), metrics.rows, metrics.ignoredRows(),
                                    metrics.hours);
        source.addOptimization({"FP8 weights", 20522, "weights in FP8"});
        REQUIRE_FALSE(source.scenarioNames().isEmpty());
        REQUIRE_FALSE(source.workloads().empty());
        REQUIRE_FALSE(source.trainingJobs().empty());
        REQUIRE_FALSE(source.demandSeriesNames().isEmpty());
    }
    const QStringList before = tableDump(original);
    INFO(before.filter(QStringLiteral(" rows: ")).join(QLatin1Char('\n')).toStdString());
    for (const QString &table : workspaceTables())
        CHECK(before.indexOf(QRegularExpression(QStringLiteral("%1 rows: [1-9][0-9]*").arg(table))) >= 0);

    WorkspaceLocation server;
    const QString pulled = dir.filePath(QStringLiteral("pulled.headroom"));
    {
        const Workspace source(original);
        Workspace target(server.path());
        CHECK(target.isNew());
        target.replaceContents(source);
    }
    CHECK(tableDump(server.path()) == before);
    {
        const Workspace source(server.path());
        CHECK_FALSE(source.isNew());
        Workspace target(pulled);
        target.replaceContents(source);
        CHECK(target.scenarioNames() == source.scenarioNames());
    }
    CHECK(tableDump(pulled) == before);
}

TEST_CASE("a copy that fails half way leaves the target workspace as it was", "[server]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString original = createDemoWorkspace(dir.filePath(QStringLiteral("demo.headroom")));
    WorkspaceLocation server;
    { Workspace create(server.path()); }
    const QStringList before = tableDump(server.path());
    {
        // A scenario the server's table cannot take (a CHECK only there) breaks the copy late.
        RawDatabase raw(server.path());
        raw.exec(QStringLiteral("ALTER TABLE scenario ADD CONSTRAINT refuse_all CHECK (version < 0)"));
    }
    const Workspace source(original);
    Workspace target(server.path());
    CHECK_THAT(storeErrorOf([&] { target.replaceContents(source); }),
               Contains("scenario") && Contains(server.path().toStdString()));
    CHECK(tableDump(server.path()) == before);
}

TEST_CASE("several programs editing one scenario on the server at once lose no update", "[server]")
{
    WorkspaceLocation location;
    const QString url = location.path();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString demo = createDemoWorkspace(dir.filePath(QStringLiteral("demo.headroom")));
    engine::Scenario shared;
    int startVersion = 0;
    {
        const Workspace source(demo);
        Workspace workspace(url);
        workspace.replaceContents(source);
        const QString name = demoScenarioNames().constFirst();
        shared = *workspace.scenario(name);
        startVersion = workspace.scenarioSummary(name)->version;
    }
    constexpr int kWriters = 8;
    constexpr int kEdits = 25;
    std::atomic<int> applied{0};
    std::vector<std::string> failures(kWriters);
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w) {
        writers.emplace_back([&, w] {
            try {
                Workspace workspace(url);
                for (int i = 0; i < kEdits; ++i) {
                    engine::Scenario edit = shared;
                    edit.description = "writer " + std::to_string(w) + " edit " + std::to_string(i);
                    workspace.putScenario(edit);
                    ++applied;
                }
            } catch (const StoreError &error) {
                failures[size_t(w)] += error.message().toStdString() + "\n";
            }
        });
    }
    for (auto &writer : writers)
        writer.join();
    for (const std::string &failure : failures)
        CHECK(failure.empty());
    CHECK(applied == kWriters * kEdits);
    // Every put read the version and wrote version + 1 under the workspace's write lock.
    Workspace workspace(url);
    CHECK(workspace.scenarioSummary(QString::fromStdString(shared.name))->version == startVersion + kWriters * kEdits);
}

namespace {

// Ends every other session on the workspace's database, as an administrator or a dropped
// network would: the workspace's own connection is gone from then on.
void endOtherSessions(const QString &url)
{
    const RawDatabase admin(url);
    admin.exec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = current_database() AND pid <> pg_backend_pid()"));
}

} // namespace

TEST_CASE("a lost server connection fails the step with nothing written, and reconnecting resumes", "[server]")
{
    WorkspaceLocation location;
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    Workspace workspace(location.path());
    workspace.replaceContents(Workspace(createDemoWorkspace(dir.filePath(QStringLiteral("demo.headroom")))));
    const QString name = demoScenarioNames().constFirst();
    const int64_t opened = workspace.scenarioSummary(name)->version;
    engine::Scenario edited = *workspace.scenario(name);
    edited.description = "edited while the connection was down";

    endOtherSessions(location.path());
    try {
        workspace.saveScenario(edited, opened);
        FAIL("the save on a lost connection succeeded");
    } catch (const ConnectionLostError &e) {
        CHECK_THAT(e.message().toStdString(), Contains("the connection to the server was lost; nothing was changed"));
    }
    CHECK_FALSE(workspace.isReconnecting());

    QSignalSpy lost(&workspace, &Workspace::connectionLost);
    QSignalSpy restored(&workspace, &Workspace::connectionRestored);
    QSignalSpy scenarios(&workspace, &Workspace::scenariosChanged);
    workspace.startReconnecting(50);
    CHECK(workspace.isReconnecting());
    REQUIRE(lost.count() == 1);
    CHECK(lost.at(0).at(0).toString().contains(location.path()));
    REQUIRE(restored.wait(5000));
    CHECK_FALSE(workspace.isReconnecting());
    CHECK(scenarios.count() >= 1);  // pages reload what others may have changed meanwhile

    // The step left nothing behind; the same save on the version it was based on now works.
    const RawDatabase raw(location.path());
    CHECK(raw.scalar(QStringLiteral("SELECT version FROM scenario WHERE name = '%1'").arg(name)).toLongLong() == opened);
    CHECK(workspace.saveScenario(edited, opened) == opened + 1);
    CHECK(workspace.scenario(name)->description == "edited while the connection was down");

    // Reconnecting once, directly, also works; on a file it does nothing.
    endOtherSessions(location.path());
    CHECK_THROWS_AS(workspace.scenarioSummaries(), ConnectionLostError);
    workspace.reconnect();
    CHECK(workspace.scenarioSummary(name)->version == opened + 1);
}

TEST_CASE("a workspace that stays unreachable keeps trying to reconnect", "[server]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    QSignalSpy restored(&workspace, &Workspace::connectionRestored);
    // The database is dropped under the workspace: every attempt fails, none is announced.
    endOtherSessions(location.path());
    {
        const RawDatabase admin(qEnvironmentVariable("HEADROOM_TEST_SERVER"));
        admin.exec(QStringLiteral("ALTER DATABASE %1 ALLOW_CONNECTIONS false")
                       .arg(parseServerUrl(location.path()).database));
    }
    workspace.startReconnecting(20);
    CHECK_FALSE(restored.wait(300));
    CHECK(workspace.isReconnecting());
    CHECK_THROWS_AS(workspace.reconnect(), StoreError);
    {
        const RawDatabase admin(qEnvironmentVariable("HEADROOM_TEST_SERVER"));
        admin.exec(QStringLiteral("ALTER DATABASE %1 ALLOW_CONNECTIONS true")
                       .arg(parseServerUrl(location.path()).database));
    }
    REQUIRE(restored.wait(5000));
    CHECK_FALSE(workspace.isReconnecting());
}
