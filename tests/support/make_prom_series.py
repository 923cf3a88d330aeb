#!/usr/bin/env python3
"""Writes one set of SYNTHETIC DCGM-exporter and vLLM samples twice: as OpenMetrics text for
`promtool tsdb create-blocks-from openmetrics` (a Prometheus server then serves them), and as
Headroom's serving metrics CSV (core/store/README.md, "Serving metrics CSV"), so the Prometheus
source and the CSV import can be compared sample for sample.

  make_prom_series.py {--om FILE | --om-dir DIR} [--csv FILE] [--range FILE] [--start EPOCH]
                      [--hours H] [--interval S] [--replicas N] [--gpus-per-replica G]
                      [--deployments D] [--seed S]

--om-dir writes one OpenMetrics file per 2-hour block of time (DIR/<its first epoch>.om) instead
of one file: promtool reads its whole input once for every block it cuts, so a week in one file
is read 84 times. --range writes "START HOURS" for a script to pass on.

Replicas r1 … rN are dealt round-robin to the deployments (chat, code, embed, …). Every replica
has its GPUs' DCGM_FI_DEV_GPU_UTIL (percent) and DCGM_FI_DEV_FB_USED (MiB), labels instance, gpu,
deployment; and vLLM's gauges vllm:num_requests_running, vllm:num_requests_waiting,
vllm:gpu_cache_usage_perc (0–1), the counters vllm:request_success_total,
vllm:generation_tokens_total, vllm:prompt_tokens_total and the bucket counters
vllm:time_to_first_token_seconds_bucket and vllm:e2e_request_latency_seconds_bucket (le 0.05 …
+Inf), labels instance, deployment (and le). Three replicas are unusual (with fewer replicas
one carries several of these):
  - r1's counters, buckets included, restart from a small value two thirds of the way through
    (the server restarted);
  - r2 exports the renamed gauge vllm:kv_cache_usage_perc (newer vLLM) instead of
    vllm:gpu_cache_usage_perc;
  - r3 has no sample at all for 20 minutes (at least three intervals) from halfway through.
Samples fall every --interval seconds from --start (default 2026-03-02T00:00:00Z), whole
seconds, for --hours hours. Load follows the day (peak 15:00 UTC) with noise from a fixed seed:
the same arguments give the same files.

The OpenMetrics text has no # TYPE or # HELP lines (untyped samples keep their names, _total and
_bucket included), the samples of one metric name together, each series in time order, and ends
with "# EOF". The CSV has the columns timestamp,instance,gpu,metric,value,deployment,le with
epoch-second timestamps and the same value strings.
"""
import argparse
import math
import os
import random
import shutil
import sys
import tempfile

