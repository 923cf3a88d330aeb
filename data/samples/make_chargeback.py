#!/usr/bin/env python3
"""Writes data/samples/gpu-claims.csv and data/samples/pool-billing.csv: a SYNTHETIC shared GPU
pool over 12 days from 2026-03-04 (the days of serving-metrics.csv), as Headroom's
`track chargeback --claims gpu-claims.csv --focus pool-billing.csv` reads it. No real cluster
or bill is behind these numbers.

Machines (FOCUS ResourceId) and how their GPUs are shared:
  p5-node-1   8 x H100 SXM, exclusive: the chat deployment (llama-3.1-70b-chat of
              serving-metrics.csv) as 4 replicas of 2 GPUs, down to 3 on 2026-03-10 when its
              weights move to FP8; from 2026-03-12 research trains on the 2 GPUs freed.
  mig-node-1  8 x H100 SXM in MIG: search on a 3g.40gb of every GPU, support on a 2g.20gb of
              GPUs 0-3, ocr on two 1g.10gb of GPUs 4-7 (ocr from 2026-03-08).
  ts-node-1   4 x L40S: time-slicing on GPUs 0-2 (data-science 0.5, analytics 0.25 of each),
              over-commit on GPU 3 (notebooks resident 12 and 20 GiB for two tenants).
  mps-node-1  1 x A100 SXM 80GB under MPS: ocr 0.4 and support 0.3 of the threads.
Billing: one hourly Usage charge per machine, EffectiveCost below ListCost for the H100 nodes (a
commitment's rate): p5-node-1 and mig-node-1 $78.66 an hour (list $98.32), ts-node-1 $7.44,
mps-node-1 $4.10; plus an unrelated storage volume at $0.35 an hour.
Deterministic, no external data.
Run: python3 data/samples/make_chargeback.py data/samples
"""
import os
import sys
from datetime import datetime, timedelta, timezone

START = datetime(2026, 3, 4, tzinfo=timezone.utc)
END = START + timedelta(days=12)
FP8 = datetime(2026, 3, 10, tzinfo=timezone.utc)
RESEARCH = datetime(2026, 3, 12, tzinfo=timezone.utc)
OCR = datetime(2026, 3, 8, tzinfo=timezone.utc)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def claims():
    rows = []

    def add(tenant, ns, model, deployment, resource, gpus, gpu_type, gpu, mode, start, end,
            profile="", share="", resident=""):
        rows.append([tenant, ns, model, deployment, resource, str(gpus), gpu_type, str(gpu), mode, profile,
                     share, resident, iso(start), iso(end)])

    for gpu in range(8):
        replica_end = FP8 if gpu >= 6 else END
        add("chat", "prod-chat", "llama-3.1-70b", "llama-3.1-70b-chat", "p5-node-1", 8, "h100-sxm", gpu,
            "exclusive", START, replica_end)
    for gpu in (6, 7):
        add("research", "research", "llama-3.1-8b", "", "p5-node-1", 8, "h100-sxm", gpu, "exclusive", RESEARCH, END)
    for gpu in range(8):
        add("search", "prod-search", "qwen3-32b", "", "mig-node-1", 8, "h100-sxm", gpu, "mig", START, END,
            profile="3g.40gb")
        if gpu < 4:
            add("support", "prod-support", "llama-3.1-8b", "", "mig-node-1", 8, "h100-sxm", gpu, "mig", START, END,
                profile="2g.20gb")
        else:
            for _ in range(2):
                add("ocr", "prod-ocr", "", "", "mig-node-1", 8, "h100-sxm", gpu, "mig", OCR, END, profile="1g.10gb")
    for gpu in range(3):
        add("data-science", "ds", "", "", "ts-node-1", 4, "l40s", gpu, "time-slice", START, END, share="0.5")
        add("analytics", "analytics", "", "", "ts-node-1", 4, "l40s", gpu, "time-slice", START, END, share="0.25")
    add("data-science", "ds", "", "", "ts-node-1", 4, "l40s", 3, "over-commit", START, END, resident="20")
    add("analytics", "analytics", "", "", "ts-node-1", 4, "l40s", 3, "over-commit", START, END, resident="12")
    add("ocr", "prod-ocr", "", "", "mps-node-1", 1, "a100-sxm-80gb", 0, "mps", START, END, share="0.4")
    add("support", "prod-support", "llama-3.1-8b", "", "mps-node-1", 1, "a100-sxm-80gb", 0, "mps", START, END,
        share="0.3")
    header = ("tenant,namespace,model,deployment,resource_id,resource_gpus,gpu_type,gpu,mode,profile,share,"
              "resident_gib,start,end")
    return header + "\n" + "\n".join(",".join(r) for r in rows) + "\n"


def billing():
    lines = ["BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ListCost,"
             "ResourceId,SkuId,ServiceName,PricingCategory"]
    machines = [("p5-node-1", "78.66", "98.32", "p5.48xlarge", "Committed"),
                ("mig-node-1", "78.66", "98.32", "p5.48xlarge", "Committed"),
                ("ts-node-1", "7.44", "7.44", "g6e.12xlarge", "Standard"),
                ("mps-node-1", "4.10", "4.10", "p4de.24xlarge-slice", "Standard"),
                ("vol-0a1b", "0.35", "0.35", "gp3", "Standard")]
    t = START
    while t < END:
        for resource, effective, listed, sku, pricing in machines:
            billed = "0" if pricing == "Committed" else effective
            service = "Storage" if resource.startswith("vol") else "Compute"
            lines.append(f"USD,{iso(t)},{iso(t + timedelta(hours=1))},Usage,{billed},{effective},{listed},{resource},"
                         f"{sku},{service},{pricing}")
        t += timedelta(hours=1)
    return "\n".join(lines) + "\n"


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(folder, "gpu-claims.csv"), "w", newline="") as f:
        f.write(claims())
    with open(os.path.join(folder, "pool-billing.csv"), "w", newline="") as f:
        f.write(billing())


if __name__ == "__main__":
    main()
