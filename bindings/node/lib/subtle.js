'use strict';
// SubtleCrypto: its methods (Web IDL's conversions in order, then the
// method's steps: normalise, read the bytes, call the addon now or on the
// pool) and its static supports().
//
// Each backend is like a realm of its own: withBackend(name) gets its own
// SubtleCrypto interface object and prototype (newSubtleInterface), whose
// static supports() answers for that backend, and its crypto.subtle is an
// object of that prototype. The operations are the same functions on every
// prototype, and their brand check (subtleBackend) accepts any backend's
// SubtleCrypto, as Web IDL's does an object of another realm.

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  ObjectCreate, ObjectFreeze, ObjectPrototypeHasOwnProperty, MapPrototypeGet, WeakMapPrototypeGet,
  WeakMapPrototypeSet, SafeWeakMap,
  StringPrototypeStartsWith, JSONStringify, PromiseReject, TypeError, TypedArrayPrototypeFill,
  TextEncoderPrototypeEncode,
} = P;
const { native, T } = require('./addon.js');
const { FORMATS, algById } = require('./tables.js');
const {
  checkBufferSource, bytesOf, isBufferSource, domString, needArgs, toBoolean, toFormat, toJwk,
  toNumber, toUsages,
} = require('./webidl.js');
const {
  kToken, algorithmOfKey, keyHandle, parseJwk, utf8, wrapGenerated, wrapKeyHandle,
} = require('./keys.js');
const { normalize, normalizeEither, paramAt, zeroOutputLength } = require('./algorithms.js');
const { ASYNC_BYTES, byteLength, call, emptyResult, isLarge, slow } = require('./pool.js');
const { interfaceObject, defineOperations } = require('./interface.js');

// A SubtleCrypto's backend (its internal slot): the brand check of every
// operation, which then rejects (never throws) on anything else.
const subtleBackend = new SafeWeakMap();
function checkSubtle(s) {
  const b = s !== null && typeof s === 'object' ? WeakMapPrototypeGet(subtleBackend, s) : undefined;
  if (b === undefined) throw new TypeError('Illegal invocation');
  return b;
}

// The regular operations, written as a class's methods (not constructors,
// each `length` the count of its required arguments, as Web IDL's), and
// put on every SubtleCrypto prototype (newSubtleInterface). Each is a
// promise-returning operation: whatever goes wrong, this included, rejects.
class Operations {

  digest(algorithm, data) {
    try {
      const b = checkSubtle(this);
      needArgs(2, arguments.length, 'digest');
      checkBufferSource(data, 'data');
      const alg = normalize('digest', algorithm);
      // The bytes as they are after normalizing (the spec's order since
      // w3c/webcrypto#426): no user code runs from here to the addon's read.
      const bytes = bytesOf(data);
      const big = isLarge(bytes, alg);
      if (alg.params.length === 1) return call('digest', big, [null, b, alg.id, bytes]);
      // cSHAKE: its members. An outputLength of 0 is an empty output (see
      // zeroOutputLength).
      const empty = zeroOutputLength(alg);
      return call('digest', big, [empty ? emptyResult : null, b, alg.params, bytes]);
    } catch (e) { return PromiseReject(e); }
  }

  generateKey(algorithm, extractable, keyUsages) {
    try {
      const b = checkSubtle(this);
      needArgs(3, arguments.length, 'generateKey');
      const usages = toUsages(keyUsages);
      const alg = normalize('generateKey', algorithm);
      return call('generateKey', slow('generateKey', alg.name) || isLarge(null, alg),
        [wrapGenerated, b, alg.params, toBoolean(extractable), usages]);
    } catch (e) { return PromiseReject(e); }
  }

