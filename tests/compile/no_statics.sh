#!/bin/sh
# Fails when the implementation, compiled alone, has writable global or static data
# (nm classes b/B/d/D/C): contact.h promises no global or static mutable state. The optional
# MPI part is checked too when mpicc exists.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# check COMPILER SOURCE LABEL: double and float
check() {
  for real in double float; do
    $1 -std=c99 -O1 -fopenmp -DCT_REAL=$real -I. -c "$2" -o "$tmp/impl.o"
    rw=$(nm "$tmp/impl.o" | awk '$2 ~ /^[bBdDcC]$/ {print $3}' | grep -v '^\.' || true)
    if [ -n "$rw" ]; then
      echo "writable global/static data in $3 ($real): $rw"
      exit 1
    fi
  done
  echo "no writable global or static data in $3 (double, float)"
}
printf '#define CONTACT_IMPLEMENTATION\n#include "contact.h"\n' > "$tmp/impl.c"
check cc "$tmp/impl.c" "the implementation"
if command -v mpicc >/dev/null 2>&1; then
  printf '#include <mpi.h>\n#define CONTACT_MPI\n#define CONTACT_IMPLEMENTATION\n#include "contact.h"\n' > "$tmp/impl_mpi.c"
  check mpicc "$tmp/impl_mpi.c" "the MPI part"
fi
