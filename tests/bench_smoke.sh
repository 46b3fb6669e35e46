#!/usr/bin/env bash
# Smoke test of webcrypto-bench: a tiny run (two sizes, two iterations, tiny
# warm-up) on every available target, raw-openssl and raw-boringssl included,
# with --json, --csv, --svg and --markdown; then checks the outputs' structure, the usage
# errors, that SIGINT stops a run and still writes what was measured, and
# raw-boringssl on its own (below).
# Usage: bench_smoke.sh [--raw-boringssl-only] BENCH_EXE
#   (exit 77: skipped: no executable; with --raw-boringssl-only, also when
#   the build has no raw-boringssl baseline)
# BENCH_SMOKE_RAW_BORINGSSL=1|0 (set by tests/bench.cmake): whether the build
# has the raw-boringssl module; unset, --list tells.
set -u
ONLY_RAWB=0
if [ "${1:-}" = --raw-boringssl-only ]; then
    ONLY_RAWB=1
    shift
fi
BENCH=${1:-}
if [ -z "$BENCH" ] || [ ! -x "$BENCH" ]; then
    echo "bench_smoke: no executable ${BENCH:-(none given)}; skipping"
    exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   - $1"; }
ko() { fail=$((fail + 1)); echo "FAIL - $1"; }
check() { # check DESCRIPTION COMMAND...
    local d=$1
    shift
    if "$@"; then ok "$d"; else ko "$d"; fi
}

# ---- raw-boringssl: BoringSSL called directly, from its own module ----
# Built with the boringssl backend. When built, it must load, give the same
# output bytes as the boringssl backend on the same inputs (the bench compares
# every deterministic output across targets and exits 1 on a difference;
# the tiny run below compares it with every other target too), and be the
# boringssl backend's ovh/raw base. When not built, said so.
RAWB_SKIPPED=
raw_boringssl_checks() {
    local expect=${BENCH_SMOKE_RAW_BORINGSSL:-} line=
    [ -f "$T/list.txt" ] && line=$(grep '^  raw-boringssl ' "$T/list.txt")
    if [ -z "$expect" ]; then
        if [ -n "$line" ]; then expect=1; else expect=0; fi
    fi
    if [ "$expect" != 1 ]; then
        RAWB_SKIPPED="not in this build (its module is built with the boringssl backend, when android-libboringssl-dev is found)"
        echo "# SKIP raw-boringssl checks: $RAWB_SKIPPED"
        if [ -n "$line" ]; then ko "raw-boringssl listed by a build said to have none"; fi
        return
    fi
    if [ -f "$T/list.txt" ]; then
        check "raw-boringssl: listed and available (--list)" \
            bash -c "grep '^  raw-boringssl ' '$T/list.txt' | grep -qv '(unavailable'"
    fi
    # One digest and two AEAD operations, at two sizes.
    local ops="digest-sha-256 aes-gcm-256-decrypt aes-gcm-siv-256-encrypt"
    "$BENCH" --backend boringssl,raw-boringssl --op "$(echo $ops | tr ' ' ',')" --sizes 64,1k \
        --iterations 2 --warmup 1ms,1x --max-time 20 --json "$T/rb.json" --csv "$T/rb.csv" \
        >"$T/rb.txt" 2>"$T/rb.err"
    local rc=$?
    echo "# raw-boringssl: $(sed -n 's/^target:   raw-boringssl  *//p' "$T/rb.txt")"
    check "raw-boringssl: run exits 0 (rc $rc; 1 if an output differed)" test $rc -eq 0
    [ $rc -eq 0 ] || sed 's/^/#   /' "$T/rb.err" | tail -10
    check "raw-boringssl: no output differs from the boringssl backend's" \
        bash -c "! grep -q 'give different outputs' '$T/rb.err'"
    check "raw-boringssl: every cell measured" bash -c "for o in $ops; do for s in '64 B' '1 KiB'; do grep -q \"^\$o  *\$s raw-boringssl  \" '$T/rb.txt' || exit 1; done; done"
    check "raw-boringssl: all 12 outputs compared across targets" \
        grep -qs "^outputs: 12 deterministic cells compared" "$T/rb.txt"
    check "raw-boringssl: ovh/raw says boringssl over raw-boringssl" \
        grep -qs '^ovh/raw: .*: boringssl over raw-boringssl$' "$T/rb.txt"
    check "raw-boringssl: JSON overhead_base of boringssl is raw-boringssl" \
        grep -qs '"backend": "boringssl", "ok": true, .*"overhead_vs_raw": [0-9].*"overhead_base": "raw-boringssl"' "$T/rb.json"
    check "raw-boringssl: CSV overhead_base of boringssl is raw-boringssl" \
        grep -qs '^digest-sha-256,64,boringssl,1,.*,raw-boringssl,' "$T/rb.csv"
}
# --raw-boringssl-only (the bench_smoke_raw_boringssl test): no --list when
# CMake says whether the module is built, as --list starts the jca backend's
# JVM, and this test keeps LeakSanitizer on (the never-destroyed JVM's memory
# would be reported), so that the module is leak-checked.
if [ $ONLY_RAWB -eq 1 ]; then
    [ -n "${BENCH_SMOKE_RAW_BORINGSSL:-}" ] || "$BENCH" --list >"$T/list.txt" 2>/dev/null
    raw_boringssl_checks
    echo "$pass passed, $fail failed${RAWB_SKIPPED:+; raw-boringssl checks skipped: $RAWB_SKIPPED}"
    [ $fail -eq 0 ] || exit 1
    [ -z "$RAWB_SKIPPED" ] || exit 77
    exit 0