  importKey(format, keyData, algorithm, extractable, keyUsages) {
    try {
      const b = checkSubtle(this);
      needArgs(5, arguments.length, 'importKey');
      // Web IDL first: the arguments in order ((BufferSource or JsonWebKey)
      // reads a JsonWebKey's members now), then the method's steps.
      const f = toFormat(format);
      const isBytes = isBufferSource(keyData);
      const jwk = isBytes ? null : toJwk(keyData);
      const ext = toBoolean(extractable);
      const usages = toUsages(keyUsages);
      const alg = normalize('importKey', algorithm);
      let bytes;
      if (f === FORMATS.jwk) {
        if (isBytes) throw new TypeError('keyData must be a JsonWebKey for jwk');
        // Its own ArrayBuffer (Buffer.from would put it in Node's shared
        // pool, which any script can read, and leave a private key there),
        // wiped when the call settles (the addon may borrow it till then).
        // The addon reads it now (or copies it into its own memory for the
        // pool), so it is wiped as soon as run() returns.
        bytes = TextEncoderPrototypeEncode(utf8, JSONStringify(jwk));
        try {
          return call('importKey', slow('importKey', alg.name) || isLarge(bytes, alg),
            [wrapKeyHandle, b, f, bytes, alg.params, ext, usages]);
        } finally { TypedArrayPrototypeFill(bytes, 0); }
      } else {
        if (!isBytes) throw new TypeError('keyData must be a BufferSource');
        // The caller's bytes as they are now, no copy in the JS heap: the
        // addon reads them before returning (or copies them into its own
        // memory, wiped after, for the pool).
        bytes = bytesOf(checkBufferSource(keyData, 'keyData'));
      }
      return call('importKey', slow('importKey', alg.name) || isLarge(bytes, alg),
        [wrapKeyHandle, b, f, bytes, alg.params, ext, usages]);
    } catch (e) { return PromiseReject(e); }
  }

  exportKey(format, key) {
    try {
      checkSubtle(this);
      needArgs(2, arguments.length, 'exportKey');
      const f = toFormat(format);
      const h = keyHandle(key, 'key');
      return call('exportKey', false, [f === FORMATS.jwk ? parseJwk : null, undefined, f, h]);
    } catch (e) { return PromiseReject(e); }
  }

  encrypt(algorithm, key, data) { return cipher(this, 'encrypt', arguments.length, algorithm, key, data); }
  decrypt(algorithm, key, data) { return cipher(this, 'decrypt', arguments.length, algorithm, key, data); }
  sign(algorithm, key, data) { return cipher(this, 'sign', arguments.length, algorithm, key, data); }

  static cipher(self, op, argc, algorithm, key, data) {
    try {
      checkSubtle(self);
      needArgs(3, argc, op);
      const h = keyHandle(key, 'key');
      checkBufferSource(data, 'data');
      const alg = normalize(op, algorithm);
      const bytes = bytesOf(data); // after normalizing (see digest)
      const async = isLarge(bytes, alg) || slow(op, alg.name);
      // KMAC with outputLength 0: an empty MAC (see zeroOutputLength).
      const empty = zeroOutputLength(alg);
      return call(op, async, [empty ? emptyResult : null, undefined, alg.params, h, bytes]);
    } catch (e) { return PromiseReject(e); }
  }

  verify(algorithm, key, signature, data) {
    try {
      checkSubtle(this);
      needArgs(4, arguments.length, 'verify');
      const h = keyHandle(key, 'key');
      checkBufferSource(signature, 'signature');
      checkBufferSource(data, 'data');
      const alg = normalize('verify', algorithm);
      const sig = bytesOf(signature); // after normalizing (see digest)
      const bytes = bytesOf(data);
      const async = isLarge(bytes, alg) || byteLength(sig) >= ASYNC_BYTES || slow('verify', alg.name);
      // KMAC outputLength 0 (see cipher): the empty MAC matches only an empty signature.
      // Whether the signature is empty is read now: the caller may detach
      // it before the promise settles.
      const empty = zeroOutputLength(alg);
      const sigEmpty = byteLength(sig) === 0;
      return call('verify', async,
        [empty ? () => sigEmpty : null, undefined, alg.params, h, sig, bytes]);
    } catch (e) { return PromiseReject(e); }
  }

  deriveBits(algorithm, baseKey, length = null) {
    try {
      checkSubtle(this);
      needArgs(2, arguments.length, 'deriveBits');
      const h = keyHandle(baseKey, 'baseKey');
      // optional unsigned long? length = null (no [EnforceRange]: modulo 2^32)
      const bits = length === null || length === undefined ? -1 : (toNumber(length, 'length') >>> 0);
      const alg = normalize('deriveBits', algorithm);
      return call('deriveBits', slow('deriveBits', alg.name) || isLarge(null, alg),
        [null, undefined, alg.params, h, bits]);
    } catch (e) { return PromiseReject(e); }
  }

