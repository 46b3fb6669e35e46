// The package through import (tests/npm_package_test.sh; checks in checks.cjs):
// named and default imports, the same objects as require's.
import assert from 'node:assert';
import { createRequire } from 'node:module';
import * as ns from 'libwebcrypto';
import binding, { crypto, withBackend, CryptoKey } from 'libwebcrypto';
import check from './checks.cjs';

const required = createRequire(import.meta.url)('libwebcrypto');
assert.strictEqual(crypto, required.crypto, 'import and require share one binding');
assert.strictEqual(binding, required, 'the default import is the CommonJS exports');
assert.strictEqual(CryptoKey, required.CryptoKey);
assert.strictEqual(withBackend, required.withBackend);
await check(ns, 'import').catch((e) => { console.error(e); process.exit(1); });
