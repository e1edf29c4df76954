# SPDX-License-Identifier: Apache-2.0
"""Peers for bench/scatter_bench.cc: PyTorch (index_put_ / scatter_ / scatter_reduce_) and
NumPy (fancy assignment, np.add.at), same shapes, best of repeated calls, per thread count.

    python3 bench/peers/scatter_peers.py [threads ...]
Prints one line per case: name, peer, threads, best milliseconds.
"""
import sys
import time

import numpy as np

try:
    import torch
except ImportError:  # NumPy only
    torch = None


def best_ms(fn, min_seconds=0.4, min_calls=3):
    best = float("inf")
    start = time.perf_counter()
    calls = 0
    while calls < min_calls or time.perf_counter() - start < min_seconds:
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
        calls += 1
    return best * 1e3


def cases(rng):
    kv = np.zeros((8, 32, 4096, 128), np.float16)
    tok = np.ones((8, 32, 1, 128), np.float16)
    perm = np.argsort(rng.random((4096, 4096)), axis=1).astype(np.int64)
    rows0 = rng.integers(0, 4096, (4096, 4096), dtype=np.int64)
    src = np.arange(4096 * 4096, dtype=np.float32).reshape(4096, 4096) % 977
    bins_idx = rng.integers(0, 65536, 16 << 20, dtype=np.int64)
    bins_upd = (np.arange(16 << 20) % 977).astype(np.float32)
    fmap = np.zeros((256, 256, 512), np.float32)
    yx = rng.integers(0, 256, (10000, 2), dtype=np.int64)
    rows = np.ones((10000, 512), np.float32)
    return kv, tok, perm, rows0, src, bins_idx, bins_upd, fmap, yx, rows


def main():
    threads = [int(t) for t in sys.argv[1:]] or [1, 2]
    rng = np.random.default_rng(7)
    kv, tok, perm, rows0, src, bins_idx, bins_upd, fmap, yx, rows = cases(rng)
    out = []
    # NumPy (single-threaded)
    def np_kv_inplace():
        kv[:, :, 2047:2048, :] = tok
    out.append(("KvCacheTokenWriteInPlace", "numpy", 1, best_ms(np_kv_inplace)))
    out.append(("KvCacheTokenWriteOutOfPlace", "numpy", 1,
                best_ms(lambda: np.copy(kv).__setitem__((slice(None), slice(None), slice(2047, 2048)), tok))))
    def np_axis1():
        o = src.copy()
        np.put_along_axis(o, perm, src, axis=1)
    out.append(("ScatterElementsAxis1Permutation", "numpy", 1, best_ms(np_axis1)))
    def np_axis0():
        o = src.copy()
        np.put_along_axis(o, rows0, src, axis=0)
    out.append(("ScatterElementsAxis0", "numpy", 1, best_ms(np_axis0)))
    def np_add():
        o = np.zeros(65536, np.float32)
        np.add.at(o, bins_idx, bins_upd)
    out.append(("ScatterAdd16MInto65536Bins", "numpy", 1, best_ms(np_add, min_calls=1)))
    def np_rows():
        fmap[yx[:, 0], yx[:, 1]] = rows
    out.append(("ScatterNdRowsInPlace", "numpy", 1, best_ms(np_rows)))
    small = np.zeros((100, 16), np.float32)
    ids = rng.integers(0, 100, 8)
    upd8 = np.ones((8, 16), np.float32)
    def np_tiny():
        small[ids] = upd8
    out.append(("TinyScatterNdInPlace", "numpy", 1, best_ms(np_tiny) ))
    if torch is not None:
        tkv, ttok = torch.from_numpy(kv), torch.from_numpy(tok)
        tperm, trows0, tsrc = torch.from_numpy(perm), torch.from_numpy(rows0), torch.from_numpy(src)
        tbi, tbu = torch.from_numpy(bins_idx), torch.from_numpy(bins_upd)
        tfmap, tyx, trows = torch.from_numpy(fmap), torch.from_numpy(yx), torch.from_numpy(rows)
        tb = torch.arange(8).view(8, 1).expand(8, 32).reshape(-1)
        th = torch.arange(32).view(1, 32).expand(8, 32).reshape(-1)
        tp = torch.full((256,), 2047)
        tvals = ttok.reshape(256, 128)
        tsmall, tids, tupd8 = torch.from_numpy(small), torch.from_numpy(ids), torch.from_numpy(upd8)
        for t in threads:
            torch.set_num_threads(t)
            out.append(("KvCacheTokenWriteInPlace", "torch.index_put_", t,
                        best_ms(lambda: tkv.index_put_((tb, th, tp), tvals))))
            out.append(("KvCacheTokenWriteOutOfPlace", "torch.index_put", t,
                        best_ms(lambda: tkv.index_put((tb, th, tp), tvals))))
            out.append(("ScatterElementsAxis1Permutation", "torch.scatter", t,
                        best_ms(lambda: tsrc.scatter(1, tperm, tsrc))))
            out.append(("ScatterElementsAxis0", "torch.scatter", t,
                        best_ms(lambda: tsrc.scatter(0, trows0, tsrc))))
            out.append(("ScatterAdd16MInto65536Bins", "torch.scatter_reduce(sum)", t,
                        best_ms(lambda: torch.zeros(65536).scatter_reduce(0, tbi, tbu, "sum"))))
            out.append(("ScatterAdd16MInto65536Bins", "torch.index_add", t,
                        best_ms(lambda: torch.zeros(65536).index_add(0, tbi, tbu))))
            out.append(("ScatterNdRowsInPlace", "torch.index_put_", t,
                        best_ms(lambda: tfmap.index_put_((tyx[:, 0], tyx[:, 1]), trows))))
            out.append(("TinyScatterNdInPlace", "torch.index_copy_", t,
                        best_ms(lambda: tsmall.index_copy_(0, tids, tupd8))))
    for name, peer, t, ms in out:
        print(f"{name}\t{peer}\tthreads={t}\t{ms:.4f} ms")


if __name__ == "__main__":
    main()
