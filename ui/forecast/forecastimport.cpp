#include "forecastimport.h"

#include "common/format.h"
#include "engine/common/errors.h"
#include "forecasttext.h"
#include "store/forecast/podsdemand.h"
#include "store/common/storeerror.h"
#include "store/forecast/telemetrycsv.h"
#include "store/common/workspace.h"

#include <QFileInfo>
#include <QStringList>

namespace headroom::ui {

namespace {

constexpr int kMaxReportLines = 8;

} // namespace

std::optional<ImportedDemand> ForecastImport::telemetry(const QString &path, QString *error)
{
    try {
        const engine::HourlyTelemetry hourly = engine::aggregateHourly(store::readTelemetry(path));
        ForecastInput input;
        input.source = QFileInfo(path).fileName();
        input.startEpochSeconds = hourly.startEpochSeconds;
        int samples = 0;
        QStringList lines;
        for (const engine::PrimitiveSeries &p : hourly.primitives) {
            input.names << QString::fromStdString(p.key.label());
            input.series.push_back(p.gpus);
            samples += p.samples;
            if (!p.gaps.empty())
                lines << tr("%1: %2 missing hours (first %3 – %4)")
                             .arg(QString::fromStdString(p.key.label()))
                             .arg(p.missingHours())
                             .arg(epochText(p.gaps.front().firstHourEpoch), epochText(p.gaps.front().lastHourEpoch));
        }
        for (const engine::DuplicateSample &d : hourly.duplicates)
            lines << tr("Duplicate: line %1 repeats line %2 (%3 at %4); the first is kept")
                         .arg(d.line)
                         .arg(d.firstLine)
                         .arg(QString::fromStdString(d.key.label()), epochText(d.epochSeconds));
        const qsizetype problems = lines.size();
        if (lines.size() > kMaxReportLines) {
            lines = lines.mid(0, kMaxReportLines);
            lines << tr("… and %1 more").arg(problems - kMaxReportLines);
        }
        QString report = tr("%1: %2, %3, %4 from %5.")
                             .arg(input.source.toHtmlEscaped())
                             .arg(formatCountOf(samples, QT_TRANSLATE_NOOP("headroom::ui", "%n sample(s)")))
                             .arg(formatCountOf(int64_t(hourly.primitives.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n primitive(s)")))
                             .arg(formatCountOf(hourly.hours, QT_TRANSLATE_NOOP("headroom::ui", "%n hour(s)")))
                             .arg(epochText(hourly.startEpochSeconds));
        report += hourly.hasGaps() || !hourly.duplicates.empty()
                      ? tr(" %1 gap or duplicate findings; gaps are filled only by the policy you choose "
                           "under Missing hours:<br>%2")
                            .arg(problems)
                            .arg(lines.join(QStringLiteral("<br>")).toHtmlEscaped().replace(QStringLiteral("&lt;br&gt;"), QStringLiteral("<br>")))
                      : tr(" No gaps, no duplicates.");
        return ImportedDemand{std::move(input), report};
    } catch (const store::StoreError &e) {
        *error = e.message();
    } catch (const engine::InputError &e) {
        *error = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what()));
    }
    return std::nullopt;
}

std::optional<ImportedDemand> ForecastImport::pods(const QString &path, engine::PodSplit split, QString *error)
{
    try {
        const engine::PodDemand demand = engine::demandFromPods(store::readPodRecords(path), split);
        ForecastInput input;
        input.source = QFileInfo(path).fileName();
        for (size_t i = 0; i < demand.names.size(); ++i) {
            input.names << QString::fromStdString(demand.names[i]);
            input.series.push_back(demand.gpus[i]);
        }
        const QString report = tr("%1: %2 pods with GPUs counted, %3 skipped (no GPU or no lifetime); %4 of "
                                  "the trace clock, %5. Demand counts requested GPUs (GPUs × share), "
                                  "scheduled or not.")
                                   .arg(input.source.toHtmlEscaped())
                                   .arg(formatCount(demand.podsCounted))
                                   .arg(formatCount(demand.podsSkipped))
                                   .arg(formatCountOf(demand.hours, QT_TRANSLATE_NOOP("headroom::ui", "%n hour(s)")))
                                   .arg(formatCountOf(int64_t(demand.names.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n primitive(s)")));
        return ImportedDemand{std::move(input), report};
    } catch (const store::StoreError &e) {
        *error = e.message();
    } catch (const engine::InputError &e) {
        *error = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what()));
    }
    return std::nullopt;
}

std::optional<ImportedDemand> ForecastImport::workspaceSeries(store::Workspace &workspace, const QString &name,
                                                              QString *error)
{
    const auto series = workspace.demandSeries(name);
    if (!series) {
        *error = tr("demand series \"%1\" is not in the workspace").arg(name);
        return std::nullopt;
    }
    ForecastInput input;
    input.source = tr("workspace series \"%1\"").arg(name);
    input.startEpochSeconds = series->startEpochSeconds;
    input.names << name;
    std::vector<double> values;
    values.reserve(series->gpus.size());
    for (const engine::Decimal &g : series->gpus)
        values.push_back(g.toDouble());
    input.series.push_back(std::move(values));
    return ImportedDemand{std::move(input), tr("%1: %2%3.")
                                   .arg(tr("Series \"%1\"").arg(name).toHtmlEscaped())
                                   .arg(formatCountOf(int64_t(series->gpus.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n hour(s)")))
                                   .arg(series->startEpochSeconds > 0
                                            ? tr(" from %1").arg(epochText(series->startEpochSeconds))
                                            : QString())};
}

} // namespace headroom::ui
