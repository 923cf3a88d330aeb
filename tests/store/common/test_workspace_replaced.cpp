// A workspace whose file is replaced, moved or deleted under it refuses every write naming
// the file and what happened, instead of writing into the old file unseen (and leaves the new
// file alone); the demo workspace another process has open is not deleted when a new one is built.
#include "storetestsupport.h"

#include "store/common/demoworkspace.h"
#include "store/common/workspace.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QTemporaryDir>
#include <sys/wait.h>
#include <unistd.h>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

void removeWorkspaceFiles(const QString &path)
{
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        QFile::remove(path + QLatin1String(suffix));
}

} // namespace

TEST_CASE("a workspace refuses to write once its file was replaced by another", "[workspace][replaced]")
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plan.headroom"));
    Workspace window(path);
    window.putGpu(sampleGpu("before"));
    // Another program rebuilds the file: the old one deleted, a new workspace in its place.
    removeWorkspaceFiles(path);
    {
        Workspace other(path);
        other.putGpu(sampleGpu("theirs"));
    }
    const std::string message = storeErrorOf([&] { window.putGpu(sampleGpu("after")); });
    CHECK_THAT(message, Contains(path.toStdString()) && Contains("replaced by another file")
                            && Contains("nothing was written") && Contains("Reopen"));
    // The file now there is the other program's, untouched by the refused write.
    Workspace reopened(path);
    CHECK(reopened.gpu(QStringLiteral("theirs")));
    CHECK_FALSE(reopened.gpu(QStringLiteral("after")));
    CHECK_FALSE(reopened.gpu(QStringLiteral("before")));
}

TEST_CASE("a workspace refuses to write once its file was moved or deleted", "[workspace][replaced]")
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plan.headroom"));
    Workspace window(path);
    window.putGpu(sampleGpu("before"));
    REQUIRE(QFile::rename(path, dir.filePath(QStringLiteral("moved.headroom"))));
    const std::string message = storeErrorOf([&] { window.putGpu(sampleGpu("after")); });
    CHECK_THAT(message, Contains("moved or deleted") && Contains("nothing was written"));
    CHECK_FALSE(QFile::exists(path));
    // Reading still works: the window can show what it has while the user decides.
    CHECK(window.gpu(QStringLiteral("before")));
}

TEST_CASE("a demo another process has open is not deleted: this one gets a private demo", "[workspace][replaced][demo]")
{
    QTemporaryDir dir;
    const QString shared = dir.filePath(QStringLiteral("demo.headroom"));
    const QString lockPath = shared + QStringLiteral(".lock");
    // Another process holds the shared demo's lock, as a window with the demo open does.
    int ready[2];
    int release[2];
    REQUIRE(::pipe(ready) == 0);
    REQUIRE(::pipe(release) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        QLockFile lock(lockPath);
        const char ok = lock.tryLock(0) ? '1' : '0';
        (void)!::write(ready[1], &ok, 1);
        char done;
        (void)!::read(release[0], &done, 1);
        lock.unlock();
        ::_exit(0);
    }
    char ok = '0';
    REQUIRE(::read(ready[0], &ok, 1) == 1);
    REQUIRE(ok == '1');
    {
        Workspace theirs(shared);  // what the other process has open
        theirs.putGpu(sampleGpu("theirs"));
    }
    const QString mine = openDemoWorkspace(shared);
    CHECK(mine != shared);
    CHECK(QFileInfo(mine).fileName() == QStringLiteral("demo-%1.headroom").arg(QCoreApplication::applicationPid()));
    CHECK(Workspace(mine).scenarioNames().size() == demoScenarioNames().size());
    CHECK(Workspace(shared).gpu(QStringLiteral("theirs")));   // left alone
    const char done = 'x';
    REQUIRE(::write(release[1], &done, 1) == 1);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    // Once nobody holds it, the shared demo is rebuilt in place.
    CHECK(openDemoWorkspace(shared) == shared);
    CHECK_FALSE(Workspace(shared).gpu(QStringLiteral("theirs")));
    for (int fd : {ready[0], ready[1], release[0], release[1]})
        ::close(fd);
}
