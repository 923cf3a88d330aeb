#pragma once

#include "engine/serving/trace.h"
#include "engine/inference/workload.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <vector>

// Workload profiles as JSON (the `--workload-file` format, documented in the README) and the
// readers of request traces. Errors throw StoreError naming the source, line/entry and field.
namespace headroom::store {

QJsonObject workloadToJson(const engine::WorkloadProfile &workload);
// Parses and validates one workload object; unknown keys are errors.
engine::WorkloadProfile workloadFromJson(const QJsonObject &object, const QString &sourceName);
engine::WorkloadProfile readWorkloadFile(const QString &path);
// One workload object as JSON text (a file's content); errors name `sourceName`.
engine::WorkloadProfile parseWorkload(const QByteArray &json, const QString &sourceName);
// File text with the keys in documented order; a diurnal curve equal to a preset is written
// as the preset's name, absent measured values are left out.
QByteArray workloadJsonText(const engine::WorkloadProfile &workload);

// Azure LLM inference trace CSV: TIMESTAMP,ContextTokens,GeneratedTokens (the last line may
// have no trailing newline). Mooncake JSONL: {"timestamp" (ms), "input_length",
// "output_length", "hash_ids"} per line. A malformed line names its number; nothing is returned.
std::vector<engine::TraceRequest> readAzureTrace(const QString &path);
std::vector<engine::TraceRequest> readMooncakeTrace(const QString &path);

} // namespace headroom::store
