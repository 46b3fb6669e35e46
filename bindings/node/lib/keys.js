'use strict';
// CryptoKey: the class (its handle, a type-tagged external of the addon's,
// in its internal slots), the key's algorithm object, the checks that a value
// is one of this binding's keys, and the wrapping of the addon's key handles.

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  nullObject, ObjectDefineProperty, ObjectFreeze, ObjectPrototypeHasOwnProperty, ArrayIsArray,
  MapPrototypeGet, WeakMapPrototypeGet, WeakMapPrototypeSet, SafeWeakMap, JSONParse, Proxy,
  TypeError, Uint8Array, TypedArrayPrototypeFill, TextDecoderPrototypeDecode, TextEncoder,
  TextDecoder,
} = P;
const { native, T } = require('./addon.js');
const { KEY_TYPES, algById } = require('./tables.js');
const { asInterface } = require('./interface.js');

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

// A CryptoKey's internal slots, by the object the caller holds: the
// brand check of its getters and of keyHandle.
const slots = new SafeWeakMap();
const slotsOf = (k) => (k !== null && typeof k === 'object' ? WeakMapPrototypeGet(slots, k) : undefined);
function slotsThis(k) {
  const s = slotsOf(k);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}
// The object a caller holds is a Proxy (with no traps) of the key: the
// structured clone of a Proxy is a DataCloneError, as it must be for a key
// this binding cannot serialize (Web IDL [Serializable]: a key cannot cross
// to a worker here), where a class's own object would clone to {} silently.
const noTraps = nullObject();
class CryptoKey {
  // The interface object takes no arguments (length 0); the binding makes a
  // key with (kToken, the addon's handle).
  constructor() {
    if (arguments[0] !== kToken) throw new TypeError('Illegal constructor');
    const handle = arguments[1];
    const info = native.keyInfo(handle);
    const usages = [];
    const bits = infoOf(info, 'usages');
    for (let i = 0; i < USAGE_NAMES.length; i++) if (bits & (1 << i)) setOwn(usages, usages.length, USAGE_NAMES[i]);
    const key = new Proxy(this, noTraps);
    WeakMapPrototypeSet(slots, key, {
      __proto__: null,
      handle,
      type: KEY_TYPES[infoOf(info, 'type')],
      extractable: infoOf(info, 'extractable'),
      algorithm: algorithmObject(info),
      algorithmName: MapPrototypeGet(algById, infoOf(info, 'algorithm')).name,
      usages,
    });
    return key;
  }
  get type() { return slotsThis(this).type; }
  get extractable() { return slotsThis(this).extractable; }
  get algorithm() { return slotsThis(this).algorithm; }
  get usages() { return slotsThis(this).usages; }
}
// The key's own algorithm name, from its internal slot (not through any
// getter or a changed algorithm object).
const algorithmOfKey = (k) => slotsThis(k).algorithmName;
asInterface(CryptoKey, 'CryptoKey');

function keyHandle(v, what) {
  const s = slotsOf(v);
  if (s === undefined) throw new TypeError(`${what} is not a CryptoKey`);
  return s.handle;
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

module.exports = ObjectFreeze({
  __proto__: null,
  kToken, setOwn, CryptoKey, algorithmOfKey, keyHandle, wrapKeyHandle, wrapGenerated, utf8,
  parseJwk,
});
