#!/usr/bin/env bash
# Installs u8x into a scratch DESTDIR (`make install`) and builds and runs,
# against that install only, every way a user takes it in:
#   - a C program through `pkg-config --cflags --libs u8x` (shared; the
#     program must find libu8x.so.ABI through its SONAME), and `--static`
#     (libu8x.a in a dynamic program, and a fully static program);
#   - a C++ program through pkg-config;
#   - CMake projects with find_package(u8x 0.1 REQUIRED), linking u8x::u8x
#     and u8x::u8x_static, and find_package refusing versions it must refuse;
#   - CMake projects taking the checkout as a subproject (add_subdirectory,
#     FetchContent from a directory and from a git URL), the same two
#     targets, and the parent's `cmake --install` installing what
#     `make install` does;
#   - a C program linking libu8x.a beside a second Rust static library;
#   - the examples/ programs, built with pkg-config's flags;
#   - the installed u8x command;
#   - the Python extension, pip-installed, linked with the installed libu8x.a.
# Each prints one line. A consumer whose tool is missing (cmake, pkg-config,
# c++, pip, ninja, git) is skipped, saying so; with U8X_CONSUMERS_STRICT=1
# (.ci/run sets it) a skip is a failure.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/consumers
work=$root/target/consumers
destdir=$work/destdir
prefix=/opt/u8x
libdir=$prefix/lib
strict=${U8X_CONSUMERS_STRICT:-0}
cc=${CC:-cc}
cxx=${CXX:-c++}
passed=0
failed=0
skipped=0

# Every line also goes to $work/summary.txt, which .ci/run prints (cargo
# test shows a passing test's output only on failure).
say() { printf 'consumers: %s\n' "$*" | tee -a "$work/summary.txt"; }
pass() { passed=$((passed + 1)); say "ok      $1"; }
fail() { failed=$((failed + 1)); say "FAILED  $1"; }
skip() {
    skipped=$((skipped + 1))
    if [[ $strict == 1 ]]; then fail "$1 (skipped: $2)"; else say "skipped $1: $2"; fi
}
# run NAME COMMAND...: one consumer step; its output is shown only on failure.
run() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then pass "$name"; else
        fail "$name"
        printf '%s\n' "$out" | tail -n 30 | sed 's/^/    /'
    fi
}
have() { command -v "$1" >/dev/null 2>&1; }

rm -rf "$destdir" "$work/build" "$work/summary.txt"
mkdir -p "$work/build"
if ! make -s -C "$root" install DESTDIR="$destdir" PREFIX="$prefix" >"$work/install.log" 2>&1; then
    cat "$work/install.log"
    say "FAILED  make install"
    exit 1
fi
say "installed into DESTDIR=$destdir PREFIX=$prefix:"
(cd "$destdir" && find . -mindepth 1 | sort | sed 's/^/    /')

lib=$destdir$libdir
bin=$work/build
soname_of() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
needed_of() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

check_layout() {
    local f
    for f in "$libdir/libu8x.a" "$libdir/libu8x.so" "$prefix/include/u8x.h" "$prefix/bin/u8x" \
        "$libdir/libu8x-libc.so" "$prefix/include/u8x_posix.h" \
        "$libdir/pkgconfig/u8x.pc" "$libdir/cmake/u8x/u8xConfig.cmake" \
        "$libdir/cmake/u8x/u8xConfigVersion.cmake" "$prefix/share/man/man1/u8x.1" \
        "$prefix/share/man/man1/u8x-check.1" "$prefix/share/bash-completion/completions/u8x" \
        "$prefix/share/zsh/site-functions/_u8x" \
        "$prefix/share/fish/vendor_completions.d/u8x.fish"; do
        [[ -e $destdir$f ]] || { echo "missing $f"; return 1; }
    done
    local real soname
    real=$(cd "$lib" && ls libu8x.so.*.*.*)
    soname=$(soname_of "$lib/$real")
    echo "real name $real, SONAME $soname"
    [[ $soname == libu8x.so.[0-9]* && -L $lib/$soname && $(readlink "$lib/$soname") == "$real" ]] &&
        [[ $(readlink "$lib/libu8x.so") == "$soname" ]]
}
run "install layout, SONAME and links" check_layout

