// Types of the libwebcrypto package (index.js; index.mjs re-exports it).
//
// WebCrypto's interfaces are declared here, in this module, with the names
// and shapes of the Web Cryptography API's IDL (as TypeScript's lib "dom"
// has them), rather than taken from lib "dom": a Node project usually
// compiles without it, and a package's types must not add the DOM's globals
// to its users' programs. The types are structural, so a DOM or Node typed
// BufferSource, CryptoKey or JsonWebKey is accepted here. Beyond lib "dom",
// they carry the drafts the library implements ("Modern Algorithms in the
// Web Cryptography API": the KEM operations and usages, getPublicKey,
// supports, the raw-public / raw-secret / raw-seed formats, JWK "AKP").

export type KeyType = 'private' | 'public' | 'secret';
export type KeyUsage =
  | 'decrypt' | 'deriveBits' | 'deriveKey' | 'encrypt' | 'sign' | 'unwrapKey' | 'verify' | 'wrapKey'
  | 'encapsulateKey' | 'encapsulateBits' | 'decapsulateKey' | 'decapsulateBits';
export type KeyFormat = 'jwk' | 'pkcs8' | 'raw' | 'spki' | 'raw-public' | 'raw-secret' | 'raw-seed';
export type BufferSource = ArrayBufferView | ArrayBuffer;
export type NamedCurve = string;
export type HashAlgorithmIdentifier = AlgorithmIdentifier;
export type AlgorithmIdentifier = Algorithm | string;
export type BigInteger = Uint8Array;

export interface Algorithm { name: string; }
export interface KeyAlgorithm { name: string; }

export interface AesKeyGenParams extends Algorithm { length: number; }
export interface AesDerivedKeyParams extends Algorithm { length: number; }
export interface AesCbcParams extends Algorithm { iv: BufferSource; }
export interface AesCtrParams extends Algorithm { counter: BufferSource; length: number; }
export interface AesGcmParams extends Algorithm {
  iv: BufferSource; additionalData?: BufferSource; tagLength?: number;
}
export interface AeadParams extends Algorithm {
  iv: BufferSource; additionalData?: BufferSource; tagLength?: number;
}
export interface HmacKeyGenParams extends Algorithm { hash: HashAlgorithmIdentifier; length?: number; }
export interface HmacImportParams extends Algorithm { hash: HashAlgorithmIdentifier; length?: number; }
export interface RsaKeyGenParams extends Algorithm { modulusLength: number; publicExponent: BigInteger; }
export interface RsaHashedKeyGenParams extends RsaKeyGenParams { hash: HashAlgorithmIdentifier; }
export interface RsaHashedImportParams extends Algorithm { hash: HashAlgorithmIdentifier; }
export interface RsaOaepParams extends Algorithm { label?: BufferSource; }
export interface RsaPssParams extends Algorithm { saltLength: number; }
export interface EcKeyGenParams extends Algorithm { namedCurve: NamedCurve; }
export interface EcKeyImportParams extends Algorithm { namedCurve: NamedCurve; }
export interface EcdsaParams extends Algorithm { hash: HashAlgorithmIdentifier; }
export interface EcdhKeyDeriveParams extends Algorithm { public: CryptoKey; }
export interface HkdfParams extends Algorithm {
  hash: HashAlgorithmIdentifier; info: BufferSource; salt: BufferSource;
}
export interface Pbkdf2Params extends Algorithm {
  hash: HashAlgorithmIdentifier; iterations: number; salt: BufferSource;
}
export interface Ed448Params extends Algorithm { context?: BufferSource; }
export interface ContextParams extends Algorithm { context?: BufferSource; }
export interface CShakeParams extends Algorithm {
  outputLength: number; functionName?: BufferSource; customization?: BufferSource;
}
export interface KmacKeyGenParams extends Algorithm { length?: number; }
export interface KmacImportParams extends Algorithm { length?: number; }
export interface KmacParams extends Algorithm { outputLength: number; customization?: BufferSource; }
export interface Argon2Params extends Algorithm {
  nonce: BufferSource; parallelism: number; memory: number; passes: number;
  version?: number; secretValue?: BufferSource; associatedData?: BufferSource;
}

