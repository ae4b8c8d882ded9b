#!/bin/sh
# Builds every tests/fuzz/fuzz_*.c with clang's libFuzzer + ASan + UBSan (double and float)
# and runs each for CT_FUZZ_SECONDS (default 20) from its seed corpus in tests/fuzz/corpus/.
# Usage: sh tests/fuzz/run.sh [seconds]        (a longer local run: sh tests/fuzz/run.sh 600)
# CT_FUZZ_REALS picks the precisions (default "double float"); CT_FUZZ_RUNS=N replaces the
# time limit by N executions with a fixed seed, a deterministic run (what `test` uses in CI).
# Prints the executions per harness; exits non-zero when a harness finds a crash (the input
# is left as build/fuzz/crash-*).
set -u
secs=${1:-${CT_FUZZ_SECONDS:-20}}
out=build/fuzz
mkdir -p "$out"
if ! command -v clang >/dev/null 2>&1; then echo "fuzz: clang not installed, skipped"; exit 0; fi
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$out/probe.c"
if ! clang -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" 2>/dev/null; then
  echo "fuzz: clang's libFuzzer runtime missing (libclang-rt-14-dev), skipped"; exit 0
fi
status=0
for src in tests/fuzz/fuzz_*.c; do
  name=$(basename "$src" .c)
  for real in ${CT_FUZZ_REALS:-double float}; do
    bin="$out/${name}_$real"
    if ! clang -g -O1 -std=c99 -Wall -Wextra -Werror -fopenmp -DCT_REAL=$real -I. -Itests/fuzz \
         -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
         -DCONTACT_IMPLEMENTATION_FILE "$src" tests/fuzz/impl.c -o "$bin" -lm; then
      echo "FUZZ BUILD FAILED: $name ($real)"; status=1; continue
    fi
    corpus="tests/fuzz/corpus/$name"
    work="$out/corpus_${name}_$real"
    mkdir -p "$corpus" "$work"
    half=$(( secs / 2 )); [ "$half" -lt 1 ] && half=1
    log="$out/${name}_$real.log"
    if [ -n "${CT_FUZZ_RUNS:-}" ]; then limit="-runs=$CT_FUZZ_RUNS -seed=1"; else limit="-max_total_time=$half"; fi
    if ! "$bin" $limit -max_len=1024 -timeout=10 -rss_limit_mb=2048 \
         -artifact_prefix="$out/${name}_${real}_" "$work" "$corpus" > "$log" 2>&1; then
      echo "FUZZ FAILURE: $name ($real)"; tail -30 "$log"; status=1
    fi
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}')
    [ -z "$execs" ] && execs=$(grep -oE '#[0-9]+' "$log" | tail -1 | tr -d '#')
    echo "fuzz $name ($real): ${execs:-?} executions"
  done
done
exit $status
