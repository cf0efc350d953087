#!/usr/bin/env bash
# Compiles a small translation unit that includes u8x.h (twice) and uses its
# types, constants and functions under every C and C++ standard the header
# supports, with gcc/g++ and clang/clang++:
#
#   C:   c89 c99 c11 c17 c2x     C++: c++11 c++17 c++20
#
# with -Wall -Wextra -Wpedantic -Wundef -Werror, once as is and once with
# -fshort-enums (the header's own static checks must hold either way: the
# struct fields are uint32_t-sized whatever the enum size). One line per
# compiler and standard; a compiler that is not installed is skipped, saying
# so, and so is a standard the installed version does not know. Exits 1 if
# any combination fails, 2 if no compiler at all was found.
#
# Given a built libu8x.a as well, it also builds c-tests/abi.c (the run-time
# layout checks) with each C compiler, with and without -fshort-enums, links
# it with that library and runs it: one more line per C compiler.
#
# Usage (from the repository root):
#   bash c-tests/header-matrix.sh include [target/capi/stage/lib/libu8x.a]
set -uo pipefail

include_dir=${1:-include}
static_lib=${2:-}
if [[ -n $static_lib && ! -f $static_lib ]]; then
  echo "header-matrix: $static_lib not found (build it with make)" >&2
  exit 2
fi
tests_dir=$(dirname "$0")
if [[ ! -f $include_dir/u8x.h ]]; then
  echo "header-matrix: $include_dir/u8x.h not found (usage: $0 HEADER_DIR)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Valid C89 and C++11 at once: declarations first, /* */ comments only.
cat >"$work/tu.c" <<'EOF'
#include "u8x.h"
#include "u8x.h" /* the include guard holds */

static int use_header(const uint8_t *text, size_t len)
{
    u8x_result r;
    u8x_status status;
    u8x_error error;
    u8x_policy policy = U8X_REPLACE;
    enum u8x_width widest = U8X_WIDTH_SUPPLEMENTARY;
    u8x_classification info;
    uint32_t out[8];
    const char *version = U8X_VERSION_STRING;

    r = u8x_validate(text, len, U8X_MORE_INPUT);
    status = r.status;
    error = r.error;
    switch (status) {
    case U8X_OK:
        break;
    case U8X_ILL_FORMED:
        return error == U8X_ERR_OVERLONG ? 2 : 3;
    default:
        return 4;
    }
    r = u8x_decode_ucs4(text, len, out, sizeof out / sizeof out[0], policy,
                        U8X_REPLACEMENT_CHARACTER, 0);
    if (r.written > u8x_decode_ucs4_bound(len) || u8x_encode_bound(len) == U8X_BAD_SIZE)
        return 5;
    r = u8x_classify(text, len, 0, &info);
    if (info.width == widest || r.error_len != 0 || u8x_status_name(U8X_OK) == version)
        return 6;
    return (int)info.code_points + (int)sizeof(u8x_result);
}

int main(void)
{
    static const uint8_t text[] = { 0x41, 0xE2, 0x82, 0xAC };
    return use_header(text, sizeof text) > 0 ? 0 : 1;
}
EOF

warnings=(-Wall -Wextra -Wpedantic -Wundef -Werror)
c_stds=(c89 c99 c11 c17 c2x)
cxx_stds=(c++11 c++17 c++20)
passed=0 failed=0 skipped=0 compilers=0

# check LABEL COMPILER LANG STD: one line for one compiler and standard.
check() {
  local label=$1 compiler=$2 lang=$3 std=$4 log="$work/log"
  if ! "$compiler" -x "$lang" -std="$std" -fsyntax-only - </dev/null >"$log" 2>&1; then
    printf '%-8s %-7s skipped (this %s does not know -std=%s)\n' "$label" "$std" "$compiler" "$std"
    skipped=$((skipped + 1))
    return
  fi
  local flags=(-x "$lang" -std="$std" "${warnings[@]}" -I "$include_dir" -c "$work/tu.c" -o "$work/tu.o")
  if "$compiler" "${flags[@]}" >"$log" 2>&1 &&
    "$compiler" "${flags[@]}" -fshort-enums >>"$log" 2>&1; then
    printf '%-8s %-7s ok (also with -fshort-enums)\n' "$label" "$std"
    passed=$((passed + 1))
  else
    printf '%-8s %-7s FAILED: %s %s\n' "$label" "$std" "$compiler" "${flags[*]} [-fshort-enums]"
    sed 's/^/    /' "$log" | head -n 30
    failed=$((failed + 1))
  fi
}

# abi LABEL COMPILER: c-tests/abi.c built twice, linked with $static_lib, run.
abi() {
  local label=$1 compiler=$2 log="$work/log" shorts
  local flags=(-std=c99 "${warnings[@]}" -I "$include_dir" -I "$tests_dir" "$tests_dir/abi.c" "$static_lib")
  : >"$log"
  for shorts in "" -fshort-enums; do
    if ! "$compiler" "${flags[@]}" $shorts -o "$work/abi" >>"$log" 2>&1 || ! "$work/abi" >>"$log" 2>&1; then
      printf '%-8s %-7s FAILED: %s %s -o abi && ./abi\n' "$label" abi.c "$compiler" "${flags[*]} $shorts"
      sed 's/^/    /' "$log" | grep -v ': u8x ' | head -n 30
      failed=$((failed + 1))
      return
    fi
  done
  printf '%-8s %-7s ok (-std=c99, run against %s, also with -fshort-enums)\n' "$label" abi.c "$static_lib"
  passed=$((passed + 1))
}

for pair in "gcc g++" "clang clang++"; do
  read -r cc cxx <<<"$pair"
  for tool in "$cc" "$cxx"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "$tool: not installed, skipped"
      continue
    fi
    compilers=$((compilers + 1))
    if [[ $tool == "$cc" ]]; then
      for std in "${c_stds[@]}"; do check "$tool" "$tool" c "$std"; done
      if [[ -n $static_lib ]]; then abi "$tool" "$tool"; fi
    else
      for std in "${cxx_stds[@]}"; do check "$tool" "$tool" c++ "$std"; done
    fi
  done
done

if ((compilers == 0)); then
  echo "header-matrix: no compiler found (gcc, g++, clang, clang++)" >&2
  exit 2
fi
echo "header-matrix: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
