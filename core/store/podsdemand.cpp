#include "podsdemand.h"

#include "csvreader.h"
#include "storeerror.h"

#include <QFile>
#include <QHash>
#include <limits>

namespace headroom::store {

namespace {

const QString kName = QStringLiteral("name");
const QString kGpus = QStringLiteral("num_gpu");
const QString kShare = QStringLiteral("gpu_milli");
const QString kSpec = QStringLiteral("gpu_spec");
const QString kQos = QStringLiteral("qos");
const QString kPhase = QStringLiteral("pod_phase");
const QString kCreation = QStringLiteral("creation_time");
const QString kDeletion = QStringLiteral("deletion_time");

constexpr qint64 kMaxGpusPerPod = 64;

[[noreturn]] void failField(const QString &source, int line, const QString &field, const QString &message)
{
    throw StoreError(QStringLiteral("%1: line %2: field \"%3\": %4").arg(source).arg(line).arg(field, message));
}

} // namespace

std::vector<engine::PodRecord> parsePodRecords(const QByteArray &csv, const QString &sourceName)
{
    const std::vector<CsvRecord> records = readCsvRecords(csv, sourceName);
    auto it = records.begin();
    while (it != records.end() && it->isBlank())
        ++it;
    if (it == records.end())
        throw StoreError(QStringLiteral("%1: the file is empty; expected a pod list with the header "
                                        "name,num_gpu,gpu_milli,...,creation_time,deletion_time")
                             .arg(sourceName));
    const CsvRecord &header = *it;
    QHash<QString, int> columns;
    for (int i = 0; i < header.fields.size(); ++i)
        columns.insert(header.fields.at(i).trimmed(), i);
    for (const QString &name : {kName, kGpus, kShare, kCreation, kDeletion})
        if (!columns.contains(name))
            failField(sourceName, header.line, name,
                      QStringLiteral("missing column; a pod list for demand needs name, num_gpu, "
                                     "gpu_milli, creation_time and deletion_time"));

    std::vector<engine::PodRecord> pods;
    for (++it; it != records.end(); ++it) {
        const CsvRecord &record = *it;
        if (record.isBlank())
            continue;
        if (record.fields.size() != header.fields.size())
            throw StoreError(QStringLiteral("%1: line %2: expected %3 fields as in the header, got %4")
                                 .arg(sourceName)
                                 .arg(record.line)
                                 .arg(header.fields.size())
                                 .arg(record.fields.size()));
        auto text = [&](const QString &name) {
            return columns.contains(name) ? record.fields.at(columns.value(name)) : QString();
        };
        auto number = [&](const QString &name, qint64 min, qint64 max) {
            const QString raw = text(name);
            bool ok = false;
            const qint64 value = raw.toLongLong(&ok);
            if (!ok)
                failField(sourceName, record.line, name,
                          QStringLiteral("expected a whole number, got \"%1\"").arg(raw));
            if (value < min || value > max)
                failField(sourceName, record.line, name,
                          QStringLiteral("%1 is outside %2..%3").arg(value).arg(min).arg(max));
            return value;
        };
        engine::PodRecord pod;
        pod.line = record.line;
        pod.name = text(kName).toStdString();
        if (pod.name.empty())
            failField(sourceName, record.line, kName, QStringLiteral("is empty"));
        pod.gpus = int(number(kGpus, 0, kMaxGpusPerPod));
        pod.gpuMilli = int(number(kShare, 0, 1000));
        pod.gpuSpec = text(kSpec).toStdString();
        pod.qos = text(kQos).toStdString();
        pod.phase = text(kPhase).toStdString();
        constexpr qint64 kMaxTime = std::numeric_limits<qint32>::max();
        pod.creationTime = number(kCreation, 0, kMaxTime);
        pod.deletionTime = number(kDeletion, 0, kMaxTime);
        if (pod.deletionTime < pod.creationTime)
            failField(sourceName, record.line, kDeletion,
                      QStringLiteral("%1 is before the creation time %2").arg(pod.deletionTime).arg(pod.creationTime));
        pods.push_back(std::move(pod));
    }
    if (pods.empty())
        throw StoreError(QStringLiteral("%1: no pods after the header on line %2").arg(sourceName).arg(header.line));
    return pods;
}

std::vector<engine::PodRecord> readPodRecords(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return parsePodRecords(file.readAll(), path);
}

} // namespace headroom::store