# A program linked against the shared library needs libu8x.so.ABI (the
# SONAME, not the dev link) and the loader finds that file.
check_shared_program() {
    # (Output captured before matching: `grep -q` in a pipeline can stop
    # reading early, and pipefail would count the writer's SIGPIPE.)
    local exe=$1 soname needed loaded
    soname=$(soname_of "$(readlink -f "$lib/libu8x.so")")
    needed=$(needed_of "$exe")
    grep -qx "$soname" <<<"$needed" || { echo "NEEDED: $needed"; return 1; }
    loaded=$(LD_LIBRARY_PATH=$lib ldd "$exe")
    grep -qF "$soname => $lib/$soname" <<<"$loaded" || { echo "$loaded"; return 1; }
    LD_LIBRARY_PATH=$lib "$exe"
}
# A program linked with libu8x.a has no libu8x NEEDED entry.
check_static_program() {
    local exe=$1 needed
    needed=$(needed_of "$exe")
    if grep -q u8x <<<"$needed"; then echo "NEEDED: $needed"; return 1; fi
    "$exe"
}

if have pkg-config; then
    export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$destdir
    cflags=$(pkg-config --cflags u8x) libs=$(pkg-config --libs u8x)
    static_libs=$(pkg-config --static --libs u8x)
    say "pkg-config: version $(pkg-config --modversion u8x); cflags '$cflags'; libs '$libs'; static '$static_libs'"
    # Word splitting of the flags is intended below.
    # shellcheck disable=SC2086
    pc_shared() {
        $cc -std=c99 -Wall -Wextra -Wpedantic -Werror "$here/consumer.c" $cflags $libs \
            -o "$bin/pc-shared" && check_shared_program "$bin/pc-shared"
    }
    # shellcheck disable=SC2086
    pc_static() {
        $cc -std=c99 -Wall -Werror "$here/consumer.c" $cflags -Wl,-Bstatic $static_libs \
            -Wl,-Bdynamic -o "$bin/pc-static" && check_static_program "$bin/pc-static"
    }
    # shellcheck disable=SC2086
    pc_fully_static() {
        $cc -std=c99 -Os -static "$here/consumer.c" $cflags $static_libs \
            -o "$bin/pc-fully-static" && "$bin/pc-fully-static" &&
            echo "static hello-world: $(stat -c %s "$bin/pc-fully-static") bytes"
    }
    # shellcheck disable=SC2086
    pc_cpp() {
        $cxx -std=c++17 -Wall -Wextra -Wpedantic -Werror "$here/consumer.cpp" $cflags $libs \
            -o "$bin/pc-cpp" && check_shared_program "$bin/pc-cpp"
    }
    # The preload library, found through pkg-config's `preload` variable.
    pc_preload() {
        local so n_wo n_wi
        so=$(pkg-config --variable=preload u8x) # (the sysroot prefixed)
        [[ -f $so ]] || { echo "preload=$so: no such file"; return 1; }
        n_wo=$(printf 'a\xc3\xa9\xf4\x90\x80\x80z' | LC_ALL=C.UTF-8 wc -m)
        n_wi=$(printf 'a\xc3\xa9\xf4\x90\x80\x80z' | LC_ALL=C.UTF-8 LD_PRELOAD=$so wc -m)
        echo "wc -m: $n_wo with glibc, $n_wi with $so"
        [[ $n_wi == 3 ]] # RFC 3629: F4 90 80 80 is not a character
    }
    run "pkg-config, shared" pc_shared
    run "pkg-config --variable=preload, LD_PRELOAD" pc_preload
    run "pkg-config --static, libu8x.a in a dynamic program" pc_static
    run "pkg-config --static, fully static program" pc_fully_static
    if have "$cxx"; then run "C++17 through pkg-config" pc_cpp; else skip "C++17 through pkg-config" "no $cxx"; fi
    if [[ -f $root/examples/run.sh ]]; then
        run "examples/ with pkg-config's flags" env U8X_CFLAGS="$cflags" \
            U8X_LIBS="$libs -Wl,-rpath,$lib" CC="$cc" bash "$root/examples/run.sh"
    fi
    unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
