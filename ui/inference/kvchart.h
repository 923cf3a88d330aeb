#pragma once

#include "common/chartexport.h"
#include "report/reportdeck.h"
#include "engine/inference/kv.h"
#include "engine/inference/inference_sizing.h"
#include "store/report/reporttables.h"

#include <QChart>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// One line of the concurrency chart: a (model, GPU, weights, KV precision) variant.
struct KvCurve {
    QString label;
    std::vector<engine::StreamsAt> points;
};

// Legend names for the variants, given for each variant the label parts that differ between
// them (GPU, precision …): each part is cut to its fewest leading words that still tell its
// values apart ("H100 SXM5 80GB", "H200 SXM 141GB" → "H100", "H200"), a precision pair with
// equal halves is said once ("FP8/FP8" → "FP8"), and the parts are joined with " · ". Variants
// that are the same in every part are numbered ("H100 · FP8 (2)").
std::vector<QString> kvLegendNames(const std::vector<QStringList> &differingParts);

// Concurrent streams per replica versus context length (log₂ x, log₁₀ y), one line per
// variant, with dashed marker lines at the chosen contexts.
QChart *buildKvChart(const std::vector<KvCurve> &curves, const std::vector<int64_t> &markers,
                     const QString &title, QChart::ChartTheme theme);

// What the KV & concurrency page computes: its variants, the shared prefix and the marked
// contexts, with the workspace's catalog and serving assumptions.
struct KvFigureInputs {
    std::vector<engine::KvVariant> variants;
    int64_t sharedPrefixTokens = 0;
    std::vector<int64_t> contexts;   // sorted, distinct
};
// Points on each curve (log-spaced from 1K tokens to the model's maximum context).
constexpr int kKvCurvePoints = 64;
// Result of one variant: the analysis at the marked contexts and the curve, or the reason it
// could not be computed.
struct KvOutcome {
    engine::KvVariant variant;
    QString label;                     // model · GPU · precisions · TP
    QStringList labelParts;
    QString shortLabel;                // only what differs from the other variants (kvFigure)
    engine::KvResult result;
    engine::RuntimeReserve reserve;    // what the pool set aside besides the weights
    std::vector<engine::StreamsAt> curve;
    int64_t maxContext = 0;            // the model's longest context, tokens
    QString error;
};
// A variant in a report source ({model, gpu, weights, kv, tp}) and back; nullopt for one
// Headroom does not read.
QJsonObject kvVariantJson(const engine::KvVariant &variant);
std::optional<engine::KvVariant> kvVariantFromJson(const QJsonObject &object);
// Why the variant cannot be drawn from the workspace ("model "x" is no longer in the
// catalog"); empty when it can.
QString kvVariantMissing(const store::Workspace &workspace, const engine::KvVariant &variant);

// The KV analysis inputs of one variant with the workspace's catalog and serving assumptions
// (InputError "model" or "gpu" when the catalog lacks it), and its label parts: model, GPU,
// precisions, TP.
engine::KvInputs kvInputs(const store::Workspace &workspace, const engine::ServingAssumptions &serving,
                          const KvFigureInputs &figure, const engine::KvVariant &variant, QStringList *labelParts,
                          engine::RuntimeReserve *reserve = nullptr);
// The runtime reserve in words: "reserve 2.00 GiB" or "reserve 2.83 GiB from vLLM's profile:
// activation peak 1.04 GiB at 8,192 tokens and 256 requests + non-torch 1.79 GiB".
QString reserveText(const engine::RuntimeReserve &reserve);
std::vector<KvOutcome> kvOutcomes(const store::Workspace &workspace, const engine::ServingAssumptions &serving,
                                  const KvFigureInputs &in);
// The concurrency chart of those outcomes (setting each one's shortLabel), carrying its report
// source {"kind": "kv-concurrency", "variants": [{model, gpu, weights, kv, tp}], "prefix", "contexts"}.
ChartFigure kvFigure(std::vector<KvOutcome> &outcomes, const KvFigureInputs &in,
                     const engine::ServingAssumptions &serving);
// The page's table of those outcomes (after kvFigure, which names them): a row per variant,
// per-GPU KV, weights, pool and blocks, then streams at each marked context. Its report source
// is the chart's with the kind "kv-table".
DeckTable kvTable(const std::vector<KvOutcome> &outcomes, const KvFigureInputs &in,
                  const engine::ServingAssumptions &serving);
// A report item of that chart (or table) drawn again from the workspace as `source` says; nullopt with
// *problem empty for other kinds.
std::optional<store::ReportItem> kvReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                              QString *problem);

} // namespace headroom::ui
