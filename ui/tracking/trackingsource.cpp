#include "trackingsource.h"

#include "trackingcharts.h"
#include "trackingtables.h"

#include "engine/common/errors.h"
#include "engine/fleet/scenario.h"
#include "report/reportsnapshot.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "store/fleet/scenarioinputs.h"

#include <QObject>

namespace headroom::ui {

namespace {

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

bool isBillingKind(const QString &kind)
{
    return kind == QLatin1String("billing-commitment") || kind == QLatin1String("billing-utilization") ||
           kind == QLatin1String("billing-anomalies") || kind == QLatin1String("billing-plan") ||
           kind == QLatin1String("billing-commitments-table") || kind == QLatin1String("billing-next-term-table") ||
           kind == QLatin1String("billing-anomalies-table") || kind == QLatin1String("billing-plan-table");
}

bool isServingKind(const QString &kind)
{
    return kind == QLatin1String("serving-load") || kind == QLatin1String("serving-goodput") ||
           kind == QLatin1String("serving-utilization") || kind == QLatin1String("serving-rightsizing-table") ||
           kind == QLatin1String("serving-benchmarks-table") || kind == QLatin1String("serving-anomalies-table") ||
           kind == QLatin1String("serving-replicas-table");
}

std::optional<store::ReportItem> tableItem(const DeckTable &table, const QJsonObject &source)
{
    return reportItemFromTable(QString(), QString(), table, source);
}

std::optional<store::ReportItem> billingItem(const store::Workspace &workspace, const QString &kind,
                                             const QJsonObject &source, QString *problem)
{
    const qint64 importId = qint64(source.value(QStringLiteral("import")).toDouble());
    std::optional<engine::ActualsSummary> actuals;
    try {
        actuals = workspace.actuals(importId);
    } catch (const store::StoreError &e) {
        *problem = e.message();
        return std::nullopt;
    }
    if (!actuals) {
        *problem = QObject::tr("billing import %1 is no longer in the workspace").arg(importId);
        return std::nullopt;
    }
    TrackingSettings settings;
    settings.currency = source.value(QStringLiteral("currency")).toString().toStdString();
    settings.threshold = source.value(QStringLiteral("threshold")).toDouble(settings.threshold);
    settings.trailingHours = int64_t(source.value(QStringLiteral("trailing_hours")).toDouble(double(settings.trailingHours)));
    settings.driftPeriods = source.value(QStringLiteral("drift_periods")).toInt(settings.driftPeriods);
    const QString scenario = source.value(QStringLiteral("scenario")).toString();
    QString planError;
    const std::optional<PlanInput> plan = scenarioPlan(workspace, scenario, &planError);
    if (!scenario.isEmpty() && !plan && planError.isEmpty()) {
        *problem = QObject::tr("scenario \"%1\" no longer exists").arg(scenario);
        return std::nullopt;
    }
    TrackingResult result;
    try {
        // Only the commitment chart and the next-term table show the next terms.
        const bool withNext =
            kind == QLatin1String("billing-commitment") || kind == QLatin1String("billing-next-term-table");
        const std::vector<engine::CommitmentRecommendation> next =
            withNext ? nextTerms(*actuals, settings) : std::vector<engine::CommitmentRecommendation>{};
        result = analyseTracking(*actuals, settings, plan, withNext ? &next : nullptr);
    } catch (const engine::InputError &e) {
        *problem = QObject::tr("its settings no longer analyse the import: %1").arg(QString::fromUtf8(e.what()));
        return std::nullopt;
    }
    if (!planError.isEmpty())
        result.planNote = planError;
    if (kind == QLatin1String("billing-commitments-table"))
        return tableItem(commitmentsTable(result), source);
    if (kind == QLatin1String("billing-next-term-table"))
        return tableItem(nextTermTable(result), source);
    if (kind == QLatin1String("billing-anomalies-table"))
        return tableItem(billingAnomaliesTable(result), source);
    if (kind == QLatin1String("billing-plan-table"))
        return tableItem(planDaysTable(result), source);
    if (kind == QLatin1String("billing-utilization"))
        return reportItemFromFigure(utilizationTrackerFigure(result));
    if (kind == QLatin1String("billing-plan"))
        return reportItemFromFigure(planFigure(result));
    if (kind == QLatin1String("billing-anomalies"))
        return reportItemFromFigure(anomalyFigure(result, source.value(QStringLiteral("highlighted")).toInt(-1)));
    const QString id = source.value(QStringLiteral("commitment")).toString();
    for (const CommitmentTrack &track : result.commitments)
        if (qs(track.usage.id) == id)
            return reportItemFromFigure(commitmentUtilizationFigure(track));
    *problem = QObject::tr("commitment \"%1\" is no longer in the import").arg(id);
    return std::nullopt;
}

std::optional<store::ReportItem> servingItem(const store::Workspace &workspace, const QString &kind,
                                             const QJsonObject &source, QString *problem)
{
    ServingSettings settings;
    settings.gpuId = source.value(QStringLiteral("gpu")).toString();
    settings.trailingDays = source.value(QStringLiteral("trailing_days")).toInt(settings.trailingDays);
    settings.windowDays = source.value(QStringLiteral("window_days")).toInt(settings.windowDays);
    settings.ttftSloMs = source.value(QStringLiteral("ttft_slo_ms")).toInt(settings.ttftSloMs);
    ServingAnalysis analysis;
    try {
        analysis = analyseServing(workspace, settings);
    } catch (const std::exception &e) {
        *problem = QObject::tr("the serving metrics cannot be read: %1").arg(QString::fromUtf8(e.what()));
        return std::nullopt;
    }
    if (kind == QLatin1String("serving-rightsizing-table"))
        return tableItem(rightsizingTable(analysis), source);
    if (kind == QLatin1String("serving-benchmarks-table"))
        return tableItem(benchmarkTable(analysis), source);
    if (kind == QLatin1String("serving-anomalies-table"))
        return tableItem(telemetryAnomalyTable(analysis), source);
    if (kind == QLatin1String("serving-replicas-table"))
        return tableItem(replicasTable(analysis), source);
    if (kind == QLatin1String("serving-goodput"))
        return reportItemFromFigure(goodputFigure(analysis));
    if (kind == QLatin1String("serving-utilization"))
        return reportItemFromFigure(servingUtilizationFigure(analysis));
    const QString deployment = source.value(QStringLiteral("deployment")).toString();
    for (const engine::RightsizingResult &r : analysis.rightsizing)
        if (qs(r.deployment) == deployment)
            return reportItemFromFigure(servingLoadFigure(r));
    *problem = QObject::tr("deployment \"%1\" is no longer in the serving metrics").arg(deployment);
    return std::nullopt;
}

} // namespace

std::optional<PlanInput> scenarioPlan(const store::Workspace &workspace, const QString &scenario, QString *error)
{
    error->clear();
    if (scenario.isEmpty())
        return std::nullopt;
    try {
        if (const auto found = workspace.scenario(scenario)) {
            const engine::ScenarioResult evaluated =
                engine::evaluateScenario(*found, store::scenarioInputs(workspace));
            return PlanInput{scenario, evaluated.costPerDay};
        }
    } catch (const engine::InputError &e) {
        *error = QObject::tr("Scenario %1 cannot be evaluated: %2").arg(scenario, QString::fromUtf8(e.what()));
    } catch (const store::StoreError &e) {
        *error = e.message();
    }
    return std::nullopt;
}

ChartFigure withBillingSource(ChartFigure figure, const char *kind, const BillingFigureSource &source)
{
    figure.source = {{QStringLiteral("kind"), QLatin1String(kind)},
                     {QStringLiteral("import"), double(source.importId)},
                     {QStringLiteral("currency"), qs(source.settings.currency)},
                     {QStringLiteral("threshold"), source.settings.threshold},
                     {QStringLiteral("trailing_hours"), double(source.settings.trailingHours)},
                     {QStringLiteral("drift_periods"), source.settings.driftPeriods},
                     {QStringLiteral("scenario"), source.scenario}};
    if (QLatin1String(kind) == QLatin1String("billing-commitment"))
        figure.source.insert(QStringLiteral("commitment"), source.commitment);
    if (QLatin1String(kind) == QLatin1String("billing-anomalies"))
        figure.source.insert(QStringLiteral("highlighted"), source.highlighted);
    return figure;
}

ChartFigure withServingSource(ChartFigure figure, const char *kind, const ServingSettings &settings,
                              const QString &deployment)
{
    figure.source = {{QStringLiteral("kind"), QLatin1String(kind)},
                     {QStringLiteral("gpu"), settings.gpuId},
                     {QStringLiteral("trailing_days"), settings.trailingDays},
                     {QStringLiteral("window_days"), settings.windowDays},
                     {QStringLiteral("ttft_slo_ms"), settings.ttftSloMs}};
    if (QLatin1String(kind) == QLatin1String("serving-load"))
        figure.source.insert(QStringLiteral("deployment"), deployment);
    return figure;
}

std::optional<store::ReportItem> trackingReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                    QString *problem)
{
    problem->clear();
    const QString kind = source.value(QStringLiteral("kind")).toString();
    if (isBillingKind(kind))
        return billingItem(workspace, kind, source, problem);
    if (isServingKind(kind))
        return servingItem(workspace, kind, source, problem);
    return std::nullopt;
}

} // namespace headroom::ui
