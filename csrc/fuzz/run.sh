#!/usr/bin/env bash
# Build the libFuzzer harnesses and fuzz each for SECONDS (default 20).
#   csrc/fuzz/run.sh [SECONDS] [BUILD_DIR] [HARNESS...]   (default: all ten)
# The seed corpus csrc/fuzz/corpus/<harness>/ is read, never written: new
# inputs go to BUILD_DIR/corpus/<harness>/, crashes and timeouts to
# BUILD_DIR/artifacts/.  Prints each harness's executions and time (the
# libFuzzer "Done N runs in T second(s)" line) and fails on any finding.
set -euo pipefail
seconds="${1:-20}"
here="$(cd "$(dirname "$0")" && pwd)"
build="${2:-$here/../../build/fuzz}"
shift $(($# > 2 ? 2 : $#))
harnesses=("${@:-fuzz_masks fuzz_layoff fuzz_multi fuzz_batch fuzz_playout fuzz_table fuzz_table_playouts fuzz_table_bytes fuzz_vector fuzz_track}")
cmake -S "$here/.." -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release \
  -DRUMMYKIT_FUZZ=ON -DRUMMYKIT_TESTS=OFF > /dev/null
cmake --build "$build" > /dev/null
mkdir -p "$build/artifacts"
status=0
for harness in ${harnesses[*]}; do
  mkdir -p "$build/corpus/$harness"
  log="$build/$harness.log"
  # -timeout: a single input slower than 10 s is a finding (the searches are exponential)
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      "$build/$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$harness-" "$build/corpus/$harness" "$here/corpus/$harness" \
      > "$log" 2>&1; then
    echo "$harness: $(grep -E '^Done' "$log") (corpus $(ls "$build/corpus/$harness" | wc -l) inputs)"
  else
    echo "$harness: FAILED, see $log and $build/artifacts/"
    grep -E 'ERROR|check failed|runtime error|SUMMARY' "$log" | head -5
    status=1
  fi
done
exit $status
