#!/usr/bin/env node
'use strict';
// run.js - runs the Web Platform Tests' WebCryptoAPI suite (a checkout of
// web-platform-tests/wpt, given with --wpt-dir) against the binding's
// withBackend(B), or against Node's own webcrypto (--native, the control).
// bindings/node/README.md, "Web Platform Tests", says how and what it found.
//
//   run.js --wpt-dir DIR [--backend B | --native] [--filter REGEX] [--json OUT]
//          [--timeout-multiplier N] [--context main|vm] [--compare-native]
//
// Every test file of DIR/WebCryptoAPI that runs in a worker scope (*.any.js,
// and the worker-only *.worker.js) runs in a child process of its own (a crash
// or a hang loses that file only), with WPT's own resources/testharness.js
// from DIR: nothing of WPT is in this repository. The child's global is made
// to look like a dedicated worker's as wptserve's generated *.any.worker.js
// sees it (self, GLOBAL, location, importScripts, fetch of DIR's files,
// addEventListener for "error"/"unhandledrejection"), with crypto, CryptoKey,
// SubtleCrypto and Crypto from the binding (or from Node with --native).
//
// Exit: 0 when every file ran, each with at least one subtest and a harness
// status of OK (with --compare-native: OK or "not applicable", below), and,
// with --compare-native, every subtest that Node's own webcrypto passes also
// passes here or is "not applicable": notApplicable below); 1 otherwise; 2
// for bad arguments; 77 (a CTest skip) when no WPT checkout is given.
// idlharness.https.any.js runs like the others: the child's global is a
// dedicated worker's as idlharness.js tells (workerGlobal), and
// /resources/WebIDLParser.js and /interfaces/*.idl come from the checkout.

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { fork } = require('child_process');

const SUBTEST = ['PASS', 'FAIL', 'TIMEOUT', 'NOTRUN', 'PRECONDITION_FAILED'];
const HARNESS = ['OK', 'ERROR', 'TIMEOUT', 'PRECONDITION_FAILED'];
// WPT's timeouts (wptrunner): 10 s, and 60 s for "META: timeout=long".
const TIMEOUT_NORMAL = 10000;
const TIMEOUT_LONG = 60000;
// What a child may take beyond its own (soft) timeout before it is killed.
const HARD_EXTRA = 15000;

function usage(msg) {
  if (msg) process.stderr.write(`run.js: ${msg}\n`);
  process.stderr.write('usage: run.js --wpt-dir DIR [--backend B | --native] [--filter REGEX] [--json OUT]\n' +
    '              [--timeout-multiplier N] [--context main|vm] [--compare-native]\n' +
    '              [--native-cache DIR]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const o = { wptDir: process.env.WEBCRYPTO_WPT_DIR || '', backend: undefined, native: false,
    filter: null, json: null, mult: 1, context: 'main', compareNative: false, recordLack: false, nativeCache: null, child: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => { if (i + 1 >= argv.length) usage(`${a} needs a value`); return argv[++i]; };
    if (a === '--wpt-dir') o.wptDir = val();
    else if (a === '--backend') o.backend = val();
    else if (a === '--native') o.native = true;
    else if (a === '--filter') o.filter = new RegExp(val());
    else if (a === '--json') o.json = val();
    else if (a === '--timeout-multiplier') o.mult = Number(val());
    else if (a === '--context') o.context = val();
    else if (a === '--compare-native') o.compareNative = true;
    else if (a === '--record-lack') o.recordLack = true;
    else if (a === '--native-cache') o.nativeCache = val();
    else if (a === '--child') o.child = val();
    else if (a === '-h' || a === '--help') usage();
    else usage(`unknown argument ${a}`);
  }
  if (o.native && o.backend !== undefined) usage('--native and --backend exclude each other');
  if (!(o.mult > 0)) usage('--timeout-multiplier takes a positive number');
  if (o.context !== 'main' && o.context !== 'vm') usage('--context is main or vm');
  return o;
}

// ---- META lines (WPT's tools/manifest/sourcefile.py reads the same) ----------

