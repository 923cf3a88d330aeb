#pragma once

#include "engine/types.h"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace headroom::store {

// One workspace: a single SQLite file (WAL, foreign keys on, schema version in
// PRAGMA user_version). A new file is seeded from the shipped catalogs. Every edit is
// committed at once; change signals tell pages to refresh.
class Workspace : public QObject {
    Q_OBJECT
public:
    static constexpr int kSchemaVersion = 1;

    // Opens (creating, migrating and seeding as needed). Throws StoreError, e.g. for a
    // file from a newer schema version, which is refused untouched.
    explicit Workspace(const QString &path, QObject *parent = nullptr);
    ~Workspace() override;

    // <user data dir>/workspace.headroom
    static QString defaultPath();

    QString path() const;
    int schemaVersion() const;

    std::vector<engine::GpuSpec> gpus() const;                  // ordered by id
    std::optional<engine::GpuSpec> gpu(const QString &id) const;
    std::vector<engine::ModelSpec> models() const;
    std::optional<engine::ModelSpec> model(const QString &id) const;

    // Insert or replace by id after engine::validate(); throws StoreError naming the field.
    void putGpu(const engine::GpuSpec &gpu);
    void putModel(const engine::ModelSpec &model);
    // Several at once, all or nothing.
    void putCatalog(const std::vector<engine::GpuSpec> &gpus,
                    const std::vector<engine::ModelSpec> &models);
    bool removeGpu(const QString &id);
    bool removeModel(const QString &id);

    // Writes a consistent copy of this workspace to `path`, which must not exist yet.
    // Throws StoreError naming the file; this workspace stays open and unchanged.
    void saveCopyAs(const QString &path) const;

signals:
    void gpusChanged();
    void modelsChanged();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace headroom::store
