#!/usr/bin/env python3
"""Writes data/samples/serving-metrics.csv: SYNTHETIC serving telemetry in the shape of a
DCGM-exporter / Prometheus range-query export (timestamp,instance,gpu,metric,value,deployment,le),
as Headroom's `track import --metrics` reads it. No real cluster is behind these numbers.

One deployment, llama-3.1-70b-chat: replicas of 2 GPUs (tensor parallel 2) behind a load
balancer that does not spread load evenly, sampled every 30 minutes for 12 days from
2026-03-04. Load follows the working day (peak 15:00 UTC, quieter at weekends). On
2026-03-10 the weights move to FP8: each replica serves more tokens per second before it
queues (1,400 → 2,400 tokens/s), and the fourth replica is retired. On 2026-03-12 at 14:00
and 14:30 UTC a rolling restart takes r2 and r3 out, r1 carries their load and the counters of
r2 and r3 restart from 0. A GPU clock metric the importer does not read is included every 6 h.
Latency histograms (vLLM's TTFT and end-to-end request latency bucket counters, on a subset of
its bucket bounds) follow a log-normal whose median grows with the replica's load: TTFT
median 0.12 s x (1 + 6 x load ratio^4), spread 0.5; end-to-end median TTFT median + 250 output
tokens x 20 ms x (1 + load ratio), spread 0.35. They use their own random stream, so the
other series are as before.
Deterministic: fixed seed, no external data.
Run: python3 data/samples/make_serving_metrics.py > data/samples/serving-metrics.csv
"""
import math
import random
import sys
from datetime import datetime, timedelta, timezone

START = datetime(2026, 3, 4, tzinfo=timezone.utc)
STEPS = 12 * 48
STEP = timedelta(minutes=30)
FP8 = datetime(2026, 3, 10, tzinfo=timezone.utc)
RESTART = (datetime(2026, 3, 12, 14, tzinfo=timezone.utc), datetime(2026, 3, 12, 15, tzinfo=timezone.utc))
DEPLOYMENT = "llama-3.1-70b-chat"
FB_TOTAL_MIB = 81559

rng = random.Random(21)
TTFT_BOUNDS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
E2E_BOUNDS = (2.5, 5.0, 10.0, 20.0, 40.0)


def lognormal_cdf(x, median, spread):
    return 0.5 * (1.0 + math.erf((math.log(x) - math.log(median)) / (spread * math.sqrt(2.0))))


def fleet_load(t):
    """Generated tokens per second over the whole deployment."""
    hour = t.hour + t.minute / 60.0
    day = 0.5 + 0.5 * math.cos((hour - 15.0) / 24.0 * 2.0 * math.pi)
    weekend = 0.6 if t.weekday() >= 5 else 1.0
    growth = 1.0 + 0.004 * (t - START).days
    return (550.0 + 1450.0 * day ** 1.5 * weekend) * growth * (1.0 + rng.gauss(0.0, 0.03))


def shares(t):
    if RESTART[0] <= t < RESTART[1]:
        return {"r1": 1.0}
    if t >= FP8:
        return {"r1": 0.45, "r2": 0.33, "r3": 0.22}
    return {"r1": 0.4, "r2": 0.3, "r3": 0.2, "r4": 0.1}


def main():
    out = sys.stdout
    out.write("timestamp,instance,gpu,metric,value,deployment,le\n")
    counters = {r: [0.0, 0.0, 0.0] for r in ("r1", "r2", "r3", "r4")}  # requests, generation, prompt
    # Cumulative bucket counters per replica: TTFT then E2E, each bound then +Inf.
    buckets = {r: [0.0] * (len(TTFT_BOUNDS) + len(E2E_BOUNDS) + 2) for r in ("r1", "r2", "r3", "r4")}
    for step in range(STEPS):
        t = START + step * STEP
        stamp = t.strftime("%Y-%m-%dT%H:%M:%SZ")
        capacity = 2400.0 if t >= FP8 else 1400.0
        load = fleet_load(t)
        active = shares(t)
        if t == RESTART[1]:
            counters["r2"] = [0.0, 0.0, 0.0]
            counters["r3"] = [0.0, 0.0, 0.0]
            buckets["r2"] = [0.0] * len(buckets["r2"])
            buckets["r3"] = [0.0] * len(buckets["r3"])
        for replica in ("r1", "r2", "r3", "r4"):
            if replica not in active:
                continue
            tokens = load * active[replica]
            ratio = tokens / capacity
            rows = []
            for gpu in ("0", "1"):
                util = min(100.0, max(0.0, 8.0 + 85.0 * ratio + rng.gauss(0.0, 2.5)))
                fb = FB_TOTAL_MIB * (0.90 if t < FP8 else 0.88) + rng.gauss(0.0, 150.0)
                rows.append((gpu, "DCGM_FI_DEV_GPU_UTIL", f"{util:.0f}"))
                rows.append((gpu, "DCGM_FI_DEV_FB_USED", f"{min(fb, FB_TOTAL_MIB):.0f}"))
                if step % 12 == 0:
                    rows.append((gpu, "DCGM_FI_DEV_SM_CLOCK", "1980"))
            running = max(0.0, 48.0 * ratio + rng.gauss(0.0, 1.0))
            waiting = max(0.0, (ratio - 0.9) * 60.0 + rng.gauss(0.0, 0.05)) if ratio > 0.9 else 0.0
            kv = min(0.99, 0.05 + 0.85 * ratio + rng.gauss(0.0, 0.01))
            rows.append(("", "vllm:num_requests_running", f"{running:.0f}"))
            rows.append(("", "vllm:num_requests_waiting", f"{waiting:.0f}"))
            rows.append(("", "vllm:gpu_cache_usage_perc", f"{max(0.0, kv):.4f}"))
            generated = tokens * STEP.total_seconds()
            requests = generated / 250.0
            counters[replica][0] += requests
            counters[replica][1] += generated
            counters[replica][2] += requests * 900.0
            rows.append(("", "vllm:request_success_total", f"{counters[replica][0]:.0f}"))
            rows.append(("", "vllm:generation_tokens_total", f"{counters[replica][1]:.0f}"))
            rows.append(("", "vllm:prompt_tokens_total", f"{counters[replica][2]:.0f}"))
            for gpu, metric, value in rows:
                out.write(f"{stamp},{replica},{gpu},{metric},{value},{DEPLOYMENT},\n")
            ttft_median = 0.12 * (1.0 + 6.0 * ratio ** 4)
            e2e_median = ttft_median + 250 * 0.020 * (1.0 + ratio)
            b = buckets[replica]
            i = 0
            for bounds, median, spread, metric in (
                    (TTFT_BOUNDS, ttft_median, 0.5, "vllm:time_to_first_token_seconds_bucket"),
                    (E2E_BOUNDS, e2e_median, 0.35, "vllm:e2e_request_latency_seconds_bucket")):
                for le in bounds + (math.inf,):
                    share = 1.0 if math.isinf(le) else lognormal_cdf(le, median, spread)
                    b[i] += requests * share
                    bound = "+Inf" if math.isinf(le) else f"{le:g}"
                    out.write(f"{stamp},{replica},,{metric},{b[i]:.0f},{DEPLOYMENT},{bound}\n")
                    i += 1


if __name__ == "__main__":
    main()
