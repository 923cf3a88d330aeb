#include "lookup.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "store/common/workspace.h"

namespace headroom::cli {

namespace {

template <typename Spec>
[[noreturn]] void throwUnknown(const QString &kind, const QString &plural, const QString &id,
                               const std::vector<Spec> &known)
{
    QStringList ids;
    for (const Spec &spec : known)
        ids << QString::fromStdString(spec.id);
    if (ids.isEmpty()) {
        throw UsageError(QStringLiteral("unknown %1 '%2'; the workspace has no %3 (add some with "
                                        "'headroom import FILE.json')")
                             .arg(kind, id, plural));
    }
    throw UsageError(QStringLiteral("unknown %1 '%2'; closest: %3")
                         .arg(kind, id, closestMatches(id, ids).join(QLatin1String(", "))));
}

} // namespace

engine::ModelSpec findModel(const store::Workspace &workspace, const QString &id)
{
    if (auto model = workspace.model(id))
        return *model;
    if (auto model = workspace.model(id.toLower()))
        return *model;
    throwUnknown(QStringLiteral("model"), QStringLiteral("models"), id, workspace.models());
}

engine::GpuSpec findGpu(const store::Workspace &workspace, const QString &id)
{
    if (auto gpu = workspace.gpu(id))
        return *gpu;
    if (auto gpu = workspace.gpu(id.toLower()))
        return *gpu;
    throwUnknown(QStringLiteral("GPU"), QStringLiteral("GPUs"), id, workspace.gpus());
}

} // namespace headroom::cli
