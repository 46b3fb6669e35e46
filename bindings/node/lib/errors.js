'use strict';
// The binding's errors: a library status's name made into the exception
// WebCrypto says (the addon calls makeError, given by setErrorFactory), and
// the NotSupportedError check and factory the normalisation uses.

// Every intrinsic used after load comes from here (see ../primordials.js).
const P = require('../primordials.js');
const {
  ObjectFreeze, TypeError, DOMException, DOMExceptionPrototypeGetName,
} = P;

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
const notSupported = (m) => new DOMException(m, 'NotSupportedError');

module.exports = ObjectFreeze({
  __proto__: null,
  makeError, isNotSupported, notSupported,
});
