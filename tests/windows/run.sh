#!/usr/bin/env bash
# Cross-builds u8x for Windows (x86_64-pc-windows-gnu, MinGW-w64) with the
# Makefile and checks what a Windows C project gets:
#   - the staged files: bin/u8x.dll, lib/libu8x.dll.a, lib/libu8x.a, the
#     header, pkg-config and CMake files;
#   - the DLL exports exactly the header's functions, and imports nothing
#     but KERNEL32 and msvcrt (no libgcc or winpthread DLL to ship);
#   - the import library names that DLL and those functions; libu8x.a's
#     global symbols are the same functions, needing only msvcrt's errno
#     and getenv;
#   - tests/windows/wchar16.c (wchar_t is 16 bits: UTF-16 and surrogate
#     pairs through the POSIX drop-ins) and every c-tests/ program that
#     Windows can build, against the DLL and libu8x.a, run under Wine
#     (wine64, headless, a fresh WINEPREFIX under target/); the others are
#     skipped, each named with its reason;
#   - a program built with pkg-config's flags, and a CMake project
#     (find_package(u8x), u8x::u8x and u8x::u8x_static) cross-built with
#     MinGW, run under Wine.
# One line per check; exits non-zero if any failed.
#
# Needs gcc-mingw-w64-x86-64 and wine64 (apt), and for the build Debian's
# rustc-web with rust-web-src (core is built from source: -Zbuild-std),
# as .ci/run installs them. RUSTC overrides the compiler (/usr/bin/rustc).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
triple=x86_64-pc-windows-gnu
cross=x86_64-w64-mingw32-
# Its own target directory: CI runs this beside the native suite, whose
# `make` builds lock target/ and use the other compiler.
target_dir=${U8X_WINDOWS_TARGET_DIR:-$root/target/windows}
stage=$target_dir/$triple/capi/stage
work=$target_dir/$triple/tests
passed=0
failed=0
skipped=0

say() { printf 'windows: %s\n' "$*"; }
pass() { passed=$((passed + 1)); say "ok      $1"; }
fail() { failed=$((failed + 1)); say "FAILED  $1"; }
skip() { skipped=$((skipped + 1)); say "skipped $1: $2"; }
# check NAME COMMAND...: one check; its output is shown only on failure.
# `checked` says how it went, for the checks that need it to have passed.
checked=
check() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then
        pass "$name"
        checked=ok
    else
        fail "$name"
        printf '%s\n' "$out" | tail -n 40 | sed 's/^/    /'
        checked=failed
    fi
}

wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
for tool in "${cross}gcc" "${cross}objdump" "$wine"; do
    command -v "$tool" >/dev/null 2>&1 || { say "FAILED  $tool is not installed (apt: gcc-mingw-w64-x86-64 wine64)"; exit 1; }
done

start=$SECONDS
rm -rf "$work"
mkdir -p "$work"
export RUSTC=${RUSTC:-/usr/bin/rustc} RUSTC_BOOTSTRAP=1
if ! nice -n 10 make -s -C "$root" TARGET=$triple CROSS=$cross BUILD_STD=1 TARGET_DIR="$target_dir" all >"$work/make.log" 2>&1; then
    tail -n 40 "$work/make.log"
    say "FAILED  make TARGET=$triple CROSS=$cross BUILD_STD=1"
    exit 1
fi
pass "make TARGET=$triple CROSS=$cross BUILD_STD=1 ($((SECONDS - start)) s)"

staged() {
    local f
    for f in bin/u8x.dll lib/libu8x.dll.a lib/libu8x.a include/u8x.h lib/pkgconfig/u8x.pc \
        lib/cmake/u8x/u8xConfig.cmake lib/cmake/u8x/u8xConfigVersion.cmake; do
        [[ -s $stage/$f ]] || { echo "missing: $stage/$f"; return 1; }
    done
    ! grep -n 'preload\|\.so' "$stage/lib/pkgconfig/u8x.pc" "$stage/lib/cmake/u8x/u8xConfig.cmake"
}
check "staged: bin/u8x.dll lib/libu8x.dll.a lib/libu8x.a include/u8x.h, pkg-config and CMake files" staged

# The functions include/u8x.h declares: `u8x_name(` after a space or `*`,
# as tests/library.rs reads them.
grep -o '[ *]u8x_[a-z0-9_]*(' "$stage/include/u8x.h" | tr -d ' *(' | sort -u >"$work/declared.txt"
# The DLL's export table (objdump -p: "[   n] name" after the
# "[Ordinal/Name Pointer] Table" line).
"${cross}objdump" -p "$stage/bin/u8x.dll" |
    awk '/^\[Ordinal\/Name Pointer\] Table/ { t = 1; next } t && NF == 0 { t = 0 } t { print $NF }' |
    sort >"$work/exports.txt"
