#include "clustertrace.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include <QFile>
#include <QRegularExpression>
#include <cmath>
#include <set>

namespace headroom::store {

namespace {

const QString kFolderHint = QStringLiteral("see core/store/README.md, \"Application traces\"");
const QString kWorkloadHint = QStringLiteral("see core/store/README.md, \"Cluster workload CSV\"");

double number(const CsvTable &table, const CsvRecord &row, const QString &source, const QString &column,
              double least = 0)
{
    const QString text = table.field(row, column);
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value))
        failCsvField(source, row.line, column, QStringLiteral("'%1' is not a number").arg(shownValue(text)));
    if (value < least)
        failCsvField(source, row.line, column, QStringLiteral("%1 is below %2").arg(text).arg(least));
    return value;
}

int64_t count(const CsvTable &table, const CsvRecord &row, const QString &source, const QString &column,
              int64_t least)
{
    const QString text = table.field(row, column);
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);
    if (!ok)
        failCsvField(source, row.line, column, QStringLiteral("'%1' is not a whole number").arg(shownValue(text)));
    if (value < least || value > (qlonglong(1) << 40))
        failCsvField(source, row.line, column,
                     QStringLiteral("%1 is outside %2 … 2^40").arg(text).arg(least));
    return int64_t(value);
}

QByteArray readWhole(const QString &path, const ImportLimits &limits)
{
    checkImportFileKind(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return readImportFile(file, path, limits);
}

QString shippedWorkload(const QString &name)
{
    static const QRegularExpression shipped(QStringLiteral("^pollux-([1-8])$"));
    const auto match = shipped.match(name);
    return match.hasMatch() ? QStringLiteral(":/pollux/workload-%1.csv").arg(match.captured(1)) : QString();
}

} // namespace

std::vector<engine::ClusterApplication> parseClusterApplications(const QByteArray &applicationsCsv,
                                                                 const QByteArray &epochsCsv, const QString &source)
{
    const QString appSource = source + QStringLiteral("/applications.csv");
    const CsvTable apps = readCsvTable(
        applicationsCsv, appSource, limits::kClusterTraceCsv,
        {QStringLiteral("application"), QStringLiteral("init_batch"), QStringLiteral("max_batch"),
         QStringLiteral("min_local_batch"), QStringLiteral("max_local_batch"), QStringLiteral("max_epochs"),
         QStringLiteral("fixed_batch"), QStringLiteral("alpha_c"), QStringLiteral("beta_c"), QStringLiteral("alpha_n"),
         QStringLiteral("beta_n"), QStringLiteral("alpha_r"), QStringLiteral("beta_r"), QStringLiteral("gamma")},
        QStringLiteral("applications.csv starts with its header"), kFolderHint);
    std::vector<engine::ClusterApplication> out;
    std::vector<int64_t> maxEpochs;
    for (const CsvRecord &row : apps.rows) {
        engine::ClusterApplication app;
        app.name = apps.field(row, QStringLiteral("application")).toStdString();
        if (app.name.empty())
            failCsvField(appSource, row.line, QStringLiteral("application"), QStringLiteral("empty"));
        for (const auto &other : out)
            if (other.name == app.name)
                failCsvField(appSource, row.line, QStringLiteral("application"),
                             QStringLiteral("%1 is given twice").arg(QString::fromStdString(app.name)));
        app.initialBatch = count(apps, row, appSource, QStringLiteral("init_batch"), 1);
        app.maxBatch = count(apps, row, appSource, QStringLiteral("max_batch"), 1);
        app.minMicroBatch = count(apps, row, appSource, QStringLiteral("min_local_batch"), 1);
        app.maxMicroBatch = count(apps, row, appSource, QStringLiteral("max_local_batch"), 1);
        app.adaptiveBatch = count(apps, row, appSource, QStringLiteral("fixed_batch"), 0);
        maxEpochs.push_back(count(apps, row, appSource, QStringLiteral("max_epochs"), 1));
        app.perf.alphaCompute = number(apps, row, appSource, QStringLiteral("alpha_c"));
        app.perf.betaCompute = number(apps, row, appSource, QStringLiteral("beta_c"));
        app.perf.alphaInter = number(apps, row, appSource, QStringLiteral("alpha_n"));
        app.perf.betaInter = number(apps, row, appSource, QStringLiteral("beta_n"));
        app.perf.alphaIntra = number(apps, row, appSource, QStringLiteral("alpha_r"));
        app.perf.betaIntra = number(apps, row, appSource, QStringLiteral("beta_r"));
        app.perf.gamma = number(apps, row, appSource, QStringLiteral("gamma"), 1);
        out.push_back(std::move(app));
    }
    if (out.empty())
        throw StoreError(QStringLiteral("%1: no application").arg(appSource));

    const QString epochSource = source + QStringLiteral("/epochs.csv");
    const CsvTable epochs = readCsvTable(
        epochsCsv, epochSource, limits::kClusterTraceCsv,
        {QStringLiteral("application"), QStringLiteral("batch"), QStringLiteral("epoch"), QStringLiteral("progress"),
         QStringLiteral("grad_sqr"), QStringLiteral("grad_var")},
        QStringLiteral("epochs.csv starts with its header"), kFolderHint);
    for (const CsvRecord &row : epochs.rows) {
        const std::string name = epochs.field(row, QStringLiteral("application")).toStdString();
        auto it = std::find_if(out.begin(), out.end(), [&](const auto &a) { return a.name == name; });
        if (it == out.end())
            failCsvField(epochSource, row.line, QStringLiteral("application"),
                         QStringLiteral("'%1' is not in applications.csv").arg(shownValue(QString::fromStdString(name))));
        engine::ClusterApplication &app = *it;
        const int64_t batch = count(epochs, row, epochSource, QStringLiteral("batch"), 1);
        const int64_t epoch = count(epochs, row, epochSource, QStringLiteral("epoch"), 0);
        if (app.batches.empty() || app.batches.back() != batch) {
            if (!app.batches.empty() && batch < app.batches.back())
                failCsvField(epochSource, row.line, QStringLiteral("batch"),
                             QStringLiteral("%1 comes after batch %2; batches ascend").arg(batch).arg(app.batches.back()));
            app.batches.push_back(batch);
            app.progress.emplace_back();
            app.gradSqr.emplace_back();
            app.gradVar.emplace_back();
        }
        const int64_t maxEpoch = maxEpochs[size_t(it - out.begin())];
        if (epoch != int64_t(app.progress.back().size()))
            failCsvField(epochSource, row.line, QStringLiteral("epoch"),
                         QStringLiteral("%1 where epoch %2 is due; epochs run 0, 1, 2 … per batch")
                             .arg(epoch)
                             .arg(app.progress.back().size()));
        if (epoch >= maxEpoch)
            continue;   // past the epochs the job runs
        app.progress.back().push_back(number(epochs, row, epochSource, QStringLiteral("progress")));
        app.gradSqr.back().push_back(number(epochs, row, epochSource, QStringLiteral("grad_sqr")));
        app.gradVar.back().push_back(number(epochs, row, epochSource, QStringLiteral("grad_var")));
    }
    for (const auto &app : out)
        if (app.batches.empty())
            throw StoreError(QStringLiteral("%1: application %2 has no epochs")
                                 .arg(epochSource, QString::fromStdString(app.name)));
    return out;
}

