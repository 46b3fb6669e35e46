// Checked with tsc --noEmit against the installed package's types
// (tests/npm_package_test.sh), in a Node project without lib "dom". Each
// line marked "expect-error" must be an error, or tsc fails: the types check something.
import { crypto, withBackend, backends, supports, version, getLimits, setLimits, algorithms } from 'libwebcrypto';
import type { CryptoKey, CryptoKeyPair, JsonWebKey, SubtleCrypto } from 'libwebcrypto';

export async function roundTrip(data: Uint8Array): Promise<Uint8Array> {
  const subtle: SubtleCrypto = crypto.subtle;
  const key: CryptoKey = await subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct: ArrayBuffer = await subtle.encrypt({ name: 'AES-GCM', iv }, key, data);
  const jwk: JsonWebKey = await subtle.exportKey('jwk', key);
  const again = await subtle.importKey('jwk', jwk, 'AES-GCM', false, ['decrypt']);
  return new Uint8Array(await subtle.decrypt({ name: 'AES-GCM', iv }, again, ct));
}

export async function signVerify(data: Uint8Array): Promise<boolean> {
  const pair: CryptoKeyPair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false,
                                                             ['sign', 'verify']);
  const sig = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, data);
  const spki: ArrayBuffer = await crypto.subtle.exportKey('spki', pair.publicKey);
  const pub = await crypto.subtle.importKey('spki', spki, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
  return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, pub, sig, data);
}

export async function kem(): Promise<ArrayBuffer> {
  const jca = withBackend('jca');
  const { publicKey } = await jca.crypto.subtle.generateKey('ML-KEM-768', false,
                                                            ['encapsulateBits', 'decapsulateBits']) as CryptoKeyPair;
  const { sharedKey, ciphertext } = await jca.crypto.subtle.encapsulateBits('ML-KEM-768', publicKey);
  return ciphertext.byteLength > 0 ? sharedKey : new ArrayBuffer(0);
}

export function about(): string {
  const limits = setLimits({ maxPbkdf2Iterations: 100000 });
  const n: number = getLimits().maxRsaGenerateBits + limits.maxPbkdf2Iterations;
  const can: boolean = supports('boringssl', 'AES-GCM') && withBackend('jca:BC').SubtleCrypto.supports('encrypt', 'AES-GCM');
  return `${version} ${backends().join()} ${algorithms().length} ${n} ${can} ${crypto.randomUUID()}`;
}

export async function wrong(key: CryptoKey): Promise<void> {
  // @ts-expect-error: a digest's data is a BufferSource
  await crypto.subtle.digest('SHA-256', 'text');
  // @ts-expect-error: not a KeyUsage
  await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'frobnicate']);
  // @ts-expect-error: a JWK import takes a JsonWebKey, not bytes
  await crypto.subtle.importKey('jwk', new Uint8Array(32), 'AES-GCM', false, ['encrypt']);
  // @ts-expect-error: an AES key is a CryptoKey, not a pair
  const pair: CryptoKeyPair = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, ['encrypt']);
  // @ts-expect-error: read-only
  key.extractable = true;
  // @ts-expect-error: not a limit
  setLimits({ maxEverything: 1 });
  void pair;
}
