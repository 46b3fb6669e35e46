'use strict';
/*
 * node_peer.js - the JavaScript side of the interop test: Node's own
 * crypto.subtle, or libwebcrypto's Node binding (bindings/node/) on a backend.
 *
 *   node node_peer.js [--binding BACKEND] produce DIR/node.json
 *                          phase 1: the JS side's keys, signatures,
 *                          ciphertexts, secrets, wrapped keys
 *   node node_peer.js [--binding BACKEND] consume DIR/c.json DIR/node.json
 *                          phase 2: check what the C peer wrote
 *
 * Without --binding the subtle implementation is Node's (crypto.webcrypto);
 * with it, require('bindings/node/index.js').withBackend(BACKEND).crypto
 * (the addon: $WEBCRYPTO_NODE_ADDON, as index.js finds it). The same code
 * drives either. Its check lines say "node: " or "binding: ".
 *
 * Both peers write and read the same manifest (see README.md beside this
 * file): keys in every format, then operations whose results the other side
 * checks with its own implementation. Each check prints one line; the last
 * line is "<side>: N passed, N failed, N skipped". Exit status 1 if a check failed.
 */
const fs = require('fs');
const path = require('path');

/* The implementation under test: SIDE names it on every line, IMPL in
 * reasons and in the manifest's "producer". */
let argv = process.argv.slice(2);
let SIDE = 'node', IMPL = `node ${process.version}`, impl, binding = null, bindingBackend;
if (argv[0] === '--binding') {
  bindingBackend = argv[1];
  argv = argv.slice(2);
  binding = require(path.join(__dirname, '..', '..', 'bindings', 'node', 'index.js'));
  impl = binding.withBackend(bindingBackend).crypto;
  SIDE = 'binding';
  IMPL = `the binding on ${bindingBackend} (node ${process.version})`;
} else {
  impl = require('crypto').webcrypto;
}
const subtle = impl.subtle;
/* Whether the binding's backend has an algorithm (the library's own list:
 * withBackend's support); undefined for Node's crypto.subtle, which is probed. */
const listed = (name) => (binding ? binding.supports(bindingBackend, name) : undefined);
const HAS_NO = (name) => (binding ? `${IMPL} has no ${name}` : `this Node's crypto.subtle has no ${name}`);

let passed = 0, failed = 0, skipped = 0;
const pass = (name) => { passed++; console.log(`ok   - ${SIDE}: ${name}`); };
const fail = (name, why) => { failed++; console.log(`FAIL - ${SIDE}: ${name}${why ? ` (${why})` : ''}`); };
const skip = (name, why) => { skipped++; console.log(`skip - ${SIDE}: ${name} (${why})`); };

const hex = (b) => Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString('hex');
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const errName = (e) => (e && e.name ? `${e.name}: ${e.message}` : String(e));

/* One check: fn returns true (pass), false or a string (fail with that reason), or throws. */
async function check(name, fn) {
  try {
    const r = await fn();
    if (r === true) pass(name); else fail(name, typeof r === 'string' ? r : 'mismatch');
  } catch (e) {
    fail(name, errName(e));
  }
}
/* A check that the promise rejects with an error of the given name. */
async function checkRejects(name, errorName, fn) {
  try {
    await fn();
    fail(name, `no error, want ${errorName}`);
  } catch (e) {
    if (e && e.name === errorName) pass(name); else fail(name, `got ${errName(e)}, want ${errorName}`);
  }
}

/* Making something for the C peer: fn's result, or, if it throws, a failed
 * check "make WHAT" and undefined (the rest is still made and checked). */
async function made(what, fn) {
  try {
    return await fn();
  } catch (e) {
    fail(`make ${what}`, errName(e));
    return undefined;
  }
}

const SIGN = new Set(['RSASSA-PKCS1-v1_5', 'RSA-PSS', 'ECDSA', 'Ed25519', 'Ed448']);
function usagesFor(name, priv) {
  if (SIGN.has(name)) return priv ? ['sign'] : ['verify'];
  if (name === 'RSA-OAEP') return priv ? ['decrypt', 'unwrapKey'] : ['encrypt', 'wrapKey'];
  return priv ? ['deriveBits', 'deriveKey'] : []; /* ECDH, X25519, X448 */
}
/* The import form of a generation algorithm (modulusLength etc. dropped). */
function importAlg(alg) {
  if (alg.hash) return { name: alg.name, hash: alg.hash };
  if (alg.namedCurve) return { name: alg.name, namedCurve: alg.namedCurve };
  return { name: alg.name };
}
const hasRaw = (name) => !name.startsWith('RSA');
const sorted = (a) => [...a].sort().join(',');

/* The JWK "alg" the spec's export writes, for the algorithms whose keys a
 * peer may spell otherwise: Ed25519's is "Ed25519" (import also takes the
 * older "EdDSA", which Node 18 still writes). Absent: compared as is. */
const SPEC_JWK_ALG = { Ed25519: 'Ed25519', Ed448: 'Ed448' };

/* This Node's JWK (own) against the peer's, as JSON values: every member,
 * key_ops as a set, "alg" last and, where the spec fixes it, each side
 * against the spec (so a difference names the side that departs from it). */
function jwkDiff(own, peer, algName) {
  const keys = new Set([...Object.keys(own), ...Object.keys(peer)]);
  keys.delete('alg');
  for (const k of keys) {
    if (k === 'key_ops') {
      if (!Array.isArray(own[k]) || !Array.isArray(peer[k]) || sorted(own[k]) !== sorted(peer[k]))
        return `jwk key_ops ${JSON.stringify(own[k])} vs ${JSON.stringify(peer[k])}`;
    } else if (JSON.stringify(own[k]) !== JSON.stringify(peer[k])) {
      return `jwk member ${k}: ${JSON.stringify(own[k])} vs ${JSON.stringify(peer[k])}`;
    }
  }
  const spec = SPEC_JWK_ALG[algName];
  if (spec !== undefined && own.alg !== spec) return `this Node's JWK has alg ${JSON.stringify(own.alg)}; the spec writes "${spec}"`;
  if (spec !== undefined && peer.alg !== spec) return `the peer's JWK has alg ${JSON.stringify(peer.alg)}; the spec writes "${spec}"`;
  if (spec === undefined && own.alg !== peer.alg) return `jwk member alg: ${JSON.stringify(own.alg)} vs ${JSON.stringify(peer.alg)}`;
  return true;
}
const sameHex = (buf, h) => (hex(buf) === h ? true : `got ${hex(buf).slice(0, 40)}..., want ${h.slice(0, 40)}...`);
/* Derived bits compared as the spec defines them: a byte sequence holding
 * the first `length` bits, so those agree and the bits past them in the last
 * byte are zero, in this Node's result and in the peer's. */