function readMeta(src) {
  const meta = { scripts: [], timeout: 'normal', globals: null, title: null, variants: [] };
  for (const line of src.split('\n')) {
    const m = /^\/\/\s*META:\s*(\w+)=(.*)$/.exec(line);
    if (!m) {
      if (/^\s*(\/\/.*)?$/.test(line)) continue; // META lines head the file, among comments
      break;
    }
    const [, key, value] = m;
    if (key === 'script') meta.scripts.push(value.trim());
    else if (key === 'timeout') meta.timeout = value.trim();
    else if (key === 'global') meta.globals = value.split(',').map((s) => s.trim());
    else if (key === 'title') meta.title = value.trim();
    else if (key === 'variant') meta.variants.push(value.trim());
  }
  return meta;
}

// Does a "META: global=" list include a dedicated worker? (WPT: the default,
// and "worker", "dedicatedworker", "dedicatedworker-module"; "window",
// "sharedworker", "serviceworker", "shadowrealm" name other scopes.)
function inWorkerScope(globals) {
  if (!globals) return true;
  return globals.some((g) => /^(worker|dedicatedworker)(-module)?$/.test(g) || g === 'default');
}

// ---- the parent: find, run, report --------------------------------------------

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) walk(f, out);
    else out.push(f);
  }
  return out;
}

// The IDL files an idlharness test fetches: idl_test(srcs, deps, ...)
function idlNeeds(src) {
  const need = [];
  const re = /idl_test\(\s*\[([^\]]*)\]\s*,\s*\[([^\]]*)\]/g;
  let m;
  while ((m = re.exec(src)) !== null) {
    for (const part of [m[1], m[2]]) {
      for (const s of part.matchAll(/['"]([^'"]+)['"]/g)) need.push(s[1]);
    }
  }
  // ... or fetch('/interfaces/X.idl') itself.
  for (const f of src.matchAll(/fetch\(\s*['"]\/interfaces\/([^'"]+)\.idl['"]/g)) need.push(f[1]);
  return [...new Set(need)];
}

function classify(wptDir) {
  const root = path.join(wptDir, 'WebCryptoAPI');
  const run = [];
  const skipped = [];
  for (const f of walk(root, [])) {
    const rel = path.relative(wptDir, f).split(path.sep).join('/');
    const base = path.basename(f);
    if (base.endsWith('.html') || base.endsWith('.htm')) {
      skipped.push({ file: rel, reason: 'an HTML page: needs a browser document' });
    } else if (base.endsWith('.window.js')) {
      skipped.push({ file: rel, reason: 'window scope only (*.window.js): needs a browser document' });
    } else if (base.endsWith('.any.js')) {
      const src = fs.readFileSync(f, 'utf8');
      const meta = readMeta(src);
      if (!inWorkerScope(meta.globals)) {
        skipped.push({ file: rel, reason: `META: global=${meta.globals.join(',')} has no worker scope` });
        continue;
      }
      if (meta.scripts.some((s) => /idlharness\.js$/.test(s))) {
        const missing = idlNeeds(src).filter((n) => !fs.existsSync(path.join(wptDir, 'interfaces', `${n}.idl`)));
        if (missing.length) {
          skipped.push({ file: rel, reason: `idlharness: ${missing.map((n) => `interfaces/${n}.idl`).join(', ')} not in the WPT checkout` });
          continue;
        }
      }
      // "META: variant=?1-1000": wptserve makes a test of each variant.
      for (const v of meta.variants.length ? meta.variants : ['']) run.push({ file: rel, variant: v, kind: 'any', meta });
    } else if (base.endsWith('.worker.js')) {
      const src = fs.readFileSync(f, 'utf8');
      if (!/importScripts\(\s*["'][^"']*testharness\.js["']/.test(src)) continue; // a helper, not a test
      run.push({ file: rel, variant: '', kind: 'worker', meta: readMeta(src) });
    }
    // Other *.js files are the tests' helpers and vectors.
  }
  return { run, skipped };
}

function runFile(o, entry, mode) {
  const soft = Math.round((entry.meta.timeout === 'long' ? TIMEOUT_LONG : TIMEOUT_NORMAL) * o.mult);
  return new Promise((resolve) => {
    const args = ['--child', entry.file + entry.variant, '--wpt-dir', o.wptDir, '--context', o.context];
    if (mode.native) args.push('--native');
    else if (mode.backend !== undefined) args.push('--backend', mode.backend);
    if (!mode.native && o.compareNative) args.push('--record-lack');
    const child = fork(__filename, args, {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, WEBCRYPTO_WPT_SOFT_TIMEOUT: String(soft) },
    });
    const subtests = [];
    const started = [];
    const lacks = [];
    let harness = null;
    let stderr = '';
    const t0 = Date.now();
    child.stdout.on('data', (d) => { stderr += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('message', (m) => {
      if (m.type === 'started') started.push(m.name);
      else if (m.type === 'result') subtests.push({ name: m.name, status: m.status, message: m.message });
      else if (m.type === 'done') harness = { status: m.status, message: m.message };
      else if (m.type === 'lack') lacks.push(m.message);
    });
    let killed = false;
    const timer = setTimeout(() => { killed = true; child.kill('SIGKILL'); }, soft + HARD_EXTRA);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!harness) {
        const tail = stderr.trim().split('\n').slice(-5).join(' | ');
        harness = killed
          ? { status: 'TIMEOUT', message: `killed after ${soft + HARD_EXTRA} ms (the harness did not finish)` }
          : { status: 'CRASH', message: `the child exited (${signal || `code ${code}`}) before the harness finished: ${tail}` };
        // The subtests it had begun and not finished.
        const done = new Set(subtests.map((t) => t.name));
        for (const name of started) {
          if (done.has(name)) continue;
          done.add(name);
          subtests.push(killed ? { name, status: 'TIMEOUT', message: 'the file was killed at its timeout' }
                               : { name, status: 'NOTRUN', message: 'the child crashed before this subtest finished' });
        }
      }
      resolve({ file: entry.file + entry.variant, harness, subtests, lacks, ms: Date.now() - t0 });
    });
  });
}

