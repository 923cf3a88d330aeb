#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <vector>

class QProcess;

// Runs the real `headroom` binary headless: no display variables, HOME and XDG folders in a
// temporary directory, and a workspace of its own.
struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

class CliFixture {
public:
    CliFixture();

    // Path of this fixture's workspace file (created by the first run()).
    QString workspace() const;
    // Writes `content` to a file in the fixture's folder and returns its path.
    QString writeFile(const QString &name, const QByteArray &content) const;
    QString filePath(const QString &name) const;

    // `headroom --workspace <workspace> args...`, the workspace created first when missing.
    CliResult run(const QStringList &args) const;
    // `headroom args...` exactly as given (no --workspace added).
    CliResult runBare(const QStringList &args) const;
    // runBare with standard output going to `stdoutFile` (e.g. /dev/full); `out` stays empty.
    CliResult runBareTo(const QStringList &args, const QString &stdoutFile) const;
    // Starts every invocation (`headroom args...`, as runBare) at once and waits for all.
    std::vector<CliResult> runBareConcurrently(const QList<QStringList> &invocations) const;
    // Starts `headroom args...` (as runBare) and returns at once, for a test that kills it.
    void startBare(QProcess &process, const QStringList &args) const;

private:
    // A started process with the fixture's headless environment.
    void start(QProcess &process, const QStringList &args, const QString &stdoutFile = {}) const;
    static CliResult finish(QProcess &process);

    QTemporaryDir m_dir;
};

// Runs `headroom --workspace <fixture workspace> ARGS` into `var` and records its output
// for any failing assertion that follows in the same scope.
#define RUN_HEADROOM(var, fixture, ...)                                                   \
    const CliResult var = (fixture).run(QStringList __VA_ARGS__);                         \
    INFO(#var " stdout:\n" << var.out.toStdString() << "\n" #var " stderr:\n"          \
                            << var.err.toStdString())

// The standard output of an installed tool run with `args` (pdfinfo, pdftotext, …); fails the
// test when the tool is missing or exits with an error.
QString toolOutput(const QString &name, const QStringList &args);

// Parses stdout as a JSON object; fails the test when it is not one.
QJsonObject parseJsonObject(const QString &text);

// A catalog file with one GPU and the given models (ids), each an 8B-class GQA model:
// 32 layers, 8 KV heads, head_dim 128, 8,000,000,000 params, 131,072 max context.
QByteArray catalogJson(const QString &gpuId, const QStringList &modelIds, int layers = 32);
