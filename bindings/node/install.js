'use strict';
// The npm package's install step ("install" in package.json): builds the
// addon webcrypto.node, with the C library linked in, from the C sources the
// tarball carries (csrc/, staged by tools/pack-node.sh), with CMake, offline.
// Node's headers come from the running Node (<prefix>/include/node, as the
// official binaries have them) or Debian's libnode-dev (/usr/include/node);
// nothing is downloaded. The boringssl and jca backends are built when their
// libraries are there (android-libboringssl-dev; a JDK), and their modules
// are put in webcrypto/ beside the addon, where it looks for them
// (WEBCRYPTO_NODE_MODULES_BESIDE_ADDON in bindings/node/CMakeLists.txt).
//
// Environment: WEBCRYPTO_NODE_INCLUDE_DIR (the folder of node_api.h),
// CMAKE_BUILD_PARALLEL_LEVEL (build jobs; default: the CPU count),
// WEBCRYPTO_CMAKE_ARGS (more -D options, space-separated),
// WEBCRYPTO_KEEP_BUILD=1 (keep the build folder, printed).

const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const pkgDir = __dirname;
const DEBIAN_NEEDED = 'build-essential cmake pkg-config libssl-dev libjansson-dev';
const DEBIAN_OPTIONAL = 'android-libboringssl-dev (the boringssl backend), default-jdk-headless ' +
  '(the jca backend), libargon2-dev (Argon2)';

function fail(message) {
  process.stderr.write(`libwebcrypto: ${message}\n`);
  process.exit(1);
}
function missing(what) {
  fail(`${what}: the addon cannot be built.\n` +
       `  On Debian or Ubuntu: sudo apt-get install ${DEBIAN_NEEDED}\n` +
       `  Optional: ${DEBIAN_OPTIONAL}.\n` +
       '  Then run npm install again.');
}
function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { encoding: 'utf8', ...opts });
}
function have(cmd, args) {
  const r = run(cmd, args);
  return !r.error && r.status === 0 ? r.stdout : null;
}

// The C sources: the tarball's csrc/, or, in a checkout, the repository.
function sourceDir() {
  for (const d of [path.join(pkgDir, 'csrc'), path.join(pkgDir, '..', '..')]) {
    if (fs.existsSync(path.join(d, 'include', 'webcrypto.h')) && fs.existsSync(path.join(d, 'CMakeLists.txt'))) {
      return d;
    }
  }
  return fail(`no C sources in ${path.join(pkgDir, 'csrc')} (a tarball made by tools/pack-node.sh has them)`);
}

function nodeIncludeDir() {
  const dirs = [];
  if (process.env.WEBCRYPTO_NODE_INCLUDE_DIR) dirs.push(process.env.WEBCRYPTO_NODE_INCLUDE_DIR);
  const prefix = path.dirname(path.dirname(fs.realpathSync(process.execPath)));
  dirs.push(path.join(prefix, 'include', 'node'), '/usr/include/node', '/usr/local/include/node');
  for (const d of dirs) if (fs.existsSync(path.join(d, 'node_api.h'))) return d;
  return fail(`Node's headers (node_api.h) are in none of ${dirs.join(', ')}.\n` +
              '  On Debian or Ubuntu: sudo apt-get install libnode-dev, or set WEBCRYPTO_NODE_INCLUDE_DIR.');
}

function checkTools() {
  const v = have('cmake', ['--version']);
  if (v === null) missing('cmake is not installed');
  const m = /version (\d+)\.(\d+)/.exec(v);
  if (!m || Number(m[1]) < 3 || (Number(m[1]) === 3 && Number(m[2]) < 20)) {
    missing(`CMake 3.20 or later is needed (${(v.split('\n')[0] || '').trim()})`);
  }
  const cc = process.env.CC || 'cc';
  if (have(cc, ['--version']) === null) missing(`no C compiler (${cc})`);
  if (have('pkg-config', ['--version']) === null) missing('pkg-config is not installed');
  if (have('pkg-config', ['--exists', 'libcrypto >= 3.0']) === null) missing('OpenSSL 3 (libssl-dev) is not installed');
  if (have('pkg-config', ['--exists', 'jansson']) === null) missing('jansson (libjansson-dev) is not installed');
}

