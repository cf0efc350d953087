#!/usr/bin/env bash
# u8x inside three runtimes, checked by the tests those runtimes hold their
# own UTF-8 code to (issue 45):
#   - CPython: the extension (bindings/python) built as a wheel by
#     `python -m build` from an sdist (so from the sources alone), installed
#     in a venv of Debian's python3, then CPython's own test_codecs classes
#     with encoding = "u8x" and the CPython-as-oracle suite;
#   - Lua 5.4: u8x.utf8 (bindings/lua) in place of the built-in utf8, under
#     Lua 5.4.4's own testes/utf8.lua, unmodified, and against the built-in
#     library call by call;
#   - a JVM: u8x's Modified UTF-8 against DataOutputStream.writeUTF,
#     DataInputStream.readUTF and JNI (bindings/java).
# Each prints one line. A part whose tool is missing is skipped, saying so;
# with U8X_CONSUMERS_STRICT=1 (.ci/run sets it) a skip is a failure.
# U8X_PYTHON picks the interpreter (default /usr/bin/python3, which Debian's
# libpython3.11-testsuite is for).
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
work=$root/target/runtimes
shared=$root/../shared
strict=${U8X_CONSUMERS_STRICT:-0}
py=${U8X_PYTHON:-/usr/bin/python3}
cc=${CC:-cc}
passed=0 failed=0 skipped=0
mkdir -p "$work"
: >"$work/summary.txt"

say() { printf 'runtimes: %s\n' "$*" | tee -a "$work/summary.txt"; }
pass() { passed=$((passed + 1)); say "ok      $1"; }
fail() { failed=$((failed + 1)); say "FAILED  $1"; }
skip() {
    skipped=$((skipped + 1))
    if [[ $strict == 1 ]]; then fail "$1 (skipped: $2)"; else say "skipped $1: $2"; fi
}
# run NAME COMMAND...: output shown only on failure; lines starting with
# "| " are kept (the figures each part reports).
run() {
    local name=$1 out start=$SECONDS
    shift
    if out=$("$@" 2>&1); then pass "$name ($((SECONDS - start)) s)"; else
        fail "$name"
        printf '%s\n' "$out" | tail -n 40 | sed 's/^/    /'
    fi
    printf '%s\n' "$out" | sed -n 's/^| /    /p' | tee -a "$work/summary.txt"
}
have() { command -v "$1" >/dev/null 2>&1; }

if ! make -s -C "$root" lib >"$work/make.log" 2>&1; then
    cat "$work/make.log"
    say "FAILED  make lib"
    exit 1
fi
lib=$root/target/capi/stage/lib/libu8x.a

