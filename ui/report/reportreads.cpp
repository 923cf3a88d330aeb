#include "reportreads.h"

#include "store/catalog/catalogjson.h"
#include "store/common/workspace.h"
#include "store/inference/servingtables.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QObject>

namespace headroom::ui {

namespace {

QString digest(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

QString digest(const QJsonObject &object)
{
    return digest(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// The digest of one workspace entry named "model:<id>", "gpu:<id>", "serving", "series:<name>"
// or "rate_card:<key>"; empty when the entry is gone.
QString entryDigest(const store::Workspace &workspace, const QString &entry)
{
    const QString name = entry.section(QLatin1Char(':'), 1);
    if (entry == QLatin1String("serving"))
        return digest(store::servingAssumptionsToJson(workspace.servingAssumptions()));
    if (entry.startsWith(QLatin1String("model:"))) {
        const auto model = workspace.model(name);
        return model ? digest(store::modelToJson(*model)) : QString();
    }
    if (entry.startsWith(QLatin1String("gpu:"))) {
        const auto gpu = workspace.gpu(name);
        return gpu ? digest(store::gpuToJson(*gpu)) : QString();
    }
    if (entry.startsWith(QLatin1String("series:"))) {
        const auto series = workspace.demandSeries(name);
        if (!series)
            return {};
        QByteArray bytes = QByteArray::number(qint64(series->startEpochSeconds));
        for (const engine::Decimal &gpus : series->gpus)
            bytes += ',' + QByteArray::fromStdString(gpus.toString());
        return digest(bytes);
    }
    if (entry.startsWith(QLatin1String("rate_card:"))) {
        const auto card = workspace.rateCard(name);
        if (!card)
            return {};
        QByteArray bytes = QByteArray::fromStdString(card->key() + ' ' + card->currency);
        for (const engine::Decimal &value : {card->onDemand, card->reserved1y, card->reserved1yUpfront, card->reserved3y,
                                             card->reserved3yUpfront, card->spot, card->spotInterruptionRate})
            bytes += ' ' + QByteArray::fromStdString(value.toString());
        bytes += ' ' + QByteArray::number(card->reservationLeadWeeks);
        return digest(bytes);
    }
    return {};
}

// How the stamp names an entry.
QString entryName(const QString &entry)
{
    const QString name = entry.section(QLatin1Char(':'), 1);
    if (entry == QLatin1String("serving"))
        return QObject::tr("the serving assumptions");
    if (entry.startsWith(QLatin1String("model:")))
        return QObject::tr("model \"%1\"").arg(name);
    if (entry.startsWith(QLatin1String("gpu:")))
        return QObject::tr("GPU \"%1\"").arg(name);
    if (entry.startsWith(QLatin1String("series:")))
        return QObject::tr("demand series \"%1\"").arg(name);
    return QObject::tr("rate card \"%1\"").arg(name);
}

QJsonObject fileStamp(const QString &path)
{
    const QFileInfo info(path);
    return {{QStringLiteral("path"), path},
            {QStringLiteral("size"), double(info.exists() ? info.size() : -1)},
            {QStringLiteral("modified"), info.exists() ? info.lastModified().toUTC().toString(Qt::ISODateWithMs) : QString()}};
}

} // namespace

QJsonObject withRunReads(QJsonObject source, const store::Workspace &workspace, const RunReads &reads)
{
    QStringList entries;
    for (const QString &id : reads.models)
        entries << QStringLiteral("model:") + id;
    for (const QString &id : reads.gpus)
        entries << QStringLiteral("gpu:") + id;
    if (reads.servingAssumptions)
        entries << QStringLiteral("serving");
    for (const QString &name : reads.demandSeries)
        entries << QStringLiteral("series:") + name;
    for (const QString &key : reads.rateCards)
        entries << QStringLiteral("rate_card:") + key;
    source = withFileReads(std::move(source), reads.files);
    QJsonObject digests = source.value(QStringLiteral("reads")).toObject();
    for (const QString &entry : entries)
        digests.insert(entry, entryDigest(workspace, entry));
    source.insert(QStringLiteral("reads"), digests);
    return source;
}

QJsonObject withFileReads(QJsonObject source, const QStringList &files)
{
    QJsonArray stamps = source.value(QStringLiteral("files")).toArray();
    for (const QString &path : files)
        if (!path.isEmpty())
            stamps << fileStamp(path);
    source.insert(QStringLiteral("reads"), source.value(QStringLiteral("reads")).toObject());
    source.insert(QStringLiteral("files"), stamps);
    return source;
}

std::optional<store::ReportItem> unchangedRunItem(const store::Workspace &workspace, const QJsonObject &source,
                                                  const store::ReportItem &stored, QString *problem)
{
    problem->clear();
    if (!source.contains(QStringLiteral("reads")))
        return std::nullopt;
    const QJsonObject digests = source.value(QStringLiteral("reads")).toObject();
    for (auto it = digests.begin(); it != digests.end(); ++it) {
        const QString now = entryDigest(workspace, it.key());
        if (now.isEmpty()) {
            *problem = QObject::tr("%1 is no longer in the workspace").arg(entryName(it.key()));
            return std::nullopt;
        }
        if (now != it.value().toString()) {
            *problem = QObject::tr("%1 changed since the run; run it again").arg(entryName(it.key()));
            return std::nullopt;
        }
    }
    for (const QJsonValue &value : source.value(QStringLiteral("files")).toArray()) {
        const QJsonObject then = value.toObject();
        const QString path = then.value(QStringLiteral("path")).toString();
        const QJsonObject now = fileStamp(path);
        if (now.value(QStringLiteral("size")).toDouble() < 0) {
            *problem = QObject::tr("the file %1 is no longer there").arg(QFileInfo(path).fileName());
            return std::nullopt;
        }
        if (now != then) {
            *problem = QObject::tr("the file %1 changed since the run; run it again").arg(QFileInfo(path).fileName());
            return std::nullopt;
        }
    }
    return stored;
}

} // namespace headroom::ui