  deriveKey(algorithm, baseKey, derivedKeyType, extractable, keyUsages) {
    try {
      checkSubtle(this);
      needArgs(5, arguments.length, 'deriveKey');
      const h = keyHandle(baseKey, 'baseKey');
      const ext = toBoolean(extractable);
      const usages = toUsages(keyUsages);
      const alg = normalize('deriveBits', algorithm);
      // derivedKeyType normalised twice, as the spec does: the key is
      // imported as the first, and as long as the second says.
      const importAs = normalize('importKey', derivedKeyType);
      const derived = normalize('get key length', derivedKeyType);
      return call('deriveKey', slow('deriveKey', alg.name) || isLarge(null, alg, derived),
        [wrapKeyHandle, undefined, alg.params, h, importAs.params, ext, usages, derived.params]);
    } catch (e) { return PromiseReject(e); }
  }

  wrapKey(format, key, wrappingKey, wrapAlgorithm) {
    try {
      checkSubtle(this);
      needArgs(4, arguments.length, 'wrapKey');
      const f = toFormat(format);
      const h = keyHandle(key, 'key');
      const wh = keyHandle(wrappingKey, 'wrappingKey');
      const alg = normalizeEither('wrapKey', 'encrypt', wrapAlgorithm);
      return call('wrapKey', slow('encrypt', alg.name) || isLarge(null, alg),
        [null, undefined, f, h, wh, alg.params]);
    } catch (e) { return PromiseReject(e); }
  }

  unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm,
            extractable, keyUsages) {
    try {
      checkSubtle(this);
      needArgs(7, arguments.length, 'unwrapKey');
      const f = toFormat(format);
      checkBufferSource(wrappedKey, 'wrappedKey');
      const h = keyHandle(unwrappingKey, 'unwrappingKey');
      const usages = toUsages(keyUsages);
      const alg = normalizeEither('unwrapKey', 'decrypt', unwrapAlgorithm);
      const keyAlg = normalize('importKey', unwrappedKeyAlgorithm);
      const bytes = bytesOf(wrappedKey); // after normalizing (see digest)
      return call('unwrapKey', slow('decrypt', alg.name) || isLarge(bytes, alg, keyAlg),
        [wrapKeyHandle, undefined, f, bytes, h, alg.params, keyAlg.params, toBoolean(extractable),
          usages]);
    } catch (e) { return PromiseReject(e); }
  }

  // ---- "Modern Algorithms in the Web Cryptography API" ----

  getPublicKey(key, keyUsages) {
    try {
      checkSubtle(this);
      needArgs(2, arguments.length, 'getPublicKey');
      const h = keyHandle(key, 'key');
      const usages = toUsages(keyUsages);
      return call('getPublicKey', slow('getPublicKey', algorithmOfKey(key)),
        [wrapKeyHandle, undefined, h, usages]);
    } catch (e) { return PromiseReject(e); }
  }

  encapsulateBits(encapsulationAlgorithm, encapsulationKey) {
    try {
      checkSubtle(this);
      needArgs(2, arguments.length, 'encapsulateBits');
      // Web IDL converts the arguments (TypeError) before the steps normalise
      const h = keyHandle(encapsulationKey, 'encapsulationKey');
      const alg = normalize('encapsulate', encapsulationAlgorithm);
      return call('encapsulateBits', slow('encapsulate', alg.name),
        [(r) => ({ sharedKey: r[1], ciphertext: r[0] }), undefined, alg.params, h]);
    } catch (e) { return PromiseReject(e); }
  }

  encapsulateKey(encapsulationAlgorithm, encapsulationKey, sharedKeyAlgorithm, extractable, keyUsages) {
    try {
      checkSubtle(this);
      needArgs(5, arguments.length, 'encapsulateKey');
      const h = keyHandle(encapsulationKey, 'encapsulationKey');
      const ext = toBoolean(extractable);
      const usages = toUsages(keyUsages);
      const alg = normalize('encapsulate', encapsulationAlgorithm);
      const keyAlg = normalize('importKey', sharedKeyAlgorithm);
      return call('encapsulateKey', slow('encapsulate', alg.name),
        [(r) => ({ sharedKey: wrapKeyHandle(r[1]), ciphertext: r[0] }), undefined, alg.params, h,
          keyAlg.params, ext, usages]);
    } catch (e) { return PromiseReject(e); }
  }

  decapsulateBits(decapsulationAlgorithm, decapsulationKey, ciphertext) {
    try {
      checkSubtle(this);
      needArgs(3, arguments.length, 'decapsulateBits');
      const h = keyHandle(decapsulationKey, 'decapsulationKey');
      checkBufferSource(ciphertext, 'ciphertext');
      const alg = normalize('decapsulate', decapsulationAlgorithm);
      const ct = bytesOf(ciphertext); // after normalizing (see digest)
      return call('decapsulateBits', slow('decapsulate', alg.name),
        [null, undefined, alg.params, h, ct]);
    } catch (e) { return PromiseReject(e); }
  }

  decapsulateKey(decapsulationAlgorithm, decapsulationKey, ciphertext, sharedKeyAlgorithm,
                 extractable, keyUsages) {
    try {
      checkSubtle(this);
      needArgs(6, arguments.length, 'decapsulateKey');
      const h = keyHandle(decapsulationKey, 'decapsulationKey');
      checkBufferSource(ciphertext, 'ciphertext');
      const ext = toBoolean(extractable);
      const usages = toUsages(keyUsages);
      const alg = normalize('decapsulate', decapsulationAlgorithm);
      const keyAlg = normalize('importKey', sharedKeyAlgorithm);
      const ct = bytesOf(ciphertext); // after normalizing (see digest)
      return call('decapsulateKey', slow('decapsulate', alg.name),
        [wrapKeyHandle, undefined, alg.params, h, ct, keyAlg.params, ext, usages]);
    } catch (e) { return PromiseReject(e); }
  }

}
const cipher = Operations.cipher;
delete Operations.cipher;