function sameBits(own, peerHex, length) {
  const mine = new Uint8Array(own), theirs = unhex(peerHex);
  if (length === null || length % 8 === 0) return sameHex(mine, peerHex);
  if (mine.length !== theirs.length) return `${mine.length} bytes, the peer's ${theirs.length}`;
  const tail = 0xff >> (length % 8), n = mine.length;
  for (let i = 0; i < n; i++)
    if ((mine[i] ^ theirs[i]) & (i === n - 1 ? ~tail & 0xff : 0xff)) return 'secrets differ';
  if (mine[n - 1] & tail) return `this Node's result sets bits past the length ${length} (the spec zeroes them)`;
  if (theirs[n - 1] & tail) return `the peer's result sets bits past the length ${length} (the spec zeroes them)`;
  return true;
}

/* ---------------------------------------------------------------- what is made */

const DATA = new Uint8Array(Buffer.concat([Buffer.from('libwebcrypto interop: '), impl.getRandomValues(Buffer.alloc(1000))]));
const E65537 = new Uint8Array([1, 0, 1]);
const RSA = (name, hash, bits, e, extra) => ({ alg: { name, hash, modulusLength: bits, publicExponent: e || E65537 }, ...extra });

/* Key pairs: id, generation algorithm, and what to do with them. */
const CATALOG = [
  { id: 'RSASSA-SHA-256', ...RSA('RSASSA-PKCS1-v1_5', 'SHA-256', 2048), sign: [{}] },
  { id: 'RSASSA-SHA-1', ...RSA('RSASSA-PKCS1-v1_5', 'SHA-1', 1024), sign: [{}] },
  { id: 'RSASSA-SHA-512', ...RSA('RSASSA-PKCS1-v1_5', 'SHA-512', 2048), sign: [{}] },
  { id: 'RSA-PSS-SHA-256', ...RSA('RSA-PSS', 'SHA-256', 2048), sign: [{ saltLength: 32 }, { saltLength: 0 }] },
  { id: 'RSA-PSS-SHA-384', ...RSA('RSA-PSS', 'SHA-384', 3072), sign: [{ saltLength: 48 }, { saltLength: 20 }] },
  { id: 'RSA-OAEP-SHA-256', ...RSA('RSA-OAEP', 'SHA-256', 2048), encrypt: [{}, { label: '6c6162656c' }] },
  { id: 'RSA-OAEP-SHA-1-e3', ...RSA('RSA-OAEP', 'SHA-1', 2048, new Uint8Array([3])), encrypt: [{}, { label: '00ff' }] },
  { id: 'ECDSA-P-256', alg: { name: 'ECDSA', namedCurve: 'P-256' }, sign: [{ hash: 'SHA-256' }, { hash: 'SHA-384' }, { hash: 'SHA-1' }] },
  { id: 'ECDSA-P-384', alg: { name: 'ECDSA', namedCurve: 'P-384' }, sign: [{ hash: 'SHA-384' }, { hash: 'SHA-256' }, { hash: 'SHA-512' }] },
  { id: 'ECDSA-P-521', alg: { name: 'ECDSA', namedCurve: 'P-521' }, sign: [{ hash: 'SHA-512' }, { hash: 'SHA-256' }] },
  { id: 'Ed25519', alg: { name: 'Ed25519' }, sign: [{}] },
  { id: 'ECDH-P-256-A', alg: { name: 'ECDH', namedCurve: 'P-256' } },
  { id: 'ECDH-P-256-B', alg: { name: 'ECDH', namedCurve: 'P-256' } },
  { id: 'ECDH-P-384-A', alg: { name: 'ECDH', namedCurve: 'P-384' } },
  { id: 'ECDH-P-384-B', alg: { name: 'ECDH', namedCurve: 'P-384' } },
  { id: 'ECDH-P-521-A', alg: { name: 'ECDH', namedCurve: 'P-521' } },
  { id: 'ECDH-P-521-B', alg: { name: 'ECDH', namedCurve: 'P-521' } },
  { id: 'X25519-A', alg: { name: 'X25519' } },
  { id: 'X25519-B', alg: { name: 'X25519' } },
  /* Secure Curves draft (Node 20 and 24 have both). Ed448 without a context:
   * Node 20 and OpenSSL 3.0 (the openssl backend) take none. */
  { id: 'Ed448', alg: { name: 'Ed448' }, sign: [{}] },
  { id: 'X448-A', alg: { name: 'X448' } },
  { id: 'X448-B', alg: { name: 'X448' } },
];
/* Secrets: DH(a's private key, b's public key); length null is the whole secret. */
const DERIVES = [
  ['ECDH-P-256-A', 'ECDH-P-256-B', null], ['ECDH-P-256-A', 'ECDH-P-256-B', 128],
  ['ECDH-P-384-A', 'ECDH-P-384-B', null], ['ECDH-P-521-A', 'ECDH-P-521-B', null],
  ['ECDH-P-521-A', 'ECDH-P-521-B', 512], ['ECDH-P-521-A', 'ECDH-P-521-B', 521], ['X25519-A', 'X25519-B', null], ['X25519-A', 'X25519-B', 64],
  ['X448-A', 'X448-B', null], ['X448-A', 'X448-B', 200],
];

