// Fault tests: kill -9 while a workspace is created and during a large import, two programs
// writing one workspace at once, and a full disk. Each forks the store into child processes
// and then checks the file with PRAGMA integrity_check and for all-or-nothing contents.
#include "faultsupport.h"
#include "storetestsupport.h"

#include "engine/common/money.h"
#include "store/common/workspace.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <random>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <csignal>
#include <unistd.h>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

constexpr int kKills = 50;

struct ShippedCounts {
    qint64 gpus = 0;
    qint64 models = 0;
    qint64 rateCards = 0;
};

// What a complete new workspace holds, and how long creating one took, in microseconds.
ShippedCounts createReference(const QString &path, qint64 *microseconds)
{
    QElapsedTimer timer;
    timer.start();
    Workspace workspace(path);
    *microseconds = timer.nsecsElapsed() / 1000;
    return {qint64(workspace.gpus().size()), qint64(workspace.models().size()),
            qint64(workspace.rateCards().size())};
}

engine::DemandSeries flatSeries(int hours, int gpus)
{
    engine::DemandSeries series;
    series.name = "imported";
    series.source = "fault test";
    series.gpus.assign(size_t(hours), engine::Decimal::fromInt(gpus));
    return series;
}

engine::Scenario smallScenario(const std::string &name, int gpus)
{
    engine::Scenario s;
    s.name = name;
    s.provider = "AWS";
    s.region = "us-east-1";
    engine::Pool pool;
    pool.name = "core";
    pool.gpuId = "h100-sxm";
    pool.gpus = gpus;
    s.pools = {pool};
    return s;
}

// Raw engine output is fully specified, unlike the std distributions.
long randomBelow(std::mt19937 &random, long bound)
{
    return long(random() % std::uint32_t(bound));
}

} // namespace

TEST_CASE("kill -9 at random points while a workspace is created leaves no file, an empty one or a complete one", "[faults][workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qint64 createUs = 0;
    const ShippedCounts shipped = createReference(dir.filePath(QStringLiteral("reference.headroom")), &createUs);
    REQUIRE(shipped.gpus > 0);
    REQUIRE(shipped.models > 0);

    // Kills spread over the whole creation, fork included, and a little past it.
    const long window = long(createUs) * 3 / 2 + 3000;
    std::mt19937 random(18);
    int absent = 0, empty = 0, complete = 0, cutShort = 0;
    for (int run = 0; run < kKills; ++run) {
        const QString path = dir.filePath(QStringLiteral("killed-%1.headroom").arg(run));
        const long delay = randomBelow(random, window);
        {
            Child child([&] {
                Workspace workspace(path);
                return std::string("created");
            });
            sleepMicroseconds(delay);
            child.kill();
            if (child.wait().report != "created")
                ++cutShort;
        }
        INFO("run " << run << ", killed after " << delay << " µs");
        if (!QFileInfo::exists(path)) {
            ++absent;
        } else {
            REQUIRE(integrityCheck(path) == "ok");
            RawDatabase raw(path);
            const int version = raw.scalar(QStringLiteral("PRAGMA user_version")).toInt();
            if (version == 0) {
                // Nothing was committed: a new file, which opening creates afresh.
                CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM sqlite_master")).toInt() == 0);
                ++empty;
            } else {
                CHECK(version == Workspace::kSchemaVersion);
                CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM workspace_info WHERE key = 'seeded_from'"))
                          .toInt()
                      == 1);
                CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM gpu")).toLongLong() == shipped.gpus);
                CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM model")).toLongLong() == shipped.models);
                CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM rate_card")).toLongLong() == shipped.rateCards);
                ++complete;
            }
        }
        // Whatever the kill left, the next start has a complete workspace.
        Workspace reopened(path);
        CHECK(qint64(reopened.gpus().size()) == shipped.gpus);
        CHECK(qint64(reopened.models().size()) == shipped.models);
        CHECK(qint64(reopened.rateCards().size()) == shipped.rateCards);
    }
    WARN("kill -9 during creation, " << kKills << " runs (creation takes " << createUs << " µs, kills within "
                                     << window << " µs): " << cutShort << " cut short; files left: " << absent
                                     << " absent, " << empty << " empty, " << complete << " complete");
    CHECK(absent + empty + complete == kKills);
    // The kills did land while the workspace was being made.
    CHECK(cutShort >= kKills / 5);
}

