#include "clirunner.h"

#include "store/common/workspace.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>

#include <memory>

CliFixture::CliFixture()
{
    REQUIRE(m_dir.isValid());
}

QString CliFixture::workspace() const
{
    return m_dir.filePath(QStringLiteral("test.headroom"));
}

QString CliFixture::filePath(const QString &name) const
{
    return m_dir.filePath(name);
}

QString CliFixture::writeFile(const QString &name, const QByteArray &content) const
{
    QFile file(filePath(name));
    REQUIRE(file.open(QIODevice::WriteOnly));
    REQUIRE(file.write(content) == content.size());
    return file.fileName();
}

CliResult CliFixture::run(const QStringList &args) const
{
    // A verb that only reads refuses a --workspace file that does not exist; the fixture's
    // workspace is created (seeded with the shipped catalogs) before its first verb, as the
    // window or `headroom import` would.
    if (!QFile::exists(workspace()))
        headroom::store::Workspace created(workspace());
    return runBare(QStringList{QStringLiteral("--workspace"), workspace()} + args);
}

CliResult CliFixture::runBare(const QStringList &args) const
{
    return runBareTo(args, QString());
}

CliResult CliFixture::runBareTo(const QStringList &args, const QString &stdoutFile) const
{
    QProcess process;
    start(process, args, stdoutFile);
    return finish(process);
}

std::vector<CliResult> CliFixture::runBareConcurrently(const QList<QStringList> &invocations) const
{
    std::vector<std::unique_ptr<QProcess>> processes;
    for (const QStringList &args : invocations) {
        processes.push_back(std::make_unique<QProcess>());
        start(*processes.back(), args);
    }
    std::vector<CliResult> results;
    for (auto &process : processes)
        results.push_back(finish(*process));
    return results;
}

void CliFixture::start(QProcess &process, const QStringList &args, const QString &stdoutFile) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // Headless: nothing the CLI does may need a display.
    for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QLatin1String(name));
    const QString home = m_dir.filePath(QStringLiteral("home"));
    QDir().mkpath(home);
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/.cache"));

    process.setProcessEnvironment(env);
    process.setWorkingDirectory(m_dir.path());
    if (!stdoutFile.isEmpty())
        process.setStandardOutputFile(stdoutFile);
    process.start(QStringLiteral(HEADROOM_BINARY), args);
    REQUIRE(process.waitForStarted(10000));
    process.closeWriteChannel();
}

void CliFixture::startBare(QProcess &process, const QStringList &args) const
{
    start(process, args);
}

CliResult CliFixture::finish(QProcess &process)
{
    REQUIRE(process.waitForFinished(60000));
    REQUIRE(process.exitStatus() == QProcess::NormalExit);

    CliResult result;
    result.exitCode = process.exitCode();
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QJsonObject parseJsonObject(const QString &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    INFO("output: " << text.toStdString());
    REQUIRE(error.error == QJsonParseError::NoError);
    REQUIRE(doc.isObject());
    return doc.object();
}

QByteArray catalogJson(const QString &gpuId, const QStringList &modelIds, int layers)
{
    QJsonArray gpus;
    if (!gpuId.isEmpty()) {
        gpus.append(QJsonObject{
            {"id", gpuId},
            {"name", "Test GPU 96GB"},
            {"vendor", "Test"},
            {"memory_bytes", qint64(96) << 30},
            {"memory_nominal_gb", 96},
            {"hbm_bandwidth_gbps", 4000},
            {"bf16_tflops", 900},
            {"fp8_tflops", 1800},
            {"nvlink_gbps", 900},
            {"pcie_gbps", 64},
            {"tdp_w", 700},
            {"gpus_per_node", 8},
            {"source", "test fixture"},
        });
    }
    QJsonArray models;
    for (const QString &id : modelIds) {
        models.append(QJsonObject{
            {"id", id},
            {"name", "Test model " + id},
            {"params_total", 8e9},
            {"params_active", 8e9},
            {"layers", layers},
            {"hidden_size", 4096},
            {"attention_heads", 32},
            {"kv_heads", 8},
            {"head_dim", 128},
            {"attention", "gqa"},
            {"kv_lora_rank", 0},
            {"qk_rope_head_dim", 0},
            {"sliding_window", 0},
            {"sliding_layers", 0},
            {"max_context", 131072},
            {"source", "test fixture"},
        });
    }
    QJsonObject root;
    if (!gpus.isEmpty())
        root.insert("gpus", gpus);
    if (!models.isEmpty())
        root.insert("models", models);
    return QJsonDocument(root).toJson();
}

QString toolOutput(const QString &name, const QStringList &args)
{
    REQUIRE_FALSE(QStandardPaths::findExecutable(name).isEmpty());
    QProcess p;
    p.start(name, args);
    REQUIRE(p.waitForFinished(20000));
    REQUIRE(p.exitCode() == 0);
    return QString::fromUtf8(p.readAllStandardOutput());
}
