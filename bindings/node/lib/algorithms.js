'use strict';
// Algorithm normalisation (WebCrypto's "normalize an algorithm"): the
// spec's dictionaries and registry, each member converted as its Web IDL
// type says, into the addon's flat params array.

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  ObjectFreeze, ObjectSetPrototypeOf, ArrayIsArray, MapPrototypeGet, SetPrototypeHas, TypeError,
  Error, Uint8Array, TypedArrayPrototypeGetByteLength, isUint8Array,
} = P;
const { isNotSupported, makeError, notSupported } = require('./errors.js');
const { algByLower, algByName, asciiLower, memberIndex } = require('./tables.js');
const { domString, enforceRange, RANGE, snapshot } = require('./webidl.js');
const { keyHandle } = require('./keys.js');

// The spec's dictionaries: member -> [Web IDL type, required]. Every member
// must be one of the addon's (webcrypto_node.c k_members).
const BS = 'BufferSource';
const HASH = 'HashAlgorithmIdentifier';
const DICTS = {
  Algorithm: {},
  AesCbcParams: { iv: [BS, true] },
  AesCtrParams: { counter: [BS, true], length: ['octet', true] },
  AesGcmParams: { iv: [BS, true], additionalData: [BS, false], tagLength: ['octet', false] },
  AesKeyGenParams: { length: ['unsigned short', true] },
  AesDerivedKeyParams: { length: ['unsigned short', true] },
  HmacKeyGenParams: { hash: [HASH, true], length: ['unsigned long', false] },
  HmacImportParams: { hash: [HASH, true], length: ['unsigned long', false] },
  HkdfParams: { hash: [HASH, true], salt: [BS, true], info: [BS, true] },
  Pbkdf2Params: { hash: [HASH, true], salt: [BS, true], iterations: ['unsigned long', true] },
  RsaHashedKeyGenParams: { modulusLength: ['unsigned long', true],
    publicExponent: ['BigInteger', true], hash: [HASH, true] },
  RsaHashedImportParams: { hash: [HASH, true] },
  RsaPssParams: { saltLength: ['unsigned long', true] },
  RsaOaepParams: { label: [BS, false] },
  EcKeyGenParams: { namedCurve: ['DOMString', true] },
  EcKeyImportParams: { namedCurve: ['DOMString', true] },
  EcdsaParams: { hash: [HASH, true] },
  EcdhKeyDeriveParams: { public: ['CryptoKey', true] },
  // "Secure Curves in the Web Cryptography API"
  Ed448Params: { context: [BS, false] },
  // "Modern Algorithms in the Web Cryptography API"
  CShakeParams: { outputLength: ['unsigned long', true], functionName: [BS, false],
    customization: [BS, false] },
  KmacKeyGenParams: { length: ['unsigned long', false] },
  KmacImportParams: { length: ['unsigned long', false] },
  KmacParams: { outputLength: ['unsigned long', true], customization: [BS, false] },
  ContextParams: { context: [BS, false] },
  AeadParams: { iv: [BS, true], additionalData: [BS, false], tagLength: ['octet', false] },
  Argon2Params: { nonce: [BS, true], parallelism: ['unsigned long', true],
    memory: ['unsigned long', true], passes: ['unsigned long', true], version: ['octet', false],
    secretValue: [BS, false], associatedData: [BS, false] },
};
// The spec's registry: algorithm -> operation -> dictionary. An operation the
// library's table has but this does not name takes `Algorithm` (name only),
// so an algorithm without parameters works with no line here.
const AES_CIPHER = (p) => ({ encrypt: p, decrypt: p, generateKey: 'AesKeyGenParams',
  'get key length': 'AesDerivedKeyParams' });
const RSA = (op) => Object.assign({ generateKey: 'RsaHashedKeyGenParams',
  importKey: 'RsaHashedImportParams' }, op);