exports=$(grep -c . "$work/exports.txt" || true)
same_list() {
    local what=$1 file=$2
    (($(grep -c . "$work/declared.txt") >= 20)) || { echo "too few declarations in u8x.h"; return 1; }
    diff -u "$work/declared.txt" "$file" || { echo "$what differ from the header's functions (- header, + $what)"; return 1; }
}
check "u8x.dll exports exactly the header's $(grep -c . "$work/declared.txt") functions ($exports exports)" \
    same_list exports "$work/exports.txt"

"${cross}objdump" -p "$stage/bin/u8x.dll" | awk '/DLL Name:/ { print $3 }' | sort -u >"$work/dlls.txt"
only_system_dlls() {
    cat "$work/dlls.txt"
    ! grep -viqx 'kernel32\.dll\|msvcrt\.dll' "$work/dlls.txt"
}
check "u8x.dll imports only from $(tr '\n' ' ' <"$work/dlls.txt")" only_system_dlls

# The import library: one __imp_ symbol per function, and the DLL's name.
# (grep without -q: an early exit would fail objdump's pipe, and pipefail.)
"${cross}nm" -g --defined-only "$stage/lib/libu8x.dll.a" 2>/dev/null |
    awk '$3 ~ /^__imp_/ { sub(/^__imp_/, "", $3); print $3 }' | sort -u >"$work/implib.txt"
implib() {
    same_list "import library symbols" "$work/implib.txt" &&
        "${cross}objdump" -s -j .idata\$7 "$stage/lib/libu8x.dll.a" | grep 'u8x\.dll' >/dev/null
}
check "libu8x.dll.a imports the same functions from u8x.dll" implib

# libu8x.a: external symbols (COFF storage class 2) defined in a section
# are the header's functions; the undefined ones are the CRT's.
"${cross}objdump" -t "$stage/lib/libu8x.a" | awk '/\(scl +2\)/' >"$work/static-symbols.txt"
awk '!/\(sec +0\)/ { print $NF }' "$work/static-symbols.txt" | sort -u >"$work/static-globals.txt"
awk '/\(sec +0\)/ { print $NF }' "$work/static-symbols.txt" | sort -u >"$work/static-undefined.txt"
static_ok() {
    same_list "libu8x.a's globals" "$work/static-globals.txt" || return 1
    cat "$work/static-undefined.txt"
    ! grep -vqx '_errno\|getenv' "$work/static-undefined.txt"
}
check "libu8x.a's global symbols are the header's functions; it needs only $(tr '\n' ' ' <"$work/static-undefined.txt")" \
    static_ok

# Wine: a fresh prefix, no debug output, no display; the first run creates
# the prefix (mscoree and mshtml off: no Mono or Gecko installer prompt).
export WINEPREFIX=$target_dir/$triple/wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
unset DISPLAY WAYLAND_DISPLAY
rm -rf "$WINEPREFIX"
wine_start=$SECONDS
check "wine prefix created ($("$wine" --version))" timeout 300 "$wine" cmd /c exit 0
wineboot_s=$((SECONDS - wine_start))

# run_exe NAME EXE: runs a Windows program under Wine, from its folder
# (where the DLL is), with a time limit.
run_exe() {
    local exe=$2
    (cd "$(dirname "$exe")" && timeout 300 "$wine" "$(basename "$exe")" </dev/null)
}

version=$(sed -n 's/^version = "\([^"]*\)".*/\1/p' "$root/Cargo.toml" | head -n 1)
warnings=(-Wall -Wextra -Wpedantic -Werror)
cflags=(-std=c99 "${warnings[@]}" -O2 -I "$stage/include" -I "$root/c-tests"
    "-DU8X_EXPECTED_VERSION=\"$version\"")
mkdir -p "$work/shared" "$work/static"
cp "$stage/bin/u8x.dll" "$work/shared/"
# build_and_run SOURCE COMPILER: the program compiled once, linked against
# the DLL (through its import library) and against libu8x.a, each run
# under Wine.
build_and_run() {
    local src=$1 cc=$2 name flags=("${cflags[@]}")
    name=$(basename "${src%.*}")
    [[ $src == *.cpp ]] && flags=(-std=c++11 "${flags[@]:1}")
    check "$name compiles" "$cc" "${flags[@]}" -c -o "$work/$name.o" "$src"
    [[ $checked == ok ]] || return 0
    check "$name links with u8x.dll" "$cc" -o "$work/shared/$name.exe" "$work/$name.o" -L "$stage/lib" -lu8x
    if [[ $checked == ok ]]; then
        check "$name (u8x.dll) runs under Wine" run_exe "$name" "$work/shared/$name.exe"
    fi
    check "$name links with libu8x.a" "$cc" -o "$work/static/$name.exe" "$work/$name.o" \
        -Wl,--gc-sections "$stage/lib/libu8x.a"
    if [[ $checked == ok ]]; then
        check "$name (libu8x.a) runs under Wine" run_exe "$name" "$work/static/$name.exe"
    fi
}

