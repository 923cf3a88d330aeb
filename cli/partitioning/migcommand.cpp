#include "migcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "store/common/jsonsupport.h"
#include "cli/catalog/lookup.h"

#include "engine/common/errors.h"
#include "engine/inference/kv.h"
#include "engine/partitioning/mig.h"
#include "store/partitioning/migprofiles.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <cmath>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom mig validate --gpu ID --layout LAYOUT [--json]
       headroom mig layouts --gpu ID [--json]
       headroom mig pack --gpu ID --tenants FILE.json [--json]

NVIDIA MIG partitioning of one GPU type (A100 40GB/80GB, H100 SXM/PCIe/NVL, H200, B200):
8 memory slices and 7 compute slices; each profile has a size in slices and allowed start
positions (the tables in data/mig_profiles.json).

  validate   checks a layout: every instance on an allowed start, memory slices not
             overlapping, at most one +me instance, at most the profile's instances, compute
             slices within 7. Prints {"valid": bool, "reason": string}; exit 0 either way.
  layouts    every distinct valid layout to which no instance can be added:
             {"layouts": [[{"profile", "start"}]]}.
  pack       places tenants on the fewest GPUs, each replica on the smallest profile that
             holds its memory and compute need: {"gpus", "gpus_without_mig", "layouts":
             [[{"profile", "start", "tenant"}]], "oom_warnings", "optimal", "lower_bound",
             "memory_utilization"}. Exact up to 64 GPUs; beyond, first-fit decreasing with
             the lower bound reported. Instances of a GPU are listed in creation order,
             largest first. Regulated tenants get GPUs of their own.

options:
  --gpu ID          catalog GPU id with a MIG table (e.g. h100-sxm)
  --layout LAYOUT   instances as PROFILE@START separated by commas, e.g.
                    "3g.40gb@0,2g.20gb@4,1g.10gb@6" (START is the first memory slice)
  --tenants FILE    JSON array of tenants: [{"name": str, "memory_gib": number,
                    "compute_slices": int (optional, 0-7), "replicas": int (optional, >= 1),
                    "isolation": "none"|"soft"|"regulated" (optional)}]
  --json            print JSON instead of text

A tenant's memory need is in GiB (2^30 bytes); profile sizes are GB (10^9 bytes) as NVIDIA
names them, so 1g.10gb holds 9.31 GiB. A tenant within 10 % of its slice, or larger than
the largest slice, is listed as an OOM warning; one larger than the whole GPU is an error.
)";

const engine::MigGpuProfiles &migTable(const Args &args)
{
    const auto id = args.text(QStringLiteral("gpu"));
    if (!id)
        throw UsageError(QStringLiteral("--gpu is required"));
    if (const engine::MigGpuProfiles *gpu = store::shippedMigProfiles(id->toLower()))
        return *gpu;
    QStringList known;
    for (const engine::MigGpuProfiles &gpu : store::shippedMigProfiles())
        known << QString::fromStdString(gpu.gpuId);
    throw UsageError(QStringLiteral("--gpu: no MIG profiles for '%1'; GPUs with MIG: %2")
                         .arg(*id, known.join(QLatin1String(", "))));
}

QJsonArray layoutJson(const engine::MigLayout &layout, bool withTenant)
{
    QJsonArray instances;
    for (const engine::MigInstance &instance : layout) {
        QJsonObject object{{QStringLiteral("profile"), QString::fromStdString(instance.profile)},
                           {QStringLiteral("start"), instance.start}};
        if (withTenant)
            object.insert(QStringLiteral("tenant"), QString::fromStdString(instance.tenant));
        instances.append(object);
    }
    return instances;
}

// Compute and memory slices a layout uses.
std::pair<int, int> slicesUsed(const engine::MigGpuProfiles &gpu, const engine::MigLayout &layout)
{
    int compute = 0, memory = 0;
    for (const engine::MigInstance &instance : layout) {
        if (const engine::MigProfile *p = gpu.find(instance.profile)) {
            compute += p->computeSlices;
            memory += p->memorySlices;
        }
    }
    return {compute, memory};
}