else
    skip "pkg-config consumers" "pkg-config is not installed"
fi

if have cmake; then
    cmake_project() { # NAME TARGET WANT [INSTALL TREE]
        cmake -S "$here/cmake" -B "$bin/cmake-$1" -DCMAKE_PREFIX_PATH="${4:-$destdir$prefix}" \
            -DU8X_TARGET="$2" -DU8X_WANT="$3" -DCMAKE_BUILD_TYPE=Release &&
            cmake --build "$bin/cmake-$1"
    }
    check_cmake_shared() {
        cmake_project shared u8x::u8x 0.1 && check_shared_program "$bin/cmake-shared/consumer" &&
            check_shared_program "$bin/cmake-shared/consumer_cpp"
    }
    check_cmake_static() {
        cmake_project static u8x::u8x_static 0.1 && check_static_program "$bin/cmake-static/consumer" &&
            check_static_program "$bin/cmake-static/consumer_cpp"
    }
    check_cmake_refuses() {
        local want
        for want in 0.2 1.0; do
            if cmake_project "want-$want" u8x::u8x "$want" >"$bin/cmake-want-$want.log" 2>&1; then
                echo "find_package(u8x $want) accepted version 0.1"
                return 1
            fi
            grep -q "compatible.*requested version" <(tr -s " \n" " " <"$bin/cmake-want-$want.log") ||
                { cat "$bin/cmake-want-$want.log"; return 1; }
        done
    }
    run "CMake find_package(u8x 0.1), u8x::u8x" check_cmake_shared
    run "CMake find_package(u8x 0.1), u8x::u8x_static" check_cmake_static
    run "CMake refuses u8x 0.2 and 1.0 (SameMajorVersion)" check_cmake_refuses
else
    skip "CMake consumers" "cmake is not installed"
fi

