// Times Holt-Winters fitting and a 30-day forecast for 100 demand primitives × 90 days of
// hourly history (issue 8, DESIGN §3.6): target < 2 s; then the decomposed-versus-single
// comparison on a held-out week, and the reservation hand-off over 1- and 3-year terms. When
// /usr/bin/python3 has statsmodels, times its ExponentialSmoothing on the same 100 series
// (heuristic and estimated initial states) and prints the ratios.

#include "engine/forecast/forecast.h"
#include "engine/forecast/forecast_compare.h"
#include "engine/forecast/forecast_reservation.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace headroom::engine;

namespace {

constexpr int kPrimitives = 100;
constexpr int kHistoryHours = 90 * 24;
constexpr int kHorizonHours = 30 * 24;
constexpr int kPaths = 500;
constexpr double kTargetSeconds = 2.0;

// A primitive's demand: its own baseline, a daily bump, a weekend dip, slow growth and noise.
std::vector<double> primitive(int index, std::mt19937_64 &rng)
{
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::normal_distribution<double> noise(0.0, 1.0);
    const double baseline = 5.0 + 40.0 * unit(rng);
    const double bump = baseline * (0.2 + 0.6 * unit(rng));
    const double peakHour = 8.0 + 10.0 * unit(rng);
    const double growthPerHour = 0.0005 * unit(rng) * baseline / 24.0;
    const double sd = 0.03 * baseline + 0.01 * index;
    std::vector<double> y(kHistoryHours);
    for (int t = 0; t < kHistoryHours; ++t) {
        const double hour = t % 24;
        const bool weekend = (t / 24) % 7 >= 5;
        const double day = std::exp(-(hour - peakHour) * (hour - peakHour) / 18.0);
        y[size_t(t)] = baseline + growthPerHour * t + (weekend ? 0.5 : 1.0) * bump * day + sd * noise(rng);
    }
    return y;
}

// Processor time of this process, seconds: on a machine shared with other jobs the wall
// clock also counts the time spent waiting for a core.
double cpuSeconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

double seconds(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

} // namespace

int main()
{
    std::mt19937_64 rng(2026);
    std::vector<std::vector<double>> series;
    for (int i = 0; i < kPrimitives; ++i)
        series.push_back(primitive(i, rng));
    const SmoothingSpec spec{TrendKind::Damped, SeasonKind::Additive, 24};
    using Clock = std::chrono::steady_clock;

    double checksum = 0.0;
    long evaluations = 0;
    const auto start = Clock::now();
    const double startCpu = cpuSeconds();
    std::vector<SmoothingModel> models;
    FitOptions heuristicOptions;
    heuristicOptions.initial = InitialMethod::Heuristic;
    for (const auto &y : series) {
        models.push_back(fitSmoothing(y, spec, heuristicOptions));
        checksum += forecastSmoothing(models.back(), kHorizonHours).back();
        evaluations += models.back().evaluations;
    }
    const double fitSeconds = seconds(Clock::now() - start);
    const double fitCpu = cpuSeconds() - startCpu;

    const auto startPaths = Clock::now();
    const double startPathsCpu = cpuSeconds();
    for (size_t i = 0; i < models.size(); ++i) {
        const SamplePaths paths = simulatePaths(models[i], kHorizonHours, kPaths, 100 + i);
        const std::vector<std::vector<double>> band = pathQuantiles(paths, {0.05, 0.95});
        checksum += band[0].back() + band[1].back();
    }
    const double pathSeconds = seconds(Clock::now() - startPaths);
    const double pathCpu = cpuSeconds() - startPathsCpu;

    std::printf("forecast: %d primitives x %d h history, damped trend + additive daily season\n",
                kPrimitives, kHistoryHours);
    std::printf("  heuristic-state fit + %d h point forecast: %.3f s wall, %.3f s CPU (%.1f ms per series, %ld SSE "
                "evaluations) target < %.1f s: %s\n",
                kHorizonHours, fitSeconds, fitCpu, 1000.0 * fitSeconds / kPrimitives, evaluations,
                kTargetSeconds, fitSeconds < kTargetSeconds ? "PASS" : "FAIL");
    std::printf("  + %d simulated paths and P05/P95 per series: %.3f s wall, %.3f s CPU more "
                "(total %.3f s wall, %.3f s CPU; target < %.1f s: %s)\n",
                kPaths, pathSeconds, pathCpu, fitSeconds + pathSeconds, fitCpu + pathCpu, kTargetSeconds,
                fitSeconds + pathSeconds < kTargetSeconds ? "PASS" : "FAIL");
    std::printf("  series 0: alpha %.4f beta %.4f gamma %.4f phi %.4f sse %.3f (checksum %.3f)\n",
                models[0].params.alpha, models[0].params.beta, models[0].params.gamma,
                models[0].params.phi, models[0].sse, checksum);

    // The default fit: initial states estimated with the parameters, all 100 series, with the
    // same 30-day point forecast.
    const auto startEstimated = Clock::now();
    const double startEstimatedCpu = cpuSeconds();
    double estimatedSse = 0.0, heuristicSse = 0.0;
    std::vector<SmoothingModel> estimated;
    for (size_t i = 0; i < series.size(); ++i) {
        estimated.push_back(fitSmoothing(series[i], spec));
        checksum += forecastSmoothing(estimated.back(), kHorizonHours).back();
        estimatedSse += estimated.back().sse;
        heuristicSse += models[i].sse;
    }
    const double estimatedSeconds = seconds(Clock::now() - startEstimated);
    const double estimatedCpu = cpuSeconds() - startEstimatedCpu;
    std::printf("  default fit (estimated initial states) + forecast: %.3f s wall, %.3f s CPU (%.1f ms per "
                "series); total SSE %.1f vs %.1f heuristic (%.1f %% lower)\n",
                estimatedSeconds, estimatedCpu, 1000.0 * estimatedSeconds / kPrimitives, estimatedSse, heuristicSse,
                100.0 * (1.0 - estimatedSse / heuristicSse));

    // Decomposed versus single model on the last week, 500 paths each.
    CompareOptions compare;
    compare.holdoutHours = 7 * 24;
    compare.paths = kPaths;
    const auto startCompare = Clock::now();
    const ForecastComparison comparison = compareDecomposed(series, spec, compare);
    const double compareSeconds = seconds(Clock::now() - startCompare);
    std::printf("  decomposed vs single, %d primitives + total, %d h held out, %d paths: %.3f s\n"
                "    MAPE %.2f %% vs %.2f %%, P05-P95 coverage %.2f vs %.2f; burst hours %zu: "
                "P95 pinball %.2f vs %.2f GPUs\n",
                kPrimitives, compare.holdoutHours, kPaths, compareSeconds, comparison.decomposed.overall.mape,
                comparison.single.overall.mape, comparison.decomposed.overall.coverage90,
                comparison.single.overall.coverage90, comparison.burstHours.size(),
                comparison.decomposed.burst.pinball95, comparison.single.burst.pinball95);
    compare.noise = PathNoise::JointBootstrap;
    const auto startJoint = Clock::now();
    const ForecastComparison joint = compareDecomposed(series, spec, compare);
    const double jointSeconds = seconds(Clock::now() - startJoint);
    std::printf("  the same with a joint residual bootstrap: %.3f s\n"
                "    MAPE %.2f %% vs %.2f %%, P05-P95 coverage %.2f vs %.2f; burst hours %zu: "
                "P95 pinball %.2f vs %.2f GPUs\n",
                jointSeconds, joint.decomposed.overall.mape, joint.single.overall.mape,
                joint.decomposed.overall.coverage90, joint.single.overall.coverage90, joint.burstHours.size(),
                joint.decomposed.burst.pinball95, joint.single.burst.pinball95);

    // Reservation hand-off: the 100 primitive models summed over the term.
    std::vector<double> history(series[0].size(), 0.0);
    for (const auto &y : series)
        for (size_t t = 0; t < y.size(); ++t)
            history[t] += y[t];
    for (int term : {kOneYearHours, kThreeYearHours}) {
        ReservationForecastOptions options;
        options.termHours = term;
        options.paths = 16;
        options.reservedRate = Money::parse("2.10");
        options.elasticRate = Money::parse("3.50");
        const auto startReserve = Clock::now();
        const ReservationHandOff r = reservationFromForecast(history, models, options);
        const double reserveSeconds = seconds(Clock::now() - startReserve);
        std::printf("  reservation hand-off, %d models x %d paths x %d h: %.3f s; reserve %lld "
                    "(look-back %lld), expected %s vs %s USD over the term\n",
                    kPrimitives, options.paths, term, reserveSeconds,
                    static_cast<long long>(r.forecastOptimum.reserved),
                    static_cast<long long>(r.lookbackOptimum.reserved),
                    r.forecastOptimum.expectedCost.amount.toString(0).c_str(),
                    r.lookbackOptimum.expectedCost.amount.toString(0).c_str());
    }

    // statsmodels on the same 100 series: legacy-heuristic (the initial states used above)
    // and estimated initial states, fit + 30-day forecast each.
    const std::string dir = std::filesystem::temp_directory_path().string();
    const std::string csv = dir + "/bench_forecast_series.csv";
    const std::string script = dir + "/bench_forecast_statsmodels.py";
    {
        std::ofstream out(csv);
        out.precision(17);
        for (size_t t = 0; t < series[0].size(); ++t) {
            for (size_t i = 0; i < series.size(); ++i)
                out << (i ? "," : "") << series[i][t];
            out << '\n';
        }
        std::ofstream py(script);
        py << "import time, warnings, numpy as np\n"
              "warnings.simplefilter('ignore')\n"
              "from statsmodels.tsa.holtwinters import ExponentialSmoothing\n"
              "Y = np.loadtxt('" << csv << "', delimiter=',')\n"
              "for init in ('legacy-heuristic', 'estimated'):\n"
              "    t = time.perf_counter(); sse = 0.0\n"
              "    for i in range(Y.shape[1]):\n"
              "        r = ExponentialSmoothing(Y[:, i], trend='add', damped_trend=True, seasonal='add', "
              "seasonal_periods=24, initialization_method=init).fit()\n"
              "        r.forecast(" << kHorizonHours << ")\n"
              "        sse += r.sse\n"
              "    print(time.perf_counter() - t, sse)\n";
    }
    const std::string out = dir + "/bench_forecast_statsmodels.txt";
    const std::string command = "/usr/bin/python3 " + script + " > " + out + " 2>/dev/null";
    if (std::system(command.c_str()) != 0) {
        std::printf("  statsmodels: not available on /usr/bin/python3\n");
        return 0;
    }
    std::ifstream in(out);
    double pyHeuristicSeconds = 0, pyHeuristicSse = 0, pyEstimatedSeconds = 0, pyEstimatedSse = 0;
    in >> pyHeuristicSeconds >> pyHeuristicSse >> pyEstimatedSeconds >> pyEstimatedSse;
    std::printf("  statsmodels ExponentialSmoothing, same %d series, fit + forecast:\n"
                "    legacy-heuristic states: %.2f s, total SSE %.1f; here %.3f s, SSE %.1f: "
                "statsmodels / here = %.0fx\n"
                "    estimated states:        %.2f s, total SSE %.1f; here %.3f s, SSE %.1f: "
                "statsmodels / here = %.1fx (target >= 20x: %s), SSE here / statsmodels = %.4f "
                "(target <= 1: %s)\n",
                kPrimitives, pyHeuristicSeconds, pyHeuristicSse, fitSeconds, heuristicSse,
                pyHeuristicSeconds / fitSeconds, pyEstimatedSeconds, pyEstimatedSse, estimatedSeconds,
                estimatedSse, pyEstimatedSeconds / estimatedSeconds,
                pyEstimatedSeconds / estimatedSeconds >= 20.0 ? "PASS" : "FAIL", estimatedSse / pyEstimatedSse,
                estimatedSse <= pyEstimatedSse ? "PASS" : "FAIL");
    return 0;
}
