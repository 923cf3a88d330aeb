#pragma once

#include "common/chartexport.h"
#include "engine/inference/inference_sizing.h"
#include "engine/inference/kv_levers.h"
#include "store/report/reporttables.h"

#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// What an attention-architecture change buys (engine/inference/kv_levers.h) for one of the KV
// page's variants: the levers as `kv --what-if` takes them, the context the streams are counted
// at, the peak of concurrent streams to hold and the price per GPU-hour.
struct KvLeverFigureInputs {
    engine::KvVariant variant;
    QString levers;              // "mqa,local=1024/6,share=2,int8"
    int64_t context = 8192;
    int64_t peakStreams = 1000;
    QString price;               // decimal per GPU-hour ("3.99"); empty: no money
};

struct KvLeverOutcome {
    QString variantLabel;        // model · GPU · precisions · TP
    std::vector<engine::KvLeverStep> steps;
    QString error;               // why there are no steps, naming the field
};

// The lever stack of the variant with the workspace's catalog and serving assumptions.
KvLeverOutcome kvLeverOutcome(const store::Workspace &workspace, const engine::ServingAssumptions &serving,
                              const KvLeverFigureInputs &in);

// A waterfall of KV bytes per token, step by step on a log scale (each drop labelled with its
// factor), with streams per replica, GPUs and money per month under each step. Carries its
// report source {"kind": "kv-levers", "variant": {...}, "levers", "context", "streams", "price"}.
ChartFigure kvLeverFigure(const KvLeverOutcome &outcome, const KvLeverFigureInputs &in);

// The lowest on-demand price per GPU-hour in force today for the GPU among the workspace's rate
// cards, as exact decimal text, and the card's provider; nullopt when no card prices it.
std::optional<QString> lowestOnDemandRate(const store::Workspace &workspace, const std::string &gpuId,
                                          QString *provider);

// A report item of that waterfall drawn again from the workspace as `source` says; nullopt with
// *problem empty for other kinds.
std::optional<store::ReportItem> kvLeverReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                   QString *problem);

} // namespace headroom::ui
