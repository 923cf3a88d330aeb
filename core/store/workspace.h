#pragma once

#include "engine/demand.h"
#include "engine/ratecard.h"
#include "engine/types.h"
#include "engine/workload.h"

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
    static constexpr int kSchemaVersion = 4;

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

    // Rate cards, history kept by effective date; ordered by provider, region, GPU, date.
    std::vector<engine::RateCard> rateCards() const;
    std::optional<engine::RateCard> rateCard(const QString &key) const; // RateCard::key()
    // Insert or replace by key after engine::validate(); throws StoreError naming the field.
    void putRateCard(const engine::RateCard &card);
    void putRateCards(const std::vector<engine::RateCard> &cards); // all or nothing
    bool removeRateCard(const QString &key);

    // Hourly demand series by unique name.
    QStringList demandSeriesNames() const;
    std::optional<engine::DemandSeries> demandSeries(const QString &name) const;
    // Insert or replace by name (values ≥ 0, at least one hour); all or nothing.
    void putDemandSeries(const engine::DemandSeries &series);
    bool removeDemandSeries(const QString &name);

    // Workload profiles by unique name.
    std::vector<engine::WorkloadProfile> workloads() const;
    std::optional<engine::WorkloadProfile> workload(const QString &name) const;
    // Insert or replace by name after engine::validate(); throws StoreError naming the field.
    void putWorkload(const engine::WorkloadProfile &workload);
    bool removeWorkload(const QString &name);

    // Writes a consistent copy of this workspace to `path`, which must not exist yet.
    // Throws StoreError naming the file; this workspace stays open and unchanged.
    void saveCopyAs(const QString &path) const;

signals:
    void gpusChanged();
    void modelsChanged();
    void rateCardsChanged();
    void demandSeriesChanged();
    void workloadsChanged();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace headroom::store