const EC = (op) => Object.assign({ generateKey: 'EcKeyGenParams', importKey: 'EcKeyImportParams' }, op);
const REGISTRY = {
  HMAC: { generateKey: 'HmacKeyGenParams', importKey: 'HmacImportParams',
    'get key length': 'HmacImportParams' },
  'AES-CBC': AES_CIPHER('AesCbcParams'),
  'AES-CTR': AES_CIPHER('AesCtrParams'),
  'AES-GCM': AES_CIPHER('AesGcmParams'),
  'AES-GCM-SIV': AES_CIPHER('AesGcmParams'),
  'AES-KW': { generateKey: 'AesKeyGenParams', 'get key length': 'AesDerivedKeyParams' },
  HKDF: { deriveBits: 'HkdfParams' },
  PBKDF2: { deriveBits: 'Pbkdf2Params' },
  'RSASSA-PKCS1-v1_5': RSA({}),
  'RSA-PSS': RSA({ sign: 'RsaPssParams', verify: 'RsaPssParams' }),
  'RSA-OAEP': RSA({ encrypt: 'RsaOaepParams', decrypt: 'RsaOaepParams' }),
  ECDSA: EC({ sign: 'EcdsaParams', verify: 'EcdsaParams' }),
  ECDH: EC({ deriveBits: 'EcdhKeyDeriveParams' }),
  X25519: { deriveBits: 'EcdhKeyDeriveParams' },
  X448: { deriveBits: 'EcdhKeyDeriveParams' },
  Ed448: { sign: 'Ed448Params', verify: 'Ed448Params' },
  cSHAKE128: { digest: 'CShakeParams' },
  cSHAKE256: { digest: 'CShakeParams' },
  KMAC128: { generateKey: 'KmacKeyGenParams', importKey: 'KmacImportParams',
    'get key length': 'KmacImportParams', sign: 'KmacParams', verify: 'KmacParams' },
  KMAC256: { generateKey: 'KmacKeyGenParams', importKey: 'KmacImportParams',
    'get key length': 'KmacImportParams', sign: 'KmacParams', verify: 'KmacParams' },
  'ChaCha20-Poly1305': { encrypt: 'AeadParams', decrypt: 'AeadParams' },
  'AES-OCB': AES_CIPHER('AeadParams'),
  'ML-DSA-44': { sign: 'ContextParams', verify: 'ContextParams' },
  'ML-DSA-65': { sign: 'ContextParams', verify: 'ContextParams' },
  'ML-DSA-87': { sign: 'ContextParams', verify: 'ContextParams' },
  Argon2d: { deriveBits: 'Argon2Params' },
  Argon2i: { deriveBits: 'Argon2Params' },
  Argon2id: { deriveBits: 'Argon2Params' },
};
// Members whose 0 the C API reads as "absent" (webcrypto_params: "a member
// left 0 is absent where the spec allows it"), where the spec gives a present
// 0 its own error: "operation dictionary member" -> a value the library
// rejects at the same step of the spec with the same error (so the checks
// before it, such as usages, still come first), or an error to throw now.
const ZERO_IS_AN_ERROR = {
  'generateKey AesKeyGenParams length': 1, // OperationError: not 128, 192 or 256
  'get key length AesDerivedKeyParams length': 1, // OperationError, likewise
  'generateKey HmacKeyGenParams length': 0xffffffff, // OperationError: too long
  'importKey HmacImportParams length': 0xffffffff, // DataError: longer than the key
  'get key length HmacImportParams length': 'TypeError',
  'generateKey RsaHashedKeyGenParams modulusLength': 1, // OperationError: no such modulus
  'encrypt AesGcmParams tagLength': 1, // OperationError: not a tag length
  'decrypt AesGcmParams tagLength': 1,
  'encrypt AeadParams tagLength': 1, // OperationError: not a tag length
  'decrypt AeadParams tagLength': 1,
  'generateKey KmacKeyGenParams length': 0xfffffff8, // OperationError: too long (whole bytes, so not NotSupportedError)
  'importKey KmacImportParams length': 0xffffffff, // DataError: not the key's length
  'get key length KmacImportParams length': 'TypeError',
  'deriveBits Argon2Params version': 1, // OperationError: not 0x13
  'deriveBits Argon2Params parallelism': 0xffffffff, // OperationError: over 2^24-1
  'deriveBits Argon2Params memory': 1, // OperationError: under 8 * parallelism
  'deriveBits Argon2Params passes': 0, // OperationError: the library rejects a 0 passes itself
};
// Members in the order Web IDL reads them (lexicographic). (At most 10 a
// dictionary: normalize's list has room for 10.)
const DICT_MEMBERS = {};
for (const [d, members] of Object.entries(DICTS)) {
  if (Object.keys(members).length > 10) throw new Error(`webcrypto: ${d} has more than 10 members`);
  DICT_MEMBERS[d] = Object.keys(members).sort().map((m) => {
    if (!memberIndex.has(m)) throw new Error(`webcrypto: the addon has no params member ${m}`);
    return [m, memberIndex.get(m), members[m][0], members[m][1]];
  });
}

