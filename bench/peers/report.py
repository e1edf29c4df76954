#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""dmlcpu benchmarks -- merges dmlcpu_bench's JSON with peers.py's JSON into one table and a chart.

  /usr/bin/python3 bench/peers/report.py --dmlcpu dmlcpu.json --peers peers.json \
      --png docs/bench.png --md docs/bench.md

Columns (throughput cases): dmlcpu GB/s (fastest call) and its mean, memcpy GB/s, NT copy GB/s,
PyTorch GB/s, NumPy GB/s, ONNX Runtime GB/s (CPU execution provider, onnxruntime-node); `ratio` = best copy time / dmlcpu time for the output's bytes (1.0 =
as fast as the faster pure copy, measured in the same run with the same threads); `memcpy ratio`
= the same for glibc memcpy itself (what regular stores reach on a cold destination); `vs best
peer` = dmlcpu's speed-up over the faster peer (same case, same thread setting, same byte
accounting); `vs best peer, cold` = the same between cold calls (dmlcpu's interleaved rounds,
the peers' calls after peers.py's cache eviction); `bound` (gathers) = memcpy traffic /
unavoidable traffic; `read bound` = best copy time / time to merely read the input lines the
case must read; `copy bound` (where those lines are no more bytes than the output) = best copy
time / time to copy just those lines (a gather's block after block in output order) into a
buffer of their size. GB/s are from fastest calls
(dmlcpu: the repetition with the fastest Execute, with that repetition's own counters; copies:
fastest of repeated calls; peers: best sample; `ratio`: fastest calls of interleaved rounds of
dmlcpu, memcpy and NT copy): on a shared, noisy machine the fastest call is the least disturbed
one.
Latency cases (tiny operators) are reported in nanoseconds per call; Compile latency separately.
Case names carry their shape and type (case_labels.py).

The chart has one column per thread setting and two linear panels in each: dmlcpu's speed-up over
the best peer per case (two bars: repeated calls = `vs best peer`, cold calls = `vs best peer,
cold`), and dmlcpu's ratio to the best copy (`ratio to copy`). Each bar is labelled with its own
value, so a bar and its label always come from the same measurement.
"""

import argparse
import datetime
import json
import os
import re
import sys

from case_labels import case_label

NAME_RE = re.compile(r"^(?P<case>[^/]+)/threads:(?P<threads>[^/]+)")
TIME_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
FIELDS = ("dmlcpu_GBps", "mean_GBps", "memcpy_GBps", "nt_GBps", "ratio", "bound", "read_bound",
          "copy_bound",
          "threads", "interleaved_GBps", "interleaved_memcpy_GBps", "interleaved_nt_GBps",
          "ns_per_execute", "ns_per_compile", "bytes_per_second", "real_time")


def load_dmlcpu(path):
    """{(case, threads_label): {field: value}} from Google Benchmark JSON, plus its context."""
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    runs = {}
    for entry in document.get("benchmarks", []):
        match = NAME_RE.match(entry.get("run_name", entry["name"]))
        if entry.get("error_occurred"):
            print(f"report.py: {entry['name']}: {entry.get('error_message')}", file=sys.stderr)
            continue
        if not match or entry.get("run_type") == "aggregate":
            continue
        values = {k: entry[k] for k in FIELDS if k in entry}
        values["seconds"] = values["real_time"] * TIME_UNIT_SECONDS[entry["time_unit"]]
        runs.setdefault((match["case"], match["threads"]), []).append(values)
    # The best repetition: fastest call for throughput cases, lowest mean for latency cases.
    merged = {key: (max(reps, key=lambda v: v["dmlcpu_GBps"]) if "dmlcpu_GBps" in reps[0]
                    else min(reps, key=lambda v: v["seconds"]))
              for key, reps in runs.items()}
    for key, reps in runs.items():
        merged[key]["repetitions"] = len(reps)
    return merged, document.get("context", {})


def load_peers(path):
    """{(case, threads_label, peer): record} from peers.py's JSON."""
    if not path or not os.path.exists(path):
        return {}, {}
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    return ({(r["case"], r["threads"], r["peer"]): r for r in document["results"]},
            document.get("context", {}))


def fmt(value, digits=2):
    if value is None:
        return "-"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.{digits}f}"


