#include "podsdemand.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include <QFile>
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

} // namespace

std::vector<engine::PodRecord> parsePodRecords(const QByteArray &csv, const QString &sourceName)
{
    const CsvTable table = readCsvTable(
        csv, sourceName, limits::kPodList, {kName, kGpus, kShare, kCreation, kDeletion},
        QStringLiteral("expected a pod list with the header name,num_gpu,gpu_milli,...,creation_time,deletion_time"),
        QStringLiteral("a pod list for demand needs name, num_gpu, gpu_milli, creation_time and deletion_time"));

    std::vector<engine::PodRecord> pods;
    for (const CsvRecord &record : table.rows) {
        auto text = [&](const QString &name) { return table.field(record, name); };
        auto number = [&](const QString &name, qint64 min, qint64 max) {
            const QString raw = text(name);
            bool ok = false;
            const qint64 value = raw.toLongLong(&ok);
            if (!ok)
                failCsvField(sourceName, record.line, name,
                          QStringLiteral("expected a whole number, got \"%1\"").arg(shownValue(raw)));
            if (value < min || value > max)
                failCsvField(sourceName, record.line, name,
                          QStringLiteral("%1 is outside %2..%3").arg(value).arg(min).arg(max));
            return value;
        };
        engine::PodRecord pod;
        pod.line = record.line;
        pod.name = text(kName).toStdString();
        if (pod.name.empty())
            failCsvField(sourceName, record.line, kName, QStringLiteral("is empty"));
        pod.gpus = int(number(kGpus, 0, kMaxGpusPerPod));
        pod.gpuMilli = int(number(kShare, 0, 1000));
        pod.gpuSpec = text(kSpec).toStdString();
        pod.qos = text(kQos).toStdString();
        pod.phase = text(kPhase).toStdString();
        constexpr qint64 kMaxTime = std::numeric_limits<qint32>::max();
        pod.creationTime = number(kCreation, 0, kMaxTime);
        pod.deletionTime = number(kDeletion, 0, kMaxTime);
        if (pod.deletionTime < pod.creationTime)
            failCsvField(sourceName, record.line, kDeletion,
                      QStringLiteral("%1 is before the creation time %2").arg(pod.deletionTime).arg(pod.creationTime));
        pods.push_back(std::move(pod));
    }
    if (pods.empty())
        throw StoreError(QStringLiteral("%1: no pods after the header on line %2").arg(sourceName).arg(table.header.line));
    return pods;
}

std::vector<engine::PodRecord> readPodRecords(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return parsePodRecords(readImportFile(file, path, limits::kPodList), path);
}

} // namespace headroom::store
