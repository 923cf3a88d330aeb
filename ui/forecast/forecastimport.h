#pragma once

#include "forecastrun.h"

#include <QCoreApplication>
#include <QString>
#include <optional>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// Demand history for the Forecast page, read from one source, and the report shown under the
// source (rich text: what was read, gaps and duplicates).
struct ImportedDemand {
    ForecastInput input;
    QString report;
};

// Reads demand history for the Forecast page. Each reader returns nullopt with the reason
// (file, line, field) in `error` when the source cannot be read.
class ForecastImport {
    Q_DECLARE_TR_FUNCTIONS(ForecastImport)
public:
    // A long-form telemetry CSV, aggregated to hourly means per primitive.
    static std::optional<ImportedDemand> telemetry(const QString &path, QString *error);
    // A pod trace CSV: hourly requested GPUs, split into primitives by `split`.
    static std::optional<ImportedDemand> pods(const QString &path, engine::PodSplit split, QString *error);
    // A workspace demand series (one primitive).
    static std::optional<ImportedDemand> workspaceSeries(store::Workspace &workspace, const QString &name,
                                                         QString *error);
};

} // namespace headroom::ui
