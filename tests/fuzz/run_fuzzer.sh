#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer, ASan, UBSan) in the clang tree of the CMake preset
# "sanitize" (build-sanitize, which CI's sanitizer stage has built already) and runs each
# on a fresh corpus seeded from its seed folders, sharing SECONDS (default 90) among them:
# half to the netlist target (its inputs run whole simulations), a quarter to each FMU
# target. Naming targets runs those only, sharing SECONDS equally.
#   tests/fuzz/run_fuzzer.sh [SECONDS [TARGET...]]     TARGET: netlist, fmu_archive, fmu_description
# Crash artifacts go to build-sanitize/artifacts/ (<target>-crash-*), each target's output to
# build-sanitize/artifacts/<target>.log. Exits non-zero if any target found a crash; the
# last lines say, for each target, how long it ran and what it found.
# Extra libFuzzer flags can be given in FUZZ_FLAGS (e.g. FUZZ_FLAGS="-jobs=2 -workers=2").
set -euo pipefail

seconds="${1:-90}"
case "$seconds" in '' | *[!0-9]*) echo "usage: $0 [SECONDS [TARGET...]]" >&2; exit 2 ;; esac
shift $(($# > 0 ? 1 : 0))

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build-sanitize"

# name, share of SECONDS, -max_len, dictionary, seed folders (beside $here unless absolute).
# Netlists up to 1 MiB: the nesting limits are only reached by large ones. Archives and
# descriptions up to 64 KiB: enough for every structure, and an archive of that size
# inflates to 64 MiB at the most, so that one input stays cheap.
declare -A share=([netlist]=2 [fmu_archive]=1 [fmu_description]=1)
declare -A max_len=([netlist]=1048576 [fmu_archive]=65536 [fmu_description]=65536)
declare -A seeds=([netlist]="corpus regressions $root/netlists"
                  [fmu_archive]="fmu_archive/corpus fmu_archive/regressions"
                  [fmu_description]="fmu_description/corpus fmu_description/regressions")
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(netlist fmu_archive fmu_description)
else
  for t in "${targets[@]}"; do
    if [ -z "${share[$t]:-}" ]; then echo "$0: no fuzz target '$t' (netlist, fmu_archive, fmu_description)" >&2; exit 2; fi
    share[$t]=1
  done
fi
total_shares=0
for t in "${targets[@]}"; do total_shares=$((total_shares + share[$t])); done

# clang and its sanitizer/libFuzzer runtime, from Debian, if missing.
bash "$root/.ci/install-deps" sanitizers
(cd "$root" && cmake --preset sanitize >/dev/null &&
  cmake --build --preset sanitize --target "${targets[@]/#/fuzz_}")

work="$(mktemp -d "${TMPDIR:-/tmp}/jourdain-fuzz-corpus.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/artifacts"

# UBSan reports are crashes too; ASan's leak check runs at exit.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

status=0
summary=()
for t in "${targets[@]}"; do
  budget=$((seconds * share[$t] / total_shares))
  [ "$budget" -ge 1 ] || budget=1
  corpus="$work/$t"
  mkdir -p "$corpus"
  # The test FMU's description seeds the description target (it is not copied into the tree).
  [ "$t" != fmu_description ] || cp "$root/tests/components/fmi/gain_counter.xml" "$corpus/"
  dirs=()
  for d in ${seeds[$t]}; do case "$d" in /*) dirs+=("$d") ;; *) dirs+=("$here/$d") ;; esac; done
  dict=()
  [ ! -f "$here/$t.dict" ] || dict=(-dict="$here/$t.dict")
  log="$build/artifacts/$t.log"
  echo "== fuzz_$t: $budget s (output in $log)"
  rc=0
  # shellcheck disable=SC2086
  "$build/tests/fuzz/fuzz_$t" \
    -max_total_time="$budget" -max_len="${max_len[$t]}" -rss_limit_mb=2048 -timeout=10 \
    "${dict[@]}" -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 \
    ${FUZZ_FLAGS:-} \
    "$corpus" "${dirs[@]}" >"$log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  if [ "$rc" -ne 0 ]; then
    status=$rc
    tail -n 40 "$log" >&2
    summary+=("fuzz_$t: FOUND A CRASH (exit $rc) within $budget s; artifact: $(grep -o "$build/artifacts/$t-[a-z]*-[0-9a-f]*" "$log" | tail -n 1)")
  else
    summary+=("fuzz_$t: no crash in $budget s (${runs:-?} inputs run, ${cov:-?} edges covered, $(ls "$corpus" | wc -l) inputs kept in its corpus)")
  fi
done
printf '%s\n' "${summary[@]}"
exit "$status"
