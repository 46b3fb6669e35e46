'use strict';
// bench.js - the binding against Node's own crypto.subtle, in operations per
// second, on the same machine and in the same process.
//
//   node bindings/node/bench.js [--time SECONDS] [--backend NAME] [--json] [--only OP]
//                               [--sizes BYTES,...] [--modes serial,64] [--reps N]
//
// Operations: digest SHA-256, HMAC-SHA-256 sign, AES-256-GCM encrypt and
// decrypt, ECDSA P-256 sign (SHA-256); data of 64 B, 1 KiB and 1 MiB; two ways of calling:
// one await at a time ("serial") and 64 calls in flight ("64 in flight":
// 64 started, then each one that resolves replaced by a new one). Each cell
// runs for --time seconds (default 1) after a short warm-up; Node and the
// binding alternate per cell. --reps N runs each cell N times (N short runs
// of --time each, Node first in odd rounds and second in even ones) and
// gives the medians, and the lowest and highest of the N binding/Node
// ratios: on a shared machine, many short alternating runs are steadier than
// one long one. The addon: $WEBCRYPTO_NODE_ADDON, else the
// newest build/*/bindings/node/webcrypto.node. docs/BENCHMARKS.md has figures.

const nodeCrypto = require('crypto');
const os = require('os');
const lib = require('./index.js');

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const seconds = Number(opt('--time', 1));
const backend = opt('--backend', undefined);
const json = args.includes('--json');
const only = opt('--only', '');
const reps = Math.max(1, Number(opt('--reps', 1)));

const sides = {
  node: nodeCrypto.webcrypto.subtle,
  webcrypto: lib.withBackend(backend).crypto.subtle,
};
// --sizes 4096,65536: other sizes (bytes), e.g. to find the async threshold.
const SIZES = opt('--sizes', '') ? opt('--sizes').split(',').map((n) => [`${n} B`, Number(n)])
  : [['64 B', 64], ['1 KiB', 1024], ['1 MiB', 1024 * 1024]];
const MODES = opt('--modes', 'serial,64').split(',');

async function setup(subtle) {
  const raw = new Uint8Array(32).fill(3);
  const hmac = await subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const aes = await subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
  const ec = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  const aesDec = await subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  const iv = new Uint8Array(12);
  // decrypt's input: the ciphertext of the cell's data, made once per size
  const cts = new Map();
  const ct = (d) => cts.get(d);
  const prepare = async (d) => { cts.set(d, await subtle.encrypt({ name: 'AES-GCM', iv }, aesDec, d)); };
  return {
    prepare,
    'digest SHA-256': (d) => subtle.digest('SHA-256', d),
    'HMAC-SHA-256 sign': (d) => subtle.sign('HMAC', hmac, d),
    'AES-256-GCM encrypt': (d) => subtle.encrypt({ name: 'AES-GCM', iv }, aes, d),
    'AES-256-GCM decrypt': (d) => subtle.decrypt({ name: 'AES-GCM', iv }, aesDec, ct(d)),
    'ECDSA P-256 sign': (d) => subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, ec.privateKey, d),
  };
}

// Each run gives ops/s (wall clock) and the process's CPU time per operation
// (user + system, all threads: Node's pool included), which a loaded machine
// distorts much less than the wall clock.
const cpuNow = () => { const u = process.cpuUsage(); return u.user + u.system; };
async function serial(fn, data, ms) {
  let n = 0;
  const end = performance.now() + ms;
  const t0 = performance.now();
  const c0 = cpuNow();
  while (performance.now() < end) {
    for (let i = 0; i < 16; i++) await fn(data);
    n += 16;
  }
  return { ops: n / ((performance.now() - t0) / 1000), cpu: (cpuNow() - c0) / n };
}

