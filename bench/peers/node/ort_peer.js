// ONNX Runtime side of the peer comparison: onnxruntime-node (npm, installed
// with --ignore-scripts), CPU execution provider, the models of
// make_models.py. One session per model and thread count (intraOpNumThreads
// 1 or N, interOpNumThreads 1, sequential, all graph optimizations), with
// ORT's profiler on.
//
// Two figures:
// - time_ns, ORT's own time: the profiler's `model_run` duration of every
//   session.run (InferenceSession::Run inside ORT, from feeds to fetches),
//   under the shared timing rule (median over batches of the batch's mean).
//   This is what the table compares. It includes the profiler's own
//   bookkeeping (a few us per node; Identity on 4 floats bounds it). Each
//   model runs twice in its session, with a preallocated output (ORT writes
//   into it) and with ORT allocating the output (from its arena); both
//   outputs are checked, the faster correct one is shown.
// - call_ns, end to end: session.run as a Node caller sees it, on the JS
//   clock, in a session without the profiler, for the row's fastest
//   configuration. onnxruntime-node 1.30 copies every output into a new
//   ArrayBuffer on every call, even into a preallocated one, so this adds an
//   allocation and a copy of the output to ORT's time; the table lists it
//   apart, with Identity's. compare_peers.sh runs this with glibc keeping
//   freed memory (GLIBC_TUNABLES, see there), else those buffers also fault
//   in fresh pages.
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
const us = (ns) => (ns / 1e3).toFixed(1);

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

// Times fn under the shared timing rule. Returns the median ns per call and
// how the calls were made: call 0 is the warm-up, call 1 sizes the batches,
// then `batches` batches of k calls (so per-call figures recorded elsewhere,
// like ORT's profile, can be grouped the same way).
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
  return {ns: median(samples), k, batches: samples.length};
}

// The profiler's durations are whole microseconds, truncated: +0.5 us per run
// removes that bias on average.
const PROFILE_TRUNCATION_NS = 500;

// ORT's own ns per call of a timeCall whose first call was run number
// `first` of the session, from the session's model_run durations (us), by the
// same rule: median over the batches of each batch's mean.
function ownTime(runUs, first, t) {
  const samples = [];
  for (let b = 0; b < t.batches; ++b) {
    let sum = 0;
    for (let i = 0; i < t.k; ++i) sum += runUs[first + 2 + b * t.k + i];
    samples.push(sum * 1e3 / t.k + PROFILE_TRUNCATION_NS);
  }
  return median(samples);
}

