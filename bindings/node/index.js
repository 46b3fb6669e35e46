'use strict';
// libwebcrypto's Node.js binding: WebCrypto (crypto.subtle, getRandomValues,
// randomUUID) with Web IDL behaviour, over the C library's addon
// (webcrypto_node.c). bindings/node/README.md says how to build and use it.
//
// What is Web IDL's lives here: argument conversion (TypeError), algorithm
// normalisation (string or dictionary, ASCII case-insensitive names, required
// members), BufferSource copies, KeyUsage/KeyFormat enums, CryptoKey objects
// and DOMException names. What is WebCrypto's semantics (which usages, which
// lengths, key checks) is the C library's, from its one algorithm table.

const fs = require('fs');
const os = require('os');
const path = require('path');
// Every intrinsic used after load comes from here (see primordials.js).
const P = require('./primordials.js');
const {
  ReflectApply, nullObject, nullList, uncurryThis,
  ObjectDefineProperty, ObjectFreeze, ObjectGetOwnPropertyDescriptor, ObjectSetPrototypeOf,
  ObjectPrototypeHasOwnProperty, ArrayIsArray, ArrayPrototypePush, ArrayPrototypeIncludes,
  MapPrototypeGet, MapPrototypeSet, SetPrototypeHas, WeakMapPrototypeGet, WeakMapPrototypeSet,
  SafeMap, SafeSet, SafeWeakMap,
  StringPrototypeCharCodeAt, StringPrototypeStartsWith, StringFromCharCode,
  NumberIsFinite, MathTrunc, JSONParse, JSONStringify, SymbolIterator,
  PromiseResolve, PromiseReject, TypeError, RangeError, DOMException, DOMExceptionPrototypeGetName,
  Uint8Array, ArrayBufferPrototypeGetByteLength, ArrayBufferPrototypeGetResizable,
  TypedArrayPrototypeGetBuffer, TypedArrayPrototypeGetByteOffset, TypedArrayPrototypeGetByteLength,
  TypedArrayPrototypeGetSymbolToStringTag, TypedArrayPrototypeFill,
  DataViewPrototypeGetBuffer, DataViewPrototypeGetByteOffset, DataViewPrototypeGetByteLength,
  TextEncoderPrototypeEncode, TextDecoderPrototypeDecode, TextEncoder, TextDecoder,
  isArrayBuffer, isArrayBufferView, isDataView, isSharedArrayBuffer, isUint8Array,
  setTimeout, TimeoutPrototypeUnref,
} = P;

// ---- the addon ------------------------------------------------------------

function findAddon() {
  if (process.env.WEBCRYPTO_NODE_ADDON) return process.env.WEBCRYPTO_NODE_ADDON;
  const here = path.join(__dirname, 'webcrypto.node');
  if (fs.existsSync(here)) return here;
  // A CMake build tree beside the sources: build/<dir>/bindings/node/.
  const root = path.join(__dirname, '..', '..', 'build');
  let best = null;
  let bestTime = -1;
  let dirs = [];
  try { dirs = fs.readdirSync(root); } catch { /* no build folder */ }
  for (const d of dirs) {
    const f = path.join(root, d, 'bindings', 'node', 'webcrypto.node');
    try {
      const t = fs.statSync(f).mtimeMs;
      if (t > bestTime) { best = f; bestTime = t; }
    } catch { /* not built there */ }
  }
  if (!best) {
    throw new Error('webcrypto: the addon webcrypto.node was not found; build it with CMake ' +
                    '(bindings/node/README.md) or set WEBCRYPTO_NODE_ADDON');
  }
  return best;
}

function loadAddon() {
  const file = findAddon();
  const mod = { exports: {} };
  // RTLD_DEEPBIND: the addon's libcrypto references bind to the libcrypto the
  // library was built against, not to the OpenSSL a Node binary exports
  // (the official builds link their own statically and export it).
  const dl = os.constants.dlopen || {};
  let flags = dl.RTLD_LAZY !== undefined ? dl.RTLD_LAZY : 1;
  if (dl.RTLD_DEEPBIND !== undefined && process.platform === 'linux') flags |= dl.RTLD_DEEPBIND;
  process.dlopen(mod, path.resolve(file), flags);
  return mod.exports;
}

const addon = loadAddon();
const T = addon.tables;
ObjectSetPrototypeOf(T.operations, null);
// The addon's functions, captured (its exports object is an ordinary one).
const native = nullObject();
for (const k of Object.keys(addon)) native[k] = addon[k];
ObjectFreeze(native);