fi

# Which validators this machine has (said in the output).
if command -v node >/dev/null 2>&1; then JSONV=node
elif command -v python3 >/dev/null 2>&1; then JSONV=python3
else JSONV=grep; fi
if command -v xmllint >/dev/null 2>&1; then XMLV=xmllint
elif command -v python3 >/dev/null 2>&1; then XMLV=python3
elif command -v node >/dev/null 2>&1; then XMLV=node
else XMLV=grep; fi
# For testing the fallbacks: BENCH_SMOKE_JSONV=python3|grep, BENCH_SMOKE_XMLV=python3|node|grep
JSONV=${BENCH_SMOKE_JSONV:-$JSONV}
XMLV=${BENCH_SMOKE_XMLV:-$XMLV}
echo "# JSON checked with: $JSONV; SVG checked with: $XMLV"

# ---- what to expect: the ops and targets the executable lists ----
"$BENCH" --list >"$T/list.txt" 2>"$T/list.err"
rc=$?
check "--list exits 0 (rc $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/#   /' "$T/list.err" | tail -5
# (space-separated lists)
OPS=$(awk '/^operations:/{m=1;next} /^targets:/{m=0} m{printf "%s ", $1}' "$T/list.txt")
UNSIZED=$(awk '/^operations:/{m=1;next} /^targets:/{m=0} m && /one size/{printf "%s ", $1}' "$T/list.txt")
# targets that start here (a backend module may be absent: "(unavailable: ...)")
TARGETS=$(awk '/^targets:/{m=1;next} m && !/\(unavailable/{printf "%s ", $1}' "$T/list.txt")
check "--list names operations" test -n "$OPS"
if case " $TARGETS " in *" openssl "*) true ;; *) false ;; esac; then
    check "--list names raw-openssl among the targets" grep -q "^  raw-openssl " "$T/list.txt"
else
    echo "# SKIP raw-openssl target check: no openssl backend in this build"
fi
echo "# targets: $TARGETS"
# The jvm baseline (the jca backend's operations timed in Java): validated
# below when a JVM starts here; said when it does not.
HAVE_JVM=0
case " $TARGETS " in *" jvm "*) HAVE_JVM=1 ;; esac
if [ $HAVE_JVM -eq 1 ]; then
    echo "# jvm baseline available: validated"
elif grep -q "^  jvm " "$T/list.txt"; then
    echo "# SKIP jvm baseline checks: $(grep '^  jvm ' "$T/list.txt" | sed 's/^  jvm *//')"
else
    echo "# SKIP jvm baseline checks: not in this build (no jca backend or no javac)"
fi

# ---- the tiny run ----
# Every listed target, named explicitly (some, like raw-openssl-keyed, are
# measured only when named).
BACKENDS=$(echo $TARGETS | tr ' ' ',')
"$BENCH" --backend "$BACKENDS" --sizes 64,1k --iterations 2 --warmup 1ms,1x --max-time 20 --pbkdf2-iterations 10 \
    --json "$T/b.json" --csv "$T/b.csv" --svg "$T/b.svg" --markdown "$T/b.md" >"$T/out.txt" 2>"$T/err.txt"
