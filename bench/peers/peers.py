#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""dmlcpu benchmarks -- the same cases in NumPy, PyTorch and ONNX Runtime (the peers).

Every case of bench/slice_bench.cc and bench/gather_bench.cc (except Compile latency) with the
same shapes, data types, index values (SplitMix64 with the same seeds) and byte accounting:
  slices:  moved bytes = 2 x output bytes                    (read + written)
  gathers: moved bytes = 2 x output bytes + indices bytes    (read + written, indices included)
Outputs are preallocated where the peer's API takes one (out=, copyto, copy_), as dmlcpu writes
into a bound buffer. Where a peer has more than one idiomatic spelling (torch.index_select with
out= vs torch.nn.functional.embedding), each is timed and the fastest is reported.

Timing: time.perf_counter around each call (tiny cases: around a batch of calls); one warm-up,
then repetitions until --min-time seconds and at least 3 samples. The best sample is reported
(`seconds`; the median is kept as `median_seconds`): on a shared machine the best sample is the
least disturbed one, and dmlcpu's side is likewise the best of its repetitions.
Cold cache (throughput cases): each variant is also timed with the caches emptied before every
call, as dmlcpu_bench's interleaved rounds start every call (`cold_seconds`, `cold_GBps`, best
sample, fastest variant: `cold_variant`; at least 5 samples, the eviction counted in the time
budget). Python cannot flush lines, so one thread per CPU reads three times the last-level cache
between them, three times over, one load per line (CacheEvictor): the case's lines leave the
caches and their dirty ones are written back before the timed call. (Reads, not writes: a large
write by glibc bypasses the caches.) Measured on the AMD Zen 4 machine (32 MiB last-level
cache), a memcpy of 4-8 MiB ran at 40.8-40.9 GB/s after that sweep (in C; NumPy's copyto
38-40.5) and at 42.5-43.2 after a clflush of its buffers, as dmlcpu_bench's rounds do: the
eviction leaves the peers' cold calls about 5% slower than a flush would, so a comparison of
cold calls favours dmlcpu by about that much.
Threads: PyTorch runs with torch.set_num_threads(1) and with all cores; NumPy is single-threaded
for these operations, so it is measured once and reported for both thread settings.

