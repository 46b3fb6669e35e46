'use strict';
// Which calls run on Node's thread pool and which resolve at once, and the
// call itself (the addon's run, bound to each opcode and mode at load).

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  ReflectApply, nullObject, ObjectFreeze, SetPrototypeHas, SafeSet, PromiseResolve,
  TypedArrayPrototypeGetByteLength, setTimeout, TimeoutPrototypeUnref,
} = P;
const { native } = require('./addon.js');
const { OP } = require('./tables.js');
const { outputBytes } = require('./algorithms.js');

// Inputs this large run on Node's thread pool: below it the hop costs more
// than the work (docs/BENCHMARKS.md, "Node.js binding", has the measurement).
// WEBCRYPTO_NODE_ASYNC_BYTES overrides it (for that measurement).
const ASYNC_BYTES = Number(process.env.WEBCRYPTO_NODE_ASYNC_BYTES) || 32 * 1024;
// A large input (data, or the bytes of the algorithm's members: a salt, an
// info, additionalData; bytes may be null), or a large output (cSHAKE's and
// KMAC's outputLength): on the pool. alg2, when given, is a second
// normalized algorithm of the call (deriveKey's derived key type).
function isLarge(bytes, alg, alg2) {
  const n = (bytes === null ? 0 : byteLength(bytes)) + alg.memberBytes +
    (alg2 === undefined ? 0 : alg2.memberBytes);
  return n >= ASYNC_BYTES || outputBytes(alg) >= ASYNC_BYTES;
}
// Operations that take ~50 us or more whatever their size, and so go to the
// pool where two or more calls then run on two or more cores: RSA key
// generation and private-key operations, ECDSA, ECDH (P-256 ~60 us), Ed25519
// verification, PBKDF2 (its iterations), Argon2 (its memory and passes),
// Ed448 and X448 (key generation ~800 us, sign ~280 us, verify ~230 us,
// X448 ~320 us on openssl), and ML-KEM and ML-DSA (2 to 12 ms a call on the
// jca backend, the only one with them; importKey too, which expands the
// seed). Cheaper ones (HMAC, KMAC, AES, ChaCha20-Poly1305, digests, X25519,
// Ed25519 signing, EC key generation) resolve without a hop.
// (Measured with test/measure_slow.js: 50 awaited calls, Node 24.22.3,
// 2026-12-01, load average 8.7 on 2 cores: figures are upper bounds.)
const ML = ['ML-KEM-512', 'ML-KEM-768', 'ML-KEM-1024', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const MLDSA = ML.slice(3);
const SLOW = {
  generateKey: ['RSASSA-PKCS1-v1_5', 'RSA-PSS', 'RSA-OAEP', 'Ed448', 'X448', ...ML],
  importKey: ML,
  sign: ['RSASSA-PKCS1-v1_5', 'RSA-PSS', 'ECDSA', 'Ed448', ...MLDSA],
  verify: ['ECDSA', 'Ed25519', 'Ed448', ...MLDSA],
  decrypt: ['RSA-OAEP'],
  deriveBits: ['ECDH', 'X448', 'PBKDF2', 'Argon2d', 'Argon2i', 'Argon2id'],
  encapsulate: ML.slice(0, 3),
  decapsulate: ML.slice(0, 3),
  getPublicKey: ML,
};
SLOW.deriveKey = SLOW.deriveBits;
const SLOW_SETS = nullObject();
for (const op of Object.keys(SLOW)) SLOW_SETS[op] = new SafeSet(SLOW[op]);
function slow(op, name) {
  const set = SLOW_SETS[op];
  return set !== undefined && SetPrototypeHas(set, name);
}
// The byte length of what bytesOf gave (a Uint8Array), through the intrinsic
// getter.
const byteLength = (v) => TypedArrayPrototypeGetByteLength(v);

// The addon keeps the large blocks (64 KiB or more) that collected results
// and finished calls give back, for the next large call (webcrypto_node.c,
// "Large blocks"): this timer, which does not keep the process alive, frees
// those that no call took for a second, and runs while the addon holds any.
let trimTimer = null;
function trimLater() {
  if (trimTimer !== null) return;
  trimTimer = setTimeout(() => {
    trimTimer = null;
    if (native.trimCache() > 0) trimLater();
  }, 1000);
  TimeoutPrototypeUnref(trimTimer);
}

// Runs an op now (resolving at once) or on the pool; result mapped by `map`.
// args is an array literal of this file's, handed over whole (never spread:
// a spread iterates through Array.prototype[Symbol.iterator], which a script
// can replace to see, or swap, the arguments). The addon maps the result
// itself (no Promise.prototype.then, whose species a script can replace),
// and copies every byte input into its own memory before work on the pool.
const emptyResult = () => new P.ArrayBuffer(0);
// native.run bound to each opcode and mode at load: RUN[op][0] runs now,
// RUN[op][1] on the pool.
const RUN = nullObject();
for (const op of Object.keys(OP)) {
  RUN[op] = [P.FunctionPrototypeBind(native.run, undefined, OP[op], 0),
    P.FunctionPrototypeBind(native.run, undefined, OP[op], 1)];
}
// Runs an op now (resolving at once) or on the pool. args: an array literal
// of this file's, [map, backend (undefined: the key's), the op's
// arguments...], map the function the result goes through (or null). The
// arguments go by Reflect.apply (which reads an array by index), never by a
// spread, which iterates through Array.prototype[Symbol.iterator]: a script
// could replace it to see, or swap, the arguments. The addon maps the result
// itself (no Promise.prototype.then, whose species a script can replace),
// and copies every byte input into its own memory before work on the pool.
function call(op, async, args) {
  if (async) {
    const p = ReflectApply(RUN[op][1], undefined, args);
    trimLater();
    return p;
  }
  return PromiseResolve(ReflectApply(RUN[op][0], undefined, args));
}

module.exports = ObjectFreeze({
  __proto__: null,
  ASYNC_BYTES, isLarge, slow, byteLength, emptyResult, call,
});