rc=$?
check "tiny run exits 0 (rc $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/#   /' "$T/err.txt" | tail -20
check "table printed on stdout" grep -q '^operation .* median .* ops/s .* MB/s' "$T/out.txt"
check "machine facts printed (cpu, build)" grep -q '^cpu: ' "$T/out.txt"
check "crossover summary printed" grep -q '^crossovers' "$T/out.txt"
check "no FAILED cell in the table" bash -c "! grep -q FAILED '$T/out.txt'"
check "every target printed" bash -c "for t in $TARGETS; do grep -q \" \$t \" '$T/out.txt' || exit 1; done"
# Outputs: deterministic ones compared across targets, randomized ones
# (RSA-PSS, ECDSA, RSA-OAEP) checked by every target; none may fail.
check "output checks reported, none failed" grep -q '^outputs: .* 0 failed$' "$T/out.txt"
if [ $HAVE_JVM -eq 1 ]; then
    check "jvm: target described as timed in Java" grep -q '^target:   jvm .*timed in Java' "$T/out.txt"
    check "jvm: skipped operations printed" grep -q '^skipped:  jvm has no Java counterpart' "$T/out.txt"
    check "jvm: cells measured (digest, HMAC, AES-GCM)" bash -c "for o in digest-sha-256 hmac-sha-256-sign aes-gcm-256-encrypt aes-gcm-256-decrypt; do grep -q \"^\$o  *1 KiB jvm  \" '$T/out.txt' || exit 1; done"
    if case " $TARGETS " in *" jca "*) true ;; *) false ;; esac; then
        check "jvm: ovh/jvm column printed" grep -q '^operation .* ovh/raw  *ovh/jvm' "$T/out.txt"
        check "jvm: jca cells carry overhead_vs_jvm in the JSON" grep -q '"backend": "jca", "ok": true, .*"overhead_vs_jvm": [0-9]' "$T/b.json"
        check "jvm: CSV has overhead_vs_jvm" grep -q '^op,.*,output_fnv1a,overhead_vs_jvm,overhead_base,' "$T/b.csv"
    fi
fi
if grep -q '^  rsa-pss-2048-sha256-sign ' "$T/list.txt"; then
    check "asymmetric keys generated once and reported" grep -q '^keys: .*rsa-2048 (' "$T/out.txt"
fi
case " $TARGETS " in *" raw-boringssl "*)
    if grep -q '^  rsa-pss-2048-sha256-sign ' "$T/list.txt"; then
        check "raw-boringssl: the operations it lacks (asymmetric) printed as skipped" \
            grep -q '^skipped:  raw-boringssl has no raw implementation for .* rsa-pss-2048-sha256-sign' "$T/out.txt"
    fi ;;
esac

# ---- JSON: parses; every expected cell present with a positive median ----
# Expected: for each target, each op it reports in "ops", sizes 64 and 1024
# (size 0 for the one-size operations).
case $JSONV in
node)
    node -e '
const fs = require("fs");
const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const targets = process.argv[2].split(" ").filter(Boolean);
const unsized = new Set(process.argv[3].split(" ").filter(Boolean));
const names = j.backends.map(b => b.name);
let bad = 0;
for (const t of targets) if (!names.includes(t)) { console.log("# missing backend " + t); bad++; }
let cells = 0;
for (const b of j.backends) {
  if (!b.ops.length) { console.log("# " + b.name + " supports no op"); bad++; }
  for (const op of b.ops) for (const size of unsized.has(op) ? [0] : [64, 1024]) {
    const r = j.results.find(r => r.op === op && r.size === size && r.backend === b.name);
    if (!r || !r.ok || !(r.median_ns > 0) || !(r.min_ns > 0) || !(r.ops_per_s > 0)) {
      console.log("# bad or missing cell " + op + " " + size + " " + b.name); bad++;
    } else cells++;
  }
}
if (j.interrupted !== false) { console.log("# interrupted is not false"); bad++; }
console.log("# " + cells + " cells checked");
process.exit(bad ? 1 : 0);' "$T/b.json" "$TARGETS" "$UNSIZED"
    ;;
python3)
    python3 - "$T/b.json" "$TARGETS" "$UNSIZED" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
targets = sys.argv[2].split()
unsized = set(sys.argv[3].split())
names = [b["name"] for b in j["backends"]]
bad = sum(1 for t in targets if t not in names)
cells = 0
for b in j["backends"]:
    if not b["ops"]:
        bad += 1
    for op in b["ops"]:
        for size in ([0] if op in unsized else [64, 1024]):
            r = [r for r in j["results"] if r["op"] == op and r["size"] == size and r["backend"] == b["name"]]
            if not r or not r[0]["ok"] or not r[0]["median_ns"] > 0 or not r[0]["min_ns"] > 0:
                print("# bad or missing cell", op, size, b["name"]); bad += 1
            else:
                cells += 1
