#!/usr/bin/env bash
# The preload library (libu8x-libc.so, preload/) against glibc:
#   1. its exports: exactly preload/exports.map's names, NEEDED libc only;
#   2. glibc 2.36's own multibyte tests (from Debian's glibc-source tarball,
#      extracted into target/preload/ at test time, built against the
#      stand-in for glibc's support/ in tests/preload/glibc-support/) and
#      gnulib's (Debian's gnulib package), run in C.UTF-8 and in
#      de_DE.ISO-8859-1, each once without and once with LD_PRELOAD: the
#      verdicts must be the same, but for the expectations listed in
#      expected_changes below (the RFC 3629 decisions, preload/README.md),
#      which must change as listed;
#   3. the differential test (differential.c), by dlopen and again under
#      LD_PRELOAD;
#   4. real programs: wc -m and column -t on ../shared/corpus, byte for byte
#      the same output with and without the preload, and on Kuhn's file the
#      count RFC 3629 gives; that they call mbrtowc per character (ltrace);
#   5. threads with NULL states, locale switches, setlocale after load
#      (threads.c); a fortified program (fortified.c); u8x_posix.h in a
#      rebuilt program (posix_header.c).
# Each step prints one line. A missing tool or package (glibc-source,
# gnulib, localedef and the locales' sources, ltrace, column) is a skip,
# saying so, unless U8X_CONSUMERS_STRICT=1 (.ci/run sets it): then a failure.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/preload
target_dir=${CARGO_TARGET_DIR:-target}
[[ $target_dir == /* ]] || target_dir=$root/$target_dir
work=$target_dir/preload
stage=$target_dir/capi/stage
preload=$stage/lib/libu8x-libc.so
strict=${U8X_CONSUMERS_STRICT:-0}
cc=${CC:-cc}
corpus=$root/../shared/corpus
passed=0
failed=0
skipped=0
mkdir -p "$work"
: >"$work/summary.txt"

say() { printf 'preload: %s\n' "$*" | tee -a "$work/summary.txt"; }
pass() { passed=$((passed + 1)); say "ok      $1"; }
fail() { failed=$((failed + 1)); say "FAILED  $1"; }
skip() {
    skipped=$((skipped + 1))
    if [[ $strict == 1 ]]; then fail "$1 (skipped: $2)"; else say "skipped $1: $2"; fi
}
run() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then
        pass "$name"
        printf '%s\n' "$out" | grep -a '^  ' | head -n 40 | tee -a "$work/summary.txt" >/dev/null
    else
        fail "$name"
        printf '%s\n' "$out" | tail -n 40 | sed 's/^/    /'
    fi
}
have() { command -v "$1" >/dev/null 2>&1; }

if ! make -s -C "$root" lib preload TARGET_DIR="$target_dir" >"$work/make.log" 2>&1; then
    cat "$work/make.log"
    say "FAILED  make preload"
    exit 1
fi

# ---- 1. what the library exports and needs ----------------------------------
check_exports() {
    local want got needed
    want=$(sed -n '/global:/,/local:/p' "$root/preload/exports.map" | tr ' ;' '\n\n' |
        grep -E '^_*[a-z][a-z0-9_]*$' | grep -vx global | sort)
    got=$(nm -D --defined-only "$preload" | awk '{ print $3 }' | sort)
    if [[ $want != "$got" ]]; then
        diff <(echo "$want") <(echo "$got")
        return 1
    fi
    needed=$(readelf -d "$preload" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    echo "  $(grep -c . <<<"$got") names exported, exactly exports.map's; NEEDED: $needed"
    [[ $needed =~ ^(libc\.so\.6 |ld-linux[^ ]* |libdl\.so\.2 )+$ ]]
}
run "exports and dependencies" check_exports

# ---- locales -----------------------------------------------------------------
# Generated once into target/preload/locales (LOCPATH) with localedef from the
# locales package's sources; C.UTF-8 is linked in from the system.
locales=$work/locales
need_locales=(de_DE:UTF-8:de_DE.UTF-8 de_DE:ISO-8859-1:de_DE.ISO-8859-1
    en_US:ANSI_X3.4-1968:en_US.ANSI_X3.4-1968 hr_HR:ISO-8859-2:hr_HR.ISO-8859-2
    ja_JP:EUC-JP:ja_JP.EUC-JP fr_FR:ISO-8859-1:fr_FR fr_FR:UTF-8:fr_FR.UTF-8
    zh_CN:GB18030:zh_CN.GB18030 zh_TW:EUC-TW:zh_TW.EUC-TW zh_HK:BIG5-HKSCS:zh_HK.BIG5-HKSCS)
make_locales() {
    local spec i f n missing=0 c_utf8
    mkdir -p "$locales"
    for spec in "${need_locales[@]}"; do
        IFS=: read -r i f n <<<"$spec"
        [[ -f $locales/$n/LC_CTYPE ]] && continue
        localedef -c -i "$i" -f "$f" "$locales/$n" >/dev/null 2>&1 &
    done
    wait
    ln -sfn ja_JP.EUC-JP "$locales/ja_JP"
    c_utf8=$(ls -d /usr/lib/locale/C.utf8 /usr/lib/locale/C.UTF-8 2>/dev/null | head -n 1)
    [[ -n $c_utf8 ]] && ln -sfn "$c_utf8" "$locales/C.utf8"
    for spec in "${need_locales[@]}" x:x:C.utf8; do
        n=${spec##*:}
        [[ -f $locales/$n/LC_CTYPE ]] || { echo "locale $n could not be made"; missing=1; }
    done
    return $missing
}
if have localedef && [[ -d /usr/share/i18n/locales ]]; then
    run "locales generated (LOCPATH=$locales)" make_locales
    have_locales=1
else
    skip "locales" "localedef or /usr/share/i18n/locales missing (apt-get install locales)"
    have_locales=0
fi
export LOCPATH=$locales

# A verdict: pass, fail (status N), unsupported (77), or crash (signal).
verdict() {
    local status=$1
    case $status in
        0) echo pass ;;
        77) echo unsupported ;;
        124) echo timeout ;;
        1[2-9][0-9]) echo "crash($status)" ;;
        *) echo "fail($status)" ;;
    esac
}

# The glibc and gnulib expectations that change under the preload, as
# "suite test env-locale: verdict-without -> verdict-with: why". Each must
# change exactly so (a fixed expectation that no longer changes is stale).
# None: no test of glibc 2.36 or gnulib probes the points where the preload
# keeps RFC 3629 (preload/README.md, D1-D5; the differential test asserts
# those), and every test's output is byte for byte the same both ways.
expected_changes=()

# compare_suite NAME RESULTS-FILE: every line "test env without with".
compare_suite() {
    local name=$1 file=$2 t env wo wi line n=0 changed=0 bad=0 key
    while read -r t env wo wi; do
        n=$((n + 1))
        key="$name $t $env: $wo -> $wi"
        if [[ $wo == "$wi" ]]; then
            for line in "${expected_changes[@]}"; do
                if [[ $line == "$name $t $env: "* ]]; then
                    echo "expected change did not happen: $line (got $wo both ways)"
                    bad=1
                fi
            done
            continue
        fi
        changed=$((changed + 1))
        local listed=0
        for line in "${expected_changes[@]}"; do [[ $line == "$key:"* ]] && listed=1; done
        if [[ $listed == 0 ]]; then
            echo "verdict changed: $key"
            bad=1
        fi
    done <"$file"
    echo "  $name: $n runs, $((n - changed)) with the same verdict with and without the preload, $changed changed (${#expected_changes[@]} changes expected)"
    awk '{ print $3 }' "$file" | sort | uniq -c | sed "s/^/  $name verdicts without the preload:/"
    return $bad
}

# ---- 2a. glibc's own tests --------------------------------------------------
glibc_tar=/usr/src/glibc/glibc-2.36.tar.xz
glibc_tests=(wcsmbs/tst-mbrtowc wcsmbs/tst-mbrtowc2 wcsmbs/tst-mbsrtowcs wcsmbs/tst-mbstowcs
    wcsmbs/tst-wcrtomb wcsmbs/tst-btowc wcsmbs/tst-c16-surrogate wcsmbs/tst-c16c32-1
    wcsmbs/tst-c32-state wcsmbs/test-mbrtoc8 wcsmbs/test-c8rtomb wcsmbs/wcsmbs-tst1
    localedata/tst-mbswcs1 localedata/tst-mbswcs2 localedata/tst-mbswcs3 localedata/tst-mbswcs4
    localedata/tst-mbswcs5 localedata/tst-mbswcs6)
glibc_suite() {
    local g=$work/glibc t bin env status_wo status_wi
    rm -rf "$g" && mkdir -p "$g/bin"
    # only the test sources, never committed
    tar -xJf "$glibc_tar" -C "$g" --strip-components=1 "${glibc_tests[@]/#/glibc-2.36/}" \
        2>/dev/null || tar -xJf "$glibc_tar" -C "$g" --strip-components=1 \
        $(printf 'glibc-2.36/%s.c ' "${glibc_tests[@]}") || return 1
    cp "$here/glibc-support/test-skeleton.c" "$g/test-skeleton.c"
    : >"$g/results"
    for t in "${glibc_tests[@]}"; do
        bin=$g/bin/$(basename "$t")
        $cc -std=gnu11 -O1 -w -D_GNU_SOURCE -I"$here/glibc-support" "$g/$t.c" -o "$bin" || return 1
        for env in C.UTF-8 de_DE.ISO-8859-1; do
            (cd "$g" && LC_ALL=$env timeout 60 "$bin" >"$bin.$env.without.log" 2>&1)
            status_wo=$?
            (cd "$g" && LC_ALL=$env LD_PRELOAD=$preload timeout 60 "$bin" >"$bin.$env.with.log" 2>&1)
            status_wi=$?
            echo "$(basename "$t") $env $(verdict $status_wo) $(verdict $status_wi)" >>"$g/results"
        done
    done
    compare_suite glibc "$g/results"
}
if [[ -f $glibc_tar && $have_locales == 1 ]]; then
    run "glibc 2.36's multibyte tests, with and without the preload" glibc_suite
else
    skip "glibc 2.36's multibyte tests" "$glibc_tar missing (apt-get install glibc-source) or no locales"
fi

# ---- 2b. gnulib's tests -----------------------------------------------------
gnulib=/usr/share/gnulib/tests
gnulib_tests=(test-mbrtowc test-mbrtoc32 test-mbsrtowcs test-mbsnrtowcs test-wcrtomb test-c32rtomb
    test-wcsrtombs test-wcsnrtombs test-mbsinit test-btowc)
gnulib_suite() {
    local g=$work/gnulib t sh env utf8 status_wo status_wi
    rm -rf "$g" && mkdir -p "$g"
    : >"$g/results"
    for t in "${gnulib_tests[@]}"; do
        $cc -std=gnu11 -O1 -w -I"$here/gnulib-config" -I"$gnulib" "$gnulib/$t.c" -o "$g/$t" || return 1
    done
    # Each test's own scripts say which locale and argument it takes: the
    # ISO-8859-1, UTF-8, EUC-JP, GB18030 and C variants. The UTF-8 one runs
    # in fr_FR.UTF-8 (the test's choice) and C.UTF-8; CHECKER is the hook the
    # scripts give for running the program under something.
    for sh in "$gnulib"/test-{mbrtowc,mbrtoc32,mbsrtowcs,mbsnrtowcs,wcrtomb,c32rtomb,wcsrtombs,wcsnrtombs,mbsinit,btowc}*.sh; do
        [[ $sh == *-w32* ]] && continue
        for utf8 in fr_FR.UTF-8 C.UTF-8; do
            [[ $utf8 == C.UTF-8 ]] && ! grep -q LOCALE_FR_UTF8 "$sh" && continue
            env=$([[ $utf8 == C.UTF-8 ]] && echo C.UTF-8 || echo locale-of-script)
            (cd "$g" && LOCALE_FR=fr_FR LOCALE_FR_UTF8=$utf8 LOCALE_JA=ja_JP LOCALE_ZH_CN=zh_CN.GB18030 \
                srcdir=$gnulib timeout 60 sh "$sh" >"$g/$(basename "$sh").$env.without.log" 2>&1)
            status_wo=$?
            (cd "$g" && LOCALE_FR=fr_FR LOCALE_FR_UTF8=$utf8 LOCALE_JA=ja_JP LOCALE_ZH_CN=zh_CN.GB18030 \
                srcdir=$gnulib CHECKER="env LD_PRELOAD=$preload" timeout 60 sh "$sh" \
                >"$g/$(basename "$sh").$env.with.log" 2>&1)
            status_wi=$?
            echo "$(basename "$sh" .sh) $env $(verdict $status_wo) $(verdict $status_wi)" >>"$g/results"
        done
    done
    compare_suite gnulib "$g/results"
}
if [[ -d $gnulib && -f $gnulib/test-mbrtowc.c && $have_locales == 1 ]]; then
    run "gnulib's multibyte tests, with and without the preload" gnulib_suite
else
    skip "gnulib's multibyte tests" "$gnulib missing (apt-get install gnulib) or no locales"
fi

# ---- 3. differential ----------------------------------------------------------
build() { # NAME SOURCE [FLAGS...]
    local name=$1 src=$2
    shift 2
    $cc -std=gnu11 -O2 -Wall -Wextra -Werror -I"$root/include" -I"$root/c-tests" "$src" "$@" -o "$work/$name"
}
differential() {
    build differential "$here/differential.c" "$stage/lib/libu8x.a" -ldl &&
        "$work/differential" "$preload" | sed 's/^/  /' && [[ ${PIPESTATUS[0]} == 0 ]] &&
        U8X_PRELOAD_QUICK=1 LD_PRELOAD=$preload "$work/differential" "$preload" | tail -n 1 | sed 's/^/  under LD_PRELOAD: /' &&
        [[ ${PIPESTATUS[0]} == 0 ]]
}
run "differential: the preload against glibc, every 1- to 3-byte input" differential

# ---- 4. real programs -------------------------------------------------------------
# calls PROGRAM ARGS: how many times it calls mbrtowc-like functions (ltrace).
calls() {
    LC_ALL=C.UTF-8 ltrace -c -e 'mbrtowc+mbrtoc32+mbrlen+__mbrlen+mbstowcs+mbsrtowcs' "$@" 2>&1 >/dev/null |
        awk '$4 ~ /^[0-9]+$/ && $5 != "total" { n += $4 } END { print n + 0 }'
}
programs() {
    local f out_wo out_wi n files=0 bad=0 want
    [[ -d $corpus/lipsum ]] || { echo "no corpus at $corpus"; return 1; }
    for f in "$corpus"/lipsum/*.txt "$corpus"/kuhn/UTF-8-test.txt; do
        for cmd in "wc -m" "column -t"; do
            # shellcheck disable=SC2086
            out_wo=$(LC_ALL=C.UTF-8 $cmd <"$f" | od -An -tx1) || return 1
            # shellcheck disable=SC2086
            out_wi=$(LC_ALL=C.UTF-8 LD_PRELOAD=$preload $cmd <"$f" | od -An -tx1) || return 1
            if [[ $f == */kuhn/* ]]; then
                # Kuhn's file holds the sequences where glibc and RFC 3629
                # differ (D1): wc -m counts what RFC 3629 decodes.
                if [[ $cmd == "wc -m" ]]; then
                    want=$(python3 -c 'import sys; print(len(open(sys.argv[1], "rb").read().decode("utf-8", "ignore")))' "$f")
                    # shellcheck disable=SC2086
                    n=$(LC_ALL=C.UTF-8 LD_PRELOAD=$preload wc -m <"$f")
                    echo "  Kuhn's file: wc -m $(LC_ALL=C.UTF-8 wc -m <"$f") with glibc, $n with the preload, RFC 3629 (Python's strict decoder): $want"
                    [[ $n == "$want" ]] || bad=1
                fi
                continue
            fi
            files=$((files + 1))
            [[ $out_wo == "$out_wi" ]] || { echo "$cmd $f: outputs differ"; bad=1; }
        done
        # and in a non-UTF-8 locale, forwarded
        [[ $(LC_ALL=de_DE.ISO-8859-1 wc -m <"$f") == $(LC_ALL=de_DE.ISO-8859-1 LD_PRELOAD=$preload wc -m <"$f") ]] ||
            { echo "wc -m in de_DE.ISO-8859-1 differs on $f"; bad=1; }
    done
    echo "  wc -m and column -t: $files outputs byte for byte the same with and without the preload"
    if have ltrace; then
        # (a 4 KB piece: ltrace stops the program at every call)
        head -c 4000 "$corpus/lipsum/Russian-Lipsum.utf8.txt" >"$work/russian-4k.txt"
        want=$(LC_ALL=C.UTF-8 wc -m <"$work/russian-4k.txt")
        n=$(calls wc -m "$work/russian-4k.txt")
        echo "  ltrace: wc -m calls mbrtowc $n times on 4 KB of Russian-Lipsum ($want characters)"
        ((n > want / 2)) || bad=1
        n=$(calls column -t "$work/russian-4k.txt")
        echo "  ltrace: column -t calls mbrtowc and mbstowcs $n times on it"
        ((n > want / 2)) || bad=1
    fi
    return $bad
}
if have column && have wc && have python3; then
    run "wc -m and column -t on the corpus and Kuhn's file" programs
    have ltrace || skip "ltrace: per-character calls of wc and column" "ltrace is not installed"
else
    skip "real programs" "column (bsdextrautils) or python3 missing"
fi

# ---- 5. threads, locales, the rebuild header ----------------------------------------
threads() {
    build threads "$here/threads.c" -lpthread &&
        "$work/threads" glibc | sed 's/^/  /' && [[ ${PIPESTATUS[0]} == 0 ]] &&
        LD_PRELOAD=$preload "$work/threads" preload | sed 's/^/  /' && [[ ${PIPESTATUS[0]} == 0 ]]
}
if [[ $have_locales == 1 ]]; then
    run "threads with NULL states, locale switches, setlocale after load" threads
else
    skip "threads and locale switches" "no de_DE.ISO-8859-1 locale"
fi
# A -D_FORTIFY_SOURCE=2 program: its calls go to the eight _chk entry
# points (nm says so), and each reaches the preload (RFC 3629's EILSEQ).
fortified() {
    local chk verdicts
    $cc -std=gnu11 -O2 -D_FORTIFY_SOURCE=2 -Wall -Werror "$here/fortified.c" -o "$work/fortified" || return 1
    chk=$(nm -D --undefined-only "$work/fortified" | grep -o '__[a-z]*_chk@GLIBC_2.4' | sort | tr '\n' ' ')
    echo "  calls: $chk"
    [[ $(wc -w <<<"$chk") == 8 ]] || return 1
    verdicts=$("$work/fortified" | tr '\n' ' ')
    echo "  glibc:   $verdicts"
    [[ $verdicts != *strict* ]] || return 1
    verdicts=$(LD_PRELOAD=$preload "$work/fortified" | tr '\n' ' ')
    echo "  preload: $verdicts"
    [[ $verdicts != *glibc* ]]
}
run "fortified programs reach the preload's _chk functions" fortified
posix_header() {
    build posix_header "$here/posix_header.c" -I"$stage/include" "$stage/lib/libu8x.a" && "$work/posix_header" | sed 's/^/  /'
}
run "u8x_posix.h in a rebuilt program" posix_header

say "$passed passed, $failed failed, $skipped skipped"
[[ $failed == 0 ]]
