#!/usr/bin/env node
// node_bench.mjs - measures Node.js's crypto.subtle on webcrypto-bench's
// operations, sizes and inputs, with the same method (see
// docs/BENCHMARKS.md): keys imported once per cell from the same fixed bytes,
// the same deterministic data stream, warm-up by time and count while
// finding a batch size (each timed sample >= 50 us of back-to-back awaited
// calls), then `iterations` samples scaled to a per-cell budget; per-op
// min/median/mean/p99/max/stddev (type-7 percentiles, sample stddev).
//
//   node tools/bench/node_bench.mjs [--op P[,P]] [--sizes 16,1k,...]
//       [--iterations N] [--warmup 200ms,10x] [--max-time MS]
//       [--pbkdf2-iterations N] [--json FILE] [--compare C_BENCH.json] [--quiet]
//
// --compare reads a webcrypto-bench --json file and prints, per common cell,
// Node's median over each C target's median, and whether the outputs
// (FNV-1a of one output) are identical.
import { webcrypto } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const subtle = webcrypto.subtle;

// ---- the same data stream as bench_ops.c (bench_stream) ----
const DATA_SEED = 0x5eedda7a, KEY_SEED = 0x6b657973;
function mix32(z) {
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}
function stream(seed, len) {
  const out = new Uint8Array(len);
  let state = seed >>> 0;
  for (let i = 0; i < len; i += 4) {
    state = (state + 0x9e3779b9) >>> 0;
    const w = mix32(state);
    for (let k = 0; k < 4 && i + k < len; k++) out[i + k] = (w >>> (8 * k)) & 0xff;
  }
  return out;
}
function fnv1a(buf) {
  const b = new Uint8Array(buf);
  let h = 2166136261;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 16777619) >>> 0;
  return h.toString(16).padStart(8, '0');
}

// ---- statistics (as bench_stats.c) ----
function percentileSorted(s, p) {
  if (p <= 0) return s[0];
  if (p >= 100) return s[s.length - 1];
  const h = (s.length - 1) * p / 100, lo = Math.floor(h);
  if (lo + 1 >= s.length) return s[s.length - 1];
  return s[lo] + (h - lo) * (s[lo + 1] - s[lo]);
}
function summarize(v) {
  const s = [...v].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const sd = s.length < 2 ? 0 : Math.sqrt(s.reduce((a, x) => a + (x - mean) ** 2, 0) / (s.length - 1));
  return { n: s.length, min: s[0], median: percentileSorted(s, 50), mean, p99: percentileSorted(s, 99), max: s[s.length - 1], stddev: sd };
}

// ---- options ----
const cfg = { sizes: [16, 1024, 10240, 102400, 1048576], iterations: 100, minSamples: 10, warmupMs: 200,
  warmupCalls: 10, maxCellMs: 1000, sampleNs: 50e3, pbkdf2Iterations: 1000, ops: null, json: null,
  compare: null, quiet: false };
function parseSize(t) {
  const m = /^(\d+)(?:([kmg])(?:i?b)?|b)?$/i.exec(t.trim());
  if (!m) throw new Error(`bad size ${t}`);
  const mult = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] || '').toLowerCase()] || 1;
  return Number(m[1]) * mult;
}
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  let a = argv[i], val;
  if (a.includes('=')) [a, val] = [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)];
  const next = () => (val !== undefined ? val : argv[++i]);
  switch (a) {
    case '--op': cfg.ops = next().split(','); break;
    case '--sizes': cfg.sizes = [...new Set(next().split(',').map(parseSize))].sort((x, y) => x - y); break;
    case '--iterations': cfg.iterations = Number(next()); break;
    case '--max-time': cfg.maxCellMs = Number(next()); break;
    case '--pbkdf2-iterations': cfg.pbkdf2Iterations = Number(next()); break;
    case '--json': cfg.json = next(); break;
    case '--compare': cfg.compare = next(); break;
    case '--quiet': cfg.quiet = true; break;
    case '--warmup': {
      let time = false, calls = false;
      for (const part of next().split(',')) {
        const m = /^(\d+)(ms|s|x)?$/.exec(part);
        if (!m) throw new Error(`bad --warmup ${part}`);
        if (m[2] === 'x') { cfg.warmupCalls = Number(m[1]); calls = true; }
        else { cfg.warmupMs = Number(m[1]) * (m[2] === 's' ? 1000 : 1); time = true; }
      }
      if (time && !calls) cfg.warmupCalls = 0;
      if (calls && !time) cfg.warmupMs = 0;
      break;
    }
    case '--help': case '-h':
      console.log(readFileSync(new URL(import.meta.url)).toString().split('\n').filter(l => l.startsWith('//')).map(l => l.slice(3)).join('\n'));
      process.exit(0);
    default: console.error(`node_bench: unknown option ${a}`); process.exit(2);
  }
}
if (!(cfg.iterations >= 1) || !(cfg.maxCellMs > 0) || !(cfg.pbkdf2Iterations >= 1)) {
  console.error('node_bench: bad numeric option'); process.exit(2);
}

