#pragma once

#include "engine/inference/kv.h"

#include <QChart>
#include <QString>
#include <vector>


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

} // namespace headroom::ui
