#pragma once

#include "engine/forecast/forecast.h"
#include "engine/forecast/forecast_backtest.h"
#include "engine/forecast/forecast_compare.h"
#include "engine/forecast/forecast_reservation.h"
#include "engine/forecast/telemetry.h"

#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <vector>

// The Forecast page's long computations, run on its worker thread: fits, backtests and the
// decomposed forecast of every primitive and of the total, the decomposed-versus-single
// comparison, and the hand-off into the reservation decision. No widgets here.
namespace headroom::ui {

// What the page imported: the hourly GPUs of each primitive on one hourly axis.
struct ForecastInput {
    QString source;                            // what it came from, for captions
    int64_t startEpochSeconds = 0;             // UTC start of hour 0; 0 = unknown
    QStringList names;                         // one per primitive
    std::vector<std::vector<double>> series;   // [primitive][hour], GPUs; NaN = missing hour
};

// The model and the validation the user chose.
struct ForecastSettings {
    engine::SmoothingSpec spec;
    engine::InitialMethod initial = engine::InitialMethod::Heuristic;
    engine::GapPolicy gaps = engine::GapPolicy::Refuse;
    int heldOutHours = 72;                     // last hours held out for backtest and comparison
    int backtestOrigins = 3;                   // rolling origins splitting the held-out window
    int horizonHours = 168;                    // forecast length after the last observation
    std::vector<double> pinballQuantiles{0.5, 0.95, 0.99};
    int paths = 500;                           // simulated paths per model
    uint64_t seed = 1;
};

// One forecast series: the total (sum of the primitives) or one primitive.
struct SeriesForecast {
    QString name;
    std::vector<double> history;               // hourly GPUs after the gap policy
    double mean = 0;                           // GPUs
    double peak = 0;                           // GPUs
    engine::SmoothingModel model;              // fitted on the whole history
    std::vector<std::vector<double>> fan;      // [fanProbabilities() index][step], GPUs
    std::optional<engine::BacktestResult> backtest;
    QString backtestError;                     // why there is no backtest
};

// Everything a fit run produces. series[0] is the total, whose fan holds the quantiles of the
// summed primitive paths (decomposed) and whose model is the single model of the total.
struct ForecastRun {
    ForecastSettings settings;
    std::vector<SeriesForecast> series;
    std::optional<engine::ForecastComparison> comparison;
    QString comparisonNote;                    // why there is no comparison
};

// Progress of a run in [0, 1]; return false to cancel.
using RunProgress = std::function<bool(double)>;

// The gap policy applied to every primitive. Throws InputError("gaps") naming the primitive
// and the first missing hour under GapPolicy::Refuse.
std::vector<std::vector<double>> filledSeries(const ForecastInput &input, engine::GapPolicy policy);

// Fits, forecasts, backtests and compares. Throws engine::InputError (the message names the
// series) or engine::ForecastCancelled.
ForecastRun runForecast(const ForecastInput &input, const ForecastSettings &settings, const RunProgress &progress);

// The reservation hand-off for the decomposed forecast of `run` (one model per primitive), on
// paths around the primitives' point forecasts (engine::PathSpread::AroundPoint).
engine::ReservationHandOff runReservation(const ForecastRun &run, const engine::ReservationForecastOptions &options,
                                          const RunProgress &progress);

} // namespace headroom::ui
