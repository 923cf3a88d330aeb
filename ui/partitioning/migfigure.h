#pragma once

#include "miglayoutpainter.h"

#include "common/chartexport.h"
#include "engine/partitioning/mig.h"
#include "store/report/reporttables.h"

#include <QJsonObject>
#include <QString>
#include <map>
#include <optional>
#include <vector>

namespace headroom::store {
class Workspace;
}

// The Partitioning page's figure, the MIG layout to provision, and how a report draws it again.
namespace headroom::ui {

// What the layout is drawn from: the GPU, the tenants, and the GPUs whose layout was edited
// by hand (by index, as engine::formatLayout writes it).
struct MigFigureInputs {
    QString gpuId;
    std::vector<engine::Tenant> tenants;
    std::map<int, std::string> editedLayouts;
};

// "N GPUs with MIG instead of M with one model per GPU (…)"; what the layout saves.
QString migLayoutCaption(const engine::PackResult &pack);
// The picture as a figure (no GPU selected); with `in`, it carries its report source
// {"kind": "mig-layout", "gpu", "tenants": [{name, memory_gib, compute_slices, replicas,
// isolation}], "edited": [{gpu, layout}]}.
ChartFigure migLayoutFigure(const MigLayoutPicture &picture, const QString &caption,
                            const std::optional<MigFigureInputs> &in = std::nullopt);
// The picture of `pack` on `gpuName`: one row per GPU with its layout.
MigLayoutPicture migPackPicture(const engine::MigGpuProfiles &profiles, const QString &gpuName,
                                const engine::PackResult &pack);
// `layouts[gpu]` replaced by `text` when it is a valid layout of `profiles`, keeping the tenant of
// each instance that stays where it was; false with *reason otherwise.
bool replaceLayout(const engine::MigGpuProfiles &profiles, std::vector<engine::MigLayout> &layouts, int gpu,
                   const std::string &text, QString *reason);

// A report item of that figure packed again with the workspace's GPU; nullopt with *problem
// when the GPU is gone or the tenants no longer pack, nullopt with *problem empty for other kinds.
std::optional<store::ReportItem> partitioningReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                        QString *problem);

} // namespace headroom::ui
