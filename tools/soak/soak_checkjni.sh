#!/usr/bin/env bash
# Runs webcrypto-soak (a jca backend) with the JVM's JNI checks on
# (-Xcheck:jni, added to WEBCRYPTO_JCA_OPTIONS) and fails if the JVM printed
# any JNI warning or error, even when every result was right.
#   soak_checkjni.sh PATH/TO/webcrypto-soak --backend jca --seconds 60
set -u
soak=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
WEBCRYPTO_JCA_OPTIONS="${WEBCRYPTO_JCA_OPTIONS:+$WEBCRYPTO_JCA_OPTIONS }-Xcheck:jni" \
  "$soak" "$@" >"$log" 2>&1
rc=$?
cat "$log"
[ "$rc" -eq 77 ] && exit 77
# HotSpot's -Xcheck:jni messages: "WARNING in native method: ...",
# "WARNING: JNI local refs: N, exceeds capacity: M", "FATAL ERROR in native
# method: ..." (the soak itself never prints "WARNING").
if grep -nE 'WARNING|FATAL ERROR in native method' "$log"; then
  echo "soak_checkjni: the JVM reported JNI misuse (lines above)"
  exit 1
fi
[ "$rc" -eq 0 ] || { echo "soak_checkjni: webcrypto-soak exited $rc"; exit "$rc"; }
echo "soak_checkjni: no JNI warning under -Xcheck:jni"
