#!/usr/bin/env bash
# The u8x CLI against the tools people use for the same jobs, and against the
# library it wraps, on one large mixed-script file.
#
# Measures (best of RUNS wall-clock runs, page cache warm, output to /dev/null):
#   u8x check [-j 1|-j 2|-q], isutf8 [-q], iconv and uconv UTF-8 -> UTF-8,
#   Python's bytes.decode, u8x fix [-j 2], u8x decode/convert to UTF-16LE and
#   u8x encode from UTF-16LE; check and isutf8 also on a file with one bad
#   byte at 90%, fix on a file with one bad byte per MiB. Each row gives the
#   seconds, GB/s of input (1 GB = 1e9 bytes), the time relative to
#   `u8x check` and to the library's validate, and the peak RSS. Then the
#   library's own speed (cli/examples/library_speed.rs) and the CLI/library
#   and u8x/isutf8 speed ratios with their targets.
#
# Run from anywhere:  benches/cli-peers.sh
# Environment: SIZE_MB (test file size, default 1600 = 1.6 GB), RUNS (default
#   5), FILE (default /tmp/u8x-cli-bench.txt; variants are written beside it),
#   U8X (a u8x binary to use instead of building one), CARGO_TARGET_DIR.
# Installs, as root, only what is missing: moreutils (isutf8), icu-devtools
#   (uconv), libc-bin (iconv), python3, time (/usr/bin/time), via apt-get.
# A command exiting with status 2 or more (an option this u8x lacks, say) is
# shown as "unsupported"; status 1 (invalid input) is a normal result.
# Reading the numbers: isutf8 and iconv mmap the whole input, so their RSS
# includes the file's page-cache pages; writes to /dev/null copy nothing, so
# `u8x fix` can beat the library's fix, which copies into a buffer.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SIZE_MB=${SIZE_MB:-1600}
RUNS=${RUNS:-5}
FILE=${FILE:-/tmp/u8x-cli-bench.txt}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
BAD="${FILE%.txt}-invalid.txt" FIXME="${FILE%.txt}-errors.txt" F16="${FILE%.txt}.utf16le"
LIPSUM="$ROOT/../shared/corpus/lipsum"

echo "CPU: $(lscpu | grep 'Model name' | sed 's/.*: *//'), $(nproc) cores"