// ---- errors -----------------------------------------------------------------

function makeError(name, message) {
  if (name === 'TypeError') return new TypeError(message);
  if (name === 'OutOfMemory') return new DOMException(message || 'out of memory', 'OperationError');
  return new DOMException(message, name);
}
// Whether e is a DOMException named NotSupportedError (the intrinsic getter
// checks the brand: a caller's own `name` or instanceof hook is not asked).
function isNotSupported(e) {
  if (DOMExceptionPrototypeGetName === undefined) { // (a DOMException whose name is an own property)
    return e instanceof DOMException && e.name === 'NotSupportedError';
  }
  try { return DOMExceptionPrototypeGetName(e) === 'NotSupportedError'; } catch { return false; }
}
native.setErrorFactory(makeError);
const notSupported = (m) => new DOMException(m, 'NotSupportedError');

// ---- the tables ---------------------------------------------------------------

// Opcodes of native.run (webcrypto_node.c's enum opcode).
const OP = { __proto__: null, digest: 0, generateKey: 1, importKey: 2, exportKey: 3, encrypt: 4, decrypt: 5,
  sign: 6, verify: 7, deriveBits: 8, deriveKey: 9, wrapKey: 10, unwrapKey: 11,
  getPublicKey: 12, encapsulateBits: 13, encapsulateKey: 14, decapsulateBits: 15,
  decapsulateKey: 16 };
// KeyFormat (webcrypto_key_format); the last three are the "Modern
// Algorithms in the Web Cryptography API" draft's.
const FORMATS = { __proto__: null, raw: 1, pkcs8: 2, spki: 3, jwk: 4, 'raw-public': 5, 'raw-secret': 6, 'raw-seed': 7 };
const KEY_TYPES = [undefined, 'secret', 'public', 'private'];

// ASCII lower case (Web IDL's "ASCII case-insensitive"): only A-Z change.
function asciiLower(s) {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = StringPrototypeCharCodeAt(s, i);
    out += StringFromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
  }
  return out;
}

const algById = new SafeMap();
const algByName = new SafeMap();
const algByLower = new SafeMap();
for (const a of T.algorithms) {
  const e = { id: a.id, name: a.name, ops: new SafeSet(a.operations), digestSize: a.digestSize };
  algById.set(a.id, e);
  algByLower.set(asciiLower(a.name), e);
  algByName.set(a.name, e);
}
const memberIndex = new SafeMap(T.members.map((m, i) => [m, i]));
const usageBit = new SafeMap(T.usages.map((u, i) => [u, 1 << i]));

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

// ---- Web IDL conversions ----------------------------------------------------

function isBufferSource(v) {
  return isArrayBufferView(v) || isArrayBuffer(v);
}
const bufferOfView = (v) => (isDataView(v) ? DataViewPrototypeGetBuffer(v) : TypedArrayPrototypeGetBuffer(v));
// A resizable ArrayBuffer (none on a Node without them).
const isResizable = (buf) => ArrayBufferPrototypeGetResizable !== undefined &&
  ArrayBufferPrototypeGetResizable(buf) === true;