// The tables are read with keys that come from callers (an algorithm's name,
// an operation): none may reach Object.prototype, where a script could add
// entries.
for (const t of [DICTS, REGISTRY, ZERO_IS_AN_ERROR, DICT_MEMBERS]) {
  ObjectSetPrototypeOf(t, null);
  for (const k of Object.keys(t)) if (!ArrayIsArray(t[k])) ObjectSetPrototypeOf(t[k], null);
}

function convertMember(type, v, what, count) {
  switch (type) {
    case BS: return snapshot(v, what, count);
    case 'BigInteger':
      if (!isUint8Array(v)) throw new TypeError(`${what} is not a Uint8Array`);
      return snapshot(v, what, count);
    case 'octet': case 'unsigned short': case 'unsigned long':
      return enforceRange(v, RANGE[type], what);
    // (object or DOMString), normalised once the whole dictionary is
    // converted (normalize's last step).
    case HASH: return v !== null && (typeof v === 'object' || typeof v === 'function') ? v : domString(v, what);
    case 'DOMString': return domString(v, what);
    case 'CryptoKey': return keyHandle(v, what);
    default: throw new Error(`webcrypto: unknown member type ${type}`);
  }
}

// Normalises an algorithm for an operation: {id, name, params}, params the
// addon's flat array [id, member, value, ...].
function normalize(op, alg) {
  // (object or DOMString): anything but an object is a string (Web IDL
  // unions), the dictionary {name} whose other members are all absent.
  const dict = alg !== null && (typeof alg === 'object' || typeof alg === 'function') ? alg : null;
  const nameValue = dict === null ? domString(alg, 'algorithm') : dict.name;
  if (nameValue === undefined) throw new TypeError('algorithm.name is required');
  const name = domString(nameValue, 'algorithm.name');
  // The table's own spelling first (no lower-casing on the common path).
  const entry = MapPrototypeGet(algByName, name) || MapPrototypeGet(algByLower, asciiLower(name));
  if (!entry || !SetPrototypeHas(entry.ops, op)) throw notSupported(`${name}: ${op} is not supported`);
  const reg = REGISTRY[entry.name];
  const dname = (reg && reg[op]) || 'Algorithm';
  const members = DICT_MEMBERS[dname];
  // Made whole by a literal and cut to length: its slots are written while
  // they are its own, so no setter a script adds to Array.prototype for an
  // index sees a value (the byte members' snapshots among them).
  const params = [entry.id, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  let n = 1;
  let rejected = false;
  let hashAt = -1;
  // The bytes of its BufferSource members (a large salt, info or
  // additionalData sends the call to the thread pool, as large data does).
  const count = { __proto__: null, n: 0 };
  // The spec converts alg to the operation's dictionary type: its inherited
  // member first (Algorithm's required name, read again: a getter runs
  // twice, and the first read's value is the one used), then its own in
  // order.
  if (dict !== null) {
    const again = dict.name;
    if (again === undefined) throw new TypeError('algorithm.name is required');
    domString(again, 'algorithm.name');
  }
  for (let i = 0; i < members.length; i++) {
    const mm = members[i];
    const m = mm[0], idx = mm[1], type = mm[2], required = mm[3];
    const v = dict === null ? undefined : dict[m];
    if (v === undefined) {
      if (required) throw new TypeError(`${entry.name}: ${m} is required`);
      continue;
    }
    let c;
    if (type === 'BigInteger' && isUint8Array(v) && TypedArrayPrototypeGetByteLength(v) === 0) {
      // An empty BigInteger is 0, an exponent generation fails on
      // (OperationError); the C API's empty is "absent" (a TypeError), so
      // the call is made with a one-byte 0, which the library refuses at
      // that same step.
      c = snapshot(new Uint8Array(1), `${entry.name}.${m}`, count);
      rejected = true;
    } else {
      c = convertMember(type, v, `${entry.name}.${m}`, count);
    }
    if (c === 0) {
      const z = ZERO_IS_AN_ERROR[`${op} ${dname} ${m}`];
      if (typeof z === 'string') throw makeError(z, `${entry.name}: ${m} must not be 0`);
      if (z !== undefined) { c = z; rejected = true; }
    }
    params[n++] = idx;
    if (type === HASH) hashAt = n;
    params[n++] = c;
  }
  params.length = n;
  // Then each HashAlgorithmIdentifier member is normalised for digest (no
  // dictionary has two).
  if (hashAt >= 0) params[hashAt] = normalize('digest', params[hashAt]).id;
  // rejected: a member's 0 that the operation fails on (supports: false);
  // memberBytes: the bytes of its BufferSource members.
  return { id: entry.id, name: entry.name, params, rejected, memberBytes: count.n };
}

// Where a member is in normalize's params ([id, member, value, ...]): the
// index of its value, or -1.
function paramAt(params, member) {
  const m = MapPrototypeGet(memberIndex, member);
  for (let i = 1; i + 1 < params.length; i += 2) if (params[i] === m) return i + 1;
  return -1;
}
// cSHAKE's and KMAC's output in bytes (outputLength is in bits, up to
// 2^32-1: 512 MiB), 0 where the algorithm has no outputLength.
function outputBytes(alg) {
  const i = paramAt(alg.params, 'outputLength');
  return i < 0 ? 0 : alg.params[i] / 8;
}
// cSHAKE's and KMAC's outputLength 0 is an empty output (the draft: L = 0;
// Node 24 gives it), which the C API cannot be asked for: its 0 is
// "absent", a TypeError (webcrypto.h, webcrypto_digest_params and
// webcrypto_sign). The call is made with the length every backend that has
// the algorithm takes (webcrypto.h: the jca variants' cSHAKE and KMAC have
// only 256 bits for the 128 members, 512 for the 256 ones), so that the
// library makes all its other checks (the algorithm, the key, a function
// name or customization), and the caller gets the empty output. Sets it in
// params; true for a 0.
const ZERO_OUTPUT_AS = { __proto__: null, cSHAKE128: 256, cSHAKE256: 512, KMAC128: 256, KMAC256: 512 };
function zeroOutputLength(alg) {
  const i = paramAt(alg.params, 'outputLength');
  if (i < 0 || alg.params[i] !== 0) return false;
  alg.params[i] = ZERO_OUTPUT_AS[alg.name];
  return true;
}

// wrapKey/unwrapKey: the algorithm's own operation, else encrypt/decrypt.
function normalizeEither(op, fallback, alg) {
  try {
    return normalize(op, alg);
  } catch (e) {
    if (isNotSupported(e)) return normalize(fallback, alg);
    throw e;
  }
}

module.exports = ObjectFreeze({
  __proto__: null,
  normalize, normalizeEither, paramAt, outputBytes, zeroOutputLength,
});