# The checkout as a CMake subproject (CMakeLists.txt, cmake/), the way
# tests/consumers/subproject/ takes it: add_subdirectory (Ninja), FetchContent
# from SOURCE_DIR (Unix Makefiles, a C-only project) and from a git URL (a
# scratch commit of the tree). Every way shares target/ with `make install`
# above (U8X_CARGO_TARGET_DIR), so cargo finds the library built and builds
# nothing again. The programs run from the build tree (its RUNPATH finds
# libu8x.so.ABI).
if have cmake && have git; then
    subproject_configure() { # WAY GENERATOR LANGUAGES SOURCE [CMAKE ARGUMENTS]
        local way=$1 generator=$2 languages=$3 source=$4
        shift 4
        cmake -S "$here/subproject" -B "$bin/sub-$way" -G "$generator" -DU8X_HOW="$way" \
            -DU8X_SOURCE="$source" -DU8X_LANGUAGES="$languages" \
            -DU8X_CARGO_TARGET_DIR="$root/target" "$@"
    }
    subproject_build() { # WAY
        cmake --build "$bin/sub-$1" && check_subproject_programs "$bin/sub-$1"
    }
    subproject() { subproject_configure "$@" && subproject_build "$1"; }
    # The shared programs need libu8x.so.ABI and find it without
    # LD_LIBRARY_PATH; the static ones need no libu8x at all.
    check_subproject_programs() {
        local dir=$1 exe needed
        for exe in consumer consumer_cpp; do
            [[ -x $dir/$exe ]] || continue
            needed=$(needed_of "$dir/$exe")
            grep -qx "libu8x.so.[0-9]*" <<<"$needed" || { echo "$exe NEEDED: $needed"; return 1; }
            "$dir/$exe" || return 1
        done
        for exe in consumer_static consumer_cpp_static; do
            [[ -x $dir/$exe ]] || continue
            check_static_program "$dir/$exe" || return 1
        done
    }
    # A second build runs cargo (rebuilding is its job) and relinks nothing.
    check_subproject_rebuild() {
        local out
        out=$(cmake --build "$bin/sub-subdirectory" 2>&1) || { echo "$out"; return 1; }
        echo "$out"
        [[ $out == *"Finished"* && $out != *Linking* ]]
    }
    # The parent's `cmake --install` installs what `make install` did, byte
    # for byte (the parent's own program aside), and find_package(u8x) and
    # the installed program work from that tree.
    check_subproject_install() {
        local tree=$work/sub-destdir f mine
        rm -rf "$tree"
        DESTDIR=$tree cmake --install "$bin/sub-subdirectory" --prefix "$prefix" >/dev/null || return 1
        LD_LIBRARY_PATH=$tree$libdir "$tree$prefix/bin/consumer" || return 1
        rm "$tree$prefix/bin/consumer"
        listing() { (cd "$1" && find . -printf '%p %y %m %l\n' | sort); }
        mine=$(listing "$tree")
        diff <(listing "$destdir") <(printf '%s\n' "$mine") || return 1
        while IFS= read -r f; do
            cmp "$destdir/$f" "$tree/$f" || return 1
        done < <(cd "$destdir" && find . -type f)
        cmake_project sub-shared u8x::u8x 0.1 "$tree$prefix" >/dev/null &&
            LD_LIBRARY_PATH=$tree$libdir "$bin/cmake-sub-shared/consumer" &&
            cmake_project sub-static u8x::u8x_static 0.1 "$tree$prefix" >/dev/null &&
            check_static_program "$bin/cmake-sub-static/consumer" &&
            check_static_program "$bin/cmake-sub-static/consumer_cpp"
    }
    # A scratch repository holding one commit of the tree as it is (changes
    # not yet committed included), for GIT_REPOSITORY file://. The clone
    # is built outside the tree: cargo reads the .cargo/config.toml of every
    # directory above it, and the tree's own twice would change RUSTFLAGS.
    check_subproject_git() {
        local scratch repo status bin # (bin: where subproject builds)
        scratch=$(mktemp -d) || return 1
        bin=$scratch
        repo=$scratch/u8x-git
        mkdir "$repo" || return 1
        if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
            (cd "$root" && git ls-files -z --cached --others --exclude-standard |
                while IFS= read -r -d '' f; do
                    if [[ -e $f || -L $f ]]; then printf '%s\0' "$f"; fi # (not deleted)
                done | tar --null -T - -c | tar -x -C "$repo")
        else
            (cd "$root" && tar -c --exclude=./target --exclude=./fuzz/target .) | tar -x -C "$repo"
        fi
        git -C "$repo" init -q && git -C "$repo" add -A &&
            git -C "$repo" -c user.name=u8x -c user.email=u8x@localhost commit -q -m snapshot &&
            subproject_configure fetch-git "Unix Makefiles" "C;CXX" "file://$repo" \
                -DU8X_GIT_TAG="$(git -C "$repo" rev-parse HEAD)" &&
            # The clone is the tree: its files dated before target/'s build
            # (cargo goes by mtime), cargo reuses that build.
            find "$bin/sub-fetch-git/_deps/u8x-src" -path '*/.git' -prune -o \
                -exec touch -h -d 2000-01-01 {} + &&
            subproject_build fetch-git
        status=$?
        rm -rf "$scratch"
        return $status
    }
    if have ninja; then
        run "CMake add_subdirectory, u8x::u8x and u8x::u8x_static (Ninja)" \
            subproject subdirectory Ninja "C;CXX" "$root" -DU8X_CLI=ON
        run "CMake add_subdirectory: a second build relinks nothing" check_subproject_rebuild
        run "CMake subproject's cmake --install = make install, find_package" check_subproject_install
    else
        skip "CMake add_subdirectory (Ninja), its cmake --install" "ninja is not installed (ninja-build)"
    fi
    run "CMake FetchContent SOURCE_DIR, C-only project (Unix Makefiles)" \
        subproject fetch-source "Unix Makefiles" C "$root"
    run "CMake FetchContent GIT_REPOSITORY file://, u8x::u8x and u8x::u8x_static" check_subproject_git
