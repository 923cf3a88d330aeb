#include "faultsupport.h"

#include "store/common/storeerror.h"
#include "storetestsupport.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <signal.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace headroom::store::test {

namespace {

void writeAll(int fd, const std::string &text)
{
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += size_t(n);
    }
}

} // namespace

Child::Child(const std::function<std::string()> &body)
{
    int fds[2];
    if (::pipe(fds) != 0)
        throw std::runtime_error("pipe failed");
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    m_pid = ::fork();
    if (m_pid < 0)
        throw std::runtime_error("fork failed");
    if (m_pid == 0) {
        ::close(fds[0]);
        std::string report;
        try {
            report = body();
        } catch (const StoreError &error) {
            report = "StoreError: " + error.message().toStdString();
        } catch (const std::exception &error) {
            report = std::string("exception: ") + error.what();
        }
        writeAll(fds[1], report);
        ::close(fds[1]);
        ::_exit(0);  // no destructors, no test framework output from the child
    }
    ::close(fds[1]);
    m_readFd = fds[0];
}

Child::~Child()
{
    if (!m_reaped && m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        wait();
    }
    if (m_readFd >= 0)
        ::close(m_readFd);
}

void Child::kill()
{
    ::kill(m_pid, SIGKILL);
}

ChildOutcome Child::wait()
{
    ChildOutcome outcome;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(m_readFd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        outcome.report.append(buffer, size_t(n));
    }
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_reaped = true;
    outcome.killed = WIFSIGNALED(status);
    outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return outcome;
}

QString integrityCheck(const QString &path)
{
    RawDatabase raw(path);
    return raw.scalar(QStringLiteral("PRAGMA integrity_check")).toString();
}

std::string runUnprivileged(const std::function<std::string()> &body)
{
    Child child([&] {
        if (::geteuid() == 0) {
            if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                return std::string("cannot switch to the nobody user");
        }
        return body();
    });
    return child.wait().report;
}

void sleepMicroseconds(long microseconds)
{
    timespec t{microseconds / 1000000, (microseconds % 1000000) * 1000};
    while (::nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

} // namespace headroom::store::test
