#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>
#include <memory>

namespace headroom::store {
class Workspace;
}

namespace headroom::cli {

// What a verb runs with: the output streams and the workspace chosen by --workspace,
// opened (created and seeded when missing) only when the verb first asks for it.
class Context {
public:
    Context(QTextStream &out, QTextStream &err, QString workspacePath);
    ~Context();

    QTextStream &out() { return m_out; }
    QTextStream &err() { return m_err; }
    const QString &workspacePath() const { return m_workspacePath; }
    store::Workspace &workspace();

private:
    QTextStream &m_out;
    QTextStream &m_err;
    QString m_workspacePath;
    std::unique_ptr<store::Workspace> m_workspace;
};

// One headless verb: its name, a one-line summary for `headroom help`, the usage text for
// `headroom VERB --help`, and the function that runs it on the arguments after the verb.
// The function returns the exit code; bad input is reported by throwing UsageError,
// engine::InputError or store::StoreError.
struct Command {
    QString name;
    QString summary;
    QString usage;
    int (*run)(const QStringList &args, Context &context) = nullptr;
};

} // namespace headroom::cli
