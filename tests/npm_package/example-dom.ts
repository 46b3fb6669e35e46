// Checked with lib "dom" too (tests/npm_package_test.sh): the package's
// WebCrypto types and TypeScript's own DOM ones are interchangeable where
// the shapes agree.
import { crypto as wc } from 'libwebcrypto';
import type { CryptoKey as WcKey } from 'libwebcrypto';

export async function mixed(data: BufferSource): Promise<boolean> {
  // A key of the DOM's crypto given to the package's, and the other way round.
  const domKey: CryptoKey = await globalThis.crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['sign']);
  const raw = await wc.subtle.exportKey('raw', domKey);
  const key: WcKey = await wc.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  const jwk: JsonWebKey = await wc.subtle.exportKey('jwk', domKey);
  const sig = await wc.subtle.sign('HMAC', key, data);
  const dom: Crypto['getRandomValues'] = wc.getRandomValues.bind(wc);
  dom(new Uint8Array(4));
  return jwk.kty === 'oct' && (await wc.subtle.verify('HMAC', key, sig, data));
}
