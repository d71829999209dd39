"""End-to-end latency of all-MiniLM-L6-v2 (SentenceTransformer forward:
BERT, mean pooling, normalisation) on batches of 128-token inputs, for
stock eager, stock SDPA and eager with simdax, at 1 and 2 threads; plus the
share of time in the operators simdax replaces (LayerNorm, attention
softmax) and their mean time per call, from the torch profiler. Prints two
markdown tables.

    build/pyenv/bin/python examples/python/minilm_latency.py [--quick]
"""
from __future__ import annotations

import os
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

import simdax
from minilm import VARIANTS, load
from sentences import SENTENCES

SEQ = 128
BATCHES = {1: 60, 32: 8}  # batch -> timed repetitions
REPLACED = {  # profiler op names of the replaced operators, per variant
    "eager": ("aten::layer_norm", "aten::softmax"),  # the scores' scaling (aten::mul) not counted
    "sdpa": ("aten::layer_norm",),  # the softmax is inside SDPA's fused kernel
    "simdax": ("simdax::layer_norm", "simdax::attention_softmax"),  # scale fused
    "simdax-pool": ("simdax::layer_norm", "simdax::attention_softmax"),
}


def features(model, batch: int) -> dict:
    """batch copies of a text longer than SEQ tokens, cut to exactly SEQ."""
    model.max_seq_length = SEQ
    f = model.tokenize([" ".join(SENTENCES)] * batch)
    assert f["input_ids"].shape == (batch, SEQ), f["input_ids"].shape
    return f


def latencies_ms(models: dict, inputs: dict, reps: int) -> dict:
    """Best-of-reps latency per model. The models take turns, so load from
    other processes falls on all of them alike, and the best run is the one
    least disturbed by it (this runs on a 2-core machine shared with builds)."""
    times = {v: [] for v in models}
    with torch.inference_mode():
        for i in range(reps + 3):
            for v, model in models.items():
                start = time.perf_counter()
                model(dict(inputs[v]))
                if i >= 3:  # the first calls warm caches and plans
                    times[v].append((time.perf_counter() - start) * 1e3)
    return {v: min(t) for v, t in times.items()}


def replaced_share(model, f: dict, names, reps: int = 3):
    """The replaced ops' share of the profiled time, and each one's mean CPU
    time per call in us (the profiler's own cost included)."""
    with torch.inference_mode():
        model(dict(f))
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(reps):
                model(dict(f))
    events = prof.key_averages()
    total = sum(e.self_cpu_time_total for e in events)
    replaced = sum(e.cpu_time_total for e in events if e.key in names)
    per_call = {e.key: e.cpu_time_total / e.count for e in events if e.key in names}
    return replaced / total, per_call


def main() -> None:
    quick = "--quick" in sys.argv
    batches = {1: 5, 32: 1} if quick else BATCHES
    load_before = os.getloadavg()
    models = {v: load(v) for v in VARIANTS}
    rows = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        for batch, reps in batches.items():
            inputs = {v: features(model, batch) for v, model in models.items()}
            row = {"threads": threads, "batch": batch, **latencies_ms(models, inputs, reps)}
            for v, model in models.items():
                row[v + "_share"], row[v + "_per_call"] = replaced_share(
                    model, inputs[v], REPLACED[v], 1 if batch > 1 else 5)
            rows.append(row)
    info = simdax.info()
    load_after = os.getloadavg()
    print(f"load average before/after: {load_before[0]:.2f} / {load_after[0]:.2f} "
          f"on {os.cpu_count()} cores (other processes skew the 2-thread rows most)")
    print(f"torch {torch.__version__}, simdax {info['version']} isa={info['isa']}, "
          f"cpu {info['cpu']}, best of {batches} runs (batch: runs)\n")
    print("| threads | batch x tokens | stock eager ms | stock SDPA ms | eager + simdax ms "
          "| eager + simdax, simdax ops on simdax's pool ms | share of the replaced ops: eager / "
          "SDPA (LayerNorm only) / simdax / simdax on its pool |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['threads']} | {r['batch']}x{SEQ} | {r['eager']:.1f} | {r['sdpa']:.1f} | "
              f"{r['simdax']:.1f} | {r['simdax-pool']:.1f} | {r['eager_share']:.1%} / "
              f"{r['sdpa_share']:.1%} / {r['simdax_share']:.1%} / {r['simdax-pool_share']:.1%} |")
    print("\nMean CPU time per call inside the model (torch profiler), us: LayerNorm / "
          "softmax (torch: the softmax alone; simdax: scale and softmax)\n")
    print("| threads | batch x tokens | stock eager | eager + simdax | eager + simdax, simdax ops "
          "on simdax's pool |")
    print("| --- | --- | --- | --- | --- |")
    for r in rows:
        cells = [" / ".join(f"{r[v + '_per_call'].get(n, float('nan')):.0f}"
                            for n in REPLACED[v]) for v in ("eager", "simdax", "simdax-pool")]
        print(f"| {r['threads']} | {r['batch']}x{SEQ} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
