#!/usr/bin/env python3
"""Old build against new build on the benchmark table, in one run.

  bench_ab.py OLD NEW FILTER [ROUNDS] [extra simdax_bench flags...]

OLD and NEW are commands that run simdax_bench, typically one bench binary
with LD_LIBRARY_PATH set to the old or the new libsimdax.so.0 directory
(docs/performance.md, "Old build against new build"). They run alternately,
ROUNDS times (default 2), each with --benchmark_filter=FILTER and 5
repetitions; per row and round it prints old -> new median real time and
new/old (below 1: new faster)."""
import json, os, subprocess, sys, tempfile


def medians(command, filt, extra):
    with tempfile.NamedTemporaryFile(suffix='.json', delete=False) as f:
        out = f.name
    run = subprocess.run([command, f'--benchmark_filter={filt}', '--benchmark_repetitions=5',
                          '--benchmark_report_aggregates_only=true', f'--benchmark_out={out}',
                          '--benchmark_out_format=json', *extra],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.exit(f"{command} failed ({run.returncode}):\n{run.stderr}")
    with open(out) as f:
        data = json.load(f)
    os.unlink(out)
    return {b['run_name']: b['real_time'] for b in data['benchmarks']
            if b.get('aggregate_name') == 'median'}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    old, new, filt = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    extra = sys.argv[5:]
    pairs = {}
    for _ in range(rounds):
        a, b = medians(old, filt, extra), medians(new, filt, extra)
        for name in b:
            if name in a:
                pairs.setdefault(name, []).append((a[name], b[name]))
    for name, v in pairs.items():
        print(f"{name:60s} " + "  ".join(f"{o:9.4g}->{n:9.4g} {n / o:5.3f}" for o, n in v))


if __name__ == '__main__':
    main()
