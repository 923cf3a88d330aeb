#include "storetestsupport.h"

#include "store/common/serverurl.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QTemporaryDir>
#include <QUuid>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

namespace headroom::store::test {

engine::GpuSpec sampleGpu(const std::string &id)
{
    engine::GpuSpec gpu;
    gpu.id = id;
    gpu.name = "Test GPU 80GB";
    gpu.vendor = "Testvendor";
    gpu.draProductName = "Testvendor TG-80 \"SXM\"";
    gpu.memoryBytes = 85520809984;  // above 2^32: exercises 64-bit storage
    gpu.nominalMemoryGB = 80;
    gpu.hbmBandwidthGBps = 3352.5;
    gpu.bf16Tflops = 989.4;
    gpu.fp8Tflops = 1978.9;
    gpu.fp4Tflops = 8765.4;
    gpu.nvlinkGBps = 900;
    gpu.pcieGBps = 64;
    gpu.tdpWatts = 700;
    gpu.gpusPerNode = 4;
    gpu.source = "datasheet \"quoted\", ünïcode";
    return gpu;
}

engine::ModelSpec sampleModel(const std::string &id)
{
    engine::ModelSpec model;
    model.id = id;
    model.name = "Test MoE";
    model.paramsTotal = 671026419200.5;  // fractional on purpose
    model.paramsActive = 37.5e9;
    model.layers = 61;
    model.hiddenSize = 7168;
    model.attentionHeads = 128;
    model.kvHeads = 128;
    model.headDim = 192;
    model.attention = engine::AttentionKind::Mla;
    model.kvLoraRank = 512;
    model.qkRopeHeadDim = 64;
    model.slidingWindow = 4096;
    model.slidingLayers = 30;
    model.maxContext = 163840;
    model.source = "config.json";
    return model;
}

QByteArray readBytes(const QString &path)
{
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return file.readAll();
}

void writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    REQUIRE(file.write(bytes) == bytes.size());
}

QString sourceFile(const QString &relative)
{
    return QStringLiteral(HEADROOM_SOURCE_DIR "/") + relative;
}

namespace {

const QString kAdminConnection = QStringLiteral("headroom-test-server-admin");

// Opens a QPSQL connection to the server location under `connectionName`; fails the test with
// the driver's reason when it cannot.
QSqlDatabase openServerConnection(const ServerLocation &location, const QString &connectionName)
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connectionName);
    db.setHostName(location.host);
    db.setPort(location.port);
    db.setDatabaseName(location.database);
    db.setUserName(location.user);
    db.setConnectOptions(location.connectOptions());
    if (!db.open())
        FAIL("cannot connect to the test server " << location.url().toStdString() << ": "
                                                  << db.lastError().text().toStdString());
    return db;
}

// The test server from HEADROOM_TEST_SERVER; fails the test when it is not set.
ServerLocation testServer()
{
    const QString url = qEnvironmentVariable("HEADROOM_TEST_SERVER");
    if (url.isEmpty())
        FAIL("HEADROOM_STORE_BACKEND=postgresql needs HEADROOM_TEST_SERVER "
             "(postgresql://user@host:port/database); run the tests through scripts/pgserver.sh");
    try {
        return parseServerUrl(url);
    } catch (const StoreError &error) {
        FAIL("HEADROOM_TEST_SERVER: " << error.message().toStdString());
    }
    return {};
}

// The one connection per test process that creates and drops the test databases.
QSqlDatabase adminConnection()
{
    if (QSqlDatabase::contains(kAdminConnection)) {
        QSqlDatabase db = QSqlDatabase::database(kAdminConnection, false);
        if (db.isOpen())
            return db;
        QSqlDatabase::removeDatabase(kAdminConnection);
    }
    return openServerConnection(testServer(), kAdminConnection);
}

void adminExec(const QString &sql)
{
    QSqlQuery query(adminConnection());
    INFO(sql.toStdString());
    const bool ok = query.exec(sql);
    INFO(query.lastError().text().toStdString());
    REQUIRE(ok);
}

} // namespace

bool serverBackend()
{
    return qEnvironmentVariable("HEADROOM_STORE_BACKEND") == QLatin1String("postgresql");
}

WorkspaceLocation::WorkspaceLocation(const QString &fileName)
{
    if (!serverBackend()) {
        QTemporaryDir dir;
        REQUIRE(dir.isValid());
        dir.setAutoRemove(false);
        m_folder = dir.path();
        m_path = dir.filePath(fileName);
        return;
    }
    // Lower-case letters and digits only: no quoting needed, and a unique name per test.
    m_database = QStringLiteral("headroom_test_")
                 + QUuid::createUuid().toString(QUuid::Id128).left(20);
    adminExec(QStringLiteral("CREATE DATABASE %1").arg(m_database));
    ServerLocation location = testServer();
    location.database = m_database;
    m_path = location.url();
}