if j["interrupted"] is not False:
    bad += 1
print("# %d cells checked" % cells)
sys.exit(1 if bad else 0)
PY
    ;;
grep)
    # Structural check: the writer puts one result per line, fields in a
    # fixed order, so each expected cell is one line with a median > 0.
    bad=0
    for t in $TARGETS; do
        for op in $OPS; do
            case " $UNSIZED " in *" $op "*) sizes=0 ;; *) sizes="64 1024" ;; esac
            for s in $sizes; do
                grep -q "{\"op\": \"$op\", \"size\": $s, \"backend\": \"$t\", \"ok\": true, .*\"median_ns\": [0-9.]*[1-9]" "$T/b.json" || { echo "# missing $op $s $t"; bad=1; }
            done
        done
    done
    head -c 1 "$T/b.json" | grep -q '{' && tail -c 2 "$T/b.json" | grep -q '}' || bad=1
    [ $bad -eq 0 ]
    ;;
esac
check "JSON parses and has every expected cell with positive medians ($JSONV)" test $? -eq 0

# ---- CSV: a header and one row per JSON result ----
rows=$(($(wc -l <"$T/b.csv") - 1))
results=$(grep -c '^    {"op": "[^"]*", "size": ' "$T/b.json")
check "CSV has a header" grep -q '^op,size,backend,ok,samples,batch,min_ns,median_ns.*,overhead_base,.*,mt_others_cpu$' "$T/b.csv"
check "CSV has one row per result ($rows rows, $results results)" test "$rows" -gt 0 -a "$rows" -eq "$results"

# ---- Markdown: the command, the run's facts, one row per (operation, size) ----
check "Markdown: the command line first, in a sh block" \
    bash -c "[ \"\$(head -1 '$T/b.md')\" = '\`\`\`sh' ] && sed -n 2p '$T/b.md' | grep -q '^webcrypto-bench --backend .* --markdown '"
check "Markdown: date, machine and load (others' CPU use) given" \
    bash -c "grep -q '^- date: [0-9-]*T[0-9:]*Z; libwebcrypto ' '$T/b.md' && grep -q '^- machine: ' '$T/b.md' && grep -Eq '^- load: load average .* at the start, .* at the end; other processes (used [0-9]+% of one CPU|.* unknown)' '$T/b.md'"
check "Markdown: the output checks given, none failed" grep -q '^- outputs: .* 0 failed$' "$T/b.md"
check "Markdown: a column per target" \
    bash -c "h=\$(grep '^| operation | size |' '$T/b.md' | head -1); for t in $TARGETS; do case \"\$h\" in *\" \$t |\"*) ;; *) exit 1 ;; esac; done"
if case " $TARGETS " in *" openssl "*) true ;; *) false ;; esac; then
    check "Markdown: the ovh/raw ratio column (openssl / raw-openssl)" \
        grep -q '^| operation | size |.* openssl / raw-openssl |' "$T/b.md"
fi
# One row per (operation, size) the CSV has a cell for.
mdrows=$(grep -c '^| [a-z0-9-]* | \(-\|[0-9]* [KM]\?i\?B\) |' "$T/b.md")
cells=$(tail -n +2 "$T/b.csv" | cut -d, -f1,2 | sort -u | wc -l)
check "Markdown: one row per measured operation and size ($mdrows rows, $cells in the CSV)" \
    test "$mdrows" -gt 0 -a "$mdrows" -eq "$cells"
check "Markdown: medians with units, no FAILED cell" \
    bash -c "grep -q '^| digest-sha-256 | 1 KiB | [0-9.]* \(ns\|µs\) |' '$T/b.md' && ! grep -q FAILED '$T/b.md'"

# ---- SVG: well-formed XML, <svg> root, polylines ----
case $XMLV in
xmllint) xmllint --noout "$T/b.svg" ;;
python3) python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); sys.exit(d.documentElement.tagName != "svg")' "$T/b.svg" ;;
node)
    node -e '
