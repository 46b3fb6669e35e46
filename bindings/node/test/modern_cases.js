'use strict';
// modern_cases.js - differential.js's calls for the algorithms and operations
// of "Modern Algorithms in the Web Cryptography API" and "Secure Curves in
// the Web Cryptography API" (the library's 0.3): SHA-3, cSHAKE, KMAC,
// ChaCha20-Poly1305, AES-OCB, Argon2, Ed448, X448, ML-KEM, ML-DSA, SHA-3 as
// the hash of HMAC/HKDF/PBKDF2/RSA/ECDSA, the formats raw-public, raw-secret,
// raw-seed and JWK AKP, getPublicKey, encapsulate/decapsulate and
// SubtleCrypto.supports.
//
// Every key is made from fixed bytes (a seed, a PKCS #8 of a fixed private
// key), so that what a deterministic call returns is the same on every run:
// Node 24's outcomes are recorded (node24_outcomes.json) and replayed as the
// expected outcome on a Node that lacks these algorithms (differential.js).
//
// An algorithm's calls carry its name in `algs`; the operations a Node may
// lack carry a pseudo-name "op:getPublicKey", "op:encapsulate",
// "op:supports", "format:raw-secret" (which the library always has).

const NEW_ALGS = ['SHA3-256', 'SHA3-384', 'SHA3-512', 'cSHAKE128', 'cSHAKE256', 'KMAC128', 'KMAC256',
  'ChaCha20-Poly1305', 'AES-OCB', 'Argon2d', 'Argon2i', 'Argon2id', 'Ed448', 'X448',
  'ML-KEM-512', 'ML-KEM-768', 'ML-KEM-1024', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const PSEUDO = ['op:getPublicKey', 'op:supports', 'format:raw-secret', 'format:raw-public', 'format:raw-seed'];

// PKCS #8 (RFC 8410) of a fixed Ed448 / X448 private key.
const ED448_PKCS8_PREFIX = '3047020100300506032b6571043b0439';
const X448_PKCS8_PREFIX = '3046020100300506032b656f043a0438';
const MLKEM = ['ML-KEM-512', 'ML-KEM-768', 'ML-KEM-1024'];
const MLDSA = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const ARGON = ['Argon2d', 'Argon2i', 'Argon2id'];

// Which of them a Node has: one call each (a Node without them rejects).
async function nodeHas(subtle, SubtleCls, bytes) {
  const has = new Set();
  const tryIt = async (name, f) => { try { await f(); has.add(name); } catch { /* lacks it */ } };
  for (const h of ['SHA3-256', 'SHA3-384', 'SHA3-512']) await tryIt(h, () => subtle.digest(h, bytes(1)));
  for (const h of ['cSHAKE128', 'cSHAKE256']) await tryIt(h, () => subtle.digest({ name: h, outputLength: 8 }, bytes(1)));
  for (const a of ['KMAC128', 'KMAC256']) await tryIt(a, () => subtle.generateKey({ name: a }, false, ['sign']));
  await tryIt('ChaCha20-Poly1305', () => subtle.generateKey('ChaCha20-Poly1305', false, ['encrypt']));
  await tryIt('AES-OCB', () => subtle.generateKey({ name: 'AES-OCB', length: 128 }, false, ['encrypt']));
  for (const a of ARGON) await tryIt(a, () => subtle.importKey('raw-secret', bytes(8), a, false, ['deriveBits']));
  await tryIt('Ed448', () => subtle.generateKey('Ed448', false, ['sign']));
  await tryIt('X448', () => subtle.generateKey('X448', false, ['deriveBits']));
  for (const a of MLKEM) await tryIt(a, () => subtle.generateKey(a, false, ['decapsulateBits']));
  for (const a of MLDSA) await tryIt(a, () => subtle.generateKey(a, false, ['sign']));
  if (typeof subtle.getPublicKey === 'function') has.add('op:getPublicKey');
  if (SubtleCls && typeof SubtleCls.supports === 'function') has.add('op:supports');
  // a format the KeyFormat enum lacks is a TypeError; one it has, but not for the algorithm, another error
  for (const f of ['raw-secret', 'raw-public', 'raw-seed']) {
    await subtle.importKey(f, bytes(32), 'Ed25519', true, ['verify']).then(() => has.add(`format:${f}`),
      (e) => { if (e.name !== 'TypeError') has.add(`format:${f}`); });
  }
  return has;
}

// The secret keys both sides import (raw-secret where the draft requires it).
function secrets(bytes) {
  const s = {
    kmac128: ['raw-secret', bytes(32, 20), 'KMAC128', ['sign', 'verify']],
    kmac256: ['raw-secret', bytes(32, 21), 'KMAC256', ['sign', 'verify']],
    chacha: ['raw-secret', bytes(32, 22), 'ChaCha20-Poly1305', ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']],
    ocb128: ['raw-secret', bytes(16, 23), 'AES-OCB', ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']],
    ocb256: ['raw-secret', bytes(32, 24), 'AES-OCB', ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']],
  };
  for (const a of ARGON) s[a] = ['raw-secret', bytes(16, 25), a, ['deriveBits', 'deriveKey'], false];
  for (const h of ['SHA3-256', 'SHA3-384', 'SHA3-512']) s[`hmac-${h}`] = ['raw', bytes(32, 26), { name: 'HMAC', hash: h }, ['sign', 'verify']];
  return s;
}

// Keys made on a side from fixed bytes; null where the side cannot.
async function sideKeys(side, bytes, hexToBytes, rsa) {
  const k = {};
  const t = async (f) => { try { return await f(); } catch { return null; } };
  for (const [id, [fmt, data, alg, usages, ext]] of Object.entries(secrets(bytes))) {
    k[id] = await t(() => side.subtle.importKey(fmt, data, alg, ext !== false, usages));
  }
  const s = side.subtle;
  // Ed448 and X448 from their PKCS #8; the public key from the private
  // key's JWK (no getPublicKey needed: Node 20 has Ed448 but not it).
  const okp = async (id, alg, prefix, n, seed, priv, pub) => {
    const pk8 = hexToBytes(prefix + Buffer.from(bytes(n, seed)).toString('hex'));
    k[`${id}.pkcs8`] = pk8;
    k[`${id}.priv`] = await t(() => s.importKey('pkcs8', pk8, alg, true, priv));
    if (!k[`${id}.priv`]) return;
    const j = await s.exportKey('jwk', k[`${id}.priv`]);
    k[`${id}.pub`] = await t(() => s.importKey('jwk', { kty: 'OKP', crv: alg, x: j.x }, alg, true, pub));
  };
  await okp('Ed448', 'Ed448', ED448_PKCS8_PREFIX, 57, 40, ['sign'], ['verify']);
  await okp('X448', 'X448', X448_PKCS8_PREFIX, 56, 41, ['deriveBits', 'deriveKey'], []);
  await okp('X448-peer', 'X448', X448_PKCS8_PREFIX, 56, 42, ['deriveBits', 'deriveKey'], []);
  for (const a of MLKEM) {
    k[`${a}.priv`] = await t(() => s.importKey('raw-seed', bytes(64, 43), a, true, ['decapsulateBits', 'decapsulateKey']));
    k[`${a}.pub`] = k[`${a}.priv`] && await t(() => s.getPublicKey(k[`${a}.priv`], ['encapsulateBits', 'encapsulateKey']));
  }
  for (const a of MLDSA) {
    k[`${a}.priv`] = await t(() => s.importKey('raw-seed', bytes(32, 44), a, true, ['sign']));
    k[`${a}.pub`] = k[`${a}.priv`] && await t(() => s.getPublicKey(k[`${a}.priv`], ['verify']));
  }
  // SHA-3 as the hash of RSA and ECDSA (the existing fixtures' key material)
  for (const [name, priv, pub] of [['RSASSA-PKCS1-v1_5', ['sign'], ['verify']], ['RSA-PSS', ['sign'], ['verify']], ['RSA-OAEP', ['decrypt'], ['encrypt']]]) {
    k[`${name}-SHA3-256.priv`] = await t(() => s.importKey('pkcs8', rsa.pkcs8, { name, hash: 'SHA3-256' }, true, priv));
    k[`${name}-SHA3-256.pub`] = await t(() => s.importKey('spki', rsa.spki, { name, hash: 'SHA3-256' }, true, pub));
  }
  return k;
}

// The calls. `add(name, algs, run, mode, cross, mut)` as differential.js's.
function modernCalls(add0, bytes, hex, knownAlgs) {
  // a call naming one of the draft's formats needs it (Node 20 has Ed448 and X448, not them)
  const add = (name, algs, ...rest) => {
    const m = /(raw-public|raw-secret|raw-seed)/.exec(`${name} ${rest[0]}`);
    return add0(name, m && !algs.includes(`format:${m[1]}`) ? [...algs, `format:${m[1]}`] : algs, ...rest);
  };
  // cSHAKE or KMAC parameters a backend may not take (differential.js,
  // paramsSupported: a skip where SubtleCrypto.supports says false)
  const needsParams = (op, p) => `params:${op}:${JSON.stringify(p, (k, v) => (v instanceof Uint8Array ? { u8: [...v] } : v))}`;
  const SHA3 = ['SHA3-256', 'SHA3-384', 'SHA3-512'];
  // ---- digests
  for (const h of SHA3) {
    for (const n of [0, 3, 200]) add(`digest ${h} ${n} bytes`, [h], (s) => s.subtle.digest(h, bytes(n)));
    add(`digest ${h} as a dictionary`, [h], (s) => s.subtle.digest({ name: h.toLowerCase() }, bytes(5)), 'exact', null,
      { alg: 0, data: 1, args: () => [{ name: h }, bytes(5)] });
  }
  for (const h of ['cSHAKE128', 'cSHAKE256']) {
    for (const ol of [0, 7, 8, 256, 1000]) {
      add(`${h} outputLength ${ol}`, [h, needsParams('digest', { name: h, outputLength: ol })], (s) => s.subtle.digest({ name: h, outputLength: ol }, bytes(20)));
    }
    for (const [n, p] of [['functionName empty', { functionName: bytes(0) }], ['customization empty', { customization: bytes(0) }],
      ['functionName', { functionName: bytes(4) }], ['customization', { customization: bytes(4) }]]) {
      // (a function name or customization: openssl computes it, the others have SHAKE
      // only, known_differences.js no-cshake-customization; the length is the question here)
      add(`${h} ${n}`, [h, needsParams('digest', { name: h, outputLength: 256 })], (s) => s.subtle.digest({ name: h, outputLength: 256, ...p }, bytes(20)));
    }
    add(`${h} base`, [h, needsParams('digest', { name: h, outputLength: 256 })], (s) => s.subtle.digest({ name: h, outputLength: 256 }, bytes(20)), 'exact', null,
      { alg: 0, data: 1, args: () => [{ name: h, outputLength: 256, customization: bytes(0) }, bytes(20)] });
  }
  // ---- SHA-3 as a hash
  for (const h of SHA3) {
    const id = `hmac-${h}`;
    add(`HMAC ${h} sign`, ['HMAC', h], (s, k) => s.subtle.sign('HMAC', k[id], bytes(60)), 'exact', null,
      h === 'SHA3-256' ? { alg: 0, key: 1, data: 2, args: (s, k) => ['HMAC', k[id], bytes(60)] } : null);
    add(`HMAC ${h} verify`, ['HMAC', h], async (s, k) => s.subtle.verify('HMAC', k[id], await s.subtle.sign('HMAC', k[id], bytes(6)), bytes(6)));
    add(`HMAC ${h} export jwk`, ['HMAC', h], (s, k) => s.subtle.exportKey('jwk', k[id]));
    for (const len of [undefined, 256, 0]) {
      add(`HMAC ${h} generateKey length ${len}`, ['HMAC', h], (s) => s.subtle.generateKey({ name: 'HMAC', hash: h, length: len }, true, ['sign']), 'shape');
    }
    add(`HKDF ${h} deriveBits 256`, ['HKDF', h], (s, k) => s.subtle.deriveBits({ name: 'HKDF', hash: h, salt: bytes(8), info: bytes(3) }, k.HKDF, 256));
    add(`PBKDF2 ${h} deriveBits 256`, ['PBKDF2', h], (s, k) => s.subtle.deriveBits({ name: 'PBKDF2', hash: h, salt: bytes(8), iterations: 10 }, k.PBKDF2, 256));
    add(`HKDF ${h} deriveKey HMAC`, ['HKDF', h], (s, k) => s.subtle.deriveKey({ name: 'HKDF', hash: h, salt: bytes(8), info: bytes(3) }, k.HKDF, { name: 'HMAC', hash: h }, true, ['sign']));
    add(`ECDSA P-256 ${h} sign/verify`, ['ECDSA', h], (s, k) => s.subtle.sign({ name: 'ECDSA', hash: h }, k['ECDSA-P-256.priv'], bytes(30)), 'shape',
      (s, k, sig) => s.subtle.verify({ name: 'ECDSA', hash: h }, k['ECDSA-P-256.pub'], sig, bytes(30)));
  }
  // (the RSA and EC keys are made anew by each run: their outputs compare by shape and cross-checks)
  add('RSASSA-PKCS1-v1_5 SHA3-256 sign', ['RSASSA-PKCS1-v1_5', 'SHA3-256'], (s, k) => s.subtle.sign('RSASSA-PKCS1-v1_5', k['RSASSA-PKCS1-v1_5-SHA3-256.priv'], bytes(30)), 'shape',
    (s, k, sig) => s.subtle.verify('RSASSA-PKCS1-v1_5', k['RSASSA-PKCS1-v1_5-SHA3-256.pub'], sig, bytes(30)));
  add('RSA-PSS SHA3-256 sign', ['RSA-PSS', 'SHA3-256'], (s, k) => s.subtle.sign({ name: 'RSA-PSS', saltLength: 32 }, k['RSA-PSS-SHA3-256.priv'], bytes(30)), 'shape',
    (s, k, sig) => s.subtle.verify({ name: 'RSA-PSS', saltLength: 32 }, k['RSA-PSS-SHA3-256.pub'], sig, bytes(30)));
  add('RSA-OAEP SHA3-256 encrypt', ['RSA-OAEP', 'SHA3-256'], (s, k) => s.subtle.encrypt('RSA-OAEP', k['RSA-OAEP-SHA3-256.pub'], bytes(30)), 'shape',
    async (s, k, ct) => hex(await s.subtle.decrypt('RSA-OAEP', k['RSA-OAEP-SHA3-256.priv'], ct)) === hex(bytes(30)));
  add('RSA-PSS SHA3-256 export jwk', ['RSA-PSS', 'SHA3-256'], (s, k) => s.subtle.exportKey('jwk', k['RSA-PSS-SHA3-256.pub']), 'shape');
  // ---- KMAC
  for (const [a, id] of [['KMAC128', 'kmac128'], ['KMAC256', 'kmac256']]) {
    for (const ol of [0, 8, 256, 512]) {
      add(`${a} sign outputLength ${ol}`, [a, needsParams('sign', { name: a, outputLength: ol })], (s, k) => s.subtle.sign({ name: a, outputLength: ol }, k[id], bytes(40)));
    }
    add(`${a} sign customization`, [a, needsParams('sign', { name: a, outputLength: 256, customization: bytes(9) })], (s, k) => s.subtle.sign({ name: a, outputLength: 256, customization: bytes(9) }, k[id], bytes(40)), 'exact', null,
      { alg: 0, key: 1, data: 2, args: (s, k) => [{ name: a, outputLength: 256, customization: bytes(9) }, k[id], bytes(40)] });
    add(`${a} verify good`, [a, needsParams('verify', { name: a, outputLength: 256 })], async (s, k) => s.subtle.verify({ name: a, outputLength: 256 }, k[id], await s.subtle.sign({ name: a, outputLength: 256 }, k[id], bytes(7)), bytes(7)));
    add(`${a} verify bad`, [a, needsParams('verify', { name: a, outputLength: 256 })], (s, k) => s.subtle.verify({ name: a, outputLength: 256 }, k[id], bytes(32), bytes(7)));
    add(`${a} verify other length`, [a, needsParams('verify', { name: a, outputLength: 256 })], (s, k) => s.subtle.verify({ name: a, outputLength: 256 }, k[id], bytes(16), bytes(7)));
    add(`${a} verify outputLength 0 empty`, [a, needsParams('verify', { name: a, outputLength: 0 })], (s, k) => s.subtle.verify({ name: a, outputLength: 0 }, k[id], bytes(0), bytes(7)));
    for (const len of [undefined, 0, 256, 100]) {
      add(`${a} generateKey length ${len}`, [a], (s) => s.subtle.generateKey({ name: a, length: len }, true, ['sign', 'verify']), 'shape', null,
        len === undefined ? { alg: 0, usages: 2, args: () => [{ name: a }, true, ['sign', 'verify']] } : null);
    }
    for (const f of ['raw-secret', 'jwk', 'raw']) add(`${a} export ${f}`, [a], (s, k) => s.subtle.exportKey(f, k[id]));
    for (const f of ['raw-secret', 'raw']) {
      for (const n of [32, 0]) add(`${a} import ${f} ${n} bytes`, [a], (s) => s.subtle.importKey(f, bytes(n), a, true, ['sign']));
    }
    add(`${a} import length`, [a], (s) => s.subtle.importKey('raw-secret', bytes(32), { name: a, length: 256 }, true, ['verify']), 'exact', null,
      { alg: 2, usages: 4, format: 0, keyData: 1, args: () => ['raw-secret', bytes(32), { name: a, length: 256 }, true, ['verify']] });
    add(`${a} import jwk`, [a], (s) => s.subtle.importKey('jwk', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODw', alg: a === 'KMAC128' ? 'K128' : 'K256' }, a, true, ['sign']));
    add(`${a} import jwk wrong alg`, [a], (s) => s.subtle.importKey('jwk', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODw', alg: 'HS256' }, a, true, ['sign']));
  }
  // ---- AEADs
  const AEAD = [['ChaCha20-Poly1305', 'chacha', 12], ['AES-OCB', 'ocb128', 12], ['AES-OCB', 'ocb256', 15]];
  for (const [a, id, ivl] of AEAD) {
    const p = { name: a, iv: bytes(ivl, 5), additionalData: bytes(7) };
    add(`${a} ${id} encrypt`, [a], (s, k) => s.subtle.encrypt(p, k[id], bytes(45)), 'exact', null,
      { alg: 0, key: 1, data: 2, args: (s, k) => [{ ...p, tagLength: 128 }, k[id], bytes(45)] });
    for (const tl of a === 'AES-OCB' ? [undefined, 64, 96, 128, 32, 0] : [undefined, 128, 96, 0]) {
      add(`${a} ${id} encrypt tagLength ${tl}`, [a], (s, k) => s.subtle.encrypt({ name: a, iv: bytes(ivl), tagLength: tl }, k[id], bytes(10)));
    }
    for (const n of a === 'AES-OCB' ? [0, 1, 12, 15, 16] : [0, 8, 12, 16]) {
      add(`${a} ${id} iv ${n} bytes`, [a], (s, k) => s.subtle.encrypt({ name: a, iv: bytes(n) }, k[id], bytes(10)));
    }
    add(`${a} ${id} round trip`, [a], async (s, k) => s.subtle.decrypt(p, k[id], await s.subtle.encrypt(p, k[id], bytes(33))));
    add(`${a} ${id} decrypt tampered`, [a], async (s, k) => {
      const ct = new Uint8Array(await s.subtle.encrypt(p, k[id], bytes(20)));
      ct[2] ^= 1;
      return s.subtle.decrypt(p, k[id], ct);
    });
    add(`${a} ${id} decrypt other aad`, [a], async (s, k) => s.subtle.decrypt({ ...p, additionalData: bytes(8) }, k[id], await s.subtle.encrypt(p, k[id], bytes(20))));
    add(`${a} ${id} decrypt short`, [a], (s, k) => s.subtle.decrypt(p, k[id], bytes(15)));
    for (const f of ['raw-secret', 'jwk', 'raw']) add(`${a} ${id} export ${f}`, [a], (s, k) => s.subtle.exportKey(f, k[id]));
    add(`${a} ${id} wrapKey raw`, [a], (s, k) => s.subtle.wrapKey('raw', k['aes-export'], k[id], p));
    add(`${a} ${id} unwrapKey jwk`, [a], async (s, k) => s.subtle.unwrapKey('jwk', await s.subtle.wrapKey('jwk', k['hmac-SHA-256'], k[id], p), k[id], p, { name: 'HMAC', hash: 'SHA-256' }, true, ['sign']));
  }
  for (const [a, lens] of [['ChaCha20-Poly1305', [32, 16, 0]], ['AES-OCB', [16, 24, 32, 15]]]) {
    for (const f of ['raw-secret', 'raw']) {
      for (const n of lens) {
        add(`${a} import ${f} ${n} bytes`, [a, 'format:raw-secret'], (s) => s.subtle.importKey(f, bytes(n), a, true, ['encrypt']), 'exact', null,
          f === 'raw-secret' && n === 32 ? { alg: 2, usages: 4, format: 0, keyData: 1, args: () => [f, bytes(n), a, true, ['encrypt', 'decrypt']] } : null);
      }
    }
    add(`${a} import jwk`, [a], (s) => s.subtle.importKey('jwk', { kty: 'oct', k: Buffer.from(bytes(32)).toString('base64url'), alg: a === 'AES-OCB' ? 'A256OCB' : 'C20P' }, a, true, ['encrypt']));
    add(`${a} import jwk wrong alg`, [a], (s) => s.subtle.importKey('jwk', { kty: 'oct', k: Buffer.from(bytes(32)).toString('base64url'), alg: 'A256GCM' }, a, true, ['encrypt']));
  }
  add('ChaCha20-Poly1305 generateKey', ['ChaCha20-Poly1305'], (s) => s.subtle.generateKey('ChaCha20-Poly1305', true, ['encrypt', 'decrypt']), 'shape', null,
    { alg: 0, usages: 2, args: () => ['ChaCha20-Poly1305', true, ['encrypt', 'decrypt']] });
  for (const len of [128, 192, 256, 100]) {
    add(`AES-OCB generateKey length ${len}`, ['AES-OCB'], (s) => s.subtle.generateKey({ name: 'AES-OCB', length: len }, true, ['encrypt']), 'shape', null,
      len === 128 ? { alg: 0, usages: 2, args: () => [{ name: 'AES-OCB', length: len }, true, ['encrypt', 'decrypt']] } : null);
  }
  // ---- Argon2
  for (const a of ARGON) {
    const p = { name: a, nonce: bytes(16, 3), parallelism: 1, memory: 64, passes: 1 };
    add(`${a} deriveBits`, [a], (s, k) => s.subtle.deriveBits(p, k[a], 256), 'exact', null,
      a === 'Argon2id' ? { alg: 0, key: 1, args: (s, k) => [{ ...p, version: 0x13, secretValue: bytes(8), associatedData: bytes(4) }, k[a], 256] } : null);
    add(`${a} deriveBits secretValue associatedData`, [a], (s, k) => s.subtle.deriveBits({ ...p, secretValue: bytes(8), associatedData: bytes(4), version: 0x13 }, k[a], 256));
    add(`${a} deriveBits parallelism 2`, [a], (s, k) => s.subtle.deriveBits({ ...p, parallelism: 2 }, k[a], 128));
    for (const len of [32, 24, 0, 260, null]) add(`${a} deriveBits length ${len}`, [a], (s, k) => s.subtle.deriveBits(p, k[a], len));
    for (const [n, q] of [['nonce 7 bytes', { nonce: bytes(7) }], ['nonce 8 bytes', { nonce: bytes(8) }], ['version 16', { version: 0x10 }], ['version 0', { version: 0 }],
      ['parallelism 0', { parallelism: 0 }], ['parallelism 2^24', { parallelism: 2 ** 24 }], ['memory 7', { memory: 7 }], ['memory 0', { memory: 0 }], ['passes 0', { passes: 0 }]]) {
      add(`${a} deriveBits ${n}`, [a], (s, k) => s.subtle.deriveBits({ ...p, ...q }, k[a], 256));
    }
    add(`${a} deriveKey AES-GCM`, [a], (s, k) => s.subtle.deriveKey(p, k[a], { name: 'AES-GCM', length: 256 }, true, ['encrypt']));
    add(`${a} import extractable`, [a], (s) => s.subtle.importKey('raw-secret', bytes(8), a, true, ['deriveBits']));
    add(`${a} import raw`, [a], (s) => s.subtle.importKey('raw', bytes(8), a, false, ['deriveBits']));
    add(`${a} import raw-secret`, [a], (s) => s.subtle.importKey('raw-secret', bytes(8), a, false, ['deriveBits']), 'exact', null,
      a === 'Argon2i' ? { alg: 2, usages: 4, format: 0, args: () => ['raw-secret', bytes(8), a, false, ['deriveBits']] } : null);
    add(`${a} import jwk`, [a], (s) => s.subtle.importKey('jwk', { kty: 'oct', k: 'AAAA' }, a, false, ['deriveBits']));
    add(`${a} export`, [a], (s, k) => s.subtle.exportKey('raw-secret', k[a]));
  }
  // ---- Ed448, X448
  for (const ctxLen of [undefined, 0, 5, 255, 256]) {
    add(`Ed448 sign context ${ctxLen}`, ['Ed448'], (s, k) => s.subtle.sign({ name: 'Ed448', context: ctxLen === undefined ? undefined : bytes(ctxLen) }, k['Ed448.priv'], bytes(50)));
    add(`Ed448 verify context ${ctxLen}`, ['Ed448'], async (s, k) => s.subtle.verify({ name: 'Ed448', context: ctxLen === undefined ? undefined : bytes(ctxLen) }, k['Ed448.pub'],
      await s.subtle.sign('Ed448', k['Ed448.priv'], bytes(5)), bytes(5)));
  }
  add('Ed448 sign', ['Ed448'], (s, k) => s.subtle.sign('Ed448', k['Ed448.priv'], bytes(50)), 'exact', null,
    { alg: 0, key: 1, data: 2, args: (s, k) => [{ name: 'Ed448' }, k['Ed448.priv'], bytes(50)] });
  add('Ed448 verify bad length', ['Ed448'], (s, k) => s.subtle.verify('Ed448', k['Ed448.pub'], bytes(113), bytes(5)));
  add('X448 deriveBits', ['X448'], (s, k) => s.subtle.deriveBits({ name: 'X448', public: k['X448-peer.pub'] }, k['X448.priv'], 448), 'exact', null,
    { alg: 0, key: 1, args: (s, k) => [{ name: 'X448', public: k['X448-peer.pub'] }, k['X448.priv'], 448] });
  for (const len of [null, 0, 8, 7, 456]) add(`X448 deriveBits ${len}`, ['X448'], (s, k) => s.subtle.deriveBits({ name: 'X448', public: k['X448-peer.pub'] }, k['X448.priv'], len));
  add('X448 deriveKey AES', ['X448'], (s, k) => s.subtle.deriveKey({ name: 'X448', public: k['X448-peer.pub'] }, k['X448.priv'], { name: 'AES-GCM', length: 128 }, true, ['encrypt']));
  add('X448 public is an X25519 key', ['X448', 'X25519'], (s, k) => s.subtle.deriveBits({ name: 'X448', public: k['X25519-peer.pub'] }, k['X448.priv'], 448));
  for (const [alg, pu, pr] of [['Ed448', ['verify'], ['sign']], ['X448', [], ['deriveBits']]]) {
    for (const f of ['spki', 'raw', 'raw-public', 'jwk']) add(`${alg} export public ${f}`, [alg], (s, k) => s.subtle.exportKey(f, k[`${alg}.pub`]));
    for (const f of ['pkcs8', 'jwk', 'raw', 'raw-seed']) add(`${alg} export private ${f}`, [alg], (s, k) => s.subtle.exportKey(f, k[`${alg}.priv`]));
    add(`${alg} generateKey`, [alg], (s) => s.subtle.generateKey(alg, true, [...pu, ...pr]), 'shape', null,
      { alg: 0, usages: 2, args: () => [alg, true, [...pu, ...pr]] });
    const n = alg === 'Ed448' ? 57 : 56;
    for (const f of ['raw', 'raw-public']) {
      for (const len of [n, n - 1]) add(`${alg} import ${f} ${len} bytes`, [alg], (s) => s.subtle.importKey(f, bytes(len), alg, true, pu));
    }
    add(`${alg} import pkcs8`, [alg], (s, k) => s.subtle.importKey('pkcs8', k[`${alg}.pkcs8`], alg, true, pr), 'exact', null,
      { alg: 2, usages: 4, format: 0, keyData: 1, args: (s, k) => ['pkcs8', k[`${alg}.pkcs8`], alg, true, pr] });
    add(`${alg} getPublicKey`, [alg, 'op:getPublicKey'], async (s, k) => s.subtle.getPublicKey(k[`${alg}.priv`], pu));
    add(`${alg} import jwk private`, [alg], async (s, k) => s.subtle.importKey('jwk', await s.subtle.exportKey('jwk', k[`${alg}.priv`]), alg, true, pr));
    add(`${alg} import jwk private wrong x`, [alg], async (s, k) => {
      const j = await s.subtle.exportKey('jwk', k[`${alg}.priv`]);
      j.x = `${j.x.slice(0, -4)}AAAA`;
      return s.subtle.importKey('jwk', j, alg, true, pr);
    });
  }
  // ---- ML-KEM
  for (const a of MLKEM) {
    add(`${a} encapsulateBits`, [a], (s, k) => s.subtle.encapsulateBits(a, k[`${a}.pub`]), 'shape',
      async (s, k, r) => hex(await s.subtle.decapsulateBits(a, k[`${a}.priv`], r.ciphertext)) === hex(r.sharedKey),
      a === 'ML-KEM-768' ? { alg: 0, key: 1, args: (s, k) => [{ name: a }, k[`${a}.pub`]] } : null);
    // the shared key as its raw bytes, which the other side's decapsulation must give
    add(`${a} encapsulateKey`, [a], async (s, k) => {
      const r = await s.subtle.encapsulateKey(a, k[`${a}.pub`], { name: 'AES-GCM', length: 256 }, true, ['encrypt']);
      return { ciphertext: r.ciphertext, sharedKey: await s.subtle.exportKey('raw', r.sharedKey), algorithm: r.sharedKey.algorithm, usages: r.sharedKey.usages };
    }, 'shape', async (s, k, r) => {
      const d = await s.subtle.decapsulateKey(a, k[`${a}.priv`], r.ciphertext, { name: 'AES-GCM' }, true, ['encrypt']);
      return hex(await s.subtle.exportKey('raw', d)) === hex(r.sharedKey);
    }, a === 'ML-KEM-768' ? { alg: [0, 2], key: 1, usages: 4, args: (s, k) => [a, k[`${a}.pub`], { name: 'AES-GCM' }, true, ['encrypt']] } : null);
    add(`${a} encapsulateKey HMAC`, [a], async (s, k) => (await s.subtle.encapsulateKey(a, k[`${a}.pub`], { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])).sharedKey, 'shape');
    add(`${a} encapsulateKey AES-128`, [a], (s, k) => s.subtle.encapsulateKey(a, k[`${a}.pub`], { name: 'AES-GCM', length: 128 }, true, ['encrypt']), 'shape');
    add(`${a} encapsulate with the private key`, [a], (s, k) => s.subtle.encapsulateBits(a, k[`${a}.priv`]));
    add(`${a} decapsulate with the public key`, [a], (s, k) => s.subtle.decapsulateBits(a, k[`${a}.pub`], bytes(1088)));
    const ctLen = { 'ML-KEM-512': 768, 'ML-KEM-768': 1088, 'ML-KEM-1024': 1568 }[a];
    // a ciphertext of the right length that no encapsulation made: implicit
    // rejection, a pseudo-random key that depends only on the key and it
    add(`${a} decapsulateBits implicit rejection`, [a], (s, k) => s.subtle.decapsulateBits(a, k[`${a}.priv`], bytes(ctLen, 7)), 'exact', null,
      a === 'ML-KEM-768' ? { alg: 0, key: 1, data: 2, args: (s, k) => [a, k[`${a}.priv`], bytes(ctLen, 7)] } : null);
    // an encapsulation with one byte changed: no error, and a key other than the encapsulated one
    add(`${a} decapsulateBits tampered ciphertext`, [a], async (s, k) => {
      const r = await s.subtle.encapsulateBits(a, k[`${a}.pub`]);
      const ct = new Uint8Array(r.ciphertext);
      ct[10] ^= 0x01;
      const d = await s.subtle.decapsulateBits(a, k[`${a}.priv`], ct);
      return d.byteLength === 32 && hex(d) !== hex(r.sharedKey);
    });
    add(`${a} decapsulateKey implicit rejection`, [a], (s, k) => s.subtle.decapsulateKey(a, k[`${a}.priv`], bytes(ctLen, 7), 'HKDF', false, ['deriveBits']));
    for (const n of [ctLen - 1, ctLen + 1, 0]) add(`${a} decapsulateBits ciphertext ${n} bytes`, [a], (s, k) => s.subtle.decapsulateBits(a, k[`${a}.priv`], bytes(n)));
  }
  // ---- ML-DSA
  for (const a of MLDSA) {
    add(`${a} sign/verify`, [a], (s, k) => s.subtle.sign(a, k[`${a}.priv`], bytes(50)), 'shape',
      (s, k, sig) => s.subtle.verify(a, k[`${a}.pub`], sig, bytes(50)),
      a === 'ML-DSA-44' ? { alg: 0, key: 1, data: 2, args: (s, k) => [{ name: a, context: bytes(0) }, k[`${a}.priv`], bytes(50)] } : null);
    for (const n of [0, 5, 255, 256]) {
      add(`${a} sign context ${n}`, [a], (s, k) => s.subtle.sign({ name: a, context: bytes(n) }, k[`${a}.priv`], bytes(50)), 'shape',
        (s, k, sig) => s.subtle.verify({ name: a, context: bytes(n) }, k[`${a}.pub`], sig, bytes(50)));
    }
    add(`${a} verify context 256`, [a], (s, k) => s.subtle.verify({ name: a, context: bytes(256) }, k[`${a}.pub`], bytes(100), bytes(50)));
    add(`${a} verify other context`, [a], async (s, k) => s.subtle.verify({ name: a, context: bytes(4) }, k[`${a}.pub`], await s.subtle.sign({ name: a, context: bytes(5) }, k[`${a}.priv`], bytes(9)), bytes(9)));
    add(`${a} verify bad`, [a], (s, k) => s.subtle.verify(a, k[`${a}.pub`], bytes(100), bytes(50)));
  }
  // ---- ML-* keys: formats
  for (const a of [...MLKEM, ...MLDSA]) {
    const kem = a.startsWith('ML-KEM');
    const pu = kem ? ['encapsulateBits'] : ['verify'];
    const pr = kem ? ['decapsulateBits'] : ['sign'];
    for (const f of ['spki', 'raw-public', 'jwk', 'raw']) add(`${a} export public ${f}`, [a], (s, k) => s.subtle.exportKey(f, k[`${a}.pub`]));
    for (const f of ['pkcs8', 'raw-seed', 'jwk', 'raw']) add(`${a} export private ${f}`, [a], (s, k) => s.subtle.exportKey(f, k[`${a}.priv`]));
    add(`${a} generateKey`, [a], (s) => s.subtle.generateKey(a, true, [...pu, ...pr]), 'shape', null,
      a === 'ML-KEM-512' || a === 'ML-DSA-44' ? { alg: 0, usages: 2, args: () => [a, true, [...pu, ...pr]] } : null);
    const seedLen = kem ? 64 : 32;
    for (const n of [seedLen, seedLen - 1, seedLen + 1, 0]) {
      add(`${a} import raw-seed ${n} bytes`, [a], (s) => s.subtle.importKey('raw-seed', bytes(n, 44), a, true, pr), 'exact', null,
        n === seedLen && (a === 'ML-KEM-768' || a === 'ML-DSA-65') ? { alg: 2, usages: 4, format: 0, keyData: 1, args: () => ['raw-seed', bytes(n, 44), a, true, pr] } : null);
    }
    add(`${a} import raw-public`, [a], async (s, k) => s.subtle.importKey('raw-public', await s.subtle.exportKey('raw-public', k[`${a}.pub`]), a, true, pu));
    add(`${a} import raw-public truncated`, [a], async (s, k) => s.subtle.importKey('raw-public', (await s.subtle.exportKey('raw-public', k[`${a}.pub`])).slice(1), a, true, pu));
    add(`${a} import spki`, [a], async (s, k) => s.subtle.importKey('spki', await s.subtle.exportKey('spki', k[`${a}.pub`]), a, true, pu));
    add(`${a} import pkcs8`, [a], async (s, k) => s.subtle.importKey('pkcs8', await s.subtle.exportKey('pkcs8', k[`${a}.priv`]), a, true, pr));
    add(`${a} import pkcs8 as spki`, [a], async (s, k) => s.subtle.importKey('spki', await s.subtle.exportKey('pkcs8', k[`${a}.priv`]), a, true, pu));
    add(`${a} import jwk private`, [a], async (s, k) => s.subtle.importKey('jwk', await s.subtle.exportKey('jwk', k[`${a}.priv`]), a, true, pr));
    add(`${a} import jwk public`, [a], async (s, k) => s.subtle.importKey('jwk', await s.subtle.exportKey('jwk', k[`${a}.pub`]), a, true, pu));
    for (const [n, patch] of [['pub of another key', { pub: 'other' }], ['no pub', { pub: undefined }], ['kty OKP', { kty: 'OKP' }], ['alg other', { alg: kem ? 'ML-KEM-1024' : 'ML-DSA-87' }],
      ['priv short', { priv: 'AAAA' }], ['no alg', { alg: undefined }]]) {
      add(`${a} import jwk ${n}`, [a], async (s, k) => {
        const j = await s.subtle.exportKey('jwk', k[`${a}.priv`]);
        for (const [m, v] of Object.entries(patch)) {
          if (v === undefined) delete j[m];
          else if (v === 'other') j[m] = (await s.subtle.exportKey('jwk', await s.subtle.getPublicKey(await s.subtle.importKey('raw-seed', bytes(kem ? 64 : 32, 9), a, true, pr), pu))).pub;
          else j[m] = v;
        }
        return s.subtle.importKey('jwk', j, a, true, pr);
      });
    }
    add(`${a} getPublicKey`, [a, 'op:getPublicKey'], (s, k) => s.subtle.getPublicKey(k[`${a}.priv`], pu), 'exact', null,
      a === 'ML-DSA-44' ? { key: 0, usages: 1, args: (s, k) => [k[`${a}.priv`], pu] } : null);
  }
  // ---- getPublicKey on the older algorithms
  for (const [id, alg, usages] of [['ECDSA-P-256', 'ECDSA', ['verify']], ['ECDH-P-384', 'ECDH', []], ['Ed25519', 'Ed25519', ['verify']], ['X25519', 'X25519', []]]) {
    add(`${id} getPublicKey`, [alg, 'op:getPublicKey'], (s, k) => s.subtle.getPublicKey(k[`${id}.priv`], usages), 'exact', null,
      id === 'ECDSA-P-256' ? { key: 0, usages: 1, args: (s, k) => [k[`${id}.priv`], usages] } : null);
    add(`${id} getPublicKey of a public key`, [alg, 'op:getPublicKey'], (s, k) => s.subtle.getPublicKey(k[`${id}.pub`], usages));
    add(`${id} getPublicKey private usage`, [alg, 'op:getPublicKey'], (s, k) => s.subtle.getPublicKey(k[`${id}.priv`], [alg === 'ECDSA' || alg === 'Ed25519' ? 'sign' : 'deriveBits']));
  }
  add('RSA-OAEP getPublicKey', ['RSA-OAEP', 'op:getPublicKey'], (s, k) => s.subtle.getPublicKey(k['RSA-OAEP-SHA-256.priv'], ['encrypt', 'wrapKey']));
  add('HMAC getPublicKey', ['HMAC', 'op:getPublicKey'], (s, k) => s.subtle.getPublicKey(k['hmac-SHA-256'], ['sign']));
  add('AES getPublicKey', ['AES-GCM', 'op:getPublicKey'], (s, k) => s.subtle.getPublicKey(k['AES-GCM-128'], []));
  // ---- SubtleCrypto.supports (static): synchronous; wrapped in a Promise
  const SUP = [
    ['digest', 'SHA-256'], ['digest', 'SHA3-384'], ['digest', { name: 'cSHAKE256', outputLength: 512 }], ['digest', 'cSHAKE256'], ['digest', 'Nope'],
    ['encrypt', { name: 'AES-GCM', iv: bytes(12) }], ['encrypt', 'AES-GCM'], ['encrypt', { name: 'ChaCha20-Poly1305', iv: bytes(12) }],
    ['encrypt', { name: 'AES-OCB', iv: bytes(12) }], ['sign', 'Ed25519'], ['sign', 'Ed448'], ['sign', { name: 'KMAC128', outputLength: 256 }],
    ['sign', 'ML-DSA-65'], ['verify', { name: 'ECDSA', hash: 'SHA3-256' }], ['generateKey', { name: 'AES-GCM', length: 256 }],
    ['generateKey', { name: 'AES-GCM', length: 100 }], ['generateKey', 'ML-KEM-768'], ['generateKey', 'X448'], ['generateKey', { name: 'HMAC', hash: 'SHA3-256' }],
    ['importKey', 'Argon2id'], ['exportKey', 'Ed448'], ['deriveBits', { name: 'HKDF', hash: 'SHA-256', salt: bytes(1), info: bytes(1) }, 256],
    ['deriveBits', { name: 'HKDF', hash: 'SHA-256', salt: bytes(1), info: bytes(1) }, 7],
    ['deriveBits', { name: 'Argon2id', nonce: bytes(16), parallelism: 1, memory: 64, passes: 1 }, 256],
    ['deriveKey', { name: 'HKDF', hash: 'SHA-256', salt: bytes(1), info: bytes(1) }, { name: 'AES-GCM', length: 256 }],
    ['deriveKey', { name: 'HKDF', hash: 'SHA-256', salt: bytes(1), info: bytes(1) }],
    ['wrapKey', 'AES-KW', 'AES-GCM'], ['wrapKey', { name: 'AES-GCM', iv: bytes(12) }, 'Ed25519'], ['unwrapKey', 'AES-KW', 'HMAC'],
    ['getPublicKey', 'Ed25519'], ['getPublicKey', 'AES-GCM'], ['getPublicKey', 'ML-DSA-44'], ['encapsulateBits', 'ML-KEM-768'],
    ['encapsulateKey', 'ML-KEM-768', { name: 'AES-GCM', length: 256 }], ['decapsulateBits', 'ML-KEM-512'], ['encapsulateBits', 'Ed25519'],
    ['nope', 'SHA-256'], ['get key length', 'AES-GCM'], ['encrypt', { name: 'AES-GCM' }], ['digest', 42],
  ];
  for (const [op, alg, x] of SUP) {
    const name = typeof alg === 'string' ? alg : typeof alg === 'object' ? alg.name : String(alg);
    // every algorithm it names: skipped where the backend lacks one (its answer is then false)
    const algs = ['op:supports', ...[name, x && (typeof x === 'string' ? x : x.name)].filter((n) => n && knownAlgs.has(n))];
    if (typeof alg === 'object' && /SHA3/.test(alg.hash || '')) algs.push(alg.hash);
    add(`supports ${op} ${JSON.stringify(alg, (k2, v) => (v instanceof Uint8Array ? `u8[${v.length}]` : v))}${x === undefined ? '' : ` ${JSON.stringify(x)}`}`, algs,
      async (s) => (x === undefined ? s.S.supports(op, alg) : s.S.supports(op, alg, x)));
  }
}

module.exports = { NEW_ALGS, PSEUDO, nodeHas, secrets, sideKeys, modernCalls };
