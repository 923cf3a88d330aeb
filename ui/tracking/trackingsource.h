#pragma once

#include "trackinganalysis.h"
#include "trackingserving.h"

#include "common/chartexport.h"
#include "store/report/reporttables.h"

#include <QJsonObject>
#include <QString>
#include <optional>

namespace headroom::store {
class Workspace;
}

// Where the Tracking page's charts come from, so that a report draws them again from the
// workspace: the billing import and settings, or the serving settings, and what was selected.
namespace headroom::ui {

// A scenario's plan for the billing comparison: nullopt with *error when it does not evaluate,
// nullopt with *error empty when `scenario` is empty or gone.
std::optional<PlanInput> scenarioPlan(const store::Workspace &workspace, const QString &scenario, QString *error);

// What a billing chart is drawn from. `commitment` names the one the utilization chart shows;
// `highlighted` the anomaly drawn larger (-1: none).
struct BillingFigureSource {
    qint64 importId = 0;
    TrackingSettings settings;
    QString scenario;
    QString commitment;
    int highlighted = -1;
};
// `figure` with its source set: kind "billing-commitment", "billing-utilization",
// "billing-anomalies" or "billing-plan".
ChartFigure withBillingSource(ChartFigure figure, const char *kind, const BillingFigureSource &source);
// `figure` with its source set: kind "serving-load" (of `deployment`), "serving-goodput" or
// "serving-utilization".
ChartFigure withServingSource(ChartFigure figure, const char *kind, const ServingSettings &settings,
                              const QString &deployment = {});

// A report item of one of those figures drawn again from the workspace; nullopt with *problem
// when the import, commitment or deployment is gone or the settings no longer analyse, nullopt
// with *problem empty for other kinds.
std::optional<store::ReportItem> trackingReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                    QString *problem);

} // namespace headroom::ui
