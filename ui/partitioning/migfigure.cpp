#include "migfigure.h"

#include "common/format.h"
#include "engine/common/errors.h"
#include "engine/inference/kv.h"
#include "report/reportsnapshot.h"
#include "store/common/workspace.h"
#include "store/partitioning/migprofiles.h"

#include <QJsonArray>
#include <QObject>
#include <algorithm>

namespace headroom::ui {

namespace {

constexpr char kMigSource[] = "mig-layout";

QJsonObject migSource(const MigFigureInputs &in)
{
    QJsonArray tenants;
    for (const engine::Tenant &t : in.tenants)
        tenants.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(t.name)},
                                   {QStringLiteral("memory_gib"), t.memoryGiB},
                                   {QStringLiteral("compute_slices"), t.computeSlices},
                                   {QStringLiteral("replicas"), t.replicas},
                                   {QStringLiteral("isolation"), QString::fromStdString(t.isolation)}});
    QJsonArray edited;
    for (const auto &[gpu, layout] : in.editedLayouts)
        edited.append(QJsonObject{{QStringLiteral("gpu"), gpu}, {QStringLiteral("layout"), QString::fromStdString(layout)}});
    return {{QStringLiteral("kind"), QLatin1String(kMigSource)},
            {QStringLiteral("gpu"), in.gpuId},
            {QStringLiteral("tenants"), tenants},
            {QStringLiteral("edited"), edited}};
}

} // namespace

QString migLayoutCaption(const engine::PackResult &pack)
{
    if (pack.gpus <= 0)
        return {};
    const int64_t saved = std::max<int64_t>(pack.gpusWithoutMig - pack.gpus, 0);
    return QObject::tr("%1 with MIG instead of %2 with one model per GPU (%3 saved; %4, lower bound %5); slice "
                       "memory used by tenants: %6 %.")
        .arg(formatGpus(pack.gpus), formatGpus(pack.gpusWithoutMig), formatCount(saved),
             pack.optimal ? QObject::tr("proven minimum") : QObject::tr("heuristic"), formatCount(pack.lowerBound))
        .arg(pack.memoryUtilization * 100, 0, 'f', 0);
}

ChartFigure migLayoutFigure(const MigLayoutPicture &picture, const QString &caption,
                            const std::optional<MigFigureInputs> &in)
{
    MigLayoutPicture shown = picture;
    shown.selected = -1;
    ChartFigure f;
    f.title = shown.title;
    f.caption = caption;
    f.paint = [shown](QPainter &painter, const QRectF &rect, const FigureInk &ink) {
        paintMigLayouts(painter, rect, shown, ink);
    };
    if (in)
        f.source = migSource(*in);
    return f;
}

MigLayoutPicture migPackPicture(const engine::MigGpuProfiles &profiles, const QString &gpuName,
                                const engine::PackResult &pack)
{
    return {QObject::tr("MIG layout to provision: %1 × %2").arg(pack.gpus).arg(gpuName), &profiles, pack.layouts, -1};
}

bool replaceLayout(const engine::MigGpuProfiles &profiles, std::vector<engine::MigLayout> &layouts, int gpu,
                   const std::string &text, QString *reason)
{
    if (gpu < 0 || gpu >= int(layouts.size())) {
        *reason = QObject::tr("click a GPU of the layout first");
        return false;
    }
    try {
        engine::MigLayout parsed = engine::parseLayout(text);
        const engine::LayoutCheck check = engine::validateLayout(profiles, parsed);
        if (!check.valid) {
            *reason = QString::fromStdString(check.reason);
            return false;
        }
        // Keep the tenant labels of instances that stay where they were.
        for (engine::MigInstance &instance : parsed)
            for (const engine::MigInstance &old : layouts[size_t(gpu)])
                if (old.profile == instance.profile && old.start == instance.start)
                    instance.tenant = old.tenant;
        layouts[size_t(gpu)] = parsed;
    } catch (const engine::InputError &e) {
        *reason = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

std::optional<store::ReportItem> partitioningReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                        QString *problem)
{
    problem->clear();
    if (source.value(QStringLiteral("kind")).toString() != QLatin1String(kMigSource))
        return std::nullopt;
    MigFigureInputs in;
    in.gpuId = source.value(QStringLiteral("gpu")).toString();
    const engine::MigGpuProfiles *profiles = store::shippedMigProfiles(in.gpuId);
    const auto gpu = workspace.gpu(in.gpuId);
    if (!profiles || !gpu) {
        *problem = QObject::tr("GPU \"%1\" is no longer in the catalog with MIG profiles").arg(in.gpuId);
        return std::nullopt;
    }
    for (const QJsonValue &value : source.value(QStringLiteral("tenants")).toArray()) {
        const QJsonObject t = value.toObject();
        engine::Tenant tenant;
        tenant.name = t.value(QStringLiteral("name")).toString().toStdString();
        tenant.memoryGiB = t.value(QStringLiteral("memory_gib")).toDouble();
        tenant.computeSlices = t.value(QStringLiteral("compute_slices")).toInt();
        tenant.replicas = t.value(QStringLiteral("replicas")).toInt(1);
        tenant.isolation = t.value(QStringLiteral("isolation")).toString().toStdString();
        in.tenants.push_back(tenant);
    }
    for (const QJsonValue &value : source.value(QStringLiteral("edited")).toArray())
        in.editedLayouts[value.toObject().value(QStringLiteral("gpu")).toInt()] =
            value.toObject().value(QStringLiteral("layout")).toString().toStdString();
    engine::PackResult pack;
    try {
        pack = engine::packTenants(*profiles, double(gpu->memoryBytes) / double(engine::kGiB), in.tenants);
    } catch (const engine::InputError &e) {
        *problem = QObject::tr("its tenants no longer pack: %1").arg(QString::fromUtf8(e.what()));
        return std::nullopt;
    }
    MigLayoutPicture picture = migPackPicture(*profiles, QString::fromStdString(gpu->name), pack);
    for (const auto &[index, layout] : in.editedLayouts) {
        QString reason;
        if (!replaceLayout(*profiles, picture.layouts, index, layout, &reason)) {
            *problem = QObject::tr("the layout edited by hand on GPU %1 no longer applies (%2)").arg(index + 1).arg(reason);
            return std::nullopt;
        }
    }
    return reportItemFromFigure(migLayoutFigure(picture, migLayoutCaption(pack), in));
}

} // namespace headroom::ui
