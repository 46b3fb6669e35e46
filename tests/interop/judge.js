'use strict';
/*
 * judge.js - the interop test's verdict (run by interop_test.sh).
 *
 *   node judge.js NODE-VERSION [--binding BACKEND] LOG
 *
 * With --binding the JS side was the library's Node binding on BACKEND (run
 * by that Node), not Node's crypto.subtle: the defects that apply are those
 * known_binding_defects.js lists for BACKEND (and that Node), printed as
 * "known binding defect (BACKEND): ...".
 *
 * LOG holds the check lines of every phase ("ok   - ", "FAIL - ", "skip - ",
 * "# "). Prints them again, with each failure that a defect listed for
 * NODE-VERSION (e.g. 18.20.8) in known_node_defects.js explains as
 *   known Node 18.20.8 defect: <what> [<id>]: <the check>
 * and, as a failure, each passing check that a listed defect should have
 * made fail. Last line: "N passed, N failed, N known Node defects, N skipped".
 * Exit status 1 if anything failed.
 */
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
const version = args.shift();
let backend = null;
if (args[0] === '--binding') { backend = args[1]; args.splice(0, 2); }
const logFile = args[0];
if (!version || !logFile || backend === undefined) {
  console.error('usage: node judge.js NODE-VERSION [--binding BACKEND] LOG');
  process.exit(2);
}
const onNode = (d) => !d.nodes || d.nodes.some((v) => version === v || version.startsWith(`${v}.`));
const applies = backend === null ? onNode
  : (d) => onNode(d) && (d.backends === 'all' || d.backends.includes(backend));
const defects = require(path.join(__dirname, backend === null ? 'known_node_defects.js' : 'known_binding_defects.js'))
  .filter(applies);
/* How a defect is named: whose it is. */
const WHO = backend === null ? `Node ${version}` : `binding (${backend})`;
const LIST = backend === null ? 'known_node_defects.js' : 'known_binding_defects.js';

let passed = 0, failed = 0, known = 0, skipped = 0;
const seen = new Set();
for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
  if (line.startsWith('ok   - ')) {
    const check = line.slice(7);
    const d = defects.find((x) => x.symptoms.some((s) => s.check.test(check)));
    if (d) {
      failed++;
      console.log(`FAIL - listed known ${WHO} defect [${d.id}] did not reproduce: ${check}`);
      console.log(`       (it no longer shows here: narrow or remove its entry in tests/interop/${LIST})`);
    } else {
      passed++;
      console.log(line);
    }
  } else if (line.startsWith('FAIL - ')) {
    const check = line.slice(7);
    const d = defects.find((x) => x.symptoms.some((s) => s.check.test(check) && s.fail.test(check)));
    if (d) {
      known++;
      seen.add(d.id);
      console.log(`known ${WHO} defect: ${d.what} [${d.id}]: ${check}`);
    } else {
      failed++;
      console.log(line);
    }
  } else if (line.startsWith('skip - ')) {
    skipped++;
    console.log(line);
  } else if (line.startsWith('# ')) {
    console.log(line);
  }
}
for (const d of defects)
  if (!seen.has(d.id)) console.log(`# listed known ${WHO} defect [${d.id}] was not seen in this run (its checks did not run here)`);
if (skipped) console.log(`# ${skipped} skipped (algorithms ${backend === null ? 'this Node' : 'the binding'} or the backend lacks)`);
console.log(`${passed} passed, ${failed} failed, ${known} known ${WHO} defects, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