TEST_CASE("kill -9 at random points during a large import keeps all of the import or none of it", "[faults][workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("import.headroom"));
    qint64 createUs = 0;
    const ShippedCounts shipped = createReference(path, &createUs);
    constexpr int kHours = 5000;

    // How long opening the workspace and importing takes, measured on a copy.
    qint64 importUs = 0;
    {
        const QString scratch = dir.filePath(QStringLiteral("scratch.headroom"));
        { Workspace workspace(scratch); }
        QElapsedTimer timer;
        timer.start();
        Workspace workspace(scratch);
        workspace.putDemandSeries(flatSeries(kHours, 7));
        importUs = timer.nsecsElapsed() / 1000;
    }

    const long window = long(importUs) * 3 / 2 + 3000;
    std::mt19937 random(18);
    int cutShort = 0, none = 0, previous = 0, whole = 0;
    int lastComplete = 0;  // the value every hour of the stored series holds; 0: no series yet
    for (int run = 1; run <= kKills; ++run) {
        const long delay = randomBelow(random, window);
        {
            Child child([&] {
                Workspace workspace(path);
                workspace.putDemandSeries(flatSeries(kHours, run));
                return std::string("imported");
            });
            sleepMicroseconds(delay);
            child.kill();
            if (child.wait().report != "imported")
                ++cutShort;
        }
        INFO("run " << run << ", killed after " << delay << " µs");
        REQUIRE(integrityCheck(path) == "ok");
        RawDatabase raw(path);
        const qint64 points = raw.scalar(QStringLiteral("SELECT COUNT(*) FROM demand_point")).toLongLong();
        const qint64 distinct = raw.scalar(QStringLiteral("SELECT COUNT(DISTINCT gpus) FROM demand_point")).toLongLong();
        CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM gpu")).toLongLong() == shipped.gpus);
        if (points == 0) {
            CHECK(lastComplete == 0);
            CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM demand_series")).toInt() == 0);
            ++none;
            continue;
        }
        REQUIRE(points == kHours);
        REQUIRE(distinct == 1);
        const int value = raw.scalar(QStringLiteral("SELECT MIN(gpus) FROM demand_point")).toInt();
        CHECK((value == run || value == lastComplete));
        (value == run ? whole : previous) += 1;
        lastComplete = value;
    }
    {
        Workspace workspace(path);
        if (lastComplete != 0) {
            const auto series = workspace.demandSeries(QStringLiteral("imported"));
            REQUIRE(series);
            CHECK(series->gpus.size() == size_t(kHours));
        }
    }
    WARN("kill -9 during a " << kHours << "-row import, " << kKills << " runs (import takes " << importUs
                             << " µs, kills within " << window << " µs): " << cutShort << " cut short; "
                             << whole << " runs left the new series whole, " << previous
                             << " the previous one, " << none << " no series; 0 partial");
    CHECK(cutShort >= kKills / 5);
}

TEST_CASE("two programs writing one workspace at once both succeed and lose no update", "[faults][workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("shared.headroom"));
    qint64 createUs = 0;
    const ShippedCounts shipped = createReference(path, &createUs);
    {
        Workspace workspace(path);
        workspace.putScenario(smallScenario("shared", 1));
    }
    constexpr int kWrites = 40;

    // Each writer adds scenarios of its own and updates the shared one (read, then write).
    auto writer = [&](const std::string &tag) {
        return [&, tag] {
            Workspace workspace(path);
            std::string failures;
            int done = 0;
            for (int i = 0; i < kWrites; ++i) {
                try {
                    workspace.putScenario(smallScenario(tag + "-" + std::to_string(i), 2));
                    workspace.putScenario(smallScenario("shared", i + 2));
                    ++done;
                } catch (const StoreError &error) {
                    failures += error.message().toStdString() + "\n";
                }
            }
            return std::to_string(done) + "\n" + failures;
        };
    };
    Child first(writer("a"));
    Child second(writer("b"));
    const ChildOutcome a = first.wait();
    const ChildOutcome b = second.wait();
    INFO("writer a: " << a.report);
    INFO("writer b: " << b.report);
    CHECK(a.report == std::to_string(kWrites) + "\n");
    CHECK(b.report == std::to_string(kWrites) + "\n");

    CHECK(integrityCheck(path) == "ok");
    Workspace workspace(path);
    CHECK(workspace.scenarioNames().size() == 1 + 2 * kWrites);
    // Every update of the shared scenario counted: none was lost to the other writer.
    CHECK(workspace.scenarioSummary(QStringLiteral("shared"))->version == 1 + 2 * kWrites);
    CHECK(qint64(workspace.gpus().size()) == shipped.gpus);
}