ONNX Runtime (its CPU execution provider, from the npm package onnxruntime-node) runs in
ort_peer.js under node: each case that one ONNX node can express (Slice, Gather, GatherElements,
GatherND; Transpose for the transposed views; Pad, DepthToSpace, SpaceToDepth; not
StridedOutputRows, whose output is a strided view an ONNX output cannot be, nor the joins, splits,
tiles, expands, scatters and SLICE_GRAD) becomes a one-node model; intra-op threads = the
thread setting; the output is preallocated (fetches; onnxruntime-node 1.20 still returns a copy
of it, one more output copy per run than ORT's C API needs); indices are the same values,
written here to .bin files. Its per-call figures include onnxruntime-node's JavaScript overhead
(a setImmediate hop and tensor wrapping per run), which dominates the tiny cases. Its cold calls
follow a single-threaded sweep of three times the last-level cache (node has no threads here to
pin).
Needs `node` on PATH and onnxruntime-node where --ort-node-modules (or NODE_PATH) says; without
them the peer is skipped with a message.

Run with Debian's interpreter, which has python3-numpy / python3-torch:
  /usr/bin/python3 bench/peers/peers.py --out peers.json [--filter REGEX] [--min-time 0.2]
A peer whose import fails is skipped with a message.
"""

import argparse
import concurrent.futures
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError as error:  # NumPy is needed for the index generation as well
    sys.exit(f"peers.py: NumPy is required ({error}); apt-get install -y python3-numpy")

try:
    import torch
    import torch.nn.functional as torch_functional
except Exception as error:  # noqa: BLE001 -- any import failure means "no PyTorch peer"
    print(f"peers.py: PyTorch not available ({error}); skipping the PyTorch peer",
          file=sys.stderr)
    torch = None

# ------------------------------------------------------------------------------------------------
# Index generation: identical to dmlcpu_bench (bench_util.h).

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def splitmix64_array(seed, count):
    """Draws 0..count-1 of stream `seed` as a uint64 array (wrapping arithmetic)."""
    i = np.arange(1, count + 1, dtype=np.uint64)
    z = np.uint64(seed) + i * np.uint64(_GOLDEN)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return z ^ (z >> np.uint64(31))


def splitmix64(seed, i):
    z = (seed + (i + 1) * _GOLDEN) & _MASK64
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return z ^ (z >> 31)


def random_indices(seed, count, bound):
    return (splitmix64_array(seed, count) % np.uint64(bound)).astype(np.int64)


def random_tuples(seed, count, bounds):
    draws = splitmix64_array(seed, count * len(bounds)).reshape(count, len(bounds))
    return (draws % np.array(bounds, dtype=np.uint64)).astype(np.int64)


def sorted_run_indices(seed, count, bound, min_run, max_run):
    runs = []
    total = 0
    r = 0
    while total < count:
        length = min_run + splitmix64(seed, 2 * r) % (max_run - min_run + 1)
        start = splitmix64(seed, 2 * r + 1) % (bound - length + 1)
        runs.append((start, length))
        total += length
        r += 1
    runs.sort()
    ids = [start + k for start, length in runs for k in range(length)]
    return np.array(ids[:count], dtype=np.int64)


# ------------------------------------------------------------------------------------------------
# Buffers. Inputs are written once (first touch outside any timing); PyTorch shares them.


def filled(shape, dtype):
    array = np.empty(shape, dtype=dtype)
    array.fill(1)
    return array


def as_torch(array):
    return torch.from_numpy(array) if torch is not None else None


class Case:
    """One benchmark case: `numpy` and `torch` map a variant name to a zero-argument callable."""

    def __init__(self, name, moved_bytes, latency=False):
        self.name = name
        self.moved_bytes = moved_bytes
        self.latency = latency
        self.numpy = {}
        self.torch = {}
        self.onnx = None  # ort_peer.js's node: op, data, [indices], attrs / slice, out_shape


def onnx_node(op, data, out_shape, indices=None, **fields):
    """The ONNX form of a case for ort_peer.js (`indices`: an int64 array, written later)."""
    spec = {"op": op, "data": {"dtype": str(data.dtype), "shape": list(data.shape)},
            "out_shape": [int(d) for d in out_shape], **fields}
    if indices is not None:
        spec["indices_array"] = indices
    return spec


INT64_MAX = (1 << 63) - 1
INT64_MIN = -(1 << 63)


def onnx_slice(data, out_shape, starts, ends, axes, steps=None):
    return onnx_node("Slice", data, out_shape, slice={
        "starts": starts, "ends": ends, "axes": axes, "steps": steps or [1] * len(axes)})


def slice_case(name, source, view, out_shape=None, out_view=None, latency=False, onnx=None,
               reads_source_once=False):
    """out[...] = view(source); `out_view` maps the output buffer to the written region;
    `onnx(source, output_shape)` gives the ONNX node (None: ONNX cannot express it).
    `reads_source_once`: a broadcast, whose useful bytes are the source read once and the
    output written (as the suite counts them), not the output's twice."""
    out = filled(out_shape if out_shape is not None else view(source).shape, source.dtype)
    target = out_view(out) if out_view else out
    written = target.size * target.itemsize
    case = Case(name, (source.nbytes if reads_source_once else written) + written, latency)
    if onnx is not None:
        case.onnx = onnx(source, target.shape)
    case.numpy["copyto"] = lambda: np.copyto(target, view(source))
    if torch is not None:
        source_t, target_t = as_torch(source), (out_view(as_torch(out)) if out_view
                                                 else as_torch(out))
        case.torch["copy_"] = lambda: target_t.copy_(view(source_t))
    return case


def permute_case(name, source, perm):
    """A Transpose with `perm`, copied into a preallocated output."""
    return slice_case(
        name, source,
        lambda a: a.transpose(*perm) if isinstance(a, np.ndarray) else a.permute(*perm),
        onnx=lambda a, shape: onnx_node("Transpose", a, shape, attrs={"perm": list(perm)}))


def flip_case(name, source, axis):
    out = filled(source.shape, source.dtype)
    case = Case(name, 2 * out.nbytes)
    case.onnx = onnx_slice(source, source.shape, [-1], [INT64_MIN], [axis], [-1])
    case.numpy["copyto"] = lambda: np.copyto(out, np.flip(source, axis))
    if torch is not None:
        source_t, out_t = as_torch(source), as_torch(out)
        reverse = torch.arange(source.shape[axis] - 1, -1, -1, dtype=torch.int64)
        case.torch["flip"] = lambda: torch.flip(source_t, [axis])
        case.torch["index_select_out"] = lambda: torch.index_select(source_t, axis, reverse,
                                                                    out=out_t)
    return case


def take_case(name, table, ids, axis, latency=False):
    """GATHER along `axis` with a 1-D id list (np.take / torch.index_select)."""
    out_shape = table.shape[:axis] + ids.shape + table.shape[axis + 1:]
    out = filled(out_shape, table.dtype)
    case = Case(name, 2 * out.nbytes + ids.nbytes, latency)
    case.onnx = onnx_node("Gather", table, out_shape, ids, attrs={"axis": axis})
    case.numpy["take_out"] = lambda: np.take(table, ids, axis=axis, out=out)
    if torch is not None:
        table_t, ids_t, out_t = as_torch(table), as_torch(ids), as_torch(out)
        case.torch["index_select_out"] = lambda: torch.index_select(table_t, axis, ids_t,
                                                                    out=out_t)
        if axis == 0 and table.ndim == 2:
            case.torch["embedding"] = lambda: torch_functional.embedding(ids_t, table_t)
    return case


def gather_elements_case(name, side, axis, seed, out_rows=None):
    out_rows = side if out_rows is None else out_rows
    data = filled((side, side), np.float32)
    indices = random_indices(seed, out_rows * side, side).reshape(out_rows, side)
    out = filled((out_rows, side), np.float32)
    case = Case(name, 2 * out.nbytes + indices.nbytes)
    case.onnx = onnx_node("GatherElements", data, out.shape, indices, attrs={"axis": axis})
    case.numpy["take_along_axis"] = lambda: np.take_along_axis(data, indices, axis)
    if torch is not None:
        data_t, indices_t, out_t = as_torch(data), as_torch(indices), as_torch(out)
        case.torch["gather_out"] = lambda: torch.gather(data_t, axis, indices_t, out=out_t)
    return case


def gather_nd_case(name, data, tuples, out_elems):
    """Advanced indexing with the tuple components as index arrays: data[tuple(tuples.T)]."""
    case = Case(name, 2 * out_elems * data.itemsize + tuples.nbytes)
    k = tuples.shape[1]
    case.onnx = onnx_node("GatherND", data, tuples.shape[:1] + data.shape[k:], tuples,
                          attrs={"batch_dims": 0})
    case.numpy["advanced_indexing"] = lambda: data[tuple(tuples.T)]
    if torch is not None:
        data_t, tuples_t = as_torch(data), as_torch(tuples)
        case.torch["advanced_indexing"] = lambda: data_t[tuple(tuples_t.t())]
    return case


def batched_gather_nd1_case(name, data, ids):
    """GATHER_ND1 with one batch dim: out[b, i, :] = data[b, ids[b, i, 0], :]."""
    batches, count = ids.shape[0], ids.shape[1]
    case = Case(name, 2 * batches * count * data.shape[2] * data.itemsize + ids.nbytes)
    batch = np.arange(batches, dtype=np.int64)[:, None]
    case.onnx = onnx_node("GatherND", data, (batches, count, data.shape[2]), ids,
                          attrs={"batch_dims": 1})
    case.numpy["advanced_indexing"] = lambda: data[batch, ids[:, :, 0]]
    if torch is not None:
        data_t, ids_t, batch_t = as_torch(data), as_torch(ids), as_torch(batch)
        case.torch["advanced_indexing"] = lambda: data_t[batch_t, ids_t[:, :, 0]]
    return case


# Cases in dmlcpu_bench's order. Each entry builds lazily (buffers are large).
LLAMA2_VOCAB, LLAMA3_VOCAB, HIDDEN = 32000, 128256, 4096
def broadcast(a, shape):
    """A broadcast view of `a` (NumPy array or torch tensor) with `shape`."""
    if torch is not None and isinstance(a, torch.Tensor):
        return a.expand(*shape)
    return np.broadcast_to(a, shape)


def concat_case(name, parts, axis, latency=False):
    """JOIN: np.concatenate / torch.cat into a preallocated output."""
    out_shape = list(parts[0].shape)
    out_shape[axis] = sum(p.shape[axis] for p in parts)
    out = filled(tuple(out_shape), parts[0].dtype)
    case = Case(name, 2 * out.nbytes, latency)
    case.numpy["concatenate_out"] = lambda: np.concatenate(parts, axis=axis, out=out)
    if torch is not None:
        parts_t, out_t = [as_torch(p) for p in parts], as_torch(out)
        case.torch["cat_out"] = lambda: torch.cat(parts_t, dim=axis, out=out_t)
    return case


def split_case(name, source, count, axis, latency=False):
    """SPLIT into `count` equal parts: each part's view copied into its own output."""
    views = np.split(source, count, axis=axis)
    outs = [filled(v.shape, source.dtype) for v in views]
    case = Case(name, 2 * source.nbytes, latency)

    def run_numpy():
        for out, view in zip(outs, views):
            np.copyto(out, view)
    case.numpy["copyto_each"] = run_numpy
    if torch is not None:
        chunks = torch.chunk(as_torch(source), count, dim=axis)
        outs_t = [as_torch(o) for o in outs]

        def run_torch():
            for out, chunk in zip(outs_t, chunks):
                out.copy_(chunk)
        case.torch["copy_each"] = run_torch
    return case


# SCATTER / SCATTER_ND (bench/scatter_bench.cc). moved_bytes = 2 x the suite's copy_bytes (the
# updates for in-place cases, the output otherwise), as its GB/s columns count them.
def kv_token_write_case(name, in_place):
    kv = filled((8, 32, 4096, 128), np.float16)
    tok = filled((8, 32, 1, 128), np.float16)
    case = Case(name, 2 * (tok.nbytes if in_place else kv.nbytes))
    if in_place:
        case.numpy["setitem"] = lambda: kv.__setitem__((slice(None), slice(None), 2047), tok[:, :, 0])
    else:
        out = filled(kv.shape, kv.dtype)

        def run_numpy():
            np.copyto(out, kv)
            out[:, :, 2047] = tok[:, :, 0]
        case.numpy["copyto_setitem"] = run_numpy
    if torch is not None:
        kv_t, vals_t = as_torch(kv), as_torch(tok).reshape(256, 128)
        batch = torch.arange(8).view(8, 1).expand(8, 32).reshape(-1)
        head = torch.arange(32).view(1, 32).expand(8, 32).reshape(-1)
        pos = torch.full((256,), 2047)
        if in_place:
            case.torch["index_put_"] = lambda: kv_t.index_put_((batch, head, pos), vals_t)
        else:
            case.torch["index_put"] = lambda: kv_t.index_put((batch, head, pos), vals_t)
    return case


def scatter_elements_case(name, indices, axis):
    """Out of place: a copy of the data with every update written at its index along `axis`."""
    data = (np.arange(4096 * 4096, dtype=np.float32) % 977).reshape(4096, 4096)
    case = Case(name, 2 * data.nbytes)
    out = filled(data.shape, data.dtype)

    def run_numpy():
        np.copyto(out, data)
        np.put_along_axis(out, indices, data, axis=axis)
    case.numpy["copyto_put_along_axis"] = run_numpy
    if torch is not None:
        data_t, indices_t, out_t = as_torch(data), torch.from_numpy(indices), as_torch(out)
        case.torch["scatter_out"] = lambda: torch.scatter(data_t, axis, indices_t, data_t,
                                                          out=out_t)
    return case


def scatter_add_case(name):
    bins = random_indices(12, 16 << 20, 65536)
    updates = (np.arange(16 << 20) % 977).astype(np.float32)
    out = np.zeros(65536, np.float32)
    case = Case(name, 2 * out.nbytes)

    def run_numpy():
        out.fill(0)
        np.add.at(out, bins, updates)
    case.numpy["add_at"] = run_numpy
    if torch is not None:
        bins_t, updates_t, out_t = torch.from_numpy(bins), as_torch(updates), as_torch(out)

        def run_index_add():
            out_t.zero_()
            out_t.index_add_(0, bins_t, updates_t)
        case.torch["index_add_"] = run_index_add

        def run_scatter_reduce():
            out_t.zero_()
            out_t.scatter_reduce_(0, bins_t, updates_t, "sum")
        case.torch["scatter_reduce_sum"] = run_scatter_reduce
    return case


def scatter_nd_rows_case(name):
    fmap = filled((256, 256, 512), np.float32)
    yx = random_tuples(13, 10000, [256, 256])
    rows = filled((10000, 512), np.float32)
    case = Case(name, 2 * rows.nbytes)
    case.numpy["setitem"] = lambda: fmap.__setitem__((yx[:, 0], yx[:, 1]), rows)
    if torch is not None:
        fmap_t, y_t, x_t = as_torch(fmap), torch.from_numpy(yx[:, 0]), torch.from_numpy(yx[:, 1])
        rows_t = as_torch(rows)
        case.torch["index_put_"] = lambda: fmap_t.index_put_((y_t, x_t), rows_t)
    return case


def tiny_scatter_nd_case(name, in_place):
    data = filled((100, 16), np.float32)
    ids = random_indices(14, 8, 100)
    updates = filled((8, 16), np.float32)
    case = Case(name, 2 * (updates.nbytes if in_place else data.nbytes), latency=True)
    out = filled(data.shape, data.dtype)
    if in_place:
        case.numpy["setitem"] = lambda: data.__setitem__(ids, updates)
    else:
        def run_numpy():
            np.copyto(out, data)
            out[ids] = updates
        case.numpy["copyto_setitem"] = run_numpy
    if torch is not None:
        data_t, ids_t, updates_t, out_t = (as_torch(data), torch.from_numpy(ids),
                                           as_torch(updates), as_torch(out))
        if in_place:
            case.torch["index_copy_"] = lambda: data_t.index_copy_(0, ids_t, updates_t)
        else:
            def run_torch():
                out_t.copy_(data_t)
                out_t.index_copy_(0, ids_t, updates_t)
            case.torch["copy_index_copy_"] = run_torch
    return case


# PADDING, depth/space and SLICE_GRAD (bench/padding_bench.cc). moved_bytes = input + output, as
# the suite counts them.
def pad_case(name, source, pads, mode, latency=False):
    """Pad by `pads` ((before, after) per axis) with zeros (mode "constant") or the reflection
    ("reflect"): np.pad / F.pad (both allocate), and the interior and borders written into a
    preallocated output slice by slice."""
    out_shape = tuple(n + b + a for n, (b, a) in zip(source.shape, pads))
    out = filled(out_shape, source.dtype)
    case = Case(name, source.nbytes + out.nbytes, latency)
    case.onnx = onnx_node("Pad", source, out_shape, mode=mode,
                          pads=[b for b, _ in pads] + [a for _, a in pads])
    interior = tuple(slice(b, b + n) for n, (b, _) in zip(source.shape, pads))

    # Per axis, in order (later axes copy what earlier ones wrote): each border index and the
    # interior index it mirrors.
    borders = []
    for axis, (before, after) in enumerate(pads):
        last = before + source.shape[axis] - 1
        lead = (slice(None),) * axis
        borders += [(lead + (k,), lead + (2 * before - k,)) for k in range(before)]
        borders += [(lead + (last + k,), lead + (last - k,)) for k in range(1, after + 1)]

    def sliced(target, src, copy, fill):
        copy(target[interior], src)
        for border, mirror in borders:
            if mode == "constant":
                fill(target[border])
            else:
                copy(target[border], target[mirror])
    case.numpy["pad"] = lambda: np.pad(source, pads, mode=mode)
    case.numpy["sliced"] = lambda: sliced(out, source, np.copyto,
                                          lambda view: view.fill(0))
    if torch is not None:
        source_t, out_t = as_torch(source), as_torch(out)
        flat = [x for b, a in reversed(pads) for x in (b, a)]  # F.pad: last axis first
        while len(flat) > 2 and flat[-2:] == [0, 0]:
            flat = flat[:-2]
        # Reflection wants a leading axis or two beyond the padded ones (no copy: a view).
        lead = 0 if mode == "constant" else max(0, len(flat) // 2 + 1 - source.ndim)
        padded_t = source_t.reshape((1,) * lead + tuple(source.shape))

        def run_pad():
            result = torch_functional.pad(padded_t, flat, mode=mode)
            return result.reshape(out_shape) if lead else result
        case.torch["F.pad"] = run_pad
        case.torch["sliced"] = lambda: sliced(out_t, source_t, lambda dst, src: dst.copy_(src),
                                              lambda view: view.zero_())
    return case


def add_view_permute(case, source, in_shape, perm, out, out_shape):
    """Variants copying `source` viewed as `in_shape` and permuted by `perm` into `out` viewed
    as `out_shape` (np.copyto, copy_): how NumPy and PyTorch spell depth/space."""
    case.numpy["copyto"] = lambda: np.copyto(out.reshape(out_shape),
                                             source.reshape(in_shape).transpose(perm))
    if torch is not None:
        source_t, out_t = as_torch(source), as_torch(out)
        case.torch["copy_"] = lambda: out_t.view(out_shape).copy_(
            source_t.view(in_shape).permute(perm))


def depth_to_space_case(name, source, block, mode, latency=False):
    """DepthToSpace (mode "DCR" or "CRD"): the input viewed 6-D, permuted into the output viewed
    {n, c, h, i, w, j}; PyTorch also F.pixel_shuffle for CRD (it allocates)."""
    n, c, h, w = source.shape
    oc = c // (block * block)
    out = filled((n, oc, h * block, w * block), source.dtype)
    case = Case(name, source.nbytes + out.nbytes, latency)
    attrs = {"blocksize": block}
    case.onnx = onnx_node("DepthToSpace", source, out.shape, attrs=attrs, mode=mode)
    if mode == "DCR":
        in6, perm = (n, block, block, oc, h, w), (0, 3, 4, 1, 5, 2)
    else:
        in6, perm = (n, oc, block, block, h, w), (0, 1, 4, 2, 5, 3)
    add_view_permute(case, source, in6, perm, out, (n, oc, h, block, w, block))
    if torch is not None and mode == "CRD":
        source_t = as_torch(source)
        case.torch["pixel_shuffle"] = lambda: torch_functional.pixel_shuffle(source_t, block)
    return case


def space_to_depth_case(name, source, block):
    """SpaceToDepth (ONNX's order: channel (i * block + j) * C + c)."""
    n, c, h, w = source.shape
    out = filled((n, c * block * block, h // block, w // block), source.dtype)
    case = Case(name, source.nbytes + out.nbytes)
    case.onnx = onnx_node("SpaceToDepth", source, out.shape, attrs={"blocksize": block})
    add_view_permute(case, source, (n, c, h // block, block, w // block, block),
                     (0, 3, 5, 1, 2, 4), out, (n, block, block, c, h // block, w // block))
    return case


def slice_grad_case(name, grad, out_shape, starts, latency=False):
    """SLICE_GRAD: zeros around the window, the gradient in it; into a preallocated output
    (zero everything, then the window; or only the slabs around it) and, for PyTorch,
    torch.zeros plus the window (what its slice backward does)."""
    out = filled(out_shape, grad.dtype)
    case = Case(name, grad.nbytes + out.nbytes, latency)
    window = tuple(slice(b, b + n) for b, n in zip(starts, grad.shape))

    def slabs(target, fill):  # each axis: the parts before and after the window, the rest whole
        for axis, (b, n) in enumerate(zip(starts, grad.shape)):
            lead = window[:axis]
            fill(target[lead + (slice(0, b),)])
            fill(target[lead + (slice(b + n, None),)])
    case.numpy["fill_copyto"] = lambda: (out.fill(0), np.copyto(out[window], grad))
    case.numpy["slabs_copyto"] = lambda: (slabs(out, lambda v: v.fill(0)),
                                          np.copyto(out[window], grad))
    if torch is not None:
        grad_t, out_t = as_torch(grad), as_torch(out)

        def zeros_then_window():
            result = torch.zeros(out_shape, dtype=grad_t.dtype)
            result[window] = grad_t
            return result
        case.torch["zero_copy_"] = lambda: (out_t.zero_(), out_t[window].copy_(grad_t))
        case.torch["slabs_copy_"] = lambda: (slabs(out_t, lambda v: v.zero_()),
                                             out_t[window].copy_(grad_t))
        case.torch["zeros_index"] = zeros_then_window
    return case


def permutation_rows(seed, rows, cols):
    """A random permutation of 0..cols-1 in every row (any permutation serves the timing)."""
    keys = splitmix64_array(seed, rows * cols).reshape(rows, cols)
    return np.argsort(keys, axis=1).astype(np.int64)


CASES = [
    ("KvCacheWindow", lambda: slice_case(
        "KvCacheWindow", filled((8, 64, 2048, 128), np.float16),
        lambda a: a[:, :, 512:1536, :],
        onnx=lambda a, shape: onnx_slice(a, shape, [512], [1536], [2]))),
    ("HeadSplit", lambda: slice_case(
        "HeadSplit", filled((8, 64, 2048, 128), np.float32), lambda a: a[:, 16:48],
        onnx=lambda a, shape: onnx_slice(a, shape, [16], [48], [1]))),
    ("ResNetStride2Subsample", lambda: slice_case(
        "ResNetStride2Subsample", filled((4096, 4096), np.float32), lambda a: a[::2, ::2],
        onnx=lambda a, shape: onnx_slice(a, shape, [0, 0], [INT64_MAX] * 2, [0, 1], [2, 2]))),
    ("InterleavedChannelSelect", lambda: slice_case(
        "InterleavedChannelSelect", filled((4096, 4096), np.float32), lambda a: a[:, 1::3],
        onnx=lambda a, shape: onnx_slice(a, shape, [1], [INT64_MAX], [1], [3]))),
    ("HorizontalFlip", lambda: flip_case("HorizontalFlip", filled((4096, 4096), np.float32), 1)),
    ("VerticalFlip", lambda: flip_case("VerticalFlip", filled((4096, 4096), np.float32), 0)),
    # The bound buffer is read through strides {1, 4096}: the transpose of its row-major view.
    ("KeyTransposeView", lambda: permute_case(
        "KeyTransposeView", filled((4096, 4096), np.float32), (1, 0))),
    ("StridedOutputRows", lambda: slice_case(
        "StridedOutputRows", filled((2048, 4096), np.float32), lambda a: a,
        out_shape=(4096, 4096), out_view=lambda o: o[::2])),
    ("ShapeSubgraphSlice", lambda: slice_case(
        "ShapeSubgraphSlice", filled((4, 16), np.float32), lambda a: a[1:3, 4:12],
        latency=True, onnx=lambda a, shape: onnx_slice(a, shape, [1, 4], [3, 12], [0, 1]))),
    ("EmbeddingLookupLlama2Fp16", lambda: take_case(
        "EmbeddingLookupLlama2Fp16", filled((LLAMA2_VOCAB, HIDDEN), np.float16),
        random_indices(1, 512, LLAMA2_VOCAB), 0)),
    ("EmbeddingLookupLlama2Fp32", lambda: take_case(
        "EmbeddingLookupLlama2Fp32", filled((LLAMA2_VOCAB, HIDDEN), np.float32),
        random_indices(2, 512, LLAMA2_VOCAB), 0)),
    ("EmbeddingLookupLlama2SortedRuns", lambda: take_case(
        "EmbeddingLookupLlama2SortedRuns", filled((LLAMA2_VOCAB, HIDDEN), np.float16),
        sorted_run_indices(3, 512, LLAMA2_VOCAB, 8, 32), 0)),
    ("EmbeddingLookupLlama3Fp16", lambda: take_case(
        "EmbeddingLookupLlama3Fp16", filled((LLAMA3_VOCAB, HIDDEN), np.float16),
        random_indices(4, 2048, LLAMA3_VOCAB), 0)),
    ("EmbeddingLookupLlama3SortedRuns", lambda: take_case(
        "EmbeddingLookupLlama3SortedRuns", filled((LLAMA3_VOCAB, HIDDEN), np.float16),
        sorted_run_indices(5, 2048, LLAMA3_VOCAB, 8, 32), 0)),
    ("TokenPruningGather", lambda: take_case(
        "TokenPruningGather", filled((64, 1024, 64), np.float32),
        random_indices(6, 256, 1024), 1)),
    ("ChannelSelectGather", lambda: take_case(
        "ChannelSelectGather", filled((4096, 1024), np.float32),
        random_indices(7, 512, 1024), 1)),
    ("TopKGatherElementsAxis1", lambda: gather_elements_case(
        "TopKGatherElementsAxis1", 4096, 1, 8)),
    ("TopKGatherElementsAxis0", lambda: gather_elements_case(
        "TopKGatherElementsAxis0", 4096, 0, 9)),
    ("TopKGatherElementsAxis0FewRows", lambda: gather_elements_case(
        "TopKGatherElementsAxis0FewRows", 4096, 0, 12, 16)),
    ("DetectionGatherNd", lambda: gather_nd_case(
        "DetectionGatherNd", filled((256, 256, 512), np.float32),
        random_tuples(10, 10000, [256, 256]), 10000 * 512)),
    ("SparseVoxelGatherNd", lambda: gather_nd_case(
        "SparseVoxelGatherNd", filled((64, 64, 64, 64), np.float32),
        random_tuples(11, 1000000, [64, 64, 64, 64]), 1000000)),
    ("BatchedTokenGatherNd1", lambda: batched_gather_nd1_case(
        "BatchedTokenGatherNd1", filled((8, 1024, 256), np.float32),
        random_indices(12, 8 * 2000, 1024).reshape(8, 2000, 1))),
    ("TinyEmbeddingGather", lambda: take_case(
        "TinyEmbeddingGather", filled((100, 16), np.float32), random_indices(13, 8, 100), 0,
        latency=True)),
    # Copy-shaped ops (bench/copy_ops_bench.cc).
    ("AttentionHeadsTranspose", lambda: permute_case(
        "AttentionHeadsTranspose", filled((1, 32, 2048, 128), np.float16), (0, 2, 1, 3))),
    ("KeyTranspose2D", lambda: permute_case(
        "KeyTranspose2D", filled((4096, 4096), np.float32), (1, 0))),
    ("KvCacheAppendJoin", lambda: concat_case(
        "KvCacheAppendJoin", [filled((8, 32, 2047, 128), np.float16),
                              filled((8, 32, 1, 128), np.float16)], 2)),
    ("QkvSplit", lambda: split_case("QkvSplit", filled((8, 2048, 12288), np.float16), 3, 2)),
    ("TileRows", lambda: slice_case(
        "TileRows", filled((1, 1, 4096), np.float32), lambda a: broadcast(a, (1, 2048, 4096)),
        reads_source_once=True)),
    ("ExpandRows", lambda: slice_case(
        "ExpandRows", filled((1, 4096), np.float32), lambda a: broadcast(a, (4096, 4096)),
        reads_source_once=True)),
    ("TinyTranspose", lambda: slice_case(
        "TinyTranspose", filled((4, 16), np.float32), lambda a: a.T, latency=True)),
    ("TinyExpand", lambda: slice_case(
        "TinyExpand", filled((1, 16), np.float32), lambda a: broadcast(a, (4, 16)),
        latency=True, reads_source_once=True)),
    ("TinyConcat", lambda: concat_case(
        "TinyConcat", [filled((4, 8), np.float32), filled((4, 8), np.float32)], 1,
        latency=True)),
    ("TinySplit", lambda: split_case("TinySplit", filled((4, 16), np.float32), 2, 1,
                                     latency=True)),
    ("TinyTile", lambda: slice_case(
        "TinyTile", filled((4, 4), np.float32),
        lambda a: broadcast(a.reshape(4, 1, 4), (4, 4, 4)).reshape(4, 16)
        if isinstance(a, np.ndarray) else a.repeat(1, 4), latency=True, reads_source_once=True)),
    # Permuted views of bench/slice_bench.cc (the same copies as the transposes above).
    ("NchwToNhwcView", lambda: permute_case(
        "NchwToNhwcView", filled((32, 64, 56, 56), np.float32), (0, 2, 3, 1))),
    ("AttentionHeadsView", lambda: permute_case(
        "AttentionHeadsView", filled((1, 32, 2048, 128), np.float16), (0, 2, 1, 3))),
    ("DepthToSpaceDcrView", lambda: depth_to_space_case(
        "DepthToSpaceDcrView", filled((1, 256, 128, 128), np.float32), 2, "DCR")),
    ("DepthToSpaceCrdView", lambda: depth_to_space_case(
        "DepthToSpaceCrdView", filled((1, 256, 128, 128), np.float32), 2, "CRD")),
    # PADDING, depth/space and SLICE_GRAD (bench/padding_bench.cc).
    ("ConvInputPadConstant", lambda: pad_case(
        "ConvInputPadConstant", filled((32, 64, 56, 56), np.float32),
        ((0, 0), (0, 0), (1, 1), (1, 1)), "constant")),
    ("ConvInputPadReflect", lambda: pad_case(
        "ConvInputPadReflect", filled((32, 64, 56, 56), np.float32),
        ((0, 0), (0, 0), (1, 1), (1, 1)), "reflect")),
    ("PixelShuffleDcr", lambda: depth_to_space_case(
        "PixelShuffleDcr", filled((1, 256, 128, 128), np.float32), 2, "DCR")),
    ("PixelShuffleCrd", lambda: depth_to_space_case(
        "PixelShuffleCrd", filled((1, 256, 128, 128), np.float32), 2, "CRD")),
    ("PatchUnshuffle", lambda: space_to_depth_case(
        "PatchUnshuffle", filled((1, 64, 256, 256), np.float32), 2)),
    ("SliceGradWindow", lambda: slice_grad_case(
        "SliceGradWindow", filled((8, 32, 1024, 128), np.float16), (8, 32, 2048, 128),
        (0, 0, 512, 0))),
    ("TinyPad", lambda: pad_case(
        "TinyPad", filled((4, 16), np.float32), ((1, 1), (1, 1)), "constant", latency=True)),
    ("TinyPadReflect", lambda: pad_case(
        "TinyPadReflect", filled((4, 16), np.float32), ((1, 1), (1, 1)), "reflect",
        latency=True)),
    ("TinyDepthToSpace", lambda: depth_to_space_case(
        "TinyDepthToSpace", filled((1, 4, 2, 8), np.float32), 2, "DCR", latency=True)),
    ("TinySliceGrad", lambda: slice_grad_case(
        "TinySliceGrad", filled((2, 8), np.float32), (4, 16), (1, 4), latency=True)),
    # Scatters (bench/scatter_bench.cc).
    ("KvCacheTokenWriteInPlace", lambda: kv_token_write_case("KvCacheTokenWriteInPlace", True)),
    ("KvCacheTokenWriteOutOfPlace", lambda: kv_token_write_case(
        "KvCacheTokenWriteOutOfPlace", False)),
    ("ScatterElementsAxis1Permutation", lambda: scatter_elements_case(
        "ScatterElementsAxis1Permutation", permutation_rows(10, 4096, 4096), 1)),
    ("ScatterElementsAxis0", lambda: scatter_elements_case(
        "ScatterElementsAxis0", random_indices(11, 4096 * 4096, 4096).reshape(4096, 4096), 0)),
    ("ScatterAdd16MInto65536Bins", lambda: scatter_add_case("ScatterAdd16MInto65536Bins")),
    ("ScatterNdRowsInPlace", lambda: scatter_nd_rows_case("ScatterNdRowsInPlace")),
    ("TinyScatterNdInPlace", lambda: tiny_scatter_nd_case("TinyScatterNdInPlace", True)),
    ("TinyScatterNdOutOfPlace", lambda: tiny_scatter_nd_case("TinyScatterNdOutOfPlace", False)),
]


# ------------------------------------------------------------------------------------------------
# Timing.


def time_call(function, min_seconds, latency, evict=None):
    """(best, median) seconds per call of `function`; with `evict`, each call after evict()
    (a cold cache: at least 5 samples, the evictions counted in the time budget)."""
    function()  # warm-up (and first touch of what it allocates)
    batch = 1
    if latency:  # batch tiny calls so perf_counter's own cost does not dominate
        start = time.perf_counter()
        calls = 0
        while time.perf_counter() - start < 0.01:
            function()
            calls += 1
        batch = max(1, calls // 10)
    min_samples = 3 if evict is None else 5
    samples = []
    begin = time.perf_counter()
    while True:
        if evict is not None:
            evict()
        start = time.perf_counter()
        for _ in range(batch):
            function()
        samples.append((time.perf_counter() - start) / batch)
        elapsed = time.perf_counter() - begin
        if len(samples) >= min_samples and elapsed >= min_seconds:
            break
        if len(samples) >= 2 and samples[0] > 1.0:  # very slow calls: two samples suffice
            break
    return min(samples), statistics.median(samples)


def last_level_cache_bytes():
    """The largest cache of CPU 0 in sysfs (32 MiB where none can be read)."""
    base = "/sys/devices/system/cpu/cpu0/cache"
    largest = 0
    try:
        entries = os.listdir(base)
    except OSError:
        entries = []
    for entry in entries:
        if not entry.startswith("index"):
            continue
        try:
            with open(os.path.join(base, entry, "size"), encoding="ascii") as f:
                text = f.read().strip()
            scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
            largest = max(largest, int(text.rstrip("KMG")) * scale)
        except (OSError, ValueError):
            continue  # an entry without a readable size
    return largest or 32 << 20


class CacheEvictor:
    """Empties the caches of the case's lines: one thread pinned to each CPU this process may
    use reads its own buffer three times over, one 8-byte load per 64-byte line; the buffers
    add up to three times the last-level cache (on 2 CPUs, 1.5x it each), at least 4 MiB each.
    NumPy releases the GIL in these strided sums: two threads ran them 1.75x as fast as one.

    One pass is not enough on the Zen 4 machine: its last-level cache keeps lines that were hit
    before against a scan of lines read once. After 50-100 warm calls, a cold memcpy of 2-4 MiB
    ran at 46-69 GB/s after one pass over twice the cache per CPU, and at 41-42 GB/s after three
    passes over 1.5x (42-43 after a clflush of its buffers)."""

    kPasses = 3

    def __init__(self):
        self.cpus = sorted(os.sched_getaffinity(0))
        total_bytes = 3 * last_level_cache_bytes()
        elems = max(4 << 20, total_bytes // len(self.cpus)) // 8
        self.lines = [filled(elems, np.uint64)[::8] for _ in self.cpus]
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=len(self.cpus))

    def _sweep(self, k):
        os.sched_setaffinity(0, {self.cpus[k]})  # this worker thread only (Linux)
        return sum(int(np.sum(self.lines[k])) for _ in range(self.kPasses))

    def __call__(self):
        expected = self.kPasses * len(self.lines[0])
        for total in self.pool.map(self._sweep, range(len(self.cpus))):
            if total != expected:  # the buffers hold ones: read, not skipped
                raise RuntimeError("CacheEvictor: unexpected sum")


def measure(case, peer, variants, threads_label, thread_count, min_seconds, evict):
    """Times every variant, warm and (throughput cases, evict not None) cold; returns the record
    of the fastest warm variant, with every variant's times and the fastest cold variant."""
    times, medians, cold_times, cold_medians = {}, {}, {}, {}
    for variant, function in variants.items():
        try:
            times[variant], medians[variant] = time_call(function, min_seconds, case.latency)
        except Exception as error:  # noqa: BLE001 -- an unsupported variant is skipped
            print(f"peers.py: {case.name} {peer}.{variant} failed: {error}", file=sys.stderr)
            continue
        if evict is None or case.latency:
            continue
        try:
            cold_times[variant], cold_medians[variant] = time_call(
                function, min_seconds, False, evict)
        except Exception as error:  # noqa: BLE001 -- the warm figures stand without it
            print(f"peers.py: {case.name} {peer}.{variant} cold timing failed: {error}",
                  file=sys.stderr)
    if not times:
        return None
    best = min(times, key=times.get)
    seconds = times[best]
    cold = {}
    if cold_times:
        cold_best = min(cold_times, key=cold_times.get)
        cold = {
            "cold_variant": cold_best,
            "cold_variant_seconds": cold_times,
            "cold_seconds": cold_times[cold_best],
            "cold_median_seconds": cold_medians[cold_best],
            "cold_GBps": case.moved_bytes / cold_times[cold_best] * 1e-9,
        }
    return {
        "case": case.name,
        "threads": threads_label,
        "thread_count": thread_count,
        "peer": peer,
        "variant": best,
        "variant_seconds": times,
        "seconds": seconds,
        "median_seconds": medians[best],
        "moved_bytes": case.moved_bytes,
        "GBps": case.moved_bytes / seconds * 1e-9,
        "ns_per_call": seconds * 1e9,
        **cold,
    }


def run_onnxruntime(specs, folder, node_modules, min_seconds, cold):
    """Runs ort_peer.js on the collected ONNX specs; its records, or [] (with a message) when
    node or onnxruntime-node is missing or the script fails."""
    node = shutil.which("node")
    if node is None:
        print("peers.py: node not found; skipping the ONNX Runtime peer", file=sys.stderr)
        return [], None
    all_threads = os.cpu_count() or 1
    spec = {"cases": specs, "threads": [["1", 1], ["all", all_threads]],
            "min_time": min_seconds, "cold": cold, "llc_bytes": last_level_cache_bytes()}
    spec_path = os.path.join(folder, "ort_spec.json")
    out_path = os.path.join(folder, "ort_results.json")
    with open(spec_path, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    env = dict(os.environ)
    if node_modules:
        env["NODE_PATH"] = os.pathsep.join(p for p in (node_modules, env.get("NODE_PATH")) if p)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ort_peer.js")
    completed = subprocess.run([node, script, spec_path, out_path], env=env, check=False)
    if completed.returncode != 0 or not os.path.exists(out_path):
        print(f"peers.py: ort_peer.js exited with {completed.returncode}; skipping the ONNX "
              "Runtime peer", file=sys.stderr)
        return [], None
    with open(out_path, encoding="utf-8") as f:
        document = json.load(f)
    for record in document["results"]:
        cold_text = (f", cold {record['cold_GBps']:.2f} GB/s" if "cold_GBps" in record else "")
        print(f"  {record['case']:34s} threads:{record['threads']:3s} ort    "
              f"{record['GBps']:8.2f} GB/s {record['ns_per_call']:14.0f} ns "
              f"({record['variant']}){cold_text}", file=sys.stderr)
    return document["results"], document.get("context", {}).get("onnxruntime")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="peers.json", help="JSON output path")
    parser.add_argument("--filter", default="", help="regular expression on case names")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per measurement")
    parser.add_argument("--peers", default="numpy,torch,onnxruntime",
                        help="comma-separated subset")
    parser.add_argument("--ort-node-modules", default=os.environ.get("DMLCPU_ORT_NODE_MODULES", ""),
                        help="node_modules folder holding onnxruntime-node (else NODE_PATH)")
    parser.add_argument("--no-cold", action="store_true",
                        help="skip the cold-cache timings (warm calls only)")
    args = parser.parse_args()

    peers = set(args.peers.split(","))
    all_threads = os.cpu_count() or 1
    info = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": torch.__version__ if torch is not None else None,
        "cpu_count": all_threads,
        "machine": platform.machine(),
    }
    print(f"peers.py: NumPy {info['numpy']}, PyTorch {info['torch']}, {all_threads} cores",
          file=sys.stderr)
    evict = None if args.no_cold else CacheEvictor()
    results = []
    ort_folder = tempfile.mkdtemp(prefix="dmlcpu_ort_")
    ort_specs = []
    for name, build in CASES:
        if args.filter and not re.search(args.filter, name):
            continue
        case = build()
        if "onnxruntime" in peers and case.onnx is not None:
            spec = dict(case.onnx, name=name, moved_bytes=case.moved_bytes,
                        latency=case.latency)
            indices = spec.pop("indices_array", None)
            if indices is not None:
                path = os.path.join(ort_folder, f"{name}.indices.bin")
                np.ascontiguousarray(indices, dtype=np.int64).tofile(path)
                spec["indices"] = {"file": path, "shape": list(indices.shape)}
            ort_specs.append(spec)
        if "numpy" in peers and case.numpy:
            record = measure(case, "numpy", case.numpy, "1", 1, args.min_time, evict)
            if record:
                results.append(record)
                results.append(dict(record, threads="all", thread_count=all_threads,
                                    note="NumPy is single-threaded; measured once"))
        if "torch" in peers and torch is not None and case.torch:
            for label, count in (("1", 1), ("all", all_threads)):
                torch.set_num_threads(count)
                record = measure(case, "torch", case.torch, label, count, args.min_time,
                                 evict)
                if record:
                    results.append(record)
        for record in results[-4:]:
            if record["case"] == name:
                cold_text = (f", cold {record['cold_GBps']:.2f} GB/s ({record['cold_variant']})"
                             if "cold_GBps" in record else "")
                print(f"  {name:34s} threads:{record['threads']:3s} {record['peer']:6s} "
                      f"{record['GBps']:8.2f} GB/s {record['ns_per_call']:14.0f} ns "
                      f"({record['variant']}){cold_text}", file=sys.stderr)
        del case
    if ort_specs:
        ort_results, info["onnxruntime"] = run_onnxruntime(
            ort_specs, ort_folder, args.ort_node_modules, args.min_time, evict is not None)
        results += ort_results
    shutil.rmtree(ort_folder, ignore_errors=True)
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump({"context": info, "results": results}, out, indent=1)
    print(f"peers.py: wrote {len(results)} results to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