export interface RsaOtherPrimesInfo { d?: string; r?: string; t?: string; }
export interface JsonWebKey {
  alg?: string; crv?: string; d?: string; dp?: string; dq?: string; e?: string; ext?: boolean;
  k?: string; key_ops?: string[]; kty?: string; n?: string; oth?: RsaOtherPrimesInfo[];
  p?: string; q?: string; qi?: string; use?: string; x?: string; y?: string;
  pub?: string; priv?: string;
}

export interface CryptoKey {
  readonly algorithm: KeyAlgorithm;
  readonly extractable: boolean;
  readonly type: KeyType;
  readonly usages: KeyUsage[];
}
export interface CryptoKeyPair { privateKey: CryptoKey; publicKey: CryptoKey; }
export interface EncapsulatedKey { sharedKey: CryptoKey; ciphertext: ArrayBuffer; }
export interface EncapsulatedBits { sharedKey: ArrayBuffer; ciphertext: ArrayBuffer; }

type CipherAlgorithm = AlgorithmIdentifier | RsaOaepParams | AesCtrParams | AesCbcParams | AesGcmParams | AeadParams;
type ImportAlgorithm =
  AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams | HmacImportParams | KmacImportParams;
type DeriveAlgorithm = AlgorithmIdentifier | EcdhKeyDeriveParams | HkdfParams | Pbkdf2Params | Argon2Params;
type SignAlgorithm = AlgorithmIdentifier | RsaPssParams | EcdsaParams | ContextParams | KmacParams;
type Usages = ReadonlyArray<KeyUsage> | Iterable<KeyUsage>;

export interface SubtleCrypto {
  encrypt(algorithm: CipherAlgorithm, key: CryptoKey, data: BufferSource): Promise<ArrayBuffer>;
  decrypt(algorithm: CipherAlgorithm, key: CryptoKey, data: BufferSource): Promise<ArrayBuffer>;
  sign(algorithm: SignAlgorithm, key: CryptoKey, data: BufferSource): Promise<ArrayBuffer>;
  verify(algorithm: SignAlgorithm, key: CryptoKey, signature: BufferSource, data: BufferSource): Promise<boolean>;
  digest(algorithm: AlgorithmIdentifier | CShakeParams, data: BufferSource): Promise<ArrayBuffer>;
  generateKey(algorithm: RsaHashedKeyGenParams | EcKeyGenParams, extractable: boolean,
              keyUsages: Usages): Promise<CryptoKeyPair>;
  generateKey(algorithm: AesKeyGenParams | HmacKeyGenParams | KmacKeyGenParams, extractable: boolean,
              keyUsages: Usages): Promise<CryptoKey>;
  generateKey(algorithm: AlgorithmIdentifier, extractable: boolean,
              keyUsages: Usages): Promise<CryptoKeyPair | CryptoKey>;
  deriveKey(algorithm: DeriveAlgorithm, baseKey: CryptoKey,
            derivedKeyType: AlgorithmIdentifier | AesDerivedKeyParams | HmacImportParams | HkdfParams | Pbkdf2Params,
            extractable: boolean, keyUsages: Usages): Promise<CryptoKey>;
  deriveBits(algorithm: DeriveAlgorithm, baseKey: CryptoKey, length?: number | null): Promise<ArrayBuffer>;
  importKey(format: 'jwk', keyData: JsonWebKey, algorithm: ImportAlgorithm, extractable: boolean,
            keyUsages: Usages): Promise<CryptoKey>;
  importKey(format: Exclude<KeyFormat, 'jwk'>, keyData: BufferSource, algorithm: ImportAlgorithm,
            extractable: boolean, keyUsages: Usages): Promise<CryptoKey>;
  exportKey(format: 'jwk', key: CryptoKey): Promise<JsonWebKey>;
  exportKey(format: Exclude<KeyFormat, 'jwk'>, key: CryptoKey): Promise<ArrayBuffer>;
  exportKey(format: KeyFormat, key: CryptoKey): Promise<ArrayBuffer | JsonWebKey>;
  wrapKey(format: KeyFormat, key: CryptoKey, wrappingKey: CryptoKey,
          wrapAlgorithm: CipherAlgorithm): Promise<ArrayBuffer>;
  unwrapKey(format: KeyFormat, wrappedKey: BufferSource, unwrappingKey: CryptoKey,
            unwrapAlgorithm: CipherAlgorithm, unwrappedKeyAlgorithm: ImportAlgorithm,
            extractable: boolean, keyUsages: Usages): Promise<CryptoKey>;
  getPublicKey(key: CryptoKey, keyUsages: Usages): Promise<CryptoKey>;
  encapsulateBits(encapsulationAlgorithm: AlgorithmIdentifier, encapsulationKey: CryptoKey): Promise<EncapsulatedBits>;
  encapsulateKey(encapsulationAlgorithm: AlgorithmIdentifier, encapsulationKey: CryptoKey,
                 sharedKeyAlgorithm: ImportAlgorithm, extractable: boolean,
                 keyUsages: Usages): Promise<EncapsulatedKey>;
  decapsulateBits(decapsulationAlgorithm: AlgorithmIdentifier, decapsulationKey: CryptoKey,
                  ciphertext: BufferSource): Promise<ArrayBuffer>;
  decapsulateKey(decapsulationAlgorithm: AlgorithmIdentifier, decapsulationKey: CryptoKey,
                 ciphertext: BufferSource, sharedKeyAlgorithm: ImportAlgorithm, extractable: boolean,
                 keyUsages: Usages): Promise<CryptoKey>;
}

