'use strict';
// The limits an embedder sets (the C library's webcrypto_set_limits): how
// much work one request may cost - PBKDF2 iterations, Argon2 memory and
// passes, the RSA modulus to generate and to import, a JWK's size and its
// key_ops entries. Not WebCrypto (Node's own crypto.subtle has none). They
// are the library's process-wide state: every backend, every SubtleCrypto
// and every worker thread of the process shares them.

const P = require('../primordials.js');
const { ObjectKeys, NumberIsFinite, MathTrunc, ArrayPrototypeSort, nullList } = P;
const { native } = require('./addon.js');

// The names and their order are the addon's (webcrypto_node.c's k_limits).
const NAMES = ObjectKeys(native.limits());
// A dictionary's members are read in lexicographic order (Web IDL).
const READ_ORDER = ArrayPrototypeSort(ObjectKeys(native.limits()));
const INDEX = { __proto__: null };
for (let i = 0; i < NAMES.length; i++) INDEX[NAMES[i]] = i;

// Web IDL's [EnforceRange] unsigned long.
function enforceRangeU32(v, name) {
  const n = +v; // ToNumber (a Symbol or a BigInt throws TypeError)
  if (!NumberIsFinite(n)) throw new TypeError(`${name} is not a finite number`);
  const t = MathTrunc(n);
  if (t < 0 || t > 0xffffffff) throw new TypeError(`${name} is outside 0..4294967295`);
  return t;
}

// getLimits() -> { maxPbkdf2Iterations, ... }: the limits in force.
function getLimits() {
  return native.limits();
}

// setLimits({ name: value, ... }) -> the limits now in force. A member
// given sets that limit (0: its default), one absent keeps its value; all
// or nothing (an invalid value changes no limit: TypeError).
function setLimits(limits) {
  if (limits !== undefined && limits !== null && typeof limits !== 'object' && typeof limits !== 'function') {
    throw new TypeError('setLimits: the argument is not an object');
  }
  const cur = native.limits();
  const values = nullList(); // no setter on Array.prototype sees these
  for (let i = 0; i < NAMES.length; i++) values[i] = cur[NAMES[i]];
  if (limits !== undefined && limits !== null) {
    for (let i = 0; i < READ_ORDER.length; i++) {
      const name = READ_ORDER[i];
      const v = limits[name];
      if (v !== undefined) values[INDEX[name]] = enforceRangeU32(v, name);
    }
  }
  return native.limits(values);
}

module.exports = Object.freeze({ __proto__: null, getLimits, setLimits });