function count(r) {
  const c = { total: r.subtests.length, pass: 0, fail: 0, timeout: 0, notrun: 0, precondition: 0 };
  for (const s of r.subtests) {
    if (s.status === 'PASS') c.pass++;
    else if (s.status === 'FAIL') c.fail++;
    else if (s.status === 'TIMEOUT') c.timeout++;
    else if (s.status === 'NOTRUN') c.notrun++;
    else c.precondition++;
  }
  return c;
}

async function runAll(o, mode, list) {
  const results = [];
  for (const entry of list) {
    const r = await runFile(o, entry, mode);
    r.counts = count(r);
    results.push(r);
  }
  return results;
}

// --compare-native's control, Node's own run of the same files, is the same
// for every backend: with --native-cache DIR it is computed once per Node,
// checkout, selection and options (and this file's text), kept in DIR, and
// read by the other runs. One run computes it, under DIR/<key>.lock (its
// pid); the others wait for it, and take over from a holder that died.
function controlKey(o, list) {
  const h = require('crypto').createHash('sha256');
  h.update(JSON.stringify([process.version, path.resolve(o.wptDir), o.context, o.mult,
    list.map((e) => `${e.file}${e.variant}`)]));
  h.update(fs.readFileSync(__filename));
  const versions = path.join(o.wptDir, 'versions.json');
  if (fs.existsSync(versions)) h.update(fs.readFileSync(versions));
  return h.digest('hex').slice(0, 20);
}

function alive(pid) {
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}

async function nativeControl(o, list) {
  if (!o.nativeCache) return runAll(o, { native: true }, list);
  fs.mkdirSync(o.nativeCache, { recursive: true });
  const file = path.join(o.nativeCache, `native-${process.version}-${controlKey(o, list)}.json`);
  const lock = `${file}.lock`;
  for (let waited = false; ;) {
    if (fs.existsSync(file)) {
      console.log(`# Node's own results (the control) from ${file}`);
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    }
    let fd;
    try {
      fd = fs.openSync(lock, 'wx');
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(lock, 'utf8')) || 0;
      if (pid && !alive(pid)) { fs.rmSync(lock, { force: true }); continue; }
      if (!waited) console.log(`# waiting for Node's own results, which process ${pid} is computing`);
      waited = true;
      await new Promise((r) => setTimeout(r, 2000));
      continue;
    }
    try {
      fs.writeSync(fd, String(process.pid));
      const control = await runAll(o, { native: true }, list);
      const tmp = `${file}.${process.pid}`;
      fs.writeFileSync(tmp, JSON.stringify(control));
      fs.renameSync(tmp, file);
      return control;
    } finally {
      fs.closeSync(fd);
      fs.rmSync(lock, { force: true });
    }
  }
}

