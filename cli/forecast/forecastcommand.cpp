#include "forecastcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"

#include "engine/common/errors.h"
#include "engine/forecast/forecast.h"
#include "engine/forecast/forecast_backtest.h"
#include "engine/forecast/telemetry.h"
#include "store/forecast/seriescsv.h"
#include "store/forecast/telemetrycsv.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <algorithm>
#include <map>

namespace headroom::cli {

namespace {

// Prediction intervals and backtest coverage come from this many simulated sample paths,
// drawn from std::mt19937_64 seeded with kPathSeed, so the same input prints the same numbers.
constexpr int kPaths = 1000;
constexpr uint64_t kPathSeed = 1;
constexpr double kLowerQuantile = 0.05;
constexpr double kUpperQuantile = 0.95;
// Forecast steps shown in the table; --json carries all of them.
constexpr int kTableSteps = 12;

const char kUsage[] = R"(usage: headroom forecast --series FILE.csv | --telemetry FILE.csv [--primitive KEY]
                         [--season N] [--trend none|add|damped]
                         [--seasonal none|add|mul] [--horizon H]
                         [--alpha F --beta F --gamma F] [--phi F]
                         [--initial-level F --initial-trend F --initial-seasonal FILE]
                         [--backtest K] [--json]

Holt-Winters exponential smoothing of one series with statsmodels' recursions: fitted
one-step values, their sum of squared errors, a point forecast H steps ahead with P05/P95
intervals from 1000 simulated sample paths (seed 1), and optionally a rolling-origin backtest.

options:
  --series FILE        CSV "timestamp,value" (ISO 8601, strictly increasing) or a single
                       "value" column; a header row is optional
  --telemetry FILE     instead of --series: long-form CSV "timestamp,tenant,model,
                       workload_type,gpus" (ISO 8601), averaged per hour; an hour without a
                       sample is an error (gaps are not filled), duplicates are reported
  --primitive KEY      with --telemetry: forecast one primitive, KEY = tenant/model/workload_type;
                       default the hourly total of all primitives
  --season N           season length in samples, e.g. 24 (daily) or 168 (weekly); default 24
  --trend KIND         none, add (additive) or damped; default add
  --seasonal KIND      none, add (additive) or mul (multiplicative); default add
  --horizon H          steps to forecast, and the window length of a backtest; default 24
  --alpha/--beta/--gamma F
                       smoothing parameters in [0, 1]; giving all the model uses (beta with a
                       trend, gamma with a season, and --phi when damped) fixes them,
                       otherwise they are fitted by minimising the SSE
  --phi F              damping in (0, 1] (damped trend only); fitted within [0.8, 0.98]
  --initial-level F    known initial level; with --initial-trend F (with a trend) and
  --initial-trend F    --initial-seasonal FILE (with a season: one number per line, the
  --initial-seasonal FILE   first for the first observation), else estimated together
                       with the parameters (as statsmodels' initialization_method="estimated",
                       within its bounds: beta <= alpha, gamma <= 1 - alpha, phi in [0.8, 0.995])
  --backtest K         K rolling-origin windows of H values at the end of the series, each
                       forecast from a model fitted on what precedes it: MAPE, sMAPE, MASE
                       and P05-P95 coverage
  --json               print {"params", "sse", "fitted", "forecast", "intervals", "backtest"},
                       and "initial_states" {"level", "trend", "seasonal"} when estimated
)";

const std::vector<OptionSpec> kOptions = {
    {QStringLiteral("series")},        {QStringLiteral("season")},
    {QStringLiteral("trend")},         {QStringLiteral("seasonal")},
    {QStringLiteral("horizon")},       {QStringLiteral("alpha")},
    {QStringLiteral("beta")},          {QStringLiteral("gamma")},
    {QStringLiteral("phi")},           {QStringLiteral("initial-level")},
    {QStringLiteral("initial-trend")}, {QStringLiteral("initial-seasonal")},
    {QStringLiteral("backtest")},      {QStringLiteral("json"), false},
    {QStringLiteral("telemetry")},     {QStringLiteral("primitive")},
};

engine::TrendKind parseTrend(const std::optional<QString> &value)
{
    if (!value || *value == QLatin1String("add"))
        return engine::TrendKind::Additive;
    if (*value == QLatin1String("none"))
        return engine::TrendKind::None;
    if (*value == QLatin1String("damped"))
        return engine::TrendKind::Damped;
    throw UsageError(QStringLiteral("--trend: unknown value '%1'; expected none, add or damped").arg(*value));
}

engine::SeasonKind parseSeason(const std::optional<QString> &value)
{
    if (!value || *value == QLatin1String("add"))
        return engine::SeasonKind::Additive;
    if (*value == QLatin1String("none"))
        return engine::SeasonKind::None;
    if (*value == QLatin1String("mul"))
        return engine::SeasonKind::Multiplicative;
    throw UsageError(QStringLiteral("--seasonal: unknown value '%1'; expected none, add or mul").arg(*value));
}

QString trendText(engine::TrendKind trend)
{
    switch (trend) {
    case engine::TrendKind::None:
        return QStringLiteral("no trend");
    case engine::TrendKind::Additive:
        return QStringLiteral("additive trend");
    case engine::TrendKind::Damped:
        return QStringLiteral("damped trend");
    }
    return {};
}

QString seasonText(const engine::SmoothingSpec &spec)
{
    switch (spec.season) {
    case engine::SeasonKind::None:
        return QStringLiteral("no season");
    case engine::SeasonKind::Additive:
        return QStringLiteral("additive season of %1").arg(spec.period);
    case engine::SeasonKind::Multiplicative:
        return QStringLiteral("multiplicative season of %1").arg(spec.period);
    }
    return {};
}

// The flags that apply to this model form, and the ones given although it does not use them.
void rejectUnused(const Args &args, const engine::SmoothingSpec &spec)
{
    const bool trend = spec.trend != engine::TrendKind::None;
    const bool season = spec.season != engine::SeasonKind::None;
    const auto reject = [&](const char *name, const QString &why) {
        if (args.has(QLatin1String(name)))
            throw UsageError(QStringLiteral("--%1: not used by this model (%2)").arg(QLatin1String(name), why));
    };
    if (!trend) {
        reject("beta", QStringLiteral("--trend none"));
        reject("initial-trend", QStringLiteral("--trend none"));
    }
    if (spec.trend != engine::TrendKind::Damped)
        reject("phi", QStringLiteral("only a damped trend has phi"));
    if (!season) {
        reject("gamma", QStringLiteral("--seasonal none"));
        reject("initial-seasonal", QStringLiteral("--seasonal none"));
    }
}

// True when every flag in `used` is given, false when none is; a partial set is a usage error
// naming what is missing (`purpose` says what the full set does).
bool allOrNone(const Args &args, const QStringList &used, const QString &purpose)
{
    QStringList given, missing;
    for (const QString &name : used)
        (args.has(name) ? given : missing) << Args::flag(name);
    if (given.isEmpty())
        return false;
    if (!missing.isEmpty())
        throw UsageError(QStringLiteral("%1: %2 give all of %3 (missing %4)")
                             .arg(given.constFirst(), purpose, (given + missing).join(QLatin1String(", ")),
                                  missing.join(QLatin1String(", "))));
    return true;
}

// Fixed parameters when every one the model uses is given; nullopt when none is given.
std::optional<engine::SmoothingParams> fixedParams(const Args &args, const engine::SmoothingSpec &spec)
{
    QStringList used{QStringLiteral("alpha")};
    if (spec.trend != engine::TrendKind::None)
        used << QStringLiteral("beta");
    if (spec.season != engine::SeasonKind::None)
        used << QStringLiteral("gamma");
    if (spec.trend == engine::TrendKind::Damped)
        used << QStringLiteral("phi");
    if (!allOrNone(args, used, QStringLiteral("to fix the parameters")))
        return std::nullopt;
    engine::SmoothingParams params;
    params.alpha = *args.number(QStringLiteral("alpha"));
    params.beta = args.number(QStringLiteral("beta")).value_or(0.0);
    params.gamma = args.number(QStringLiteral("gamma")).value_or(0.0);
    params.phi = args.number(QStringLiteral("phi")).value_or(1.0);
    return params;
}

// Known initial states when every one the model uses is given; nullopt when none is given.
std::optional<engine::InitialStates> knownStates(const Args &args, const engine::SmoothingSpec &spec)
{
    QStringList used{QStringLiteral("initial-level")};
    if (spec.trend != engine::TrendKind::None)
        used << QStringLiteral("initial-trend");
    if (spec.season != engine::SeasonKind::None)
        used << QStringLiteral("initial-seasonal");
    if (!allOrNone(args, used, QStringLiteral("to use known initial states")))
        return std::nullopt;
    engine::InitialStates states;
    states.level = *args.number(QStringLiteral("initial-level"));
    states.trend = args.number(QStringLiteral("initial-trend")).value_or(0.0);
    if (const auto file = args.text(QStringLiteral("initial-seasonal")))
        states.seasonal = store::readNumberLines(*file);
    return states;
}

// The engine names a bad input by its field ("initial_seasonal"); the user typed a flag.
QString flagOfField(const std::string &field, const QString &fallback)
{
    static const std::map<std::string, QString> flags = {
        {"series", QStringLiteral("--series")},
        {"season", QStringLiteral("--season")},
        {"alpha", QStringLiteral("--alpha")},
        {"beta", QStringLiteral("--beta")},
        {"gamma", QStringLiteral("--gamma")},
        {"phi", QStringLiteral("--phi")},
        {"initial_level", QStringLiteral("--initial-level")},
        {"initial_trend", QStringLiteral("--initial-trend")},
        {"initial_seasonal", QStringLiteral("--initial-seasonal")},
        {"horizon", QStringLiteral("--horizon")},
        {"backtest", QStringLiteral("--backtest")},
    };
    const auto it = flags.find(field);
    return it == flags.end() ? fallback : it->second;
}

[[noreturn]] void rethrowAsUsage(const engine::InputError &e, const QString &fallbackFlag)
{
    throw UsageError(QStringLiteral("%1: %2").arg(flagOfField(e.field(), fallbackFlag),
                                                 QString::fromStdString(e.what())));
}

// The hourly series of --telemetry: one primitive (--primitive tenant/model/workload_type) or the
// total. Duplicate samples are noted on stderr; a gap is a usage error naming its first hour.
std::vector<double> telemetrySeries(const QString &path, const std::optional<QString> &primitive,
                                    QString &label, Context &context)
{
    engine::HourlyTelemetry hourly;
    try {
        hourly = engine::aggregateHourly(store::readTelemetry(path));
    } catch (const engine::InputError &e) {
        throw UsageError(QStringLiteral("--telemetry: %1: %2").arg(path, QString::fromStdString(e.what())));
    }
    if (!hourly.duplicates.empty()) {
        const engine::DuplicateSample &d = hourly.duplicates.front();
        context.err() << QStringLiteral("headroom: note: %1 left out (same primitive and time as an "
                                        "earlier line), the first on line %2 repeating line %3\n")
                             .arg(countOf(qint64(hourly.duplicates.size()), QStringLiteral("duplicate sample"),
                                          QStringLiteral("duplicate samples")))
                             .arg(d.line)
                             .arg(d.firstLine);
    }
    auto hourText = [](int64_t epoch) {
        return QDateTime::fromSecsSinceEpoch(epoch, Qt::UTC).toString(Qt::ISODate);
    };
    if (primitive) {
        const QStringList parts = primitive->split(QLatin1Char('/'));
        if (parts.size() != 3)
            throw UsageError(QStringLiteral("--primitive: expected tenant/model/workload_type, got '%1'").arg(printable(*primitive)));
        const engine::PrimitiveKey key{parts[0].trimmed().toStdString(), parts[1].trimmed().toStdString(),
                                       parts[2].trimmed().toStdString()};
        QStringList known;
        for (const engine::PrimitiveSeries &p : hourly.primitives) {
            const QString name = printable(QString::fromStdString(p.key.tenant + "/" + p.key.model + "/" + p.key.workloadType));
            if (!(p.key == key)) {
                known << name;
                continue;
            }
            if (!p.gaps.empty())
                throw UsageError(QStringLiteral("--telemetry: %1 has %2 without samples, the first at %3; "
                                                "gaps are not filled")
                                     .arg(name, countOf(p.missingHours(), QStringLiteral("hour"), QStringLiteral("hours")),
                                          hourText(p.gaps.front().firstHourEpoch)));
            label = QStringLiteral("%1 (%2)").arg(path, name);
            return p.gpus;
        }
        throw UsageError(QStringLiteral("--primitive: no primitive '%1' in %2; it has %3")
                             .arg(printable(*primitive), path, known.join(QLatin1String(", "))));
    }
    for (const engine::PrimitiveSeries &p : hourly.primitives)
        if (!p.gaps.empty())
            throw UsageError(QStringLiteral("--telemetry: %1 has %2 without samples, the first at %3; "
                                            "gaps are not filled (pick another --primitive)")
                                 .arg(printable(QString::fromStdString(p.key.tenant + "/" + p.key.model + "/" + p.key.workloadType)),
                                      countOf(p.missingHours(), QStringLiteral("hour"), QStringLiteral("hours")),
                                      hourText(p.gaps.front().firstHourEpoch)));
    label = QStringLiteral("%1 (total of %2)")
                .arg(path, countOf(qint64(hourly.primitives.size()), QStringLiteral("primitive"),
                                   QStringLiteral("primitives")));
    return hourly.total();
}

QJsonArray jsonArray(const std::vector<double> &values)
{
    QJsonArray array;
    for (double v : values)
        array.append(v);
    return array;
}

QString number(double value)
{
    return formatDecimal(value, 4, false);
}

int runForecast(const QStringList &argv, Context &context)
{
    const Args args(argv, kOptions);
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("forecast takes no positional arguments, got '%1'")
                             .arg(args.positionals().constFirst()));
    const auto seriesPath = args.text(QStringLiteral("series"));
    const auto telemetryPath = args.text(QStringLiteral("telemetry"));
    if (!seriesPath && !telemetryPath)
        throw UsageError(QStringLiteral("--series is required"));
    if (seriesPath && telemetryPath)
        throw UsageError(QStringLiteral("--telemetry: give either --series or --telemetry, not both"));
    if (!telemetryPath && args.has(QStringLiteral("primitive")))
        throw UsageError(QStringLiteral("--primitive: only used with --telemetry"));