TEST_CASE("two programs creating the same new workspace at once both open it, seeded once", "[faults][workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qint64 createUs = 0;
    const ShippedCounts shipped = createReference(dir.filePath(QStringLiteral("reference.headroom")), &createUs);
    for (int run = 0; run < 10; ++run) {
        const QString path = dir.filePath(QStringLiteral("race-%1.headroom").arg(run));
        auto create = [&] {
            Workspace workspace(path);
            return std::to_string(workspace.gpus().size());
        };
        Child first(create);
        Child second(create);
        const std::string a = first.wait().report;
        const std::string b = second.wait().report;
        INFO("run " << run);
        CHECK(a == std::to_string(shipped.gpus));
        CHECK(b == std::to_string(shipped.gpus));
        CHECK(integrityCheck(path) == "ok");
        RawDatabase raw(path);
        CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM workspace_info WHERE key = 'created_at'")).toInt()
              == 1);
    }
}

TEST_CASE("a full disk fails an import with a clear message and leaves the workspace as it was", "[faults][workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qint64 createUs = 0;
    const ShippedCounts shipped = createReference(dir.filePath(QStringLiteral("reference.headroom")), &createUs);
    const QString folder = dir.filePath(QStringLiteral("small-disk"));
    REQUIRE(QDir().mkpath(folder));

    Child child([&] {
        // A 2 MiB tmpfs in a mount namespace of the child's own where that is allowed (root);
        // otherwise a file size limit, which fails writes the same way.
        std::string how = "RLIMIT_FSIZE";
        const QByteArray target = folder.toLocal8Bit();
        if (::geteuid() == 0 && ::unshare(CLONE_NEWNS) == 0
            && ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0
            && ::mount("tmpfs", target.constData(), "tmpfs", 0, "size=2m") == 0)
            how = "tmpfs";
        const QString path = folder + QStringLiteral("/full.headroom");
        { Workspace workspace(path); }
        if (how == "RLIMIT_FSIZE") {
            std::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{rlim_t(QFileInfo(path).size() + 512 * 1024), rlim_t(QFileInfo(path).size() + 512 * 1024)};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        }
        std::string message = "no error";
        try {
            Workspace workspace(path);
            workspace.putDemandSeries(flatSeries(400000, 3));
        } catch (const StoreError &error) {
            message = error.message().toStdString();
        }
        Workspace after(path);
        return how + "\n" + message + "\n" + integrityCheck(path).toStdString() + "\n"
            + std::to_string(after.demandSeriesNames().size()) + "\n" + std::to_string(after.gpus().size());
    });
    const ChildOutcome outcome = child.wait();
    INFO(outcome.report);
    const QStringList lines = QString::fromStdString(outcome.report).split(QLatin1Char('\n'));
    REQUIRE(lines.size() == 5);
    WARN("full disk simulated with " << lines[0].toStdString() << ": " << lines[1].toStdString());
    CHECK_THAT(lines[1].toStdString(), Contains("full.headroom"));
    if (lines[0] == QLatin1String("tmpfs"))
        CHECK_THAT(lines[1].toStdString(), Contains("the disk is full"));
    else
        CHECK_THAT(lines[1].toStdString(), Contains("the disk could not be written"));
    CHECK(lines[2] == QLatin1String("ok"));
    CHECK(lines[3] == QLatin1String("0"));
    CHECK(lines[4].toLongLong() == shipped.gpus);
}

TEST_CASE("an edit that waits longer than the busy timeout for another writer fails clearly, changing nothing", "[faults][workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("held.headroom"));
    { Workspace created(path); }
    Workspace workspace(path);
    RawDatabase other(path);
    other.exec(QStringLiteral("BEGIN IMMEDIATE"));  // another program holds the write lock
    QElapsedTimer waited;
    waited.start();
    const std::string message = storeErrorOf([&] { workspace.putScenario(smallScenario("waiting", 4)); });
    const qint64 waitedMs = waited.elapsed();
    other.exec(QStringLiteral("ROLLBACK"));
    CHECK_THAT(message, Contains(path.toStdString()) && Contains("the workspace is busy") && Contains("Try again")
                            && !Contains("Unable to fetch row"));
    CHECK(waitedMs >= 4500);  // it waited for the lock rather than failing at once
    CHECK(workspace.scenarioNames().isEmpty());
    workspace.putScenario(smallScenario("after", 4));  // once the lock is free, edits work
    CHECK(workspace.scenarioNames() == QStringList{QStringLiteral("after")});
}
