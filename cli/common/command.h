#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>
#include <memory>

namespace headroom::store {
class Workspace;
}

namespace headroom::cli {

// What a verb runs with: the output streams and the workspace chosen by --workspace (or the
// team workspace chosen by --server),
// opened only when the verb first asks for it. A missing file is created and seeded only when
// `createIfMissing` (the default workspace, or a verb that writes such as import); otherwise
// asking for it throws StoreError naming the path, so a mistyped path creates nothing.
class Context {
public:
    // `serverUrl`: the --server URL, for verbs that copy between a file and a server; a verb
    // that works on the server alone gets it as `workspacePath`.
    Context(QTextStream &out, QTextStream &err, QString workspacePath, bool createIfMissing = true,
            QString serverUrl = {});
    ~Context();

    QTextStream &out() { return m_out; }
    QTextStream &err() { return m_err; }
    const QString &workspacePath() const { return m_workspacePath; }
    const QString &serverUrl() const { return m_serverUrl; }
    store::Workspace &workspace();

    // Closes and deletes the workspace file if this run created it: a failing verb leaves
    // no new workspace behind.
    void discardCreatedWorkspace();

private:
    QTextStream &m_out;
    QTextStream &m_err;
    QString m_workspacePath;
    QString m_serverUrl;
    bool m_createIfMissing = true;
    bool m_created = false;
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
    // True for verbs whose job is to write into the workspace (import): they create a missing
    // --workspace file. Verbs that only read refuse one.
    bool createsWorkspace = false;
    // True for push and pull, which take both --workspace FILE and --server URL.
    bool copiesBetweenLocations = false;
};

} // namespace headroom::cli