function oneLine(m) {
  const s = String(m).replace(/\s+/g, ' ').trim();
  return s.length > 300 ? `${s.slice(0, 300)}...` : s;
}

// --compare-native on a backend that lacks an algorithm (README, "Web
// Platform Tests"): a subtest Node passes and the binding fails is "not
// applicable" - not a failure - when both hold:
//  - it is about an algorithm A that this backend does not offer (the
//    library's table and the backend's support, asked of the binding): A's
//    name is in the subtest's name or its file's name;
//  - its failure is the NotSupportedError that lack produces: its message
//    names NotSupportedError, or (a cascade: the key a subtest needs was never
//    made) the library's "the <B> backend does not support A" was raised in
//    the same file: in a subtest's message, or by a call of the binding's
//    SubtleCrypto that the test caught and dropped (--record-lack: the child
//    reports every such NotSupportedError it sees rejected). A subtest absent
//    from the binding's run (the test defines some only for the keys it could
//    make) has no message: that evidence alone counts for it.
// Anything else the binding fails and Node passes stays a failure.
function lackedAlgorithms(backend) {
  const binding = require(path.join(__dirname, '..', '..', 'index.js'));
  return binding.algorithms().map((a) => a.name).filter((n) => !binding.supports(backend, n));
}

function nameRe(alg) {
  return new RegExp(`(?<![A-Za-z0-9-])${alg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9-])`, 'i');
}

function notApplicable(lacked, file, subtestName, message, fileMessages) {
  const base = path.basename(file);
  for (const alg of lacked) {
    const re = nameRe(alg);
    if (!re.test(base) && !re.test(subtestName)) continue;
    const lack = new RegExp(`does not support ${re.source}`, 'i');
    if (/NotSupportedError/.test(message) || fileMessages.some((m) => lack.test(m))) return alg;
  }
  return null;
}

function label(mode) {
  return mode.native ? 'node-native' : `binding:${mode.backend === undefined ? 'default' : mode.backend}`;
}

