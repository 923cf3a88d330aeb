#pragma once

#include "servingsimpage.h"

#include <QCoreApplication>
#include <QString>
#include <optional>

class QTableWidget;

namespace headroom::ui {

// The numbers and the words under the Serving simulation page's charts: per router the hit
// rates, latency percentiles, SLO attainment, goodput and replicas for the target, against
// the infinite-cache bound; and what they mean in a paragraph.
class ServingSimSummary {
    Q_DECLARE_TR_FUNCTIONS(ServingSimSummary)
public:
    // Fills `table` (headers only when there are no results), marking the router at `shownRouter`.
    static void fillTable(QTableWidget &table, const std::optional<ServingSimPage::Results> &results, int shownRouter);
    // The explanation of `results`, or what to do first when there are none.
    static QString explanation(const std::optional<ServingSimPage::Results> &results);
};

} // namespace headroom::ui
