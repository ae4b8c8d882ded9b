#!/bin/sh
# Builds tests/tsan/tsan_all.c with clang's ThreadSanitizer (double and float) and runs it:
# 8 pthreads call every public entry point at once and must match a serial run bit for bit.
# -DCT_NO_OPENMP and no -fopenmp: Debian's libgomp is not TSan-instrumented (false reports).
# Exits non-zero on a race (TSan), a mismatch or a leak. Skipped when clang or its TSan
# runtime (libclang-rt-14-dev) is missing.
set -u
out=build/tsan
mkdir -p "$out"
if ! command -v clang >/dev/null 2>&1; then echo "tsan: clang not installed, skipped"; exit 0; fi
printf 'int main(void) { return 0; }\n' > "$out/probe.c"
if ! clang -fsanitize=thread "$out/probe.c" -o "$out/probe" 2>/dev/null; then
  echo "tsan: clang's ThreadSanitizer runtime missing (libclang-rt-14-dev), skipped"; exit 0
fi
status=0
for real in double float; do
  bin="$out/tsan_all_$real"
  if ! clang -g -O1 -std=c99 -Wall -Wextra -Werror -pedantic -DCT_NO_OPENMP -DCT_REAL=$real -I. -Ibench \
       -fsanitize=thread tests/tsan/tsan_all.c bench/workload.c bench/harness.c -o "$bin" -lm -lpthread; then
    echo "TSAN BUILD FAILED ($real)"; status=1; continue
  fi
  if ! TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" "$bin"; then
    echo "TSAN FAILURE ($real)"; status=1
  fi
done
exit $status
