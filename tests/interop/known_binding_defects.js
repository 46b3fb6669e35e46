'use strict';
/*
 * known_binding_defects.js - where libwebcrypto's Node binding
 * (bindings/node/) departs from the WebCrypto spec, or lacks what its backend
 * has, in a way the interop test sees when the binding is its JS side
 * (interop.binding.<node>.<backend>). judge.js reads this list with
 * --binding BACKEND, as it reads known_node_defects.js for Node's own
 * crypto.subtle, and treats an entry the same way: a failure it explains is
 * counted apart (never as a pass), every other failure fails, and a check it
 * should make fail that passes fails the run (narrow or remove the entry).
 *
 * Each entry: id, what, symptoms (as in known_node_defects.js), and
 *   backends  the backends it applies to ('openssl', 'jca:BC', ...), or 'all'
 *   nodes     optional: the Node versions (as in known_node_defects.js)
 */
module.exports = [
  /* The algorithms the library gained in 0.3 that the binding's index.js
   * does not take yet (its README: "Not compared yet"); the library and
   * its backend have them (withBackend's support lists them), so the test
   * runs them and these entries say why they fail. When the binding takes
   * them, the consume-side checks pass and judge.js asks for the entry's
   * removal. */
  {
    id: 'binding-x448-derive-params',
    backends: 'all',
    what: 'deriveBits with X448: index.js\'s REGISTRY has no X448 entry, so the "public" member of its EcdhKeyDeriveParams is not read and the library answers TypeError; the Secure Curves draft\'s X448 derive bits takes EcdhKeyDeriveParams as X25519 does',
    symptoms: [
      { check: /^binding: make deriveBits node-X448-[AB] x node-X448-[AB]/,
        fail: /\(TypeError: deriveBits: the public_key member is required\)$/ },
      { check: /^binding: deriveBits [a-z]+-X448-[AB] x [a-z]+-X448-[AB]( \([0-9]+ bits\))?: secrets agree/,
        fail: /\(TypeError: deriveBits: the public_key member is required\)$/ },
    ],
  },
  {
    id: 'binding-cshake-digest',
    backends: 'all',
    what: 'digest with cSHAKE128/cSHAKE256: NotSupportedError ("not a digest algorithm": the addon calls webcrypto_digest, which takes hashes, not webcrypto_digest_params); the Modern Algorithms draft\'s digest takes CShakeParams (outputLength, functionName, customization)',
    symptoms: [
      { check: /^binding: (make )?digest \{"name":"cSHAKE(128|256)"/,
        fail: /\(NotSupportedError: digest: cSHAKE(128|256) is not a digest algorithm\)$/ },
    ],
  },
  {
    id: 'binding-no-raw-secret',
    backends: 'all',
    what: 'no "raw-secret" KeyFormat (the Modern Algorithms draft\'s format of KMAC, ChaCha20-Poly1305, AES-OCB and Argon2 keys): importKey and exportKey with it are a TypeError, so none of those keys can be made or read',
    symptoms: [
      { check: /^binding: make (sign \{"name":"KMAC(128|256)"|encrypt ChaCha20-Poly1305-|deriveBits \{"name":"Argon2(d|i|id)")/,
        fail: /\(TypeError: "raw-secret" is not a KeyFormat\)$/ },
      /* the C peer's: the import fails first; when it works, its checks pass */
      { check: /^binding: (kmac \{"name":"KMAC|(verify|sign) KMAC |modern-cipher \{"name":"(ChaCha20-Poly1305|AES-OCB)"|(decrypt|encrypt) (ChaCha20-Poly1305|AES-OCB)-|argon2 \{"name":"Argon2|deriveBits \{"name":"Argon2)/,
        fail: /\(TypeError: "raw-secret" is not a KeyFormat\)$/ },
    ],
  },
  {
    id: 'binding-aes-ocb-generate',
    backends: 'all',
    what: 'generateKey with AES-OCB: index.js\'s REGISTRY has no AES-OCB entry, so the "length" member of its AesKeyGenParams is not read and the library answers TypeError; the Modern Algorithms draft\'s AES-OCB generate key takes AesKeyGenParams',
    symptoms: [
      { check: /^binding: make encrypt AES-OCB-/,
        fail: /\(TypeError: generateKey: length is required\)$/ },
    ],
  },
];
