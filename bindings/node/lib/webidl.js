'use strict';
// Web IDL's conversions: BufferSource and ArrayBufferView (type checks, and
// the bytes they hold, read later), DOMString, numbers with
// [EnforceRange], boolean, KeyUsage sequences, KeyFormat, JsonWebKey, and
// the count of required arguments.

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  nullObject, nullList, ObjectFreeze, ObjectPrototypeHasOwnProperty, ArrayPrototypePush,
  ArrayPrototypeIncludes, MapPrototypeGet, NumberIsFinite, MathTrunc, SymbolIterator, TypeError,
  Uint8Array, ArrayBufferPrototypeGetByteLength, ArrayBufferPrototypeGetResizable,
  TypedArrayPrototypeGetBuffer, TypedArrayPrototypeGetByteOffset, TypedArrayPrototypeGetByteLength,
  DataViewPrototypeGetBuffer, DataViewPrototypeGetByteOffset, DataViewPrototypeGetByteLength,
  isArrayBuffer, isArrayBufferView, isDataView, isSharedArrayBuffer, isUint8Array,
} = P;
const { native } = require('./addon.js');
const { FORMATS, usageBit } = require('./tables.js');

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
// (count, when given: its n grows by the bytes taken, for pool.js's choice.)
function snapshot(v, what, count) {
  const b = bytesOf(checkBufferSource(v, what));
  if (count !== undefined) count.n += TypedArrayPrototypeGetByteLength(b);
  return native.snapshot(b);
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

function needArgs(n, got, what) {
  if (got < n) throw new TypeError(`${what}: ${n} arguments required, ${got} given`);
}

module.exports = ObjectFreeze({
  __proto__: null,
  isBufferSource, checkView, checkBufferSource, bytesOf, snapshot, domString, toNumber, RANGE,
  enforceRange, toBoolean, toUsages, toFormat, toJwk, needArgs,
});