build_and_run "$root/tests/windows/wchar16.c" "${cross}gcc"

# The C harness's programs. Left out, each for its reason:
declare -A no_windows=(
    [args_guarded]="guard pages with mmap/mprotect (c-tests/guard.h): POSIX, no sys/mman.h in MinGW"
    [overrun]="guard pages with mmap/mprotect (c-tests/guard.h): POSIX, no sys/mman.h in MinGW"
    [forms_overrun]="guard pages with mmap/mprotect (c-tests/guard.h): POSIX, no sys/mman.h in MinGW"
    [race]="fork, waitpid and pthreads: POSIX processes"
    [restartable]="compares every answer with glibc's mbrtowc family under C.UTF-8, with a 32-bit wchar_t (tests/windows/wchar16.c covers Windows)"
    [posix]="compares with glibc's mbstowcs/wcstombs under C.UTF-8, with a 32-bit wchar_t (tests/windows/wchar16.c covers Windows)"
)
for src in "$root"/c-tests/*.c "$root"/c-tests/*.cpp; do
    name=$(basename "${src%.*}")
    if [[ -n ${no_windows[$name]:-} ]]; then
        skip "$name" "${no_windows[$name]}"
    elif [[ $src == *.cpp ]]; then
        if command -v "${cross}g++" >/dev/null 2>&1; then
            build_and_run "$src" "${cross}g++"
        else
            skip "$name" "no MinGW C++ compiler (${cross}g++, apt: g++-mingw-w64-x86-64)"
        fi
    else
        build_and_run "$src" "${cross}gcc"
    fi
done

# pkg-config's flags, as a MinGW project takes them (the DLL's import
# library: -lu8x finds libu8x.dll.a before libu8x.a).
if command -v pkg-config >/dev/null 2>&1; then
    pc_flags=$(PKG_CONFIG_PATH=$stage/lib/pkgconfig pkg-config --cflags --libs u8x)
    # shellcheck disable=SC2086
    check "pkg-config --cflags --libs u8x ($pc_flags): a program builds" \
        "${cross}gcc" -std=c99 "${warnings[@]}" -I "$root/c-tests" "-DU8X_EXPECTED_VERSION=\"$version\"" \
        -o "$work/shared/pc_version.exe" "$root/c-tests/version.c" $pc_flags
    if [[ $checked == ok ]]; then
        check "pkg-config's program runs under Wine" run_exe pc_version "$work/shared/pc_version.exe"
    fi
else
    skip "pkg-config" "pkg-config is not installed"
fi

# CMake: find_package(u8x) in a MinGW cross build, both targets.
if command -v cmake >/dev/null 2>&1; then
    cm=$work/cmake
    mkdir -p "$cm/src"
    cp "$root/c-tests/version.c" "$root/c-tests/check.h" "$cm/src/"
    cat >"$cm/src/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(u8x_windows_consumer C)
find_package(u8x 0.1 REQUIRED)
add_compile_definitions(U8X_EXPECTED_VERSION="\${u8x_VERSION}")
add_executable(version_shared version.c)
target_link_libraries(version_shared PRIVATE u8x::u8x)
add_executable(version_static version.c)
target_link_libraries(version_static PRIVATE u8x::u8x_static)
EOF
    cmake_build() {
        cmake -S "$cm/src" -B "$cm/build" -DCMAKE_SYSTEM_NAME=Windows \
            -DCMAKE_C_COMPILER="${cross}gcc" -DCMAKE_PREFIX_PATH="$stage" \
            -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=BOTH >/dev/null && cmake --build "$cm/build"
    }
    check "CMake find_package(u8x): u8x::u8x and u8x::u8x_static build" cmake_build
    if [[ $checked == ok ]]; then
        cp "$stage/bin/u8x.dll" "$cm/build/"
        check "CMake's u8x::u8x program runs under Wine" run_exe version "$cm/build/version_shared.exe"
        check "CMake's u8x::u8x_static program runs under Wine" run_exe version "$cm/build/version_static.exe"
    fi
else
    skip "CMake" "cmake is not installed"
fi

say "$passed passed, $failed failed, $skipped skipped ($((SECONDS - start)) s, Wine's first start $wineboot_s s)"
((failed == 0))
