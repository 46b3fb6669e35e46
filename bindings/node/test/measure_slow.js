'use strict';
// measure_slow.js - the per-call times behind lib/pool.js's SLOW table for the 0.3
// algorithms: 50 awaited calls each (500 for the cheap ones), on one backend.
//   WEBCRYPTO_NODE_ADDON=build/dev/bindings/node/webcrypto.node node measure_slow.js BACKEND
const lib = require('../index.js');
const b = process.argv[2];
const s = lib.withBackend(b).crypto.subtle;
const T = async (name, f, n = 50) => { await f(); const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) await f(); console.log(b, name, (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(1), 'us'); };
(async () => {
  const d = new Uint8Array(100);
  if (lib.supports(b, 'ML-DSA-65')) {
    const kp = await s.generateKey('ML-DSA-65', false, ['sign', 'verify']);
    await T('ML-DSA-65 generateKey', () => s.generateKey('ML-DSA-65', false, ['sign', 'verify']));
    const sig = await s.sign('ML-DSA-65', kp.privateKey, d);
    await T('ML-DSA-65 sign', () => s.sign('ML-DSA-65', kp.privateKey, d));
    await T('ML-DSA-65 verify', () => s.verify('ML-DSA-65', kp.publicKey, sig, d));
    const kk = await s.generateKey('ML-KEM-768', false, ['encapsulateBits', 'decapsulateBits']);
    await T('ML-KEM-768 generateKey', () => s.generateKey('ML-KEM-768', false, ['encapsulateBits', 'decapsulateBits']));
    const e = await s.encapsulateBits('ML-KEM-768', kk.publicKey);
    await T('ML-KEM-768 encapsulateBits', () => s.encapsulateBits('ML-KEM-768', kk.publicKey));
    await T('ML-KEM-768 decapsulateBits', () => s.decapsulateBits('ML-KEM-768', kk.privateKey, e.ciphertext));
  }
  if (lib.supports(b, 'Ed448')) {
    const kp = await s.generateKey('Ed448', false, ['sign', 'verify']);
    const sig = await s.sign('Ed448', kp.privateKey, d);
    await T('Ed448 generateKey', () => s.generateKey('Ed448', false, ['sign', 'verify']));
    await T('Ed448 sign', () => s.sign('Ed448', kp.privateKey, d));
    await T('Ed448 verify', () => s.verify('Ed448', kp.publicKey, sig, d));
    const x = await s.generateKey('X448', false, ['deriveBits']);
    const y = await s.generateKey('X448', false, ['deriveBits']);
    await T('X448 deriveBits', () => s.deriveBits({ name: 'X448', public: y.publicKey }, x.privateKey, 448));
  }
  if (lib.supports(b, 'KMAC128')) {
    const k = await s.generateKey('KMAC128', false, ['sign']);
    await T('KMAC128 sign 100B', () => s.sign({ name: 'KMAC128', outputLength: 256 }, k, d), 500);
  }
  if (lib.supports(b, 'ChaCha20-Poly1305')) {
    const k = await s.generateKey('ChaCha20-Poly1305', false, ['encrypt']);
    await T('ChaCha20 encrypt 100B', () => s.encrypt({ name: 'ChaCha20-Poly1305', iv: new Uint8Array(12) }, k, d), 500);
  }
  if (lib.supports(b, 'SHA3-256')) await T('SHA3-256 100B', () => s.digest('SHA3-256', d), 500);
})();
