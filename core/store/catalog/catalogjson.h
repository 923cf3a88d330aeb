#pragma once

#include "engine/catalog/specs.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <vector>

// JSON form of catalog entries, the same keys as the shipped files in data/:
// {"gpus": [...], "models": [...]}; either key may be absent. See data/README.md.
namespace headroom::store {

QJsonObject gpuToJson(const engine::GpuSpec &gpu);
QJsonObject modelToJson(const engine::ModelSpec &model);
// A GPU's measured serving profile as the catalog's "efficiency" object (catalogkeys.h,
// efficiencyKeys); StoreError naming `location` and the field for a malformed one.
QJsonObject efficiencyToJson(const engine::GpuEfficiency &efficiency);
engine::GpuEfficiency efficiencyFromJson(const QJsonObject &object, const QString &location);
// A GPU's per-deployment calibrations: [{"model", "tp", "weights", "efficiency"}, …].
QJsonArray calibrationsToJson(const std::vector<engine::DeploymentProfile> &calibrations);
std::vector<engine::DeploymentProfile> calibrationsFromJson(const QJsonValue &value, const QString &location);

struct Catalog {
    std::vector<engine::GpuSpec> gpus;
    std::vector<engine::ModelSpec> models;
};

// Parses and validates every entry; throws StoreError naming the source, entry (index
// and id) and field of the first problem.
Catalog parseCatalog(const QByteArray &json, const QString &sourceName);
Catalog readCatalogFile(const QString &path);
QByteArray catalogToJson(const Catalog &catalog);

} // namespace headroom::store
