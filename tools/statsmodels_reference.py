#!/usr/bin/python3
"""Reference Holt-Winters fits by statsmodels for the forecast engine's tests.

Fits every reference series with statsmodels' ExponentialSmoothing(...,
initialization_method="estimated").fit() and writes the SSE, parameters, initial states and a
forecast to tests/engine/data/statsmodels_reference.txt, which test_forecast_reference.cpp
reads (no Python at test time).

Series:
  co2      statsmodels.datasets.co2 (Mauna Loa, weekly) resampled to monthly means, gaps
           interpolated; additive trend and season 12 (and a multiplicative season).
  elnino   statsmodels.datasets.elnino, monthly sea surface temperatures; additive season 12.
  nile     statsmodels.datasets.nile, yearly flow; no season (level only, and additive trend).
  The values of these three are written into the file: they are statsmodels' own data.
  alibaba  Alibaba GPU cluster trace v2023, openb_pod_list_gpuspec33.csv: GPUs in use per hour,
           sum over pods with num_gpu > 0 of num_gpu * gpu_milli / 1000 times the share of the
           hour inside [creation_time, deletion_time); the last 8 weeks (1,344 hours);
           additive trend with season 24 and with season 168.
  azure    Azure LLM inference trace 2023 (conv and code): thousands of tokens (context +
           generated) per minute from the first request's minute to the last; additive trend,
           no season.
  The test derives these from HEADROOM_SHARED_DATA the same way and checks count and sum.

Usage: /usr/bin/python3 tools/statsmodels_reference.py SHARED_DATA_DIR OUTPUT_FILE
(python3-statsmodels from Debian, 0.13.5).
"""

import math
import sys
import warnings
from collections import defaultdict
from datetime import datetime

import numpy as np
import statsmodels
import statsmodels.api as sm
from statsmodels.tsa.holtwinters import ExponentialSmoothing

HORIZON = 24


def alibaba_hourly(path):
    demand = defaultdict(float)
    last = 0
    with open(path) as f:
        header = f.readline().strip().split(",")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            v = line.rstrip("\n").split(",")
            gpus = int(v[col["num_gpu"]])
            if gpus <= 0 or v[col["deletion_time"]] == "":
                continue
            start, end = int(v[col["creation_time"]]), int(v[col["deletion_time"]])
            if end <= start:
                continue
            share = gpus * int(v[col["gpu_milli"]]) / 1000.0
            last = max(last, end)
            hour = start // 3600
            while hour * 3600 < end:
                lo, hi = max(start, hour * 3600), min(end, (hour + 1) * 3600)
                demand[hour] += share * (hi - lo) / 3600.0
                hour += 1
    hours = (last + 3599) // 3600
    return [demand[h] for h in range(hours)]


def azure_per_minute(path):
    tokens = defaultdict(int)
    with open(path) as f:
        f.readline()
        for line in f:
            line = line.strip()
            if not line:
                continue
            stamp, context, generated = line.split(",")
            t = datetime.strptime(stamp[:19], "%Y-%m-%d %H:%M:%S")
            minute = int(t.timestamp() // 60)
            tokens[minute] += int(context) + int(generated)
    first, last = min(tokens), max(tokens)
    return [tokens.get(m, 0) / 1000.0 for m in range(first, last + 1)]


def main():
    shared, output = sys.argv[1], sys.argv[2]
    warnings.simplefilter("ignore")

    co2 = sm.datasets.co2.load_pandas().data["co2"].resample("MS").mean().interpolate()
    elnino = sm.datasets.elnino.load_pandas().data.drop(columns="YEAR").to_numpy().ravel()
    nile = sm.datasets.nile.load_pandas().data["volume"].to_numpy()
    alibaba = alibaba_hourly(shared + "/alibaba-gpu-v2023/openb_pod_list_gpuspec33.csv")[-8 * 168:]
    conv = azure_per_minute(shared + "/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv")
    code = azure_per_minute(shared + "/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_code.csv")

    cases = [
        # name, source, values, trend, seasonal, period, values written to the file
        ("co2-add", "statsmodels", co2.to_numpy(), "add", "add", 12),
        ("co2-mul", "statsmodels", co2.to_numpy(), "add", "mul", 12),
        ("elnino", "statsmodels", elnino, "none", "add", 12),
        ("nile-level", "statsmodels", nile, "none", "none", 0),
        ("nile-trend", "statsmodels", nile, "add", "none", 0),
        ("alibaba-daily", "alibaba", alibaba, "add", "add", 24),
        ("alibaba-weekly", "alibaba", alibaba, "add", "add", 168),
        ("azure-conv", "azure-conv", conv, "add", "none", 0),
        ("azure-code", "azure-code", code, "add", "none", 0),
    ]
    with open(output, "w") as out:
        out.write("# Written by tools/statsmodels_reference.py with statsmodels %s: "
                  "ExponentialSmoothing(..., initialization_method=\"estimated\").fit()\n" % statsmodels.__version__)
        out.write("# series NAME SOURCE TREND SEASONAL PERIOD; count N SUM; sse; params alpha beta gamma phi;\n"
                  "# initial level trend seasonal...; forecast (%d steps); values (statsmodels data only)\n" % HORIZON)
        for name, source, values, trend, seasonal, period in cases:
            y = np.asarray(values, dtype=float)
            model = ExponentialSmoothing(
                y,
                trend=None if trend == "none" else trend,
                seasonal=None if seasonal == "none" else seasonal,
                seasonal_periods=period or None,
                initialization_method="estimated",
            )
            fit = model.fit()
            p = fit.params
            beta = p["smoothing_trend"] if trend != "none" else 0.0
            gamma = p["smoothing_seasonal"] if seasonal != "none" else 0.0
            phi = p["damping_trend"] if not math.isnan(p.get("damping_trend", float("nan"))) else 1.0
            level = p["initial_level"]
            slope = p["initial_trend"] if trend != "none" else 0.0
            season = list(np.atleast_1d(p["initial_seasons"])) if seasonal != "none" else []
            out.write("series %s %s %s %s %d\n" % (name, source, trend, seasonal, period))
            out.write("count %d %.17g\n" % (len(y), float(np.sum(y))))
            out.write("sse %.17g\n" % fit.sse)
            out.write("params %.17g %.17g %.17g %.17g\n" % (p["smoothing_level"], beta, gamma, phi))
            out.write("initial %s\n" % " ".join("%.17g" % v for v in [level, slope] + season))
            out.write("forecast %s\n" % " ".join("%.17g" % v for v in fit.forecast(HORIZON)))
            if source == "statsmodels":
                out.write("values %s\n" % " ".join("%.17g" % v for v in y))
            out.write("end\n")
            print("%-15s n=%5d sse %.6g alpha %.4f beta %.4f gamma %.4f" % (name, len(y), fit.sse,
                  p["smoothing_level"], beta, gamma))


if __name__ == "__main__":
    main()
