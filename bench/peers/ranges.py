#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Summarises several full runs of scripts/run_benchmarks.sh as ranges, one row per case: the
README's highlights table ("lo-hi" over the runs, one thread / all threads).

Each argument is a results folder of one run (RESULTS_DIR, or build/release/bench-results),
holding dmlcpu.json and, where the peers ran, peers.json. Rows and figures are report.py's (the
same best repetition, the same byte accounting), each end of a range rounded as report.py
rounds (ratios and bounds to two decimals here, three below 0.1). A cell that fewer runs than
all fill (a run without peers.json, or without the case) is named on stderr.

  RESULTS_DIR=/tmp/run1 scripts/run_benchmarks.sh   # three times, one folder each
  /usr/bin/python3 bench/peers/ranges.py /tmp/run1 /tmp/run2 /tmp/run3
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (report.py beside this file)

THREADS = ("1", "all")


def span(values, digits, suffix=""):
    """'0.52-0.55' over the runs' values, '-' where no run has one (digits 0: whole numbers)."""
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    if max(values) < 0.1:  # small ratios keep a second significant digit
        digits = max(digits, 3)
    lo, hi = (f"{v:.0f}" if digits == 0 else report.fmt(v, digits)
              for v in (min(values), max(values)))
    return (lo if lo == hi else f"{lo}-{hi}") + suffix


def load_run(folder):
    path = os.path.join(folder, "dmlcpu.json")
    if not os.path.exists(path):
        sys.exit(f"ranges.py: {path} not found (a results folder of run_benchmarks.sh?)")
    dmlcpu, context = report.load_dmlcpu(path)
    peers, _ = report.load_peers(os.path.join(folder, "peers.json"))
    throughput, latency, _, _ = report.build_rows(dmlcpu, peers)
    return throughput, latency, context


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", help="results folders, one per run")
    args = parser.parse_args()

    runs = [load_run(folder) for folder in args.folders]
    # Throughput cases first, then the tiny ones, each in the order the runs list them.
    throughput_cases, latency_cases = [], []
    by_case = {}  # case -> threads label -> rows, one per run that has it
    for throughput, latency, _ in runs:
        for rows, order in ((throughput, throughput_cases), (latency, latency_cases)):
            for row in rows:
                if row["case"] not in by_case:
                    order.append(row["case"])
                by_case.setdefault(row["case"], {}).setdefault(row["threads"], []).append(row)

    def pair(case, field, digits, suffix=""):
        texts = []
        for threads in THREADS:
            values = [r.get(field) for r in by_case[case].get(threads, [])]
            filled = sum(v is not None for v in values)
            if 0 < filled < len(runs):
                print(f"ranges.py: {case} threads:{threads} {field}: {filled} of {len(runs)} "
                      "runs", file=sys.stderr)
            texts.append(span(values, digits, suffix))
        text = " / ".join(texts)
        return "" if text == "- / -" else text

    machines = sorted({report.machine_text(context) for _, _, context in runs})
    print("; ".join([f"{len(runs)} run(s)"] + machines + ["one thread / all threads"]))
    print()
    header = ["case", "ratio to best copy (cold)", "read bound", "copy bound",
              "vs best of PyTorch, NumPy", "the same, both cold"]
    body = []
    for case in throughput_cases:
        body.append([case, pair(case, "ratio", 2), pair(case, "read_bound", 2),
                     pair(case, "copy_bound", 2), pair(case, "speedup", 2, "x"),
                     pair(case, "cold_speedup", 2, "x")])
    for case in latency_cases:
        body.append([case, pair(case, "ns", 0, " ns"), "", "", pair(case, "speedup", 2, "x"), ""])
    print(report.markdown_table(header, body))


if __name__ == "__main__":
    main()