// ---- operations (same names and parameters as bench_ops.c) ----
const keyStream = stream(KEY_SEED, 96);
const ivFull = keyStream.slice(32, 48);
const ctrBlock = (() => { const c = ivFull.slice(); c.fill(0, 8); return c; })();
const salt32 = keyStream.slice(48, 80), info16 = keyStream.slice(80, 96);
const EU = ['encrypt', 'decrypt'];
const ops = [];
for (const h of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'])
  ops.push({ name: `digest-${h.toLowerCase()}`, sized: true, det: true, setup: async () => ({ run: d => subtle.digest(h, d) }) });
for (const h of ['SHA-256', 'SHA-1', 'SHA-384', 'SHA-512']) {
  const imp = () => subtle.importKey('raw', keyStream.slice(0, 32), { name: 'HMAC', hash: h }, false, ['sign', 'verify']);
  ops.push({ name: `hmac-${h.toLowerCase()}-sign`, sized: true, det: true, setup: async () => { const k = await imp(); return { run: d => subtle.sign('HMAC', k, d) }; } });
  ops.push({ name: `hmac-${h.toLowerCase()}-verify`, sized: true, det: true, setup: async d0 => {
    const k = await imp(); const mac = await subtle.sign('HMAC', k, d0);
    return { run: async d => { if (!(await subtle.verify('HMAC', k, mac, d))) throw new Error('verify failed'); return new Uint8Array([1]); } };
  } });
}
for (const mode of ['GCM', 'CBC', 'CTR']) for (const bits of [128, 256]) {
  const name = `AES-${mode}`;
  const params = mode === 'GCM' ? { name, iv: ivFull.slice(0, 12) } : mode === 'CBC' ? { name, iv: ivFull } : { name, counter: ctrBlock, length: 64 };
  const imp = () => subtle.importKey('raw', keyStream.slice(0, bits / 8), { name }, false, EU);
  const base = `aes-${mode.toLowerCase()}-${bits}`;
  ops.push({ name: `${base}-encrypt`, sized: true, det: true, setup: async () => { const k = await imp(); return { run: d => subtle.encrypt(params, k, d) }; } });
  ops.push({ name: `${base}-decrypt`, sized: true, det: true, setup: async d0 => {
    const k = await imp(); const ct = await subtle.encrypt(params, k, d0);
    return { run: () => subtle.decrypt(params, k, ct) };
  } });
}
for (const bits of [128, 256])
  ops.push({ name: `aes-gcm-${bits}-generate-key`, sized: false, det: false, setup: async () => ({ run: () => subtle.generateKey({ name: 'AES-GCM', length: bits }, false, EU) }) });
for (const bits of [128, 256])
  ops.push({ name: `aes-gcm-${bits}-import-key`, sized: false, det: false, setup: async () => { const kb = keyStream.slice(0, bits / 8); return { run: () => subtle.importKey('raw', kb, { name: 'AES-GCM' }, false, EU) }; } });
ops.push({ name: 'hkdf-sha-256', sized: true, det: true, setup: async d0 => {
  const k = await subtle.importKey('raw', d0, 'HKDF', false, ['deriveBits']);
  return { run: () => subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: salt32, info: info16 }, k, 256) };
} });
ops.push({ name: 'pbkdf2-sha-256', sized: false, det: true, setup: async () => {
  const k = await subtle.importKey('raw', keyStream.slice(0, 16), 'PBKDF2', false, ['deriveBits']);
  return { run: () => subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: salt32.slice(0, 16), iterations: cfg.pbkdf2Iterations }, k, 256) };
} });
ops.push({ name: 'random', sized: true, det: false, max: 65536, setup: async () => ({ run: d => webcrypto.getRandomValues(new Uint8Array(d.length)) }) });
// "Modern Algorithms" (Node 24; an older Node reports these cells as errors).
ops.push({ name: 'digest-sha3-256', sized: true, det: true, setup: async () => ({ run: d => subtle.digest('SHA3-256', d) }) });
ops.push({ name: 'kmac128-sign', sized: true, det: true, setup: async () => {
  const k = await subtle.importKey('raw-secret', keyStream.slice(0, 32), { name: 'KMAC128' }, false, ['sign']);
  return { run: d => subtle.sign({ name: 'KMAC128', outputLength: 256 }, k, d) };
} });
// The AEADs of the draft: the same key bytes and 12-byte iv as bench_ops.c,
// so that ciphertexts are compared (raw-secret: Node 24 has no raw for them).
for (const [base, name, bits] of [['chacha20-poly1305', 'ChaCha20-Poly1305', 256], ['aes-ocb-256', 'AES-OCB', 256]]) {
  const params = { name, iv: ivFull.slice(0, 12) };
  const imp = () => subtle.importKey('raw-secret', keyStream.slice(0, bits / 8), { name }, false, EU);
  ops.push({ name: `${base}-encrypt`, sized: true, det: true, setup: async () => { const k = await imp(); return { run: d => subtle.encrypt(params, k, d) }; } });
  ops.push({ name: `${base}-decrypt`, sized: true, det: true, setup: async d0 => {
    const k = await imp(); const ct = await subtle.encrypt(params, k, d0);
    return { run: () => subtle.decrypt(params, k, ct) };
  } });
}
// Argon2id: password = the key stream's first 16 bytes, nonce = its salt's
// first 16; 19456 KiB, 2 passes, 1 lane (as bench_ops.c: the same output).
ops.push({ name: 'argon2id-19m-t2-p1', sized: false, det: true, setup: async () => {
  const k = await subtle.importKey('raw-secret', keyStream.slice(0, 16), 'Argon2id', false, ['deriveBits']);
  const params = { name: 'Argon2id', nonce: salt32.slice(0, 16), parallelism: 1, memory: 19456, passes: 2 };
  return { run: () => subtle.deriveBits(params, k, 256) };
} });
// ML-KEM-768 from the same 64-byte seed as bench_ops.c (the key stream's
// first 64 bytes); Node decapsulates its own encapsulation (a different
// ciphertext from the C harness's: outputs not compared). ML-DSA-65 from
// the key stream's first 32 bytes (the C harness generates its key: its
// signatures are hedged anyway).
ops.push({ name: 'ml-kem-768-encapsulate', sized: false, det: false, setup: async () => {
  const sk = await subtle.importKey('raw-seed', keyStream.slice(0, 64), 'ML-KEM-768', false, ['decapsulateBits']);
  const pk = await subtle.getPublicKey(sk, ['encapsulateBits']);
  return { run: () => subtle.encapsulateBits('ML-KEM-768', pk).then(r => r.sharedKey) };
} });
ops.push({ name: 'ml-kem-768-decapsulate', sized: false, det: false, setup: async () => {
  const sk = await subtle.importKey('raw-seed', keyStream.slice(0, 64), 'ML-KEM-768', false, ['decapsulateBits']);
  const pk = await subtle.getPublicKey(sk, ['encapsulateBits']);
  const { ciphertext, sharedKey } = await subtle.encapsulateBits('ML-KEM-768', pk);
  if (fnv1a(await subtle.decapsulateBits('ML-KEM-768', sk, ciphertext)) !== fnv1a(sharedKey))
    throw new Error('decapsulateBits: not the encapsulated key');
  return { run: () => subtle.decapsulateBits('ML-KEM-768', sk, ciphertext) };
} });
ops.push({ name: 'ml-dsa-65-sign', sized: false, det: false, setup: async () => {
  const sk = await subtle.importKey('raw-seed', keyStream.slice(0, 32), 'ML-DSA-65', false, ['sign']);
  return { run: () => subtle.sign('ML-DSA-65', sk, stream(DATA_SEED, 64)) };
} });
ops.push({ name: 'ml-dsa-65-verify', sized: false, det: false, setup: async () => {
  const sk = await subtle.importKey('raw-seed', keyStream.slice(0, 32), 'ML-DSA-65', false, ['sign']);
  const pk = await subtle.getPublicKey(sk, ['verify']);
  const msg = stream(DATA_SEED, 64), sig = await subtle.sign('ML-DSA-65', sk, msg);
  return { run: async () => { if (!(await subtle.verify('ML-DSA-65', pk, sig, msg))) throw new Error('verify failed'); return new Uint8Array([1]); } };
} });

