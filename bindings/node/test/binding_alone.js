'use strict';
// binding_alone.js - differential.js's checks of the binding alone, where
// there is no outcome of Node's to compare with (CryptoKey and
// QuotaExceededError as Web IDL makes them, when the bytes of a BufferSource
// are read, the copies the binding keeps, SubtleCrypto.supports, large data
// on the pool, ...). Run by differential.js after its compared calls, with
// its sides and fixtures; returns what failed, one line each.

const nodeCrypto = require('crypto');

async function bindingAlone({ LIB, NODE, mine, ctx, bytes, libSupports, lib }) {
  // The binding alone: a CryptoKey cannot be made or changed from JS.
  const k = ctx[LIB.name]['hmac-SHA-256'];
  const own = [];
  try { new LIB.CryptoKey(); own.push('new CryptoKey() did not throw'); } catch (e) { if (!(e instanceof TypeError)) own.push('new CryptoKey() threw no TypeError'); }
  if (k.algorithm !== k.algorithm) own.push('algorithm is not the same object on each read');
  try { k.type = 'public'; } catch { /* strict mode may throw */ }
  if (k.type !== 'secret') own.push('type could be changed');
  // A key cannot be serialized here ([Serializable] in the IDL: Node's are):
  // its structured clone is a DataCloneError, never a silent {}.
  {
    let e = null;
    try { structuredClone(k); } catch (x) { e = x; }
    if (!e || e.name !== 'DataCloneError' || !(e instanceof DOMException)) own.push(`structuredClone(key): ${e ? e.name : 'cloned, no DataCloneError'}`);
  }
  const fake = Object.create(LIB.CryptoKey.prototype);
  try { fake.type; own.push('a forged CryptoKey reads'); } catch { /* brand checked */ }
  const r = await LIB.subtle.sign('HMAC', fake, bytes(1)).then(() => 'resolved', (e) => e.name);
  if (r !== 'TypeError') own.push(`a forged CryptoKey signs: ${r}`);
  // Web IDL's shape of the interfaces (idlharness.https.any.js checks it on
  // the WPT snapshot's IDL; these hold it for every backend, whatever the
  // snapshot): interface objects of length 0, operations enumerable, a wrong
  // `this` a rejection, each backend's crypto.subtle of its own
  // SubtleCrypto.prototype, and the spec's order of reads in normalizing.
  {
    for (const [n, f] of [['SubtleCrypto', mine.SubtleCrypto], ['CryptoKey', mine.CryptoKey], ['Crypto', mine.Crypto]]) {
      if (f.length !== 0) own.push(`${n}.length is ${f.length}, not 0`);
      let e = null;
      try { f(); } catch (x) { e = x; }
      if (!(e instanceof TypeError)) own.push(`${n}() did not throw a TypeError`);
    }
    for (const op of ['encrypt', 'decrypt', 'sign', 'verify', 'digest', 'generateKey', 'deriveKey', 'deriveBits',
      'importKey', 'exportKey', 'wrapKey', 'unwrapKey', 'getPublicKey', 'encapsulateBits', 'decapsulateBits']) {
      const d = Object.getOwnPropertyDescriptor(mine.SubtleCrypto.prototype, op);
      if (!d || !d.enumerable || !d.writable || !d.configurable) { own.push(`SubtleCrypto.prototype.${op}: not an enumerable, writable, configurable operation`); continue; }
      let p;
      try { p = Reflect.apply(d.value, {}, []); } catch (x) { own.push(`${op} on a wrong this threw ${x.name} (not a rejection)`); continue; }
      const how = await Promise.resolve(p).then(() => 'resolved', (x) => x.name);
      if (!(p instanceof Promise) || how !== 'TypeError') own.push(`${op} on a wrong this: ${how}`);
    }
    const backend = mine.backend;
    const other = lib.withBackend(backend);
    if (Object.getPrototypeOf(other.crypto.subtle) !== other.SubtleCrypto.prototype ||
        Object.getPrototypeOf(other.SubtleCrypto.prototype) !== Object.prototype ||
        other.SubtleCrypto.prototype.constructor !== other.SubtleCrypto) {
      own.push(`withBackend('${backend}').crypto.subtle is not of its SubtleCrypto.prototype`);
    }
    const log = [];
    const hash = { get name() { log.push('hash.name'); return 'SHA-256'; } };
    await LIB.subtle.generateKey({
      get name() { log.push('name'); return 'HMAC'; },
      get hash() { log.push('hash'); return hash; },
      get length() { log.push('length'); return 256; },
    }, false, ['sign']);
    if (log.join(',') !== 'name,name,hash,length,hash.name,hash.name') own.push(`normalize read ${log.join(',')}, not the spec's name,name,hash,length,hash.name,hash.name`);
    // deriveKey normalizes derivedKeyType for importKey, then for "get key
    // length": the key is imported as the first, as long as the second says.
    const ikm = await LIB.subtle.importKey('raw', bytes(16), 'HKDF', false, ['deriveKey']);
    let reads = 0;
    const flip = { get name() { return reads++ === 0 ? 'AES-GCM' : 'AES-CBC'; }, length: 128 };
    const dk = await LIB.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: bytes(4), info: bytes(0) }, ikm, flip, false, ['encrypt'])
      .then((x) => `${x.algorithm.name} ${x.algorithm.length}`, (e) => e.name);
    if (dk !== 'AES-GCM 128') own.push(`deriveKey with a name read AES-GCM then AES-CBC: ${dk}, not the spec's AES-GCM 128`);
  }
  try { mine.crypto.getRandomValues(new Uint8Array(65537)); own.push('getRandomValues(65537) did not throw'); } catch (e) { if (e.name !== 'QuotaExceededError') own.push(`getRandomValues(65537): ${e.name}`); }
  {
    // QuotaExceededError's message as DOMException's: '' when absent, a DOMString
    const Q = mine.QuotaExceededError;
    const q = new Q();
    if (q.message !== '' || q.name !== 'QuotaExceededError' || q.code !== 22 || q.quota !== null || q.requested !== null || !(q instanceof DOMException)) {
      own.push(`new QuotaExceededError(): message ${JSON.stringify(q.message)}, name ${q.name}, code ${q.code}, quota ${q.quota}, requested ${q.requested}`);
    }
    if (new Q(undefined).message !== '') own.push('new QuotaExceededError(undefined).message is not empty');
    if (new Q(12).message !== '12' || new Q(null).message !== 'null') own.push('QuotaExceededError message: not converted to a string');
    try { new Q(Symbol('s')); own.push('new QuotaExceededError(Symbol()) did not throw'); } catch (e) { if (!(e instanceof TypeError)) own.push(`new QuotaExceededError(Symbol()): ${e.name}`); }
    const r = new Q('m', { quota: 1, requested: 2 });
    if (r.message !== 'm' || r.quota !== 1 || r.requested !== 2) own.push(`new QuotaExceededError('m', {quota: 1, requested: 2}): ${r.message} ${r.quota} ${r.requested}`);
  }
  for (const [n, v] of [['Float32Array', new Float32Array(2)], ['DataView', new DataView(new ArrayBuffer(4))]]) {
    let an, bn;
    try { nodeCrypto.webcrypto.getRandomValues(v); an = 'ok'; } catch (e) { an = e.name; }
    try { mine.crypto.getRandomValues(v); bn = 'ok'; } catch (e) { bn = e.name; }
    if (an !== bn) own.push(`getRandomValues(${n}): node ${an}, binding ${bn}`);
  }
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(mine.crypto.randomUUID())) own.push('randomUUID is not a v4 UUID');
  // The bytes of a BufferSource are read after the algorithm is normalized
  // (w3c/webcrypto#426: WPT's "altered buffer during call"), in every method,
  // and a view on a detached buffer holds none (Web IDL; WPT's "transferred
  // buffer"). Node 18 and 20 copy first, so the binding is checked alone.
  {
    const S = LIB.subtle;
    const hx = (b) => Buffer.from(b).toString('hex');
    const aes = await S.importKey('raw', bytes(16), 'AES-GCM', false, ['encrypt', 'decrypt']);
    const gcm = { name: 'AES-GCM', iv: bytes(12) };
    // The name's first read (the spec reads it twice: as an Algorithm, then
    // as the operation's dictionary) alters the buffer.
    const flipping = (name, buf, extra = {}) => {
      let reads = 0;
      return Object.assign({ get name() { if (reads++ === 0) buf[0] ^= 0xff; return name; } }, extra);
    };
    const data = bytes(40);
    const want = {
      digest: hx(await S.digest('SHA-256', data)),
      encrypt: hx(await S.encrypt(gcm, aes, data)),
      sign: hx(await S.sign('HMAC', k, data)),
    };
    const ct = await S.encrypt(gcm, aes, data);
    const altered = (u) => { const c = u.slice(); c[0] ^= 0xff; return c; };
    let d = altered(data);
    if (hx(await S.digest(flipping('SHA-256', d), d)) !== want.digest) own.push('digest read the data before normalizing');
    d = altered(data);
    if (hx(await S.encrypt(flipping('AES-GCM', d, { iv: gcm.iv }), aes, d)) !== want.encrypt) own.push('encrypt read the data before normalizing');
    d = altered(data);
    if (hx(await S.sign(flipping('HMAC', d), k, d)) !== want.sign) own.push('sign read the data before normalizing');
    const sig = altered(new Uint8Array(await S.sign('HMAC', k, data)));
    if (!(await S.verify(flipping('HMAC', sig), k, sig, data))) own.push('verify read the signature before normalizing');
    const c2 = altered(new Uint8Array(ct));
    const pt = await S.decrypt(flipping('AES-GCM', c2, { iv: gcm.iv }), aes, c2).then(hx, (e) => e.name);
    if (pt !== hx(data)) own.push(`decrypt read the data before normalizing: ${pt}`);
    const detached = () => { const u = bytes(16); u.buffer.transfer ? u.buffer.transfer() : structuredClone(u.buffer, { transfer: [u.buffer] }); return u; };
    const dv = () => { const b = bytes(16).buffer; const v = new DataView(b, 4); structuredClone(b, { transfer: [b] }); return v; };
    const empty = hx(await S.digest('SHA-256', new Uint8Array(0)));
    for (const [what, v] of [['a view', detached()], ['a DataView', dv()]]) {
      const r = await S.digest('SHA-256', v).then(hx, (e) => `${e.name}: ${e.message}`);
      if (r !== empty) own.push(`digest of ${what} on a detached buffer: ${r}, not the digest of nothing`);
    }
    const rs = await S.sign('HMAC', k, detached()).then(hx, (e) => e.name);
    if (rs !== hx(await S.sign('HMAC', k, new Uint8Array(0)))) own.push(`sign of a detached view: ${rs}, not the MAC of nothing`);
  }
  // The binding's own copies of BufferSource members (which the addon then
  // reads on the thread pool) are its own: not made through the caller's
  // constructor[Symbol.species], nor from own buffer/byteOffset/byteLength
  // properties; so a salt changed or detached after the call does not count.
  if (libSupports('PBKDF2')) {
    const S = LIB.subtle;
    const hx = (b) => Buffer.from(b).toString('hex');
    const pw = await S.importKey('raw', bytes(8), 'PBKDF2', false, ['deriveBits']);
    const pb = (salt) => S.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 20000 }, pw, 256).then(hx, (e) => e.name);
    const want = await pb(new Uint8Array(16).fill(3));
    const aliased = () => { const u = new Uint8Array(16).fill(3); u.constructor = { [Symbol.species]: function species() { return u; } }; return u; };
    let s = aliased();
    let p = pb(s);
    s.fill(0xee);
    if (await p !== want) own.push('a salt whose Symbol.species gives itself, changed after the call, changed the result');
    s = aliased();
    p = pb(s);
    structuredClone(s.buffer, { transfer: [s.buffer] });
    if (await p !== want) own.push('a salt whose Symbol.species gives itself, detached after the call, changed the result');
    const evil = new Uint8Array(16).fill(3).buffer;
    const ab = new Uint8Array(16).fill(3).buffer;
    ab.constructor = { [Symbol.species]: function species() { return evil; } };
    p = pb(ab);
    new Uint8Array(evil).fill(0xee);
    if (await p !== want) own.push('an ArrayBuffer salt copied through its Symbol.species');
    s = new Uint8Array(16).fill(3);
    Object.defineProperty(s, 'byteOffset', { value: 8 });
    Object.defineProperty(s, 'byteLength', { value: 1 });
    if (await pb(s) !== want) own.push('a salt\'s own byteOffset/byteLength properties were read');
  }
  // A JsonWebKey's bytes for importKey are not put in Node's shared Buffer
  // pool (which any script reads through Buffer.from('x').buffer), where a
  // private key's "d" would stay.
  if (libSupports('ECDSA')) {
    const S = LIB.subtle;
    const kp = await S.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const jwk = await S.exportKey('jwk', kp.privateKey);
    const p = S.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
    if (Buffer.from(Buffer.from('x').buffer).toString('latin1').includes(jwk.d)) own.push('importKey(jwk) put the private key in Node\'s Buffer pool');
    const r = await p.then((k) => k.type, (e) => e.name);
    if (r !== 'private') own.push(`importKey(jwk) of a private ECDSA key: ${r}`);
  }
  // SubtleCrypto.supports answers, never throws (the draft's steps: false for
  // what cannot be done), and says true for an outputLength of 0 where the
  // call itself succeeds (with an empty output).
  {
    const Sup = LIB.S;
    const names = { has: libSupports }; // what this backend has
    const tries = [['generateKey', { name: 'ECDSA', namedCurve: 'P-999' }], ['importKey', { name: 'ECDH', namedCurve: 'no such curve at all, and long' }],
      ['encapsulateKey', 'ML-KEM-768', { name: 'ECDSA', namedCurve: 'P-999' }], ['deriveKey', { name: 'ECDH', public: null }, 'AES-GCM']];
    for (const [op, a, x] of tries) {
      let r;
      try { r = x === undefined ? Sup.supports(op, a) : Sup.supports(op, a, x); } catch (e) { r = `${e.name}: ${e.message}`; }
      if (r !== false) own.push(`supports(${op}, ${JSON.stringify(a)}${x === undefined ? '' : `, ${JSON.stringify(x)}`}): ${r}, not false`);
    }
    const S = LIB.subtle;
    const zero = [];
    if (names.has('KMAC128')) {
      const km = await S.generateKey({ name: 'KMAC128' }, false, ['sign', 'verify']).catch(() => null);
      if (km) zero.push(['sign', { name: 'KMAC128', outputLength: 0 }, () => S.sign({ name: 'KMAC128', outputLength: 0 }, km, bytes(4))],
        ['verify', { name: 'KMAC128', outputLength: 0 }, () => S.verify({ name: 'KMAC128', outputLength: 0 }, km, new Uint8Array(0), bytes(4))]);
    }
    for (const h of ['cSHAKE128', 'cSHAKE256']) {
      if (names.has(h)) zero.push(['digest', { name: h, outputLength: 0 }, () => S.digest({ name: h, outputLength: 0 }, bytes(4))]);
    }
    if (names.has('KMAC256')) {
      const km = await S.generateKey({ name: 'KMAC256' }, false, ['sign']).catch(() => null);
      if (km) zero.push(['sign', { name: 'KMAC256', outputLength: 0 }, () => S.sign({ name: 'KMAC256', outputLength: 0 }, km, bytes(4))]);
    }
    // every backend with the algorithm gives the empty output, the jca
    // variants too (whose cSHAKE and KMAC have one length: zeroOutputLength)
    for (const [op, a, run] of zero) {
      const r = await run().then((v) => (v instanceof ArrayBuffer ? `${v.byteLength} bytes` : v), (e) => `${e.name}: ${e.message}`);
      let sup;
      try { sup = Sup.supports(op, a); } catch (e) { sup = e.name; }
      if (r !== '0 bytes' && r !== true) own.push(`${op} ${JSON.stringify(a)}: ${r}, not empty`);
      else if (sup !== true) own.push(`supports(${op}, ${JSON.stringify(a)}): ${sup}, while the call succeeds`);
    }
    if (names.has('KMAC128') || names.has('cSHAKE128')) console.log(`outputLength 0: ${zero.length} calls checked against supports()`);
    // cSHAKE digest with outputLength 0, as this Node's own answers (Node 24:
    // an empty output; the draft: cSHAKE with L = 0)
    const nodeHasCshake = await NODE.subtle.digest({ name: 'cSHAKE128', outputLength: 8 }, bytes(1)).then(() => true, () => false);
    if (!nodeHasCshake) {
      console.log(`SKIP cSHAKE outputLength 0 against Node's own: Node ${process.versions.node} has no cSHAKE`);
    } else {
      let n = 0;
      for (const h of ['cSHAKE128', 'cSHAKE256']) {
        if (!names.has(h)) continue;
        for (const len of [0, 5]) {
          const a = { name: h, outputLength: 0 };
          const show = (v) => (v instanceof ArrayBuffer ? `${v.byteLength} bytes` : v);
          const want = await NODE.subtle.digest(a, bytes(len)).then(show, (e) => e.name);
          const got = await S.digest(a, bytes(len)).then(show, (e) => `${e.name}: ${e.message}`);
          if (got !== want) own.push(`digest ${JSON.stringify(a)} of ${len} bytes: ${got}, Node ${process.versions.node}: ${want}`);
          n++;
        }
      }
      console.log(`cSHAKE outputLength 0: ${n} digests compared with Node ${process.versions.node}'s own`);
    }
  }
  // A large outputLength (cSHAKE digest, KMAC sign/verify) runs on the
  // thread pool as a large input does: the promise is not settled by the
  // microtasks that follow the call (a call made on the main thread is).
  {
    const S = LIB.subtle;
    const names = { has: libSupports }; // what this backend has
    const pending = async (what, p) => {
      let settled = false;
      p.then(() => { settled = true; }, () => { settled = true; });
      for (let i = 0; i < 3; i++) await null;
      if (settled) own.push(`${what} ran on the main thread`);
      const r = await p.then((v) => (v instanceof ArrayBuffer ? v.byteLength : v), (e) => e.name);
      return r;
    };
    const BIG = 8 * 1024 * 1024; // bits: 1 MiB of output
    // (not on a backend whose SHAKE or KMAC has one length: supports says so)
    const big = (op, name) => names.has(name) && LIB.S.supports(op, { name, outputLength: BIG });
    if (big('digest', 'cSHAKE128')) {
      const r = await pending('cSHAKE128 digest of 1 MiB', S.digest({ name: 'cSHAKE128', outputLength: BIG }, bytes(4)));
      if (r !== BIG / 8) own.push(`cSHAKE128 digest of 1 MiB: ${r}`);
    }
    const km = big('sign', 'KMAC128') && await S.generateKey({ name: 'KMAC128' }, false, ['sign', 'verify']).catch(() => null);
    if (km) {
      const r = await pending('KMAC128 sign of 1 MiB', S.sign({ name: 'KMAC128', outputLength: BIG }, km, bytes(4)));
      if (r !== BIG / 8) own.push(`KMAC128 sign of 1 MiB: ${r}`);
      const v = await pending('KMAC128 verify of 1 MiB', S.verify({ name: 'KMAC128', outputLength: BIG }, km, new Uint8Array(BIG / 8), bytes(4)));
      if (v !== false) own.push(`KMAC128 verify of a wrong 1 MiB MAC: ${v}`);
    }
    // Large parameters, not data, send a call to the pool too: an HKDF info
    // or salt, AES-GCM additionalData, a large key to import or unwrap.
    const MiB = bytes(1 << 20);
    const hk = await S.importKey('raw', bytes(32), 'HKDF', false, ['deriveBits', 'deriveKey']);
    const hp = { name: 'HKDF', hash: 'SHA-256', salt: bytes(16), info: MiB };
    let r = await pending('HKDF deriveBits with a 1 MiB info', S.deriveBits(hp, hk, 256));
    if (r !== 32) own.push(`HKDF deriveBits with a 1 MiB info: ${r}`);
    r = await pending('HKDF deriveKey with a 1 MiB salt', S.deriveKey({ ...hp, salt: MiB, info: bytes(4) }, hk,
      { name: 'AES-GCM', length: 128 }, false, ['encrypt']).then(() => 'key'));
    if (r !== 'key') own.push(`HKDF deriveKey with a 1 MiB salt: ${r}`);
    const gk = await S.importKey('raw', bytes(16), 'AES-GCM', false, ['encrypt']);
    r = await pending('AES-GCM encrypt with 1 MiB of additionalData', S.encrypt({ name: 'AES-GCM', iv: bytes(12), additionalData: MiB }, gk, bytes(4)));
    if (r !== 20) own.push(`AES-GCM encrypt with 1 MiB of additionalData: ${r}`);
    r = await pending('importKey of a 1 MiB HMAC key', S.importKey('raw', MiB, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']).then(() => 'key'));
    if (r !== 'key') own.push(`importKey of a 1 MiB HMAC key: ${r}`);
  }
  // Large data on the pool (64 KiB or more): the addon copies the data into
  // a block of its cache of large buffers and encrypts or decrypts over that
  // copy, which becomes the result's ArrayBuffer; collected results give
  // their blocks back. So: the output equals Node's (or, for an algorithm
  // Node lacks, decrypts back); the caller's data is neither written to nor
  // read after the call (altered right after it); a wrong tag is an
  // OperationError; and a result kept while ~200 MiB of others are made and
  // collected (their blocks recycled) keeps its bytes.
  {
    const S = LIB.subtle;
    const k32 = bytes(32, 5);
    const ciphers = [
      ['AES-GCM', () => ({ name: 'AES-GCM', iv: bytes(12, 2), additionalData: bytes(5) }), k32, true],
      ['AES-CBC', () => ({ name: 'AES-CBC', iv: bytes(16, 2) }), k32, false],
      ['AES-CTR', () => ({ name: 'AES-CTR', counter: bytes(16, 2), length: 64 }), k32, false],
      ['ChaCha20-Poly1305', () => ({ name: 'ChaCha20-Poly1305', iv: bytes(12, 2) }), k32, true],
      ['AES-OCB', () => ({ name: 'AES-OCB', iv: bytes(12, 2) }), k32, true],
      ['AES-GCM-SIV', () => ({ name: 'AES-GCM-SIV', iv: bytes(12, 2) }), k32, true],
    ];
    const fmt = (name) => (['ChaCha20-Poly1305', 'AES-OCB'].includes(name) ? 'raw-secret' : 'raw');
    const eq = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
    let checked = 0;
    for (const [name, alg, raw, aead] of ciphers) {
      if (!libSupports(name)) continue;
      const key = await S.importKey(fmt(name), raw, name, false, ['encrypt', 'decrypt']).catch((e) => e);
      if (!(key instanceof LIB.CryptoKey)) { own.push(`${name}: importKey: ${key && key.name}`); continue; }
      const nkey = await NODE.subtle.importKey(fmt(name), raw, name, false, ['encrypt', 'decrypt']).catch(() => null);
      for (const n of [64 * 1024 - 1, 64 * 1024, 1024 * 1024 + 5]) {
        const what = `${name} of ${n} bytes`;
        const data = bytes(n, 3);
        const orig = data.slice();
        const p = S.encrypt(alg(), key, data);
        data.fill(0xee); // after the call: not seen
        const ct = await p.then((v) => v, (e) => e);
        if (!(ct instanceof ArrayBuffer)) { own.push(`${what}: encrypt: ${ct && ct.name}: ${ct && ct.message}`); continue; }
        if (nkey) {
          const want = await NODE.subtle.encrypt(alg(), nkey, orig);
          if (!eq(ct, want)) own.push(`${what}: the ciphertext differs from Node's`);
        }
        const ctView = new Uint8Array(ct);
        const ctCopy = ctView.slice();
        const pt = await S.decrypt(alg(), key, ctView).then((v) => v, (e) => e);
        if (!(pt instanceof ArrayBuffer) || !eq(pt, orig)) own.push(`${what}: decrypt: ${pt instanceof ArrayBuffer ? 'wrong plaintext' : pt && pt.name}`);
        if (!eq(ctView, ctCopy)) own.push(`${what}: decrypt wrote to the caller's ciphertext`);
        if (aead) {
          const bad = ctView.slice();
          bad[bad.length - 1] ^= 1;
          const r = await S.decrypt(alg(), key, bad).then(() => 'resolved', (e) => e.name);
          if (r !== 'OperationError') own.push(`${what}: decrypt with a wrong tag: ${r}, not OperationError`);
        }
        checked++;
      }
    }
    if (libSupports('AES-GCM')) {
      const key = await S.importKey('raw', k32, 'AES-GCM', false, ['encrypt']);
      const iv = bytes(12, 9);
      const data = bytes(1024 * 1024, 4);
      const kept = await S.encrypt({ name: 'AES-GCM', iv }, key, data);
      const keptCopy = new Uint8Array(kept).slice();
      const other = bytes(1024 * 1024, 6);
      for (let i = 0; i < 200; i++) {
        const r = await S.encrypt({ name: 'AES-GCM', iv }, key, other);
        if (i === 199 && eq(r, kept)) own.push('two large encryptions of different data gave the same bytes');
        if (i % 16 === 0) await new Promise((res) => setImmediate(res)); // finalizers run from the event loop
      }
      if (!eq(kept, keptCopy)) own.push('a kept 1 MiB AES-GCM result changed while others were made and collected');
      checked++;
    }
    console.log(`large data on the pool: ${checked} checks (encrypt vs Node where it has the algorithm, decrypt back, the data read at the call only, a wrong tag, a kept result)`);
  }
  // KMAC verify with outputLength 0 (an empty MAC): a non-empty signature
  // does not match, even when detached before the call (on the pool, for its
  // large data) settles.
  if (libSupports('KMAC128') && LIB.S.supports('verify', { name: 'KMAC128', outputLength: 0 })) {
    const S = LIB.subtle;
    const km = await S.generateKey({ name: 'KMAC128' }, false, ['sign', 'verify']).catch(() => null);
    if (km) {
      for (const [what, mk] of [['a Uint8Array', () => bytes(4)], ['a DataView', () => new DataView(bytes(4).buffer)]]) {
        const sig = mk();
        const p = S.verify({ name: 'KMAC128', outputLength: 0 }, km, sig, new Uint8Array(64 * 1024));
        structuredClone(sig.buffer, { transfer: [sig.buffer] });
        const r = await p.then((v) => v, (e) => `${e.name}: ${e.message}`);
        if (r !== false) own.push(`KMAC128 verify, outputLength 0, of ${what} of 4 bytes detached after the call: ${r}, not false`);
      }
    }
  }
  // A 0 the operation rejects (KMAC generateKey length, Argon2 passes) is
  // rejected in the operation's own steps, after the usage and key checks;
  // and supports() says false for it (as for HMAC's, which Node 24 says too).
  {
    const S = LIB.subtle;
    const zeros = [['generateKey', { name: 'KMAC128', length: 0 }], ['generateKey', { name: 'HMAC', hash: 'SHA-256', length: 0 }],
      ['deriveBits', { name: 'Argon2id', nonce: bytes(16), parallelism: 1, memory: 64, passes: 0 }, 256]];
    for (const [op, a, x] of zeros) {
      if (!libSupports(a.name)) continue;
      let r;
      try { r = x === undefined ? LIB.S.supports(op, a) : LIB.S.supports(op, a, x); } catch (e) { r = e.name; }
      if (r !== false) own.push(`supports(${op}, ${JSON.stringify(a)}): ${r}, not false`);
    }
    const names = { has: libSupports }; // what this backend has
    const o = (p) => p.then(() => 'resolved', (e) => e.name);
    if (names.has('KMAC128')) {
      const r = await o(S.generateKey({ name: 'KMAC128', length: 0 }, false, ['encrypt']));
      if (r !== 'SyntaxError') own.push(`KMAC128 generateKey, length 0 and usage encrypt: ${r}, not SyntaxError`);
      const r2 = await o(S.generateKey({ name: 'KMAC128', length: 0 }, false, ['sign']));
      if (r2 !== 'OperationError') own.push(`KMAC128 generateKey, length 0: ${r2}, not OperationError`);
    }
    if (names.has('Argon2id')) {
      const a = { name: 'Argon2id', nonce: bytes(16), parallelism: 1, memory: 64, passes: 0 };
      const k1 = await S.importKey('raw-secret', bytes(8), 'Argon2id', false, ['deriveKey']).catch(() => null);
      const k2 = await S.importKey('raw-secret', bytes(8), 'Argon2id', false, ['deriveBits']).catch(() => null);
      if (k1 && k2) {
        const r = await o(S.deriveBits(a, k1, 256));
        if (r !== 'InvalidAccessError') own.push(`Argon2id deriveBits, passes 0, on a key without deriveBits: ${r}, not InvalidAccessError`);
        const r2 = await o(S.deriveBits(a, k2, 256));
        if (r2 !== 'OperationError') own.push(`Argon2id deriveBits, passes 0: ${r2}, not OperationError`);
      }
    }
  }
  // The limits an embedder sets (webcrypto_set_limits through
  // getLimits/setLimits): the documented defaults, a member set alone, each
  // refused value changing nothing, and a limit that refuses a request.
  {
    const S = LIB.subtle;
    const o = (p) => p.then(() => 'resolved', (e) => e.name);
    const DEFAULTS = { maxPbkdf2Iterations: 16777216, maxArgon2Memory: 262144, maxArgon2Passes: 16,
      maxRsaGenerateBits: 4096, maxRsaImportBits: 16384, maxJwkBytes: 1048576, maxJwkKeyOps: 64 };
    const show = (l) => JSON.stringify(l);
    if (show(lib.getLimits()) !== show(DEFAULTS)) own.push(`getLimits(): ${show(lib.getLimits())}, not the documented defaults`);
    const set = lib.setLimits({ maxPbkdf2Iterations: 1000, maxJwkKeyOps: 2 });
    if (show(set) !== show({ ...DEFAULTS, maxPbkdf2Iterations: 1000, maxJwkKeyOps: 2 })) own.push(`setLimits({maxPbkdf2Iterations: 1000, maxJwkKeyOps: 2}): ${show(set)}`);
    for (const bad of [{ maxPbkdf2Iterations: -1 }, { maxPbkdf2Iterations: 2 ** 32 }, { maxJwkBytes: 'many' },
      { maxArgon2Memory: 5 }, { maxRsaGenerateBits: 100 }, { maxJwkKeyOps: 10n }, 7]) {
      let r;
      try { lib.setLimits(bad); r = 'accepted'; } catch (e) { r = e.name; }
      if (r !== 'TypeError') own.push(`setLimits(${typeof bad === 'object' ? Object.keys(bad)[0] : bad}): ${r}, not TypeError`);
      if (lib.getLimits().maxPbkdf2Iterations !== 1000) own.push(`a refused setLimits changed the limits: ${show(lib.getLimits())}`);
    }
    if (libSupports('PBKDF2')) {
      const k = await S.importKey('raw', bytes(16), 'PBKDF2', false, ['deriveBits']);
      const p = (n) => ({ name: 'PBKDF2', hash: 'SHA-256', salt: bytes(16), iterations: n });
      const at = await o(S.deriveBits(p(1000), k, 256));
      const over = await o(S.deriveBits(p(1001), k, 256));
      if (at !== 'resolved' || over !== 'NotSupportedError') own.push(`PBKDF2 under maxPbkdf2Iterations 1000: 1000 ${at}, 1001 ${over} (expected resolved, NotSupportedError)`);
    }
    if (libSupports('HMAC')) {
      const jwk = { kty: 'oct', k: 'AAAAAAAAAAAAAAAAAAAAAA', alg: 'HS256', key_ops: ['sign', 'verify', 'encrypt'] };
      const r = await o(S.importKey('jwk', jwk, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']));
      if (r !== 'DataError') own.push(`a JWK with 3 key_ops under maxJwkKeyOps 2: ${r}, not DataError`);
    }
    const back = lib.setLimits({ maxPbkdf2Iterations: 0, maxJwkKeyOps: 0 });
    if (show(back) !== show(DEFAULTS)) own.push(`setLimits with 0s: ${show(back)}, not the defaults`);
  }
  return own;
}

module.exports = { bindingAlone };