/* Which asymmetric algorithms the JS side has: the binding's backend lists
 * them; Node's crypto.subtle is probed (Node 18 lacks some). */
async function probe() {
  const have = new Set();
  if (binding) {
    for (const name of ['RSASSA-PKCS1-v1_5', 'RSA-PSS', 'RSA-OAEP', 'ECDSA', 'ECDH', 'Ed25519', 'X25519', 'Ed448', 'X448'])
      if (listed(name)) have.add(name);
    return have;
  }
  const tries = {
    'RSASSA-PKCS1-v1_5': null, 'RSA-PSS': null, 'RSA-OAEP': null,
    ECDSA: [{ name: 'ECDSA', namedCurve: 'P-256' }, ['sign', 'verify']],
    ECDH: [{ name: 'ECDH', namedCurve: 'P-256' }, ['deriveBits']],
    Ed25519: [{ name: 'Ed25519' }, ['sign', 'verify']],
    X25519: [{ name: 'X25519' }, ['deriveBits']],
    Ed448: [{ name: 'Ed448' }, ['sign', 'verify']],
    X448: [{ name: 'X448' }, ['deriveBits']],
  };
  for (const [name, t] of Object.entries(tries)) {
    if (!t) { have.add(name); continue; } /* RSA: in every Node with crypto.subtle */
    try { await subtle.generateKey(t[0], true, t[1]); have.add(name); } catch (e) { /* absent */ }
  }
  return have;
}

async function exportAll(pair, name) {
  const k = {
    spki: hex(await subtle.exportKey('spki', pair.publicKey)),
    pkcs8: hex(await subtle.exportKey('pkcs8', pair.privateKey)),
    jwkPub: await subtle.exportKey('jwk', pair.publicKey),
    jwkPriv: await subtle.exportKey('jwk', pair.privateKey),
  };
  if (hasRaw(name)) k.raw = hex(await subtle.exportKey('raw', pair.publicKey));
  return k;
}

function signParams(alg, p) {
  const r = { name: alg.name };
  if (p.hash) r.hash = p.hash;
  if (p.saltLength !== undefined) r.saltLength = p.saltLength;
  return r;
}

async function produce(outFile) {
  const have = await probe();
  const m = { producer: IMPL, data: hex(DATA), keys: {}, ops: [] };
  const pairs = {};
  for (const e of CATALOG) {
    if (!have.has(e.alg.name)) { skip(`generate ${e.id}`, HAS_NO(e.alg.name)); continue; }
    const gen = () => subtle.generateKey(e.alg, true, [...usagesFor(e.alg.name, true), ...usagesFor(e.alg.name, false)]);
    const id = `node-${e.id}`;
    const pair = await made(`generate and export ${id}`, async () => {
      let pair = await gen();
      /* The 521-bit secret below must show whether the C peer zeroes the 7
       * bits past its length: a new B while the full secret has them all clear
       * (once in 128). */
      const tail = async (p) => new Uint8Array(await subtle.deriveBits({ name: 'ECDH', public: p.publicKey }, pairs['ECDH-P-521-A'].privateKey, null))[65] & 0x7f;
      while (e.id === 'ECDH-P-521-B' && pairs['ECDH-P-521-A'] && (await tail(pair)) === 0)
        pair = await gen();
      const alg = { ...e.alg };
      if (alg.publicExponent) alg.publicExponent = hex(alg.publicExponent);
      m.keys[id] = { alg, ...(await exportAll(pair, e.alg.name)) };
      return pair;
    });
    if (!pair) continue;
    pairs[e.id] = pair;
    for (const p of e.sign || []) {
      const params = signParams(e.alg, p);
      await made(`sign ${id} ${JSON.stringify(params)}`, async () =>
        m.ops.push({ op: 'sign', key: id, params, sig: hex(await subtle.sign(params, pair.privateKey, DATA)) }));
    }
    for (const p of e.encrypt || []) {
      const params = { name: 'RSA-OAEP' };
      if (p.label !== undefined) params.label = unhex(p.label);
      /* OAEP takes at most k - 2 * hLen - 2 bytes: 100 fit every key here */
      await made(`encrypt RSA-OAEP ${id}${p.label !== undefined ? ` label ${p.label}` : ''}`, async () =>
        m.ops.push({ op: 'encrypt', key: id, params: { name: 'RSA-OAEP', ...(p.label !== undefined ? { label: p.label } : {}) },
                     dataLength: 100, ct: hex(await subtle.encrypt(params, pair.publicKey, DATA.subarray(0, 100))) }));
    }
  }
  for (const [a, b, length] of DERIVES) {
    if (!pairs[a] || !pairs[b]) continue;
    const alg = pairs[a].privateKey.algorithm;
    await made(`deriveBits node-${a} x node-${b}${length === null ? '' : ` (${length} bits)`}`, async () => {
      const bits = await subtle.deriveBits({ name: alg.name, public: pairs[b].publicKey }, pairs[a].privateKey, length);
      m.ops.push({ op: 'derive', a: `node-${a}`, b: `node-${b}`, length, bits: hex(bits) });
    });
  }
  await made('AES, HMAC and wrapped keys', () => produceSecret(m, pairs));
  await made('SHA-3, cSHAKE and KMAC', () => produceSha3Kmac(m, pairs));
  await made('ChaCha20-Poly1305, AES-OCB and Argon2', () => produceModernCipher(m));
  fs.writeFileSync(outFile, JSON.stringify(m, null, 1));
  pass(`wrote ${Object.keys(m.keys).length} key pairs and ${m.ops.length} operations for the C peer`);
}

/* "Modern Algorithms in the Web Cryptography API": ChaCha20-Poly1305 and
 * AES-OCB ("modern-cipher": the key as raw-secret bytes, the ciphertext
 * byte-equal both ways) and Argon2 ("argon2": password, parameters, bits).
 * A Node without one skips it, saying so. Node 24 imports these keys from
 * "raw-secret" only (the draft's format), not "raw". */