// Asymmetric operations, one cell each on the same 64-byte message. Node
// generates its own key pairs (once per run): the C harness's pairs exist
// only inside its process, so outputs are not compared with C's here.
const MSG = stream(DATA_SEED, 64);
const pairCache = new Map();
function pair(tag, alg, usages) {
  if (!pairCache.has(tag)) pairCache.set(tag, subtle.generateKey(alg, true, usages));
  return pairCache.get(tag);
}
const F4 = new Uint8Array([1, 0, 1]);
const rsaGen = name => ({ name, modulusLength: 2048, publicExponent: F4, hash: 'SHA-256' });
const sigAlgs = [
  ['rsa-pkcs1-2048-sha256', rsaGen('RSASSA-PKCS1-v1_5'), { name: 'RSASSA-PKCS1-v1_5' }],
  ['rsa-pss-2048-sha256', rsaGen('RSA-PSS'), { name: 'RSA-PSS', saltLength: 32 }],
  ['ecdsa-p256', { name: 'ECDSA', namedCurve: 'P-256' }, { name: 'ECDSA', hash: 'SHA-256' }],
  ['ecdsa-p384', { name: 'ECDSA', namedCurve: 'P-384' }, { name: 'ECDSA', hash: 'SHA-384' }],
  ['ecdsa-p521', { name: 'ECDSA', namedCurve: 'P-521' }, { name: 'ECDSA', hash: 'SHA-512' }],
  ['ed25519', { name: 'Ed25519' }, { name: 'Ed25519' }],
  ['ed448', { name: 'Ed448' }, { name: 'Ed448' }],
];
for (const [base, gen, params] of sigAlgs) {
  const kp = () => pair(base, gen, ['sign', 'verify']);
  ops.push({ name: `${base}-sign`, sized: false, det: false, setup: async () => {
    const k = await kp(); return { run: () => subtle.sign(params, k.privateKey, MSG) };
  } });
  ops.push({ name: `${base}-verify`, sized: false, det: false, setup: async () => {
    const k = await kp(); const sig = await subtle.sign(params, k.privateKey, MSG);
    return { run: async () => { if (!(await subtle.verify(params, k.publicKey, sig, MSG))) throw new Error('verify failed'); return new Uint8Array([1]); } };
  } });
}
{
  const kp = () => pair('rsa-oaep', rsaGen('RSA-OAEP'), EU);
  ops.push({ name: 'rsa-oaep-2048-sha256-encrypt', sized: false, det: false, setup: async () => {
    const k = await kp(); return { run: () => subtle.encrypt({ name: 'RSA-OAEP' }, k.publicKey, MSG) };
  } });
  ops.push({ name: 'rsa-oaep-2048-sha256-decrypt', sized: false, det: false, setup: async () => {
    const k = await kp(); const ct = await subtle.encrypt({ name: 'RSA-OAEP' }, k.publicKey, MSG);
    return { run: () => subtle.decrypt({ name: 'RSA-OAEP' }, k.privateKey, ct) };
  } });
}
for (const [base, gen, bits] of [['ecdh-p256', { name: 'ECDH', namedCurve: 'P-256' }, 256],
  ['ecdh-p384', { name: 'ECDH', namedCurve: 'P-384' }, 384], ['ecdh-p521', { name: 'ECDH', namedCurve: 'P-521' }, 528],
  ['x25519', { name: 'X25519' }, 256], ['x448', { name: 'X448' }, 448]]) {
  ops.push({ name: `${base}-derive`, sized: false, det: false, setup: async () => {
    const me = await pair(base, gen, ['deriveBits']), peer = await pair(`${base} peer`, gen, ['deriveBits']);
    return { run: () => subtle.deriveBits({ name: gen.name, public: peer.publicKey }, me.privateKey, bits) };
  } });
}
for (const [name, gen, usages] of [['rsa-2048-generate-key', rsaGen('RSASSA-PKCS1-v1_5'), ['sign', 'verify']],
  ['ec-p256-generate-key', { name: 'ECDSA', namedCurve: 'P-256' }, ['sign', 'verify']],
  ['ed25519-generate-key', { name: 'Ed25519' }, ['sign', 'verify']], ['x25519-generate-key', { name: 'X25519' }, ['deriveBits']]])
  ops.push({ name, sized: false, det: false, setup: async () => ({ run: () => subtle.generateKey(gen, false, usages) }) });

