#pragma once

#include <QString>
#include <functional>
#include <string>
#include <sys/types.h>

// Fault tests run the store in forked child processes, which are killed, starved of disk or
// made to race each other; the child reports what it saw as text through a pipe.
namespace headroom::store::test {

struct ChildOutcome {
    bool killed = false;   // ended by a signal
    int exitCode = -1;     // when it exited
    std::string report;    // what the child wrote before it ended
};

// A forked child running `body`; its returned text (or "StoreError: <message>") is sent back.
class Child {
public:
    explicit Child(const std::function<std::string()> &body);
    ~Child();
    Child(const Child &) = delete;
    Child &operator=(const Child &) = delete;

    pid_t pid() const { return m_pid; }
    void kill();            // SIGKILL
    ChildOutcome wait();    // reaps the child and collects its report

private:
    pid_t m_pid = -1;
    int m_readFd = -1;
    bool m_reaped = false;
};

// PRAGMA integrity_check of the file through a fresh connection ("ok" when sound).
QString integrityCheck(const QString &path);

// Runs `body` in a child that cannot write files it does not own: as root it switches to the
// "nobody" user (uid/gid 65534); otherwise it runs as the current user. Returns its report.
std::string runUnprivileged(const std::function<std::string()> &body);

// Sleeps for `microseconds`.
void sleepMicroseconds(long microseconds);

} // namespace headroom::store::test
