#!/usr/bin/env python3
"""Writes the seed corpus of every importer fuzz target into OUT/<target>/.

Seeds come from the repository's data/ folder (shipped catalogs, rate cards, demo workloads,
scenarios, training jobs, demand and telemetry samples), the small hand-written files in
tests/fuzz/seeds/<target>/, and the first lines of the public traces beside the repository
(HEADROOM_SHARED_DATA, ../shared/data or /work/shared/data), cut at run time: the traces
themselves are never copied into the repository.

Targets that read several formats take a selector byte first (see the target's source):
fuzz_alibaba 0 = node list, 1 = task list, 2 = pod list; fuzz_csv_series 0 = value series,
1 = one number a line.
"""
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAD_LINES = 60  # lines cut from each public trace


def shared_data():
    for candidate in (os.environ.get("HEADROOM_SHARED_DATA"), ROOT.parent / "shared" / "data",
                      "/work/shared/data"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


def head(path, lines=HEAD_LINES):
    out = []
    with open(path, "rb") as f:
        for _ in range(lines):
            line = f.readline()
            if not line:
                break
            out.append(line)
    return b"".join(out)


def split_json_list(path, key):
    """Each entry of {key: [...]} as a document of its own."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    return [json.dumps(entry, indent=2).encode() for entry in document.get(key, [])]


def main():
    out = Path(sys.argv[1])
    data = ROOT / "data"
    seeds = {}

    def add(target, name, content):
        seeds.setdefault(target, []).append((name, content))

    add("fuzz_ratecard_csv", "ratecards.csv", (data / "ratecards.csv").read_bytes())
    add("fuzz_catalog_json", "gpus.json", (data / "gpus.json").read_bytes())
    add("fuzz_catalog_json", "models.json", (data / "models.json").read_bytes())
    add("fuzz_workload_json", "chatbot-workload.json",
        (data / "samples" / "chatbot-workload.json").read_bytes())
    for i, entry in enumerate(split_json_list(data / "demo" / "workloads.json", "workloads")):
        add("fuzz_workload_json", f"demo-workload-{i}.json", entry)
    add("fuzz_training_json", "training-job.json", (data / "samples" / "training-job.json").read_bytes())
    for i, entry in enumerate(split_json_list(data / "demo" / "training_jobs.json", "training_jobs")):
        add("fuzz_training_json", f"demo-job-{i}.json", entry)
    for i, entry in enumerate(split_json_list(data / "demo" / "scenarios.json", "scenarios")):
        add("fuzz_scenario_json", f"demo-scenario-{i}.json", entry)
    demand = head(data / "demo" / "chatbot-fleet-demand.csv", 200)
    add("fuzz_csv_demand", "chatbot-fleet-demand.csv", demand)
    add("fuzz_csv_series", "series-from-demand.csv",
        b"\x00" + demand.replace(b"timestamp,gpus", b"timestamp,value"))
    add("fuzz_csv_telemetry", "telemetry.csv", head(data / "samples" / "telemetry.csv", 200))
    add("fuzz_step_times", "step-times-llama-3.1-8b-h100.csv",
        (data / "samples" / "step-times-llama-3.1-8b-h100.csv").read_bytes())
    add("fuzz_bench_json", "rate2.json",
        b'{"completed": 200, "total_input_tokens": 200000, "total_output_tokens": 30000, '
        b'"request_rate": 2.0, "max_concurrency": null, "mean_ttft_ms": 103, "mean_tpot_ms": 8.15}')
    add("fuzz_bench_json", "detailed.json",
        b'{"completed": 3, "input_lens": [100, 2000, 512], "output_lens": [10, 200, 64], '
        b'"request_rate": "inf", "max_concurrency": 8, "mean_e2el_ms": 950.5}')
    add("fuzz_metrics_csv", "serving-metrics.csv", head(data / "samples" / "serving-metrics.csv", 400))

    shared = shared_data()
    if shared:
        azure = shared / "traces" / "azure-llm-inference-2023"
        for name in ("AzureLLMInferenceTrace_code.csv", "AzureLLMInferenceTrace_conv.csv"):
            if (azure / name).is_file():
                add("fuzz_azure_trace", name, head(azure / name))
        mooncake = shared / "traces" / "mooncake-fast25" / "conversation_trace.jsonl"
        if mooncake.is_file():
            add("fuzz_mooncake_trace", "conversation_trace.jsonl", head(mooncake, 20))
        alibaba = shared / "alibaba-gpu-v2023"
        if (alibaba / "openb_node_list_gpu_node.csv").is_file():
            add("fuzz_alibaba", "nodes.csv", b"\x00" + head(alibaba / "openb_node_list_gpu_node.csv"))
        for name in ("openb_pod_list_default.csv", "openb_pod_list_gpuspec33.csv",
                     "openb_pod_list_multigpu50.csv"):
            if (alibaba / name).is_file():
                pods = head(alibaba / name)
                add("fuzz_alibaba", "tasks-" + name, b"\x01" + pods)
                add("fuzz_alibaba", "pods-" + name, b"\x02" + pods)
        focus = shared / "focus-examples"
        if focus.is_dir():
            for example in sorted(focus.glob("*.csv")):
                add("fuzz_focus_csv", example.name, example.read_bytes())
    else:
        print("make_seeds: public traces not found; trace targets start from the repository's "
              "hand-written seeds only", file=sys.stderr)

    handwritten = ROOT / "tests" / "fuzz" / "seeds"
    for folder in sorted(p for p in handwritten.iterdir() if p.is_dir()):
        for seed in sorted(folder.iterdir()):
            add(folder.name, "hand-" + seed.name, seed.read_bytes())

    for target, files in sorted(seeds.items()):
        folder = out / target
        folder.mkdir(parents=True, exist_ok=True)
        for name, content in files:
            (folder / name).write_bytes(content)
        print(f"make_seeds: {target}: {len(files)} seeds")


if __name__ == "__main__":
    main()
