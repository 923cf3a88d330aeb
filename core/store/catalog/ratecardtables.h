#pragma once

#include "engine/catalog/ratecard.h"

#include <QString>
#include <optional>
#include <vector>

namespace headroom::store {

// SQL access to the `rate_card` table of one open connection. Rates are stored as exact
// decimal text. No validation and no transactions here: Workspace and the migrations
// decide both.
class RateCardTables {
public:
    RateCardTables(const QString &connectionName, const QString &path);

    // Ordered by provider, region, GPU and effective date.
    std::vector<engine::RateCard> rateCards() const;
    std::optional<engine::RateCard> rateCard(const QString &key) const;  // RateCard::key()

    // Insert, or update the row with the same provider, region, GPU and effective date.
    void upsertRateCard(const engine::RateCard &card) const;
    // Whether a row was deleted.
    bool deleteRateCard(const QString &key) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
