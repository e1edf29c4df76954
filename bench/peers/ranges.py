#!/usr/bin/env python3
"""Summarises several full runs of scripts/run_benchmarks.sh as ranges, one row per case: the
README's highlights table ("lo-hi" over the runs, one thread / all threads).

Each argument is a results folder of one run (RESULTS_DIR, or build/release/bench-results),
holding dmlcpu.json and, where the peers ran, peers.json. Rows and figures are report.py's (the
same best repetition, the same byte accounting), so each range holds exactly the values the
runs' docs/bench.md tables show.

  RESULTS_DIR=/tmp/run1 scripts/run_benchmarks.sh   # three times, one folder each
  /usr/bin/python3 bench/peers/ranges.py /tmp/run1 /tmp/run2 /tmp/run3
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (report.py beside this file)


def span(values, digits, suffix=""):
    """'0.52-0.55' over the runs' values (rounded alike: three decimals below 0.1, one from 10
    on), '-' where no run has one."""
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    if max(values) < 0.1:  # small ratios keep two significant digits
        digits = max(digits, 3)
    elif min(values) >= 10 and digits > 0:
        digits = 1
    lo, hi = (f"{v:.{digits}f}" for v in (min(values), max(values)))
    return (lo if lo == hi else f"{lo}-{hi}") + suffix


def load_run(folder):
    dmlcpu, context = report.load_dmlcpu(os.path.join(folder, "dmlcpu.json"))
    peers, _ = report.load_peers(os.path.join(folder, "peers.json"))
    throughput, latency, _, _ = report.build_rows(dmlcpu, peers)
    return throughput, latency, context


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", help="results folders, one per run")
    args = parser.parse_args()

    runs = [load_run(folder) for folder in args.folders]
    cases = []  # dmlcpu_bench's order, as the first run has it
    by_case = {}
    for throughput, latency, _ in runs:
        for row in throughput + latency:
            if row["case"] not in by_case:
                cases.append(row["case"])
            by_case.setdefault(row["case"], {}).setdefault(row["threads"], []).append(row)

    def pair(case, field, digits, suffix=""):
        text = " / ".join(span([r.get(field) for r in by_case[case].get(threads, [])], digits,
                               suffix)
                          for threads in ("1", "all"))
        return "" if text == "- / -" else text

    machines = sorted({report.cache_text(context.get("caches", [])) for _, _, context in runs})
    models = sorted({context.get("cpu_model", "unknown") for _, _, context in runs})
    print(f"{len(runs)} run(s); {', '.join(models)}; {'; '.join(machines)}; "
          "one thread / all threads\n")
    header = ["case", "ratio to best copy (cold)", "read bound", "copy bound",
              "vs best of PyTorch, NumPy", "the same, both cold"]
    body = []
    for case in cases:
        rows = [r for rs in by_case[case].values() for r in rs]
        if "ns" in rows[0]:
            body.append([case, pair(case, "ns", 0, " ns"), "", "", pair(case, "speedup", 1, "x"),
                         ""])
            continue
        body.append([case, pair(case, "ratio", 2), pair(case, "read_bound", 2),
                     pair(case, "copy_bound", 2), pair(case, "speedup", 2, "x"),
                     pair(case, "cold_speedup", 2, "x")])
    print(report.markdown_table(header, body))


if __name__ == "__main__":
    main()
