// pq_node_peer.js - the JS side of the ML-KEM / ML-DSA interop test
// (pq_interop_test.sh): crypto.subtle's "Modern Algorithms" draft algorithms.
//   node pq_node_peer.js [--binding BACKEND] [--algs LIST] produce DIR
//        the JS side's keys (jwk, pkcs8, spki, raw-seed, raw-public), an
//        encapsulation and a signature, as files in DIR
//   node pq_node_peer.js [--binding BACKEND] [--algs LIST] consume DIR
//        checks what the library made in DIR; prints "ok   - ..." / "FAIL - ..." lines
// Without --binding the subtle implementation is Node's own (crypto.webcrypto);
// with it, require('bindings/node/index.js').withBackend(BACKEND).crypto.subtle
// over $WEBCRYPTO_NODE_ADDON: the same steps drive either, and the check
// lines say "node: " or "binding: ". LIST (comma-separated, default
// "ML-KEM-768,ML-DSA-65") names the algorithms exchanged: those both sides have.
// --contexts LIST ("ML-DSA-65", "Ed448"): also signatures with a context
// string, both ways, for those (where the library's backend takes one).
'use strict';
const fs = require('fs');
const path = require('path');
process.removeAllListeners('warning'); // the "experimental feature" warnings

const argv = process.argv.slice(2);
let SIDE = 'node';
let subtle = require('crypto').webcrypto.subtle;
let algs = ['ML-KEM-768', 'ML-DSA-65'];
let contexts = [];
for (;;) {
  if (argv[0] === '--binding') {
    const backend = argv[1];
    argv.splice(0, 2);
    subtle = require(path.join(__dirname, '..', '..', 'bindings', 'node', 'index.js'))
      .withBackend(backend).crypto.subtle;
    SIDE = 'binding';
  } else if (argv[0] === '--contexts') {
    contexts = argv[1].split(',').filter((a) => a !== '');
    argv.splice(0, 2);
  } else if (argv[0] === '--algs') {
    algs = argv[1].split(',').filter((a) => a !== '');
    argv.splice(0, 2);
  } else {
    break;
  }
}
const WHO = SIDE === 'node' ? 'Node' : 'the binding';
const KEM = algs.includes('ML-KEM-768');
const DSA = algs.includes('ML-DSA-65');
const DSA_CTX = DSA && contexts.includes('ML-DSA-65');
const ED448_CTX = contexts.includes('Ed448');
// The context string both sides sign with (bytes of "interop context").
const CONTEXT = Buffer.from('interop context');
const [mode, dir] = argv;
const f = (name) => path.join(dir, name);
const put = (name, data) => fs.writeFileSync(f(name), Buffer.from(data));
const get = (name) => fs.readFileSync(f(name));
const hex = (b) => Buffer.from(b).toString('hex');
let failed = 0;
const ok = (cond, what) => {
  console.log(`${cond ? 'ok  ' : 'FAIL'} - ${SIDE}: ${what}`);
  if (!cond) failed++;
};

async function produce() {
  if (KEM) await produceKem();
  if (DSA) await produceDsa();
  if (ED448_CTX) await produceEd448();
  console.log(`ok   - ${SIDE}: produced ${algs.join(' and ')} keys${KEM ? ', an encapsulation' : ''}${DSA ? ', a signature' : ''}`);
}

async function produceKem() {
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
}

async function produceDsa() {
  const dsa = await subtle.generateKey({ name: 'ML-DSA-65' }, true, ['sign', 'verify']);
  put('node_dsa.jwk', JSON.stringify(await subtle.exportKey('jwk', dsa.privateKey)));
  put('node_dsa.pub.jwk', JSON.stringify(await subtle.exportKey('jwk', dsa.publicKey)));
  put('node_dsa.pkcs8', await subtle.exportKey('pkcs8', dsa.privateKey));
  const msg = get('msg');
  put('node_dsa.sig', hex(await subtle.sign({ name: 'ML-DSA-65' }, dsa.privateKey, msg)) + '\n');
  if (DSA_CTX) {
    put('node_dsa_ctx.sig', hex(await subtle.sign({ name: 'ML-DSA-65', context: CONTEXT },
      dsa.privateKey, msg)) + '\n');
  }
}