    engine::SmoothingSpec spec;
    spec.trend = parseTrend(args.text(QStringLiteral("trend")));
    spec.season = parseSeason(args.text(QStringLiteral("seasonal")));
    const qint64 season = args.integer(QStringLiteral("season"), 2, 100000).value_or(24);
    spec.period = spec.season == engine::SeasonKind::None ? 0 : int(season);
    const int horizon = int(args.integer(QStringLiteral("horizon"), 1, 100000).value_or(24));
    const auto origins = args.integer(QStringLiteral("backtest"), 1, 10000);
    rejectUnused(args, spec);

    engine::FitOptions fit;
    fit.fixedParams = fixedParams(args, spec);
    fit.knownStates = knownStates(args, spec);
    QString source = seriesPath.value_or(QString());
    const std::vector<double> series =
        seriesPath ? store::readValueSeries(*seriesPath)
                   : telemetrySeries(*telemetryPath, args.text(QStringLiteral("primitive")), source, context);
    const QString seriesFlag = seriesPath ? QStringLiteral("--series") : QStringLiteral("--telemetry");

    engine::SmoothingModel model;
    std::vector<double> forecast;
    std::vector<double> p05, p95;
    try {
        model = engine::fitSmoothing(series, spec, fit);
        forecast = engine::forecastSmoothing(model, horizon);
        const engine::SamplePaths paths = engine::simulatePaths(model, horizon, kPaths, kPathSeed);
        p05 = engine::pathQuantiles(paths, kLowerQuantile);
        p95 = engine::pathQuantiles(paths, kUpperQuantile);
    } catch (const engine::InputError &e) {
        if (e.field() == "series")
            throw UsageError(QStringLiteral("%1: %2").arg(seriesFlag, QString::fromStdString(e.what())));
        rethrowAsUsage(e, seriesFlag);
    }