function selected(name) {
  if (!cfg.ops) return true;
  return cfg.ops.some(p => /[*?[]/.test(p)
    ? new RegExp('^' + p.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$').test(name)
    : name.toLowerCase().startsWith(p.toLowerCase()));
}

// ---- measuring ----
const now = () => Number(process.hrtime.bigint());
async function timedBatch(run, data, batch) {
  const t0 = now();
  for (let i = 0; i < batch; i++) await run(data);
  return now() - t0;
}
async function measure(op, size, data) {
  const { run } = await op.setup(data);
  let batch = 1, perOp = 0, spent = 0, calls = 0;
  for (;;) {
    const t = await timedBatch(run, data, batch);
    spent += t; calls += batch; perOp = t / batch;
    // As bench_measure.c: the call minimum yields to half the cell budget (RSA keygen).
    if (spent >= cfg.warmupMs * 1e6 && (calls >= cfg.warmupCalls || spent >= cfg.maxCellMs * 1e6 / 2)) break;
    if (t < cfg.sampleNs && batch < 1e6) batch *= 2;
  }
  batch = Math.min(1e6, Math.max(1, Math.ceil(cfg.sampleNs / Math.max(perOp, 1))));
  let samples = cfg.iterations;
  const fit = Math.floor(cfg.maxCellMs * 1e6 / (Math.max(perOp, 1) * batch));
  if (samples > fit) samples = Math.max(Math.min(cfg.minSamples, cfg.iterations), fit);
  const times = [];
  for (let i = 0; i < samples; i++) times.push((await timedBatch(run, data, batch)) / batch);
  const s = summarize(times);
  const out = await run(data);
  const r = { op: op.name, size, backend: 'node', ok: true, samples, batch, min_ns: s.min, median_ns: s.median,
    mean_ns: s.mean, p99_ns: s.p99, max_ns: s.max, stddev_ns: s.stddev, ops_per_s: 1e9 / s.median,
    mb_per_s: size ? size / (s.median / 1e9) / 1e6 : null };
  if (op.det && out) r.output_fnv1a = fnv1a(out instanceof ArrayBuffer ? out : out.buffer ?? out);
  return r;
}

function fmtTime(ns) {
  if (ns < 1e3) return `${ns.toFixed(1)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} us`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}
function fmtSize(b) {
  if (!b) return '-';
  const u = ['B', 'KiB', 'MiB', 'GiB']; let i = 0;
  while (b >= 1024 && i < 3) { b /= 1024; i++; }
  return Number.isInteger(b) ? `${b} ${u[i]}` : `${b.toFixed(b < 10 ? 2 : 1)} ${u[i]}`;
}
function fmtRate(v) {
  if (!(v > 0)) return '-';
  if (v >= 1e7) return `${(v / 1e6).toPrecision(3)}M`;
  if (v >= 1e4) return `${(v / 1e3).toFixed(1)}k`;
  return v.toFixed(1);
}

const maxSize = Math.max(...cfg.sizes);
const data = stream(DATA_SEED, maxSize);
const results = [];
let interrupted = false;
process.on('SIGINT', () => { interrupted = true; });
const cells = [];
for (const op of ops) {
  if (!selected(op.name)) continue;
  for (const size of op.sized ? cfg.sizes : [0]) if (!op.max || size <= op.max) cells.push([op, size]);
}
if (!cells.length) { console.error('node_bench: no operation selected'); process.exit(2); }
let k = 0;
for (const [op, size] of cells) {
  if (interrupted) break;
  k++;
  if (!cfg.quiet) process.stderr.write(`[${k}/${cells.length}] ${op.name} ${fmtSize(size)} node\n`);
  try {
    results.push(await measure(op, size, data.subarray(0, size || 16)));
  } catch (e) {
    results.push({ op: op.name, size, backend: 'node', ok: false, error: String(e) });
  }
}

console.log(`node_bench (Node.js ${process.version}, OpenSSL ${process.versions.openssl})  ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`);
console.log(`cpu:      ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} cores`);
console.log(`method:   warm-up >= ${cfg.warmupMs} ms and >= ${cfg.warmupCalls} calls; ${cfg.iterations} samples (>= ${Math.min(cfg.minSamples, cfg.iterations)} when scaled to ${cfg.maxCellMs} ms per cell); samples >= ${cfg.sampleNs / 1e3} us (batched, each call awaited); PBKDF2 ${cfg.pbkdf2Iterations} iterations`);
console.log('');
const pad = (s, n, left) => (left ? String(s).padEnd(n) : String(s).padStart(n));
const OW = Math.max(26, ...results.map(r => r.op.length));
console.log([pad('operation', OW, 1), pad('size', 9), pad('backend', 12, 1), pad('samples', 12), ...['min', 'median', 'mean', 'p99', 'max'].map(h => pad(h, 10)), pad('sd%', 6), pad('ops/s', 9), pad('MB/s', 9)].join(' '));
for (const r of results) {
  if (!r.ok) { console.log(`${pad(r.op, OW, 1)} ${pad(fmtSize(r.size), 9)} ${pad('node', 12, 1)} FAILED: ${r.error}`); continue; }
  console.log([pad(r.op, OW, 1), pad(fmtSize(r.size), 9), pad('node', 12, 1), pad(`${r.samples}x${r.batch}`, 12),
    ...[r.min_ns, r.median_ns, r.mean_ns, r.p99_ns, r.max_ns].map(v => pad(fmtTime(v), 10)),
    pad((100 * r.stddev_ns / r.mean_ns).toFixed(1), 6), pad(fmtRate(r.ops_per_s), 9), pad(r.size ? r.mb_per_s.toFixed(1) : '-', 9)].join(' '));
}
if (interrupted) console.log('*** INTERRUPTED: partial results ***');

if (cfg.compare) {
  const c = JSON.parse(readFileSync(cfg.compare, 'utf8'));
  console.log(`\nnode median / C median (from ${cfg.compare}; > 1: node is slower)`);
  for (const r of results) {
    if (!r.ok) continue;
    const parts = [];
    for (const cr of c.results.filter(x => x.ok && x.op === r.op && x.size === r.size)) {
      const same = r.output_fnv1a && cr.output_fnv1a ? (r.output_fnv1a === cr.output_fnv1a ? ' same output' : ' DIFFERENT OUTPUT') : '';
      parts.push(`${cr.backend} ${(r.median_ns / cr.median_ns).toFixed(2)}x${same}`);
    }
    if (parts.length) console.log(`  ${pad(r.op, OW, 1)} ${pad(fmtSize(r.size), 9)}  ${parts.join(', ')}`);
  }
}
if (cfg.json) {
  writeFileSync(cfg.json, JSON.stringify({ tool: 'node_bench', node: process.version, openssl: process.versions.openssl,
    date: new Date().toISOString(), interrupted, machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length },
    config: { iterations: cfg.iterations, min_samples: cfg.minSamples, warmup_ms: cfg.warmupMs, warmup_calls: cfg.warmupCalls,
      max_cell_ms: cfg.maxCellMs, sample_ns: cfg.sampleNs, pbkdf2_iterations: cfg.pbkdf2Iterations, sizes: cfg.sizes },
    results }, null, 1) + '\n');
}
process.exitCode = interrupted ? 130 : results.every(r => r.ok) ? 0 : 1;
