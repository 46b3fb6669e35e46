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
  /* None today: every check of interop.binding.<node>.<backend> passes or is
   * a skip with its reason, on every backend, on Node 24, 20 and 18. The four
   * entries listed until 0.3's algorithms reached index.js (X448 deriveBits
   * params, cSHAKE digest params, the "raw-secret" format, AES-OCB
   * generateKey) no longer reproduce and were removed. cSHAKE with a
   * customization or a function name is NotSupportedError where the backend's
   * library has SHAKE only (BoringSSL, the JDK; docs/ARCHITECTURE.md,
   * WC_CAP_CSHAKE_CUSTOM; openssl computes it): node_peer.js skips that digest with the
   * library's reason, as interop_peer.c does, rather than listing it here. */
];
