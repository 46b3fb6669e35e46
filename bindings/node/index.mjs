// The package's ES module entry: the CommonJS one (index.js) re-exported, so
// that `import` and `require` share one addon, one set of backends and one
// CryptoKey class (two copies would not know each other's keys).
import binding from './index.js';

export const {
  crypto, CryptoKey, SubtleCrypto, Crypto, QuotaExceededError, withBackend,
  algorithms, backends, supports, version, getLimits, setLimits,
} = binding;
export default binding;