// A new SubtleCrypto interface object (a realm's), with its prototype; its
// static supports(operation, algorithm, lengthOrAdditionalAlgorithm), as in
// the draft and Node 24, answers for backendOf()'s backend.
function newSubtleInterface(backendOf) {
  const SubtleCrypto = interfaceObject('SubtleCrypto');
  defineOperations(SubtleCrypto.prototype, Operations.prototype);
  defineOperations(SubtleCrypto, {
    supports(operation, algorithm, lengthOrAdditionalAlgorithm = null) {
      needArgs(2, arguments.length, 'supports');
      return supportsOn(backendOf(), domString(operation, 'operation'), algorithm,
        lengthOrAdditionalAlgorithm);
    },
  });
  return SubtleCrypto;
}
// A SubtleCrypto of interface cls, on backend b (crypto.subtle).
function newSubtle(cls, b) {
  const s = ObjectCreate(cls.prototype);
  WeakMapPrototypeSet(subtleBackend, s, b);
  return s;
}

// supports(): the draft's steps. The operation is a DOMString: one
// SubtleCrypto has no method for is false. The algorithm is normalised for
// the operation (getPublicKey: for exportKey, which every algorithm with key
// pairs has; encapsulateBits/Key: for "encapsulate"), and any error of that
// normalisation (TypeError included) is false; the rest is the library's
// webcrypto_supports.
const SUPPORTS_OPS = {
  __proto__: null,
  encrypt: 'encrypt', decrypt: 'decrypt', sign: 'sign', verify: 'verify', digest: 'digest',
  generateKey: 'generateKey', deriveKey: 'deriveBits', deriveBits: 'deriveBits',
  importKey: 'importKey', exportKey: 'exportKey', wrapKey: 'wrapKey', unwrapKey: 'unwrapKey',
  getPublicKey: 'exportKey', encapsulateKey: 'encapsulate', encapsulateBits: 'encapsulate',
  decapsulateKey: 'decapsulate', decapsulateBits: 'decapsulate',
};
const SUPPORTS_C_OP = { __proto__: null, deriveKey: 'deriveKey', getPublicKey: 'getPublicKey',
  encapsulateKey: 'encapsulate', encapsulateBits: 'encapsulate',
  decapsulateKey: 'decapsulate', decapsulateBits: 'decapsulate' };