const CHECK = `
  const b = require(process.argv[1]);
  for (const n of b.backends()) if (!n.startsWith('jca')) b.withBackend(n);
  process.stdout.write(b.backends().join(', '));`;

function main() {
  const src = sourceDir();
  checkTools();
  const include = nodeIncludeDir();
  const build = fs.mkdtempSync(path.join(os.tmpdir(), 'libwebcrypto-build-'));
  const log = path.join(build, 'build.log');
  const step = (what, args) => {
    const r = run('cmake', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    fs.appendFileSync(log, `$ cmake ${args.join(' ')}\n${r.stdout || ''}${r.stderr || ''}`);
    if (r.error || r.status !== 0) {
      const tail = `${r.stdout || ''}${r.stderr || ''}`.split('\n').slice(-30).join('\n');
      fail(`${what} failed (the whole log: ${log}):\n${tail}`);
    }
    return r.stdout;
  };
  const extra = (process.env.WEBCRYPTO_CMAKE_ARGS || '').split(' ').filter((a) => a !== '');
  const conf = step('configuring with CMake', [
    '-S', src, '-B', build, '-DCMAKE_BUILD_TYPE=Release',
    '-DWEBCRYPTO_BUILD_TESTS=OFF', '-DWEBCRYPTO_BUILD_CLI=OFF', '-DWEBCRYPTO_BUILD_NODE=ON',
    // The package builds the backends it can; a missing one is reported by backends().
    '-DWEBCRYPTO_REQUIRE_BACKENDS=OFF', '-DWEBCRYPTO_NODE_MODULES_BESIDE_ADDON=ON',
    `-DWEBCRYPTO_NODE_INCLUDE_DIR=${include}`, ...extra,
  ]);
  if (!/Node\.js binding: Node-API headers/.test(conf)) fail(`CMake did not take Node's headers in ${include}`);
  const jobs = process.env.CMAKE_BUILD_PARALLEL_LEVEL ? [] :
    ['-j', String(os.availableParallelism ? os.availableParallelism() : os.cpus().length)];
  step('building', ['--build', build, '--target', 'webcrypto_node', ...jobs]);

  // The addon and its modules, replacing those of an earlier install.
  const out = path.join(build, 'bindings', 'node');
  const modDir = path.join(pkgDir, 'webcrypto');
  fs.rmSync(modDir, { recursive: true, force: true });
  fs.copyFileSync(path.join(out, 'webcrypto.node'), path.join(pkgDir, 'webcrypto.node'));
  if (fs.existsSync(path.join(out, 'webcrypto'))) {
    fs.mkdirSync(modDir);
    for (const f of fs.readdirSync(path.join(out, 'webcrypto'))) {
      fs.copyFileSync(path.join(out, 'webcrypto', f), path.join(modDir, f));
    }
  }
  if (process.env.WEBCRYPTO_KEEP_BUILD === '1') {
    process.stdout.write(`libwebcrypto: build folder kept: ${build}\n`);
  } else {
    fs.rmSync(build, { recursive: true, force: true });
  }

  // Loaded once, in a child (this process need not hold it), to say which
  // backends it has; each but jca's (which starts a JVM) is started, so that
  // a module the addon cannot find fails the install, not the first use.
  // (Without the variables that would make it load another addon or modules.)
  const env = { ...process.env };
  delete env.WEBCRYPTO_MODULE_DIR;
  delete env.WEBCRYPTO_NODE_ADDON;
  const r = run(process.execPath, ['-e', CHECK,
    pkgDir], { env });
  if (r.error || r.status !== 0) fail(`the addon was built but does not load:\n${r.stderr}`);
  process.stdout.write(`libwebcrypto: built webcrypto.node with the backends ${r.stdout}\n`);
}

main();