async function hasModern(name) {
  if (binding) return listed(name);
  const tries = {
    'ChaCha20-Poly1305': [new Uint8Array(32), ['encrypt']],
    'AES-OCB': [new Uint8Array(16), ['encrypt']],
    Argon2d: [new Uint8Array(8), ['deriveBits']],
    Argon2i: [new Uint8Array(8), ['deriveBits']],
    Argon2id: [new Uint8Array(8), ['deriveBits']],
  };
  try {
    await subtle.importKey('raw-secret', tries[name][0], name, false, tries[name][1]);
    return true;
  } catch (e) {
    return false;
  }
}

const MODERN_CIPHERS = [
  { name: 'ChaCha20-Poly1305', bits: 256, p: { iv: '0c0d0e0f1011121314151617', additionalData: '00', tagLength: 128 } },
  { name: 'ChaCha20-Poly1305', bits: 256, p: { iv: 'ffffffffffffffffffffffff' }, len: 1 },
  { name: 'AES-OCB', bits: 256, p: { iv: '000102030405060708090a0b0c0d0e', additionalData: 'deadbeef' } },
  { name: 'AES-OCB', bits: 128, p: { iv: '01', tagLength: 64 }, len: 31 },
  { name: 'AES-OCB', bits: 192, p: { iv: 'bbaa9988776655443322', tagLength: 96 } },
];
const MODERN_ARGON2 = [
  { name: 'Argon2id', length: 256, p: { parallelism: 4, memory: 32, passes: 3, secretValue: '0303030303030303', associatedData: '040404040404040404040404' } },
  { name: 'Argon2i', length: 384, p: { parallelism: 1, memory: 8, passes: 1 } },
  { name: 'Argon2d', length: 32, p: { parallelism: 2, memory: 40, passes: 2, associatedData: 'ab' } },
];

async function produceModernCipher(m) {
  for (const c of MODERN_CIPHERS) {
    if (!(await hasModern(c.name))) { skip(`encrypt ${c.name} for the C peer`, HAS_NO(c.name)); continue; }
    await made(`encrypt ${c.name}-${c.bits} ${JSON.stringify(c.p)}`, async () => {
      const key = await subtle.generateKey(c.name === 'AES-OCB' ? { name: c.name, length: c.bits } : { name: c.name }, true, ['encrypt', 'decrypt']);
      const params = { name: c.name, ...fromHexParams(c.p) };
      const data = DATA.subarray(0, c.len || DATA.length);
      m.ops.push({ op: 'modern-cipher', params: { name: c.name, ...c.p }, key: hex(await subtle.exportKey('raw-secret', key)),
                   dataLength: data.length, ct: hex(await subtle.encrypt(params, key, data)) });
    });
  }
  for (const [i, a] of MODERN_ARGON2.entries()) {
    if (!(await hasModern(a.name))) { skip(`deriveBits ${a.name} for the C peer`, HAS_NO(a.name)); continue; }
    const password = DATA.subarray(30, 30 + 8 + 5 * i);
    const p = { name: a.name, nonce: hex(DATA.subarray(3, 19 + i)), ...a.p };
    await made(`deriveBits ${JSON.stringify(p)} (${a.length} bits)`, async () => {
      const key = await subtle.importKey('raw-secret', password, a.name, false, ['deriveBits']);
      m.ops.push({ op: 'argon2', params: p, password: hex(password), length: a.length,
                   bits: hex(await subtle.deriveBits(fromHexParams(p), key, a.length)) });
    });
  }
}

async function checkModernCipher(op, data) {
  const name = op.params.name;
  if (!(await hasModern(name))) return skip(`${op.op} ${JSON.stringify(op.params)}`, HAS_NO(name));
  const params = fromHexParams(op.params);
  if (op.op === 'argon2') {
    const key = await subtle.importKey('raw-secret', unhex(op.password), name, false, ['deriveBits']);
    await check(`deriveBits ${JSON.stringify(op.params)} (${op.length} bits): same bytes as the peer`,
                async () => sameHex(await subtle.deriveBits(params, key, op.length), op.bits));
    return;
  }
  const key = await subtle.importKey('raw-secret', unhex(op.key), name, true, ['encrypt', 'decrypt']);
  const what = `${name}-${op.key.length * 4} ${JSON.stringify(op.params)}`;
  const pt = data.subarray(0, op.dataLength);
  await check(`decrypt ${what}: the peer's ciphertext gives the data`, async () => sameHex(await subtle.decrypt(params, key, unhex(op.ct)), hex(pt)));
  await check(`encrypt ${what}: same bytes as the peer`, async () => sameHex(await subtle.encrypt(params, key, pt), op.ct));
  const bad = unhex(op.ct); bad[bad.length - 1] ^= 1;
  await checkRejects(`decrypt ${what} with a flipped tag bit: OperationError`, 'OperationError', () => subtle.decrypt(params, key, bad));
}

