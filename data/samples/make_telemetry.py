#!/usr/bin/env python3
"""Writes data/samples/telemetry.csv: three weeks of hourly GPU usage by primitive
(tenant x model x workload type) in the long form Headroom imports:
timestamp,tenant,model,workload_type,gpus

Shapes: interactive chat peaks in the working day and dips at weekends; batch and
embedding jobs run at night; one primitive is sampled every 15 minutes (the import
averages samples within each hour). Deterministic: fixed seed, no external data.
Run: python3 data/samples/make_telemetry.py > data/samples/telemetry.csv
"""
import math
import random
import sys
from datetime import datetime, timedelta, timezone

START = datetime(2026, 3, 2, tzinfo=timezone.utc)  # a Monday
HOURS = 21 * 24

# tenant, model, workload type, baseline GPUs, daily peak above baseline, peak hour (UTC),
# weekend factor, growth per week, noise share, samples per hour
PRIMITIVES = [
    ("acme", "llama-3.1-70b", "chat", 24.0, 40.0, 14.0, 0.45, 0.04, 0.05, 1),
    ("acme", "llama-3.1-8b", "embedding", 6.0, 10.0, 2.0, 0.9, 0.02, 0.08, 1),
    ("globex", "mixtral-8x7b", "chat", 12.0, 22.0, 16.0, 0.55, 0.06, 0.06, 4),
    ("globex", "mixtral-8x7b", "batch", 4.0, 18.0, 1.0, 1.0, 0.00, 0.10, 1),
    ("initech", "qwen2.5-32b", "chat", 8.0, 14.0, 10.0, 0.35, 0.03, 0.07, 1),
    ("initech", "llama-3.1-8b", "batch", 2.0, 9.0, 3.0, 1.0, 0.01, 0.12, 1),
]


def bump(hour, peak, width=3.5):
    d = min(abs(hour - peak), 24 - abs(hour - peak))
    return math.exp(-d * d / (2 * width * width))


def main():
    rng = random.Random(20260302)
    out = sys.stdout
    out.write("timestamp,tenant,model,workload_type,gpus\n")
    rows = []
    for tenant, model, kind, base, peak, peak_hour, weekend, growth, noise, per_hour in PRIMITIVES:
        for h in range(HOURS):
            for k in range(per_hour):
                t = START + timedelta(hours=h, minutes=60 * k // per_hour)
                hour_of_day = t.hour + t.minute / 60.0
                is_weekend = t.weekday() >= 5
                level = base * (1 + growth * h / 168.0)
                value = level + peak * bump(hour_of_day, peak_hour) * (weekend if is_weekend else 1.0)
                value *= 1 + rng.gauss(0.0, noise)
                rows.append((t, tenant, model, kind, max(0.0, round(value, 2))))
    rows.sort(key=lambda r: (r[0], r[1], r[2], r[3]))
    for t, tenant, model, kind, gpus in rows:
        out.write(f"{t.strftime('%Y-%m-%dT%H:%M:%SZ')},{tenant},{model},{kind},{gpus:g}\n")


if __name__ == "__main__":
    main()