// Web IDL's conversion of an argument to BufferSource (or of getRandomValues'
// to ArrayBufferView): a type check only (TypeError), made with the other
// arguments'. Neither has [AllowShared] nor [AllowResizable], so a view on a
// SharedArrayBuffer (growable or not) and a resizable ArrayBuffer or a view
// on one are TypeErrors (Node 24's own crypto.subtle accepts a resizable
// one: test/known_differences.js). Every view kind the running Node has is
// accepted (Float16Array, BigInt64Array, DataView, ...): a BufferSource is
// its bytes, whatever the element type. The bytes are read later, by
// bytesOf or snapshot, where the method's steps "get a copy of the bytes
// held by" it: after normalizing the algorithm (w3c/webcrypto#426), whose
// getters may change them.
function checkView(v, what) {
  const buf = bufferOfView(v);
  if (isSharedArrayBuffer(buf)) throw new TypeError(`${what} is backed by a SharedArrayBuffer`);
  if (isResizable(buf)) throw new TypeError(`${what} is backed by a resizable ArrayBuffer`);
  return v;
}
function checkBufferSource(v, what) {
  if (isArrayBuffer(v)) {
    if (isResizable(v)) throw new TypeError(`${what} is a resizable ArrayBuffer`);
    return v;
  }
  if (isArrayBufferView(v)) return checkView(v, what);
  throw new TypeError(`${what} is not a BufferSource`);
}
// The bytes held by a (checked) BufferSource now, as a Uint8Array over them
// (no copy: the addon reads them before any JS runs, and copies them into
// its own memory for work on the thread pool), made with the intrinsic
// getters (a caller's own buffer/byteOffset/byteLength are not asked) and
// the intrinsic Uint8Array. Whatever the view's element type: its bytes are
// byteOffset..byteOffset+byteLength, never an element count times a size.
// A detached buffer holds no bytes (Web IDL: "get a copy of the bytes held
// by the buffer source" gives an empty byte sequence), and neither does a
// view on one. (A detached ArrayBuffer's byteLength is 0; a DataView's own
// byteLength throws once its buffer is detached, so the buffer's is read.)
function bytesOf(v) {
  // A Uint8Array (or a subclass's) goes as it is: the addon reads its
  // internal length and data (0 bytes once detached), no getter of it.
  if (isUint8Array(v)) return v;
  if (isArrayBuffer(v)) {
    return ArrayBufferPrototypeGetByteLength(v) === 0 ? new Uint8Array(0) : new Uint8Array(v);
  }
  const buf = bufferOfView(v);
  if (ArrayBufferPrototypeGetByteLength(buf) === 0) return new Uint8Array(0);
  if (isDataView(v)) {
    return new Uint8Array(buf, DataViewPrototypeGetByteOffset(v), DataViewPrototypeGetByteLength(v));
  }
  return new Uint8Array(buf, TypedArrayPrototypeGetByteOffset(v), TypedArrayPrototypeGetByteLength(v));
}
// A copy of a BufferSource's bytes now, for an algorithm's member: made in
// the addon's own memory (native.snapshot), never in the JS heap, so a
// secret (Argon2's secretValue, a salt) leaves no copy there, and the addon
// wipes it once the call has used it.
function snapshot(v, what) {
  return native.snapshot(bytesOf(checkBufferSource(v, what)));
}
function domString(v, what) {
  if (typeof v === 'symbol') throw new TypeError(`${what} cannot be a Symbol`);
  return `${v}`;
}
function toNumber(v, what) {
  if (typeof v === 'symbol' || typeof v === 'bigint') throw new TypeError(`${what} is not a number`);
  return +v;
}
const RANGE = { __proto__: null, octet: 0xff, 'unsigned short': 0xffff, 'unsigned long': 0xffffffff };
function enforceRange(v, max, what) {
  const x = toNumber(v, what);
  if (!NumberIsFinite(x)) throw new TypeError(`${what} is not a finite number`);
  const t = MathTrunc(x);
  if (t < 0 || t > max) throw new TypeError(`${what} is out of range`);
  return t + 0;
}
function toBoolean(v) { return !!v; }

function convertMember(type, v, what) {
  switch (type) {
    case BS: return snapshot(v, what);
    case 'BigInteger':
      if (!isUint8Array(v)) throw new TypeError(`${what} is not a Uint8Array`);
      return snapshot(v, what);
    case 'octet': case 'unsigned short': case 'unsigned long':
      return enforceRange(v, RANGE[type], what);
    case HASH: return normalize('digest', v).id;
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
  for (let i = 0; i < members.length; i++) {
    const mm = members[i];
    const m = mm[0], idx = mm[1], type = mm[2], required = mm[3];
    const v = dict === null ? undefined : dict[m];
    if (v === undefined) {
      if (required) throw new TypeError(`${entry.name}: ${m} is required`);
      continue;
    }
    let c = convertMember(type, v, `${entry.name}.${m}`);
    if (c === 0) {
      const z = ZERO_IS_AN_ERROR[`${op} ${dname} ${m}`];
      if (typeof z === 'string') throw makeError(z, `${entry.name}: ${m} must not be 0`);
      if (z !== undefined) { c = z; rejected = true; }
    }
    params[n++] = idx;
    params[n++] = c;
  }
  params.length = n;
  // rejected: a member's 0 that the operation fails on (supports: false).
  return { id: entry.id, name: entry.name, params, rejected };
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

// (A sequence is read through the caller's own iterator: Web IDL's steps.)
function toUsages(v) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function') ||
      typeof v[SymbolIterator] !== 'function') {
    throw new TypeError('keyUsages must be a sequence');
  }
  let bits = 0;
  for (const u of v) {
    const bit = MapPrototypeGet(usageBit, domString(u, 'key usage'));
    if (bit === undefined) throw new TypeError(`"${u}" is not a KeyUsage`);
    bits |= bit;
  }
  return bits;
}