/* AES, HMAC and key wrapping: the keys travel as raw bytes beside the result. */
async function produceSecret(m, pairs) {
  const aes = async (name, bits, usages) => {
    const k = await subtle.generateKey({ name, length: bits }, true, usages || ['encrypt', 'decrypt']);
    return [k, hex(await subtle.exportKey('raw', k))];
  };
  const ciphers = [
    { name: 'AES-GCM', bits: 256, p: { iv: '000102030405060708090a0b', additionalData: 'feedface', tagLength: 128 } },
    { name: 'AES-GCM', bits: 128, p: { iv: 'cafebabefacedbaddecaf888', tagLength: 96 } },
    { name: 'AES-GCM', bits: 192, p: { iv: '00112233445566778899aabbccddeeff0011' } },
    { name: 'AES-CBC', bits: 256, p: { iv: '000102030405060708090a0b0c0d0e0f' } },
    { name: 'AES-CBC', bits: 128, p: { iv: 'ffeeddccbbaa99887766554433221100' } },
    { name: 'AES-CTR', bits: 128, p: { counter: '000102030405060708090a0b0c0d0e0f', length: 64 } },
    /* the low 8 counter bits start at fe and wrap on their own inside the data */
    { name: 'AES-CTR', bits: 256, p: { counter: 'f0f1f2f3f4f5f6f7f8f9fafbfcfdfefe', length: 8 } },
  ];
  for (const c of ciphers) {
    await made(`encrypt ${c.name}-${c.bits} ${JSON.stringify(c.p)}`, async () => {
      const [key, raw] = await aes(c.name, c.bits);
      const params = { name: c.name };
      for (const [k, v] of Object.entries(c.p)) params[k] = typeof v === 'string' ? unhex(v) : v;
      const data = c.name === 'AES-CTR' && c.p.length === 8 ? DATA.subarray(0, 16 * 200) : DATA;
      m.ops.push({ op: 'cipher', params: { name: c.name, ...c.p }, key: raw, dataLength: data.length,
                   ct: hex(await subtle.encrypt(params, key, data)) });
    });
  }
  for (const [hash, length] of [['SHA-256', undefined], ['SHA-384', 256], ['SHA-512', undefined], ['SHA-1', 160]]) {
    await made(`sign HMAC ${hash}${length ? ` (${length} bits)` : ''}`, async () => {
      const k = await subtle.generateKey({ name: 'HMAC', hash, ...(length ? { length } : {}) }, true, ['sign', 'verify']);
      m.ops.push({ op: 'mac', hash, key: hex(await subtle.exportKey('raw', k)),
                   mac: hex(await subtle.sign('HMAC', k, DATA)) });
    });
  }
  /* Wrapped keys: an AES key as raw and jwk, an EC private key as pkcs8.
   * AES-KW takes whole 64-bit blocks and the spec's wrapKey pads nothing:
   * it wraps the JWK's JSON text as it is, and AES-KW's wrap key throws an
   * OperationError when "plaintext is not a multiple of 64 bits in length".
   * So the JWK wrapped with AES-KW is, by construction, 112 bytes (14
   * blocks): an AES-256-GCM key with the one usage "encrypt", whose JWK has
   * exactly the members alg "A256GCM", ext true, k (32 bytes: 43 base64url
   * characters), key_ops ["encrypt"] and kty "oct" - a length that depends
   * neither on the key's bytes nor on the members' order. (Node pads a JWK
   * of another length with spaces; the check after the wraps holds the JS
   * side to the spec: known_node_defects.js, aes-kw-pads-jwk.) */
  const [inner, innerRaw] = await aes('AES-GCM', 256);
  const [inner112, inner112Raw] = await aes('AES-GCM', 256, ['encrypt']);
  const [kw, kwRaw] = await aes('AES-KW', 256, ['wrapKey', 'unwrapKey']);
  const [gcm, gcmRaw] = await aes('AES-GCM', 128, ['wrapKey', 'unwrapKey']);
  const jwkBytes = (jwk) => Buffer.byteLength(JSON.stringify(jwk), 'utf8');
  const n112 = jwkBytes(await subtle.exportKey('jwk', inner112));
  const n122 = jwkBytes(await subtle.exportKey('jwk', inner));
  if (n112 !== 112) fail('the JWK wrapped with AES-KW', `${n112} bytes of JSON, not 112 as constructed`);
  const wraps = [
    { format: 'raw', wrapAlg: { name: 'AES-KW' }, wrappingKey: { raw: kwRaw }, key: kw },
    { format: 'jwk', wrapAlg: { name: 'AES-KW' }, wrappingKey: { raw: kwRaw }, key: kw,
      inner: inner112, spec: { alg: { name: 'AES-GCM' }, usages: ['encrypt'], raw: inner112Raw } },
    { format: 'raw', wrapAlg: { name: 'AES-GCM', iv: '0f0e0d0c0b0a090807060504' }, wrappingKey: { raw: gcmRaw }, key: gcm },
    { format: 'jwk', wrapAlg: { name: 'AES-GCM', iv: '0f0e0d0c0b0a090807060505', additionalData: '01' }, wrappingKey: { raw: gcmRaw }, key: gcm },
  ];
  if (pairs['RSA-OAEP-SHA-256']) {
    const ref = { ref: 'node-RSA-OAEP-SHA-256' }, key = pairs['RSA-OAEP-SHA-256'].publicKey;
    wraps.push({ format: 'raw', wrapAlg: { name: 'RSA-OAEP' }, wrappingKey: ref, key });
    wraps.push({ format: 'jwk', wrapAlg: { name: 'RSA-OAEP', label: '77726170' }, wrappingKey: ref, key });
  }
  for (const w of wraps) {
    const params = { name: w.wrapAlg.name };
    for (const [k, v] of Object.entries(w.wrapAlg)) if (k !== 'name') params[k] = unhex(v);
    await made(`wrapKey ${w.format} with ${JSON.stringify(w.wrapAlg)}`, async () =>
      m.ops.push({ op: 'wrap', format: w.format, wrapAlg: w.wrapAlg, wrappingKey: w.wrappingKey,
                   inner: w.spec || { alg: { name: 'AES-GCM' }, usages: ['encrypt', 'decrypt'], raw: innerRaw },
                   wrapped: hex(await subtle.wrapKey(w.format, w.inner || inner, w.key, params)) }));
  }
  /* The same AES-KW wrap of a JWK that is not whole blocks (the AES-256-GCM
   * key with usages encrypt and decrypt: 122 bytes) must fail, unpadded. */
  await checkRejects(`wrapKey jwk with AES-KW of a ${n122}-byte JWK (not whole 64-bit blocks): OperationError, unpadded as the spec says`,
                     'OperationError', () => subtle.wrapKey('jwk', inner, kw, { name: 'AES-KW' }));
  if (pairs['ECDSA-P-384']) {
    await made('wrapKey pkcs8 with {"name":"AES-GCM","iv":"0f0e0d0c0b0a090807060506"}', async () =>
      m.ops.push({ op: 'wrap', format: 'pkcs8', wrapAlg: { name: 'AES-GCM', iv: '0f0e0d0c0b0a090807060506' },
                   wrappingKey: { raw: gcmRaw },
                   inner: { alg: { name: 'ECDSA', namedCurve: 'P-384' }, usages: ['sign'], pkcs8: m.keys['node-ECDSA-P-384'].pkcs8 },
                   wrapped: hex(await subtle.wrapKey('pkcs8', pairs['ECDSA-P-384'].privateKey, gcm,
                                                    { name: 'AES-GCM', iv: unhex('0f0e0d0c0b0a090807060506') })) }));
  }
}