# --- Peers -------------------------------------------------------------------
missing=()
command -v isutf8 >/dev/null || missing+=(moreutils)
command -v uconv >/dev/null || missing+=(icu-devtools)
command -v iconv >/dev/null || missing+=(libc-bin)
command -v python3 >/dev/null || missing+=(python3)
[[ -x /usr/bin/time ]] || missing+=(time)
if ((${#missing[@]})); then
    echo "Installing ${missing[*]}..."
    start=$SECONDS
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    echo "Installed in $((SECONDS - start)) s"
fi

# --- Build -------------------------------------------------------------------
(cd "$ROOT" && CARGO_TARGET_DIR=$TARGET cargo build -q --release -p u8x-cli --example library_speed)
if [[ -z ${U8X:-} ]]; then
    (cd "$ROOT" && CARGO_TARGET_DIR=$TARGET cargo build -q --release -p u8x-cli)
    U8X=$TARGET/release/u8x
fi
LIBSPEED=$TARGET/release/examples/library_speed
echo "u8x: $U8X ($("$U8X" --version 2>/dev/null || echo '?'))"

# --- Test files --------------------------------------------------------------
# One block: ~845 kB, ~45% non-ASCII bytes; the file repeats it SIZE_MB MB.
python3 - "$LIPSUM" "$SIZE_MB" "$FILE" "$BAD" "$FIXME" <<'EOF'
import os, sys
lipsum, size_mb, path, bad, fixme = sys.argv[1:]
names = "Latin Russian Latin Chinese Latin Arabic Hindi Latin Emoji Latin".split()
block = b"".join(open(f"{lipsum}/{n}-Lipsum.utf8.txt", "rb").read() for n in names)
count = max(1, round(int(size_mb) * 10**6 / len(block)))
size = count * len(block)
def write(p, bad_at):
    if os.path.exists(p) and os.path.getsize(p) == size:  # Reuse if it matches.
        with open(p, "rb") as f:
            if f.read(len(block)) == block and all(
                (f.seek(o), f.read(1))[1] == b"\xff" for o in bad_at):
                return
    with open(p, "wb") as f:
        for _ in range(count): f.write(block)
        for o in bad_at: f.seek(o); f.write(b"\xff")
write(path, [])
write(bad, [size * 9 // 10])
write(fixme, range(1 << 20, size, 1 << 20))
non_ascii = sum(b >= 0x80 for b in block) / len(block)
print(f"File: {path}, {size:,} bytes ({count} blocks of {len(block):,}), {non_ascii:.1%} non-ASCII")
EOF
[[ -s $F16 && $F16 -nt $FILE ]] || iconv -f UTF-8 -t UTF-16LE "$FILE" >"$F16"
for f in "$FILE" "$BAD" "$FIXME" "$F16"; do cat "$f" >/dev/null; done

# --- Library -----------------------------------------------------------------
declare -A LIB
echo
"$LIBSPEED" "$FILE" | tee "${FILE%.txt}-library.txt"
while read -r _ op secs _; do LIB[$op]=$secs; done <"${FILE%.txt}-library.txt"

# --- Commands ----------------------------------------------------------------
# measure RUNS CMD...: best wall time of RUNS runs (stdout to /dev/null), the
# peak RSS over them (from wait4, which counts the forked Python before exec:
# a floor of ~13 MiB; the /usr/bin/time section at the end has exact figures),
# and the exit status of the last run.
MEASURE=$(mktemp)
trap 'rm -f "$MEASURE"' EXIT
cat >"$MEASURE" <<'EOF'
import os, subprocess, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
best, rss, status = float("inf"), 0, 0
for _ in range(runs):
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, st, ru = os.wait4(p.pid, 0)
    best, rss = min(best, time.perf_counter() - start), max(rss, ru.ru_maxrss)
    status = os.waitstatus_to_exitcode(st)
    if status >= 2 or status < 0: break
print(f"{best:.4f} {rss // 1024} {status}")
EOF

declare -A T
printf '\n%-44s %8s %7s %8s %8s %8s %5s\n' command seconds GB/s x-check x-lib RSS-MiB exit
row() { # row NAME INPUT CMD...: time CMD, INPUT being the file it reads.
    local name=$1 input=$2 secs rss status
    shift 2
    read -r secs rss status < <(python3 "$MEASURE" "$RUNS" "$@")
    if ((status >= 2 || status < 0)); then
        printf '%-44s %8s (exit %s)\n' "$name" unsupported "$status"
        return
    fi
    T[$name]=$secs
    awk -v n="$name" -v s="$secs" -v b="$(stat -c %s "$input")" -v c="${T[u8x check]:-}" \
        -v l="${LIB[validate]}" -v r="$rss" -v e="$status" \
        'BEGIN { printf "%-44s %8.4f %7.2f %8s %8.2f %8d %5d\n", n, s, b / s / 1e9, c ? sprintf("%.2f", s / c) : "-", s / l, r, e }'
}
row "u8x check" "$FILE" "$U8X" check "$FILE"
row "u8x check -j 1" "$FILE" "$U8X" check -j 1 "$FILE"
row "u8x check -j 2" "$FILE" "$U8X" check -j 2 "$FILE"
row "u8x check -q" "$FILE" "$U8X" check -q "$FILE"
row "isutf8" "$FILE" isutf8 "$FILE"
isutf8 --help 2>&1 | grep -q -- --quiet && row "isutf8 -q" "$FILE" isutf8 -q "$FILE"
row "iconv -f UTF-8 -t UTF-8" "$FILE" iconv -f UTF-8 -t UTF-8 "$FILE"
row "uconv -f UTF-8 -t UTF-8" "$FILE" uconv -f UTF-8 -t UTF-8 "$FILE"
row "python3 bytes.decode('utf-8')" "$FILE" python3 -c \
    "import sys; open(sys.argv[1], 'rb').read().decode('utf-8')" "$FILE"
row "u8x check (invalid at 90%)" "$BAD" "$U8X" check "$BAD"
row "isutf8 (invalid at 90%)" "$BAD" isutf8 "$BAD"
row "u8x fix" "$FILE" "$U8X" fix "$FILE"
row "u8x fix -j 2" "$FILE" "$U8X" fix -j 2 "$FILE"
row "u8x fix -j 1" "$FILE" "$U8X" fix -j 1 "$FILE"
row "u8x fix (1 error/MiB)" "$FIXME" "$U8X" fix "$FIXME"
row "u8x decode --to utf-16le" "$FILE" "$U8X" decode --to utf-16le "$FILE"
row "u8x decode --to utf-16le --policy replace" "$FILE" \
    "$U8X" decode --to utf-16le --policy replace "$FILE"
row "u8x convert --from utf-8 --to utf-16le" "$FILE" "$U8X" convert --from utf-8 --to utf-16le "$FILE"
row "iconv -f UTF-8 -t UTF-16LE" "$FILE" iconv -f UTF-8 -t UTF-16LE "$FILE"
row "u8x encode --from utf-16le (UTF-16LE file)" "$F16" "$U8X" encode --from utf-16le "$F16"

# --- Targets -----------------------------------------------------------------
# Speed ratios on the same input: the reference's seconds over u8x's.
ratio() { # ratio LABEL REFERENCE-SECONDS U8X-SECONDS TARGET
    if [[ -z $2 || -z $3 ]]; then printf '%-36s %8s\n' "$1" "n/a"; return; fi
    awk -v l="$1" -v a="$2" -v b="$3" -v t="$4" \
        'BEGIN { r = a / b; printf "%-36s %8.2f  (target >= %s: %s)\n", l, r, t, (r >= t ? "met" : "NOT met") }'
}
echo
ratio "u8x check / library validate" "${LIB[validate]}" "${T[u8x check]:-}" 0.8
ratio "u8x check / isutf8" "${T[isutf8]:-}" "${T[u8x check]:-}" 5
ratio "u8x fix / library fix" "${LIB[fix]}" "${T[u8x fix]:-}" 0.8
# (The library's decode uses the replace policy; strict also keeps lines.)
ratio "u8x decode strict / library decode-utf16le" "${LIB[decode-utf16le]}" \
    "${T[u8x decode --to utf-16le]:-}" 0.8
ratio "u8x decode replace / library decode-utf16le" "${LIB[decode-utf16le]}" \
    "${T[u8x decode --to utf-16le --policy replace]:-}" 0.8
ratio "u8x encode / library encode-utf16le" "${LIB[encode-utf16le]}" \
    "${T[u8x encode --from utf-16le (UTF-16LE file)]:-}" 0.8

# --- Peak memory, as /usr/bin/time reports it ------------------------------
echo
peak() { # peak LABEL CMD...
    local kb
    kb=$(/usr/bin/time -f %M "${@:2}" 2>&1 >/dev/null | tail -n 1) || true  # status 1: invalid
    printf 'peak RSS of %-28s %8s kB\n' "$1" "$kb"
}
peak "u8x check" "$U8X" check "$FILE"
peak "isutf8" isutf8 "$FILE"
peak "u8x check (invalid at 90%)" "$U8X" check "$BAD"
peak "isutf8 (invalid at 90%)" isutf8 "$BAD"
