#!/usr/bin/env python3
"""Writes data/samples/job-telemetry.csv: SYNTHETIC GPU and CPU telemetry of three training jobs,
as Headroom's `track stalls --telemetry` reads it (timestamp,job,node,gpu,metric,value). No real
cluster is behind these numbers; the stalls are planted so that the audit's answer is known.

  llama-ft  2 nodes x 4 GPUs for 10 h from 2026-03-01, scraped every 5 minutes, 32 cores a node.
            GPUs 90 % active. Planted input stall on n1 from 02:00 to 03:30: 20 % active with
            the CPU at 97 % -> 4 GPUs x 1.5 h x 0.8 = 4.8 stalled GPU-hours. Two decoys on n2:
            idle with the CPU quiet (05:00-06:00, waiting on something else) and CPU saturated
            with the GPUs busy (07:00-08:00); neither is an input stall.
  vision    1 node x 2 GPUs for 4 h, DCGM_FI_DEV_GPU_UTIL only, its data loader reporting a
            25 % wait from 01:00 to 02:00 -> 0.5 stalled GPU-hours.
  clean     1 GPU for 3 h, busy, CPU saturated: no stall.
Throughput (training_throughput, per node, for `track goodput`): llama-ft makes 3,000 tokens/s a
GPU at 90 % active, in proportion to its activity (12,000 tokens/s a node; 2,666.67 in the stall,
1,333.33 in the quiet decoy, 11,333.33 with the CPU saturated). Against a plan of 3,000 tokens/s a
GPU flagged below 90 %, the hours starting 02:00 (1,833.33 a GPU), 03:00 (2,416.67) and 05:00
(1,666.67) fall below; 07:00 (2,916.67) does not. Shortfall 8 x (1 - 1,833.33/3,000) + 8 x
(1 - 2,416.67/3,000) + 8 x (1 - 1,666.67/3,000) = 8.222 GPU-hours. vision makes 400 images/s a GPU,
300 in its loader wait; clean reports none.
Deterministic, no external data.
Run: python3 data/samples/make_job_telemetry.py > data/samples/job-telemetry.csv
"""
from datetime import datetime, timedelta, timezone

T0 = datetime(2026, 3, 1, tzinfo=timezone.utc)
STEP = timedelta(minutes=5)


def within(t, a, b):
    return T0 + timedelta(hours=a) < t <= T0 + timedelta(hours=b)


def main():
    print("timestamp,job,node,gpu,metric,value")
    t = T0
    while t <= T0 + timedelta(hours=10):
        stamp = t.strftime("%Y-%m-%dT%H:%M:%SZ")
        for node in ("n1", "n2"):
            stall = node == "n1" and within(t, 2, 3.5)
            quiet = node == "n2" and within(t, 5, 6)
            busy_cpu = node == "n2" and within(t, 7, 8)
            active = 0.2 if stall else 0.1 if quiet else 0.85 if busy_cpu else 0.9
            cpu = 0.97 if stall else 0.3 if quiet else 0.99 if busy_cpu else 0.6
            for gpu in range(4):
                print(f"{stamp},llama-ft,{node},{gpu},DCGM_FI_PROF_GR_ENGINE_ACTIVE,{active}")
            print(f"{stamp},llama-ft,{node},,node_cpu_utilization,{cpu}")
            print(f"{stamp},llama-ft,{node},,cpu_cores,32")
            print(f"{stamp},llama-ft,{node},,training_throughput,{round(12000 * active / 0.9, 4)}")
        if t <= T0 + timedelta(hours=4):
            for gpu in range(2):
                print(f"{stamp},vision,n3,{gpu},DCGM_FI_DEV_GPU_UTIL,{70 if within(t, 1, 2) else 95}")
            print(f"{stamp},vision,n3,,dataloader_wait_ratio,{0.25 if within(t, 1, 2) else 0}")
            print(f"{stamp},vision,n3,,training_throughput,{600 if within(t, 1, 2) else 800}")
        if t <= T0 + timedelta(hours=3):
            print(f"{stamp},clean,n4,0,DCGM_FI_PROF_GR_ENGINE_ACTIVE,0.95")
            print(f"{stamp},clean,n4,,node_cpu_utilization,0.95")
        t += STEP


if __name__ == "__main__":
    main()
