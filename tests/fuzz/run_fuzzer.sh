#!/usr/bin/env bash
# Builds the netlist fuzzer (libFuzzer, ASan, UBSan) in the clang tree of the CMake preset
# "sanitize" (build-sanitize, which CI's sanitizer stage has built already) and runs it for
# SECONDS (default 60) on a fresh corpus seeded from tests/fuzz/corpus, tests/fuzz/regressions
# and netlists/.
# Crash artifacts go to build-sanitize/artifacts/. Exits non-zero if the fuzzer found one.
#   tests/fuzz/run_fuzzer.sh [SECONDS]
# Extra libFuzzer flags can be given in FUZZ_FLAGS (e.g. FUZZ_FLAGS="-jobs=2 -workers=2").
set -euo pipefail

seconds="${1:-60}"
case "$seconds" in '' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;; esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build-sanitize"

# clang and its sanitizer/libFuzzer runtime, from Debian, if missing.
bash "$root/.ci/install-deps" sanitizers
(cd "$root" && cmake --preset sanitize >/dev/null && cmake --build --preset sanitize --target fuzz_netlist)

corpus="$(mktemp -d "${TMPDIR:-/tmp}/jourdain-fuzz-corpus.XXXXXX")"
trap 'rm -rf "$corpus"' EXIT
mkdir -p "$build/artifacts"

# UBSan reports are crashes too; ASan's leak check runs at exit.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

status=0
# shellcheck disable=SC2086
"$build/tests/fuzz/fuzz_netlist" \
  -max_total_time="$seconds" -max_len=1048576 -rss_limit_mb=2048 -timeout=10 \
  -dict="$here/netlist.dict" -artifact_prefix="$build/artifacts/" -print_final_stats=1 \
  ${FUZZ_FLAGS:-} \
  "$corpus" "$here/corpus" "$here/regressions" "$root/netlists" || status=$?

if [ "$status" -ne 0 ]; then
  echo "fuzz_netlist found a crash (exit $status); artifacts:" >&2
  ls -1 "$build/artifacts" >&2 || true
  exit "$status"
fi
echo "fuzz_netlist: no crash in $seconds s"