/* ---------------------------------------------------------------- SHA-3, cSHAKE, KMAC
 * ("Modern Algorithms in the Web Cryptography API"; Node 24 has them, Node
 * 20 and 18 do not: their checks are skips there). Ops: "digest" {params,
 * digest}, "kmac" {params, key (raw), mac}; HMAC with SHA3-256 is a "mac".
 * Hex members of params: customization, functionName. */
/* Whether the JS side has one of them: the binding's backend lists each;
 * a Node has all of them (24) or none (20, 18). */
async function haveModern(name) {
  if (binding) return listed(name);
  try { await subtle.digest('SHA3-256', new Uint8Array(0)); return true; } catch (e) { return false; }
}
const modernParams = (p) => {
  const r = { ...p };
  for (const k of ['customization', 'functionName']) if (typeof r[k] === 'string') r[k] = unhex(r[k]);
  return r;
};
/* KMAC keys: Node 24 imports them as "raw-secret" (the draft's format), not "raw". */
const importKmac = (raw, name) => subtle.importKey('raw-secret', unhex(raw), { name }, true, ['sign', 'verify']);

/* cSHAKE with a customization or a function name refused as NotSupportedError. */
const cshakeUnsupported = (p, e) => /^cSHAKE/.test(p.name) && !!(p.customization || p.functionName) &&
  !!e && e.name === 'NotSupportedError';

/* cSHAKE or KMAC parameters the binding's backend cannot take (the jca
 * variants' SHAKE and KMAC have one output length each and no
 * customization): SubtleCrypto.supports says false, asked for the whole
 * bytes that hold outputLength (it says false for other lengths everywhere). */
const takesParams = (op, p) => !binding || subtle.constructor.supports(op,
  { ...modernParams(p), ...(p.outputLength ? { outputLength: Math.ceil(p.outputLength / 8) * 8 } : {}) });
const paramsUnsupported = (op, p, e) => !!e && e.name === 'NotSupportedError' && !takesParams(op, p);

async function produceSha3Kmac(m, pairs) {
  if (!binding && !(await haveModern('SHA3-256'))) return skip('SHA-3, cSHAKE, KMAC ops for the C peer', `${IMPL} has none of them`);
  const lacks = async (name, what) => {
    if (await haveModern(name)) return false;
    skip(`${what} for the C peer`, HAS_NO(name));
    return true;
  };
  if (pairs['ECDSA-P-256'])
    for (const hash of ['SHA3-256', 'SHA3-512']) {
      if (await lacks(hash, `ECDSA P-256 with ${hash}`)) continue;
      const params = { name: 'ECDSA', hash };
      await made(`sign node-ECDSA-P-256 ${JSON.stringify(params)}`, async () =>
        m.ops.push({ op: 'sign', key: 'node-ECDSA-P-256', params, sig: hex(await subtle.sign(params, pairs['ECDSA-P-256'].privateKey, DATA)) }));
    }
  const digests = [
    { name: 'SHA3-256' }, { name: 'SHA3-384' }, { name: 'SHA3-512' },
    { name: 'cSHAKE128', outputLength: 256 }, { name: 'cSHAKE256', outputLength: 512 },
    { name: 'cSHAKE256', outputLength: 20 }, /* not whole bytes: the last byte's low bits zero */
    { name: 'cSHAKE128', outputLength: 256, customization: '456d61696c205369676e6174757265' },
  ];
  for (const p of digests) {
    if (await lacks(p.name, `digest ${JSON.stringify(p)}`)) continue;
    let d;
    try {
      d = await subtle.digest(modernParams(p), DATA);
    } catch (e) {
      /* cSHAKE with a customization or function name: NotSupportedError is
       * the library's limit where the backend's library has SHAKE only,
       * which the binding reports; a skip with its reason, as interop_peer.c
       * skips the same digest. Any other error fails. */
      if (cshakeUnsupported(p, e) || paramsUnsupported('digest', p, e))
        skip(`digest ${JSON.stringify(p)} for the C peer`, errName(e));
      else fail(`make digest ${JSON.stringify(p)}`, errName(e));
      continue;
    }
    m.ops.push({ op: 'digest', params: p, digest: hex(d) });
  }
  const kmacs = [
    { name: 'KMAC128', length: undefined, p: { outputLength: 256 } },
    { name: 'KMAC128', length: 320, p: { outputLength: 128, customization: '4d7920546167676564204170706c69636174696f6e' } },
    { name: 'KMAC256', length: undefined, p: { outputLength: 512, customization: '00' } },
  ];
  for (const k of kmacs) {
    if (await lacks(k.name, `${k.name} ${JSON.stringify(k.p)}`)) continue;
    const params = { name: k.name, ...k.p };
    if (!takesParams('sign', params)) {
      skip(`sign ${JSON.stringify(params)} for the C peer`, `${IMPL} cannot take these parameters (SubtleCrypto.supports: false)`);
      continue;
    }
    await made(`sign ${JSON.stringify(params)}`, async () => {
      const key = await subtle.generateKey({ name: k.name, ...(k.length ? { length: k.length } : {}) }, true, ['sign', 'verify']);
      m.ops.push({ op: 'kmac', params, key: hex(await subtle.exportKey('raw-secret', key)),
                   mac: hex(await subtle.sign(modernParams(params), key, DATA)) });
    });
  }
  if (await lacks('SHA3-256', 'HMAC with SHA3-256')) return;
  await made('sign HMAC SHA3-256', async () => {
    const hk = await subtle.generateKey({ name: 'HMAC', hash: 'SHA3-256', length: 256 }, true, ['sign', 'verify']);
    m.ops.push({ op: 'mac', hash: 'SHA3-256', key: hex(await subtle.exportKey('raw', hk)),
                 mac: hex(await subtle.sign('HMAC', hk, DATA)) });
  });
}