QString readableLayout(const engine::MigLayout &layout)
{
    return QString::fromStdString(engine::formatLayout(layout)).replace(QLatin1Char(','), QLatin1String(", "));
}

int runValidate(const Args &args, Context &context)
{
    const engine::MigGpuProfiles &gpu = migTable(args);
    const auto text = args.text(QStringLiteral("layout"));
    if (!text)
        throw UsageError(QStringLiteral("--layout is required, e.g. \"3g.40gb@0,2g.20gb@4,1g.10gb@6\""));
    engine::MigLayout layout;
    try {
        layout = engine::parseLayout(text->toStdString());
    } catch (const engine::InputError &e) {
        throw UsageError(QStringLiteral("--layout: ") + QString::fromStdString(e.what()));
    }
    for (const engine::MigInstance &instance : layout) {
        if (!gpu.find(instance.profile))
            throw UsageError(QStringLiteral("--layout: unknown profile '%1' for %2; known: %3")
                                 .arg(QString::fromStdString(instance.profile), QString::fromStdString(gpu.gpuId),
                                      QString::fromStdString(gpu.profileNames())));
    }
    const engine::LayoutCheck check = engine::validateLayout(gpu, layout);

    if (args.has(QStringLiteral("json"))) {
        context.out() << jsonText(QJsonObject{{QStringLiteral("valid"), check.valid},
                                              {QStringLiteral("reason"), QString::fromStdString(check.reason)}});
        return 0;
    }
    if (check.valid) {
        const auto [compute, memory] = slicesUsed(gpu, layout);
        context.out() << QStringLiteral("valid: %1 on %2 uses %3 of %4 compute slices and %5 of %6 memory slices\n")
                             .arg(readableLayout(layout), QString::fromStdString(gpu.gpuId))
                             .arg(compute).arg(gpu.computeSlices).arg(memory).arg(gpu.memorySlices);
    } else {
        context.out() << QStringLiteral("invalid: %1\n").arg(QString::fromStdString(check.reason));
    }
    return 0;
}

int runLayouts(const Args &args, Context &context)
{
    const engine::MigGpuProfiles &gpu = migTable(args);
    const std::vector<engine::MigLayout> layouts = engine::maximalLayouts(gpu);
    if (args.has(QStringLiteral("json"))) {
        QJsonArray all;
        for (const engine::MigLayout &layout : layouts)
            all.append(layoutJson(layout, false));
        context.out() << jsonText(QJsonObject{{QStringLiteral("layouts"), all}});
        return 0;
    }
    using A = Table::Align;
    Table table({{QStringLiteral("#"), A::Right}, {QStringLiteral("instances"), A::Right},
                 {QStringLiteral("compute"), A::Right}, {QStringLiteral("memory"), A::Right},
                 {QStringLiteral("GB"), A::Right}, {QStringLiteral("layout (profile@start)")}});
    for (size_t i = 0; i < layouts.size(); ++i) {
        const auto [compute, memory] = slicesUsed(gpu, layouts[i]);
        double gb = 0;
        for (const engine::MigInstance &instance : layouts[i])
            gb += gpu.find(instance.profile)->memoryGB;
        table.addRow({QString::number(i + 1), QString::number(layouts[i].size()),
                      QStringLiteral("%1/%2").arg(compute).arg(gpu.computeSlices),
                      QStringLiteral("%1/%2").arg(memory).arg(gpu.memorySlices), formatDecimal(gb, 1),
                      readableLayout(layouts[i])});
    }
    context.out() << QStringLiteral("%1 distinct maximal layouts of %2 (memory in GB as NVIDIA names the profiles)\n")
                         .arg(layouts.size()).arg(QString::fromStdString(gpu.gpuId));
    table.write(context.out());
    return 0;
}