function inFlight(fn, data, ms, width) {
  return new Promise((resolve, reject) => {
    let n = 0;
    let running = 0;
    let stop = false;
    const t0 = performance.now();
    const c0 = cpuNow();
    const end = t0 + ms;
    const next = () => {
      running++;
      fn(data).then(() => {
        running--;
        n++;
        if (!stop && (n & 15) === 0 && performance.now() >= end) stop = true;
        if (!stop) next();
        else if (running === 0) resolve({ ops: n / ((performance.now() - t0) / 1000), cpu: (cpuNow() - c0) / n });
      }, reject);
    };
    for (let i = 0; i < width; i++) next();
  });
}

async function main() {
  const ops = { node: await setup(sides.node), webcrypto: await setup(sides.webcrypto) };
  const rows = [];
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const median = (a) => { const b = [...a].sort((x, y) => x - y); const m = b.length >> 1; return b.length % 2 ? b[m] : (b[m - 1] + b[m]) / 2; };
  for (const op of Object.keys(ops.node)) {
    if (op === 'prepare' || (only && !op.includes(only))) continue;
    for (const [label, size] of SIZES) {
      const data = new Uint8Array(size).fill(1);
      for (const side of ['node', 'webcrypto']) await ops[side].prepare(data);
      for (const [mode, run] of [['serial', (f) => serial(f, data, seconds * 1000)],
        ['64 in flight', (f) => inFlight(f, data, seconds * 1000, 64)]].filter(([m]) => MODES.includes(m.split(' ')[0]))) {
        const runs = { node: [], webcrypto: [] };
        const ratios = [];
        for (const side of ['node', 'webcrypto']) {
          await (mode === 'serial' ? serial(ops[side][op], data, 100) : inFlight(ops[side][op], data, 100, 64));
        }
        for (let i = 0; i < reps; i++) {
          const r = {};
          for (const side of i % 2 ? ['webcrypto', 'node'] : ['node', 'webcrypto']) r[side] = await run(ops[side][op]);
          runs.node.push(r.node);
          runs.webcrypto.push(r.webcrypto);
          ratios.push(r.webcrypto.ops / r.node.ops);
        }
        const med = (side, k) => median(runs[side].map((x) => x[k]));
        const row = { op, size: label, mode, node: med('node', 'ops'), webcrypto: med('webcrypto', 'ops'),
          ratio: median(ratios), nodeCpuUs: med('node', 'cpu'), webcryptoCpuUs: med('webcrypto', 'cpu'),
          cpuRatio: median(runs.node.map((x, i) => x.cpu / runs.webcrypto[i].cpu)),
          ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios), reps };
        rows.push(row);
        if (!json) {
          const f = (x) => Math.round(x).toLocaleString('en');
          const us = (x) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : f(x));
          const range = reps > 1 ? ` (${row.ratioMin.toFixed(2)}-${row.ratioMax.toFixed(2)})` : '';
          console.log(`| ${op} | ${label} | ${mode} | ${f(row.node)} | ${f(row.webcrypto)} | ` +
            `${row.ratio.toFixed(reps > 1 ? 2 : 1)}x${range} | ${us(row.nodeCpuUs)} | ${us(row.webcryptoCpuUs)} | ${row.cpuRatio.toFixed(1)}x |`);
        }
      }
    }
  }
  const info = { node: process.version, backend: backend || 'openssl', cpus: os.cpus().length,
    cpu: os.cpus()[0] && os.cpus()[0].model, loadavg_before: load,
    loadavg_after: os.loadavg().map((x) => x.toFixed(2)).join(' '), date: new Date().toISOString(), seconds, reps };
  if (json) console.log(JSON.stringify({ info, rows }, null, 1));
  else console.log(`# ${JSON.stringify(info)}`);
}

if (!json) {
  console.log('| operation | size | calls | node ops/s | binding ops/s | binding / node | node CPU µs/op | binding CPU µs/op | node / binding CPU |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
}
main().catch((e) => { console.error(e); process.exitCode = 1; });