def build_rows(dmlcpu, peers):
    """Ordered rows for the three tables, in dmlcpu_bench's order."""
    throughput, latency, compile_rows, warnings = [], [], [], []
    for (case, threads), d in dmlcpu.items():
        torch_record = peers.get((case, threads, "torch"))
        numpy_record = peers.get((case, threads, "numpy"))
        ort_record = peers.get((case, threads, "onnxruntime"))
        peer_records = [r for r in (torch_record, numpy_record, ort_record) if r]
        if "ns_per_compile" in d:
            compile_rows.append({"case": case, "threads": threads, "ns": d["ns_per_compile"]})
            continue
        moved_bytes = d["bytes_per_second"] * d["seconds"]
        if "dmlcpu_GBps" in d:
            seconds = moved_bytes / (d["dmlcpu_GBps"] * 1e9)  # fastest call
        else:
            seconds = d["seconds"]  # mean of the fastest repetition
        for record in peer_records:
            if abs(record["moved_bytes"] - moved_bytes) > 0.005 * moved_bytes + 8:
                warnings.append(f"{case}: byte accounting differs (dmlcpu {moved_bytes:.0f}, "
                                f"{record['peer']} {record['moved_bytes']})")
        best_peer = min(peer_records, key=lambda r: r["seconds"]) if peer_records else None
        cold_records = [r for r in peer_records if "cold_seconds" in r]
        best_cold_peer = (min(cold_records, key=lambda r: r["cold_seconds"]) if cold_records
                          else None)
        row = {
            "case": case,
            "threads": threads,
            "thread_count": int(d.get("threads", 0)),
            "torch": torch_record,
            "numpy": numpy_record,
            "onnxruntime": ort_record,
            "best_peer": best_peer,
            "seconds": seconds,
            "speedup": best_peer["seconds"] / seconds if best_peer else None,
        }
        if "ns_per_execute" in d:
            row["ns"] = d["ns_per_execute"]
            latency.append(row)
        else:
            # The cold memcpy's own ratio: the faster copy's time / memcpy's (both move the
            # same bytes, so the inverse ratio of their GB/s), what regular stores reach.
            il_memcpy = d.get("interleaved_memcpy_GBps")
            il_nt = d.get("interleaved_nt_GBps")
            memcpy_ratio = (il_memcpy / max(il_memcpy, il_nt)
                            if il_memcpy and il_nt else None)
            # Cold against cold: dmlcpu's fastest call of the interleaved rounds (flushed
            # caches) against the peer's fastest call after its cache eviction, same bytes.
            # Times, not GB/s: a peer that counts its bytes differently cannot skew it.
            row["cold_GBps"] = d.get("interleaved_GBps")
            row["cold_seconds"] = (moved_bytes / (row["cold_GBps"] * 1e9)
                                   if row["cold_GBps"] else None)
            row["best_cold_peer"] = best_cold_peer
            row["cold_speedup"] = (best_cold_peer["cold_seconds"] / row["cold_seconds"]
                                   if row["cold_seconds"] and best_cold_peer else None)
            row.update(dmlcpu_GBps=d["dmlcpu_GBps"], mean_GBps=d.get("mean_GBps"),
                       memcpy_ratio=memcpy_ratio, memcpy_GBps=d.get("memcpy_GBps"),
                       nt_GBps=d.get("nt_GBps"), ratio=d.get("ratio"), bound=d.get("bound"),
                       read_bound=d.get("read_bound"), copy_bound=d.get("copy_bound"))
            throughput.append(row)
    return throughput, latency, compile_rows, warnings


def peer_gbps(record):
    return record["GBps"] if record else None


def peer_ns(record):
    return record["ns_per_call"] if record else None


