'use strict';
// hostile.js - the binding against inputs and scripts that attack it
// (issue #25): every typed-array kind and buffer kind the running Node has,
// compared with Node's own crypto.subtle and with Web IDL; a script that
// replaces globals and prototype methods after the binding loaded; the
// addon's handles passed where another kind is expected; a key's bytes left
// in the process's memory after the key is dropped.
//
//   node --expose-gc hostile.js [BACKEND]     (the addon: $WEBCRYPTO_NODE_ADDON)
//
// Each scenario runs in a child process of its own (its tampering stays
// there; a crash is seen as a signal): the child prints "ok ...", "FAIL ..."
// and "SKIP ..." lines (a SKIP says what this Node lacks) and the parent
// fails on any FAIL, a crash or a child that ends without its "done" line.
// Where Node's own answer departs from Web IDL and the binding follows it,
// the difference is listed in known_differences.js (ids "hostile-...").

const { spawnSync } = require('child_process');
const path = require('path');

const backend = process.argv[2] || 'openssl';
const scenario = process.env.WEBCRYPTO_HOSTILE_SCENARIO;
const SCENARIOS = ['views', 'iterator', 'addon-tags', 'uint8array', 'intrinsics', 'residue'];


function parent() {
  let failed = 0;
  let oks = 0;
  for (const s of SCENARIOS) {
    const r = spawnSync(process.execPath, ['--expose-gc', __filename, backend], {
      env: { ...process.env, WEBCRYPTO_HOSTILE_SCENARIO: s }, encoding: 'utf8', timeout: 240000,
      maxBuffer: 64 << 20,
    });
    const out = r.stdout || '';
    const lines = out.split('\n').filter((l) => l);
    for (const l of lines) {
      if (/^(FAIL|SKIP|known|ok residue)/.test(l)) console.log(`${s}: ${l}`);
      if (/^FAIL/.test(l)) failed++;
      if (/^ok/.test(l)) oks++;
    }
    if (r.signal || r.status !== 0 || lines[lines.length - 1] !== 'done') {
      failed++;
      console.log(`FAIL ${s}: the child ended by ${r.signal ? `signal ${r.signal}` : `exit ${r.status}`}` +
        `${lines[lines.length - 1] !== 'done' ? ' before it was done' : ''}${r.error ? ` (${r.error.message})` : ''}`);
      if (r.stderr) console.log(r.stderr.split('\n').slice(0, 20).join('\n'));
    }
  }
  console.log(`hostile.js, node ${process.version}, backend ${backend}: ${oks} checks passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

// ---- helpers for the children --------------------------------------------------

const nodeWeb = require('crypto').webcrypto;
const hex = (b) => Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString('hex');
let lib;
const ok = (what) => console.log(`ok ${what}`);
const fail = (what) => console.log(`FAIL ${what}`);
const skip = (what) => console.log(`SKIP ${what}`);
const check = (cond, what) => (cond ? ok(what) : fail(what));
// An outcome: 'bytes:<hex>', 'bool:..', 'key', or the error's name.
async function outcome(f) {
  try {
    const v = await f();
    if (v instanceof ArrayBuffer) return `bytes:${hex(v)}`;
    if (typeof v === 'boolean') return `bool:${v}`;
    if (ArrayBuffer.isView(v)) return 'view';
    if (v && typeof v === 'object') return 'key';
    return `value:${v}`;
  } catch (e) {
    return `error:${e && e.name}`;
  }
}
const major = Number(process.versions.node.split('.')[0]);
function known(name) {
  const KNOWN = require('./known_differences.js');
  return KNOWN.find((k) => k.match.test(name) && (!k.nodes || k.nodes.includes(major)) &&
    (!k.backends || k.backends.some((b) => b === backend || (b === 'jca' && backend.startsWith('jca')))));
}
// A case run on Node's own and on the binding: the binding must give the
// spec's answer (`spec`: an outcome, a predicate on it, or null: Node's),
// and Node's must equal it unless known_differences.js lists the case.
async function compare(name, call, spec = null) {
  const native = await outcome(() => call(nodeWeb.subtle, nodeWeb));
  const mine = await outcome(() => call(lib.crypto.subtle, lib.crypto));
  const want = spec === null ? native : spec;
  const good = typeof want === 'function' ? want(mine) : mine === want;
  if (!good) return fail(`hostile: ${name}: the binding gave ${mine}, the spec's answer is ${typeof want === 'function' ? want : want}`);
  const nodeGood = typeof want === 'function' ? want(native) : native === want;
  if (nodeGood) return ok(`hostile: ${name}`);
  const k = known(`hostile: ${name}`);
  if (k) return console.log(`known hostile: ${name} [${k.id}]: node ${native}, binding ${mine}`);
  return fail(`hostile: ${name}: node ${native}, binding ${mine} (not in known_differences.js)`);
}

const bytes = (n, seed) => { const u = new Uint8Array(n); for (let i = 0; i < n; i++) u[i] = (i * 29 + seed) & 0xff; return u; };

async function child(s) {
  lib = require('../index.js').withBackend(backend);
  switch (s) {
    case 'views': return views();
    case 'iterator': return iterator();
    case 'addon-tags': return addonTags();
    case 'uint8array': return uint8array();
    case 'intrinsics': return intrinsics();
    case 'residue': return residue();
    default: throw new Error(`no scenario ${s}`);
  }
}

// ---- every view and buffer kind ---------------------------------------------------

const VIEW_KINDS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
  'Int32Array', 'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
  'BigUint64Array', 'DataView'];
