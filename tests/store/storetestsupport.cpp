#include "storetestsupport.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

namespace headroom::store::test {

engine::GpuSpec sampleGpu(const std::string &id)
{
    engine::GpuSpec gpu;
    gpu.id = id;
    gpu.name = "Test GPU 80GB";
    gpu.vendor = "Testvendor";
    gpu.memoryBytes = 85520809984;  // above 2^32: exercises 64-bit storage
    gpu.nominalMemoryGB = 80;
    gpu.hbmBandwidthGBps = 3352.5;
    gpu.bf16Tflops = 989.4;
    gpu.fp8Tflops = 1978.9;
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

RawDatabase::RawDatabase(const QString &path)
{
    static int counter = 0;
    m_connectionName = QStringLiteral("raw-test-connection-%1").arg(++counter);
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

} // namespace headroom::store::test
