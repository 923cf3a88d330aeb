// The default Holt-Winters fit (initial states estimated with the parameters) against
// statsmodels' ExponentialSmoothing(..., initialization_method="estimated").fit() on real
// series: statsmodels' own datasets (co2, elnino, nile; their values are in the reference file)
// and series derived from the public Alibaba and Azure traces. The reference numbers were
// written by tools/statsmodels_reference.py (python3-statsmodels 0.13.5) into
// tests/engine/data/statsmodels_reference.txt; no Python runs here.
#include "engine/forecast/forecast.h"
#include "publictraces.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

using namespace headroom::engine;

namespace {

struct Reference {
    std::string name, source, trend, seasonal;
    int period = 0;
    size_t count = 0;
    double sum = 0.0;
    double sse = 0.0;
    std::vector<double> params, initial, forecast, values;
};

std::vector<double> numbers(std::istringstream &in)
{
    std::vector<double> out;
    double v = 0.0;
    while (in >> v)
        out.push_back(v);
    return out;
}

std::vector<Reference> readReferences()
{
    std::ifstream in(HEADROOM_SOURCE_DIR "/tests/engine/data/statsmodels_reference.txt");
    REQUIRE(in.good());
    std::vector<Reference> out;
    Reference current;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream fields(line);
        std::string key;
        fields >> key;
        if (key == "series") {
            current = Reference{};
            fields >> current.name >> current.source >> current.trend >> current.seasonal >> current.period;
        } else if (key == "count") {
            fields >> current.count >> current.sum;
        } else if (key == "sse") {
            fields >> current.sse;
        } else if (key == "params") {
            current.params = numbers(fields);
        } else if (key == "initial") {
            current.initial = numbers(fields);
        } else if (key == "forecast") {
            current.forecast = numbers(fields);
        } else if (key == "values") {
            current.values = numbers(fields);
        } else if (key == "end") {
            out.push_back(current);
        }
    }
    return out;
}

SmoothingSpec specOf(const Reference &r)
{
    SmoothingSpec spec;
    spec.trend = r.trend == "add" ? TrendKind::Additive : r.trend == "damped" ? TrendKind::Damped : TrendKind::None;
    spec.season = r.seasonal == "add"   ? SeasonKind::Additive
                  : r.seasonal == "mul" ? SeasonKind::Multiplicative
                                        : SeasonKind::None;
    spec.period = r.period;
    return spec;
}

std::vector<std::string> splitCsv(const std::string &line)
{
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ','))
        out.push_back(field);
    if (!line.empty() && line.back() == ',')
        out.emplace_back();
    return out;
}

// GPUs in use per hour: Σ num_gpu × gpu_milli / 1000 × share of the hour inside
// [creation_time, deletion_time), pods with GPUs only (as the reference script computes it).
std::vector<double> alibabaHourly(const std::string &path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = splitCsv(line);
    auto column = [&](const char *name) {
        const auto it = std::find(header.begin(), header.end(), name);
        REQUIRE(it != header.end());
        return size_t(it - header.begin());
    };
    const size_t gpusAt = column("num_gpu"), milliAt = column("gpu_milli"), startAt = column("creation_time"),
                 endAt = column("deletion_time");
    std::map<int64_t, double> demand;
    int64_t last = 0;
    while (std::getline(in, line)) {
        const std::vector<std::string> v = splitCsv(line);
        REQUIRE(v.size() == header.size());
        const int64_t gpus = std::stoll(v[gpusAt]);
        if (gpus <= 0 || v[endAt].empty())
            continue;
        const int64_t start = std::stoll(v[startAt]), end = std::stoll(v[endAt]);
        if (end <= start)
            continue;
        const double share = double(gpus) * double(std::stoll(v[milliAt])) / 1000.0;
        last = std::max(last, end);
        for (int64_t hour = start / 3600; hour * 3600 < end; ++hour) {
            const int64_t lo = std::max(start, hour * 3600), hi = std::min(end, (hour + 1) * 3600);
            demand[hour] += share * double(hi - lo) / 3600.0;
        }
    }
    std::vector<double> out(size_t((last + 3599) / 3600), 0.0);
    for (const auto &[hour, gpus] : demand)
        out[size_t(hour)] = gpus;
    return out;
}