else
    skip "CMake subproject consumers" "cmake or git is not installed"
fi

check_two_rust_libs() {
    cargo build -q --release --manifest-path "$here/other-rust/Cargo.toml" \
        --target-dir "$work/other-rust" &&
        $cc -std=c99 -Wall -Werror -I"$destdir$prefix/include" "$here/two_rust_libs.c" \
            "$lib/libu8x.a" "$work/other-rust/release/libother_rust.a" -lpthread -ldl -lm \
            -o "$bin/two-rust-libs" &&
        "$bin/two-rust-libs"
}
run "libu8x.a beside another Rust static library" check_two_rust_libs

check_cli() {
    local u8x=$destdir$prefix/bin/u8x
    "$u8x" check "$root"/../shared/corpus/lipsum/* 2>/dev/null || "$u8x" check "$root/README.md" || return 1
    if "$u8x" check -q "$root/tests/data/UTF-8-test.txt"; then
        echo "u8x check accepted Kuhn's stress test"
        return 1
    fi
}
run "installed u8x command" check_cli

# The installed man page is found by man(1) through MANPATH, and the bash
# completion loads and completes the command's options.
check_docs() {
    local share=$destdir$prefix/share out
    out=$(bash -c 'source "$1" && complete -p u8x && COMP_WORDS=(u8x check --j) COMP_CWORD=2 \
        COMP_LINE="u8x check --j" COMP_POINT=13 && _u8x u8x --j check && echo "${COMPREPLY[@]}"' \
        _ "$share/bash-completion/completions/u8x") || return 1
    echo "$out"
    [[ $out == *--jobs* && $out == *--json* ]] || return 1
    if have man; then
        # (Bold is overstruck: "x\bx"; the sed removes it.)
        out=$(MANPATH=$share/man man -Tutf8 u8x-check 2>&1 | sed 's/.\x08//g') || return 1
        [[ $out == *--jobs* ]] || { echo "$out" | head; return 1; }
    fi
}
run "installed man pages and bash completion" check_docs

# The Python extension linked against the installed libu8x.a (setup.py's
# U8X_STATIC_LIB) rather than built from the sources; its test suite runs
# in tests/runtimes/run.sh.
if python3 -m pip --version >/dev/null 2>&1 && [[ -d $root/bindings/python ]]; then
    check_python() {
        rm -rf "$work/python"
        U8X_STATIC_LIB=$lib/libu8x.a U8X_INCLUDE_DIR=$destdir$prefix/include \
            python3 -m pip install -q --no-deps --target "$work/python" "$root/bindings/python" &&
            (cd "$work" && PYTHONPATH="$work/python" python3 -c '
import u8x
assert u8x.decode(b"caf\xc3\xa9") == "caf\xe9" and b"\xff".decode("u8x", "replace") == "\ufffd"
print("python: u8x", u8x.library_version, "on", u8x.tier())')
    }
    run "Python extension linked with the installed libu8x.a" check_python
else
    skip "Python extension" "pip is not installed (python3-pip)"
fi

check_uninstall() {
    make -s -C "$root" uninstall DESTDIR="$destdir" PREFIX="$prefix" || return 1
    local left
    left=$(find "$destdir" ! -type d)
    [[ -z $left ]] || { echo "left behind: $left"; return 1; }
}
run "make uninstall removes every file" check_uninstall

say "$passed passed, $failed failed, $skipped skipped"
[[ $failed == 0 ]]