// Reads the tenants file; every problem names the file, the tenant and the field.
std::vector<engine::Tenant> readTenants(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw UsageError(QStringLiteral("--tenants: cannot read '%1': %2").arg(path, file.errorString()));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError)
        throw UsageError(
            QStringLiteral("%1: not valid JSON at byte %2: %3").arg(path).arg(error.offset).arg(store::jsonProblem(error)));
    if (!document.isArray())
        throw UsageError(QStringLiteral("%1: expected an array of tenants [{\"name\", \"memory_gib\", ...}]").arg(path));
    const QJsonArray array = document.array();
    if (array.isEmpty())
        throw UsageError(QStringLiteral("%1: no tenants to pack (the list is empty)").arg(path));

    const QStringList keys = {QStringLiteral("name"), QStringLiteral("memory_gib"), QStringLiteral("compute_slices"),
                              QStringLiteral("replicas"), QStringLiteral("isolation")};
    std::vector<engine::Tenant> tenants;
    for (qsizetype i = 0; i < array.size(); ++i) {
        QString where = QStringLiteral("%1: tenant %2").arg(path).arg(i);
        if (!array.at(i).isObject())
            throw UsageError(where + QStringLiteral(": expected an object"));
        const QJsonObject o = array.at(i).toObject();
        if (o.value(QStringLiteral("name")).isString())
            where += QStringLiteral(" (\"%1\")").arg(o.value(QStringLiteral("name")).toString());
        const auto fail = [&](const QString &field, const QString &message) {
            throw UsageError(QStringLiteral("%1: field \"%2\": %3").arg(where, field, message));
        };
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!keys.contains(it.key()))
                throw UsageError(QStringLiteral("%1: unknown field \"%2\" (fields are: %3)")
                                     .arg(where, it.key(), keys.join(QLatin1String(", "))));
        }
        engine::Tenant t;
        const QJsonValue name = o.value(QStringLiteral("name"));
        if (!name.isString() || name.toString().trimmed().isEmpty())
            fail(QStringLiteral("name"), QStringLiteral("required, a non-empty string"));
        t.name = name.toString().toStdString();
        const QJsonValue memory = o.value(QStringLiteral("memory_gib"));
        if (!memory.isDouble() || !(memory.toDouble() > 0))
            fail(QStringLiteral("memory_gib"), QStringLiteral("required, a number of GiB above 0"));
        t.memoryGiB = memory.toDouble();
        const auto wholeNumber = [&](const QString &field, int min, int max, int fallback) {
            const QJsonValue value = o.value(field);
            if (value.isUndefined())
                return fallback;
            const double x = value.toDouble(-1);
            if (!value.isDouble() || x != std::trunc(x) || x < min || x > max)
                fail(field, QStringLiteral("a whole number from %1 to %2").arg(min).arg(max));
            return int(x);
        };
        t.computeSlices = wholeNumber(QStringLiteral("compute_slices"), 0, 7, 0);
        t.replicas = wholeNumber(QStringLiteral("replicas"), 1, 100000, 1);
        const QJsonValue isolation = o.value(QStringLiteral("isolation"));
        if (!isolation.isUndefined()) {
            const QString text = isolation.toString();
            if (text != QLatin1String("none") && text != QLatin1String("soft") && text != QLatin1String("regulated"))
                fail(QStringLiteral("isolation"), QStringLiteral("one of none, soft, regulated"));
            t.isolation = text.toStdString();
        }
        tenants.push_back(std::move(t));
    }
    return tenants;
}

