#pragma once

#include "engine/forecast/telemetry.h"

#include <QByteArray>
#include <QString>
#include <vector>

// Demand telemetry by primitive (DESIGN §3.6) in long form, one sample per row:
//   timestamp,tenant,model,workload_type,gpus
// The header row is required; columns are found by name, in any order; extra columns are
// ignored. Timestamps are ISO 8601 with "Z" or an offset (no offset = UTC), e.g.
// 2026-03-02T14:00:00Z; rows need not be sorted (primitives interleave). gpus is GPUs in use
// (0 to 10,000,000, may be fractional). A malformed row throws StoreError
// "<source>: line N: field "F": ..." and nothing is returned; blank lines are skipped; a file
// without data rows is an error. Duplicates (same primitive and timestamp) are not errors
// here: engine::aggregateHourly reports them with both lines.
namespace headroom::store {

std::vector<engine::TelemetrySample> parseTelemetry(const QByteArray &csv, const QString &sourceName);
std::vector<engine::TelemetrySample> readTelemetry(const QString &path);

} // namespace headroom::store