DEFAULT_START = 1772409600  # 2026-03-02T00:00:00Z
DEPLOYMENT_NAMES = ("chat", "code", "embed", "summarize", "rerank", "vision", "audio", "batch")
LE_BOUNDS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
LE_LABELS = ("0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "+Inf")
FB_TOTAL_MIB = 81559
GAP_SECONDS = 1200
BLOCK_SECONDS = 7200  # promtool's block length

GPU_UTIL = "DCGM_FI_DEV_GPU_UTIL"
FB_USED = "DCGM_FI_DEV_FB_USED"
RUNNING = "vllm:num_requests_running"
WAITING = "vllm:num_requests_waiting"
CACHE = "vllm:gpu_cache_usage_perc"
KV_CACHE = "vllm:kv_cache_usage_perc"
SUCCESS = "vllm:request_success_total"
GENERATION = "vllm:generation_tokens_total"
PROMPT = "vllm:prompt_tokens_total"
TTFT = "vllm:time_to_first_token_seconds_bucket"
E2E = "vllm:e2e_request_latency_seconds_bucket"
# Metric names in the order the OpenMetrics file lists them.
METRICS = (GPU_UTIL, FB_USED, RUNNING, WAITING, CACHE, KV_CACHE, SUCCESS, GENERATION, PROMPT, TTFT, E2E)


def lognormal_cdf(x, median, spread):
    return 0.5 * (1.0 + math.erf((math.log(x) - math.log(median)) / (spread * math.sqrt(2.0))))


def deployment_name(i):
    return DEPLOYMENT_NAMES[i] if i < len(DEPLOYMENT_NAMES) else "deployment-%d" % (i + 1)


def number(v):
    """A value as both files write it: integers without a point, others at most 4 decimals."""
    if isinstance(v, int):
        return str(v)
    return repr(round(v, 4))


class Replica:
    """One replica's series, stepped through time: step(t) gives its samples at t."""

    def __init__(self, args, r, steps):
        self.rng = rng = random.Random(args.seed * 1000003 + r)
        n = args.replicas
        self.instance = "r%d" % (r + 1)
        self.deployment = deployment_name(r % args.deployments)
        self.gpus = [str(g) for g in range(args.gpus_per_replica)]
        self.interval = args.interval
        self.step_index = 0
        self.reset_step = (2 * steps) // 3 if r == 0 else -1
        gap_from = args.start + (steps // 2) * args.interval
        self.gap = (gap_from, gap_from + max(GAP_SECONDS, 3 * args.interval)) if r == 2 % n else (0, 0)
        self.share = 0.6 + 0.8 * rng.random()  # how much of the deployment's traffic this replica gets
        self.cache_metric = KV_CACHE if r == 1 % n else CACHE
        # Counters start where a long-running server would be; r1's start again at its reset.
        self.success = rng.randint(10000, 90000)
        self.generation = self.success * rng.randint(150, 350)
        self.prompt = self.success * rng.randint(400, 900)
        self.ttft = [int(self.success * lognormal_cdf(b, 0.15, 0.6)) for b in LE_BOUNDS] + [self.success]
        self.e2e = [int(self.success * lognormal_cdf(b, 1.2, 0.5)) for b in LE_BOUNDS] + [self.success]

    def step(self, t):
        """[(metric, gpu, le, value string)] at time t: nothing while the scrape fails."""
        rng = self.rng
        hour = (t % 86400) / 3600.0
        day = 0.5 + 0.5 * math.cos((hour - 15.0) / 24.0 * 2.0 * math.pi)
        load = max(0.02, min(1.0, self.share * (0.15 + 0.75 * day) * (1.0 + rng.gauss(0.0, 0.08))))
        requests = int(load * 4.0 * self.interval * (1.0 + rng.gauss(0.0, 0.05)))
        if self.step_index == self.reset_step:
            self.success = self.generation = self.prompt = 0
            self.ttft = [0] * len(LE_LABELS)
            self.e2e = [0] * len(LE_LABELS)
            requests = max(1, requests // 10)  # the restarted server's first, partial interval
        self.step_index += 1
        self.success += requests
        self.generation += requests * rng.randint(180, 260)
        self.prompt += requests * rng.randint(500, 800)
        ttft_median = 0.12 * (1.0 + 6.0 * load ** 4)
        e2e_median = ttft_median + 250 * 0.02 * (1.0 + load)
        for b, bound in enumerate(LE_BOUNDS):
            self.ttft[b] += int(requests * lognormal_cdf(bound, ttft_median, 0.5))
            self.e2e[b] += int(requests * lognormal_cdf(bound, e2e_median, 0.35))
        self.ttft[-1] += requests
        self.e2e[-1] += requests
        utils = [max(0, min(100, int(round(100 * load + rng.gauss(0.0, 4.0))))) for _ in self.gpus]
        fb = [int(FB_TOTAL_MIB * (0.88 + 0.05 * load)) - rng.randint(0, 64) for _ in self.gpus]
        waiting = max(0, int(round((load - 0.75) * 60 + rng.gauss(0.0, 1.0)))) if load > 0.7 else 0
        cache = round(min(1.0, max(0.0, 0.9 * load + rng.gauss(0.0, 0.02))), 4)
        if self.gap[0] <= t < self.gap[1]:
            return []  # the scrape failed: no sample of any series (the counters went on counting)
        out = []
        for g, gpu in enumerate(self.gpus):
            out.append((GPU_UTIL, gpu, "", number(utils[g])))
            out.append((FB_USED, gpu, "", number(fb[g])))
        out.append((RUNNING, "", "", number(int(round(load * 48)))))
        out.append((WAITING, "", "", number(waiting)))
        out.append((self.cache_metric, "", "", number(cache)))
        out.append((SUCCESS, "", "", number(self.success)))
        out.append((GENERATION, "", "", number(self.generation)))
        out.append((PROMPT, "", "", number(self.prompt)))
        for b, le in enumerate(LE_LABELS):
            out.append((TTFT, "", le, number(self.ttft[b])))
        for b, le in enumerate(LE_LABELS):
            out.append((E2E, "", le, number(self.e2e[b])))
        return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--om", help="the OpenMetrics file to write")
    p.add_argument("--om-dir", help="write the OpenMetrics text as one file per %dh block instead, "
                   "DIR/<first epoch>.om (promtool reads each once)" % (BLOCK_SECONDS // 3600))
    p.add_argument("--csv", help="the serving metrics CSV to write (none when left out)")
    p.add_argument("--range", help="write \"START HOURS\" (the first sample's epoch, the hours) to this file")
    p.add_argument("--start", type=int, default=DEFAULT_START, help="first sample, Unix epoch seconds")
    p.add_argument("--hours", type=float, default=6, help="hours of samples (default 6)")
    p.add_argument("--interval", type=int, default=60, help="seconds between samples (default 60)")
    p.add_argument("--replicas", type=int, default=3)
    p.add_argument("--gpus-per-replica", type=int, default=2)
    p.add_argument("--deployments", type=int, default=2)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    if args.interval < 1 or args.hours <= 0 or args.replicas < 1 or args.gpus_per_replica < 1 \
            or args.deployments < 1:
        p.error("--interval, --hours, --replicas, --gpus-per-replica and --deployments must be positive")
    if not args.om and not args.om_dir:
        p.error("--om or --om-dir is required")

    end = args.start + int(round(args.hours * 3600))
    times = range(args.start, end, args.interval)
    replicas = [Replica(args, r, len(times)) for r in range(args.replicas)]
    prefixes = {}  # (replica, metric, gpu, le) -> 'metric{labels} '

    def prefix(r, metric, gpu, le):
        key = (r, metric, gpu, le)
        text = prefixes.get(key)
        if text is None:
            labels = 'instance="%s"' % replicas[r].instance
            if gpu:
                labels += ',gpu="%s"' % gpu
            labels += ',deployment="%s"' % replicas[r].deployment
            if le:
                labels += ',le="%s"' % le
            text = prefixes[key] = "%s{%s} " % (metric, labels)
        return text

    # Lines are gathered per metric name for one block's time (BLOCK_SECONDS, epoch-aligned as
    # promtool cuts blocks), time by time, so each series is in time order and each metric's
    # samples are together. With --om-dir a block's lines become one file; with --om they go to
    # one temporary file per metric name, joined at the end.
    om_parts = None
    if args.om:
        part_dir = os.path.dirname(os.path.abspath(args.om))
        om_parts = {m: tempfile.TemporaryFile("w+", dir=part_dir, buffering=1 << 20) for m in METRICS}
    if args.om_dir:
        os.makedirs(args.om_dir, exist_ok=True)
    csv = open(args.csv, "w", buffering=1 << 20, newline="") if args.csv else None
    samples = 0

    def flush(lines, block):
        if om_parts:
            for m in METRICS:
                if lines[m]:
                    om_parts[m].write("".join(lines[m]))
        if args.om_dir and any(lines.values()):
            with open(os.path.join(args.om_dir, "%d.om" % block), "w", buffering=1 << 20) as f:
                for m in METRICS:
                    f.write("".join(lines[m]))
                f.write("# EOF\n")

    try:
        if csv:
            csv.write("timestamp,instance,gpu,metric,value,deployment,le\n")
        lines = {m: [] for m in METRICS}
        block = None
        for t in times:
            if block is not None and t // BLOCK_SECONDS != block:
                flush(lines, block * BLOCK_SECONDS)
                lines = {m: [] for m in METRICS}
            block = t // BLOCK_SECONDS
            stamp = " %d\n" % t
            rows = []
            for r, replica in enumerate(replicas):
                for metric, gpu, le, v in replica.step(t):
                    lines[metric].append(prefix(r, metric, gpu, le) + v + stamp)
                    if csv:
                        rows.append("%d,%s,%s,%s,%s,%s,%s\n" % (t, replica.instance, gpu, metric, v,
                                                              replica.deployment, le))
                    samples += 1
            if csv:
                csv.write("".join(rows))
        if block is not None:
            flush(lines, block * BLOCK_SECONDS)
        if om_parts:
            with open(args.om, "w", buffering=1 << 20) as om:
                for m in METRICS:
                    om_parts[m].seek(0)
                    shutil.copyfileobj(om_parts[m], om, 1 << 20)
                om.write("# EOF\n")
    finally:
        for f in (om_parts or {}).values():
            f.close()
        if csv:
            csv.close()
    if args.range:
        with open(args.range, "w") as f:
            f.write("%d %g\n" % (args.start, args.hours))
    print("make_prom_series.py: %d samples, %d replicas, %d to %d" % (samples, args.replicas, args.start, end),
          file=sys.stderr)


if __name__ == "__main__":
    main()