def throughput_table(rows):
    header = ["case", "threads", "dmlcpu GB/s", "(mean)", "memcpy GB/s", "NT copy GB/s",
              "PyTorch GB/s", "NumPy GB/s", "ONNX Runtime GB/s", "ratio to copy", "memcpy ratio",
              "vs best peer",
              "vs best peer, cold", "bound", "read bound", "copy bound"]
    body = []
    for r in rows:
        body.append([case_label(r["case"]), r["threads"], fmt(r["dmlcpu_GBps"]),
                     fmt(r["mean_GBps"]), fmt(r["memcpy_GBps"]),
                     fmt(r["nt_GBps"]), fmt(peer_gbps(r["torch"])), fmt(peer_gbps(r["numpy"])),
                     fmt(peer_gbps(r["onnxruntime"])),
                     fmt(r["ratio"], 3), fmt(r["memcpy_ratio"], 3),
                     (fmt(r["speedup"]) + "x") if r["speedup"] else "-",
                     (fmt(r["cold_speedup"]) + "x") if r["cold_speedup"] else "-",
                     fmt(r["bound"], 3) if r["bound"] else "-",
                     fmt(r["read_bound"], 3) if r["read_bound"] else "-",
                     fmt(r["copy_bound"], 3) if r["copy_bound"] else "-"])
    return header, body


def latency_table(rows):
    header = ["case", "threads", "dmlcpu ns/call", "PyTorch ns/call", "NumPy ns/call",
              "ONNX Runtime ns/call", "vs best peer"]
    body = [[case_label(r["case"]), r["threads"], fmt(r["ns"], 1), fmt(peer_ns(r["torch"]), 0),
             fmt(peer_ns(r["numpy"]), 0), fmt(peer_ns(r["onnxruntime"]), 0),
             (fmt(r["speedup"]) + "x") if r["speedup"] else "-"]
            for r in rows]
    return header, body


def compile_table(rows):
    return (["case", "threads", "ns per Compile"],
            [[r["case"], r["threads"], fmt(r["ns"], 1)] for r in rows])


def text_table(header, body):
    widths = [max(len(str(x)) for x in column) for column in zip(header, *body)]
    lines = ["  ".join(h.ljust(w) if i < 2 else h.rjust(w)
                       for i, (h, w) in enumerate(zip(header, widths)))]
    lines.append("  ".join("-" * w for w in widths))
    for row in body:
        lines.append("  ".join(str(x).ljust(w) if i < 2 else str(x).rjust(w)
                               for i, (x, w) in enumerate(zip(row, widths))))
    return "\n".join(lines)


def markdown_table(header, body):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(":---" if i < 2 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in body]
    return "\n".join(lines)


def time_text(seconds):
    """'2.423 ms', or '9.81 µs' below a millisecond."""
    return f"{seconds * 1e3:.3f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.2f} µs"


def slower_than_peer(throughput, latency):
    lines = []
    for r in throughput + latency:
        if r["speedup"] is not None and r["speedup"] < 1.0:
            p = r["best_peer"]
            if "ns" in r:
                detail = f"dmlcpu {r['ns']:.1f} ns vs {p['peer']} {p['ns_per_call']:.0f} ns"
            else:
                detail = (f"dmlcpu {time_text(r['seconds'])} vs {p['peer']} "
                          f"{time_text(p['seconds'])}")
            lines.append(f"{r['case']}/threads:{r['threads']}: {detail} ({p['variant']}), "
                         f"dmlcpu at {r['speedup']:.2f}x")
    for r in throughput:
        if r["cold_speedup"] is not None and r["cold_speedup"] < 1.0:
            p = r["best_cold_peer"]
            lines.append(f"{r['case']}/threads:{r['threads']}, cold: dmlcpu "
                         f"{time_text(r['cold_seconds'])} vs {p['peer']} "
                         f"{time_text(p['cold_seconds'])} ({p['cold_variant']}), "
                         f"dmlcpu at {r['cold_speedup']:.2f}x")
    return lines