async function parent(o) {
  if (!o.wptDir) {
    console.log('skipped: WPT checkout not given: set WEBCRYPTO_WPT_DIR (or pass --wpt-dir)');
    process.exit(77);
  }
  if (!fs.existsSync(path.join(o.wptDir, 'WebCryptoAPI')) ||
      !fs.existsSync(path.join(o.wptDir, 'resources', 'testharness.js'))) {
    console.log(`FAIL - ${o.wptDir} is not a WPT checkout (no WebCryptoAPI/ or resources/testharness.js)`);
    process.exit(1);
  }
  const { run, skipped } = classify(o.wptDir);
  const list = o.filter ? run.filter((e) => o.filter.test(e.file + e.variant)) : run;
  const mode = { native: o.native, backend: o.backend };
  const nFiles = new Set(run.map((e) => e.file)).size;
  console.log(`# WPT ${o.wptDir}: ${nFiles} test files in a worker scope (${run.length} with their variants), ${list.length} selected; ` +
              `on ${label(mode)}; node ${process.version}; context ${o.context}`);
  const bySkip = new Map();
  for (const s of skipped) bySkip.set(s.reason, (bySkip.get(s.reason) || 0) + 1);
  for (const [reason, n] of bySkip) console.log(`# not run: ${n} file(s): ${reason}`);
  for (const s of skipped.filter((x) => x.reason.startsWith('idlharness'))) console.log(`#   ${s.file}`);

  const results = await runAll(o, mode, list);
  let control = null;
  if (o.compareNative && !o.native) control = await nativeControl(o, list);

  const tot = { files: results.length, total: 0, pass: 0, fail: 0, timeout: 0, notrun: 0, precondition: 0, harnessNotOk: 0 };
  const regressions = [];
  const lacked = control ? lackedAlgorithms(o.backend) : [];
  const notApplicableBy = new Map(); // algorithm -> { subtests, files }
  let naRan = 0; // of those, the ones the binding's run has (not missing)
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    const c = r.counts;
    for (const k of ['total', 'pass', 'fail', 'timeout', 'notrun', 'precondition']) tot[k] += c[k];
    if (r.harness.status !== 'OK') tot.harnessNotOk++;
    let line = `${r.file}: ${c.pass}/${c.total} passed, ${c.fail} failed, ${c.timeout} timed out` +
               `${c.notrun ? `, ${c.notrun} not run` : ''}${c.precondition ? `, ${c.precondition} precondition failed` : ''}` +
               `; harness ${r.harness.status}${r.harness.message ? ` (${r.harness.message})` : ''} [${r.ms} ms]`;
    if (control) {
      const ctl = control[i];
      const ours = new Map(r.subtests.map((s) => [s.name, s]));
      const lost = ctl.subtests.filter((s) => s.status === 'PASS' && (!ours.has(s.name) || ours.get(s.name).status !== 'PASS'));
      line += `; node-native ${ctl.counts.pass}/${ctl.counts.total}`;
      // A harness status other than OK is lost whatever Node's was (Node
      // failing a file too excuses nothing): only the backend's lack of an
      // algorithm can make it not applicable.
      if (r.harness.status !== 'OK') lost.push({ name: '(harness status)', status: r.harness.status });
      const fileMessages = [...r.subtests.map((t) => t.message || ''), r.harness.message || '', ...r.lacks];
      let na = 0;
      for (const s of lost) {
        const mine = ours.get(s.name);
        const g = { file: r.file, name: s.name, status: mine ? mine.status : 'MISSING',
          message: mine ? mine.message : (s.name === '(harness status)' ? r.harness.message : 'no such subtest here') };
        // A subtest missing here (the test defines some only for the keys it
        // could make) has no message: the cascade's evidence alone counts.
        const alg = notApplicable(lacked, r.file, s.name === '(harness status)' ? '' : s.name,
          mine || s.name === '(harness status)' ? g.message : '', fileMessages);
        if (alg) {
          const e = notApplicableBy.get(alg) || { subtests: 0, files: new Set() };
          e.subtests++;
          e.files.add(r.file);
          notApplicableBy.set(alg, e);
          na++;
          if (mine) naRan++;
        } else {
          regressions.push(g);
        }
      }
      if (na) line += `; ${na} not applicable (the backend lacks the algorithm)`;
    }
    console.log(line);
    for (const s of r.subtests) {
      if (s.status !== 'PASS') console.log(`  ${s.status} ${s.name}${s.message ? `: ${oneLine(s.message)}` : ''}`);
    }
  }
  console.log(`# totals on ${label(mode)}: ${tot.files} files, ${tot.pass}/${tot.total} subtests passed, ` +
              `${tot.fail} failed, ${tot.timeout} timed out, ${tot.notrun} not run, ${tot.precondition} precondition failed; ` +
              `${tot.harnessNotOk} file(s) whose harness status is not OK; ${skipped.length} file(s) not run`);
  let nNotApplicable = 0;
  if (control) {
    if (lacked.length) console.log(`# ${label(mode)} lacks: ${lacked.join(', ')}`);
    for (const [alg, e] of notApplicableBy) {
      nNotApplicable += e.subtests;
      console.log(`# not applicable: ${o.backend} lacks ${alg}: ${e.subtests} subtest(s) Node passes, failing ` +
                  `(or missing) with its NotSupportedError, in ${e.files.size} file(s): ${[...e.files].map((f) => path.basename(f)).join(', ')}`);
    }
    console.log(`# subtests Node's own webcrypto passes and ${label(mode)} does not` +
                `${nNotApplicable ? `, beyond those ${nNotApplicable} not applicable` : ''}: ${regressions.length}`);
    for (const g of regressions) console.log(`  ${g.file}: ${g.name}: ${g.status}${g.message ? `: ${oneLine(g.message)}` : ''}`);
  }
  if (o.json) {
    const out = { wptDir: path.resolve(o.wptDir), on: label(mode), node: process.version, context: o.context,
      date: new Date().toISOString(), totals: tot, skipped, files: results,
      control: control ? { on: 'node-native', files: control } : undefined,
      regressions: control ? regressions : undefined,
      notApplicable: control ? Object.fromEntries([...notApplicableBy].map(([a, e]) =>
        [a, { subtests: e.subtests, files: [...e.files] }])) : undefined };
    fs.writeFileSync(o.json, JSON.stringify(out, null, 1));
    console.log(`# JSON: ${o.json}`);
  }
  // The closing line CTest's log readers know: subtests, not files.
  const failed = control ? regressions.length : tot.total - tot.pass;
  if (nNotApplicable) console.log(`${nNotApplicable} not applicable (${[...notApplicableBy.keys()].join(', ')} lacking)`);
  const ranAndLost = regressions.filter((g) => g.status !== 'MISSING' && g.name !== '(harness status)').length;
  console.log(`${control ? tot.total - ranAndLost - naRan : tot.pass} passed, ${failed} failed`);
  const crashed = results.some((r) => r.harness.status === 'CRASH' ||
                                        (r.harness.status === 'TIMEOUT' && /killed/.test(r.harness.message)));
  // A file that ran no subtest hides what it tests (a setup that threw before
  // defining any): it fails the run, as does (without --compare-native, which
  // counts it above) a harness status other than OK.
  const empty = results.filter((r) => r.subtests.length === 0);
  for (const r of empty) console.log(`FAIL ${r.file}: no subtests (harness ${r.harness.status})`);
  const notOk = control ? [] : results.filter((r) => r.harness.status !== 'OK');
  for (const r of notOk) console.log(`FAIL ${r.file}: harness ${r.harness.status}`);
  process.exit(crashed || empty.length || notOk.length || (control && regressions.length) ? 1 : 0);
}

