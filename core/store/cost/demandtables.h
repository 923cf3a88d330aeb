#pragma once

#include "engine/cost/demand.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace headroom::store {

// SQL access to the `demand_series` and `demand_point` tables of one open connection. One
// point per hour, its value stored as exact decimal text. No validation and no
// transactions here: Workspace decides both.
class DemandTables {
public:
    DemandTables(const QString &connectionName, const QString &path);

    QStringList names() const;  // ordered
    std::optional<engine::DemandSeries> series(const QString &name) const;

    // Replaces the series of that name and all its points (inserted through one prepared
    // statement; run it inside a transaction).
    void replaceSeries(const engine::DemandSeries &series) const;
    // Whether a series was deleted; its points go with it (ON DELETE CASCADE).
    bool deleteSeries(const QString &name) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
