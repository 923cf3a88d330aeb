#include "fragtrace.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include <QFile>
#include <QHash>
#include <limits>
#include <optional>

namespace headroom::store {

namespace {

const QString kNodeId = QStringLiteral("sn");
const QString kCpu = QStringLiteral("cpu_milli");
const QString kMemory = QStringLiteral("memory_mib");
const QString kNodeGpus = QStringLiteral("gpu");
const QString kModel = QStringLiteral("model");
const QString kTaskId = QStringLiteral("name");
const QString kTaskGpus = QStringLiteral("num_gpu");
const QString kShare = QStringLiteral("gpu_milli");
const QString kSpec = QStringLiteral("gpu_spec");
const QString kCreation = QStringLiteral("creation_time");
const QString kDeletion = QStringLiteral("deletion_time");

constexpr qint64 kMaxGpusPerNode = 64;

// One data row, its fields looked up by header name.
class Row {
public:
    Row(const CsvRecord &record, const QHash<QString, int> &columns, const QString &source)
        : m_record(record), m_columns(columns), m_source(source)
    {
    }

    bool has(const QString &column) const { return m_columns.contains(column); }
    QString text(const QString &column) const { return m_record.fields.at(m_columns.value(column)); }

    // A whole number in [min, max]; `emptyAs` stands for an empty field when given.
    qint64 number(const QString &column, qint64 min, qint64 max, std::optional<qint64> emptyAs = {}) const
    {
        const QString raw = text(column);
        if (raw.isEmpty() && emptyAs)
            return *emptyAs;
        bool ok = false;
        const qint64 value = raw.toLongLong(&ok);
        if (!ok)
            fail(column, QStringLiteral("expected a whole number, got \"%1\"").arg(shownValue(raw)));
        if (value < min || value > max)
            fail(column, QStringLiteral("%1 is outside %2..%3").arg(value).arg(min).arg(max));
        return value;
    }

    [[noreturn]] void fail(const QString &column, const QString &message) const
    {
        throw StoreError(QStringLiteral("%1: line %2: field \"%3\": %4")
                             .arg(m_source).arg(m_record.line).arg(column, message));
    }

private:
    const CsvRecord &m_record;
    const QHash<QString, int> &m_columns;
    QString m_source;
};

struct Table {
    QHash<QString, int> columns;
    std::vector<CsvRecord> rows;
};

// The header and the non-blank rows, each checked to have as many fields as the header.
Table readTable(const QByteArray &csv, const QString &source, const ImportLimits &limits, const QStringList &required,
                const QString &what)
{
    std::vector<CsvRecord> records = readCsvRecords(csv, source, limits);
    Table table;
    auto it = records.begin();
    while (it != records.end() && it->isBlank())
        ++it;
    if (it == records.end())
        throw StoreError(QStringLiteral("%1: no %2: the file is empty").arg(source, what));
    const CsvRecord &header = *it;
    for (int i = 0; i < header.fields.size(); ++i) {
        if (!header.fields.at(i).isEmpty() && table.columns.contains(header.fields.at(i)))
            throw StoreError(QStringLiteral("%1: line %2: column \"%3\" appears twice (fields %4 and %5)")
                                 .arg(source)
                                 .arg(header.line)
                                 .arg(shownValue(header.fields.at(i)))
                                 .arg(table.columns.value(header.fields.at(i)) + 1)
                                 .arg(i + 1));
        table.columns.insert(header.fields.at(i), i);
    }
    for (const QString &column : required) {
        if (!table.columns.contains(column))
            throw StoreError(QStringLiteral("%1: line %2: missing column \"%3\"; the header must have %4")
                                 .arg(source).arg(header.line).arg(column, required.join(QLatin1Char(','))));
    }
    for (++it; it != records.end(); ++it) {
        if (it->isBlank())
            continue;
        if (it->fields.size() != header.fields.size())
            failFieldCount(source, it->line, it->fields.size(), header.fields.size());
        table.rows.push_back(std::move(*it));
    }
    if (table.rows.empty())
        throw StoreError(QStringLiteral("%1: no %2: the file has only a header").arg(source, what));
    return table;
}

QByteArray readFile(const QString &path, const QString &what, const ImportLimits &limits)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("Cannot read the %1 file %2: %3").arg(what, path, file.errorString()));
    return readImportFile(file, path, limits);
}

} // namespace

