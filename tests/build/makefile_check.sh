#!/usr/bin/env bash
# Checks the Makefile the way distributed testers use it (run by .ci/run
# after `cargo build --release`, so the default build costs no compile):
# `make help` lists the archs between "Supported archs:" and "Supported
# compilers:", `make -j EXE=PATH` (OpenBench) and `make build ARCH=x86-64
# COMP=gcc` give exactly the binary of `cargo build --release`, which answers
# `bench` with the library's node count; `make strip`, `make net`, a bad ARCH.
set -euo pipefail
# Text is tested with here-strings, not `printf | grep -q`: grep -q exits at
# its first match, and under pipefail the writer's SIGPIPE would fail the test.
cd "$(dirname "$0")/../.."
fail() { echo "makefile_check: FAIL: $*" >&2; exit 1; }
OUT=target/ci-make
rm -rf "$OUT"
mkdir -p "$OUT"

help=$(make --no-print-directory help)
archs=$(printf '%s\n' "$help" | sed -n '/^Supported archs:/,/^Supported compilers:/p')
[ -n "$archs" ] || fail "no 'Supported archs:' ... 'Supported compilers:' section"
for a in native x86-64 x86-64-sse41-popcnt x86-64-avx2 x86-64-bmi2; do
  grep -qE "^  $a( |$)" <<<"$archs" || fail "arch $a not listed"
done
grep -q '^Supported compilers:' <<<"$help" || fail "no compilers line"

cargo build --release --locked --quiet
make --no-print-directory -j EXE="$OUT/openbench-chuhan" > "$OUT/make.log" 2>&1 || { cat "$OUT/make.log"; fail "make -j EXE=..."; }
make --no-print-directory build ARCH=x86-64 COMP=gcc EXE="$OUT/sub/dir/chuhan" > "$OUT/make2.log" 2>&1 || { cat "$OUT/make2.log"; fail "make build"; }
grep -q 'COMP=gcc ignored' "$OUT/make2.log" || fail "no note about COMP"
want=$(sha256sum < target/release/chuhan)
for exe in "$OUT/openbench-chuhan" "$OUT/sub/dir/chuhan"; do
  [ "$(sha256sum < "$exe")" = "$want" ] || fail "$exe differs from cargo build --release"
done

# The bench signature through the built binary (a short depth keeps CI fast).
sig() { "$1" bench 16 1 6 2>/dev/null | tail -n 1 | awk '{print $1}'; }
[ "$(sig "$OUT/openbench-chuhan")" = "$(sig target/release/chuhan)" ] || fail "bench differs"
summary=$("$OUT/openbench-chuhan" bench 16 1 6 2>&1 >/dev/null)
grep -q '^Nodes searched  : ' <<<"$summary" || fail "no bench summary"

cp "$OUT/openbench-chuhan" "$OUT/stripped"
make --no-print-directory strip EXE="$OUT/stripped" >/dev/null
[ "$(sig "$OUT/stripped")" = "$(sig target/release/chuhan)" ] || fail "stripped binary broken"
net=$(make --no-print-directory net)
grep -q 'no network file' <<<"$net" || fail "make net"
if make --no-print-directory build ARCH=pentium2 EXE="$OUT/x" > "$OUT/bad.log" 2>&1; then fail "bad ARCH accepted"; fi
grep -q "unknown ARCH 'pentium2'" "$OUT/bad.log" || fail "bad ARCH message"
[ ! -e "$OUT/x" ] || fail "bad ARCH built something"
# The dry run takes the plain-build path (PROFDATA= as if no llvm-profdata
# were installed): the PGO path's '+' recipes would run its cargo builds
# even under -n, and the second needs the profile the first one writes.
make --no-print-directory -n profile-build PROFDATA= EXE="$OUT/pgo" > "$OUT/pgo.log" 2>&1 || fail "make -n profile-build"
echo "makefile_check: ok ($(printf '%s\n' "$archs" | grep -c '^  ') archs; make == cargo build --release: $want)"
