#pragma once

#include "engine/kv.h"

#include <QChart>
#include <QString>
#include <vector>


namespace headroom::ui {

// One line of the concurrency chart: a (model, GPU, weights, KV precision) variant.
struct KvCurve {
    QString label;
    std::vector<engine::StreamsAt> points;
};

// Concurrent streams per replica versus context length (log₂ x, log₁₀ y), one line per
// variant, with dashed marker lines at the chosen contexts.
QChart *buildKvChart(const std::vector<KvCurve> &curves, const std::vector<int64_t> &markers,
                     const QString &title, QChart::ChartTheme theme);

} // namespace headroom::ui