// ---- the child: one test file ---------------------------------------------------

// --record-lack: the methods of the subtle object's prototype (its
// backend's own: lib/subtle.js), each replaced by one calling the original
// and reporting to the parent the message of each NotSupportedError "...
// does not support ..." it rejects with, once (the evidence of a cascade,
// for notApplicable). The replacements keep the originals' names, lengths
// and property attributes (idlharness checks them); the promise the caller
// gets is settled as the original, a tick later.
function recordLack(subtle, send) {
  const seen = new Set();
  const proto = Object.getPrototypeOf(subtle);
  for (const k of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, k);
    if (k === 'constructor' || typeof d.value !== 'function') continue;
    const orig = d.value;
    const wrapped = {
      [k](...args) {
        const p = Reflect.apply(orig, this, args);
        if (!(p instanceof Promise)) return p;
        return p.catch((e) => {
          const m = e && e.name === 'NotSupportedError' ? String(e.message) : '';
          if (/does not support/.test(m) && !seen.has(m)) {
            seen.add(m);
            send({ type: 'lack', message: m });
          }
          throw e;
        });
      },
    }[k];
    Object.defineProperty(wrapped, 'length', { value: orig.length });
    Object.defineProperty(proto, k, { ...d, value: wrapped });
  }
}

function child(o) {
  const wptDir = path.resolve(o.wptDir);
  const q = o.child.indexOf('?');
  const file = q < 0 ? o.child : o.child.slice(0, q);
  const variant = q < 0 ? '' : o.child.slice(q);
  const secure = /\.https\./.test(file) || /\.https\//.test(file);
  const location = new URL(`${secure ? 'https' : 'http'}://web-platform.test:${secure ? 8443 : 8000}/${file}${variant}`);

  const send = (m) => new Promise((res) => process.send(m, () => res()));
  const toPath = (url) => {
    const u = new URL(url, location);
    if (u.origin !== location.origin) return null;
    // wptserve serves /resources/WebIDLParser.js from the checkout's
    // resources/webidl2/lib/webidl2.js (WPT's tools/serve/serve.py; the file
    // itself is a placeholder that throws, or absent from Node's copy).
    if (u.pathname === '/resources/WebIDLParser.js') return path.join(wptDir, 'resources', 'webidl2', 'lib', 'webidl2.js');
    return path.join(wptDir, decodeURIComponent(u.pathname));
  };

  // What the test's global gets: crypto from the binding, or Node's own.
  let api;
  if (o.native) {
    const wc = require('crypto').webcrypto;
    api = { crypto: wc, CryptoKey: globalThis.CryptoKey || wc.CryptoKey, SubtleCrypto: wc.subtle.constructor,
      Crypto: wc.constructor };
  } else {
    const binding = require(path.join(__dirname, '..', '..', 'index.js'));
    api = o.backend === undefined ? binding : binding.withBackend(o.backend);
    if (o.recordLack) recordLack(api.crypto.subtle, send);
  }

  // addEventListener("error" | "unhandledrejection"), which testharness.js
  // uses, fed from the process's uncaught exceptions and rejections.
  const listeners = { error: [], unhandledrejection: [] };
  const events = {
    addEventListener(type, fn) { if (listeners[type]) listeners[type].push(fn); },
    removeEventListener(type, fn) {
      if (listeners[type]) listeners[type] = listeners[type].filter((f) => f !== fn);
    },
  };
  process.on('uncaughtException', (error) => {
    if (!listeners.error.length) throw error;
    for (const fn of listeners.error) {
      fn({ type: 'error', message: error && error.message !== undefined ? String(error.message) : String(error),
        error, filename: '', lineno: 0, colno: 0 });
    }
  });
  process.on('unhandledRejection', (reason) => {
    for (const fn of listeners.unhandledrejection) fn({ type: 'unhandledrejection', reason });
  });

  let runScript;
  let G;
  const base = {
    crypto: api.crypto, CryptoKey: api.CryptoKey, SubtleCrypto: api.SubtleCrypto, Crypto: api.Crypto,
    // Web IDL's QuotaExceededError, where the host or the binding has one.
    ...(api.QuotaExceededError || globalThis.QuotaExceededError
      ? { QuotaExceededError: api.QuotaExceededError || globalThis.QuotaExceededError } : {}),
    GLOBAL: { isWindow: () => false, isWorker: () => true, isShadowRealm: () => false },
    location, isSecureContext: secure,
    addEventListener: events.addEventListener, removeEventListener: events.removeEventListener,
    importScripts: (...urls) => {
      for (const url of urls) {
        const p = toPath(url);
        if (!p || !fs.existsSync(p)) throw new Error(`importScripts: ${url} is not in the WPT checkout`);
        runScript(fs.readFileSync(p, 'utf8'), p);
      }
    },
    // fetch of the checkout's own files (idlharness reads /interfaces/*.idl).
    fetch: async (url) => {
      const p = toPath(String(url));
      if (!p || !fs.existsSync(p)) return new Response('not found', { status: 404 });
      return new Response(fs.readFileSync(p), { status: 200 });
    },
  };
  if (o.context === 'vm') {
    // A fresh vm context: its own intrinsics (Object, ArrayBuffer, TypeError,
    // Promise), while the binding's (and Node's) results come from the main
    // realm - see README, "Web Platform Tests".
    const sandbox = { ...base };
    for (const k of ['DOMException', 'TextEncoder', 'TextDecoder', 'structuredClone', 'atob', 'btoa', 'setTimeout',
      'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'console', 'URL', 'Response',
      'Blob', 'ReadableStream']) {
      if (globalThis[k] !== undefined) sandbox[k] = globalThis[k];
    }
    const ctx = vm.createContext(sandbox);
    G = vm.runInContext('globalThis', ctx);
    G.self = G;
    runScript = (src, filename) => vm.runInContext(src, ctx, { filename });
  } else {
    // This child process's own main realm, fresh for each file.
    G = globalThis;
    for (const [k, v] of Object.entries(base)) {
      Object.defineProperty(G, k, { value: v, writable: true, configurable: true, enumerable: false });
    }
    G.self = G;
    runScript = (src, filename) => vm.runInThisContext(src, { filename });
  }

  // As wptserve's *.any.worker.js wrapper: the harness, the META scripts, the
  // test, done().
  const testPath = path.join(wptDir, file);
  const src = fs.readFileSync(testPath, 'utf8');
  const meta = readMeta(src);
  const reported = new Set();
  const run = () => {
    if (file.endsWith('.any.js')) {
      G.importScripts('/resources/testharness.js');
    } else {
      // A *.worker.js test imports the harness itself; hook its callbacks
      // as soon as it is there.
      const imp = G.importScripts;
      G.importScripts = (...urls) => { imp(...urls); hook(); };
    }
    hook();
    if (file.endsWith('.any.js')) {
      for (const s of meta.scripts) G.importScripts(s);
    }
    runScript(src, testPath);
    if (file.endsWith('.any.js')) G.done();
  };
  // The global is a dedicated worker's as idlharness.js tells scopes apart
  // (`self instanceof DedicatedWorkerGlobalScope`; its exposed_in() throws
  // "Unexpected global object" otherwise): the interface objects of a
  // worker's global, constructors that throw as Web IDL's do, and the global
  // an instance of the last. Made once testharness.js has loaded: it picks
  // its environment by the same test, and its dedicated-worker one reports
  // by postMessage to a page that is not here (its shell one is what the
  // hooks below read).
  // Made in the test's realm (its Object, TypeError and functions: the vm
  // context's with --context vm).
  const WORKER_GLOBAL = `(function workerGlobal(G) {
    'use strict';
    const iface = (name, parent) => {
      const f = { [name]: function () { throw new TypeError('Illegal constructor'); } }[name];
      Object.defineProperty(f, 'prototype', { value: Object.create(parent.prototype), writable: false });
      Object.defineProperty(f.prototype, 'constructor', { value: f, writable: true, configurable: true });
      Object.defineProperty(f.prototype, Symbol.toStringTag, { value: name, configurable: true });
      Object.defineProperty(G, name, { value: f, writable: true, configurable: true, enumerable: false });
      return f;
    };
    const ET = G.EventTarget || iface('EventTarget', Object);
    const WGS = iface('WorkerGlobalScope', ET);
    const DWGS = iface('DedicatedWorkerGlobalScope', WGS);
    // WindowOrWorkerGlobalScope's crypto: an accessor on the prototype, as
    // in a worker ([SameObject]: the one object).
    const c = G.crypto;
    const { get } = Object.getOwnPropertyDescriptor({
      get crypto() {
        if (this !== G) throw new TypeError('Illegal invocation');
        return c;
      },
    }, 'crypto');
    Object.defineProperty(WGS.prototype, 'crypto', { get, enumerable: true, configurable: true });
    delete G.crypto;
    Object.setPrototypeOf(G, DWGS.prototype);
  })`;
  const workerGlobal = () => runScript(WORKER_GLOBAL, 'run.js (worker global)')(G);

  let hooked = false;
  const pending = [];
  function hook() {
    if (hooked || typeof G.add_result_callback !== 'function') return;
    hooked = true;
    workerGlobal();
    // Each subtest as it is made, so that a crash or a kill still names it.
    const seen = new Set();
    G.add_test_state_callback((t) => {
      if (seen.has(t)) return;
      seen.add(t);
      pending.push(send({ type: 'started', name: t.name }));
    });
    G.add_result_callback((t) => {
      reported.add(t);
      pending.push(send({ type: 'result', name: t.name, status: SUBTEST[t.status] || String(t.status),
        message: t.message === null || t.message === undefined ? '' : String(t.message) }));
    });
    G.add_completion_callback((tests, status) => {
      for (const t of tests) {
        if (!reported.has(t)) {
          pending.push(send({ type: 'result', name: t.name, status: SUBTEST[t.status] || String(t.status),
            message: t.message === null || t.message === undefined ? '' : String(t.message) }));
        }
      }
      Promise.all(pending)
        .then(() => send({ type: 'done', status: HARNESS[status.status] || String(status.status),
          message: status.message === null || status.message === undefined ? '' : String(status.message) }))
        .then(() => process.exit(0));
    });
  }
  // The file's own timeout: the harness marks what has not finished TIMEOUT.
  const soft = Number(process.env.WEBCRYPTO_WPT_SOFT_TIMEOUT) || TIMEOUT_NORMAL;
  setTimeout(() => { if (typeof G.timeout === 'function') G.timeout(); }, soft);
  try {
    run();
  } catch (e) {
    // A script that throws while loading: the harness's error handler sees
    // it, as a worker's "error" event would.
    if (listeners.error.length) {
      for (const fn of listeners.error) fn({ type: 'error', message: String(e && e.message), error: e });
    } else {
      send({ type: 'done', status: 'ERROR', message: `loading: ${e && e.stack ? e.stack : e}` }).then(() => process.exit(0));
    }
  }
}

const opts = parseArgs(process.argv.slice(2));
if (opts.child !== null) child(opts);
else parent(opts).catch((e) => { console.error(e && e.stack ? e.stack : e); process.exit(1); });
