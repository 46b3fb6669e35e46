'use strict';
// The addon (webcrypto_node.c and native/): where it is, how it is loaded,
// and its functions captured at load in a frozen object that inherits
// nothing (its own exports object is an ordinary one, which a script could
// change). Its error factory is set here, before any call.

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  nullObject, ObjectFreeze, ObjectSetPrototypeOf, Error,
} = P;
const { makeError } = require('./errors.js');

const fs = require('fs');
const os = require('os');
const path = require('path');
// The binding's folder (bindings/node), where the addon or a build tree is
// looked for: this file is in its lib/.
const bindingDir = path.join(__dirname, '..');

function findAddon() {
  if (process.env.WEBCRYPTO_NODE_ADDON) return process.env.WEBCRYPTO_NODE_ADDON;
  const here = path.join(bindingDir, 'webcrypto.node');
  if (fs.existsSync(here)) return here;
  // A CMake build tree beside the sources: build/<dir>/bindings/node/.
  const root = path.join(bindingDir, '..', '..', 'build');
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
native.setErrorFactory(makeError);

module.exports = ObjectFreeze({
  __proto__: null,
  native, T,
});
