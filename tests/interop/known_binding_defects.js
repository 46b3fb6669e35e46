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
];