async function checkSha3Kmac(op, data) {
  const what = JSON.stringify(op.params || op.hash);
  if (!(await haveModern(op.params.name))) return skip(`${op.op} ${what}`, HAS_NO(op.params.name));
  if (op.op === 'digest') {
    let d;
    try {
      d = await subtle.digest(modernParams(op.params), data);
    } catch (e) {
      if (cshakeUnsupported(op.params, e) || paramsUnsupported('digest', op.params, e))
        return skip(`digest ${what}`, errName(e));
      d = e;
    }
    await check(`digest ${what}: same bytes as the peer`, async () => {
      if (!(d instanceof ArrayBuffer)) throw d;
      return sameHex(d, op.digest);
    });
    return;
  }
  if (!takesParams('sign', op.params))
    return skip(`KMAC ${what}`, `${IMPL} cannot take these parameters (SubtleCrypto.supports: false)`);
  const key = await importKmac(op.key, op.params.name);
  const p = modernParams(op.params);
  await check(`verify KMAC ${what}: the peer's MAC is valid`, () => subtle.verify(p, key, unhex(op.mac), data));
  await check(`sign KMAC ${what}: same MAC as the peer`, async () => sameHex(await subtle.sign(p, key, data), op.mac));
}

/* ---------------------------------------------------------------- checking the peer */

const fromHexParams = (p) => {
  const r = {};
  for (const [k, v] of Object.entries(p)) r[k] = (typeof v === 'string' && k !== 'name' && k !== 'hash') ? unhex(v) : v;
  return r;
};

async function consume(peerFile, ownFile) {
  const have = await probe();
  const m = JSON.parse(fs.readFileSync(peerFile, 'utf8'));
  const own = ownFile ? JSON.parse(fs.readFileSync(ownFile, 'utf8')) : { keys: {} };
  const data = unhex(m.data);
  console.log(`# ${IMPL} checks ${m.producer}`);
  /* ids of keys this Node can use, and their imported forms */
  const keys = {};
  const allKeys = { ...own.keys, ...m.keys };
  for (const [id, k] of Object.entries(allKeys)) {
    if (!have.has(k.alg.name)) {
      if (m.keys[id]) skip(`key ${id}`, HAS_NO(k.alg.name));
      continue;
    }
    const alg = importAlg(k.alg);
    const pubU = usagesFor(k.alg.name, false), privU = usagesFor(k.alg.name, true);
    try {
      keys[id] = {
        spec: k,
        pub: await subtle.importKey('spki', unhex(k.spki), alg, true, pubU),
        priv: await subtle.importKey('pkcs8', unhex(k.pkcs8), alg, true, privU),
      };
    } catch (e) {
      fail(`import ${id} (spki, pkcs8)`, errName(e));
      continue;
    }
    if (!m.keys[id]) continue; /* our own key: used below, checked in phase 1 */
    await checkFormats(id, k, alg, pubU, privU);
  }
  for (const op of m.ops) {
    try {
      await checkOp(op, keys, data);
    } catch (e) {
      /* named by what it is: key ids, not raw key bytes */
      const label = [op.op, /^(node|c)-/.test(op.key || '') ? op.key : null, op.a ? `${op.b} x ${op.a}` : null,
                     op.params ? JSON.stringify(op.params) : op.hash].filter(Boolean).join(' ');
      fail(label, errName(e));
    }
  }
}

/* Whether a JWK's "alg" is what the spec's export writes (so a JWK this Node
 * refuses was a valid one). */
const jwkAlgAsSpec = (jwk, name) => SPEC_JWK_ALG[name] === undefined || jwk.alg === SPEC_JWK_ALG[name];

/* The peer's key in each format imports here, and exporting it in every
 * format gives the peer's bytes (JWK: the same members). */
async function checkFormats(id, k, alg, pubU, privU) {
  const name = k.alg.name;
  const pubFormats = [['spki', unhex(k.spki)], ['jwk', k.jwkPub]];
  if (hasRaw(name)) pubFormats.push(['raw', unhex(k.raw)]);
  for (const [fmt, bytes] of pubFormats) {
    await check(`${id}: public ${fmt} imports; re-exported as spki${hasRaw(name) ? ', raw' : ''} and jwk it equals the peer's`, async () => {
      if (fmt === 'jwk' && !jwkAlgAsSpec(bytes, name)) return `the peer's JWK has alg ${JSON.stringify(bytes.alg)}; the spec writes "${SPEC_JWK_ALG[name]}"`;
      const key = await subtle.importKey(fmt, bytes, alg, true, pubU);
      let r = sameHex(await subtle.exportKey('spki', key), k.spki);
      if (r !== true) return `spki ${r}`;
      if (hasRaw(name)) { r = sameHex(await subtle.exportKey('raw', key), k.raw); if (r !== true) return `raw ${r}`; }
      r = jwkDiff(await subtle.exportKey('jwk', key), k.jwkPub, name);
      return r;
    });
  }
  for (const [fmt, bytes] of [['pkcs8', unhex(k.pkcs8)], ['jwk', k.jwkPriv]]) {
    await check(`${id}: private ${fmt} imports; re-exported as pkcs8 and jwk it equals the peer's`, async () => {
      if (fmt === 'jwk' && !jwkAlgAsSpec(bytes, name)) return `the peer's JWK has alg ${JSON.stringify(bytes.alg)}; the spec writes "${SPEC_JWK_ALG[name]}"`;
      const key = await subtle.importKey(fmt, bytes, alg, true, privU);
      let r = sameHex(await subtle.exportKey('pkcs8', key), k.pkcs8);
      if (r !== true) return `pkcs8 ${r}`;
      r = jwkDiff(await subtle.exportKey('jwk', key), k.jwkPriv, name);
      return r;
    });
  }
}