const INTEGER = new Set(['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
  'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array']);

// 16 bytes (seed) at offset 8 of a 40-byte buffer, as a view of kind `kind`.
function viewOf(kind, seed, n = 16) {
  const C = globalThis[kind];
  const buf = new ArrayBuffer(n + 24);
  new Uint8Array(buf).set(bytes(n + 24, seed ^ 0x55));
  new Uint8Array(buf, 8, n).set(bytes(n, seed));
  const esz = C.BYTES_PER_ELEMENT || 1;
  return kind === 'DataView' ? new DataView(buf, 8, n) : new C(buf, 8, n / esz);
}

async function views() {
  const rawKey = bytes(32, 3);
  const iv = bytes(12, 4);
  for (const kind of VIEW_KINDS) {
    if (typeof globalThis[kind] !== 'function') {
      skip(`${kind}: node ${process.version} has no ${kind}`);
      continue;
    }
    const data = () => viewOf(kind, 1);
    const ref = bytes(16, 1);
    // digest: the view's 16 bytes, whatever its element size.
    const want = `bytes:${hex(await nodeWeb.subtle.digest('SHA-256', ref))}`;
    await compare(`${kind} digest`, (subtle) => subtle.digest('SHA-256', data()), want);
    // HMAC: a MAC over the whole view; another second half does not verify.
    const hkey = async (subtle) => subtle.importKey('raw', rawKey, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const macWant = `bytes:${hex(await nodeWeb.subtle.sign('HMAC', await hkey(nodeWeb.subtle), ref))}`;
    await compare(`${kind} HMAC sign`, async (subtle) => subtle.sign('HMAC', await hkey(subtle), data()), macWant);
    await compare(`${kind} HMAC verify, second half changed`, async (subtle) => {
      const k = await hkey(subtle);
      const sig = await subtle.sign('HMAC', k, ref);
      const other = viewOf(kind, 1);
      const u = new Uint8Array(other.buffer, other.byteOffset + 8, 8);
      u.fill(9);
      return subtle.verify('HMAC', k, sig, other);
    }, 'bool:false');
    // AES-GCM: 16 bytes encrypt to 32; iv and additionalData as this kind too.
    const akey = async (subtle) => subtle.importKey('raw', rawKey.slice(0, 16), 'AES-GCM', false, ['encrypt']);
    const ctWant = `bytes:${hex(await nodeWeb.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: ref },
      await akey(nodeWeb.subtle), ref))}`;
    await compare(`${kind} AES-GCM encrypt`, async (subtle) => subtle.encrypt(
      { name: 'AES-GCM', iv: kind === 'DataView' ? new DataView(iv.slice().buffer) : iv, additionalData: data() },
      await akey(subtle), data()), ctWant);
    // importKey raw from the view (the key is its 16 bytes).
    await compare(`${kind} importKey raw`, async (subtle) => subtle.exportKey('raw',
      await subtle.importKey('raw', data(), 'AES-GCM', true, ['encrypt'])), `bytes:${hex(ref)}`);
    // PBKDF2 on the pool: the salt (an algorithm member) as this kind.
    const pwant = `bytes:${hex(require('crypto').pbkdf2Sync(Buffer.from(ref), Buffer.from(ref), 1000, 32, 'sha256'))}`;
    await compare(`${kind} PBKDF2 salt`, async (subtle) => subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: data(), iterations: 1000 },
      await subtle.importKey('raw', data(), 'PBKDF2', false, ['deriveBits']), 256), pwant);
    // getRandomValues: integer TypedArrays only (TypeMismatchError).
    await compare(`${kind} getRandomValues`, (subtle, c) => {
      const v = viewOf(kind, 1);
      const before = hex(new Uint8Array(v.buffer));
      c.getRandomValues(v);
      const after = new Uint8Array(v.buffer);
      // only the view's bytes change (all 16 unchanged: 2^-128)
      if (hex(after.subarray(0, 8)) !== before.slice(0, 16) || hex(after.subarray(24)) !== before.slice(48)) {
        return 'wrote outside the view';
      }
      return hex(after.subarray(8, 24)) === before.slice(16, 48) ? 'unchanged' : 'filled';
    }, INTEGER.has(kind) ? 'value:filled' : 'error:TypeMismatchError');
  }

  // Buffers: Web IDL's BufferSource and ArrayBufferView have neither
  // [AllowShared] nor [AllowResizable]: TypeError. A detached buffer holds
  // no bytes.
  const empty = `bytes:${hex(await nodeWeb.subtle.digest('SHA-256', new Uint8Array(0)))}`;
  const kinds = [];
  kinds.push(['SharedArrayBuffer', () => new SharedArrayBuffer(16), 'error:TypeError']);
  kinds.push(['Uint8Array on a SharedArrayBuffer', () => new Uint8Array(new SharedArrayBuffer(16)), 'error:TypeError']);
  kinds.push(['DataView on a SharedArrayBuffer', () => new DataView(new SharedArrayBuffer(16)), 'error:TypeError']);
  let rab = true;
  try { new ArrayBuffer(8, { maxByteLength: 16 }).resize(4); } catch { rab = false; }
  if (rab) {
    kinds.push(['resizable ArrayBuffer', () => new ArrayBuffer(16, { maxByteLength: 32 }), 'error:TypeError']);
    kinds.push(['Uint8Array on a resizable ArrayBuffer', () => new Uint8Array(new ArrayBuffer(16, { maxByteLength: 32 }), 0, 16), 'error:TypeError']);
    kinds.push(['length-tracking Float16Array on a resizable ArrayBuffer', () => new (globalThis.Float16Array || Float32Array)(new ArrayBuffer(16, { maxByteLength: 32 })), 'error:TypeError']);
    kinds.push(['DataView on a resizable ArrayBuffer', () => new DataView(new ArrayBuffer(16, { maxByteLength: 32 })), 'error:TypeError']);
    kinds.push(['Int32Array on a growable SharedArrayBuffer', () => new Int32Array(new SharedArrayBuffer(16, { maxByteLength: 32 })), 'error:TypeError']);
  } else {
    skip(`resizable buffers: node ${process.version} has none`);
  }
  const detach = (ab) => { structuredClone(ab, { transfer: [ab] }); return ab; };
  kinds.push(['detached ArrayBuffer', () => detach(new ArrayBuffer(16)), empty]);
  kinds.push(['Uint8Array on a detached ArrayBuffer', () => { const u = new Uint8Array(16); detach(u.buffer); return u; }, empty]);
  kinds.push(['Float64Array on a detached ArrayBuffer', () => { const u = new Float64Array(2); detach(u.buffer); return u; }, empty]);
  for (const [name, make, spec] of kinds) {
    await compare(`${name} digest`, (subtle) => subtle.digest('SHA-256', make()), spec);
    if (spec === 'error:TypeError') {
      await compare(`${name} as AES-GCM iv`, async (subtle) => subtle.encrypt({ name: 'AES-GCM', iv: make() },
        await subtle.importKey('raw', rawKey.slice(0, 16), 'AES-GCM', false, ['encrypt']), new Uint8Array(4)), spec);
      if (!/^(SharedArrayBuffer|resizable ArrayBuffer|detached)/.test(name)) {
        const isInt = !/Float|DataView/.test(name);
        // ArrayBufferView conversion (TypeError) comes before the integer check.
        await compare(`${name} getRandomValues`, (subtle, c) => { c.getRandomValues(make()); return 'filled'; },
          spec);
        void isInt;
      }
    }
  }
}