# ---------------------------------------------------------------- CPython
python_tests() {
    local venv=$work/venv
    if [[ ! -x $venv/bin/python ]]; then
        "$py" -m venv "$venv" && "$venv/bin/pip" install -q setuptools wheel build pytest || return 1
    fi
    rm -rf "$work/dist"
    echo "| python: $("$venv/bin/python" -c 'import sys; print(sys.version.split()[0], sys.executable)')"
    "$venv/bin/python" -m build --no-isolation --outdir "$work/dist" "$root/bindings/python" >"$work/build.log" 2>&1 ||
        { tail -n 30 "$work/build.log"; return 1; }
    echo "| python -m build: $(cd "$work/dist" && ls | tr '\n' ' ')"
    "$venv/bin/pip" install -q --force-reinstall --no-deps "$work"/dist/u8x-*.whl || return 1
    local out
    out=$(cd "$work" && "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider \
        "$root/bindings/python/tests/test_cpython_codecs.py" 2>&1)
    local rc=$?
    printf '%s\n' "$out" | grep -E 'SKIPPED|passed|failed' | sed 's/^/| test_codecs: /'
    ((rc == 0)) || { printf '%s\n' "$out" | tail -n 30; return 1; }
    out=$(cd "$work" && "$venv/bin/python" -m pytest -q -p no:cacheprovider \
        --ignore="$root/bindings/python/tests/test_cpython_codecs.py" "$root/bindings/python/tests" 2>&1)
    rc=$?
    printf '%s\n' "$out" | tail -n 1 | sed 's/^/| oracle suite: /'
    ((rc == 0)) || { printf '%s\n' "$out" | tail -n 30; return 1; }
}
if [[ ! -x $py ]]; then
    skip "CPython" "no $py (set U8X_PYTHON)"
elif ! "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    skip "CPython" "$py has no venv/ensurepip (apt-get install python3-venv)"
elif [[ ! -f $("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h ]]; then
    skip "CPython" "no Python.h for $py (apt-get install python3-dev)"
elif ! "$py" -c 'from test import test_codecs' >/dev/null 2>&1; then
    skip "CPython" "$py has no test suite (apt-get install libpython3.11-testsuite)"
elif ! have cargo; then
    skip "CPython" "no cargo to build the wheel from its sdist"
else
    run "CPython: wheel built from the sdist, test_codecs and the oracle suite" python_tests
fi

# ---------------------------------------------------------------- Lua 5.4
lua_tests() {
    make -s -C "$root/bindings/lua" OUT="$work/lua/u8x" U8X_LIB="$lib" CC="$cc" || return 1
    local out
    out=$(cd "$work" && LUA_CPATH="$work/lua/?.so;;" lua5.4 -e '
        local builtin = utf8
        package.loaded.utf8 = require "u8x.utf8"
        utf8 = package.loaded.utf8
        assert(require "utf8" ~= builtin and utf8.u8x_version)' "$shared/runtimes/lua-5.4.4/utf8.lua" 2>&1)
    local rc=$?
    echo "| utf8.lua (Lua 5.4.4's own, unmodified): $(printf '%s' "$out" | tr '\n' ' ')"
    ((rc == 0)) && [[ $(printf '%s\n' "$out" | tail -n 1) == ok ]] || return 1
    out=$(cd "$work" && LUA_CPATH="$work/lua/?.so;;" lua5.4 "$root/bindings/lua/differential.lua" 100000 2>&1)
    rc=$?
    echo "| against the built-in utf8: $(printf '%s\n' "$out" | tail -n 1)"
    ((rc == 0)) || { printf '%s\n' "$out" | head -n 30; return 1; }
    # The module under AddressSanitizer (the interpreter preloads the
    # runtime): what the comparison cannot see, such as a write past
    # utf8.codepoint's stack buffer.
    local asan
    asan=$("$cc" -print-file-name=libasan.so)
    [[ $asan == /* && -f $asan ]] || { echo "| no libasan.so for $cc"; return 1; }
    make -s -C "$root/bindings/lua" OUT="$work/lua-asan/u8x" U8X_LIB="$lib" CC="$cc" \
        CFLAGS="-O1 -g -fsanitize=address -fno-omit-frame-pointer" || return 1
    out=$(cd "$work" && LD_PRELOAD=$asan ASAN_OPTIONS=detect_leaks=0 \
        LUA_CPATH="$work/lua-asan/?.so;;" lua5.4 "$root/bindings/lua/differential.lua" 20000 2>&1)
    rc=$?
    echo "| under AddressSanitizer: $(printf '%s\n' "$out" | tail -n 1)"
    ((rc == 0)) || { printf '%s\n' "$out" | head -n 30; return 1; }
}
lua_inc=$(pkg-config --cflags-only-I lua5.4 2>/dev/null | sed 's/^-I//; s/ *$//')
if ! have lua5.4; then
    skip "Lua 5.4" "no lua5.4 (apt-get install lua5.4)"
elif [[ ! -f ${lua_inc:-/usr/include/lua5.4}/lua.h ]]; then
    skip "Lua 5.4" "no lua.h (apt-get install liblua5.4-dev)"
elif [[ ! -f $shared/runtimes/lua-5.4.4/utf8.lua ]]; then
    skip "Lua 5.4" "no $shared/runtimes/lua-5.4.4/utf8.lua"
else
    run "Lua 5.4: u8x.utf8 under Lua's utf8.lua and against the built-in" lua_tests
fi

# ---------------------------------------------------------------- JVM
jvm_tests() {
    local home out=$work/jvm
    home=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    mkdir -p "$out"
    $cc -O2 -fPIC -shared -std=c99 -Wall -Wextra -Wno-unused-parameter -Werror \
        -I"$home/include" -I"$home/include/linux" -I"$root/include" \
        "$root/bindings/java/u8x_jni.c" "$lib" -Wl,--exclude-libs,ALL -o "$out/libu8xjni.so" &&
        javac -Xlint:all -Werror -d "$out" "$root/bindings/java/MutfCheck.java" &&
        java -Xcheck:jni -Djava.library.path="$out" -cp "$out" MutfCheck | sed 's/^/| /'
}
if ! have javac || ! have java; then
    skip "JVM" "no JDK (apt-get install openjdk-17-jdk-headless)"
else
    run "JVM: Modified UTF-8 against writeUTF, readUTF and JNI" jvm_tests
fi

say "$passed passed, $failed failed, $skipped skipped"
[[ $failed == 0 ]]