function toFormat(v) {
  const name = domString(v, 'format');
  if (!ObjectPrototypeHasOwnProperty(FORMATS, name)) throw new TypeError(`"${name}" is not a KeyFormat`);
  return FORMATS[name];
}

// JsonWebKey (RFC 7517 members the spec lists), converted and re-serialised.
// (pub and priv: the "Modern Algorithms" draft's AKP keys, ML-KEM and ML-DSA.)
const JWK_STRINGS = ['alg', 'crv', 'd', 'dp', 'dq', 'e', 'k', 'kty', 'n', 'p', 'priv', 'pub', 'q', 'qi', 'use', 'x', 'y'];
const JWK_ORDER = ['alg', 'crv', 'd', 'dp', 'dq', 'e', 'ext', 'k', 'key_ops', 'kty', 'n', 'oth', 'p', 'priv', 'pub', 'q', 'qi', 'use', 'x', 'y'];
function toSequence(v, what, each) {
  if (v === null || typeof v !== 'object' || typeof v[SymbolIterator] !== 'function') {
    throw new TypeError(`${what} must be a sequence`);
  }
  const out = nullList();
  for (const x of v) ArrayPrototypePush(out, each(x));
  return out;
}
const OTH_MEMBERS = ['d', 'r', 't'];
function toJwk(v) {
  if (v !== undefined && v !== null && typeof v !== 'object' && typeof v !== 'function') {
    throw new TypeError('keyData must be a JsonWebKey');
  }
  const src = v == null ? nullObject() : v;
  // Inherits nothing: no toJSON or setter a script adds is reached when it
  // is filled or serialised.
  const out = nullObject();
  for (let i = 0; i < JWK_ORDER.length; i++) {
    const m = JWK_ORDER[i];
    const x = src[m];
    if (x === undefined) continue;
    if (m === 'ext') out.ext = toBoolean(x);
    else if (m === 'key_ops') out.key_ops = toSequence(x, 'key_ops', (s) => domString(s, 'key_ops'));
    else if (m === 'oth') {
      out.oth = toSequence(x, 'oth', (o) => {
        if (o === null || typeof o !== 'object') throw new TypeError('oth entries must be objects');
        const r = nullObject();
        for (let j = 0; j < OTH_MEMBERS.length; j++) {
          const k = OTH_MEMBERS[j];
          if (o[k] !== undefined) r[k] = domString(o[k], `oth.${k}`);
        }
        return r;
      });
    } else if (ArrayPrototypeIncludes(JWK_STRINGS, m)) out[m] = domString(x, `jwk.${m}`);
  }
  return out;
}

// ---- CryptoKey ----------------------------------------------------------------

const kToken = Symbol('webcrypto internal');
const USAGE_NAMES = T.usages;