def write_chart(throughput, path, title):
    """Per thread setting (columns), two linear panels (rows): dmlcpu's speed-up over the best
    peer (repeated and cold bars) and its ratio to the best copy. Every bar is labelled with the
    value it draws; a missing measurement draws no bar and no label."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cases = list(dict.fromkeys(r["case"] for r in throughput))
    labels = [case_label(c) for c in cases]
    thread_labels = list(dict.fromkeys(r["threads"] for r in throughput))
    by_key = {(r["case"], r["threads"]): r for r in throughput}
    peer_names = {"torch": "PyTorch", "numpy": "NumPy", "onnxruntime": "ONNX Runtime"}
    panels = [
        ("dmlcpu speed-up over the best peer (x; >1: dmlcpu faster)",
         [("repeated calls", lambda r: r["speedup"],
           lambda r: peer_names.get(r["best_peer"]["peer"], "") if r["best_peer"] else "",
           "#1f5fbf"),
          ("cold calls", lambda r: r["cold_speedup"],
           lambda r: (peer_names.get(r["best_cold_peer"]["peer"], "")
                      if r["best_cold_peer"] else ""), "#8fb3e8")]),
        ("dmlcpu ratio to the best copy (1 = as fast as memcpy / NT copy of the output)",
         [("ratio to copy", lambda r: r["ratio"], lambda r: "", "#4d4d4d")]),
    ]
    figure, axes = plt.subplots(
        len(panels), len(thread_labels), sharey=True, squeeze=False,
        figsize=(8.5 * len(thread_labels), 2 * (0.42 * len(cases) + 1.2)))
    for column, label in enumerate(thread_labels):
        counts = {by_key[(c, label)]["thread_count"] for c in cases if (c, label) in by_key}
        thread_text = "1 thread" if label == "1" else \
            f"all threads ({', '.join(str(c) for c in sorted(counts))})"
        for row_index, (panel_title, series) in enumerate(panels):
            axis = axes[row_index][column]
            bar_height = 0.8 / len(series)
            largest = 1.0
            for s, (name, value_of, note_of, color) in enumerate(series):
                ys, xs, notes = [], [], []
                for i, case in enumerate(cases):
                    row = by_key.get((case, label))
                    value = value_of(row) if row else None
                    if value:
                        ys.append(i + (s - (len(series) - 1) / 2) * bar_height)
                        xs.append(value)
                        notes.append(note_of(row))
                axis.barh(ys, xs, height=bar_height, color=color, label=name)
                largest = max([largest] + xs)
                for x, y, note in zip(xs, ys, notes):  # the label of each bar is its own value
                    axis.annotate(f"{x:.2f}" + (f" vs {note}" if note else ""), (x, y),
                                  xytext=(3, 0), textcoords="offset points", va="center",
                                  fontsize=6)
            axis.axvline(1.0, color="black", linewidth=0.6)
            axis.set_title(f"{thread_text}: {panel_title}", fontsize=8)
            axis.grid(axis="x", alpha=0.3)
            axis.set_xlim(0, largest * 1.3)  # room for the labels right of the bars
            axis.set_yticks(range(len(cases)))
            axis.set_yticklabels(labels, fontsize=7)
    axes[0][0].invert_yaxis()  # shared y axis: invert once, first case on top
    handles, names = axes[0][0].get_legend_handles_labels()
    figure.legend(handles, names, loc="upper right", ncol=len(names), fontsize=8, frameon=False)
    figure.suptitle(title, fontsize=9)
    figure.tight_layout(rect=(0, 0, 1, 0.97))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def format_bytes(size):
    """1048576 -> '1 MiB', 49152 -> '48 KiB' (whole units where they divide evenly)."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size / (1 << 20):.1f} MiB" if size >= 1 << 20 else f"{size} B"


def data_caches(caches):
    """The data and unified caches of Google Benchmark's context list whose size it knows."""
    return [c for c in caches if c.get("type") in ("Data", "Unified") and c.get("size")]


def last_level_cache(caches):
    """The highest-level data or unified cache of Google Benchmark's context, or None."""
    usable = data_caches(caches)
    return max(usable, key=lambda c: c.get("level", 0)) if usable else None