    std::optional<engine::BacktestResult> backtest;
    if (origins) {
        engine::BacktestOptions options;
        options.origins = int(*origins);
        options.horizon = horizon;
        options.intervalLower = kLowerQuantile;
        options.intervalUpper = kUpperQuantile;
        options.paths = kPaths;
        options.seed = kPathSeed;
        try {
            backtest = engine::backtestSmoothing(series, spec, fit, options);
        } catch (const engine::InputError &e) {
            throw UsageError(QStringLiteral("--backtest: %1").arg(QString::fromStdString(e.what())));
        }
    }

    const engine::SmoothingParams &params = model.params;
    if (args.has(QStringLiteral("json"))) {
        QJsonObject json{
            {QStringLiteral("params"), QJsonObject{{QStringLiteral("alpha"), params.alpha},
                                                   {QStringLiteral("beta"), params.beta},
                                                   {QStringLiteral("gamma"), params.gamma},
                                                   {QStringLiteral("phi"), params.phi}}},
            {QStringLiteral("sse"), model.sse},
            {QStringLiteral("fitted"), jsonArray(model.fitted)},
            {QStringLiteral("forecast"), jsonArray(forecast)},
            {QStringLiteral("intervals"), QJsonObject{{QStringLiteral("p05"), jsonArray(p05)},
                                                      {QStringLiteral("p95"), jsonArray(p95)}}},
            {QStringLiteral("backtest"), QJsonValue::Null},
        };
        if (!fit.knownStates) {
            // Estimated with the parameters; seasonal[k] applies to observation k.
            QJsonObject states{{QStringLiteral("level"), model.initial.level}};
            if (spec.trend != engine::TrendKind::None)
                states.insert(QStringLiteral("trend"), model.initial.trend);
            if (spec.season != engine::SeasonKind::None)
                states.insert(QStringLiteral("seasonal"), jsonArray(model.initial.seasonal));
            json.insert(QStringLiteral("initial_states"), states);
        }
        if (backtest)
            json.insert(QStringLiteral("backtest"),
                        QJsonObject{{QStringLiteral("mape"), backtest->mape},
                                    {QStringLiteral("smape"), backtest->smape},
                                    {QStringLiteral("mase"), backtest->mase},
                                    {QStringLiteral("coverage"), backtest->coverage}});
        context.out() << jsonText(json);
        return 0;
    }