async function importSecret(raw, alg, usages) {
  return subtle.importKey('raw', unhex(raw), alg, true, usages);
}

async function checkOp(op, keys, data) {
  switch (op.op) {
  case 'sign': {
    const k = keys[op.key];
    const what = `${op.key} ${JSON.stringify(op.params)}`;
    if (!k) return skip(`verify ${what}`, 'key unusable here');
    if (op.params.hash && op.params.hash.startsWith('SHA3') && !(await haveModern(op.params.hash)))
      return skip(`verify ${what}`, HAS_NO(op.params.hash));
    const sig = unhex(op.sig);
    await check(`verify ${what}: the peer's signature is valid`, () => subtle.verify(op.params, k.pub, sig, data));
    const bad = sig.slice(); bad[bad.length >> 1] ^= 0x10;
    await check(`verify ${what}: a flipped bit is invalid`, async () => !(await subtle.verify(op.params, k.pub, bad, data)));
    if (op.params.name === 'RSASSA-PKCS1-v1_5' || op.params.name === 'Ed25519' || op.params.name === 'Ed448')
      await check(`sign ${what}: deterministic, same bytes as the peer`, async () => sameHex(await subtle.sign(op.params, k.priv, data), op.sig));
    return;
  }
  case 'encrypt': {
    const k = keys[op.key];
    const params = fromHexParams(op.params);
    const what = `RSA-OAEP ${op.key}${op.params.label !== undefined ? ` label ${op.params.label}` : ' no label'}`;
    if (!k) return skip(`decrypt ${what}`, 'key unusable here');
    await check(`decrypt ${what}: the peer's ciphertext gives the data`, async () => sameHex(await subtle.decrypt(params, k.priv, unhex(op.ct)), hex(data.subarray(0, op.dataLength))));
    const other = { name: 'RSA-OAEP', label: unhex(op.params.label === '01' ? '02' : '01') };
    await checkRejects(`decrypt ${what} with another label: OperationError`, 'OperationError', () => subtle.decrypt(other, k.priv, unhex(op.ct)));
    return;
  }
  case 'derive': {
    const a = keys[op.a], b = keys[op.b];
    const what = `${op.b} x ${op.a}${op.length === null ? '' : ` (${op.length} bits)`}`;
    if (!a || !b) return skip(`derive ${what}`, 'key unusable here');
    /* the other direction: b's private key with a's public key */
    await check(`deriveBits ${what}: secrets agree`, async () =>
      sameBits(await subtle.deriveBits({ name: a.spec.alg.name, public: a.pub }, b.priv, op.length), op.bits, op.length));
    return;
  }
  case 'modern-cipher':
  case 'argon2':
    return checkModernCipher(op, data);
  case 'cipher': {
    const params = fromHexParams(op.params);
    const key = await importSecret(op.key, op.params.name, ['encrypt', 'decrypt']);
    const what = `${op.params.name}-${op.key.length * 4} ${JSON.stringify(op.params)}`;
    const pt = data.subarray(0, op.dataLength);
    await check(`decrypt ${what}: the peer's ciphertext gives the data`, async () => sameHex(await subtle.decrypt(params, key, unhex(op.ct)), hex(pt)));
    await check(`encrypt ${what}: same bytes as the peer`, async () => sameHex(await subtle.encrypt(params, key, pt), op.ct));
    return;
  }
  case 'digest':
  case 'kmac':
    return checkSha3Kmac(op, data);
  case 'mac': {
    if (op.hash.startsWith('SHA3') && !(await haveModern(op.hash))) return skip(`HMAC ${op.hash}`, HAS_NO(op.hash));
    const key = await importSecret(op.key, { name: 'HMAC', hash: op.hash }, ['sign', 'verify']);
    const what = `HMAC ${op.hash} (${op.key.length * 4} bits)`;
    await check(`verify ${what}: the peer's MAC is valid`, () => subtle.verify('HMAC', key, unhex(op.mac), data));
    await check(`sign ${what}: same MAC as the peer`, async () => sameHex(await subtle.sign('HMAC', key, data), op.mac));
    return;
  }
  case 'wrap': {
    const params = fromHexParams(op.wrapAlg);
    const what = `${op.format} key wrapped with ${JSON.stringify(op.wrapAlg)}`;
    let uk;
    if (op.wrappingKey.ref) {
      if (!keys[op.wrappingKey.ref]) return skip(`unwrap ${what}`, 'key unusable here');
      uk = keys[op.wrappingKey.ref].priv;
    } else {
      uk = await importSecret(op.wrappingKey.raw, op.wrapAlg.name, ['wrapKey', 'unwrapKey']);
    }
    await check(`unwrapKey ${what}: gives the peer's key`, async () => {
      const k = await subtle.unwrapKey(op.format, unhex(op.wrapped), uk, params, op.inner.alg, true, op.inner.usages);
      return op.inner.raw ? sameHex(await subtle.exportKey('raw', k), op.inner.raw)
                          : sameHex(await subtle.exportKey('pkcs8', k), op.inner.pkcs8);
    });
    return;
  }
  default:
    fail(`unknown operation ${op.op}`);
  }
}

(async () => {
  const [phase, file, own] = argv;
  if (phase === 'produce') await produce(file);
  else if (phase === 'consume') await consume(file, own);
  else { console.error('usage: node node_peer.js [--binding BACKEND] produce OUT.json | consume PEER.json [OWN.json]'); process.exit(2); }
  console.log(`${SIDE}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(failed ? 1 : 0);
})().catch((e) => { console.log(`FAIL - ${SIDE}: ${errName(e)}`); console.error(e.stack); console.log(`${SIDE}: ${passed} passed, ${failed + 1} failed, ${skipped} skipped`); process.exit(1); });
