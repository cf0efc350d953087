#!/bin/bash
# Instructions per 64 input bytes of u8x's NEON kernels and simdutf 9.1's
# arm64 kernels, counted under qemu-user (no aarch64 hardware here: a
# static estimate of cost, not a timing). Each operation runs once over an
# input of 96 and of 192 blocks of 64 bytes; qemu's single-step trace logs
# every instruction executed, with its symbol; the difference of the two
# counts within the library's own functions, over 96, is the steady-state
# cost of 64 bytes, call overhead and setup cancelled out.
#
#   bash benches/aarch64/icount.sh            # from the repository root
#
# Needs ../shared/tools/aarch64 (sourced here) and python3. simdutf is the
# amalgamation in ../shared/peers/simdutf-9.1.0, built with
# aarch64-linux-gnu-g++ -O3, as the issue asks.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${ICOUNT_DIR:-$root/target/icount}
mkdir -p "$work"
(
  # shellcheck source=/dev/null
  source "$root/../shared/tools/aarch64/env.sh" >/dev/null
  cd "$root"
  CARGO_TARGET_DIR=$work/target cargo rustc --quiet --profile capi --lib --features capi \
    --crate-type staticlib --target aarch64-unknown-linux-gnu
)
lib=$work/target/aarch64-unknown-linux-gnu/capi/libu8x.a
peer=$root/../shared/peers/simdutf-9.1.0
aarch64-linux-gnu-gcc -O2 -static -I"$root/include" "$root/benches/aarch64/harness.c" "$lib" \
  -lpthread -ldl -lm -o "$work/u8x"
[[ -e $work/simdutf.o ]] || aarch64-linux-gnu-g++ -O3 -std=c++17 -c "$peer/simdutf.cpp" -o "$work/simdutf.o"
aarch64-linux-gnu-g++ -O2 -static -I"$peer" "$root/benches/aarch64/peers.cpp" "$work/simdutf.o" \
  -o "$work/simdutf"
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
for blocks in (96, 192):
    n = 64 * blocks
    # n bytes of whole characters, topped up with ASCII: UTF-8 input.
    for name, ch in (("ascii", "a"), ("2-byte", "я"), ("3-byte", "中"), ("latin", "é")):
        text = (ch * (n // len(ch.encode()))).encode()
        open(f"{work}/{name}-{blocks}.utf8", "wb").write(text + b"a" * (n - len(text)))
    for name, ch in (("ascii", "a"), ("2-byte", "я"), ("3-byte", "中")):
        open(f"{work}/{name}-{blocks}.ucs4", "wb").write((ch * (n // 4)).encode("utf-32-le"))
        open(f"{work}/{name}-{blocks}.utf16", "wb").write((ch * (n // 2)).encode("utf-16-le"))
    for name, ch in (("ascii", "a"), ("latin", "é")):
        open(f"{work}/{name}-{blocks}.latin1", "wb").write((ch * n).encode("latin-1"))
PY
count() { # program op file symbol-pattern
  qemu-aarch64 -singlestep -d exec,nochain -D /dev/stdout "$1" "$2" "$3" |
    grep '^Trace' | grep -c -E "$4"
}
printf '%-15s %-7s %8s %8s\n' operation input u8x simdutf
while read -r op ext inputs; do
  for input in $inputs; do
    row=""
    for prog in u8x simdutf; do
      a=$(count "$work/$prog" "$op" "$work/$input-96.$ext" "$prog")
      b=$(count "$work/$prog" "$op" "$work/$input-192.$ext" "$prog")
      row="$row $(python3 -c "print(f'{($b - $a) / 96:8.1f}')")"
    done
    printf '%-15s %-7s%s\n' "$op" "$input" "$row"
  done
done <<'OPS'
validate utf8 ascii 2-byte 3-byte
count utf8 ascii 2-byte 3-byte
count_valid utf8 ascii 3-byte
utf8_to_ucs4 utf8 ascii 2-byte 3-byte
ucs4_to_utf8 ucs4 ascii 2-byte 3-byte
utf8_to_utf16 utf8 ascii 2-byte 3-byte
utf16_to_utf8 utf16 ascii 2-byte 3-byte
latin1_to_utf8 latin1 ascii latin
utf8_to_latin1 utf8 ascii latin
classify utf8 ascii 2-byte 3-byte
utf8_len_of_utf16 utf16 ascii 2-byte 3-byte
OPS

# The dialects (issue 10) on text without their own forms, u8x alone:
# instructions per 64 bytes in RFC 3629 and in each dialect, and the worst
# ratio (standard / dialect: below 1.0 the dialect costs more).
echo
printf '%-15s %-7s %8s %8s %8s %8s %8s %8s %6s\n' operation input standard legacy cesu8 mutf8 wtf8 general worst
while read -r op ext inputs; do
  for input in $inputs; do
    row="" std=0 worst=9
    for d in 0 256 512 768 1024 1280; do
      a=$(count "$work/u8x" "$op@$d" "$work/$input-96.$ext" u8x)
      b=$(count "$work/u8x" "$op@$d" "$work/$input-192.$ext" u8x)
      per=$(python3 -c "print(($b - $a) / 96)")
      [[ $d == 0 ]] && std=$per
      worst=$(python3 -c "print(min($worst, $std / $per))")
      row="$row $(python3 -c "print(f'{$per:8.1f}')")"
    done
    printf '%-15s %-7s%s %6.2f\n' "$op" "$input" "$row" "$worst"
  done
done <<'OPS'
validate utf8 ascii 2-byte 3-byte
utf8_to_ucs4 utf8 ascii 2-byte 3-byte
utf8_to_utf16 utf8 ascii 2-byte 3-byte
utf16_to_utf8 utf16 ascii 2-byte 3-byte
OPS
