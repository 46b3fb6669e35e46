'use strict';
// The intrinsics the binding uses, captured when it loads (the idea of Node's
// own "primordials"): a script that runs later and replaces a global or a
// prototype method (Uint8Array, Map.prototype.get, Array.prototype
// [Symbol.iterator], Promise.prototype.then, ...) changes nothing the binding
// does. index.js and its parts in lib/ (each requires this file at load)
// call only these, call prototype methods through their uncurried form
// (f(thisArg, ...args), bound at load, so no `call` or `apply` is looked up
// later), never spread or iterate an array of their own through the public
// iterator, and build their internal objects and lists with a null
// prototype (no inherited setter or getter is reached).
// Anything the binding reads of a caller's object (a dictionary member, a
// sequence's iterator) is read as Web IDL says, through the caller's
// protocols: that is the spec's behaviour, not a leak.

const { apply: ReflectApply, defineProperty: ReflectDefineProperty, ownKeys: ReflectOwnKeys } = Reflect;
const { bind, call } = Function.prototype;
// uncurryThis(f)(self, ...args) is f.call(self, ...args), with call bound now.
const uncurryThis = bind.bind(call);

const getterOf = (proto, name) => {
  const d = Object.getOwnPropertyDescriptor(proto, name);
  return d && d.get ? uncurryThis(d.get) : undefined;
};
const TypedArray = Object.getPrototypeOf(Uint8Array);
const TypedArrayPrototype = TypedArray.prototype;

// Objects and lists that inherit nothing.
const ObjectSetPrototypeOf = Object.setPrototypeOf;
const nullObject = () => ObjectSetPrototypeOf({}, null);
const nullList = () => ObjectSetPrototypeOf([], null);

const p = {
  ReflectApply,
  FunctionPrototypeBind: uncurryThis(bind),
  ReflectDefineProperty,
  ReflectOwnKeys,
  uncurryThis,
  nullObject,
  nullList,

  ObjectCreate: Object.create,
  ObjectDefineProperty: Object.defineProperty,
  ObjectFreeze: Object.freeze,
  ObjectGetOwnPropertyDescriptor: Object.getOwnPropertyDescriptor,
  ObjectGetOwnPropertyDescriptors: Object.getOwnPropertyDescriptors,
  ObjectPrototype: Object.prototype,
  ObjectGetPrototypeOf: Object.getPrototypeOf,
  ObjectSetPrototypeOf,
  ObjectKeys: Object.keys,
  ObjectPrototypeHasOwnProperty: uncurryThis(Object.prototype.hasOwnProperty),

  ArrayIsArray: Array.isArray,
  ArrayPrototypePush: uncurryThis(Array.prototype.push),
  ArrayPrototypeIncludes: uncurryThis(Array.prototype.includes),
  ArrayPrototypeSort: uncurryThis(Array.prototype.sort),

  MapPrototypeGet: uncurryThis(Map.prototype.get),
  MapPrototypeSet: uncurryThis(Map.prototype.set),
  MapPrototypeHas: uncurryThis(Map.prototype.has),
  SetPrototypeHas: uncurryThis(Set.prototype.has),
  SetPrototypeAdd: uncurryThis(Set.prototype.add),
  WeakMapPrototypeGet: uncurryThis(WeakMap.prototype.get),
  WeakMapPrototypeSet: uncurryThis(WeakMap.prototype.set),
  SafeMap: Map,
  SafeSet: Set,
  SafeWeakMap: WeakMap,

  StringPrototypeCharCodeAt: uncurryThis(String.prototype.charCodeAt),
  StringPrototypeStartsWith: uncurryThis(String.prototype.startsWith),
  StringFromCharCode: String.fromCharCode,

  NumberIsFinite: Number.isFinite,
  MathTrunc: Math.trunc,
  JSONParse: JSON.parse,
  JSONStringify: JSON.stringify,
  SymbolIterator: Symbol.iterator,
  SymbolToStringTag: Symbol.toStringTag,

  Promise,
  Proxy,
  PromiseResolve: bind.call(Promise.resolve, Promise),
  PromiseReject: bind.call(Promise.reject, Promise),

  TypeError,
  RangeError,
  Error,
  DOMException,
  DOMExceptionPrototypeGetName: getterOf(DOMException.prototype, 'name'),

  ArrayBuffer,
  Uint8Array,
  ArrayBufferPrototypeGetByteLength: getterOf(ArrayBuffer.prototype, 'byteLength'),
  // Absent on a Node without resizable buffers (then none can be made).
  ArrayBufferPrototypeGetResizable: getterOf(ArrayBuffer.prototype, 'resizable'),
  TypedArrayPrototypeGetBuffer: getterOf(TypedArrayPrototype, 'buffer'),
  TypedArrayPrototypeGetByteOffset: getterOf(TypedArrayPrototype, 'byteOffset'),
  TypedArrayPrototypeGetByteLength: getterOf(TypedArrayPrototype, 'byteLength'),
  TypedArrayPrototypeGetSymbolToStringTag: getterOf(TypedArrayPrototype, Symbol.toStringTag),
  TypedArrayPrototypeFill: uncurryThis(TypedArrayPrototype.fill),
  DataViewPrototypeGetBuffer: getterOf(DataView.prototype, 'buffer'),
  DataViewPrototypeGetByteOffset: getterOf(DataView.prototype, 'byteOffset'),
  DataViewPrototypeGetByteLength: getterOf(DataView.prototype, 'byteLength'),

  TextEncoderPrototypeEncode: uncurryThis(TextEncoder.prototype.encode),
  TextDecoderPrototypeDecode: uncurryThis(TextDecoder.prototype.decode),
  TextEncoder,
  TextDecoder,

  setTimeout,
};
// util.types' checks, which a script could replace on the shared object.
const { types } = require('util');
p.isArrayBuffer = types.isArrayBuffer;
p.isArrayBufferView = types.isArrayBufferView;
p.isDataView = types.isDataView;
p.isSharedArrayBuffer = types.isSharedArrayBuffer;
p.isUint8Array = types.isUint8Array;
// A timer's unref, from the prototype Node's timers share.
{
  const t = setTimeout(() => {}, 0);
  p.TimeoutPrototypeUnref = uncurryThis(t.unref);
  clearTimeout(t);
}

module.exports = ObjectSetPrototypeOf(p, null);
Object.freeze(module.exports);
