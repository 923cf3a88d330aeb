#!/usr/bin/env python3
"""Writes data/samples/serving-metrics.csv: SYNTHETIC serving telemetry in the shape of a
DCGM-exporter / Prometheus range-query export (timestamp,instance,gpu,metric,value,deployment),
as Headroom's `track import --metrics` reads it. No real cluster is behind these numbers.

One deployment, llama-3.1-70b-chat: replicas of 2 GPUs (tensor parallel 2) behind a load
balancer that does not spread load evenly, sampled every 30 minutes for 12 days from
2026-03-04. Load follows the working day (peak 15:00 UTC, quieter at weekends). On
2026-03-10 the weights move to FP8: each replica serves more tokens per second before it
queues (1,400 → 2,400 tokens/s), and the fourth replica is retired. On 2026-03-12 at 14:00
and 14:30 UTC a rolling restart takes r2 and r3 out, r1 carries their load and the counters of
r2 and r3 restart from 0. A GPU clock metric the importer does not read is included every 6 h.
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
    out.write("timestamp,instance,gpu,metric,value,deployment\n")
    counters = {r: [0.0, 0.0, 0.0] for r in ("r1", "r2", "r3", "r4")}  # requests, generation, prompt
    for step in range(STEPS):
        t = START + step * STEP
        stamp = t.strftime("%Y-%m-%dT%H:%M:%SZ")
        capacity = 2400.0 if t >= FP8 else 1400.0
        load = fleet_load(t)
        active = shares(t)
        if t == RESTART[1]:
            counters["r2"] = [0.0, 0.0, 0.0]
            counters["r3"] = [0.0, 0.0, 0.0]
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
                out.write(f"{stamp},{replica},{gpu},{metric},{value},{DEPLOYMENT}\n")


if __name__ == "__main__":
    main()