    QTextStream &out = context.out();
    out << QStringLiteral("Holt-Winters, %1 and %2, on %3 from %4\n\n")
               .arg(trendText(spec.trend), seasonText(spec), countOf(qint64(series.size()), QStringLiteral("value"),
                                                                     QStringLiteral("values")),
                    source);
    std::vector<std::pair<QString, QString>> fields;
    const QString how = fit.fixedParams ? QStringLiteral("fixed")
                                        : QStringLiteral("fitted, %1 SSE evaluations").arg(model.evaluations);
    QString paramText = QStringLiteral("alpha %1").arg(number(params.alpha));
    if (spec.trend != engine::TrendKind::None)
        paramText += QStringLiteral(", beta %1").arg(number(params.beta));
    if (spec.season != engine::SeasonKind::None)
        paramText += QStringLiteral(", gamma %1").arg(number(params.gamma));
    if (spec.trend == engine::TrendKind::Damped)
        paramText += QStringLiteral(", phi %1").arg(number(params.phi));
    fields.emplace_back(QStringLiteral("parameters"), paramText + QStringLiteral(" (%1)").arg(how));
    QString statesText = QStringLiteral("given");
    if (!fit.knownStates) {
        statesText = QStringLiteral("estimated with the parameters: level %1").arg(number(model.initial.level));
        if (spec.trend != engine::TrendKind::None)
            statesText += QStringLiteral(", trend %1").arg(number(model.initial.trend));
        if (spec.season != engine::SeasonKind::None)
            statesText += QStringLiteral(", %1 seasonal values (--json lists them)").arg(model.initial.seasonal.size());
    }
    fields.emplace_back(QStringLiteral("initial states"), statesText);
    fields.emplace_back(QStringLiteral("SSE"), number(model.sse));
    fields.emplace_back(QStringLiteral("residual sd"), number(model.residualSd));
    writeFields(out, fields);