std::vector<engine::frag::Node> parseFragNodes(const QByteArray &csv, const QString &sourceName)
{
    const Table table = readTable(csv, sourceName, limits::kNodeList, {kNodeId, kCpu, kMemory, kNodeGpus, kModel}, QStringLiteral("nodes"));
    std::vector<engine::frag::Node> nodes;
    nodes.reserve(table.rows.size());
    const qint64 maxValue = std::numeric_limits<qint64>::max();
    for (const CsvRecord &record : table.rows) {
        const Row row(record, table.columns, sourceName);
        engine::frag::Node node;
        node.id = row.text(kNodeId).toStdString();
        if (node.id.empty())
            row.fail(kNodeId, QStringLiteral("a node needs a name"));
        node.cpuMilli = row.number(kCpu, 0, maxValue);
        node.memoryMiB = row.number(kMemory, 0, maxValue);
        node.gpus = int(row.number(kNodeGpus, 0, kMaxGpusPerNode));
        node.gpuModel = row.text(kModel).toStdString();
        if (node.gpus > 0 && node.gpuModel.empty())
            row.fail(kModel, QStringLiteral("a node with GPUs needs its GPU model"));
        nodes.push_back(std::move(node));
    }
    return nodes;
}

std::vector<engine::frag::Node> readFragNodes(const QString &path)
{
    return parseFragNodes(readFile(path, QStringLiteral("node list"), limits::kNodeList), path);
}

std::vector<engine::frag::Task> parseFragTasks(const QByteArray &csv, const QString &sourceName)
{
    const Table table = readTable(csv, sourceName, limits::kPodList, {kTaskId, kCpu, kMemory, kTaskGpus, kShare}, QStringLiteral("tasks"));
    std::vector<engine::frag::Task> tasks;
    tasks.reserve(table.rows.size());
    const qint64 maxValue = std::numeric_limits<qint64>::max();
    for (const CsvRecord &record : table.rows) {
        const Row row(record, table.columns, sourceName);
        engine::frag::Task task;
        task.id = row.text(kTaskId).toStdString();
        if (task.id.empty())
            row.fail(kTaskId, QStringLiteral("a task needs a name"));
        task.cpuMilli = row.number(kCpu, 0, maxValue);
        task.memoryMiB = row.number(kMemory, 0, maxValue);
        task.gpus = int(row.number(kTaskGpus, 0, kMaxGpusPerNode));
        task.gpuMilli = int(row.number(kShare, 0, engine::frag::kMilliPerGpu));
        if (task.gpus == 0 && task.gpuMilli != 0)
            row.fail(kShare, QStringLiteral("a task without GPUs must have gpu_milli 0, got %1").arg(task.gpuMilli));
        if (task.gpus > 0 && task.gpuMilli == 0)
            row.fail(kShare, QStringLiteral("a task with %1 GPU(s) needs a share of 1..1000").arg(task.gpus));
        if (row.has(kSpec)) {
            const QString spec = row.text(kSpec);
            if (!spec.isEmpty()) {
                for (const QString &model : spec.split(QLatin1Char('|'))) {
                    if (model.trimmed().isEmpty())
                        row.fail(kSpec, QStringLiteral("empty GPU model in \"%1\"").arg(shownValue(spec)));
                    task.allowedModels.push_back(model.trimmed().toStdString());
                }
            }
        }
        if (row.has(kCreation))
            task.creationTime = row.number(kCreation, 0, maxValue, 0);
        if (row.has(kDeletion))
            task.deletionTime = row.number(kDeletion, 0, maxValue, 0);
        tasks.push_back(std::move(task));
    }
    return tasks;
}

std::vector<engine::frag::Task> readFragTasks(const QString &path)
{
    return parseFragTasks(readFile(path, QStringLiteral("task list"), limits::kPodList), path);
}

} // namespace headroom::store
