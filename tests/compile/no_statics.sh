#!/bin/sh
# Fails when the implementation, compiled alone, has writable global or static data
# (nm classes b/B/d/D/C): contact.h promises no global or static mutable state.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#define CONTACT_IMPLEMENTATION\n#include "contact.h"\n' > "$tmp/impl.c"
for real in double float; do
  cc -std=c99 -O1 -fopenmp -DCT_REAL=$real -I. -c "$tmp/impl.c" -o "$tmp/impl.o"
  rw=$(nm "$tmp/impl.o" | awk '$2 ~ /^[bBdDcC]$/ {print $3}' | grep -v '^\.' || true)
  if [ -n "$rw" ]; then
    echo "writable global/static data in the implementation ($real): $rw"
    exit 1
  fi
done
# the optional MPI part, when mpicc exists
if command -v mpicc >/dev/null 2>&1; then
  printf '#include <mpi.h>\n#define CONTACT_MPI\n#define CONTACT_IMPLEMENTATION\n#include "contact.h"\n' > "$tmp/impl_mpi.c"
  for real in double float; do
    mpicc -std=c99 -O1 -fopenmp -DCT_REAL=$real -I. -c "$tmp/impl_mpi.c" -o "$tmp/impl_mpi.o"
    rw=$(nm "$tmp/impl_mpi.o" | awk '$2 ~ /^[bBdDcC]$/ {print $3}' | grep -v '^\.' || true)
    if [ -n "$rw" ]; then
      echo "writable global/static data in the MPI implementation ($real): $rw"
      exit 1
    fi
  done
  echo "no writable global or static data in the MPI part (double, float)"
fi
echo "no writable global or static data (double, float)"