def cache_text(caches):
    """'L2 2 MiB per CPU, L3 480 MiB shared by 2 CPUs' from Google Benchmark's context caches."""
    parts = []
    for c in sorted(data_caches(caches), key=lambda c: c.get("level", 0)):
        if c.get("level", 0) < 2:
            continue
        sharing = c.get("num_sharing", 0)
        whom = "per CPU" if sharing <= 1 else f"shared by {sharing} CPUs"
        parts.append(f"L{c['level']} {format_bytes(c['size'])} {whom}")
    return ", ".join(parts)


def machine_text(context):
    """'<CPU model>, 2 CPUs @ 2600 MHz, L2 ..., L3 ..., <host>' from dmlcpu_bench's context
    (parts it lacks are left out)."""
    return ", ".join(part for part in (
        context.get("cpu_model", ""),
        f"{context.get('num_cpus', '?')} CPUs @ {context.get('mhz_per_cpu', '?')} MHz",
        cache_text(context.get("caches", [])), context.get("host_name", "")) if part)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dmlcpu", required=True, help="dmlcpu_bench --benchmark_out JSON")
    parser.add_argument("--peers", default="", help="peers.py JSON (optional)")
    parser.add_argument("--png", default="docs/bench.png")
    parser.add_argument("--md", default="docs/bench.md")
    args = parser.parse_args()

    dmlcpu, context = load_dmlcpu(args.dmlcpu)
    peers, peer_context = load_peers(args.peers)
    throughput, latency, compile_rows, warnings = build_rows(dmlcpu, peers)
    tables = [("Throughput (GB/s = bytes read + written per second; ratio = best copy time / "
               "dmlcpu time)", throughput_table(throughput)),
              ("Tiny operators (per-call latency)", latency_table(latency)),
              ("Compile latency", compile_table(compile_rows))]
    slower = slower_than_peer(throughput, latency)

    machine = machine_text(context)
    versions = (f"NumPy {peer_context.get('numpy', 'n/a')}, "
                f"PyTorch {peer_context.get('torch') or 'n/a'}, "
                f"ONNX Runtime {peer_context.get('onnxruntime') or 'n/a'}")
    for title, (header, body) in tables:
        if body:
            print(f"\n{title}\n")
            print(text_table(header, body))
    if slower:
        print("\ndmlcpu slower than a peer:")
        for line in slower:
            print("  " + line)
    for line in warnings:
        print("warning: " + line, file=sys.stderr)

    llc = last_level_cache(context.get("caches", []))
    llc_text = (f"{format_bytes(llc['size'])} reported here" if llc
                else "its size was not recorded")
    load_text = ", ".join(f"{x:.2f}" for x in context.get("load_avg", [])) or "n/a"
    date = context.get("date", datetime.datetime.now().isoformat(timespec="seconds"))
    markdown = [
        "# dmlcpu benchmarks",
        "",
        f"Generated by `scripts/run_benchmarks.sh` on {date}; {machine}; {versions}. "
        "Chart: [bench.png](bench.png).",
        "",
        "- GB/s counts useful bytes: elements read + elements written, plus the whole indices "
        "tensor for gathers. The same accounting is used for every column; memcpy and NT copy "
        "copy the output's byte count (2 x output bytes of traffic).",
        "- `ratio to copy` = time of the faster of memcpy and the non-temporal copy "
        "(streaming stores, up to four pages side by side, 256 bytes of each in turn, as the "
        "library streams) for the output's bytes / dmlcpu's time, measured in the same binary "
        "and run, with the same thread count, in interleaved rounds (dmlcpu, memcpy, NT copy, "
        "repeated; fastest call of each), so that all three see the same moments of the shared "
        "machine, each call with a cold cache (every buffer of the three is flushed from the "
        "caches first). 1.0 = dmlcpu produces its output as fast as the best pure copy of the "
        "same bytes.",
        "- `memcpy ratio` = the same for glibc memcpy itself (the faster copy's time / memcpy's, "
        "same rounds): what a copy with regular stores reaches on a cold destination, whose "
        "every line it must first read. Operators that write their output with regular stores "
        "(outputs that fit the last-level cache; see the README's store policy) are held near it "
        "even where `bound` says 1.",
        "- `vs best peer` = the faster peer's time / dmlcpu's time (>1: dmlcpu is faster), "
        "fastest calls of repeated calls on both sides (warm where the case fits the cache). "
        "`vs best peer, cold` = the same with a cold cache on both sides: dmlcpu's fastest call "
        "of the interleaved rounds against the peer's fastest call after `peers.py` has evicted "
        "the caches (one thread pinned to each CPU reads its share of three times the "
        "last-level cache, three times over; Python cannot flush lines; calls after it "
        "measured 2-5% slower than after a flush (about 5% on the AMD Zen 4 machine, 2-3% on "
        "the Intel Xeon one; README), so this column favours dmlcpu by that much).",
        "- `bound` (gathers) = memcpy traffic / unavoidable traffic (output + distinct 64-byte "
        "input lines touched + indices): roughly the best `ratio` a gather can reach.",
        "- `read bound` = time of the faster copy / time to merely read the input lines the "
        "case must read (one load per 64-byte line, in address order, the faster of with and "
        "without software prefetch, same threads, in the same interleaved cold rounds): measured, "
        "not computed: a `ratio` an implementation can hardly exceed, as it must also write the "
        "output.",
        "- `copy bound` (where the input lines the case must read are no more bytes than its "
        "output: slices, gathers of whole aligned blocks) = time of the faster copy / time to "
        "copy just those lines back to back into a buffer of their size (a gather's block after "
        "block in output order, a slice's in address order; the faster of memcpy and "
        "non-temporal stores, both with software prefetch 8 KiB ahead; same threads, same "
        "interleaved cold rounds): the case's bytes moved without any index or address work (for "
        "a slice that reads every line of its input, a flip or a transposed view, a plain copy, "
        "so about 1).",
        "- NumPy is single-threaded for these operations; its row is repeated under all threads.",
        "- ONNX Runtime: its CPU execution provider through onnxruntime-node, each case that "
        "one ONNX node expresses as a one-node model (Slice, Gather, GatherElements, GatherND, "
        "Transpose, Pad, DepthToSpace, SpaceToDepth; not StridedOutputRows, the joins, splits, "
        "tiles, expands, scatters and SLICE_GRAD), intra-op threads = the thread "
        "setting, output preallocated where it accepts one (onnxruntime-node 1.20 still returns "
        "a copy of it); its "
        "figures include onnxruntime-node's per-call JavaScript overhead, which dominates the "
        "tiny operators.",
        "- Timing (wall clock): the GB/s columns are fastest calls of repeated calls -- "
        "dmlcpu's fastest Execute of its timed loop (best repetition), each copy called alone, "
        "the peers' best sample -- because the machine is shared and the fastest call is the "
        "least disturbed one. `(mean)` is dmlcpu's mean over the iterations of that repetition "
        "(Google Benchmark's own figure). Where the working set fits in the last-level cache "
        f"({llc_text}; one tenant of a shared cache may get far less), repeated calls run warm "
        "while the interleaved rounds start cold, "
        "so `ratio` can differ from the GB/s columns' quotient (the rounds' own figures are in "
        "the JSON: `interleaved_*GBps`). Tiny operators: mean ns per call (peers: best batch "
        "mean).",
        f"- threads `all` = {context.get('num_cpus', '?')} here. Load average when dmlcpu_bench "
        f"started: {load_text}; where other jobs share the machine, its other cores are often "
        "busy and threads:all figures (dmlcpu's and PyTorch's alike) swing from run to run.",
        "",
    ]
    for title, (header, body) in tables:
        if body:
            markdown += [f"## {title}", "", markdown_table(header, body), ""]
    if slower:
        markdown += ["## dmlcpu slower than a peer", ""] + [f"- {line}" for line in slower] + [""]
    os.makedirs(os.path.dirname(os.path.abspath(args.md)), exist_ok=True)
    with open(args.md, "w", encoding="utf-8") as f:
        f.write("\n".join(markdown))
    if throughput:
        write_chart(throughput, args.png,
                    f"dmlcpu vs copy roofline and peers — {machine}; {versions}")
    print(f"\nreport.py: table -> {args.md}, chart -> {args.png}")


if __name__ == "__main__":
    main()