// Thousands of tokens (context + generated) per minute, first to last request's minute.
std::vector<double> azurePerMinute(const std::string &path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::string line;
    std::getline(in, line);
    std::map<int64_t, int64_t> tokens;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        const std::vector<std::string> v = splitCsv(line);
        REQUIRE(v.size() == 3);
        using namespace std::chrono;
        const year_month_day date{year{std::stoi(v[0].substr(0, 4))}, month{unsigned(std::stoi(v[0].substr(5, 2)))},
                                  day{unsigned(std::stoi(v[0].substr(8, 2)))}};
        const int64_t minute = int64_t(sys_days(date).time_since_epoch().count()) * 1440
                               + std::stoll(v[0].substr(11, 2)) * 60 + std::stoll(v[0].substr(14, 2));
        tokens[minute] += std::stoll(v[1]) + std::stoll(v[2]);
    }
    REQUIRE_FALSE(tokens.empty());
    std::vector<double> out;
    for (int64_t m = tokens.begin()->first; m <= tokens.rbegin()->first; ++m) {
        const auto it = tokens.find(m);
        out.push_back(it == tokens.end() ? 0.0 : double(it->second) / 1000.0);
    }
    return out;
}

void checkAgainstStatsmodels(const Reference &r, const std::vector<double> &series)
{
    INFO(r.name << ": " << r.trend << " trend, " << r.seasonal << " season " << r.period);
    REQUIRE(series.size() == r.count);
    const double sum = std::accumulate(series.begin(), series.end(), 0.0);
    REQUIRE(sum == Approx(r.sum).epsilon(1e-9));
    const SmoothingModel fit = fitSmoothing(series, specOf(r));
    INFO("Headroom SSE " << fit.sse << " (alpha " << fit.params.alpha << ", beta " << fit.params.beta << ", gamma "
                         << fit.params.gamma << "), statsmodels " << r.sse << " (alpha " << r.params.at(0)
                         << ", beta " << r.params.at(1) << ", gamma " << r.params.at(2) << ")");
    WARN(r.name << ": SSE " << fit.sse << " vs statsmodels " << r.sse << " (ratio " << fit.sse / r.sse << ")");
    CHECK(fit.sse <= r.sse * 1.005);
    // Within statsmodels' bounds.
    CHECK(fit.params.beta <= fit.params.alpha + 1e-12);
    CHECK(fit.params.gamma <= 1.0 - fit.params.alpha + 1e-12);
    // The forecasts agree to within the one-step error's size over the first day.
    const std::vector<double> forecast = forecastSmoothing(fit, int(r.forecast.size()));
    const double sd = std::sqrt(r.sse / double(series.size()));
    for (size_t h = 0; h < std::min<size_t>(forecast.size(), 3); ++h)
        CHECK(std::abs(forecast[h] - r.forecast[h]) <= 2.0 * sd);
}

} // namespace

TEST_CASE("the default fit is no worse than statsmodels on its own datasets", "[forecast][reference]")
{
    int checked = 0;
    for (const Reference &r : readReferences()) {
        if (r.source != "statsmodels")
            continue;
        checkAgainstStatsmodels(r, r.values);
        ++checked;
    }
    CHECK(checked >= 5);
}

TEST_CASE("the default fit is no worse than statsmodels on the Alibaba-derived hourly series",
          "[forecast][reference][trace]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("alibaba-gpu-v2023");
    const std::vector<double> hourly =
        alibabaHourly(headroom::test::publicTracesPath("alibaba-gpu-v2023") + "/openb_pod_list_gpuspec33.csv");
    REQUIRE(hourly.size() >= 8 * 168);
    const std::vector<double> recent(hourly.end() - 8 * 168, hourly.end());
    int checked = 0;
    for (const Reference &r : readReferences()) {
        if (r.source != "alibaba")
            continue;
        checkAgainstStatsmodels(r, recent);
        ++checked;
    }
    CHECK(checked == 2);
}

TEST_CASE("the default fit is no worse than statsmodels on the Azure LLM traces", "[forecast][reference][trace]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    const std::string folder = headroom::test::publicTracesPath("traces") + "/azure-llm-inference-2023/";
    int checked = 0;
    for (const Reference &r : readReferences()) {
        if (r.source != "azure-conv" && r.source != "azure-code")
            continue;
        const std::string file = r.source == "azure-conv" ? "AzureLLMInferenceTrace_conv.csv"
                                                          : "AzureLLMInferenceTrace_code.csv";
        checkAgainstStatsmodels(r, azurePerMinute(folder + file));
        ++checked;
    }
    CHECK(checked == 2);
}
