'use strict';
// What tests/npm_package_test.sh runs against the installed package, given
// the package as `require` (example.cjs) or `import` (example.mjs) gave it:
// an AES-GCM round trip, ECDSA sign/verify and JWK import/export on each
// backend the package has (jca's where it was built, which needed a JDK),
// its version, and that its internals are not exported.
const assert = require('assert');
const { createRequire } = require('module');

async function aesGcm(c, name) {
  const s = c.subtle;
  const key = await s.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const iv = c.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(`the package on ${name}`);
  const ct = await s.encrypt({ name: 'AES-GCM', iv, additionalData: iv }, key, data);
  assert.strictEqual(ct.byteLength, data.length + 16, `${name}: AES-GCM ciphertext and tag`);
  const pt = await s.decrypt({ name: 'AES-GCM', iv, additionalData: iv }, key, ct);
  assert.deepStrictEqual(new Uint8Array(pt), data, `${name}: AES-GCM round trip`);
  const bad = new Uint8Array(ct).slice(); // a copy: ct stays as it is
  bad[0] ^= 1;
  await assert.rejects(s.decrypt({ name: 'AES-GCM', iv, additionalData: iv }, key, bad),
                       { name: 'OperationError' }, `${name}: a changed ciphertext is refused`);
  // JWK: the secret key out and back in, still the same key.
  const jwk = await s.exportKey('jwk', key);
  assert.strictEqual(jwk.kty, 'oct');
  assert.strictEqual(jwk.alg, 'A256GCM');
  const again = await s.importKey('jwk', jwk, 'AES-GCM', false, ['decrypt']);
  assert.deepStrictEqual(new Uint8Array(await s.decrypt({ name: 'AES-GCM', iv, additionalData: iv }, again, ct)), data,
                         `${name}: the JWK-imported key decrypts`);
}

async function ecdsa(c, name) {
  const s = c.subtle;
  const { privateKey, publicKey } = await s.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true,
                                                         ['sign', 'verify']);
  const data = new TextEncoder().encode('signed by the package');
  const alg = { name: 'ECDSA', hash: 'SHA-256' };
  const sig = await s.sign(alg, privateKey, data);
  assert.strictEqual(sig.byteLength, 64, `${name}: a P-256 signature is r || s`);
  assert.strictEqual(await s.verify(alg, publicKey, sig, data), true, `${name}: ECDSA verifies`);
  const other = new Uint8Array(data);
  other[0] ^= 1;
  assert.strictEqual(await s.verify(alg, publicKey, sig, other), false, `${name}: ECDSA refuses other data`);
  // JWK: the public key out and in again verifies; the private key's JWK has d.
  const jwk = await s.exportKey('jwk', publicKey);
  assert.deepStrictEqual([jwk.kty, jwk.crv, typeof jwk.x, typeof jwk.y, jwk.d], ['EC', 'P-256', 'string', 'string', undefined]);
  const imported = await s.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
  assert.strictEqual(await s.verify(alg, imported, sig, data), true, `${name}: the JWK-imported key verifies`);
  assert.deepStrictEqual(await s.exportKey('jwk', imported), jwk, `${name}: JWK export of an import is the same`);
  const djwk = await s.exportKey('jwk', privateKey);
  assert.strictEqual(typeof djwk.d, 'string');
  const priv = await s.importKey('jwk', djwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  assert.strictEqual(await s.verify(alg, publicKey, await s.sign(alg, priv, data), data), true,
                     `${name}: the JWK-imported private key signs`);
}

module.exports = async function check(b, how) {
  const pkgRequire = createRequire(`${process.cwd()}/`);
  const pkg = pkgRequire('libwebcrypto/package.json');
  assert.strictEqual(b.version, pkg.version, 'version() is the package.json version');
  assert.throws(() => pkgRequire('libwebcrypto/lib/addon.js'), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' },
                'lib/ is not exported');
  for (const k of ['crypto', 'CryptoKey', 'SubtleCrypto', 'Crypto', 'QuotaExceededError', 'withBackend',
                   'algorithms', 'backends', 'supports', 'version', 'getLimits', 'setLimits']) {
    assert.ok(b[k] !== undefined, `the package exports ${k}`);
  }
  assert.ok(b.algorithms().some((a) => a.name === 'AES-GCM'), 'algorithms() lists AES-GCM');
  const names = b.backends();
  assert.ok(names.includes('openssl'), 'backends() has openssl');
  await aesGcm(b.crypto, 'the default backend');
  await ecdsa(b.crypto, 'the default backend');
  const ran = [];
  for (const name of names) {
    const w = b.withBackend(name);
    const c = w.crypto;
    // each backend's SubtleCrypto is an interface of its own, as another
    // realm's (bindings/node/README.md)
    assert.ok(c.subtle instanceof w.SubtleCrypto, `${name}: its subtle is its SubtleCrypto`);
    assert.strictEqual(Object.getPrototypeOf(c.subtle), w.SubtleCrypto.prototype,
                       `${name}: its subtle's prototype is its SubtleCrypto.prototype`);
    await aesGcm(c, name);
    await ecdsa(c, name);
    ran.push(name);
  }
  if (!names.includes('jca')) console.log('# jca: not in this package (no JDK when it was installed): not run');
  console.log(`ok - ${how} on node ${process.version}: AES-GCM, ECDSA, JWK on ${ran.join(', ')}`);
};
