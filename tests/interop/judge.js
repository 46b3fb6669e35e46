'use strict';
/*
 * judge.js - the interop test's verdict (run by interop_test.sh).
 *
 *   node judge.js NODE-VERSION LOG
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

const [version, logFile] = process.argv.slice(2);
if (!version || !logFile) {
  console.error('usage: node judge.js NODE-VERSION LOG');
  process.exit(2);
}
const applies = (d) => d.nodes.some((v) => version === v || version.startsWith(`${v}.`));
const defects = require(path.join(__dirname, 'known_node_defects.js')).filter(applies);

let passed = 0, failed = 0, known = 0, skipped = 0;
const seen = new Set();
for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
  if (line.startsWith('ok   - ')) {
    const check = line.slice(7);
    const d = defects.find((x) => x.symptoms.some((s) => s.check.test(check)));
    if (d) {
      failed++;
      console.log(`FAIL - listed known Node ${version} defect [${d.id}] did not reproduce: ${check}`);
      console.log('       (this Node no longer has it here: narrow or remove its entry in tests/interop/known_node_defects.js)');
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
      console.log(`known Node ${version} defect: ${d.what} [${d.id}]: ${check}`);
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
  if (!seen.has(d.id)) console.log(`# listed known Node ${version} defect [${d.id}] was not seen in this run (its checks did not run here)`);
if (skipped) console.log(`# ${skipped} skipped (algorithms this Node or backend lacks)`);
console.log(`${passed} passed, ${failed} failed, ${known} known Node ${version} defects, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
