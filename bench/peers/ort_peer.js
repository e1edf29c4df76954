#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks -- ONNX Runtime's CPU execution provider as a peer (onnxruntime-node).
//
//   node bench/peers/ort_peer.js SPEC.json OUT.json
//
// SPEC.json is written by peers.py: {"cases": [...], "threads": [["1", 1], ["all", n]],
// "min_time": seconds, "cold": bool, "llc_bytes": n}. Each case is one ONNX node (Slice, Gather,
// GatherElements, GatherND, Transpose, Pad, DepthToSpace, SpaceToDepth) built here as a one-node
// model (protobuf encoded by hand),
// its data input filled with ones and its indices read from the .bin file peers.py wrote (the
// same values as dmlcpu_bench). The data tensor is a graph input bound on every call, as dmlcpu
// binds its buffer. Sessions run with intraOpNumThreads = the thread count, interOpNumThreads = 1.
// Outputs are preallocated (fetches = {y: tensor}); where onnxruntime-node refuses that, the case
// falls back to an output ORT allocates and the record's variant says "run_allocating".
// onnxruntime-node 1.20 writes the preallocated output and still returns it copied into a new
// JavaScript buffer, so every run includes one more copy of the output than ORT's C API would.
// Timing as peers.py's time_call: one warm-up, best and median of samples until min_time and at
// least 3 (cold: 5, each after a sweep that reads three times the last-level cache three times
// over, one load per line, on this one thread).
'use strict';

const fs = require('fs');
let ort;
try {
  ort = require('onnxruntime-node');
} catch (error) {
  process.stderr.write(`ort_peer.js: onnxruntime-node not available (${error.message})\n`);
  process.exit(2);
}

// ---- protobuf encoding (the few ONNX fields a one-node model needs) ----------------------------

function varint(value) {
  let v = BigInt.asUintN(64, BigInt(value));
  const bytes = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v !== 0n);
  return Buffer.from(bytes);
}
const key = (field, wire) => varint((field << 3) | wire);
const intField = (field, value) => Buffer.concat([key(field, 0), varint(value)]);
const bytesField = (field, payload) => {
  const data = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8');
  return Buffer.concat([key(field, 2), varint(data.length), data]);
};

// TensorProto.DataType values.
const ONNX_TYPES = {float32: 1, float16: 10, int64: 7};

function valueInfo(name, dtype, shape) {
  const dims = shape.map((d) => bytesField(1, intField(1, d)));  // Dimension.dim_value
  const tensorType = Buffer.concat([intField(1, ONNX_TYPES[dtype]),
                                    bytesField(2, Buffer.concat(dims))]);
  return Buffer.concat([bytesField(1, name), bytesField(2, bytesField(1, tensorType))]);
}

function int64Initializer(name, values) {
  const raw = Buffer.alloc(8 * values.length);
  values.forEach((v, i) => raw.writeBigInt64LE(BigInt(v), 8 * i));
  return Buffer.concat([intField(1, values.length), intField(2, ONNX_TYPES.int64),
                        bytesField(8, name), bytesField(9, raw)]);
}

function intAttribute(name, value) {
  return Buffer.concat([bytesField(1, name), intField(3, value), intField(20, 2)]);  // INT
}

function stringAttribute(name, value) {
  return Buffer.concat([bytesField(1, name), bytesField(4, value), intField(20, 3)]);  // STRING
}

function intsAttribute(name, values) {
  const parts = [bytesField(1, name)];
  for (const v of values) parts.push(intField(8, v));
  parts.push(intField(20, 7));  // INTS
  return Buffer.concat(parts);
}

// A one-node opset-13 model: graph inputs x (and indices), output y.
function buildModel(c) {
  const inputs = ['x'];
  const initializers = [];
  const attributes = [];
  const graphInputs = [valueInfo('x', c.data.dtype, c.data.shape)];
  if (c.indices) {
    inputs.push('indices');
    graphInputs.push(valueInfo('indices', 'int64', c.indices.shape));
  }
  if (c.op === 'Slice') {
    for (const part of ['starts', 'ends', 'axes', 'steps']) {
      inputs.push(part);
      initializers.push(int64Initializer(part, c.slice[part]));
    }
  }
  if (c.op === 'Pad') {  // opset 13: the pads are an input; constant_value left out (zero)
    inputs.push('pads');
    initializers.push(int64Initializer('pads', c.pads));
  }
  for (const [name, value] of Object.entries(c.attrs || {})) {
    attributes.push(Array.isArray(value) ? intsAttribute(name, value) : intAttribute(name, value));
  }
  if (c.mode) attributes.push(stringAttribute('mode', c.mode));  // Pad, DepthToSpace
  const nodeParts = inputs.map((name) => bytesField(1, name));
  nodeParts.push(bytesField(2, 'y'), bytesField(4, c.op));
  for (const a of attributes) nodeParts.push(bytesField(5, a));
  const graphParts = [bytesField(1, Buffer.concat(nodeParts)), bytesField(2, 'g')];
  for (const init of initializers) graphParts.push(bytesField(5, init));
  for (const input of graphInputs) graphParts.push(bytesField(11, input));
  graphParts.push(bytesField(12, valueInfo('y', c.data.dtype, c.out_shape)));
  const opset = Buffer.concat([bytesField(1, ''), intField(2, 13)]);
  return Buffer.concat([intField(1, 8), bytesField(2, 'dmlcpu-bench'), bytesField(7,
      Buffer.concat(graphParts)), bytesField(8, opset)]);
}

