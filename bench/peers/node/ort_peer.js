// ONNX Runtime side of the peer comparison: onnxruntime-node (npm, installed
// with --ignore-scripts), CPU execution provider, the models of
// make_models.py. One session per model and thread count (intraOpNumThreads
// 1 or N, interOpNumThreads 1, sequential, all graph optimizations),
// preallocated output. The binding's per-call overhead (Identity on 4 floats)
// is measured and reported beside the figures, not subtracted.
//
// Usage: node ort_peer.js WORKLOADS DATA_DIR MODEL_DIR OUT_DIR [THREADS...] [--only ID,...]
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

// Same timing rule as peers_common.py / peer_common.hpp.
const BATCH_NS = 200e3;
const TIME_BUDGET_NS = 150e6;
const MIN_SAMPLES = 5;
const MAX_SAMPLES = 61;

const now = () => Number(process.hrtime.bigint());

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

async function timeCall(fn) {
  await fn();  // warm-up
  let t0 = now();
  await fn();
  const one = Math.max(now() - t0, 1);
  const k = Math.max(1, Math.min(1000000, Math.ceil(BATCH_NS / one)));
  const samples = [];
  const start = now();
  while (samples.length < MAX_SAMPLES) {
    t0 = now();
    for (let i = 0; i < k; ++i) await fn();
    samples.push((now() - t0) / k);
    if (samples.length >= MIN_SAMPLES && now() - start >= TIME_BUDGET_NS) break;
  }
  return median(samples);
}

function timeCallSync(fn) {
  return timeCall(() => { fn(); return null; });
}

function loadWorkloads(file) {
  const out = [];
  for (let line of fs.readFileSync(file, 'utf8').split('\n')) {
    line = line.split('#')[0].trim();
    if (!line) continue;
    const [id, op, dtype, shape, axes, sb] = line.split(/\s+/);
    out.push({id, op, dtype, shape: shape.split('x').map(Number), axes, sb});
  }
  return out;
}

function outName(peer, w, threads, impl) {
  return `${peer}/${w.id}.t${threads}.${impl.replace(/[^A-Za-z0-9]/g, '_')}.out`;
}

// The input tensor in the model's io dtype (bf16 data is widened to f32:
// onnxruntime-node has no bfloat16 tensors).
function inputTensor(raw, w, io) {
  const ab = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
  if (io === 'f32' && w.dtype === 'f32') return new ort.Tensor('float32', new Float32Array(ab), w.shape);
  if (io === 'f16') return new ort.Tensor('float16', new Uint16Array(ab), w.shape);
  if (io === 'f32' && w.dtype === 'bf16') {
    const bits = new Uint16Array(ab);
    const wide = new Uint32Array(bits.length);
    for (let i = 0; i < bits.length; ++i) wide[i] = bits[i] << 16;
    return new ort.Tensor('float32', new Float32Array(wide.buffer), w.shape);
  }
  throw new Error(`no input for ${w.dtype} as ${io}`);
}

function emptyTensor(w, io) {
  const n = w.shape.reduce((a, b) => a * b, 1);
  return io === 'f16' ? new ort.Tensor('float16', new Uint16Array(n), w.shape)
                      : new ort.Tensor('float32', new Float32Array(n), w.shape);
}

