'use strict';
// Web IDL's shape of an interface (WebIDL, "Interface object", "Interface
// prototype object", "Operations", "Attributes"): what idlharness.js checks
// of SubtleCrypto, Crypto and CryptoKey.

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  ObjectCreate, ObjectDefineProperty, ObjectFreeze, ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyDescriptors, ObjectKeys, ObjectPrototype, ReflectOwnKeys, SymbolToStringTag,
  TypeError,
} = P;

// An interface object with no constructor: a function of length 0 that
// throws "Illegal constructor" when called or constructed, whose `prototype`
// (not writable, enumerable or configurable) is a new interface prototype
// object with its `constructor` and its Symbol.toStringTag.
function interfaceObject(name) {
  const f = { [name]: function () { throw new TypeError('Illegal constructor'); } }[name];
  const proto = ObjectCreate(ObjectPrototype);
  ObjectDefineProperty(proto, 'constructor',
    { __proto__: null, value: f, writable: true, enumerable: false, configurable: true });
  ObjectDefineProperty(proto, SymbolToStringTag,
    { __proto__: null, value: name, writable: false, enumerable: false, configurable: true });
  ObjectDefineProperty(f, 'prototype',
    { __proto__: null, value: proto, writable: false, enumerable: false, configurable: false });
  return f;
}

// Each own function of `from` but its constructor onto `to` as an operation
// (writable, enumerable, configurable).
function defineOperations(to, from) {
  const keys = ReflectOwnKeys(from);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k === 'constructor') continue;
    const d = ObjectGetOwnPropertyDescriptor(from, k);
    if (typeof d.value !== 'function') continue;
    ObjectDefineProperty(to, k,
      { __proto__: null, value: d.value, writable: true, enumerable: true, configurable: true });
  }
}

// A class's own methods and accessors made what Web IDL makes operations
// and attributes (enumerable), and its Symbol.toStringTag, on its prototype.
function asInterface(cls, name) {
  const proto = cls.prototype;
  const keys = ObjectKeys(ObjectGetOwnPropertyDescriptors(proto));
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k === 'constructor') continue;
    const d = ObjectGetOwnPropertyDescriptor(proto, k);
    d.enumerable = true;
    ObjectDefineProperty(proto, k, d);
  }
  ObjectDefineProperty(proto, SymbolToStringTag,
    { __proto__: null, value: name, writable: false, enumerable: false, configurable: true });
}

module.exports = ObjectFreeze({
  __proto__: null,
  interfaceObject, defineOperations, asInterface,
});