// ---- buffers ------------------------------------------------------------------------------------

const product = (shape) => shape.reduce((a, b) => a * b, 1);

function filledTensor(dtype, shape) {
  const count = product(shape);
  if (dtype === 'float32') return new ort.Tensor('float32', new Float32Array(count).fill(1), shape);
  if (dtype === 'float16') {
    return new ort.Tensor('float16', new Uint16Array(count).fill(0x3c00), shape);  // 1.0
  }
  throw new Error(`unsupported dtype ${dtype}`);
}

function indicesTensor(spec) {
  const bytes = fs.readFileSync(spec.file);
  const values = new BigInt64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8);
  return new ort.Tensor('int64', values, spec.shape);
}

// ---- timing -------------------------------------------------------------------------------------

const now = () => Number(process.hrtime.bigint()) * 1e-9;

function makeEvictor(llcBytes) {
  const elems = Math.max(4 << 20, Math.floor(3 * llcBytes / 8));
  const lines = new Float64Array(elems).fill(1);
  return () => {
    let sum = 0;
    for (let pass = 0; pass < 3; ++pass) {
      for (let i = 0; i < elems; i += 8) sum += lines[i];
    }
    if (sum !== 3 * Math.ceil(elems / 8)) throw new Error('evictor: unexpected sum');
  };
}

async function timeCall(run, minSeconds, latency, evict) {
  await run();  // warm-up
  let batch = 1;
  if (latency) {
    const start = now();
    let calls = 0;
    while (now() - start < 0.01) {
      await run();
      ++calls;
    }
    batch = Math.max(1, Math.floor(calls / 10));
  }
  const minSamples = evict ? 5 : 3;
  const samples = [];
  const begin = now();
  for (;;) {
    if (evict) evict();
    const start = now();
    for (let i = 0; i < batch; ++i) await run();
    samples.push((now() - start) / batch);
    if (samples.length >= minSamples && now() - begin >= minSeconds) break;
    if (samples.length >= 2 && samples[0] > 1.0) break;
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return [sorted[0], median];
}

async function measureCase(c, spec, evict) {
  const model = buildModel(c);
  const x = filledTensor(c.data.dtype, c.data.shape);
  const feeds = {x};
  if (c.indices) feeds.indices = indicesTensor(c.indices);
  const out = filledTensor(c.data.dtype, c.out_shape);
  const records = [];
  for (const [label, count] of spec.threads) {
    const session = await ort.InferenceSession.create(model, {
      executionProviders: ['cpu'], intraOpNumThreads: count, interOpNumThreads: 1,
      executionMode: 'sequential', graphOptimizationLevel: 'all'});
    // Preallocated output where onnxruntime-node takes one: check that it wrote into `out`.
    let variant = 'run_preallocated';
    let run = () => session.run(feeds, {y: out});
    try {
      out.data.fill(0);  // the inputs hold ones (float16: 0x3c00): a written output is not 0
      await run();
      if (out.data[0] === 0 || out.data[out.data.length - 1] === 0) {
        throw new Error('the output was not written into the preallocated tensor');
      }
    } catch (error) {
      process.stderr.write(`ort_peer.js: ${c.name}: preallocated output refused ` +
                           `(${error.message}); timing with an output ORT allocates\n`);
      variant = 'run_allocating';
      run = () => session.run(feeds);
    }
    const [seconds, median] = await timeCall(run, spec.min_time, c.latency, null);
    const record = {
      case: c.name, threads: label, thread_count: count, peer: 'onnxruntime', variant,
      variant_seconds: {[variant]: seconds}, seconds, median_seconds: median,
      moved_bytes: c.moved_bytes, GBps: c.moved_bytes / seconds * 1e-9, ns_per_call: seconds * 1e9,
    };
    if (evict && !c.latency) {
      const [cold, coldMedian] = await timeCall(run, spec.min_time, false, evict);
      Object.assign(record, {cold_variant: variant, cold_variant_seconds: {[variant]: cold},
                             cold_seconds: cold, cold_median_seconds: coldMedian,
                             cold_GBps: c.moved_bytes / cold * 1e-9});
    }
    records.push(record);
    await session.release();
  }
  return records;
}

async function main() {
  const [specPath, outPath] = process.argv.slice(2);
  if (!specPath || !outPath) {
    process.stderr.write('usage: node ort_peer.js SPEC.json OUT.json\n');
    process.exit(2);
  }
  const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
  const evict = spec.cold ? makeEvictor(spec.llc_bytes) : null;
  const results = [];
  for (const c of spec.cases) {
    try {
      results.push(...await measureCase(c, spec, evict));
    } catch (error) {
      process.stderr.write(`ort_peer.js: ${c.name} failed: ${error.message}\n`);
    }
  }
  fs.writeFileSync(outPath, JSON.stringify({
    context: {onnxruntime: ort.env.versions.common, node: process.version}, results}));
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`ort_peer.js: ${error.stack}\n`);
    process.exit(1);
  });
} else {
  module.exports = {buildModel};
}