// Ends the session's profile and returns its model_run durations (us) in run
// order; deletes the profile file.
function modelRuns(session, dir, prefix) {
  session.endProfiling();
  const files = fs.readdirSync(dir)
                   .filter((f) => f.startsWith(`${prefix}_`) && f.endsWith('.json'));
  if (files.length !== 1) {
    throw new Error(`expected one profile ${prefix}_*.json in ${dir}, found ${files.length}`);
  }
  const file = path.join(dir, files[0]);
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.unlinkSync(file);
  return events.filter((e) => e.cat === 'Session' && e.name === 'model_run')
               .sort((a, b) => a.ts - b.ts).map((e) => e.dur);
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

  const profDir = path.join(outDir, 'ort', 'profile');
  fs.mkdirSync(profDir, {recursive: true});
  const profiled = (prefix) => ({enableProfiling: true,
                                 profileFilePrefix: path.join(profDir, prefix)});

  // Runs each candidate's fetches (a preallocated output, or null: ORT
  // allocates it) under timeCall in one profiled session, then once more for
  // the output. Returns [{ownNs, result}] in candidate order.
  async function timeProfiled(session, prefix, feeds, fetchList) {
    let runs = 0;
    const timed = [];
    for (const fetches of fetchList) {
      const first = runs;
      const run = () => {
        ++runs;
        return fetches ? session.run(feeds, fetches) : session.run(feeds);
      };
      const t = await timeCall(run);
      const result = await run();
      timed.push({first, t, result});
    }
    const runUs = modelRuns(session, profDir, prefix);
    if (runUs.length !== runs) {
      throw new Error(`profile has ${runUs.length} model_run events for ${runs} runs`);
    }
    return timed.map(({first, t, result}) => ({ownNs: ownTime(runUs, first, t), result}));
  }

  // session.run end to end on the JS clock, in a session without the profiler.
  async function timeCallEndToEnd(modelFile, threads, feeds, fetches) {
    const session = await ort.InferenceSession.create(modelFile, sessionOptions(threads));
    try {
      return (await timeCall(() => fetches ? session.run(feeds, fetches) : session.run(feeds))).ns;
    } finally {
      await session.release();
    }
  }

  // Per-call overhead of the binding: Identity on 4 floats.
  const identity = path.join(modelDir, 'identity.onnx');
  for (const threads of threadsList) {
    const prefix = `identity.t${threads}`;
    const s = await ort.InferenceSession.create(identity,
                                                sessionOptions(threads, profiled(prefix)));
    const x = new ort.Tensor('float32', new Float32Array(4), [4]);
    const fetches = {y: new ort.Tensor('float32', new Float32Array(4), [4])};
    const [{ownNs}] = await timeProfiled(s, prefix, {x}, [fetches]);
    await s.release();
    const callNs = await timeCallEndToEnd(identity, threads, {x}, fetches);
    write({id: 'overhead', threads, impl: 'Identity [4] f32', status: 'ok', time_ns: ownNs,
           call_ns: callNs});
    console.error(`  call overhead ${threads}T ${us(callNs)} us (ORT's own ${us(ownNs)} us)`);
  }

  for (const w of loadWorkloads(workloadsFile)) {
    if (only && !only.has(w.id)) continue;
    const raw = fs.readFileSync(path.join(dataDir, `${w.id}.in`));
    const entries = manifest.workloads[w.id] || [];
    if (!entries.length) {
      for (const threads of threadsList)
        write({id: w.id, threads, impl: '-', status: 'unsupported',
               reason: 'no ONNX operator for this axis set'});
      continue;
    }
    for (const threads of threadsList) {
      let nativeOk = false;
      const recs = [];  // this row's records, written once the fastest has its call_ns
      let fastest = null;
      for (const [k, e] of entries.entries()) {
        if (e.upcast && nativeOk) continue;
        const base = {id: w.id, threads, impl: e.impl, note: e.note};
        const prefix = `${w.id}.${k}.t${threads}`;
        let session;
        const extra = profiled(prefix);
        if (w.dtype !== 'f32' && !e.upcast) {
          // Kept so check_peers.py can tell whether ORT inserted Casts to f32.
          extra.optimizedModelFilePath = path.join(outDir, 'ort', `${prefix}.opt.onnx`);
          base.optimized_model = path.relative(outDir, extra.optimizedModelFilePath);
        }
        try {
          session = await ort.InferenceSession.create(path.join(modelDir, e.file),
                                                      sessionOptions(threads, extra));
        } catch (err) {
          const reason = String(err.message || err).split('\n')[0].slice(0, 200);
          recs.push(Object.assign(base, {status: 'unsupported', reason}));
          console.error(`  ${w.id} ${threads}T ${e.impl}: unsupported: ${reason.slice(0, 100)}`);
          continue;
        }
        try {
          const x = inputTensor(raw, w, e.io);
          const outputs = [['preallocated output', {y: emptyTensor(w, e.io)}],
                           ['ORT-allocated output', null]];
          const timed = await timeProfiled(session, prefix, {x}, outputs.map(([, f]) => f));
          for (const [i, [how, fetches]] of outputs.entries()) {
            const {ownNs, result} = timed[i];
            const impl = `${e.impl}, ${how}`;
            const name = outName('ort', w, threads, impl);
            fs.writeFileSync(path.join(outDir, name), outputBytes(result.y, w, e.io));
            const rec = Object.assign({}, base, {impl, status: 'ok', time_ns: ownNs, out: name});
            recs.push(rec);
            if (!fastest || ownNs < fastest.rec.time_ns) fastest = {rec, file: e.file, x, fetches};
            console.error(`  ${w.id} ${threads}T ${impl.padEnd(50)} ${us(ownNs).padStart(10)} us`);
          }
          nativeOk = nativeOk || !e.upcast;
        } catch (err) {
          recs.push(Object.assign(base, {status: 'error',
                                         reason: String(err.message || err).slice(0, 200)}));
          console.error(`  ${w.id} ${threads}T ${e.impl}: error: ${err}`);
        }
        await session.release();
      }
      if (fastest) {
        const {rec, file, x, fetches} = fastest;
        rec.call_ns = await timeCallEndToEnd(path.join(modelDir, file), threads, {x}, fetches);
        console.error(`  ${w.id} ${threads}T ${rec.impl}: session.run ${us(rec.call_ns)} us`);
      }
      recs.forEach(write);
    }
  }
  fs.closeSync(res);
}

main().catch((e) => { console.error(e); process.exit(1); });