// ---- Array.prototype[Symbol.iterator] replaced ---------------------------------

const util = require('util');
async function iterator() {
  const subtle = lib.crypto.subtle;
  const key = await subtle.importKey('raw', bytes(32, 7), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  const data = bytes(64, 9);
  const wantDigest = hex(await subtle.digest('SHA-256', data));
  const wantMac = hex(await subtle.sign('HMAC', key, data));
  // The attack: every array iterated is looked at; an array that holds one
  // of the addon's handles (an External) is the addon's arguments: the key
  // handle seen in one goes in place of the backend in the next.
  const orig = Array.prototype[Symbol.iterator];
  let seen = 0;
  let keyHandle = null;
  Array.prototype[Symbol.iterator] = function () {
    if (Array.isArray(this) && this.some((v) => util.types.isExternal(v))) {
      seen++;
      for (const v of this.slice(1)) if (util.types.isExternal(v)) keyHandle = v;
      if (keyHandle && util.types.isExternal(this[0])) this[0] = keyHandle;
      if (keyHandle && this[0] === undefined) this[0] = keyHandle;
    }
    return Reflect.apply(orig, this, []);
  };
  let digest, mac, verified;
  try {
    for (let i = 0; i < 3; i++) {
      mac = hex(await subtle.sign('HMAC', key, data));
      verified = await subtle.verify('HMAC', key, await subtle.sign('HMAC', key, data), data);
      digest = hex(await subtle.digest('SHA-256', data));
      digest = hex(await subtle.digest('SHA-256', data));
      lib.crypto.getRandomValues(new Uint8Array(8));
    }
  } finally {
    Array.prototype[Symbol.iterator] = orig;
  }
  check(seen === 0, `iterator: the replaced Array.prototype[Symbol.iterator] saw ${seen} arrays of the addon's handles`);
  check(digest === wantDigest, 'iterator: digest right');
  check(mac === wantMac && verified === true, 'iterator: HMAC sign and verify right');
}

// ---- the addon's handles checked by their type tags ----------------------------

async function addonTags() {
  const os = require('os');
  if (!process.env.WEBCRYPTO_NODE_ADDON) return skip('addon: WEBCRYPTO_NODE_ADDON is not set (run.sh sets it)');
  const mod = { exports: {} };
  const dl = os.constants.dlopen;
  process.dlopen(mod, path.resolve(process.env.WEBCRYPTO_NODE_ADDON), dl.RTLD_LAZY | dl.RTLD_DEEPBIND);
  const native = mod.exports;
  // The binding's errors (lib/errors.js): a TypeError is a TypeError, the rest named.
  native.setErrorFactory((name, message) => (name === 'TypeError' ? new TypeError(message)
    : Object.assign(new Error(message), { name })));
  const hmac = native.tables.algorithms.find((a) => a.name === 'HMAC').id;
  const sha256 = native.tables.algorithms.find((a) => a.name === 'SHA-256').id;
  const b = native.backend(backend === 'openssl' ? undefined : backend);
  // A key handle from the addon: run(op, mode, map, backend, format, data,
  // params, extractable, usages) (before issue #25: no map).
  const args = [1, bytes(32, 1), [hmac, 0, sha256], false, 1 << 2];
  let key;
  try { key = native.run(2, 0, undefined, b, ...args); } catch {
    key = native.run(2, 0, b, ...args);
  }
  check(util.types.isExternal(key), 'addon: importKey gave a key handle');
  const refused = (name, f) => {
    try {
      f();
      fail(`addon: ${name} was accepted`);
    } catch (e) {
      check(e instanceof TypeError, `addon: ${name} is a TypeError (${e && e.name})`);
    }
  };
  refused('a key handle as getRandomValues\' backend', () => native.getRandomValues(key, new Uint8Array(16)));
  refused('a key handle as randomUUID\'s backend', () => native.randomUUID(key));
  refused('a key handle as supports\' backend', () => native.supports(key, sha256));
  refused('a key handle as run\'s backend', () => native.run(0, 0, undefined, key, sha256, new Uint8Array(4)));
  refused('a backend handle as a key', () => native.keyInfo(b));
  refused('a backend handle as exportKey\'s key', () => native.run(3, 0, undefined, undefined, 1, b));
  refused('a Float64Array as the addon\'s data', () => native.run(0, 0, undefined, b, sha256, new Float64Array(2)));
  refused('a number as run\'s backend', () => native.run(0, 0, undefined, 12345, sha256, new Uint8Array(4)));
}

// ---- Uint8Array replaced: no copy of the binding's reaches the script -----------

async function uint8array() {
  const subtle = lib.crypto.subtle;
  const pw = bytes(32, 11);
  const salt = bytes(16, 12);
  const want = hex(require('crypto').pbkdf2Sync(Buffer.from(pw), Buffer.from(salt), 20000, 32, 'sha256'));
  const key = await subtle.importKey('raw', pw, 'PBKDF2', false, ['deriveBits']);
  const Orig = Uint8Array;
  const made = [];
  // A Uint8Array whose instances the script keeps, to detach them while the
  // job runs on the thread pool.
  globalThis.Uint8Array = class extends Orig {
    constructor(...a) { super(...a); made.push(this); }
  };
  let got;
  try {
    const p = subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 20000 }, key, 256);
    for (const u of made) {
      try { structuredClone(u.buffer, { transfer: [u.buffer] }); } catch { /* not detachable */ }
    }
    globalThis.gc();
    const junk = [];
    for (let i = 0; i < 2000; i++) junk.push(new Orig(16).fill(0xee));
    got = await p;
  } finally {
    globalThis.Uint8Array = Orig;
  }
  got = hex(got);
  check(made.length === 0, `uint8array: the replaced Uint8Array made ${made.length} of the binding's arrays`);
  check(got === want, 'uint8array: PBKDF2 right with its inputs detached meanwhile');
}

