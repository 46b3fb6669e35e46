'use strict';
// Crypto: crypto.subtle, getRandomValues and randomUUID, and Web IDL's
// QuotaExceededError (getRandomValues' error over 65536 bytes).

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  ObjectFreeze, SetPrototypeHas, SafeSet, NumberIsFinite, TypeError, RangeError, DOMException,
  TypedArrayPrototypeGetByteLength, TypedArrayPrototypeGetSymbolToStringTag, isArrayBufferView,
} = P;
const { native } = require('./addon.js');
const { checkView, bytesOf, needArgs, toNumber } = require('./webidl.js');
const { kToken } = require('./keys.js');
const { SubtleCrypto, newSubtle } = require('./subtle.js');
const { asInterface } = require('./interface.js');

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

// Crypto's interface object takes no arguments (length 0); the binding
// makes one with (kToken, backend, its SubtleCrypto interface).
class Crypto {
  #backend;
  #subtle;
  constructor() {
    if (arguments[0] !== kToken) throw new TypeError('Illegal constructor');
    this.#backend = arguments[1];
    this.#subtle = newSubtle(arguments[2] || SubtleCrypto, arguments[1]);
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
asInterface(Crypto, 'Crypto');

module.exports = ObjectFreeze({
  __proto__: null,
  Crypto, QuotaExceededError,
});
