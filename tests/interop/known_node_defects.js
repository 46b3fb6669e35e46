'use strict';
/*
 * known_node_defects.js - where a Node release departs from the WebCrypto
 * spec in a way the interop test sees. judge.js reads this list.
 *
 * The checks judge by the spec, not by what one Node writes: where the two
 * sides differ, the failure says which side departs from the spec. A failed
 * check that matches a defect listed for the Node under test is printed as
 * "known Node <version> defect: ..." and counted apart (never as a pass);
 * any other failure still fails. A check that a listed defect should make
 * fail, but that passes on that Node, fails the run too: the defect no
 * longer reproduces there, and its entry must be narrowed or removed.
 *
 * Each entry:
 *   id        short name
 *   nodes     the Node versions it applies to: "18" is every 18.x.y,
 *             "18.20" every 18.20.y, "18.20.8" that release only
 *   what      the defect, against the spec
 *   symptoms  [{ check, fail }]: `check` matches the check's name on every
 *             line about it ("c: ..." or "node: ...", after "ok   - " or
 *             "FAIL - "), `fail` the whole failure line the defect gives.
 *             Every check `check` matches must show the defect: the test's
 *             data are chosen so that it always can.
 */
module.exports = [
  {
    id: 'ed25519-jwk-alg-export',
    nodes: ['18'],
    what: 'exports an Ed25519 key as a JWK with alg "EdDSA" (an earlier draft\'s); the spec writes "Ed25519"',
    symptoms: [
      /* the library re-exports Node's key and compares its JWK with Node's */
      { check: /^c: node-Ed25519: (public|private) [a-zA-Z0-9]+ imports; /,
        fail: /\(the peer's JWK has alg "EdDSA"; the spec writes "Ed25519"\)$/ },
      /* Node re-exports the library's key (imported from spki, raw or pkcs8) */
      { check: /^node: c-Ed25519: (public (spki|raw)|private pkcs8) imports; /,
        fail: /\(this Node's JWK has alg "EdDSA"; the spec writes "Ed25519"\)$/ },
    ],
  },
  {
    id: 'ed448-jwk-alg-export',
    nodes: ['18'],
    what: 'exports an Ed448 key as a JWK with alg "EdDSA" (RFC 8037\'s); the Secure Curves draft writes "Ed448"',
    symptoms: [
      { check: /^c: node-Ed448: (public|private) [a-zA-Z0-9]+ imports; /,
        fail: /\(the peer's JWK has alg "EdDSA"; the spec writes "Ed448"\)$/ },
      { check: /^node: c-Ed448: (public (spki|raw)|private pkcs8) imports; /,
        fail: /\(this Node's JWK has alg "EdDSA"; the spec writes "Ed448"\)$/ },
    ],
  },
  {
    id: 'ed448-jwk-alg-import',
    nodes: ['18'],
    what: 'refuses to import an Ed448 JWK with alg "Ed448", which the Secure Curves draft\'s import accepts (as it does "EdDSA")',
    symptoms: [
      { check: /^node: c-Ed448: (public|private) jwk imports; /,
        fail: /\(DataError: JWK "alg" does not match the requested algorithm\)$/ },
    ],
  },
  {
    id: 'ed25519-jwk-alg-import',
    nodes: ['18'],
    what: 'refuses to import an Ed25519 JWK with alg "Ed25519", which the spec\'s import accepts (as it does "EdDSA")',
    symptoms: [
      { check: /^node: c-Ed25519: (public|private) jwk imports; /,
        fail: /\(DataError: JWK "alg" does not match the requested algorithm\)$/ },
    ],
  },
  {
    id: 'ecdh-derivebits-tail',
    nodes: ['18'],
    what: 'ECDH deriveBits with a length that is not a whole number of bytes (P-521, 521 bits) leaves the secret\'s bits past the length in the last byte; the spec zeroes them',
    symptoms: [
      /* Node's 521-bit secret, checked by the library */
      { check: /^c: deriveBits node-ECDH-P-521-[AB] x node-ECDH-P-521-[AB] \(521 bits\): /,
        fail: /\(the peer's result sets bits past the length 521 \(the spec zeroes them\)\)$/ },
      /* the library's 521-bit secret, which Node derives itself to compare */
      { check: /^node: deriveBits node-ECDH-P-521-[AB] x c-ECDH-P-521-[AB] \(521 bits\): /,
        fail: /\(this Node's result sets bits past the length 521 \(the spec zeroes them\)\)$/ },
    ],
  },
  {
    id: 'aes-kw-pads-jwk',
    nodes: ['18', '20', '24'],
    what: 'AES-KW wrapKey("jwk", ...) of a JWK whose JSON text is not a multiple of 8 bytes pads the text with spaces and wraps it; the spec wraps the text as it is, and AES-KW\'s wrap key throws an OperationError when "plaintext is not a multiple of 64 bits in length"',
    symptoms: [
      /* Node's side: the 122-byte JWK of an AES-256-GCM key (encrypt, decrypt) */
      { check: /^node: wrapKey jwk with AES-KW of a [0-9]+-byte JWK \(not whole 64-bit blocks\): OperationError/,
        fail: /\(no error, want OperationError\)$/ },
    ],
  },
];