WorkspaceLocation::~WorkspaceLocation()
{
    if (!m_folder.isEmpty())
        QDir(m_folder).removeRecursively();
    if (!m_database.isEmpty() && QSqlDatabase::contains(kAdminConnection)) {
        // FORCE ends connections a failed test may have left open (PostgreSQL 13+).
        QSqlQuery query(QSqlDatabase::database(kAdminConnection, false));
        query.exec(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
    }
}

RawDatabase::RawDatabase(const QString &path)
{
    static int counter = 0;
    m_connectionName = QStringLiteral("raw-test-connection-%1").arg(++counter);
    if (isServerUrl(path)) {
        openServerConnection(parseServerUrl(path), m_connectionName);
        m_server = true;
        return;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    db.setDatabaseName(path);
    REQUIRE(db.open());
}

RawDatabase::~RawDatabase()
{
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

void RawDatabase::exec(const QString &sql) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    INFO(sql.toStdString());
    const bool ok = query.exec(sql);
    INFO(query.lastError().text().toStdString());
    REQUIRE(ok);
}

QVariant RawDatabase::scalar(const QString &sql) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    INFO(sql.toStdString());
    const bool ok = query.exec(sql);
    INFO(query.lastError().text().toStdString());
    REQUIRE(ok);
    REQUIRE(query.next());
    return query.value(0);
}

QStringList RawDatabase::rows(const QString &sql) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    INFO(sql.toStdString());
    const bool ok = query.exec(sql);
    INFO(query.lastError().text().toStdString());
    REQUIRE(ok);
    QStringList rows;
    while (query.next()) {
        QStringList fields;
        const QSqlRecord record = query.record();
        for (int i = 0; i < record.count(); ++i) {
            const QVariant value = query.value(i);
            fields << record.fieldName(i) + QLatin1Char('=')
                          + (value.isNull() ? QStringLiteral("<null>") : value.toString());
        }
        rows << fields.join(QLatin1Char('|'));
    }
    return rows;
}

int RawDatabase::schemaVersion() const
{
    return scalar(m_server ? QStringLiteral("SELECT version FROM headroom_schema WHERE id = 1")
                           : QStringLiteral("PRAGMA user_version"))
        .toInt();
}

void dropFp4Peaks(RawDatabase &raw)
{
    raw.exec(QStringLiteral("ALTER TABLE gpu DROP COLUMN fp4_tflops"));
}

void dropLayerKinds(RawDatabase &raw)
{
    dropFp4Peaks(raw);
    for (const char *column : {"layer_types", "attention_chunk", "sink_tokens", "state_bytes_per_layer"})
        raw.exec(QStringLiteral("ALTER TABLE model DROP COLUMN %1").arg(QLatin1String(column)));
}

void dropReportItemSources(RawDatabase &raw)
{
    dropLayerKinds(raw);
    for (const char *column : {"source", "pinned", "taken_at", "inputs_fingerprint"})
        raw.exec(QStringLiteral("ALTER TABLE report_item DROP COLUMN %1").arg(QLatin1String(column)));
}

void dropDraProductNames(RawDatabase &raw)
{
    dropReportItemSources(raw);
    raw.exec(QStringLiteral("ALTER TABLE gpu DROP COLUMN dra_product_name"));
}

void dropGpuCalibrations(RawDatabase &raw)
{
    dropDraProductNames(raw);
    raw.exec(QStringLiteral("ALTER TABLE gpu DROP COLUMN calibrations"));
}

void dropExpertCounts(RawDatabase &raw)
{
    dropGpuCalibrations(raw);
    raw.exec(QStringLiteral("ALTER TABLE model DROP COLUMN experts"));
    raw.exec(QStringLiteral("ALTER TABLE model DROP COLUMN experts_per_token"));
}

void dropStepCostFacts(RawDatabase &raw)
{
    dropExpertCounts(raw);
    raw.exec(QStringLiteral("ALTER TABLE gpu DROP COLUMN efficiency"));
    raw.exec(QStringLiteral("ALTER TABLE model DROP COLUMN vocab_size"));
    raw.exec(QStringLiteral("ALTER TABLE model DROP COLUMN tied_embeddings"));
}

} // namespace headroom::store::test