    const int shown = std::min(horizon, kTableSteps);
    out << QStringLiteral("\nforecast, first %1 of %2 (P05/P95 from %3 simulated paths, seed %4):\n")
               .arg(shown)
               .arg(countOf(horizon, QStringLiteral("step"), QStringLiteral("steps")))
               .arg(kPaths)
               .arg(kPathSeed);
    Table table({{QStringLiteral("step"), Table::Align::Right},
                 {QStringLiteral("forecast"), Table::Align::Right},
                 {QStringLiteral("P05"), Table::Align::Right},
                 {QStringLiteral("P95"), Table::Align::Right}});
    for (int step = 0; step < shown; ++step)
        table.addRow({QString::number(step + 1), formatDecimal(forecast[size_t(step)], 2, true),
                      formatDecimal(p05[size_t(step)], 2, true), formatDecimal(p95[size_t(step)], 2, true)});
    table.write(out);

    if (backtest) {
        out << QStringLiteral("\nbacktest, %1 of %2 (%3 scored):\n")
                   .arg(countOf(*origins, QStringLiteral("window"), QStringLiteral("windows")))
                   .arg(countOf(horizon, QStringLiteral("step"), QStringLiteral("steps")))
                   .arg(countOf(backtest->points, QStringLiteral("value"), QStringLiteral("values")));
        writeFields(out, {{QStringLiteral("MAPE"), formatDecimal(backtest->mape, 2, true) + QStringLiteral(" %")},
                          {QStringLiteral("sMAPE"), formatDecimal(backtest->smape, 2, true) + QStringLiteral(" %")},
                          {QStringLiteral("MASE"), formatDecimal(backtest->mase, 3, true)},
                          {QStringLiteral("P05-P95 coverage"),
                           formatDecimal(100.0 * backtest->coverage, 1, true) + QStringLiteral(" %")}});
    }
    return 0;
}

} // namespace

Command forecastCommand()
{
    return {QStringLiteral("forecast"), QStringLiteral("Holt-Winters fit, forecast, intervals and backtest of a series"),
            QString::fromUtf8(kUsage), &runForecast};
}

} // namespace headroom::cli