// ---- prototype methods replaced ----------------------------------------------------

// f's value, or what it threw (so that one check failing leaves the rest).
const attempt = async (f) => { try { return await f(); } catch (e) { return `threw ${e && e.name}: ${e && e.message}`; } };
async function intrinsics() {
  const subtle = lib.crypto.subtle;
  const nodeCrypto = require('crypto');
  const data = bytes(48, 21);
  const k16 = bytes(16, 22);
  const iv = bytes(12, 23);
  const wantSha256 = nodeCrypto.createHash('sha256').update(data).digest('hex');
  const wantMac = nodeCrypto.createHmac('sha256', Buffer.from(k16)).update(data).digest('hex');
  const c = nodeCrypto.createCipheriv('aes-128-gcm', k16, iv);
  const wantGcm = Buffer.concat([c.update(data), c.final(), c.getAuthTag()]).toString('hex');
  const wantPbkdf2 = nodeCrypto.pbkdf2Sync(Buffer.from(k16), Buffer.from(iv), 5000, 32, 'sha256').toString('hex');
  const aes = await subtle.importKey('raw', k16, 'AES-GCM', true, ['encrypt', 'decrypt']);

  const undo = [];
  const replace = (obj, name, make) => {
    const d = Object.getOwnPropertyDescriptor(obj, name);
    Object.defineProperty(obj, name, { value: make(d && d.value), writable: true, configurable: true });
    undo.push(() => (d ? Object.defineProperty(obj, name, d) : delete obj[name]));
  };
  const inherit = (obj, name, value) => {
    Object.defineProperty(obj, name, { get() { return value; }, set() {}, configurable: true });
    undo.push(() => delete obj[name]);
  };
  let thenSawResult = 0;
  // Map.prototype.get: SHA-256 asked for is SHA-1 given.
  replace(Map.prototype, 'get', (get) => function (k) { return get.call(this, k === 'SHA-256' ? 'SHA-1' : k); });
  // Set.prototype.has: every operation of every algorithm "allowed".
  replace(Set.prototype, 'has', (has) => function (k) { return k === 'digest' ? true : has.call(this, k); });
  // Tables and objects read by key: inherited entries.
  inherit(Object.prototype, 'SHA-256', { digest: 'CShakeParams' });
  inherit(Object.prototype, 'hash', 1);
  inherit(Object.prototype, 'AES-GCM', { encrypt: 'Algorithm', decrypt: 'Algorithm' });
  // Array.prototype.push and an inherited index setter: the params list.
  replace(Array.prototype, 'push', (push) => function (...a) { return push.apply(this, a.map((x) => (x === 12 ? 16 : x))); });
  let setterSaw = 0;
  Object.defineProperty(Array.prototype, '2', { set() { setterSaw++; }, configurable: true });
  undo.push(() => delete Array.prototype[2]);
  replace(JSON, 'stringify', () => () => '{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA"}');
  replace(TextEncoder.prototype, 'encode', () => () => new Uint8Array(4));
  replace(Function.prototype, 'call', (call) => call);
  replace(Function.prototype, 'apply', (apply) => apply);
  // Setters for the names and indices of the addon's own result objects
  // (keyInfo's members, a key pair's [public, private]): removed below,
  // not through `undo` (whose push they would see).
  let resultSetterSaw = 0;
  const setters = [[Array.prototype, '0'], [Array.prototype, '1'], [Object.prototype, 'type'],
    [Object.prototype, 'extractable'], [Object.prototype, 'usages']];
  for (const [o, k] of setters) {
    Object.defineProperty(o, k, { set() { resultSetterSaw++; }, configurable: true });
  }
  // A key pair of an algorithm the backend has (jca:SunJCE has no ECDSA).
  const PAIRS = [[{ name: 'ECDSA', namedCurve: 'P-256' }, ['sign', 'verify'], 'sign'],
    [{ name: 'Ed25519' }, ['sign', 'verify'], 'sign'],
    [{ name: 'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      ['encrypt', 'decrypt'], 'decrypt']];
  const supported = (n) => require('../index.js').supports(backend === 'openssl' ? undefined : backend, n);
  const [pairAlg, pairUsages, privUsage] = PAIRS.find(([a]) => supported(a.name)) || [];
  let got = {};
  try {
    if (pairAlg) {
      got.pair = await attempt(async () => {
        const pair = await subtle.generateKey(pairAlg, false, pairUsages);
        return `${pair.publicKey.type} ${pair.privateKey.type} ${pair.privateKey.extractable} ${pair.privateKey.usages.join()}`;
      });
    }
    got.secret = await attempt(async () => {
      const k = await subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, ['encrypt']);
      return `${k.type} ${k.extractable} ${k.usages.join()} ${k.algorithm.length}`;
    });
    for (const [o, k] of setters) delete o[k];
    got.sha256 = await attempt(async () => hex(await subtle.digest('SHA-256', data)));
    got.sha256b = await attempt(async () => hex(await subtle.digest({ name: 'SHA-256' }, data)));
    got.mac = await attempt(async () => hex(await subtle.sign('HMAC',
      await subtle.importKey('raw', k16, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), data)));
    got.gcm = await attempt(async () => hex(await subtle.encrypt({ name: 'AES-GCM', iv }, aes, data)));
    got.pbkdf2 = await attempt(async () => hex(await subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: iv, iterations: 5000 },
      await subtle.importKey('raw', k16, 'PBKDF2', false, ['deriveBits']), 256)));
    got.jwkBack = await attempt(async () => hex(await subtle.exportKey('raw',
      await subtle.importKey('jwk', await subtle.exportKey('jwk', aes), 'AES-GCM', true, ['encrypt']))));
    // deriveKey on the pool (a result mapped to a CryptoKey), an AES key
    // whose algorithm must not take the inherited `hash`.
    got.derived = await attempt(async () => {
      const k = await subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt: iv, iterations: 5000 },
        await subtle.importKey('raw', k16, 'PBKDF2', false, ['deriveKey']), { name: 'AES-GCM', length: 128 },
        true, ['encrypt']);
      return `${hex(await subtle.exportKey('raw', k))} ${Object.prototype.hasOwnProperty.call(k.algorithm, 'hash')}`;
    });
  } finally {
    for (const [o, k] of setters) delete o[k];
    while (undo.length) undo.pop()();
  }
  if (pairAlg) {
    check(got.pair === `public private false ${privUsage}`, `intrinsics: an ${pairAlg.name} key pair made right (${got.pair})`);
  } else {
    skip(`intrinsics: the ${backend} backend has no key pair algorithm (${PAIRS.map(([a]) => a.name).join(', ')})`);
  }
  check(got.secret === 'secret true encrypt 128', `intrinsics: an AES key made right (${got.secret})`);
  check(resultSetterSaw === 0, `intrinsics: setters on Array.prototype[0], [1] and Object.prototype saw ${resultSetterSaw} of the addon's values`);
  check(got.sha256 === wantSha256 && got.sha256b === wantSha256, `intrinsics: digest('SHA-256') is SHA-256 (${(got.sha256 || '').length / 2} bytes)`);
  check(got.mac === wantMac, `intrinsics: HMAC SHA-256 right (${got.mac})`);
  check(got.gcm === wantGcm, 'intrinsics: AES-GCM right');
  check(got.pbkdf2 === wantPbkdf2, 'intrinsics: PBKDF2 (on the pool) right');
  check(got.jwkBack === hex(k16), 'intrinsics: a JWK exported and imported back is the key');
  check(got.derived === `${wantPbkdf2.slice(0, 32)} false`, `intrinsics: deriveKey right, its algorithm without an inherited hash (${got.derived})`);
  // Promise.prototype.then alone (the rest restored): it must not see the
  // binding's results (a key made on the pool, bits).
  replace(Promise.prototype, 'then', (then) => function (f, r) {
    return then.call(this, (v) => {
      if (v instanceof ArrayBuffer || v instanceof lib.CryptoKey || util.types.isExternal(v)) thenSawResult++;
      return f ? f(v) : v;
    }, r);
  });
  try {
    got.thenKey = await attempt(async () => (await subtle.deriveKey(
      { name: 'PBKDF2', hash: 'SHA-256', salt: iv, iterations: 5000 },
      await subtle.importKey('raw', k16, 'PBKDF2', false, ['deriveKey']), { name: 'AES-GCM', length: 128 },
      true, ['encrypt'])).type);
  } finally {
    while (undo.length) undo.pop()();
  }
  check(got.thenKey === 'secret', `intrinsics: deriveKey with Promise.prototype.then replaced (${got.thenKey})`);
  check(thenSawResult === 0, `intrinsics: the replaced Promise.prototype.then saw ${thenSawResult} results`);
  check(setterSaw === 0, `intrinsics: an Array.prototype index setter saw ${setterSaw} values`);
}

