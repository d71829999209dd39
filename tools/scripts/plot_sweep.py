#!/usr/bin/env python3
"""Draws the sweep of `simdax_bench --sweep` (bench/sweep.hpp).

Usage: plot_sweep.py SWEEP_JSON OUT_DIR
Reads Google Benchmark's JSON (--benchmark_out), writes OUT_DIR/sweep.png and
OUT_DIR/sweep.svg and prints the ratios as text. Two rows of panels, one
panel per operator: top, total size N at a fixed row length; bottom, row
length at a fixed total. Each line is one ISA: CPU time per execute over the
CPU time of a memcpy of the same bytes, measured in the same run; the dashed
grey line is the read pass over those bytes (the read floor), on the same
scale. Needs Debian's python3-matplotlib.
"""
import json
import math
import os
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

OPS = ["log_softmax", "softmax", "hardmax", "mvn", "hard_sigmoid"]
ISA_ORDER = ["scalar", "avx2", "avx512", "avx512fp16", "neon", "neonfp16"]
OP_RE = re.compile(r"^sweep/(size|row)/(\w+)/f32/(\w+)/n=(\d+)/row=(\d+)")
BASE_RE = re.compile(r"^sweep/(size|row)/(memcpy|read)/f32/n=(\d+)/row=(\d+)")
UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load(path):
    """({(family, op, isa): {x: seconds}}, {(family, kind, x): seconds}, context);
    x is N for the size family, the row length for the row family."""
    with open(path) as f:
        doc = json.load(f)
    ops, bases = {}, {}
    for b in doc["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        t = b["cpu_time"] * UNIT_S[b["time_unit"]]
        m = OP_RE.match(b["name"])
        if m:
            family, op, isa = m.group(1), m.group(2), m.group(3)
            n, row = int(m.group(4)), int(m.group(5))
            ops.setdefault((family, op, isa), {})[n if family == "size" else row] = t
            continue
        m = BASE_RE.match(b["name"])
        if m:
            family, n, row = m.group(1), int(m.group(3)), int(m.group(4))
            bases[(family, m.group(2), n if family == "size" else row)] = t
    return ops, bases, doc.get("context", {})


def machine():
    """'<model name> (family F model M)' from lscpu, and the CPU's vector flags."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown CPU", ""
    info = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    info = {k.strip(): v.strip() for k, v in info.items()}
    name = info.get("Model name", "unknown CPU")
    if "CPU family" in info and "Model" in info:
        name += " (family %s model %s)" % (info["CPU family"], info["Model"])
    flags = info.get("Flags", "").split()
    wanted = ["avx2", "avx512f", "avx512_bf16", "avx512_fp16", "asimd", "asimdhp"]
    return name, " ".join(f for f in wanted if f in flags)


def ratios(ops, bases, family, op, isa):
    """Op time over the memcpy of its point, per x."""
    points = ops.get((family, op, isa), {})
    xs = [x for x in sorted(points) if bases.get((family, "memcpy", x))]
    return xs, [points[x] / bases[(family, "memcpy", x)] for x in xs]


def read_ratios(bases, family):
    """The read pass over the memcpy of the same point, per x."""
    xs = sorted(x for (f, k, x) in bases if f == family and k == "read"
                and (f, "memcpy", x) in bases)
    return xs, [bases[(family, "read", x)] / bases[(family, "memcpy", x)] for x in xs]


def cache_marks(context):
    """(label, N) where float32 input + output (8 bytes an element) fill each
    data cache of one core."""
    marks = []
    for c in context.get("caches", []):
        if c.get("type") in ("Data", "Unified") and c.get("size"):
            marks.append(("L%d" % c["level"], c["size"] // 8))
    return sorted(set(marks), key=lambda m: m[1])


def draw(ops, bases, context, out_dir):
    isas = sorted({k[2] for k in ops}, key=lambda i: ISA_ORDER.index(i) if i in ISA_ORDER else 99)
    cpu, flags = machine()
    fig, axes = plt.subplots(2, len(OPS), figsize=(4.2 * len(OPS), 8.4), sharey="row")
    families = [("size", "total elements N (rows of min(N, 1024); element-wise: flat)"),
                ("row", "row length (total 2^22 elements)")]
    for r, (family, xlabel) in enumerate(families):
        for c, op in enumerate(OPS):
            ax = axes[r][c]
            for isa in isas:
                xs, ys = ratios(ops, bases, family, op, isa)
                if xs:
                    ax.plot(xs, ys, marker="o", markersize=3, label=isa)
            xs, ys = read_ratios(bases, family)
            ax.plot(xs, ys, "--", color="grey", label="read pass")
            if family == "size":
                for label, elems in cache_marks(context):
                    ax.axvline(elems, color="grey", linewidth=0.8, linestyle=":")
                    ax.text(elems, 0.02, " " + label, transform=ax.get_xaxis_transform(),
                            ha="left", fontsize=8, color="grey")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.axhline(1.0, color="black", linewidth=0.6)
            ax.grid(True, which="major", alpha=0.3)
            ax.set_title("%s (%s)" % (op, "size" if family == "size" else "row length"),
                         fontsize=10)
            ax.set_xlabel(xlabel, fontsize=8)
            if c == 0:
                ax.set_ylabel("time / memcpy of the same bytes")
            if r == 0 and c == 0:
                ax.legend(fontsize=8)
    load = context.get("load_avg")
    fig.suptitle("simdax float32 cost growth, single thread, CPU time, ratio to memcpy in the "
                 "same run (%s)\n%s, %s cores; ISAs: %s; CPU flags: %s; "
                 "load average at the start %s"
                 % (context.get("date", "")[:10], cpu, context.get("num_cpus", "?"), " ".join(isas),
                    flags, "%.1f" % load[0] if load else "?"), fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    os.makedirs(out_dir, exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out_dir, "sweep." + ext), dpi=90)
    return isas


def print_text(ops, bases, isas):
    for family in ("size", "row"):
        print("\nsweep/%s: ratio to memcpy (%s)" % (family, ", ".join(isas)))
        xs_all = sorted({x for (f, _, _), pts in ops.items() if f == family for x in pts})
        print("  %-13s " % ("N" if family == "size" else "row") +
              " ".join("%9s" % ("2^%d" % int(math.log2(x))) for x in xs_all))
        for op in OPS:
            for isa in isas:
                xs, ys = ratios(ops, bases, family, op, isa)
                row = dict(zip(xs, ys))
                print("  %-13s " % ("%s %s" % (op[:8], isa)) +
                      " ".join("%9s" % ("%.2f" % row[x] if x in row else "-") for x in xs_all))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ops, bases, context = load(sys.argv[1])
    if not ops:
        sys.exit("no sweep/ results in %s" % sys.argv[1])
    isas = draw(ops, bases, context, sys.argv[2])
    print_text(ops, bases, isas)
    print("\nwrote %s/sweep.png and sweep.svg" % sys.argv[2])


if __name__ == "__main__":
    main()
