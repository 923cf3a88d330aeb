#include "claimscsv.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include <QDateTime>
#include <QFile>
#include <cmath>
#include <unordered_map>

namespace headroom::store {

namespace {

const QStringList kRequired = {QStringLiteral("tenant"), QStringLiteral("resource_id"), QStringLiteral("resource_gpus"),
                               QStringLiteral("gpu"),    QStringLiteral("mode"),        QStringLiteral("start"),
                               QStringLiteral("end")};

qint64 parseTime(const QString &source, int line, const QString &column, const QString &text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (text.isEmpty() || !time.isValid() || time.timeSpec() == Qt::LocalTime)
        failCsvField(source, line, column,
                     QStringLiteral("'%1' is not an ISO 8601 time with Z or an offset, e.g. 2026-03-01T00:00:00Z")
                         .arg(shownValue(text)));
    return time.toSecsSinceEpoch();
}

qint64 parseCount(const QString &source, int line, const QString &column, const QString &text, qint64 min, qint64 max)
{
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    if (!ok || value < min || value > max)
        failCsvField(source, line, column,
                     QStringLiteral("'%1' is not a whole number from %2 to %3").arg(shownValue(text)).arg(min).arg(max));
    return value;
}

std::optional<engine::SharingMode> parseMode(const QString &text)
{
    using engine::SharingMode;
    for (SharingMode mode : {SharingMode::Mig, SharingMode::TimeSlice, SharingMode::Mps, SharingMode::OverCommit,
                             SharingMode::Exclusive})
        if (text.compare(QString::fromStdString(engine::toString(mode)), Qt::CaseInsensitive) == 0)
            return mode;
    return std::nullopt;
}

} // namespace

ClaimsFile parseClaimsCsv(const QByteArray &csv, const QString &source)
{
    const CsvTable table = readCsvTable(csv, source, limits::kClaimsCsv, kRequired,
                                        QStringLiteral("a claims file starts with a header such as "
                                                       "tenant,resource_id,resource_gpus,gpu,mode,start,end"),
                                        QStringLiteral("see core/store/README.md, \"GPU claims CSV\""));
    if (table.rows.empty())
        throw StoreError(QStringLiteral("%1: the file has a header and no claims").arg(source));
    ClaimsFile file;
    std::unordered_map<std::string, size_t> resourceIndex;
    for (const CsvRecord &row : table.rows) {
        const int line = row.line;
        const auto field = [&](const char *name) { return table.field(row, QLatin1String(name)); };
        const auto fail = [&](const char *name, const QString &message) {
            failCsvField(source, line, QLatin1String(name), message);
        };
        engine::GpuClaim claim;
        claim.line = line;
        claim.tenant = field("tenant").toStdString();
        if (claim.tenant.empty())
            fail("tenant", QStringLiteral("empty; every claim names its tenant"));
        claim.resource = field("resource_id").toStdString();
        if (claim.resource.empty())
            fail("resource_id", QStringLiteral("empty; name the machine as the bill's ResourceId does"));
        const int gpus = int(parseCount(source, line, QStringLiteral("resource_gpus"), field("resource_gpus"), 1, 64));
        const std::string gpuType = field("gpu_type").toLower().toStdString();
        auto [it, added] = resourceIndex.emplace(claim.resource, file.resources.size());
        if (added) {
            engine::PoolResource resource;
            resource.id = claim.resource;
            resource.gpus = gpus;
            resource.gpuType = gpuType;
            file.resources.push_back(resource);
        } else {
            const engine::PoolResource &resource = file.resources[it->second];
            if (resource.gpus != gpus)
                fail("resource_gpus", QStringLiteral("%1 GPUs, but an earlier row gives %2 for %3")
                                          .arg(gpus).arg(resource.gpus).arg(QString::fromStdString(resource.id)));
            if (resource.gpuType != gpuType)
                fail("gpu_type", QStringLiteral("'%1', but an earlier row gives '%2' for %3")
                                     .arg(shownValue(QString::fromStdString(gpuType)),
                                          shownValue(QString::fromStdString(resource.gpuType)),
                                          QString::fromStdString(resource.id)));
        }
        claim.gpu = int(parseCount(source, line, QStringLiteral("gpu"), field("gpu"), 0, gpus - 1));
        const auto mode = parseMode(field("mode"));
        if (!mode)
            fail("mode", QStringLiteral("'%1' is not one of mig, time-slice, mps, over-commit, exclusive")
                             .arg(shownValue(field("mode"))));
        claim.mode = *mode;
        claim.start = parseTime(source, line, QStringLiteral("start"), field("start"));
        claim.end = parseTime(source, line, QStringLiteral("end"), field("end"));
        if (claim.end <= claim.start)
            fail("end", QStringLiteral("'%1' is not after the start").arg(shownValue(field("end"))));
        claim.profile = field("profile").toStdString();
        if (claim.mode == engine::SharingMode::Mig) {
            if (claim.profile.empty())
                fail("profile", QStringLiteral("empty; a MIG claim names its profile, e.g. 1g.10gb"));
            if (gpuType.empty())
                fail("gpu_type", QStringLiteral("empty; a MIG claim needs the GPU type for its profile table"));
        }
        if (claim.mode == engine::SharingMode::TimeSlice || claim.mode == engine::SharingMode::Mps) {
            const auto share = engine::Decimal::parse(field("share").toStdString());
            if (!share || share->isNegative() || share->isZero() || *share > engine::Decimal::fromInt(1))
                fail("share", QStringLiteral("'%1' is not a share of the GPU in (0, 1]").arg(shownValue(field("share"))));
            if (share->units() % 1000 != 0)
                fail("share", QStringLiteral("'%1' has more than 6 decimals").arg(shownValue(field("share"))));
            claim.share = *share;
        }
        if (claim.mode == engine::SharingMode::OverCommit) {
            bool ok = false;
            claim.residentGiB = field("resident_gib").toDouble(&ok);
            if (!ok || !std::isfinite(claim.residentGiB) || claim.residentGiB <= 0 || claim.residentGiB > 1e6)
                fail("resident_gib", QStringLiteral("'%1' is not a resident memory in GiB above 0")
                                         .arg(shownValue(field("resident_gib"))));
            if (gpuType.empty())
                fail("gpu_type", QStringLiteral("empty; an over-commit claim needs the GPU type for its memory"));
        }
        claim.nameSpace = field("namespace").toStdString();
        claim.model = field("model").toStdString();
        claim.deployment = field("deployment").toStdString();
        file.claims.push_back(std::move(claim));
    }
    return file;
}

ClaimsFile readClaimsCsv(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return parseClaimsCsv(readImportFile(file, path, limits::kClaimsCsv), path);
}

} // namespace headroom::store
