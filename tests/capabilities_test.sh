#!/usr/bin/env bash
# The capabilities a backend must have, pinned: `webcrypto --backend NAME
# backends` must list exactly the algorithms of the one row of
# tests/capabilities.txt for NAME whose pattern matches the backend's
# description (its library and version).
#   capabilities_test.sh WEBCRYPTO_CLI TABLE BACKEND
set -u
cli=$1 table=$2 backend=$3

out=$("$cli" --backend "$backend" backends 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL: webcrypto --backend $backend backends exited $rc: $out"
  exit 1
fi
# "<name>[ (default)]: available - <description>", then "  algorithms: ...".
first=$(printf '%s\n' "$out" | head -n 1)
case "$first" in
  "$backend: available - "* | "$backend (default): available - "*) ;;
  *) echo "FAIL: backend $backend is not available here: $first"; exit 1 ;;
esac
desc=${first#*: available - }
have=$(printf '%s\n' "$out" | sed -n 's/^  algorithms: //p' | head -n 1)
echo "backend:     $backend"
echo "description: $desc"
echo "lists:       $have"
# A jca test registered for one JDK must run on it (tests/jca.cmake).
if [ -n "${WEBCRYPTO_TEST_JAVA_VERSION:-}" ]; then
  case "$desc" in
    *"Java $WEBCRYPTO_TEST_JAVA_VERSION ("*) ;;
    *) echo "FAIL: WRONG JVM: registered for Java $WEBCRYPTO_TEST_JAVA_VERSION, runs on: $desc"; exit 1 ;;
  esac
fi

rows=0 want="" pattern=""
while IFS=$'\t' read -r name pat algs; do
  case "$name" in '' | '#'*) continue ;; esac
  [ "$name" = "$backend" ] || continue
  if printf '%s\n' "$desc" | grep -Eq -- "$pat"; then
    rows=$((rows + 1)) want=$algs pattern=$pat
  fi
done <"$table"
if [ $rows -ne 1 ]; then
  echo "FAIL: $rows rows of $table match $backend on \"$desc\" (need exactly one:" \
       "pin this library version's capabilities there)"
  exit 1
fi
echo "pinned:      $want (row /$pattern/)"
if [ "$have" != "$want" ]; then
  for a in $want; do
    case " $have " in *" $a "*) ;; *) echo "lost:   $a" ;; esac
  done
  for a in $have; do
    case " $want " in *" $a "*) ;; *) echo "gained: $a (add it to the table)" ;; esac
  done
  echo "FAIL: $backend does not offer exactly its pinned algorithms"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "1 passed, 0 failed"