const s = require("fs").readFileSync(process.argv[1], "utf8");
const stack = []; const re = /<(\/?)([A-Za-z][\w:-]*)[^>]*?(\/?)>/g; let m;
const body = s.replace(/<\?[^>]*\?>/g, "");
while ((m = re.exec(body))) { if (m[3]) continue; if (!m[1]) stack.push(m[2]); else if (stack.pop() !== m[2]) process.exit(1); }
process.exit(stack.length ? 1 : 0);' "$T/b.svg" ;;
*) grep -q '</svg>' "$T/b.svg" ;;
esac
check "SVG is well-formed XML ($XMLV)" test $? -eq 0
check "SVG root element is <svg>" bash -c "grep -v '^<?xml' '$T/b.svg' | head -1 | grep -q '^<svg '"
npoly=$(grep -c '<polyline' "$T/b.svg")
check "SVG has polylines ($npoly)" test "$npoly" -gt 0
if [ -n "$UNSIZED" ]; then
    check "SVG has the one-size operations' bars" grep -q '<rect x="[0-9]*" y="[0-9.]*" width="[0-9.]*" height="[0-9]*" fill=' "$T/b.svg"
fi

# ---- usage errors ----
"$BENCH" --no-such-option >/dev/null 2>&1
check "unknown option exits 2" test $? -eq 2
"$BENCH" --op no-such-op >/dev/null 2>&1
check "--op matching nothing exits 2" test $? -eq 2
"$BENCH" --sizes 12q >/dev/null 2>&1
check "bad --sizes exits 2" test $? -eq 2
"$BENCH" --backend no-such-backend >/dev/null 2>&1
check "unknown --backend exits 2" test $? -eq 2

# ---- SIGINT: stops, prints and writes what was measured, exits 130 ----
# The signal is sent once the bench's progress shows the second cell
# started (so one cell is complete), not after a fixed delay that a loaded
# machine can outrun.
set -m # a background job of its own, so that it does not ignore SIGINT
"$BENCH" --op digest --sizes 16,1k,64k --warmup 300ms --json "$T/int.json" \
    >"$T/int.txt" 2>"$T/int.err" &
pid=$!
set +m
for _ in $(seq 600); do
  grep -q '^\[2/' "$T/int.err" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
check "SIGINT: a cell completed before the signal" grep -q '^\[2/' "$T/int.err"
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
check "SIGINT exits 130 (rc $rc)" test $rc -eq 130
check "SIGINT: partial table printed" grep -q '^digest-sha-1 ' "$T/int.txt"
check "SIGINT: JSON written and marked interrupted" grep -q '"interrupted": true' "$T/int.json"

raw_boringssl_checks

# ---- --threads: one thread against N in alternating slices ----
# Two tiny cells; the figures are noise here, the structure is checked: the
# load at start and end, the scaling table with the spread, raw-boringssl
# beside ours when the build has it, JSON and CSV fields.
# openssl and its raw baseline where built; else the first backend listed
# (the jca-only build).
if case " $TARGETS " in *" openssl "*) true ;; *) false ;; esac; then
    MT_TARGETS=openssl,raw-openssl MT_COLS=2
else
    MT_TARGETS=$(printf '%s\n' $TARGETS | grep -Ev '^(raw-|jvm)' | head -n 1) MT_COLS=1
fi
# (--op as a glob, so that the Markdown's command line shows its quoting)
"$BENCH" --backend "$MT_TARGETS" --op 'digest-sha-256*' --sizes 64,1k --iterations 2 \
    --warmup 1ms,1x --max-time 40 --threads 2 --thread-rounds 4 --json "$T/mt.json" \
    --csv "$T/mt.csv" --markdown "$T/mt.md" >"$T/mt.txt" 2>"$T/mt.err"
rc=$?
check "threads: run exits 0 (rc $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/#   /' "$T/mt.err" | tail -10
check "threads: load at start and end on stderr" \
    bash -c "grep -q '^load average .* at start' '$T/mt.err' && grep -q '^load average .* at end' '$T/mt.err'"
check "threads: header has the load at start and end, and others' CPU use" \
    grep -Eq '^load: .* at start, .* at end; other processes (used [0-9]+% of one CPU|.* unknown)' "$T/mt.txt"
check "threads: method described (rounds, slices, median of ratios)" \
    grep -q '^threads:  2 threads .*up to 4 rounds.*median of the per-round ratios' "$T/mt.txt"
check "threads: scaling table, every cell with its IQR" \
    bash -c "grep -q '^scaling, 2 threads against 1' '$T/mt.txt' && [ \$(grep -Ec '^digest-sha-256 +(64 B|1 KiB)( +[0-9.]+x \\[[0-9.]+-[0-9.]+\\]){$MT_COLS}' '$T/mt.txt') -eq 2 ]"
