// pq_node_peer.js - Node's side of the ML-KEM / ML-DSA interop test
// (pq_interop_test.sh): crypto.subtle's "Modern Algorithms" draft algorithms.
//   node pq_node_peer.js produce DIR   Node's keys (jwk, pkcs8, spki, raw-seed,
//                                      raw-public), an encapsulation and a
//                                      signature, as files in DIR
//   node pq_node_peer.js consume DIR   checks what the library made in DIR;
//                                      prints "ok   - ..." / "FAIL - ..." lines
'use strict';
const fs = require('fs');
const path = require('path');
const { subtle } = require('crypto').webcrypto;
process.removeAllListeners('warning'); // the "experimental feature" warnings

const [mode, dir] = process.argv.slice(2);
const f = (name) => path.join(dir, name);
const put = (name, data) => fs.writeFileSync(f(name), Buffer.from(data));
const get = (name) => fs.readFileSync(f(name));
const hex = (b) => Buffer.from(b).toString('hex');
let failed = 0;
const ok = (cond, what) => {
  console.log(`${cond ? 'ok  ' : 'FAIL'} - node: ${what}`);
  if (!cond) failed++;
};

async function produce() {
  const kem = await subtle.generateKey({ name: 'ML-KEM-768' }, true,
    ['encapsulateBits', 'decapsulateBits']);
  put('node_kem.jwk', JSON.stringify(await subtle.exportKey('jwk', kem.privateKey)));
  put('node_kem.pub.jwk', JSON.stringify(await subtle.exportKey('jwk', kem.publicKey)));
  put('node_kem.pkcs8', await subtle.exportKey('pkcs8', kem.privateKey));
  put('node_kem.spki', await subtle.exportKey('spki', kem.publicKey));
  put('node_kem.seed', await subtle.exportKey('raw-seed', kem.privateKey));
  put('node_kem.raw', await subtle.exportKey('raw-public', kem.publicKey));
  const enc = await subtle.encapsulateBits({ name: 'ML-KEM-768' }, kem.publicKey);
  put('node_kem.ct', enc.ciphertext);
  put('node_kem.shared', hex(enc.sharedKey) + '\n');
  const dsa = await subtle.generateKey({ name: 'ML-DSA-65' }, true, ['sign', 'verify']);
  put('node_dsa.jwk', JSON.stringify(await subtle.exportKey('jwk', dsa.privateKey)));
  put('node_dsa.pub.jwk', JSON.stringify(await subtle.exportKey('jwk', dsa.publicKey)));
  put('node_dsa.pkcs8', await subtle.exportKey('pkcs8', dsa.privateKey));
  const msg = get('msg');
  put('node_dsa.sig', hex(await subtle.sign({ name: 'ML-DSA-65' }, dsa.privateKey, msg)) + '\n');
  console.log('ok   - node: produced ML-KEM-768 and ML-DSA-65 keys, an encapsulation, a signature');
}

async function consume() {
  const alg = { name: 'ML-KEM-768' };
  // the library's private key (JWK): Node imports it and finds the same seed
  // and PKCS #8 bytes the library exported
  const jwk = JSON.parse(get('c_kem.jwk'));
  const priv = await subtle.importKey('jwk', jwk, alg, true, ['decapsulateBits']);
  ok(hex(await subtle.exportKey('raw-seed', priv)) === hex(get('c_kem.seed')),
    "ML-KEM-768: the library's JWK has the seed of its raw-seed export");
  ok(hex(await subtle.exportKey('pkcs8', priv)) === hex(get('c_kem.pkcs8')),
    "ML-KEM-768: Node's pkcs8 of the library's key equals the library's, byte for byte");
  const pub = await subtle.importKey('spki', get('c_kem.spki'), alg, true, ['encapsulateBits']);
  ok(hex(await subtle.exportKey('raw-public', pub)) === hex(get('c_kem.raw')),
    "ML-KEM-768: the library's spki and raw-public hold the same key");
  // the library's encapsulation to Node's key
  const nodePriv = await subtle.importKey('jwk', JSON.parse(get('node_kem.jwk')), alg, false,
    ['decapsulateBits']);
  const [ctHex, sharedHex] = get('c_encaps.txt').toString().trim().split('\n');
  const k = await subtle.decapsulateBits(alg, nodePriv, Buffer.from(ctHex, 'hex'));
  ok(hex(k) === sharedHex, "ML-KEM-768: Node decapsulates the library's encapsulation to its key");
  // ML-DSA: the library's signature verifies in Node; its pkcs8 is Node's
  const dalg = { name: 'ML-DSA-65' };
  const dpub = await subtle.importKey('jwk', JSON.parse(get('c_dsa.pub.jwk')), dalg, true,
    ['verify']);
  const sig = Buffer.from(get('c_dsa.sig').toString().trim(), 'hex');
  ok(await subtle.verify(dalg, dpub, sig, get('msg')), "ML-DSA-65: Node verifies the library's signature");
  ok(!(await subtle.verify(dalg, dpub, sig, Buffer.from('other'))),
    "ML-DSA-65: ... and not over other data");
  const dpriv = await subtle.importKey('jwk', JSON.parse(get('c_dsa.jwk')), dalg, true, ['sign']);
  ok(hex(await subtle.exportKey('pkcs8', dpriv)) === hex(get('c_dsa.pkcs8')),
    "ML-DSA-65: Node's pkcs8 of the library's key equals the library's, byte for byte");
  console.log(`node consume: ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

(mode === 'produce' ? produce() : consume()).catch((e) => {
  console.log(`FAIL - node: ${e.name}: ${e.message}`);
  process.exit(1);
});
