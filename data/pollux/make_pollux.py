#!/usr/bin/env python3
"""Build data/pollux/ from Pollux's published simulator traces (petuum/adaptdl, branch
osdi21-artifact, folder simulator/).

    python3 data/pollux/make_pollux.py ADAPTDL_SIMULATOR_DIR

Writes, next to this script:
  applications.csv  one row per application: batch limits, epochs, and the throughput model
                    (Pollux's T_grad, T_sync and gamma) fitted to the application's measured
                    placements.csv and scalability.csv, with the fit's error;
  epochs.csv        per application, validated batch size and epoch: the progress at the
                    epoch's end and the gradient statistics (grad_sqr, grad_var) measured in it;
  workload-1.csv … workload-8.csv   the eight 160-job workloads, as published;
  published.csv     the average job completion times Pollux, Tiresias and Optimus reached on
                    them (results-jobload/*-1.0/summary.json).

Standard library only. The fit: for each gamma on a grid of 1 … 10, T_grad = a_c + b_c × m by
least squares on the measured compute time (step − sync), then the synchronization each
placement needs under that gamma, (step^g − T_grad^g)^(1/g), regressed on max(N − 2, 0) apart
for one node and for several; the gamma with the least root-mean-square log error of the step
time wins.
"""
import csv
import glob
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# As the simulator's applications.py sets them (max_epochs; yolov3's largest micro-batch), and
# the batch its Pollux runs hold NCF at (simulator.py).
MAX_EPOCHS = {"bert": 2, "cifar10": 100, "ncf": 10, "imagenet": 90, "deepspeech2": 80, "yolov3": 50}
MAX_LOCAL = {"yolov3": 8}
FIXED_BATCH = {"ncf": 32768}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def linear_fit(xs, ys):
    """Least squares y = a + b x with a, b ≥ 0."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = 0.0 if sxx == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    b = max(b, 0.0)
    a = max(my - b * mx, 0.0)
    return a, b


def samples(app_dir):
    rows = []
    for r in read_csv(os.path.join(app_dir, "placements.csv")):
        p = r["placement"]
        rows.append((len(p), sum(int(c) for c in p), float(r["local_bsz"]),
                     float(r["step_time"]), float(r["sync_time"])))
    for r in read_csv(os.path.join(app_dir, "scalability.csv")):
        rows.append((int(float(r["num_nodes"])), int(float(r["num_replicas"])), float(r["local_bsz"]),
                     float(r["step_time"]), float(r["sync_time"])))
    return rows


def fit(rows):
    ac, bc = linear_fit([r[2] for r in rows], [r[3] - r[4] for r in rows])
    best = None
    for i in range(0, 91):
        g = 1.0 + i * 0.1
        grad = lambda m: ac + bc * m
        fits = {}
        for multi in (False, True):
            pts = [r for r in rows if r[1] > 1 and (r[0] > 1) == multi]
            xs = [max(r[1] - 2, 0) for r in pts]
            ys = [max(r[3] ** g - grad(r[2]) ** g, 0.0) ** (1.0 / g) for r in pts]
            fits[multi] = linear_fit(xs, ys)
        err = 0.0
        for nodes, n, m, step, _ in rows:
            if n == 1:
                sync = 0.0
            else:
                a, b = fits[nodes > 1]
                sync = a + b * max(n - 2, 0)
            pred = (grad(m) ** g + sync ** g) ** (1.0 / g)
            err += (math.log(pred) - math.log(step)) ** 2
        rmsle = math.sqrt(err / len(rows))
        if best is None or rmsle < best[0]:
            best = (rmsle, g, fits)
    rmsle, g, fits = best
    return dict(alpha_c=ac, beta_c=bc, alpha_n=fits[True][0], beta_n=fits[True][1],
                alpha_r=fits[False][0], beta_r=fits[False][1], gamma=g, fit_rmsle=rmsle)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sim = sys.argv[1]
    apps, epochs = [], []
    for name in ("bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"):
        d = os.path.join(sim, "traces", name)
        validation = {}
        for path in glob.glob(os.path.join(d, "validation-*.csv")):
            validation[int(path.rsplit("-", 1)[1].split(".")[0])] = read_csv(path)
        local = [float(r["local_bsz"]) for r in read_csv(os.path.join(d, "placements.csv"))]
        f = fit(samples(d))
        apps.append(dict(application=name, init_batch=min(validation), max_batch=max(validation),
                         min_local_batch=int(min(local)), max_local_batch=MAX_LOCAL.get(name, int(max(local))),
                         max_epochs=MAX_EPOCHS[name], fixed_batch=FIXED_BATCH.get(name, 0),
                         **{k: ("%.6g" % v) for k, v in f.items()}))
        for batch in sorted(validation):
            for epoch, r in enumerate(validation[batch][:MAX_EPOCHS[name]]):
                epochs.append(dict(application=name, batch=batch, epoch=epoch, progress=r["progress"],
                                   grad_sqr=r["grad_sqr"], grad_var=r["grad_var"]))
    with open(os.path.join(HERE, "applications.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(apps[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(apps)
    with open(os.path.join(HERE, "epochs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(epochs[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(epochs)
    for i in range(1, 9):
        src = os.path.join(sim, "workloads", "workload-%d.csv" % i)
        with open(src) as s, open(os.path.join(HERE, "workload-%d.csv" % i), "w") as d:
            d.write(s.read())
    with open(os.path.join(HERE, "published.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["policy", "workload", "average_jct_seconds"])
        for policy in ("pollux", "tiresias", "optimus"):
            with open(os.path.join(sim, "results-jobload", policy + "-1.0", "summary.json")) as s:
                avgs = json.load(s)["avgs"]
            for i in range(1, 9):
                w.writerow([policy, "workload-%d" % i, "%.5f" % avgs["workload-%d" % i]])


if __name__ == "__main__":
    main()
