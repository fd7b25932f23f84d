#!/usr/bin/env bash
# Builds the netlist fuzzer with clang (libFuzzer, ASan, UBSan) in build-fuzz and runs it
# for SECONDS (default 60) on a fresh corpus seeded from tests/fuzz/corpus and netlists/.
# Crash artifacts go to build-fuzz/artifacts/. Exits non-zero if the fuzzer found one.
#   tests/fuzz/run_fuzzer.sh [SECONDS]
# Extra libFuzzer flags can be given in FUZZ_FLAGS (e.g. FUZZ_FLAGS="-jobs=2 -workers=2").
set -euo pipefail

seconds="${1:-60}"
case "$seconds" in '' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;; esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build-fuzz"
jobs="${JOURDAIN_BUILD_JOBS:-2}"

# clang and its sanitizer/libFuzzer runtime, from Debian, if missing.
# libomp-14-dev: SUNDIALS' CMake package asks for OpenMP, which clang finds only through it.
packages=(clang-14 libclang-rt-14-dev libomp-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S "$root" -B "$build" \
  -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 \
  -DJOURDAIN_BUILD_FUZZERS=ON -DJOURDAIN_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target fuzz_netlist -j "$jobs"

corpus="$(mktemp -d "${TMPDIR:-/tmp}/jourdain-fuzz-corpus.XXXXXX")"
trap 'rm -rf "$corpus"' EXIT
mkdir -p "$build/artifacts"

# UBSan reports are crashes too; ASan's leak check runs at exit.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

status=0
# shellcheck disable=SC2086
"$build/tests/fuzz/fuzz_netlist" \
  -max_total_time="$seconds" -max_len=8192 -rss_limit_mb=2048 -timeout=10 \
  -dict="$here/netlist.dict" -artifact_prefix="$build/artifacts/" -print_final_stats=1 \
  ${FUZZ_FLAGS:-} \
  "$corpus" "$here/corpus" "$root/netlists" || status=$?

if [ "$status" -ne 0 ]; then
  echo "fuzz_netlist found a crash (exit $status); artifacts:" >&2
  ls -1 "$build/artifacts" >&2 || true
  exit "$status"
fi
echo "fuzz_netlist: no crash in $seconds s"
