'use strict';
// The library's tables as the addon gives them (algorithms, params members,
// usages), indexed at load, and the binding's own opcodes and enums.

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  ObjectFreeze, SafeMap, SafeSet, StringPrototypeCharCodeAt, StringFromCharCode,
} = P;
const { T } = require('./addon.js');

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

module.exports = ObjectFreeze({
  __proto__: null,
  OP, FORMATS, KEY_TYPES, asciiLower, algById, algByName, algByLower, memberIndex, usageBit,
});
