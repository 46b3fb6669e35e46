#!/usr/bin/env bash
# jca's AES-256-GCM encryption against the same JCA calls timed in the JVM
# (issue #14, item 4), run so that the figures can be trusted: RUNS separate
# processes of webcrypto-jca-bench (default 5, at least 3), each with its own
# JVM, then per size the median over the runs of each side's median, the
# spread over the runs (min..max, and max-min as a share of the median:
# within 10% counts as stable), the ratio jca/jvm, and the issue's targets on
# the medians. Builds nothing. Load average and other processes' CPU use are
# printed before and after: the machine must be otherwise idle for figures
# to compare with other machines'.
#
#   tools/jca-bench/gcm-stability.sh [BENCH] [-- extra webcrypto-jca-bench options]
#
# BENCH: the webcrypto-jca-bench binary (default: the first of
# build/release, build/dev under the repository). Environment: RUNS (5),
# NICE (nice level of the runs: -10 as root, else 0), JAVA_HOME (the JDK),
# WEBCRYPTO_JCA_OPTIONS (JVM options). 13-17 s per run on a 2-CPU VM (about
# 1.5 min for five).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bench=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then bench="$1"; shift; fi
if [ $# -gt 0 ] && [ "$1" = "--" ]; then shift; fi
if [ -z "$bench" ]; then
  for d in build/release build/dev; do
    if [ -x "$root/$d/tools/jca-bench/webcrypto-jca-bench" ]; then
      bench="$root/$d/tools/jca-bench/webcrypto-jca-bench"
      break
    fi
  done
fi
if [ -z "$bench" ] || [ ! -x "$bench" ]; then
  echo "gcm-stability: no webcrypto-jca-bench (build it, or name it)" >&2
  exit 1
fi
runs="${RUNS:-5}"
if [ "$runs" -lt 3 ]; then echo "gcm-stability: RUNS must be at least 3" >&2; exit 1; fi
if [ -z "${NICE:-}" ]; then
  if [ "$(id -u)" = 0 ]; then NICE=-10; else NICE=0; fi
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

cpu_busy() { # jiffies of all CPUs not idle: user nice system irq softirq steal
  awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat
}
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')  host: $(uname -n)  CPUs: $(nproc)"
echo "bench: $bench  runs: $runs  nice: $NICE  options: --ops gcm $*"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s.%N)
busy0=$(cpu_busy)
self=0
for i in $(seq 1 "$runs"); do
  /usr/bin/env time -f "%U %S" -o "$out/time.$i" \
    nice -n "$NICE" "$bench" --ops gcm --json "$@" >"$out/run.$i.json" 2>"$out/run.$i.err" || {
    echo "run $i failed:" >&2
    cat "$out/run.$i.err" >&2
    exit 1
  }
  self=$(awk -v s="$self" '{print s + $1 + $2}' "$out/time.$i")
  echo "run $i done ($(cut -d' ' -f1-3 /proc/loadavg))"
done
t1=$(date +%s.%N)
busy1=$(cpu_busy)
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
hz=$(getconf CLK_TCK)
awk -v b0="$busy0" -v b1="$busy1" -v hz="$hz" -v self="$self" -v t0="$t0" -v t1="$t1" 'BEGIN {
  other = (b1 - b0) / hz - self; if (other < 0) other = 0
  printf "other processes used %.0f%% of one CPU on average during the runs (%.1f s of CPU in %.1f s)\n",
         100 * other / (t1 - t0), other, t1 - t0 }'
echo
python3 - "$out" "$runs" <<'EOF'
import json, statistics, sys
d, runs = sys.argv[1], int(sys.argv[2])
docs = [json.load(open(f"{d}/run.{i}.json")) for i in range(1, runs + 1)]
print(f"{docs[0]['java_version']}, {docs[0]['backend_description']}")
print(f"each run: medians of {docs[0]['rounds']} alternating rounds, {docs[0]['clock']} clock, "
      f"heap {docs[0].get('heap', '?')}; below: medians over the {runs} runs [min..max]")
print()
hdr = ("size", "jvm us", "[min..max]", "spread", "jca us", "[min..max]", "spread",
       "jca/jvm", "[min..max]", "round ratio")
print("%8s %9s %19s %7s %9s %19s %7s %8s %15s %12s" % hdr)
verdicts = []
stable = True
for ci, cell in enumerate(docs[0]["cells"]):
    size = cell["size"]
    jvm = [doc["cells"][ci]["methods"]["jvm"]["median_us"] for doc in docs]
    jca = [doc["cells"][ci]["methods"]["jca"]["median_us"] for doc in docs]
    rat = [doc["cells"][ci]["ratio"] for doc in docs]
    rr = [doc["cells"][ci].get("round_ratio", {}).get("median", float("nan")) for doc in docs]
    mj, mk = statistics.median(jvm), statistics.median(jca)
    sj, sk = (max(jvm) - min(jvm)) / mj, (max(jca) - min(jca)) / mk
    stable = stable and sj <= 0.10 and sk <= 0.10
    print("%8d %9.3f %19s %6.1f%% %9.3f %19s %6.1f%% %8.3f %15s %12.3f" % (
        size, mj, "[%.3f..%.3f]" % (min(jvm), max(jvm)), 100 * sj,
        mk, "[%.3f..%.3f]" % (min(jca), max(jca)), 100 * sk,
        mk / mj, "[%.3f..%.3f]" % (min(rat), max(rat)), statistics.median(rr)))
    if size <= 1024:
        met = mk - mj <= 1.0
        verdicts.append(f"{size:>8} B: overhead {mk - mj:.3f} us per call "
                        f"{'<=' if met else '>'} 1 us: {'met' if met else 'MISSED'}")
    elif size >= 65536:
        share = mj / mk
        met = share >= 0.9
        v = (f"{size:>8} B: {100 * share:.1f}% of the in-JVM throughput "
             f"{'>=' if met else '<'} 90% (jca/jvm {mk / mj:.3f} {'<=' if met else '>'} 1.111)")
        if size >= 1048576:
            t = mk <= 1.25 * mj
            v += f"; time {mk / mj:.3f}x {'<=' if t else '>'} 1.25x"
            met = met and t
        verdicts.append(v + (": met" if met else ": MISSED"))
    gcs = [doc["cells"][ci].get("gcs_in_rounds", -1) for doc in docs]
    jit = [doc["cells"][ci].get("jit_ms_in_rounds", -1) for doc in docs]
    quiet = [doc["cells"][ci].get("jit_quiet", None) for doc in docs]
    verdicts.append(f"{'':>10}  (JIT ms during the rounds per run: {jit}; collections: {gcs}; "
                    f"JIT quiet at the end of warm-up: {quiet})")
print()
print("run to run: " + ("every jvm and jca cell within 10% (max-min over the median)" if stable
                        else "NOT every cell within 10% (see the spread columns)"))
print("targets (issue #14), on the medians over the runs:")
for v in verdicts:
    print("  " + v)
EOF
