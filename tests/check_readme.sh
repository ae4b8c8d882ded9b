#!/bin/sh
# Checks that the figures README.md quotes from the tests are the ones the tests count.
# Usage: sh tests/check_readme.sh LOG...   (the stdout of test runs: build/<cfg>/tests, tsan_all)
# Every counted line a test prints, "hardening: N what", "hull: ...", "polar: ...",
# "conventions, ...: ..." and "tsan_all (...): 8 threads x 3 rounds x N calls ...", must appear
# in README.md: the hardening/hull/polar lines without their prefix, the conventions lines whole
# (from the double run only: float rounds differently), the tsan line up to "calls". Line
# breaks and repeated spaces in README.md do not matter. Exits 1 listing every mismatch.
set -u
readme=$(tr '\n' ' ' < README.md | tr -s ' ')
status=0
for log in "$@"; do
  [ -f "$log" ] || { echo "check_readme: $log missing"; status=1; continue; }
  case "$log" in *float*) real=float ;; *) real=double ;; esac
  # one fact per line; sed strips the prefix that README.md does not repeat
  facts=$(grep -E '^(hardening|hull|polar): |^conventions, |^tsan_all \(' "$log" | sort -u |
          sed -E 's/^(hardening|hull|polar): //; s/^(tsan_all \([a-z]+\): [0-9]+ threads x [0-9]+ rounds x [0-9]+ calls).*/\1/')
  old_ifs=$IFS
  IFS='
'
  for fact in $facts; do
    case "$fact" in conventions,*) [ "$real" = double ] || continue ;; esac
    case "$fact" in tsan_all*) fact=$(echo "$fact" | sed -E 's/^tsan_all \([a-z]+\): //') ;; esac
    case "$readme" in
      *"$fact"*) ;;
      *) echo "README.md does not say what the tests count ($log): $fact"; status=1 ;;
    esac
  done
  IFS=$old_ifs
done
[ $status -eq 0 ] && echo "check_readme: README.md matches the counts of $*"
exit $status
