#pragma once

#include "engine/inference/inference_sizing.h"
#include "engine/inference/kv.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

namespace headroom::store {

// The workspace's serving assumptions (one set, used by the KV page, Inference sizing,
// Scenarios and the CLI) and the KV page's saved variants, as JSON documents in
// `workspace_info` (keys "serving_assumptions" and "kv_variants"; formats in README.md).
//
// Serving assumptions JSON: {"memory_utilization": 0.9, "reserve_bytes": 2147483648,
// "block_size": 16, "prefill_efficiency": 0.5, "decode_bandwidth_efficiency": 0.7,
// "decode_compute_efficiency": 0.5, "planned_headroom": 0.2, "in_flight_quantile": 0.99,
// "queueing_allowance_ms": 200, "kv_residency": "request"}; absent keys take these defaults.
QJsonObject servingAssumptionsToJson(const engine::ServingAssumptions &assumptions);
// Throws StoreError naming `source` and the field; the result passes engine::validate().
engine::ServingAssumptions servingAssumptionsFromJson(const QJsonObject &object, const QString &source);

// `current` with every field in which `to` differs from `from` taken from `to`: one edit
// (from → to) laid over a set another program may have changed since `from` was read. Throws
// StoreError when the merged set fails engine::validate().
engine::ServingAssumptions mergeServingAssumptions(const engine::ServingAssumptions &current,
                                                   const engine::ServingAssumptions &from,
                                                   const engine::ServingAssumptions &to);

// KV variants JSON: [{"model": id, "gpu": id, "weights": "bf16", "kv_dtype": "fp8", "tp": 2}].
QJsonArray kvVariantsToJson(const std::vector<engine::KvVariant> &variants);
std::vector<engine::KvVariant> kvVariantsFromJson(const QJsonArray &array, const QString &source);
// The first problem with a variant list (empty ids, TP outside 1–72, more than 64 lines).
std::vector<engine::FieldProblem> validate(const std::vector<engine::KvVariant> &variants);

// SQL access to those two keys. No validation and no transactions here: Workspace decides.
class ServingTables {
public:
    ServingTables(const QString &connectionName, const QString &path);

    engine::ServingAssumptions assumptions() const;  // the defaults when never saved
    void putAssumptions(const engine::ServingAssumptions &assumptions) const;
    std::optional<std::vector<engine::KvVariant>> kvVariants() const; // nullopt: never saved
    void putKvVariants(const std::vector<engine::KvVariant> &variants) const;

private:
    std::optional<QString> value(const QString &key) const;
    void put(const QString &key, const QString &value) const;

    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