async function produceEd448() {
  const ed = await subtle.generateKey({ name: 'Ed448' }, true, ['sign', 'verify']);
  put('node_ed448.pub.jwk', JSON.stringify(await subtle.exportKey('jwk', ed.publicKey)));
  put('node_ed448_ctx.sig', hex(await subtle.sign({ name: 'Ed448', context: CONTEXT },
    ed.privateKey, get('msg'))) + '\n');
}

async function consume() {
  if (KEM) await consumeKem();
  if (DSA) await consumeDsa();
  if (ED448_CTX) await consumeEd448();
  console.log(`${SIDE} consume: ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

async function consumeKem() {
  const alg = { name: 'ML-KEM-768' };
  // the library's private key (JWK): Node imports it and finds the same seed
  // and PKCS #8 bytes the library exported
  const jwk = JSON.parse(get('c_kem.jwk'));
  const priv = await subtle.importKey('jwk', jwk, alg, true, ['decapsulateBits']);
  ok(hex(await subtle.exportKey('raw-seed', priv)) === hex(get('c_kem.seed')),
    "ML-KEM-768: the library's JWK has the seed of its raw-seed export");
  ok(hex(await subtle.exportKey('pkcs8', priv)) === hex(get('c_kem.pkcs8')),
    `ML-KEM-768: ${WHO}'s pkcs8 of the library's key equals the library's, byte for byte`);
  const pub = await subtle.importKey('spki', get('c_kem.spki'), alg, true, ['encapsulateBits']);
  ok(hex(await subtle.exportKey('raw-public', pub)) === hex(get('c_kem.raw')),
    "ML-KEM-768: the library's spki and raw-public hold the same key");
  // the library's encapsulation to Node's key
  const nodePriv = await subtle.importKey('jwk', JSON.parse(get('node_kem.jwk')), alg, false,
    ['decapsulateBits']);
  const [ctHex, sharedHex] = get('c_encaps.txt').toString().trim().split('\n');
  const k = await subtle.decapsulateBits(alg, nodePriv, Buffer.from(ctHex, 'hex'));
  ok(hex(k) === sharedHex, `ML-KEM-768: ${WHO} decapsulates the library's encapsulation to its key`);
}

async function consumeDsa() {
  // ML-DSA: the library's signature verifies in Node; its pkcs8 is Node's
  const dalg = { name: 'ML-DSA-65' };
  const dpub = await subtle.importKey('jwk', JSON.parse(get('c_dsa.pub.jwk')), dalg, true,
    ['verify']);
  const sig = Buffer.from(get('c_dsa.sig').toString().trim(), 'hex');
  ok(await subtle.verify(dalg, dpub, sig, get('msg')), `ML-DSA-65: ${WHO} verifies the library's signature`);
  ok(!(await subtle.verify(dalg, dpub, sig, Buffer.from('other'))),
    "ML-DSA-65: ... and not over other data");
  const dpriv = await subtle.importKey('jwk', JSON.parse(get('c_dsa.jwk')), dalg, true, ['sign']);
  ok(hex(await subtle.exportKey('pkcs8', dpriv)) === hex(get('c_dsa.pkcs8')),
    `ML-DSA-65: ${WHO}'s pkcs8 of the library's key equals the library's, byte for byte`);
  if (DSA_CTX) {
    const csig = Buffer.from(get('c_dsa_ctx.sig').toString().trim(), 'hex');
    ok(await subtle.verify({ name: 'ML-DSA-65', context: CONTEXT }, dpub, csig, get('msg')),
      `ML-DSA-65: ${WHO} verifies the library's signature with a context`);
    ok(!(await subtle.verify(dalg, dpub, csig, get('msg'))),
      '... and not without the context');
  }
}

async function consumeEd448() {
  const alg = { name: 'Ed448', context: CONTEXT };
  const pub = await subtle.importKey('jwk', JSON.parse(get('c_ed448.pub.jwk')), { name: 'Ed448' },
    true, ['verify']);
  const sig = Buffer.from(get('c_ed448_ctx.sig').toString().trim(), 'hex');
  ok(await subtle.verify(alg, pub, sig, get('msg')),
    `Ed448: ${WHO} verifies the library's signature with a context`);
  ok(!(await subtle.verify({ name: 'Ed448' }, pub, sig, get('msg'))),
    '... and not without the context');
}

(mode === 'produce' ? produce() : consume()).catch((e) => {
  console.log(`FAIL - ${SIDE}: ${e.name}: ${e.message}`);
  process.exit(1);
});
