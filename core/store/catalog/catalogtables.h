#pragma once

#include "engine/catalog/specs.h"

#include <QString>
#include <optional>
#include <vector>

namespace headroom::store {

// SQL access to the `gpu` and `model` tables of one open connection. No validation and
// no transactions here: Workspace and the migrations decide both.
class CatalogTables {
public:
    CatalogTables(const QString &connectionName, const QString &path);

    std::vector<engine::GpuSpec> gpus() const;  // ordered by id
    std::optional<engine::GpuSpec> gpu(const QString &id) const;
    std::vector<engine::ModelSpec> models() const;  // ordered by id
    std::optional<engine::ModelSpec> model(const QString &id) const;

    // Insert, or update the row with the same id.
    void upsertGpu(const engine::GpuSpec &gpu) const;
    void upsertModel(const engine::ModelSpec &model) const;
    // Whether a row was deleted.
    bool deleteGpu(const QString &id) const;
    bool deleteModel(const QString &id) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
