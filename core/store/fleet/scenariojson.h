#pragma once

#include "engine/fleet/scenario.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

// Fleet scenarios as JSON documents (the `scenario.body` column, `headroom import/export`).
// Keys: "name", "description", "author", "horizon_months", "rate_card" {"provider",
// "region", "as_of", "need_date"}, "spot_overhead" (decimal string), "pools" [{"name",
// "gpu", "sizing" ("fixed"|"auto"), "gpus", "tier", "partitioning", "mig_layout" ("auto" or
// [profile names per GPU]), "workloads" [names], "training_jobs" [names], "deployments"
// (optional) [{"workload", "weights", "kv", "tp", "mig_profile" (optional), "disaggregated"
// (optional, false)}], "owned_rate_per_gpu_hour" (decimal
// string, optional)}], "autoscale" {"hpa_tolerance",
// "cooldown_seconds", "polling_interval_seconds", "drain_to_zero", "max_queue_delay_ms"
// (optional), "metric", "prometheus_address", "namespace", "fallback_gpus" [ids]},
// "policy" {"reserve_at", "pack_mig_tenants"}. Round trip is exact. Errors throw StoreError
// naming the source and the field path ("pools[1].tier").
namespace headroom::store {

QJsonObject scenarioToJson(const engine::Scenario &scenario);
// Parses and validates (engine::validate) one scenario object; unknown keys are errors.
engine::Scenario scenarioFromJson(const QJsonObject &object, const QString &sourceName);
// Indented document text (keys as QJsonDocument orders them).
QByteArray scenarioJsonText(const engine::Scenario &scenario);
engine::Scenario parseScenario(const QByteArray &json, const QString &sourceName);
// True when a JSON object is meant as a scenario document: it has a scenario's top-level
// keys ("name", "pools", "rate_card", …) and no catalog "gpus" or "models".
bool isScenarioJson(const QJsonObject &object);

} // namespace headroom::store
