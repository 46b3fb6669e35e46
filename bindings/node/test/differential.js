'use strict';
// differential.js - the binding against Node's own crypto.subtle: the same
// calls go to both, and their outcomes must agree.
//
//   node differential.js [BACKEND]      (the addon: $WEBCRYPTO_NODE_ADDON)
//
// A case is one call, made on each side with that side's keys (the same key
// material, imported on both). Outcomes are compared as
//   - the value: byte-equal where the operation is deterministic ("exact"),
//     else its shape (lengths, key properties) plus a cross-check: what one
//     side made (a signature, a ciphertext) is checked by the other;
//   - or the error's name (TypeError, DataError, ...).
// The valid calls cover every algorithm both sides have, every format and
// usage; the malformed ones are made systematically from them: each argument
// replaced by values of the wrong type, each dictionary member removed or
// given a wrong value, keys of the wrong algorithm or type, usages, formats
// and lengths out of range, and key data broken in every format.
// A difference listed in KNOWN below (with the spec text, also in
// bindings/node/README.md) is reported as such; any other fails the run.
// Also checked of the binding alone: every result is a Promise (no
// synchronous throw), and (binding_alone.js) a CryptoKey's algorithm is the
// same object on each read, and what else has no outcome of Node's to compare.

const nodeCrypto = require('crypto');
const lib = require('../index.js');
const modern = require('./modern_cases.js');
const { bindingAlone } = require('./binding_alone.js');
const fs = require('fs');
const path = require('path');

const backend = process.argv[2] || 'openssl';
const mine = lib.withBackend(backend);
const NODE = { name: 'node', subtle: nodeCrypto.webcrypto.subtle, CryptoKey: nodeCrypto.webcrypto.CryptoKey };
const LIB = { name: `webcrypto(${backend})`, subtle: mine.crypto.subtle, CryptoKey: mine.CryptoKey };
const nodeMajor = Number(process.versions.node.split('.')[0]);

const hex = (b) => Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString('hex');
const bytes = (n, seed = 1) => { const u = new Uint8Array(n); for (let i = 0; i < n; i++) u[i] = (i * 31 + seed * 7) & 0xff; return u; };
// "params:OP:JSON" (modern_cases.js, needsParams): cSHAKE or KMAC parameters
// the backend may not take (the jca variants' SHAKE and KMAC have one output
// length each and no customization), asked of SubtleCrypto.supports for the
// whole bytes that hold outputLength (it says false for other lengths on
// every backend); a call needing what it says false to is a skip, counted
// with that reason.
const paramsSupported = (spec) => {
  const [, op, json] = /^params:(\w+):(.*)$/.exec(spec);
  const p = JSON.parse(json, (k, v) => (v && v.u8 ? new Uint8Array(v.u8) : v));
  if (p.outputLength) p.outputLength = Math.ceil(p.outputLength / 8) * 8;
  return mine.SubtleCrypto.supports(op, p);
};
const libSupports = (alg) => /^(op|format):/.test(alg) ||
  (/^params:/.test(alg) ? paramsSupported(alg) : lib.supports(backend === 'openssl' ? undefined : backend, alg));

// ---- outcomes ---------------------------------------------------------------

function canon(v) {
  if (v instanceof Uint8Array) return `u8:${hex(v)}`;
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') {
    const o = {};
    for (const k of Object.keys(v).sort()) o[k] = canon(v[k]);
    return o;
  }
  return v;
}

async function describe(side, v, mode) {
  if (v instanceof ArrayBuffer) return mode === 'exact' ? `bytes:${hex(v)}` : `bytes[${v.byteLength}]`;
  if (typeof v === 'boolean') return `bool:${v}`;
  if (v instanceof side.CryptoKey) {
    const d = { type: v.type, extractable: v.extractable, algorithm: canon(v.algorithm),
      usages: [...v.usages].sort() };
    if (v.algorithm !== v.algorithm) d.algorithmNotSameObject = true;
    if (v.extractable && v.type === 'secret') {
      // raw, else raw-secret (the draft's algorithms, KMAC and ChaCha20-Poly1305, have only it)
      const raw = await side.subtle.exportKey('raw', v).catch(() => side.subtle.exportKey('raw-secret', v));
      d.raw = mode === 'exact' ? hex(raw) : raw.byteLength;
    }
    return d;
  }
  if (v && typeof v === 'object' && 'publicKey' in v && 'privateKey' in v) {
    return { publicKey: await describe(side, v.publicKey, mode), privateKey: await describe(side, v.privateKey, mode) };
  }
  if (v && typeof v === 'object') {
    if (mode === 'exact') return { jwk: canon(v) };
    return { jwkMembers: Object.keys(v).sort(), kty: v.kty, alg: v.alg, crv: v.crv, key_ops: v.key_ops, ext: v.ext };
  }
  return `value:${typeof v}:${String(v)}`;
}

async function outcome(side, ctx, c) {
  let p;
  try {
    p = c.run(side, ctx[side.name]);
  } catch (e) {
    return { sync: `threw synchronously ${e && e.name}` };
  }
  if (!(p instanceof Promise)) return { sync: 'did not return a Promise' };
  try {
    const v = await p;
    return { ok: await describe(side, v, c.mode), value: v };
  } catch (e) {
    return { err: e && e.name, msg: e && e.message };
  }
}
const show = (o) => (o.err ? `error ${o.err} (${o.msg})` : o.sync ? o.sync : JSON.stringify(o.ok));

// ---- fixtures: the same key material on both sides ---------------------------