function supportsOn(b, op, algorithm, extra) {
  const normOp = SUPPORTS_OPS[op];
  if (normOp === undefined || !ObjectPrototypeHasOwnProperty(SUPPORTS_OPS, op)) return false;
  let alg;
  let add = null;
  let length = -1;
  try {
    if (op === 'wrapKey' || op === 'unwrapKey') {
      alg = normalizeEither(op, op === 'wrapKey' ? 'encrypt' : 'decrypt', algorithm);
    } else {
      alg = normalize(normOp, algorithm);
    }
    if (op === 'deriveKey' || op === 'wrapKey' || op === 'unwrapKey' ||
        op === 'encapsulateKey' || op === 'decapsulateKey') {
      if (extra === null || extra === undefined) {
        // wrapKey/unwrapKey/deriveKey need the other algorithm (the library
        // says false without it); encapsulateKey/decapsulateKey do not.
        if (op === 'deriveKey' || op === 'wrapKey' || op === 'unwrapKey') return false;
      } else if (op === 'deriveKey') {
        if (normalize('importKey', extra).rejected) return false;
        const d = normalize('get key length', extra);
        if (d.rejected) return false;
        add = d.params;
      } else if (op === 'wrapKey') {
        const d = normalize('exportKey', extra);
        if (d.rejected) return false;
        add = d.params;
      } else {
        const d = normalize('importKey', extra);
        if (d.rejected) return false;
        add = d.params;
      }
    } else if (op === 'deriveBits' && extra !== null && extra !== undefined) {
      if (typeof extra === 'object' || typeof extra === 'function') return false;
      length = toNumber(extra, 'length') >>> 0;
    }
  } catch (e) {
    return false;
  }
  // A member's 0 that the operation fails on (ZERO_IS_AN_ERROR): false.
  if (alg.rejected) return false;
  // KMAC's and cSHAKE's outputLength 0 is an empty output, which sign,
  // verify and digest give (see zeroOutputLength), so supported where the
  // call they make is.
  zeroOutputLength(alg);
  // The addon throws on what it cannot take (an unknown namedCurve, say):
  // the draft's answer to that is false, never an exception.
  try {
    if (op === 'encapsulateKey' || op === 'decapsulateKey') {
      if (add && !native.supportsOp(b, T.operations.importKey, add, -1, null)) return false;
    }
    // HMAC with a SHA-3 hash has no default length (no block size is defined
    // for SHA-3: webcrypto.h, webcrypto_generate_key), so generateKey, and
    // deriveKey to such a key, without a length is NotSupportedError, which
    // webcrypto_supports does not see.
    if ((op === 'generateKey' && hmacSha3NoLength(alg.params)) ||
        (op === 'deriveKey' && add && hmacSha3NoLength(add))) return false;
    return native.supportsOp(b, T.operations[SUPPORTS_C_OP[op] || op], alg.params, length,
      op === 'encapsulateKey' || op === 'decapsulateKey' ? null : add);
  } catch (e) {
    return false;
  }
}
function hmacSha3NoLength(params) {
  if (MapPrototypeGet(algById, params[0]).name !== 'HMAC') return false;
  const h = paramAt(params, 'hash');
  return paramAt(params, 'length') < 0 && h > 0 && StringPrototypeStartsWith(MapPrototypeGet(algById, params[h]).name, 'SHA3-');
}
let defaultHandle;
const defaultBackendHandle = () => defaultHandle;
// index.js's withBackend sets it, once the default backend has started.
const setDefaultBackendHandle = (b) => { defaultHandle = b; };
// The default backend's SubtleCrypto (the module's export).
const SubtleCrypto = newSubtleInterface(defaultBackendHandle);

module.exports = ObjectFreeze({
  __proto__: null,
  SubtleCrypto, newSubtleInterface, newSubtle, defaultBackendHandle, setDefaultBackendHandle,
});
