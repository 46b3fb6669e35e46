'use strict';
// CryptoKey: the class (its handle, a type-tagged external of the addon's,
// in a private field), the key's algorithm object, the checks that a value
// is one of this binding's keys, and the wrapping of the addon's key handles.

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  uncurryThis, ObjectDefineProperty, ObjectFreeze, ObjectGetOwnPropertyDescriptor,
  ObjectPrototypeHasOwnProperty, ArrayIsArray, MapPrototypeGet, JSONParse, TypeError, Uint8Array,
  TypedArrayPrototypeFill, TextDecoderPrototypeDecode, TextEncoder, TextDecoder,
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

class CryptoKey {
  #handle;
  #type;
  #extractable;
  #algorithm;
  #usages;
  // The interface object takes no arguments (length 0); the binding makes a
  // key with (kToken, the addon's handle).
  constructor() {
    if (arguments[0] !== kToken) throw new TypeError('Illegal constructor');
    const handle = arguments[1];
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
asInterface(CryptoKey, 'CryptoKey');
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

module.exports = ObjectFreeze({
  __proto__: null,
  kToken, setOwn, CryptoKey, algorithmOfKey, keyHandle, wrapKeyHandle, wrapGenerated, utf8,
  parseJwk,
});
