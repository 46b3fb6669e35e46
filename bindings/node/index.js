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
//
// The parts, in lib/, along Web IDL's and WebCrypto's seams (each requires
// only the parts before it, never this file):
//   errors.js      the exceptions the library's statuses become
//   addon.js       where the addon is and how it loads; its functions, captured
//   tables.js      the library's tables (algorithms, members, usages), indexed
//   webidl.js      Web IDL's conversions (BufferSource, DOMString, KeyUsage, JsonWebKey...)
//   interface.js   Web IDL's shape of an interface (interface object, operations, attributes)
//   keys.js        CryptoKey
//   algorithms.js  algorithm normalisation (the spec's dictionaries and registry)
//   pool.js        which calls run on Node's thread pool, and the call itself
//   subtle.js      SubtleCrypto, and its static supports()
//   crypto.js      Crypto (getRandomValues, randomUUID) and QuotaExceededError
//   limits.js      the limits an embedder sets (not WebCrypto)
// This file picks a backend (withBackend) and exports.

// Every intrinsic used after load comes from here (see primordials.js).
const P = require('./primordials.js');
const {
  ObjectFreeze, MapPrototypeGet, MapPrototypeSet,
  SafeMap,
} = P;
// The parts, by relative paths resolved now (a script cannot swap them later).
const { native, T } = require('./lib/addon.js');
const { algByLower, asciiLower } = require('./lib/tables.js');
const { domString } = require('./lib/webidl.js');
const { kToken, setOwn, CryptoKey } = require('./lib/keys.js');
const {
  SubtleCrypto, newSubtleInterface, defaultBackendHandle, setDefaultBackendHandle,
} = require('./lib/subtle.js');
const { Crypto, QuotaExceededError } = require('./lib/crypto.js');
const { getLimits, setLimits } = require('./lib/limits.js');

// ---- exports ----------------------------------------------------------------------
const byBackend = new SafeMap();
const handles = new SafeMap();
function withBackend(name) {
  const key = name === undefined ? '' : domString(name, 'backend name');
  let e = MapPrototypeGet(byBackend, key);
  if (!e) {
    const b = native.backend(key === '' ? undefined : key);
    // The default backend's SubtleCrypto is the module's; another backend's
    // is an interface object of its own, as another realm's (lib/subtle.js),
    // whose static supports() answers for it.
    let cls = SubtleCrypto;
    if (key !== '') {
      cls = newSubtleInterface(() => b);
    } else {
      setDefaultBackendHandle(b);
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
if (defaultBackendHandle() === undefined) setDefaultBackendHandle(MapPrototypeGet(handles, def.backend));
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
// How much work one request may cost (webcrypto_set_limits), process-wide.
module.exports.getLimits = getLimits;
module.exports.setLimits = setLimits;