// An own data property (the object is the caller's to keep: a plain one,
// filled without reaching any setter a script adds to Object.prototype).
function setOwn(o, k, v) {
  ObjectDefineProperty(o, k, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
}
// keyInfo's member k, own only (an absent one is not looked up on
// Object.prototype).
const infoOf = (info, k) => (ObjectPrototypeHasOwnProperty(info, k) ? info[k] : undefined);
function algorithmObject(info) {
  const a = {};
  const name = MapPrototypeGet(algById, infoOf(info, 'algorithm')).name;
  setOwn(a, 'name', name);
  const curve = infoOf(info, 'namedCurve');
  if (curve !== undefined) setOwn(a, 'namedCurve', curve);
  const ml = infoOf(info, 'modulusLength');
  if (ml !== undefined) {
    setOwn(a, 'modulusLength', ml);
    setOwn(a, 'publicExponent', infoOf(info, 'publicExponent'));
  }
  // ChaCha20-Poly1305's is a plain KeyAlgorithm (the draft: "Let algorithm
  // be a new KeyAlgorithm"): its keys have one length.
  const length = infoOf(info, 'length');
  if (length !== undefined && name !== 'ChaCha20-Poly1305') setOwn(a, 'length', length);
  const hash = infoOf(info, 'hash');
  if (hash !== undefined) {
    const h = {};
    setOwn(h, 'name', MapPrototypeGet(algById, hash).name);
    setOwn(a, 'hash', h);
  }
  return a;
}

class CryptoKey {
  #handle;
  #type;
  #extractable;
  #algorithm;
  #usages;
  constructor(token, handle) {
    if (token !== kToken) throw new TypeError('Illegal constructor');
    const info = native.keyInfo(handle);
    this.#handle = handle;
    this.#type = KEY_TYPES[infoOf(info, 'type')];
    this.#extractable = infoOf(info, 'extractable');
    this.#algorithm = algorithmObject(info);
    const usages = [];
    const bits = infoOf(info, 'usages');
    for (let i = 0; i < USAGE_NAMES.length; i++) if (bits & (1 << i)) setOwn(usages, usages.length, USAGE_NAMES[i]);
    this.#usages = usages;
  }
  get type() { return this.#type; }
  get extractable() { return this.#extractable; }
  get algorithm() { return this.#algorithm; }
  get usages() { return this.#usages; }
  static handleOf(k) { return #handle in k ? k.#handle : undefined; }
}
const handleOf = CryptoKey.handleOf;
// The key's own algorithm name (the getter captured below, not the
// caller's `algorithm` property of a subclass or a prototype change).
let algorithmOfKey;
delete CryptoKey.handleOf;
Object.defineProperty(CryptoKey.prototype, Symbol.toStringTag,
  { value: 'CryptoKey', configurable: true });
for (const p of ['type', 'extractable', 'algorithm', 'usages']) {
  const d = Object.getOwnPropertyDescriptor(CryptoKey.prototype, p);
  d.enumerable = true;
  Object.defineProperty(CryptoKey.prototype, p, d);
}
{
  const getAlgorithm = uncurryThis(ObjectGetOwnPropertyDescriptor(CryptoKey.prototype, 'algorithm').get);
  algorithmOfKey = (k) => getAlgorithm(k).name;
}

function keyHandle(v, what) {
  const h = v !== null && typeof v === 'object' ? handleOf(v) : undefined;
  if (h === undefined) throw new TypeError(`${what} is not a CryptoKey`);
  return h;
}
const wrapKeyHandle = (h) => new CryptoKey(kToken, h);
function wrapGenerated(r) {
  if (ArrayIsArray(r)) {
    return { publicKey: new CryptoKey(kToken, r[0]), privateKey: new CryptoKey(kToken, r[1]) };
  }
  return new CryptoKey(kToken, r);
}
// An exported JWK's bytes are wiped once parsed (a private key's are secret).
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
const parseJwk = (ab) => {
  const u = new Uint8Array(ab);
  try { return JSONParse(TextDecoderPrototypeDecode(utf8Decoder, u)); } finally { TypedArrayPrototypeFill(u, 0); }
};

// ---- which calls go to the thread pool ------------------------------------------

// Inputs this large run on Node's thread pool: below it the hop costs more
// than the work (docs/BENCHMARKS.md, "Node.js binding", has the measurement).
// WEBCRYPTO_NODE_ASYNC_BYTES overrides it (for that measurement).
const ASYNC_BYTES = Number(process.env.WEBCRYPTO_NODE_ASYNC_BYTES) || 32 * 1024;
// A large input, or a large output (cSHAKE's and KMAC's outputLength): on the pool.
function isLarge(bytes, alg) {
  return byteLength(bytes) >= ASYNC_BYTES || outputBytes(alg) >= ASYNC_BYTES;
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

// ---- SubtleCrypto ---------------------------------------------------------------

function needArgs(n, got, what) {
  if (got < n) throw new TypeError(`${what}: ${n} arguments required, ${got} given`);
}

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

class SubtleCrypto {
  #backend;
  constructor(token, backend) {
    if (token !== kToken) throw new TypeError('Illegal constructor');
    this.#backend = backend;
  }
  static check(s) {
    if (s === null || typeof s !== 'object' || !(#backend in s)) throw new TypeError('Illegal invocation');
    return s.#backend;
  }

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
      return call('generateKey', slow('generateKey', alg.name),
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
          return call('importKey', slow('importKey', alg.name),
            [wrapKeyHandle, b, f, bytes, alg.params, ext, usages]);
        } finally { TypedArrayPrototypeFill(bytes, 0); }
      } else {
        if (!isBytes) throw new TypeError('keyData must be a BufferSource');
        // The caller's bytes as they are now, no copy in the JS heap: the
        // addon reads them before returning (or copies them into its own
        // memory, wiped after, for the pool).
        bytes = bytesOf(checkBufferSource(keyData, 'keyData'));
      }
      return call('importKey', slow('importKey', alg.name),
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

  encrypt(algorithm, key, data) { return this.#cipher('encrypt', arguments.length, algorithm, key, data); }
  decrypt(algorithm, key, data) { return this.#cipher('decrypt', arguments.length, algorithm, key, data); }
  sign(algorithm, key, data) { return this.#cipher('sign', arguments.length, algorithm, key, data); }

  #cipher(op, argc, algorithm, key, data) {
    try {
      checkSubtle(this);
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
      const async = isLarge(bytes, alg) || slow('verify', alg.name);
      // KMAC outputLength 0 (see #cipher): the empty MAC matches only an empty signature.
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
      return call('deriveBits', slow('deriveBits', alg.name), [null, undefined, alg.params, h, bits]);
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
      normalize('importKey', derivedKeyType);
      const derived = normalize('get key length', derivedKeyType);
      return call('deriveKey', slow('deriveKey', alg.name),
        [wrapKeyHandle, undefined, alg.params, h, derived.params, ext, usages]);
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
      return call('wrapKey', slow('encrypt', alg.name), [null, undefined, f, h, wh, alg.params]);
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
      return call('unwrapKey', slow('decrypt', alg.name),
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

  // SubtleCrypto.supports(operation, algorithm, lengthOrAdditionalAlgorithm):
  // static, as in the draft and Node 24; on the default backend (a
  // withBackend(name)'s SubtleCrypto answers for its backend).
  static supports(operation, algorithm, lengthOrAdditionalAlgorithm = null) {
    needArgs(2, arguments.length, 'supports');
    return supportsOn(this === SubtleCrypto ? defaultBackendHandle() : backendOfClass(this),
      domString(operation, 'operation'), algorithm, lengthOrAdditionalAlgorithm);
  }
}
const checkSubtle = SubtleCrypto.check;
delete SubtleCrypto.check;

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
const subclassBackend = new SafeWeakMap();
const backendOfClass = (cls) => WeakMapPrototypeGet(subclassBackend, cls);
let defaultHandle;
const defaultBackendHandle = () => defaultHandle;
Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag,
  { value: 'SubtleCrypto', configurable: true });

// ---- Crypto ---------------------------------------------------------------------

const INTEGER_ARRAYS = new SafeSet(['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
  'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array']);

// Web IDL's QuotaExceededError: a DOMException named "QuotaExceededError"
// (code 22) with `quota` and `requested`, null unless given. The host's
// class when it has one (so that `e.constructor === QuotaExceededError` holds
// in its realm), else this one: Node 24 has none yet.
const QuotaExceededError = globalThis.QuotaExceededError || class QuotaExceededError extends DOMException {
  #quota = null;
  #requested = null;
  constructor(message, options = {}) {
    super(message, 'QuotaExceededError'); // DOMException: undefined is '', else a DOMString
    if (options === null || options === undefined) options = {};
    if (typeof options !== 'object' && typeof options !== 'function') {
      throw new TypeError('QuotaExceededError options must be an object');
    }
    const member = (name) => {
      const v = options[name];
      if (v === undefined) return null;
      const n = toNumber(v, `QuotaExceededError ${name}`);
      if (!NumberIsFinite(n)) throw new TypeError(`QuotaExceededError ${name} must be a finite number`);
      if (n < 0) throw new RangeError(`QuotaExceededError ${name} must not be negative`);
      return n;
    };
    this.#quota = member('quota');
    this.#requested = member('requested');
    if (this.#quota !== null && this.#requested !== null && this.#requested < this.#quota) {
      throw new RangeError('QuotaExceededError requested must not be below quota');
    }
  }
  get quota() { return this.#quota; }
  get requested() { return this.#requested; }
};

class Crypto {
  #backend;
  #subtle;
  constructor(token, backend, subtleClass = SubtleCrypto) {
    if (token !== kToken) throw new TypeError('Illegal constructor');
    this.#backend = backend;
    this.#subtle = new subtleClass(kToken, backend);
  }
  get subtle() { return this.#subtle; }
  getRandomValues(array) {
    if (this === null || typeof this !== 'object' || !(#backend in this)) throw new TypeError('Illegal invocation');
    needArgs(1, arguments.length, 'getRandomValues');
    // Web IDL's ArrayBufferView conversion (TypeError: not a view, or on a
    // shared or resizable buffer: no [AllowShared], no [AllowResizable]),
    // then the method's steps: an integer TypedArray (a DataView's tag is
    // undefined), at most 65536 bytes, by the intrinsic getters.
    if (!isArrayBufferView(array)) throw new TypeError('array is not an ArrayBufferView');
    checkView(array, 'array');
    if (!SetPrototypeHas(INTEGER_ARRAYS, TypedArrayPrototypeGetSymbolToStringTag(array))) {
      throw new DOMException('array is not an integer TypedArray', 'TypeMismatchError');
    }
    const n = TypedArrayPrototypeGetByteLength(array);
    if (n > 65536) {
      throw new QuotaExceededError(`getRandomValues: ${n} bytes is over 65536`);
    }
    // The addon fills a Uint8Array over the same bytes (it takes no other
    // kind: it never sizes an element).
    native.getRandomValues(this.#backend, bytesOf(array));
    return array;
  }
  randomUUID() {
    if (this === null || typeof this !== 'object' || !(#backend in this)) throw new TypeError('Illegal invocation');
    return native.randomUUID(this.#backend);
  }
}
Object.defineProperty(Crypto.prototype, Symbol.toStringTag, { value: 'Crypto', configurable: true });

// ---- exports ----------------------------------------------------------------------

const byBackend = new SafeMap();
const handles = new SafeMap();
function withBackend(name) {
  const key = name === undefined ? '' : domString(name, 'backend name');
  let e = MapPrototypeGet(byBackend, key);
  if (!e) {
    const b = native.backend(key === '' ? undefined : key);
    // The default backend's SubtleCrypto is the class itself; another
    // backend's is a subclass whose static supports() answers for it (its
    // instances are SubtleCrypto instances too).
    let cls = SubtleCrypto;
    if (key !== '') {
      cls = class extends SubtleCrypto {};
      ObjectDefineProperty(cls, 'name', { __proto__: null, value: 'SubtleCrypto' });
      WeakMapPrototypeSet(subclassBackend, cls, b);
    } else {
      defaultHandle = b;
    }
    MapPrototypeSet(handles, key || 'openssl', b);
    e = ObjectFreeze({ crypto: new Crypto(kToken, b, cls), CryptoKey, SubtleCrypto: cls, Crypto, QuotaExceededError,
      withBackend, backend: key || 'openssl' });
    MapPrototypeSet(byBackend, key, e);
  }
  return e;
}

// The library's default backend ("openssl"), else the first built one that
// starts (a jca-only build).
function defaultBackend() {
  try {
    return withBackend(undefined);
  } catch (e) {
    for (const name of T.backends) {
      try { return withBackend(name); } catch { /* try the next */ }
    }
    throw e;
  }
}
const def = defaultBackend();
if (defaultHandle === undefined) defaultHandle = MapPrototypeGet(handles, def.backend);
// One assignment per name, so that ES modules can import them by name
// (`import { crypto } from '.../bindings/node/index.js'`).
module.exports.crypto = def.crypto;
module.exports.CryptoKey = CryptoKey;
module.exports.SubtleCrypto = SubtleCrypto;
module.exports.Crypto = Crypto;
module.exports.withBackend = withBackend;
module.exports.QuotaExceededError = QuotaExceededError;
// Not WebCrypto: what the library knows (names, operations) and was built with.
// (Lists copied by index: no iterator a script can replace is used.)
const copyList = (l) => {
  const out = [];
  for (let i = 0; i < l.length; i++) setOwn(out, i, l[i]);
  return out;
};
const ALGORITHM_LIST = T.algorithms.map((a) => ({ __proto__: null, name: a.name, operations: a.operations }));
module.exports.algorithms = () => {
  const out = [];
  for (let i = 0; i < ALGORITHM_LIST.length; i++) {
    const a = {};
    setOwn(a, 'name', ALGORITHM_LIST[i].name);
    setOwn(a, 'operations', copyList(ALGORITHM_LIST[i].operations));
    setOwn(out, i, a);
  }
  return out;
};
module.exports.backends = () => copyList(T.backends);
module.exports.supports = (backendName, algName) => {
  const e = MapPrototypeGet(algByLower, asciiLower(`${algName}`));
  return !!e && native.supports(native.backend(backendName), e.id);
};
module.exports.version = T.version;
