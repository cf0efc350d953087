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
    for name, ch in (("ascii", "a"), ("2-byte", "я"), ("3-byte", "中")):
        # n bytes of whole characters ('я' is 2 bytes, '中' 3; topped up
        # with ASCII).
        text = (ch * (n // len(ch.encode()))).encode()
        text += b"a" * (n - len(text))
        open(f"{work}/{name}-{blocks}.utf8", "wb").write(text)
        open(f"{work}/{name}-{blocks}.ucs4", "wb").write((ch * (n // 4)).encode("utf-32-le"))
PY
count() { # program op file symbol-pattern
  qemu-aarch64 -singlestep -d exec,nochain -D /dev/stdout "$1" "$2" "$3" |
    grep '^Trace' | grep -c -E "$4"
}
printf '%-14s %-7s %8s %8s\n' operation input u8x simdutf
for op in validate count count_valid utf8_to_ucs4 ucs4_to_utf8; do
  ext=utf8
  [[ $op == ucs4_to_utf8 ]] && ext=ucs4
  for input in ascii 2-byte 3-byte; do
    row=""
    for prog in u8x simdutf; do
      pat=u8x
      [[ $prog == simdutf ]] && pat=simdutf
      a=$(count "$work/$prog" $op "$work/$input-96.$ext" $pat)
      b=$(count "$work/$prog" $op "$work/$input-192.$ext" $pat)
      row="$row $(python3 -c "print(f'{($b - $a) / 96:8.1f}')")"
    done
    printf '%-14s %-7s%s\n' $op $input "$row"
  done
done
