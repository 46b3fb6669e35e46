'use strict';
// The package through require (tests/npm_package_test.sh; checks in checks.cjs).
const binding = require('libwebcrypto');
require('./checks.cjs')(binding, 'require').catch((e) => { console.error(e); process.exit(1); });