// ---- a key's bytes in memory after the key is dropped ------------------------------

// Searches every readable mapping of this process for the 32 bytes mask ^
// masked (never held whole anywhere by the search itself: each byte is
// compared as masked[i] ^ mask[i]); returns the addresses found.
function searchMemory(mask, masked) {
  const fs = require('fs');
  const maps = fs.readFileSync('/proc/self/maps', 'utf8').split('\n');
  const fd = fs.openSync('/proc/self/mem', 'r');
  const chunk = Buffer.allocUnsafeSlow(1 << 20);
  const found = [];
  const first = masked[0] ^ mask[0];
  try {
    for (const line of maps) {
      const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+)/.exec(line);
      if (!m || m[3][0] !== 'r' || /\[(vvar|vsyscall)\]/.test(line)) continue;
      const lo = parseInt(m[1], 16);
      const hi = parseInt(m[2], 16);
      for (let at = lo; at < hi; at += chunk.length - 32) {
        const want = Math.min(chunk.length, hi - at);
        let n;
        try { n = fs.readSync(fd, chunk, 0, want, at); } catch { break; } // not readable after all
        for (let i = chunk.indexOf(first, 0); i >= 0 && i + 32 <= n; i = chunk.indexOf(first, i + 1)) {
          let j = 1;
          while (j < 32 && (chunk[i + j] ^ mask[j]) === masked[j]) j++;
          if (j === 32) found.push(`0x${(at + i).toString(16)} in ${line.replace(/\s+/g, ' ')}`);
        }
        if (n < want) break;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return found;
}

async function residue() {
  if (typeof globalThis.gc !== 'function') return skip('residue: run without --expose-gc');
  if (backend.startsWith('jca')) {
    return skip('residue: the jca backend keeps a key\'s bytes in the Java heap until the JVM collects it (webcrypto.h)');
  }
  const nodeCrypto = require('crypto');
  const mask = nodeCrypto.randomBytes(32);
  const masked = nodeCrypto.randomBytes(32);
  // The control: while the key lives, the search finds its bytes (in the
  // library's copy), so a search that finds nothing later means something.
  const run = async (drop) => {
    // The caller's bytes: an ArrayBuffer's own memory (off the JS heap, never
    // moved by the collector), wiped after the import as a careful caller does.
    const ab = new ArrayBuffer(32);
    const u = new Uint8Array(ab);
    for (let i = 0; i < 32; i++) u[i] = mask[i] ^ masked[i];
    let key = await lib.crypto.subtle.importKey('raw', u, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    u.fill(0);
    await lib.crypto.subtle.sign('HMAC', key, new Uint8Array(8));
    if (!drop) return { key, found: searchMemory(mask, masked) };
    key = null;
    for (let i = 0; i < 4; i++) {
      globalThis.gc();
      await new Promise((r) => setImmediate(r));
    }
    return { found: searchMemory(mask, masked) };
  };
  const live = await run(false);
  if (live.found.length === 0) {
    // The backend keeps no contiguous copy: the search proves nothing here.
    skip(`residue: the ${backend} backend holds no plain copy of a live HMAC key, so the search has no control`);
  } else {
    ok(`residue: control: a live key's bytes found (${live.found.length})`);
  }
  live.key = null;
  const gone = await run(true);
  check(gone.found.length === 0, `residue: no copy of a dropped key's bytes in memory${gone.found.length ? `: ${gone.found.join('; ')}` : ''}`);
}

if (!scenario) {
  parent();
} else {
  child(scenario).then(() => { console.log('done'); }, (e) => {
    console.log(`FAIL ${scenario}: threw ${e && e.stack}`);
    console.log('done');
  });
}