check "threads: JSON has the scaling's spread and rounds" \
    grep -Eq '"threads": \{"n": 2, "rounds": [34], "slice_ms": [0-9.e+-]+, "ops_per_s": [0-9].*"scaling_p25": [0-9].*"scaling_max": [0-9]' "$T/mt.json"
check "threads: CSV has the spread columns" \
    grep -q '^op,.*,overhead_base,mt_one_ops_per_s,mt_scaling_p25,mt_scaling_p75,mt_scaling_min,mt_scaling_max,mt_rounds,mt_others_cpu$' "$T/mt.csv"
check "threads: Markdown command line quotes the glob" grep -q "^webcrypto-bench .* --op 'digest-sha-256\*' " "$T/mt.md"
check "threads: Markdown scaling table, both sizes with their IQR" \
    bash -c "grep -q '^Scaling, 2 threads against 1' '$T/mt.md' && [ \$(grep -Ec '^\| digest-sha-256 \| (64 B|1 KiB) \|( [0-9.]+x \[[0-9.]+-[0-9.]+\](, [0-9]+%)? \|)+' '$T/mt.md') -eq 2 ]"
if [ "${BENCH_SMOKE_RAW_BORINGSSL:-}" = 1 ] && [ "$MT_COLS" = 2 ]; then
    check "threads: raw-boringssl added beside ours in the scaling table" \
        grep -q '^operation .* openssl  *raw-openssl  *raw-boringssl$' "$T/mt.txt"
fi
"$BENCH" --threads 2 --thread-rounds 2 >/dev/null 2>&1
check "--thread-rounds below 3 exits 2" test $? -eq 2

# ---- the chart's crossovers: a table under each row, backends only by default ----
if [ -n "$(echo " $OPS " | tr ' ' '\n' | grep -vxF -f <(echo $UNSIZED | tr ' ' '\n') | grep .)" ]; then
    check "SVG: crossover table under the rows (backends only by default)" \
        grep -q 'class="note">Crossovers between backends (numbered verticals above' "$T/b.svg"
fi
"$BENCH" --svg-crossovers some >/dev/null 2>&1
check "bad --svg-crossovers exits 2" test $? -eq 2

# ---- --interleave: the targets of a cell sampled side by side ----
# Every cell measured, once, in the targets' order, outputs compared as
# without it (a difference exits 1).
if case " $TARGETS " in *" openssl "*) true ;; *) false ;; esac; then
    IL_TARGETS=openssl,raw-openssl
    "$BENCH" --interleave --backend $IL_TARGETS --op digest-sha-256,aes-ctr-256-encrypt \
        --sizes 64,1k --iterations 3 --warmup 1ms,1x --max-time 20 --json "$T/il.json" \
        >"$T/il.txt" 2>"$T/il.err"
    rc=$?
    check "--interleave: run exits 0 (rc $rc)" test $rc -eq 0
    [ $rc -eq 0 ] || sed 's/^/#   /' "$T/il.err" | tail -5
    check "--interleave: each cell once, in the targets' order" \
        bash -c "[ \"\$(grep -E '^(digest-sha-256|aes-ctr-256-encrypt) +(64 B|1 KiB) +(openssl|raw-openssl) ' '$T/il.txt' | awk '{print \$1, \$4}' | tr '\n' ' ')\" = 'digest-sha-256 openssl digest-sha-256 raw-openssl digest-sha-256 openssl digest-sha-256 raw-openssl aes-ctr-256-encrypt openssl aes-ctr-256-encrypt raw-openssl aes-ctr-256-encrypt openssl aes-ctr-256-encrypt raw-openssl ' ]"
    check "--interleave: said in the header and the JSON's config" \
        bash -c "grep -q '^interleave: ' '$T/il.txt' && grep -q '\"interleave\": true' '$T/il.json'"
    check "--interleave: outputs compared across targets" \
        grep -qs "^outputs: 8 deterministic cells compared" "$T/il.txt"
    "$BENCH" --interleave=yes >/dev/null 2>&1
    check "--interleave takes no value (exits 2)" test $? -eq 2
else
    echo "# SKIP --interleave checks: no openssl backend in this build"
fi

echo "$pass passed, $fail failed${RAWB_SKIPPED:+; raw-boringssl checks skipped: $RAWB_SKIPPED}"
[ $fail -eq 0 ]