std::vector<engine::ClusterApplication> readClusterApplications(const QString &folder)
{
    const QString base = folder.isEmpty() ? QStringLiteral(":/pollux") : folder;
    return parseClusterApplications(readWhole(base + QStringLiteral("/applications.csv"), limits::kClusterTraceCsv),
                                    readWhole(base + QStringLiteral("/epochs.csv"), limits::kClusterTraceCsv),
                                    folder.isEmpty() ? QStringLiteral("shipped applications") : folder);
}

std::vector<engine::ClusterJob> parseClusterWorkload(const QByteArray &csv, const QString &source)
{
    const CsvTable table = readCsvTable(csv, source, limits::kClusterWorkloadCsv,
                                        {QStringLiteral("name"), QStringLiteral("time"), QStringLiteral("application"),
                                         QStringLiteral("num_replicas"), QStringLiteral("batch_size")},
                                        QStringLiteral("a cluster workload starts with the header "
                                                       "name,time,application,num_replicas,batch_size"),
                                        kWorkloadHint);
    std::vector<engine::ClusterJob> jobs;
    std::set<QString> names;
    for (const CsvRecord &row : table.rows) {
        engine::ClusterJob job;
        const QString name = table.field(row, QStringLiteral("name"));
        if (name.isEmpty())
            failCsvField(source, row.line, QStringLiteral("name"), QStringLiteral("empty; every job has a name"));
        if (!names.insert(name).second)
            failCsvField(source, row.line, QStringLiteral("name"),
                         QStringLiteral("%1 is given twice").arg(shownValue(name)));
        job.name = name.toStdString();
        job.application = table.field(row, QStringLiteral("application")).toStdString();
        if (job.application.empty())
            failCsvField(source, row.line, QStringLiteral("application"), QStringLiteral("empty"));
        job.submitSeconds = number(table, row, source, QStringLiteral("time"));
        job.gpus = count(table, row, source, QStringLiteral("num_replicas"), 1);
        job.batch = count(table, row, source, QStringLiteral("batch_size"), 1);
        jobs.push_back(std::move(job));
    }
    if (jobs.empty())
        throw StoreError(QStringLiteral("%1: no job").arg(source));
    return jobs;
}

std::vector<engine::ClusterJob> readClusterWorkload(const QString &pathOrName)
{
    const QString shipped = shippedWorkload(pathOrName);
    return parseClusterWorkload(readWhole(shipped.isEmpty() ? pathOrName : shipped, limits::kClusterWorkloadCsv),
                                pathOrName);
}

std::map<QString, double> publishedAverageJct(const QString &pathOrName)
{
    std::map<QString, double> out;
    if (shippedWorkload(pathOrName).isEmpty())
        return out;
    const QString source = QStringLiteral(":/pollux/published.csv");
    const CsvTable table = readCsvTable(readWhole(source, limits::kClusterWorkloadCsv), source,
                                        limits::kClusterWorkloadCsv,
                                        {QStringLiteral("policy"), QStringLiteral("workload"),
                                         QStringLiteral("average_jct_seconds")},
                                        QString(), QString());
    const QString workload = QStringLiteral("workload-") + pathOrName.mid(7);
    for (const CsvRecord &row : table.rows)
        if (table.field(row, QStringLiteral("workload")) == workload)
            out[table.field(row, QStringLiteral("policy"))] =
                number(table, row, source, QStringLiteral("average_jct_seconds"));
    return out;
}

} // namespace headroom::store