export interface Crypto {
  readonly subtle: SubtleCrypto;
  getRandomValues<T extends ArrayBufferView | null>(array: T): T;
  randomUUID(): `${string}-${string}-${string}-${string}-${string}`;
}

// The operations SubtleCrypto.supports() asks about.
export type SupportsOperation =
  | 'encrypt' | 'decrypt' | 'sign' | 'verify' | 'digest' | 'generateKey' | 'deriveKey' | 'deriveBits'
  | 'importKey' | 'exportKey' | 'wrapKey' | 'unwrapKey' | 'getPublicKey'
  | 'encapsulateKey' | 'encapsulateBits' | 'decapsulateKey' | 'decapsulateBits';

// The interface objects: not constructible by scripts (TypeError).
export declare const CryptoKey: { readonly prototype: CryptoKey };
export declare const SubtleCrypto: {
  readonly prototype: SubtleCrypto;
  supports(operation: SupportsOperation | string, algorithm: AlgorithmIdentifier,
           lengthOrAdditionalAlgorithm?: AlgorithmIdentifier | number | null): boolean;
};
export declare const Crypto: { readonly prototype: Crypto };
// A DOMException (Error's shape here: lib "dom" may be absent).
export interface QuotaExceededError extends Error {
  readonly code: number;
  readonly quota: number | null;
  readonly requested: number | null;
}
export declare const QuotaExceededError: {
  readonly prototype: QuotaExceededError;
  new (message?: string, options?: { quota?: number; requested?: number }): QuotaExceededError;
};

/** The default backend's (openssl, else the first that starts) WebCrypto. */
export declare const crypto: Crypto;

/** A backend's name: openssl, boringssl, jca, jca:BC, jca:SunJCE (see backends()). */
export type BackendName = 'openssl' | 'boringssl' | 'jca' | 'jca:BC' | 'jca:SunJCE' | (string & {});

export interface Binding {
  readonly crypto: Crypto;
  readonly CryptoKey: typeof CryptoKey;
  readonly SubtleCrypto: typeof SubtleCrypto;
  readonly Crypto: typeof Crypto;
  readonly QuotaExceededError: typeof QuotaExceededError;
  readonly withBackend: typeof withBackend;
  readonly backend: string;
}
/** The same API on another backend (an Error if it is not built or does not start). */
export declare function withBackend(name?: BackendName): Binding;

/** The library's algorithm table: each algorithm's name and operations. */
export declare function algorithms(): { name: string; operations: string[] }[];
/** The backends this build has. */
export declare function backends(): string[];
/** Whether a backend has an algorithm. */
export declare function supports(backend: BackendName | undefined, algorithm: string): boolean;
/** The C library's version (the package's). */
export declare const version: string;

/** How much work one request may cost (webcrypto_set_limits), process-wide. */
export interface Limits {
  maxPbkdf2Iterations: number;
  maxArgon2Memory: number;
  maxArgon2Passes: number;
  maxRsaGenerateBits: number;
  maxRsaImportBits: number;
  maxJwkBytes: number;
  maxJwkKeyOps: number;
}
export declare function getLimits(): Limits;
/** Sets the members given (0: the default), returns the limits in force. */
export declare function setLimits(limits: Partial<Limits>): Limits;