void writePack(QTextStream &out, const engine::MigGpuProfiles &gpu, const engine::PackResult &r)
{
    const QString gpuId = QString::fromStdString(gpu.gpuId);
    const QString proof = r.optimal ? QStringLiteral("the minimum")
                                    : QStringLiteral("heuristic; lower bound %1").arg(formatInteger(r.lowerBound));
    writeFields(out, {
        {QStringLiteral("GPUs with MIG"), QStringLiteral("%1 (%2)").arg(countOf(r.gpus, gpuId, gpuId), proof)},
        {QStringLiteral("GPUs without MIG"), QStringLiteral("%1 (one replica per GPU)").arg(formatInteger(r.gpusWithoutMig))},
        {QStringLiteral("memory utilization"),
         QStringLiteral("%1 % of the slice memory provisioned for tenants").arg(formatDecimal(100 * r.memoryUtilization, 1, true))},
    });
    out << '\n';
    using A = Table::Align;
    Table tenants({{QStringLiteral("tenant")}, {QStringLiteral("need GiB"), A::Right},
                   {QStringLiteral("profile")}, {QStringLiteral("slice GiB"), A::Right},
                   {QStringLiteral("replicas"), A::Right}});
    for (const engine::TenantFit &f : r.fits) {
        tenants.addRow({QString::fromStdString(f.tenant), formatDecimal(f.needGiB, 2, true),
                        QString::fromStdString(f.profile), formatDecimal(f.sliceGiB, 2, true),
                        QString::number(f.replicas)});
    }
    tenants.write(out);
    out << '\n';
    Table layouts({{QStringLiteral("GPU"), A::Right}, {QStringLiteral("instances in creation order (profile@start tenant)")}});
    for (size_t g = 0; g < r.layouts.size(); ++g) {
        QStringList parts;
        for (const engine::MigInstance &instance : r.layouts[g])
            parts << QStringLiteral("%1@%2 %3").arg(QString::fromStdString(instance.profile)).arg(instance.start)
                         .arg(QString::fromStdString(instance.tenant));
        layouts.addRow({QString::number(g + 1), parts.join(QLatin1String(", "))});
    }
    layouts.write(out);
    for (const std::string &warning : r.oomWarnings)
        out << "warning: " << QString::fromStdString(warning) << '\n';
}

int runPack(const Args &args, Context &context)
{
    const engine::MigGpuProfiles &gpu = migTable(args);
    const auto path = args.text(QStringLiteral("tenants"));
    if (!path)
        throw UsageError(QStringLiteral("--tenants FILE.json is required"));
    const std::vector<engine::Tenant> tenants = readTenants(*path);
    const engine::GpuSpec spec = findGpu(context.workspace(), QString::fromStdString(gpu.gpuId));
    const double gpuMemoryGiB = double(spec.memoryBytes) / double(engine::kGiB);
    const engine::PackResult r = engine::packTenants(gpu, gpuMemoryGiB, tenants);

    if (args.has(QStringLiteral("json"))) {
        QJsonArray layouts;
        for (const engine::MigLayout &layout : r.layouts)
            layouts.append(layoutJson(layout, true));
        QJsonArray warnings;
        for (const std::string &warning : r.oomWarnings)
            warnings.append(QString::fromStdString(warning));
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("gpus"), qint64(r.gpus)},
            {QStringLiteral("gpus_without_mig"), qint64(r.gpusWithoutMig)},
            {QStringLiteral("layouts"), layouts},
            {QStringLiteral("oom_warnings"), warnings},
            {QStringLiteral("optimal"), r.optimal},
            {QStringLiteral("lower_bound"), qint64(r.lowerBound)},
            {QStringLiteral("memory_utilization"), r.memoryUtilization},
        });
        return 0;
    }
    writePack(context.out(), gpu, r);
    return 0;
}

int runMig(const QStringList &argv, Context &context)
{
    const Args args(argv, {{QStringLiteral("gpu")}, {QStringLiteral("layout")}, {QStringLiteral("tenants")},
                           {QStringLiteral("json"), false}});
    const QStringList &positionals = args.positionals();
    if (positionals.size() != 1)
        throw UsageError(QStringLiteral("mig needs one of: validate, layouts, pack"));
    const QString &action = positionals.constFirst();
    const auto reject = [&](const QString &option) {
        if (args.has(option))
            throw UsageError(QStringLiteral("mig %1 does not take --%2").arg(action, option));
    };
    if (action == QLatin1String("validate")) {
        reject(QStringLiteral("tenants"));
        return runValidate(args, context);
    }
    if (action == QLatin1String("layouts")) {
        reject(QStringLiteral("tenants"));
        reject(QStringLiteral("layout"));
        return runLayouts(args, context);
    }
    if (action == QLatin1String("pack")) {
        reject(QStringLiteral("layout"));
        return runPack(args, context);
    }
    throw UsageError(QStringLiteral("mig: unknown action '%1'; known: validate, layouts, pack").arg(action));
}

} // namespace

Command migCommand()
{
    return {QStringLiteral("mig"), QStringLiteral("MIG layouts: validate, list, pack tenants onto the fewest GPUs"),
            QString::fromUtf8(kUsage), &runMig};
}

} // namespace headroom::cli
