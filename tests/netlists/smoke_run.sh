#!/usr/bin/env bash
# smoke_run.sh JOURDAIN NETLISTS OUTPUT: runs every netlist in NETLISTS with JOURDAIN over
# the first tenth of its solver.t_end, energy account on and report written, and fails on
# the first that does not end with exit status 0. The sanitizer build's stand-in for the
# full validation runs (tests/netlists/CMakeLists.txt).
set -euo pipefail
jourdain=$1 netlists=$2 output=$3
count=0
for netlist in "$netlists"/*.json; do
  name=$(basename "$netlist" .json)
  t_end=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["solver"]["t_end"])' "$netlist")
  tenth=$(/usr/bin/python3 -c 'import sys; print(float(sys.argv[1]) / 10)' "$t_end")
  if ! "$jourdain" -q run "$netlist" --energy --t-end "$tenth" -o "$output/$name"; then
    echo "$name: the run over [0, $tenth] s failed" >&2
    exit 1
  fi
  echo "$name: ran [0, $tenth] s"
  count=$((count + 1))
done
[ "$count" -gt 0 ] || { echo "no netlist in $netlists" >&2; exit 1; }