// Output bytes in the workload's dtype (an f32 result of a bf16 workload holds
// bf16 values: keep the upper halves).
function outputBytes(t, w, io) {
  const d = t.data;
  if (w.dtype === 'bf16' && io === 'f32') {
    const u = new Uint32Array(d.buffer, d.byteOffset, d.length);
    const h = new Uint16Array(d.length);
    for (let i = 0; i < d.length; ++i) h[i] = u[i] >>> 16;
    return Buffer.from(h.buffer);
  }
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

function sessionOptions(threads, extra) {
  return Object.assign({
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
  }, extra || {});
}

async function main() {
  const argv = process.argv.slice(2);
  let only = null;
  const oi = argv.indexOf('--only');
  if (oi >= 0) { only = new Set(argv[oi + 1].split(',')); argv.splice(oi, 2); }
  const [workloadsFile, dataDir, modelDir, outDir] = argv;
  const threadsList = argv.slice(4).map(Number);
  if (!threadsList.length) threadsList.push(1);
  const manifest = JSON.parse(fs.readFileSync(path.join(modelDir, 'manifest.json'), 'utf8'));
  fs.mkdirSync(path.join(outDir, 'ort'), {recursive: true});
  const version = ort.env.versions.node || ort.env.versions.common;
  const res = fs.openSync(path.join(outDir, 'ort.jsonl'), 'w');
  const write = (rec) => fs.writeSync(res, JSON.stringify(Object.assign(
      {peer: 'ONNX Runtime', version, note: '', reason: '', time_ns: null, memcpy_ns: null, out: null},
      rec)) + '\n');
  console.error(`onnxruntime-node ${version}`);

  // Per-call overhead of the binding: Identity on 4 floats.
  for (const threads of threadsList) {
    const s = await ort.InferenceSession.create(path.join(modelDir, 'identity.onnx'),
                                                sessionOptions(threads));
    const x = new ort.Tensor('float32', new Float32Array(4), [4]);
    const y = new ort.Tensor('float32', new Float32Array(4), [4]);
    const ns = await timeCall(() => s.run({x}, {y}));
    write({id: 'overhead', threads, impl: 'Identity [4] f32', status: 'ok', time_ns: ns});
    console.error(`  call overhead ${threads}T ${(ns / 1e3).toFixed(1)} us`);
    await s.release();
  }

  for (const w of loadWorkloads(workloadsFile)) {
    if (only && !only.has(w.id)) continue;
    const raw = fs.readFileSync(path.join(dataDir, `${w.id}.in`));
    const src = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
    const dst = new Uint8Array(src.length);
    const memcpyNs = await timeCallSync(() => dst.set(src));
    const entries = manifest.workloads[w.id] || [];
    if (!entries.length) {
      for (const threads of threadsList)
        write({id: w.id, threads, impl: '-', status: 'unsupported', memcpy_ns: memcpyNs,
               reason: 'no ONNX operator for this axis set'});
      continue;
    }
    for (const threads of threadsList) {
      let nativeOk = false;
      for (const [k, e] of entries.entries()) {
        if (e.upcast && nativeOk) continue;
        const base = {id: w.id, threads, impl: e.impl, note: e.note, memcpy_ns: memcpyNs};
        let session;
        const extra = {};
        if (w.dtype !== 'f32' && !e.upcast) {
          // Kept so check_peers.py can tell whether ORT inserted Casts to f32.
          extra.optimizedModelFilePath = path.join(outDir, 'ort', `${w.id}.${k}.t${threads}.opt.onnx`);
          base.optimized_model = path.relative(outDir, extra.optimizedModelFilePath);
        }
        try {
          session = await ort.InferenceSession.create(path.join(modelDir, e.file),
                                                      sessionOptions(threads, extra));
        } catch (err) {
          write(Object.assign(base, {status: 'unsupported', reason: String(err.message || err).split('\n')[0].slice(0, 200)}));
          console.error(`  ${w.id} ${threads}T ${e.impl}: unsupported: ${String(err).slice(0, 100)}`);
          continue;
        }
        try {
          const x = inputTensor(raw, w, e.io);
          const y = emptyTensor(w, e.io);
          const feeds = {x}, fetches = {y};
          const ns = await timeCall(() => session.run(feeds, fetches));
          const r = await session.run(feeds, fetches);
          const name = outName('ort', w, threads, e.impl);
          fs.writeFileSync(path.join(outDir, name), outputBytes(r.y, w, e.io));
          write(Object.assign(base, {status: 'ok', time_ns: ns, out: name}));
          nativeOk = nativeOk || !e.upcast;
          console.error(`  ${w.id} ${threads}T ${e.impl.padEnd(34)} ${(ns / 1e3).toFixed(1).padStart(10)} us (memcpy ${(memcpyNs / 1e3).toFixed(1)} us)`);
        } catch (err) {
          write(Object.assign(base, {status: 'error', reason: String(err.message || err).slice(0, 200)}));
          console.error(`  ${w.id} ${threads}T ${e.impl}: error: ${err}`);
        }
        await session.release();
      }
    }
  }
  fs.closeSync(res);
}

main().catch((e) => { console.error(e); process.exit(1); });