const SECRETS = {
  'hmac-SHA-1': ['raw', bytes(20, 1), { name: 'HMAC', hash: 'SHA-1' }, ['sign', 'verify']],
  'hmac-SHA-256': ['raw', bytes(32, 2), { name: 'HMAC', hash: 'SHA-256' }, ['sign', 'verify']],
  'hmac-SHA-384': ['raw', bytes(48, 3), { name: 'HMAC', hash: 'SHA-384' }, ['sign', 'verify']],
  'hmac-SHA-512': ['raw', bytes(64, 4), { name: 'HMAC', hash: 'SHA-512' }, ['sign', 'verify']],
  'AES-CBC-128': ['raw', bytes(16, 5), 'AES-CBC', ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']],
  'AES-CBC-256': ['raw', bytes(32, 6), 'AES-CBC', ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']],
  'AES-CTR-128': ['raw', bytes(16, 7), 'AES-CTR', ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']],
  'AES-CTR-192': ['raw', bytes(24, 8), 'AES-CTR', ['encrypt', 'decrypt']],
  'AES-GCM-128': ['raw', bytes(16, 9), 'AES-GCM', ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']],
  'AES-GCM-256': ['raw', bytes(32, 10), 'AES-GCM', ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']],
  'AES-KW-128': ['raw', bytes(16, 11), 'AES-KW', ['wrapKey', 'unwrapKey']],
  'AES-KW-256': ['raw', bytes(32, 12), 'AES-KW', ['wrapKey', 'unwrapKey']],
  'HKDF': ['raw', bytes(32, 13), 'HKDF', ['deriveBits', 'deriveKey']],
  'PBKDF2': ['raw', bytes(12, 14), 'PBKDF2', ['deriveBits', 'deriveKey']],
  'aes-export': ['raw', bytes(16, 15), 'AES-GCM', ['encrypt']],
  'aes-noextract': ['raw', bytes(16, 15), 'AES-GCM', ['encrypt'], false],
};
const CURVES = ['P-256', 'P-384', 'P-521'];
const PAIRS = {};
for (const c of CURVES) {
  PAIRS[`ECDSA-${c}`] = [{ name: 'ECDSA', namedCurve: c }, ['sign', 'verify']];
  PAIRS[`ECDH-${c}`] = [{ name: 'ECDH', namedCurve: c }, ['deriveBits', 'deriveKey']];
  PAIRS[`ECDH-${c}-peer`] = [{ name: 'ECDH', namedCurve: c }, ['deriveBits', 'deriveKey']];
}
PAIRS.Ed25519 = [{ name: 'Ed25519' }, ['sign', 'verify']];
PAIRS.X25519 = [{ name: 'X25519' }, ['deriveBits', 'deriveKey']];
PAIRS['X25519-peer'] = [{ name: 'X25519' }, ['deriveBits', 'deriveKey']];
const RSA_ALGS = [['RSASSA-PKCS1-v1_5', ['sign', 'verify']], ['RSA-PSS', ['sign', 'verify']],
  ['RSA-OAEP', ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']]];

async function fixtures() {
  const s = NODE.subtle;
  const material = {};
  for (const [id, [gen, usages]] of Object.entries(PAIRS)) {
    let kp;
    try {
      if (nodeLacks.has(gen.name)) throw new Error('pretended');
      kp = await s.generateKey(gen, true, usages);
    } catch (e) {
      nodeLacks.add(gen.name); // an older Node without it: its calls are skipped, and counted
      continue;
    }
    material[id] = { gen, usages, pkcs8: await s.exportKey('pkcs8', kp.privateKey),
      spki: await s.exportKey('spki', kp.publicKey) };
  }
  const rsa = await s.generateKey({ name: 'RSA-PSS', modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']);
  material.rsa = { pkcs8: await s.exportKey('pkcs8', rsa.privateKey), spki: await s.exportKey('spki', rsa.publicKey) };
  const ctx = {};
  for (const side of [NODE, LIB]) {
    const k = {};
    for (const [id, [fmt, data, alg, usages, ext]] of Object.entries(SECRETS)) {
      k[id] = await side.subtle.importKey(fmt, data, alg, ext !== false, usages).catch(() => null);
    }
    for (const [id, m] of Object.entries(material)) {
      if (id === 'rsa' || !m) continue;
      const pub = m.usages.filter((u) => u === 'verify');
      k[`${id}.priv`] = await side.subtle.importKey('pkcs8', m.pkcs8, m.gen, true, m.usages.filter((u) => u !== 'verify')).catch(() => null);
      k[`${id}.pub`] = await side.subtle.importKey('spki', m.spki, m.gen, true, pub).catch(() => null);
    }
    for (const [name, usages] of RSA_ALGS) {
      for (const hash of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) {
        const priv = usages.filter((u) => u === 'sign' || u === 'decrypt' || u === 'unwrapKey');
        const pub = usages.filter((u) => !priv.includes(u));
        k[`${name}-${hash}.priv`] = await side.subtle.importKey('pkcs8', material.rsa.pkcs8, { name, hash }, true, priv).catch(() => null);
        k[`${name}-${hash}.pub`] = await side.subtle.importKey('spki', material.rsa.spki, { name, hash }, true, pub).catch(() => null);
      }
    }
    Object.assign(k, await modern.sideKeys(side, bytes, (h) => new Uint8Array(Buffer.from(h, 'hex')), material.rsa));
    ctx[side.name] = k;
  }
  return { ctx, material };
}

// ---- the valid calls -----------------------------------------------------------

// WEBCRYPTO_DIFF_NODE_LACKS=X25519,Ed25519 pretends Node lacks them (to try the skip path).
const nodeLacks = new Set((process.env.WEBCRYPTO_DIFF_NODE_LACKS || '').split(',').filter(Boolean));
const HASHES = ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'];
const ALL_USAGES = ['encrypt', 'decrypt', 'sign', 'verify', 'deriveKey', 'deriveBits', 'wrapKey', 'unwrapKey'];
const FORMATS = ['raw', 'pkcs8', 'spki', 'jwk'];
const cases = [];
// A call: name, run(side, keys) -> Promise, mode 'exact' | 'shape', and for
// 'shape' calls a cross check: check(otherSide, otherKeys, value) -> Promise<bool>.
function add(name, algs, run, mode = 'exact', cross = null, mut = null) {
  cases.push({ name, algs, run, mode, cross, mut });
}
const views = (n) => [
  ['Uint8Array', () => bytes(n)],
  ['ArrayBuffer', () => bytes(n).buffer],
  ['DataView', () => new DataView(bytes(n + 3).buffer, 3)],
  ['Int32Array', () => new Int32Array(bytes(n - (n % 4)).buffer)],
];

function validCalls(material) {
  // Web IDL's order of reads in "normalize an algorithm": the name as an
  // Algorithm, then the whole operation's dictionary (its inherited name
  // again, then its members in order), and only then the hash normalised
  // (its name as an Algorithm, then as digest's dictionary, Algorithm).
  add('HMAC generateKey member read order', ['HMAC', 'SHA-256'], async (s) => {
    const log = [];
    const hash = { get name() { log.push('hash.name'); return 'SHA-256'; } };
    await s.subtle.generateKey({
      get name() { log.push('name'); return 'HMAC'; },
      get hash() { log.push('hash'); return hash; },
      get length() { log.push('length'); return 256; },
    }, false, ['sign']);
    return log.join(',');
  });
  // digest
  for (const h of HASHES) {
    for (const n of [0, 3, 64, 1000]) {
      for (const [vn, v] of views(n)) add(`digest ${h} ${n} bytes as ${vn}`, [h], (s) => s.subtle.digest(h, v()));
    }
    add(`digest ${h.toLowerCase()} as a dictionary`, [h], (s) => s.subtle.digest({ name: h.toLowerCase(), extra: 1 }, bytes(5)),
      'exact', null, { alg: 0, args: (s) => [{ name: h }, bytes(5)] });
  }
  // HMAC
  for (const h of HASHES) {
    const id = `hmac-${h}`;
    add(`HMAC ${h} sign`, ['HMAC', h], (s, k) => s.subtle.sign('HMAC', k[id], bytes(100)), 'exact', null,
      { alg: 0, key: 1, data: 2, args: (s, k) => ['HMAC', k[id], bytes(100)] });
    add(`HMAC ${h} verify good`, ['HMAC', h], async (s, k) => s.subtle.verify('HMAC', k[id], await NODE.subtle.sign('HMAC', (await NODE.subtle.importKey('raw', SECRETS[id][1], SECRETS[id][2], false, ['sign'])), bytes(10)), bytes(10)));
    add(`HMAC ${h} verify bad`, ['HMAC', h], (s, k) => s.subtle.verify('HMAC', k[id], bytes(32), bytes(10)), 'exact', null,
      { alg: 0, key: 1, data: [2, 3], args: (s, k) => ['HMAC', k[id], bytes(32), bytes(10)] });
    for (const f of ['raw', 'jwk']) add(`HMAC ${h} export ${f}`, ['HMAC', h], (s, k) => s.subtle.exportKey(f, k[id]));
    for (const len of [undefined, 8, 100, 256, 512]) {
      add(`HMAC ${h} import raw length ${len}`, ['HMAC', h], (s) => s.subtle.importKey('raw', bytes(32), { name: 'HMAC', hash: h, length: len }, true, ['sign']), 'exact', null,
        { alg: 2, usages: 4, format: 0, keyData: 1, args: () => ['raw', bytes(32), { name: 'HMAC', hash: h, length: len }, true, ['sign']] });
      add(`HMAC ${h} generateKey length ${len}`, ['HMAC', h], (s) => s.subtle.generateKey({ name: 'HMAC', hash: { name: h }, length: len }, true, ['sign', 'verify']), 'shape', null,
        { alg: 0, usages: 2, args: () => [{ name: 'HMAC', hash: h, length: len }, true, ['sign', 'verify']] });
    }
  }
  // AES
  const aesIds = { 'AES-CBC': ['AES-CBC-128', 'AES-CBC-256'], 'AES-CTR': ['AES-CTR-128', 'AES-CTR-192'], 'AES-GCM': ['AES-GCM-128', 'AES-GCM-256'], 'AES-KW': ['AES-KW-128', 'AES-KW-256'] };
  for (const [alg, ids] of Object.entries(aesIds)) {
    for (const len of [128, 192, 256, 100, 0]) {
      add(`${alg} generateKey length ${len}`, [alg], (s) => s.subtle.generateKey({ name: alg, length: len }, true, alg === 'AES-KW' ? ['wrapKey'] : ['encrypt']), 'shape', null,
        { alg: 0, usages: 2, args: () => [{ name: alg, length: len }, true, alg === 'AES-KW' ? ['wrapKey', 'unwrapKey'] : ['encrypt', 'decrypt']] });
    }
    for (const n of [16, 24, 32, 15, 0]) {
      add(`${alg} import raw ${n} bytes`, [alg], (s) => s.subtle.importKey('raw', bytes(n), alg, true, alg === 'AES-KW' ? ['wrapKey'] : ['decrypt']), 'exact', null,
        { alg: 2, usages: 4, format: 0, keyData: 1, args: () => ['raw', bytes(n), alg, true, alg === 'AES-KW' ? ['wrapKey'] : ['decrypt']] });
    }
    for (const id of ids) add(`${id} export jwk`, [alg], (s, k) => s.subtle.exportKey('jwk', k[id]));
  }
  for (const id of ['AES-CBC-128', 'AES-CBC-256']) {
    for (const n of [0, 15, 16, 33]) {
      const p = { name: 'AES-CBC', iv: bytes(16, 3) };
      add(`${id} encrypt ${n}`, ['AES-CBC'], (s, k) => s.subtle.encrypt(p, k[id], bytes(n)), 'exact', null,
        { alg: 0, key: 1, data: 2, args: (s, k) => [p, k[id], bytes(n)] });
    }
    add(`${id} decrypt bad padding`, ['AES-CBC'], (s, k) => s.subtle.decrypt({ name: 'AES-CBC', iv: bytes(16) }, k[id], bytes(32)));
    add(`${id} decrypt round trip`, ['AES-CBC'], async (s, k) => s.subtle.decrypt({ name: 'AES-CBC', iv: bytes(16) }, k[id],
      await s.subtle.encrypt({ name: 'AES-CBC', iv: bytes(16) }, k[id], bytes(40))));
    add(`${id} iv 15 bytes`, ['AES-CBC'], (s, k) => s.subtle.encrypt({ name: 'AES-CBC', iv: bytes(15) }, k[id], bytes(4)));
  }
  for (const id of ['AES-CTR-128', 'AES-CTR-192']) {
    for (const len of [1, 32, 64, 128, 0, 129]) {
      const p = { name: 'AES-CTR', counter: bytes(16, 9), length: len };
      add(`${id} encrypt length ${len}`, ['AES-CTR'], (s, k) => s.subtle.encrypt(p, k[id], bytes(50)), 'exact', null,
        { alg: 0, key: 1, data: 2, args: (s, k) => [p, k[id], bytes(50)] });
    }
    add(`${id} counter 8 bytes`, ['AES-CTR'], (s, k) => s.subtle.encrypt({ name: 'AES-CTR', counter: bytes(8), length: 64 }, k[id], bytes(4)));
    // the counter wraps within its low `length` bits
    add(`${id} counter wraps`, ['AES-CTR'], (s, k) => s.subtle.encrypt({ name: 'AES-CTR', counter: new Uint8Array(16).fill(0xff), length: 8 }, k[id], bytes(64)));
  }
  for (const id of ['AES-GCM-128', 'AES-GCM-256']) {
    for (const tl of [undefined, 32, 64, 96, 104, 112, 120, 128, 33, 0, 256]) {
      for (const ad of [undefined, bytes(0), bytes(20)]) {
        const p = { name: 'AES-GCM', iv: bytes(12, 4), additionalData: ad, tagLength: tl };
        add(`${id} encrypt tagLength ${tl} ad ${ad && ad.length}`, ['AES-GCM'], (s, k) => s.subtle.encrypt(p, k[id], bytes(33)), 'exact', null,
          tl === 96 && ad && ad.length ? { alg: 0, key: 1, data: 2, args: (s, k) => [p, k[id], bytes(33)] } : null);
      }
    }
    for (const ivl of [1, 12, 16, 0]) add(`${id} iv ${ivl} bytes`, ['AES-GCM'], (s, k) => s.subtle.encrypt({ name: 'AES-GCM', iv: bytes(ivl) }, k[id], bytes(7)));
    add(`${id} decrypt tampered`, ['AES-GCM'], async (s, k) => {
      const ct = new Uint8Array(await s.subtle.encrypt({ name: 'AES-GCM', iv: bytes(12) }, k[id], bytes(20)));
      ct[3] ^= 1;
      return s.subtle.decrypt({ name: 'AES-GCM', iv: bytes(12) }, k[id], ct);
    });
    add(`${id} decrypt short`, ['AES-GCM'], (s, k) => s.subtle.decrypt({ name: 'AES-GCM', iv: bytes(12) }, k[id], bytes(15)));
    add(`${id} decrypt round trip`, ['AES-GCM'], async (s, k) => s.subtle.decrypt({ name: 'AES-GCM', iv: bytes(12), additionalData: bytes(3) }, k[id],
      await s.subtle.encrypt({ name: 'AES-GCM', iv: bytes(12), additionalData: bytes(3) }, k[id], bytes(40))));
  }
  // AES-KW and wrapping
  for (const id of ['AES-KW-128', 'AES-KW-256']) {
    add(`${id} wrapKey raw`, ['AES-KW'], (s, k) => s.subtle.wrapKey('raw', k['aes-export'], k[id], 'AES-KW'), 'exact', null,
      { format: 0, key: [1, 2], alg: 3, args: (s, k) => ['raw', k['aes-export'], k[id], 'AES-KW'] });
    add(`${id} wrapKey jwk (not a multiple of 8)`, ['AES-KW'], (s, k) => s.subtle.wrapKey('jwk', k['hmac-SHA-1'], k[id], 'AES-KW'));
    add(`${id} unwrapKey`, ['AES-KW'], async (s, k) => s.subtle.unwrapKey('raw', await s.subtle.wrapKey('raw', k['aes-export'], k[id], 'AES-KW'), k[id], 'AES-KW', 'AES-CBC', true, ['encrypt']), 'exact', null,
      { format: 0, alg: [3, 4], usages: 6, key: 2, args: (s, k) => ['raw', bytes(24), k[id], 'AES-KW', 'AES-CBC', true, ['encrypt']] });
    add(`${id} unwrapKey corrupt`, ['AES-KW'], (s, k) => s.subtle.unwrapKey('raw', bytes(24), k[id], 'AES-KW', 'AES-CBC', true, ['encrypt']));
  }
  add('wrapKey non-extractable', ['AES-KW'], (s, k) => s.subtle.wrapKey('raw', k['aes-noextract'], k['AES-KW-128'], 'AES-KW'));
  for (const [wid, walg] of [['AES-GCM-128', { name: 'AES-GCM', iv: bytes(12) }], ['AES-CBC-128', { name: 'AES-CBC', iv: bytes(16) }], ['AES-CTR-128', { name: 'AES-CTR', counter: bytes(16), length: 64 }]]) {
    for (const f of ['raw', 'jwk']) {
      // a JWK's JSON text may order its members as it likes: the other side unwraps it
      add(`wrapKey ${f} with ${wid}`, [walg.name], (s, k) => s.subtle.wrapKey(f, k['hmac-SHA-256'], k[wid], walg), f === 'jwk' ? 'shape' : 'exact',
        f === 'jwk' ? async (s, k, w) => hex(await s.subtle.exportKey('raw', await s.subtle.unwrapKey(f, w, k[wid], walg, { name: 'HMAC', hash: 'SHA-256' }, true, ['sign']))) === hex(SECRETS['hmac-SHA-256'][1]) : null);
      add(`unwrapKey ${f} with ${wid}`, [walg.name], async (s, k) => s.subtle.unwrapKey(f, await s.subtle.wrapKey(f, k['hmac-SHA-256'], k[wid], walg), k[wid], walg, { name: 'HMAC', hash: 'SHA-256' }, true, ['sign']));
    }
    add(`wrapKey pkcs8 ECDSA with ${wid}`, [walg.name, 'ECDSA'], (s, k) => s.subtle.wrapKey('pkcs8', k['ECDSA-P-256.priv'], k[wid], walg), 'shape');
  }
  // HKDF, PBKDF2
  for (const h of HASHES) {
    for (const len of [0, 8, 128, 256, 7, 255 * 160 + 8]) {
      const p = { name: 'HKDF', hash: h, salt: bytes(10), info: bytes(5) };
      add(`HKDF ${h} deriveBits ${len}`, ['HKDF', h], (s, k) => s.subtle.deriveBits(p, k.HKDF, len), 'exact', null,
        len === 256 && h === 'SHA-256' ? { alg: 0, key: 1, args: (s, k) => [p, k.HKDF, len] } : null);
    }
    for (const it of [1, 1000, 0]) {
      const p = { name: 'PBKDF2', hash: h, salt: bytes(16), iterations: it };
      add(`PBKDF2 ${h} deriveBits iterations ${it}`, ['PBKDF2', h], (s, k) => s.subtle.deriveBits(p, k.PBKDF2, 256), 'exact', null,
        it === 1000 && h === 'SHA-256' ? { alg: 0, key: 1, args: (s, k) => [p, k.PBKDF2, 256] } : null);
    }
    for (const [dt, usages] of [[{ name: 'AES-GCM', length: 256 }, ['encrypt']], [{ name: 'AES-KW', length: 128 }, ['wrapKey']], [{ name: 'HMAC', hash: h }, ['sign']], [{ name: 'HMAC', hash: h, length: 80 }, ['verify']], [{ name: 'AES-CBC', length: 100 }, ['encrypt']], ['HKDF', ['deriveBits']]]) {
      const p = { name: 'HKDF', hash: h, salt: bytes(4), info: bytes(0) };
      add(`HKDF ${h} deriveKey ${JSON.stringify(dt)}`, ['HKDF', h], (s, k) => s.subtle.deriveKey(p, k.HKDF, dt, true, usages), 'exact', null,
        h === 'SHA-256' && dt.name === 'AES-GCM' ? { alg: [0, 2], key: 1, usages: 4, args: (s, k) => [p, k.HKDF, dt, true, usages] } : null);
      const q = { name: 'PBKDF2', hash: h, salt: bytes(4), iterations: 10 };
      add(`PBKDF2 ${h} deriveKey ${JSON.stringify(dt)}`, ['PBKDF2', h], (s, k) => s.subtle.deriveKey(q, k.PBKDF2, dt, true, usages));
    }
  }
  for (const kdf of ['HKDF', 'PBKDF2']) {
    for (const f of ['raw', 'jwk', 'pkcs8']) {
      add(`${kdf} import ${f} extractable`, [kdf], (s) => s.subtle.importKey(f, f === 'jwk' ? { kty: 'oct', k: 'AAAA' } : bytes(8), kdf, true, ['deriveBits']));
      add(`${kdf} import ${f}`, [kdf], (s) => s.subtle.importKey(f, f === 'jwk' ? { kty: 'oct', k: 'AAAA' } : bytes(8), kdf, false, ['deriveBits']), 'exact', null,
        f === 'raw' ? { alg: 2, usages: 4, format: 0, args: () => ['raw', bytes(8), kdf, false, ['deriveBits']] } : null);
    }
    add(`${kdf} export`, [kdf], (s, k) => s.subtle.exportKey('raw', k[kdf]));
  }
  // ECDSA, ECDH
  for (const c of CURVES) {
    for (const h of HASHES) {
      add(`ECDSA ${c} ${h} sign/verify`, ['ECDSA', h], (s, k) => s.subtle.sign({ name: 'ECDSA', hash: h }, k[`ECDSA-${c}.priv`], bytes(70)), 'shape',
        (s, k, sig) => s.subtle.verify({ name: 'ECDSA', hash: h }, k[`ECDSA-${c}.pub`], sig, bytes(70)),
        h === 'SHA-256' && c === 'P-256' ? { alg: 0, key: 1, data: 2, args: (s, k) => [{ name: 'ECDSA', hash: h }, k[`ECDSA-${c}.priv`], bytes(70)] } : null);
    }
    add(`ECDSA ${c} verify bad length`, ['ECDSA'], (s, k) => s.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, k[`ECDSA-${c}.pub`], bytes(10), bytes(3)));
    add(`ECDSA ${c} verify zero`, ['ECDSA'], (s, k) => s.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, k[`ECDSA-${c}.pub`], new Uint8Array(c === 'P-521' ? 132 : c === 'P-384' ? 96 : 64), bytes(3)));
    for (const alg of ['ECDSA', 'ECDH']) {
      const id = alg === 'ECDSA' ? `ECDSA-${c}` : `ECDH-${c}`;
      for (const f of ['spki', 'jwk', 'raw']) add(`${alg} ${c} export public ${f}`, [alg], (s, k) => s.subtle.exportKey(f, k[`${id}.pub`]));
      for (const f of ['pkcs8', 'jwk', 'spki', 'raw']) add(`${alg} ${c} export private ${f}`, [alg], (s, k) => s.subtle.exportKey(f, k[`${id}.priv`]));
      add(`${alg} ${c} generateKey`, [alg], (s) => s.subtle.generateKey({ name: alg, namedCurve: c }, true, alg === 'ECDSA' ? ['sign', 'verify'] : ['deriveBits']), 'shape', null,
        c === 'P-256' ? { alg: 0, usages: 2, args: () => [{ name: alg, namedCurve: c }, true, alg === 'ECDSA' ? ['sign', 'verify'] : ['deriveBits']] } : null);
      add(`${alg} ${c} re-import spki as raw/jwk`, [alg], async (s, k) => {
        const pub = k[`${id}.pub`];
        const raw = await s.subtle.exportKey('raw', pub);
        const jwk = await s.subtle.exportKey('jwk', pub);
        const a = await s.subtle.importKey('raw', raw, { name: alg, namedCurve: c }, true, alg === 'ECDSA' ? ['verify'] : []);
        const b = await s.subtle.importKey('jwk', jwk, { name: alg, namedCurve: c }, true, alg === 'ECDSA' ? ['verify'] : []);
        return s.subtle.exportKey('spki', a === b ? a : b);
      });
      add(`${alg} ${c} import pkcs8`, [alg], (s) => s.subtle.importKey('pkcs8', material[`${id}`].pkcs8, { name: alg, namedCurve: c }, true, alg === 'ECDSA' ? ['sign'] : ['deriveBits']), 'exact', null,
        c === 'P-384' ? { alg: 2, usages: 4, format: 0, keyData: 1, args: () => ['pkcs8', material[`${id}`].pkcs8, { name: alg, namedCurve: c }, true, alg === 'ECDSA' ? ['sign'] : ['deriveBits']] } : null);
      add(`${alg} ${c} import spki with the wrong curve`, [alg], (s) => s.subtle.importKey('spki', material[`${id}`].spki, { name: alg, namedCurve: c === 'P-256' ? 'P-384' : 'P-256' }, true, []));
    }
    for (const len of [null, 128, 8, 7, 1000]) {
      add(`ECDH ${c} deriveBits ${len}`, ['ECDH'], (s, k) => s.subtle.deriveBits({ name: 'ECDH', public: k[`ECDH-${c}-peer.pub`] }, k[`ECDH-${c}.priv`], len), 'exact', null,
        len === 128 && c === 'P-256' ? { alg: 0, key: 1, args: (s, k) => [{ name: 'ECDH', public: k[`ECDH-${c}-peer.pub`] }, k[`ECDH-${c}.priv`], len] } : null);
    }
    add(`ECDH ${c} deriveKey AES`, ['ECDH'], (s, k) => s.subtle.deriveKey({ name: 'ECDH', public: k[`ECDH-${c}-peer.pub`] }, k[`ECDH-${c}.priv`], { name: 'AES-GCM', length: 128 }, true, ['encrypt']));
    // HKDF and PBKDF2 as derivedKeyType: "get key length" is null, so the
    // whole shared secret is derived and imported.
    for (const t of ['HKDF', 'PBKDF2']) {
      add(`ECDH ${c} deriveKey ${t}`, ['ECDH', t], (s, k) => s.subtle.deriveKey({ name: 'ECDH', public: k[`ECDH-${c}-peer.pub`] }, k[`ECDH-${c}.priv`], t, false, ['deriveBits']));
    }
    add(`ECDH ${c} public of another curve`, ['ECDH'], (s, k) => s.subtle.deriveBits({ name: 'ECDH', public: k[`ECDH-${c === 'P-256' ? 'P-384' : 'P-256'}-peer.pub`] }, k[`ECDH-${c}.priv`], 128));
    add(`ECDH ${c} public is an ECDSA key`, ['ECDH', 'ECDSA'], (s, k) => s.subtle.deriveBits({ name: 'ECDH', public: k[`ECDSA-${c}.pub`] }, k[`ECDH-${c}.priv`], 128));
    add(`ECDH ${c} public is a private key`, ['ECDH'], (s, k) => s.subtle.deriveBits({ name: 'ECDH', public: k[`ECDH-${c}-peer.priv`] }, k[`ECDH-${c}.priv`], 128));
  }
  // Ed25519, X25519
  add('Ed25519 sign', ['Ed25519'], (s, k) => s.subtle.sign('Ed25519', k['Ed25519.priv'], bytes(50)), 'exact', null,
    { alg: 0, key: 1, data: 2, args: (s, k) => ['Ed25519', k['Ed25519.priv'], bytes(50)] });
  add('Ed25519 verify', ['Ed25519'], async (s, k) => s.subtle.verify('Ed25519', k['Ed25519.pub'], await s.subtle.sign('Ed25519', k['Ed25519.priv'], bytes(5)), bytes(5)));
  add('Ed25519 verify bad length', ['Ed25519'], (s, k) => s.subtle.verify('Ed25519', k['Ed25519.pub'], bytes(63), bytes(5)));
  add('X25519 deriveBits', ['X25519'], (s, k) => s.subtle.deriveBits({ name: 'X25519', public: k['X25519-peer.pub'] }, k['X25519.priv'], 256), 'exact', null,
    { alg: 0, key: 1, args: (s, k) => [{ name: 'X25519', public: k['X25519-peer.pub'] }, k['X25519.priv'], 256] });
  for (const len of [null, 0, 8, 264]) add(`X25519 deriveBits ${len}`, ['X25519'], (s, k) => s.subtle.deriveBits({ name: 'X25519', public: k['X25519-peer.pub'] }, k['X25519.priv'], len));
  for (const alg of ['Ed25519', 'X25519']) {
    for (const f of ['spki', 'raw', 'jwk']) add(`${alg} export public ${f}`, [alg], (s, k) => s.subtle.exportKey(f, k[`${alg}.pub`]));
    for (const f of ['pkcs8', 'jwk', 'raw']) add(`${alg} export private ${f}`, [alg], (s, k) => s.subtle.exportKey(f, k[`${alg}.priv`]));
    add(`${alg} generateKey`, [alg], (s) => s.subtle.generateKey(alg, true, alg === 'Ed25519' ? ['sign', 'verify'] : ['deriveKey']), 'shape', null,
      { alg: 0, usages: 2, args: () => [alg, true, alg === 'Ed25519' ? ['sign', 'verify'] : ['deriveKey']] });
    add(`${alg} import raw public`, [alg], (s) => s.subtle.importKey('raw', bytes(32), alg, true, alg === 'Ed25519' ? ['verify'] : []), 'exact', null,
      { alg: 2, usages: 4, format: 0, keyData: 1, args: () => ['raw', bytes(32), alg, true, alg === 'Ed25519' ? ['verify'] : []] });
    add(`${alg} import pkcs8`, [alg], (s) => s.subtle.importKey('pkcs8', material[alg].pkcs8, alg, true, alg === 'Ed25519' ? ['sign'] : ['deriveBits']), 'exact', null,
      { alg: 2, usages: 4, format: 0, keyData: 1, args: () => ['pkcs8', material[alg].pkcs8, alg, true, alg === 'Ed25519' ? ['sign'] : ['deriveBits']] });
  }
  // RSA
  for (const h of HASHES) {
    add(`RSASSA-PKCS1-v1_5 ${h} sign`, ['RSASSA-PKCS1-v1_5', h], (s, k) => s.subtle.sign('RSASSA-PKCS1-v1_5', k[`RSASSA-PKCS1-v1_5-${h}.priv`], bytes(40)), 'exact', null,
      h === 'SHA-256' ? { alg: 0, key: 1, data: 2, args: (s, k) => ['RSASSA-PKCS1-v1_5', k[`RSASSA-PKCS1-v1_5-${h}.priv`], bytes(40)] } : null);
    for (const sl of [0, 20, 32, 64]) {
      add(`RSA-PSS ${h} saltLength ${sl}`, ['RSA-PSS', h], (s, k) => s.subtle.sign({ name: 'RSA-PSS', saltLength: sl }, k[`RSA-PSS-${h}.priv`], bytes(40)), sl === 0 ? 'exact' : 'shape',
        (s, k, sig) => s.subtle.verify({ name: 'RSA-PSS', saltLength: sl }, k[`RSA-PSS-${h}.pub`], sig, bytes(40)),
        h === 'SHA-256' && sl === 32 ? { alg: 0, key: 1, data: 2, args: (s, k) => [{ name: 'RSA-PSS', saltLength: sl }, k[`RSA-PSS-${h}.priv`], bytes(40)] } : null);
    }
    add(`RSA-PSS ${h} saltLength too large`, ['RSA-PSS', h], (s, k) => s.subtle.sign({ name: 'RSA-PSS', saltLength: 250 }, k[`RSA-PSS-${h}.priv`], bytes(40)));
    for (const label of [undefined, bytes(0), bytes(9)]) {
      add(`RSA-OAEP ${h} label ${label && label.length}`, ['RSA-OAEP', h], (s, k) => s.subtle.encrypt({ name: 'RSA-OAEP', label }, k[`RSA-OAEP-${h}.pub`], bytes(20)), 'shape',
        async (s, k, ct) => hex(await s.subtle.decrypt({ name: 'RSA-OAEP', label }, k[`RSA-OAEP-${h}.priv`], ct)) === hex(bytes(20)),
        h === 'SHA-256' && label === undefined ? { alg: 0, key: 1, data: 2, args: (s, k) => [{ name: 'RSA-OAEP', label }, k[`RSA-OAEP-${h}.pub`], bytes(20)] } : null);
    }
    add(`RSA-OAEP ${h} too long`, ['RSA-OAEP', h], (s, k) => s.subtle.encrypt('RSA-OAEP', k[`RSA-OAEP-${h}.pub`], bytes(250)));
    add(`RSA-OAEP ${h} decrypt garbage`, ['RSA-OAEP', h], (s, k) => s.subtle.decrypt('RSA-OAEP', k[`RSA-OAEP-${h}.priv`], bytes(256)));
    for (const [name] of RSA_ALGS) {
      for (const f of ['spki', 'jwk']) add(`${name} ${h} export public ${f}`, [name, h], (s, k) => s.subtle.exportKey(f, k[`${name}-${h}.pub`]));
      for (const f of ['pkcs8', 'jwk']) add(`${name} ${h} export private ${f}`, [name, h], (s, k) => s.subtle.exportKey(f, k[`${name}-${h}.priv`]));
    }
  }
  add('RSA-OAEP wrapKey jwk', ['RSA-OAEP'], (s, k) => s.subtle.wrapKey('raw', k['aes-export'], k['RSA-OAEP-SHA-256.pub'], 'RSA-OAEP'), 'shape',
    async (s, k, w) => (await s.subtle.unwrapKey('raw', w, k['RSA-OAEP-SHA-256.priv'], 'RSA-OAEP', 'AES-GCM', true, ['encrypt'])).type === 'secret');
  for (const [name, usages] of RSA_ALGS) {
    // An empty publicExponent is the BigInteger 0: generation fails (OperationError).
    add(`${name} generateKey 1024 e=empty`, [name], (s) => s.subtle.generateKey({ name, modulusLength: 1024, publicExponent: new Uint8Array(0), hash: 'SHA-256' }, true, usages));
    for (const ml of [1024, 1000, 256]) {
      for (const e of [[1, 0, 1], [3], [2]]) {
        const pub = usages.filter((u) => u === 'verify' || u === 'encrypt');
        add(`${name} generateKey ${ml} e=${e}`, [name], (s) => s.subtle.generateKey({ name, modulusLength: ml, publicExponent: new Uint8Array(e), hash: 'SHA-256' }, true, usages), 'shape', null,
          ml === 1024 && e.length === 3 && name !== 'RSA-PSS' ? { alg: 0, usages: 2, args: () => [{ name, modulusLength: ml, publicExponent: new Uint8Array(e), hash: 'SHA-256' }, true, pub.length ? usages : usages] } : null);
      }
    }
    add(`${name} import spki`, [name], (s) => s.subtle.importKey('spki', material.rsa.spki, { name, hash: 'SHA-384' }, true, usages.filter((u) => u === 'verify' || u === 'encrypt')), 'exact', null,
      name !== 'RSA-PSS' ? { alg: 2, usages: 4, format: 0, keyData: 1, args: () => ['spki', material.rsa.spki, { name, hash: 'SHA-384' }, true, usages.filter((u) => u === 'verify' || u === 'encrypt')] } : null);
  }
  // getRandomValues / randomUUID (the binding's answers are random: shapes)
  add('generateKey unknown algorithm', [], (s) => s.subtle.generateKey('Nope', true, ['sign']));
}

// ---- systematic malformed calls ------------------------------------------------

const WRONG_TYPES = [['undefined', undefined], ['null', null], ['number', 42], ['string', 'str'], ['object', {}], ['array', []], ['boolean', true]];
const WRONG_MEMBER = [['a string', 'x'], ['an object', {}], ['-1', -1], ['2^32', 2 ** 32], ['NaN', NaN], ['null', null], ['1.5', 1.5], ['true', true], ['a Uint8Array', new Uint8Array(16)]];

function malformedCalls() {
  const base = cases.filter((c) => c.mut);
  for (const c of base) {
    const m = c.mut;
    const idx = (x) => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
    const variant = (label, f, mode = c.mode === 'exact' ? 'exact' : 'shape', algs = c.algs) =>
      add(`${c.name} | ${label}`, algs, (s, k) => { const a = m.args(s, k); f(a, s, k); return fnOf(c, s)(...a); }, mode);
    // too few arguments
    variant('no arguments', (a) => a.splice(0));
    variant('one argument fewer', (a) => a.pop());
    for (const i of idx(m.alg)) {
      for (const [n, v] of WRONG_TYPES) variant(`algorithm[${i}] ${n}`, (a) => { a[i] = v; });
      variant(`algorithm[${i}] unknown name`, (a) => { a[i] = { name: 'NoSuchAlgorithm' }; });
      variant(`algorithm[${i}] name as a number`, (a) => { a[i] = { name: 1 }; });
      variant(`algorithm[${i}] name mixed case`, (a) => { const o = typeof a[i] === 'string' ? { name: a[i] } : { ...a[i] }; o.name = o.name.split('').map((ch, j) => (j % 2 ? ch.toLowerCase() : ch.toUpperCase())).join(''); a[i] = o; });
      variant(`algorithm[${i}] no name`, (a) => { const o = typeof a[i] === 'string' ? {} : { ...a[i] }; delete o.name; a[i] = o; });
      let probe;
      try { probe = m.args(NODE, null_keys)[i]; } catch { probe = undefined; /* fixture missing on this Node */ }
      if (probe && typeof probe === 'object') {
        for (const member of Object.keys(probe).filter((x) => x !== 'name')) {
          variant(`algorithm[${i}].${member} missing`, (a) => { const o = { ...a[i] }; delete o[member]; a[i] = o; });
          // an outputLength converted from another type (0, 1) needs a backend
          // that takes any length (params: requirements, see paramsSupported)
          const algs = member === 'outputLength'
            ? c.algs.map((x) => (/^params:/.test(x) ? x.replace(/"outputLength":\d+/, '"outputLength":8') : x)) : c.algs;
          for (const [n, v] of WRONG_MEMBER) variant(`algorithm[${i}].${member} ${n}`, (a) => { a[i] = { ...a[i], [member]: v }; }, undefined, algs);
          if (member === 'hash') {
            variant(`algorithm[${i}].hash unknown`, (a) => { a[i] = { ...a[i], hash: 'SHA-0' }; });
            variant(`algorithm[${i}].hash not a digest`, (a) => { a[i] = { ...a[i], hash: 'HMAC' }; });
            variant(`algorithm[${i}].hash dictionary lower case`, (a) => { a[i] = { ...a[i], hash: { name: a[i].hash.toLowerCase ? a[i].hash.toLowerCase() : a[i].hash } }; });
          }
          if (member === 'namedCurve') {
            variant(`algorithm[${i}].namedCurve lower case`, (a) => { a[i] = { ...a[i], namedCurve: a[i].namedCurve.toLowerCase() }; });
            variant(`algorithm[${i}].namedCurve P-192`, (a) => { a[i] = { ...a[i], namedCurve: 'P-192' }; });
          }
        }
      }
    }
    for (const i of idx(m.key)) {
      for (const [n, v] of WRONG_TYPES) variant(`key[${i}] ${n}`, (a) => { a[i] = v; });
      for (const other of ['hmac-SHA-256', 'AES-GCM-128', 'AES-CBC-128', 'AES-KW-128', 'HKDF', 'ECDSA-P-256.priv', 'ECDSA-P-256.pub', 'ECDH-P-256.priv', 'Ed25519.priv', 'X25519.pub', 'RSA-PSS-SHA-256.priv', 'RSA-OAEP-SHA-256.pub', 'aes-noextract']) {
        // the other key's algorithm: its fixture exists only where the backend has it
        const otherAlg = /^hmac-/.test(other) ? 'HMAC' : other === 'aes-noextract' ? 'AES-GCM'
          : other.replace(/(-SHA-\d+)?(-\d+)?(-P-\d+)?(\.priv|\.pub)?$/, '');
        variant(`key[${i}] is ${other}`, (a, s, k) => { a[i] = k[other]; }, undefined, [...c.algs, otherAlg]);
      }
    }
    for (const i of idx(m.data)) {
      for (const [n, v] of WRONG_TYPES) variant(`data[${i}] ${n}`, (a) => { a[i] = v; });
      variant(`data[${i}] Float64Array`, (a) => { a[i] = new Float64Array(2); });
      variant(`data[${i}] DataView`, (a) => { a[i] = new DataView(bytes(8).buffer); });
    }
    if (m.usages !== undefined) {
      const i = m.usages;
      for (const [n, v] of WRONG_TYPES) variant(`usages ${n}`, (a) => { a[i] = v; });
      variant('usages "sign" as a string', (a) => { a[i] = 'sign'; });
      variant('usages unknown', (a) => { a[i] = ['nope']; });
      variant('usages empty', (a) => { a[i] = []; });
      variant('usages repeated', (a) => { a[i] = [...a[i], ...a[i]]; });
      for (const u of ALL_USAGES) variant(`usages [${u}]`, (a) => { a[i] = [u]; });
      variant('not extractable', (a) => { a[i - 1] = false; });
    }
    if (m.format !== undefined) {
      const i = m.format;
      for (const f of [...FORMATS, 'RAW', 'nope', 1]) variant(`format ${f}`, (a) => { a[i] = f; });
    }
    if (m.keyData !== undefined) {
      const i = m.keyData;
      variant('keyData truncated', (a) => { a[i] = new Uint8Array(a[i]).slice(0, Math.max(0, (a[i].byteLength || 1) - 1)); });
      variant('keyData with a byte appended', (a) => { const u = new Uint8Array(a[i].byteLength + 1); u.set(new Uint8Array(a[i].buffer || a[i], a[i].byteOffset || 0, a[i].byteLength)); a[i] = u; });
      variant('keyData empty', (a) => { a[i] = new Uint8Array(0); });
      variant('keyData garbage', (a) => { a[i] = bytes(77); });
      variant('keyData a byte flipped', (a) => { const u = new Uint8Array(a[i]).slice(); u[Math.min(5, u.length - 1)] ^= 0x40; a[i] = u; });
      variant('keyData an object', (a) => { a[i] = { kty: 'oct' }; });
      variant('keyData a string', (a) => { a[i] = 'abc'; });
    }
  }
}
function fnOf(c, s) {
  // the base's method, from its name
  const op = c.mutOp;
  return s.subtle[op].bind(s.subtle);
}
const null_keys = new Proxy({}, { get: () => null });

// malformed JWKs, for each kind of key, in both directions of the mutation
function malformedJwks(material) {
  const base = [
    ['oct HMAC', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODw', alg: 'HS256' }, { name: 'HMAC', hash: 'SHA-256' }, ['sign']],
    ['oct AES-GCM', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODw', alg: 'A128GCM' }, 'AES-GCM', ['encrypt']],
    ['oct AES-KW', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODw', alg: 'A128KW' }, 'AES-KW', ['wrapKey']],
  ];
  const out = [];
  for (const [name, jwk, alg, usages] of base) {
    const muts = [['as is', {}], ['no kty', { kty: undefined }], ['kty RSA', { kty: 'RSA' }], ['kty number', { kty: 5 }], ['no k', { k: undefined }],
      ['k not base64url', { k: 'AA+/' }], ['k with padding', { k: `${jwk.k}==` }], ['wrong alg', { alg: 'A256GCM' }], ['alg HS512', { alg: 'HS512' }],
      ['use sig', { use: 'sig' }], ['use enc', { use: 'enc' }], ['ext false', { ext: false }], ['key_ops sign', { key_ops: ['sign'] }], ['key_ops all', { key_ops: ALL_USAGES }],
      ['key_ops repeated', { key_ops: ['sign', 'sign', 'encrypt', 'encrypt', 'wrapKey', 'wrapKey'] }], ['key_ops unknown', { key_ops: ['nope'] }], ['key_ops not a list', { key_ops: 'sign' }], ['extra member', { foo: 1 }]];
    for (const [mn, patch] of muts) {
      const j = { ...jwk };
      for (const [k2, v] of Object.entries(patch)) { if (v === undefined) delete j[k2]; else j[k2] = v; }
      out.push([`importKey jwk ${name} ${mn}`, j, alg, usages]);
    }
  }
  for (const [name, id, alg, usages] of [['EC P-256 private', 'ECDSA-P-256', { name: 'ECDSA', namedCurve: 'P-256' }, ['sign']], ['Ed25519 private', 'Ed25519', 'Ed25519', ['sign']], ['X25519 private', 'X25519', 'X25519', ['deriveBits']], ['RSA private', 'rsa', { name: 'RSA-PSS', hash: 'SHA-256' }, ['sign']]]) {
    out.push([`importKey jwk ${name}`, async () => jwkOf(material[id]), alg, usages]);
    const members = { 'EC P-256 private': ['crv', 'x', 'y', 'd'], 'Ed25519 private': ['crv', 'x', 'd'], 'X25519 private': ['crv', 'x', 'd'], 'RSA private': ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'] }[name];
    for (const mb of members) {
      out.push([`importKey jwk ${name} without ${mb}`, async () => { const j = await jwkOf(material[id]); delete j[mb]; return j; }, alg, usages]);
      out.push([`importKey jwk ${name} ${mb} corrupt`, async () => { const j = await jwkOf(material[id]); j[mb] = mb === 'crv' ? 'P-384' : `${j[mb].slice(0, -4)}AAAA`; return j; }, alg, usages]);
    }
    out.push([`importKey jwk ${name} public only, private usage`, async () => { const j = await jwkOf(material[id]); delete j.d; return j; }, alg, usages]);
  }
  for (const [label, jwk, alg, usages] of out) {
    add(label, [typeof alg === 'string' ? alg : alg.name], async (s) => s.subtle.importKey('jwk', typeof jwk === 'function' ? await jwk() : jwk, alg, true, usages));
  }
}
const jwkCache = new Map();
async function jwkOf(m) {
  if (!jwkCache.has(m)) {
    const alg = m.gen || { name: 'RSA-PSS', hash: 'SHA-256' };
    const k = await NODE.subtle.importKey('pkcs8', m.pkcs8, alg, true, alg.name === 'ECDH' || alg.name === 'X25519' ? ['deriveBits'] : ['sign']);
    jwkCache.set(m, await NODE.subtle.exportKey('jwk', k));
  }
  return { ...jwkCache.get(m) };
}

// ---- known differences ------------------------------------------------------------

// [name pattern, node majors (empty: all), why]. bindings/node/README.md
// lists the same with the spec's text.
const KNOWN = require('./known_differences.js');

// Calls a Node cannot be given at all: they abort its process. Whether this
// Node does is probed once, in a child process running `probe` (the official
// Node 18.20.4 aborts; Debian's 18.20.4+dfsg does not). Where it aborts, the
// call goes to the binding alone, whose answer must be the spec's (`expect`),
// and is counted apart; where it does not, the call is compared as usual.
// README lists them.
const NODE_ABORTS = [
  { id: 'node18-pss-salt-abort', nodes: [18], match: /^RSA-PSS SHA-\d+ saltLength too large$/, expect: 'OperationError',
    probe: `const s = require('crypto').webcrypto.subtle;
      s.generateKey({ name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-1' }, true, ['sign'])
        .then((k) => s.sign({ name: 'RSA-PSS', saltLength: 250 }, k.privateKey, new Uint8Array(40))).catch(() => {});`,
    why: 'this Node aborts (V8 "Entering the V8 API without proper locking": its SignTraits::DeriveBits makes a JS error on the thread-pool thread where RSA-PSS signing failed); the spec (RSA-PSS sign): "If performing the operation results in an error, then throw an OperationError" (EMSA-PSS: emLen < hLen + sLen + 2)' },
];
const abortProbes = new Map();
function nodeAborts(k) {
  if (!abortProbes.has(k.id)) {
    const r = require('child_process').spawnSync(process.execPath, ['-e', k.probe], { encoding: 'utf8', timeout: 60000 });
    const aborted = r.signal !== null || r.status === 128 + 5 || r.status === 128 + 6;
    console.log(`probe [${k.id}]: node ${process.version} ${aborted ? `aborts (${r.signal || `exit ${r.status}`}): its calls go to the binding alone` : 'does not abort: its calls are compared as usual'}`);
    abortProbes.set(k.id, aborted);
  }
  return abortProbes.get(k.id);
}
const abortsFor = (name) => NODE_ABORTS.find((k) => k.match.test(name) && k.nodes.includes(nodeMajor) && nodeAborts(k));

function knownFor(name, major = nodeMajor) {
  return KNOWN.find((k) => k.match.test(name) && (!k.nodes || k.nodes.includes(major)) &&
    (!k.backends || k.backends.includes(backend) || k.backends.includes(backend.split(':')[0])));
}

// ---- the run --------------------------------------------------------------------------

async function main() {
  // Node 20 has no webcrypto.CryptoKey export: the class of a key it made.
  const probe = await NODE.subtle.importKey('raw', bytes(16), 'AES-GCM', false, ['encrypt']);
  NODE.CryptoKey = Object.getPrototypeOf(probe).constructor;
  NODE.S = Object.getPrototypeOf(NODE.subtle).constructor;
  LIB.S = mine.SubtleCrypto;
  // The 0.3 algorithms and operations this Node lacks: their calls go to
  // the binding alone, against Node 24's recorded outcomes.
  const nodeHasNew = await modern.nodeHas(NODE.subtle, NODE.S, bytes);
  for (const a of [...modern.NEW_ALGS, ...modern.PSEUDO]) if (!nodeHasNew.has(a)) nodeLacks.add(a);
  const { ctx, material } = await fixtures();
  validCalls(material);
  modern.modernCalls(add, bytes, hex, new Set(lib.algorithms().map((a) => a.name)));
  for (const c of cases) if (c.mut) c.mutOp = opOf(c);
  malformedCalls();
  malformedJwks(material);
  const nodeAlgs = new Set();
  // What Node has: probe each name with digest/generate/import errors.
  let pass = 0, known = 0, skipped = 0, replayed = 0;
  const failures = [];
  // Node 24's outcomes of the 0.3 calls, recorded by
  //   WEBCRYPTO_DIFF_RECORD=1 node24 differential.js BACKEND  (openssl, jca, jca:BC)
  // (each run merges the calls its backend has). On a Node without these
  // algorithms the binding's outcome must equal the recorded one (or be a
  // known difference for Node 24); on Node 24 the live outcome must still
  // equal it, so the file cannot go stale.
  const RECORD_FILE = path.join(__dirname, 'node24_outcomes.json');
  const recording = process.env.WEBCRYPTO_DIFF_RECORD === '1';
  let recorded = {};
  try { recorded = JSON.parse(fs.readFileSync(RECORD_FILE, 'utf8')); } catch { /* none yet */ }
  const isModern = (c) => c.algs.some((x) => modern.NEW_ALGS.includes(x) || modern.PSEUDO.includes(x));
  const summary = (o) => JSON.stringify(o.err ? { err: o.err } : o.sync ? { sync: o.sync } : { ok: o.ok });
  const skippedAlgs = new Map();
  const notToNode = new Map();
  for (const c of cases) {
    const missing = c.algs.filter((a) => !libSupports(a));
    const nodeMissing = c.algs.filter((a) => nodeLacks.has(a));
    if (!missing.length && nodeMissing.length && isModern(c) && recorded[c.name] !== undefined) {
      const want = JSON.stringify(recorded[c.name]);
      // the binding alone, against Node 24's recorded outcome
      const b = await outcome(LIB, ctx, c);
      replayed++;
      let diff = null;
      if (b.sync) diff = `the binding ${b.sync}`;
      else if (summary(b) !== want) diff = `node 24 (recorded): ${want}; binding: ${show(b)}`;
      else if (c.cross && !b.err) {
        const x = await c.cross(LIB, ctx[LIB.name], b.value).catch((e) => `error ${e.name}`);
        if (x !== true) diff = `the binding does not accept its own output (${x})`;
      }
      if (!diff) { pass++; continue; }
      const k = knownFor(c.name, 24);
      if (k) {
        known++;
        console.log(`known difference [${k.id}] (against node 24's recorded outcome): ${c.name}: ${diff.split('\n')[0]}`);
      } else {
        failures.push(`${c.name} (node ${process.version} lacks ${nodeMissing.join(',')}: against node 24's recorded outcome)\n      ${diff}`);
      }
      continue;
    }
    if (missing.length || nodeMissing.length) {
      const why = missing.length ? `the ${backend} backend lacks ${missing.join(',')}`
        : `node ${process.version} lacks ${nodeMissing.join(',')}${isModern(c) ? ' and no Node 24 outcome is recorded for the call' : ''}`;
      skipped++;
      skippedAlgs.set(why, (skippedAlgs.get(why) || 0) + 1);
      continue;
    }
    if (process.env.WEBCRYPTO_DIFF_TRACE) process.stderr.write(`call: ${c.name}\n`);
    const aborts = abortsFor(c.name);
    if (aborts) {
      const b = await outcome(LIB, ctx, c);
      notToNode.set(aborts.id, (notToNode.get(aborts.id) || 0) + 1);
      if (b.err !== aborts.expect) failures.push(`${c.name} (not made to node ${process.version}: ${aborts.id})\n      binding: ${show(b)}; the spec: ${aborts.expect}`);
      continue;
    }
    const a = await outcome(NODE, ctx, c);
    const b = await outcome(LIB, ctx, c);
    if (isModern(c) && nodeMajor === 24 && !a.sync) {
      if (recording) recorded[c.name] = JSON.parse(summary(a));
      else if (recorded[c.name] !== undefined && JSON.stringify(recorded[c.name]) !== summary(a)) {
        failures.push(`${c.name}: node 24 answers ${summary(a)}, but node24_outcomes.json has ${JSON.stringify(recorded[c.name])} (re-record: WEBCRYPTO_DIFF_RECORD=1)`);
      }
    }
    let diff = null;
    if (b.sync) diff = `the binding ${b.sync}`;
    else if (a.err || b.err) {
      if (a.err !== b.err) diff = `node: ${show(a)}; binding: ${show(b)}`;
    } else if (JSON.stringify(a.ok) !== JSON.stringify(b.ok)) {
      diff = `node: ${show(a)}\n      binding: ${show(b)}`;
    } else if (c.cross) {
      const x = await c.cross(LIB, ctx[LIB.name], a.value).catch((e) => `error ${e.name}`);
      const y = await c.cross(NODE, ctx[NODE.name], b.value).catch((e) => `error ${e.name}`);
      if (x !== true) diff = `the binding does not accept Node's output (${x})`;
      else if (y !== true) diff = `Node does not accept the binding's output (${y})`;
    }
    if (!diff) { pass++; continue; }
    const k = knownFor(c.name);
    if (k) {
      known++;
      console.log(`known difference [${k.id}]: ${c.name}: ${diff.split('\n')[0]}`);
    } else {
      failures.push(`${c.name}\n      ${diff}`);
    }
  }
  // The binding alone (binding_alone.js): the checks with no outcome of
  // Node's to compare with.
  const own = await bindingAlone({ LIB, NODE, mine, ctx, bytes, libSupports, lib });
  failures.push(...own.map((o) => `binding: ${o}`));
  for (const [why, n] of skippedAlgs) console.log(`skipped: ${n} calls: ${why}`);
  // The library's table may have algorithms no call here covers yet (they
  // are added as Node's side is written): say which, so that none passes
  // for compared.
  const called = new Set(cases.flatMap((c) => c.algs));
  const NOT_IN_NODE = { 'AES-GCM-SIV': 'in no WebCrypto spec or draft, so in no Node (the C tests cover it)' };
  const uncovered = lib.algorithms().map((a) => a.name || a).filter((n) => !called.has(n));
  for (const n of uncovered) {
    console.log(`not compared: ${n}: ${NOT_IN_NODE[n] || 'no calls in this test'}`);
    if (!NOT_IN_NODE[n]) failures.push(`${n}: the library's table has it, and no call here covers it`);
  }
  const lacking = [...nodeLacks].filter((x) => called.has(x));
  if (lacking.length) console.log(`node ${process.version} lacks ${lacking.join(', ')}: ${replayed} of their calls went to the binding alone, checked against Node 24's recorded outcomes (node24_outcomes.json)`);
  if (recording) {
    const sorted = Object.fromEntries(Object.keys(recorded).sort().map((x) => [x, recorded[x]]));
    fs.writeFileSync(RECORD_FILE, `{\n${Object.entries(sorted).map(([x, v]) => `${JSON.stringify(x)}: ${JSON.stringify(v)}`).join(',\n')}\n}\n`);
    console.log(`recorded: ${Object.keys(recorded).length} outcomes in ${RECORD_FILE}`);
  }
  for (const [id, n] of notToNode) console.log(`not made to node ${process.version}: ${n} calls [${id}]: ${NODE_ABORTS.find((k) => k.id === id).why}; the binding alone answered ${NODE_ABORTS.find((k) => k.id === id).expect}, unless listed below`);
  for (const f of failures) console.log(`FAIL - ${f}`);
  console.log(`node ${process.version}, backend ${backend}: ${cases.length} calls, ${pass} agree, ${failures.length} differ, ${known} known differences, ${skipped} skipped, ${replayed} against node 24's recorded outcomes, ${[...notToNode.values()].reduce((x, y) => x + y, 0)} to the binding alone (node aborts on them)`);
  process.exitCode = failures.length ? 1 : 0;
}
function opOf(c) {
  const src = c.mut.args.toString();
  // the base call's method is its run's: read it from run's source once
  const m = /s\.subtle\.(\w+)\(/.exec(c.run.toString());
  return m ? m[1] : src;
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
