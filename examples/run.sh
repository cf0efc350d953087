#!/usr/bin/env bash
# Builds the examples and checks what they print against Python 3.
#
#   bash examples/run.sh          (from anywhere; after `make`)
#
# Each example is compiled with ${CC:-cc} -std=c99 -Wall -Wextra -Werror,
# $U8X_CFLAGS (default -Iinclude) and $U8X_LIBS (default: the static library
# target/capi/stage/lib/libu8x.a, which needs nothing but libc), once as a
# user would build it and once with a tiny buffer, so that characters are cut by the ends of
# chunks as often as possible. Then each runs on the corpus
# (../shared/corpus: the nine lipsum texts and Kuhn's UTF-8-test.txt, if
# present), tests/data/UTF-8-test.txt and small crafted inputs, and its exit
# status, standard output and standard error are compared with what
# python3 derives on its own:
#   validate_file  the first error's offset from bytes.decode('utf-8'),
#                  line and column (characters) from the decoded prefix,
#                  its kind from the bytes there (Unicode Table 3-7,
#                  cross-checked with Python's reason), named as
#                  u8x_error_name() names it;
#   stream_decode  strict: the valid prefix and the same error; replace:
#                  bytes.decode('utf-8', 'replace').encode('utf-8'), and
#                  the code point counts;
#   mbstowcs       the code points of each valid argument, EILSEQ for the
#                  others; and libc's mbstowcs must agree on the valid ones
#                  (when the system has a UTF-8 locale; glibc accepts some
#                  of the invalid ones, such as F4 90 80 80 as U+110000).
# One line per check; exits 1 if any fails.
set -uo pipefail
cd "$(dirname "$0")/.."

CC=${CC:-cc}
U8X_CFLAGS=${U8X_CFLAGS:--Iinclude}
if [[ -z ${U8X_LIBS:-} && ! -f target/capi/stage/lib/libu8x.a ]]; then
  echo "examples: target/capi/stage/lib/libu8x.a is missing: run make first" >&2
  exit 2
fi
U8X_LIBS=${U8X_LIBS:-target/capi/stage/lib/libu8x.a}
command -v python3 >/dev/null || { echo "examples: python3 is needed for the expectations" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# --- build -------------------------------------------------------------------
# build NAME OUTPUT [FLAGS...]
build() {
  local name=$1 exe=$2
  shift 2
  # shellcheck disable=SC2086 # U8X_CFLAGS and U8X_LIBS are word lists
  if $CC -std=c99 -Wall -Wextra -Werror $U8X_CFLAGS "$@" "examples/$name.c" $U8X_LIBS -o "$exe" 2>"$work/build.log"; then
    echo "build    $(basename "$exe")  ok"
  else
    echo "build    $(basename "$exe")  FAILED"
    sed 's/^/    /' "$work/build.log"
    exit 1
  fi
}
build validate_file "$work/validate_file"
build validate_file "$work/validate_file-chunk1" -DCHUNK_SIZE=1
build stream_decode "$work/stream_decode"
build stream_decode "$work/stream_decode-buf4" -DBUFFER_SIZE=4
build mbstowcs "$work/mbstowcs"

# --- inputs ------------------------------------------------------------------
inputs=()
for f in ../shared/corpus/lipsum/*.txt ../shared/corpus/kuhn/UTF-8-test.txt; do
  [[ -f $f ]] && inputs+=("$f")
done
((${#inputs[@]})) || echo "note: ../shared/corpus not found, corpus inputs skipped"
inputs+=(tests/data/UTF-8-test.txt)

mkdir -p "$work/in"
python3 - "$work/in" <<'EOF'
import sys
crafted = {
    "empty": b"",
    "ascii": b"plain ASCII\n",
    "mixed": "h\u00e9llo \u20ac \U0001F600 \ufeff end\n".encode(),
    "overlong": "line 1\nline 2\n\u00e9t\u00e9 ".encode() + b"\xc0\xaf after",
    "overlong-e0": b"abc\n\xe0\x80\x80",
    "overlong-f0": "\u20ac\u20ac".encode() + b"\xf0\x80\x80\x80",
    "surrogate": "\U0001F600\n\n".encode() + b"x\xed\xa0\x80y",
    "above-max": b"caf\xc3\xa9 \xf4\x90\x80\x80",
    "continuation": b"\n\n\n  \x80",
    "invalid-byte": b"tab\there \xff",
    "truncated": b"ab\xe2\x82x\n",
    "truncated-4": b"\xf0\x9f\x98 \xf0\x9f",
    "cut-at-end": "\u00e9\u00e9".encode() + b"\xe2\x82",
    "cut-at-end-4": b"\xf0\x9f\x98",
    "lone-e0-end": b"zz\xe0",
    "many-errors": b"\xc0\x80\xed\xbf\xbf\xf8\x88\x80\x80\x80 ok \xe2\x28\xa1",
    "crlf": b"one\r\ntwo\r\n\xc3",
}
for name, data in crafted.items():
    open(f"{sys.argv[1]}/{name}.txt", "wb").write(data)
EOF
for f in "$work"/in/*.txt; do inputs+=("$f"); done

# --- expectations --------------------------------------------------------------
cat >"$work/expect.py" <<'EOF'
"""Writes, for input number i, DIR/i/<case>/{status,stdout,stderr}."""
import os, sys

# u8x_error_name() of each kind (src/ffi/meta.rs)
NAMES = {
    "continuation": "unexpected continuation byte",
    "invalid": "byte never valid in UTF-8",
    "truncated": "sequence cut short by a non-continuation byte",
    "overlong": "overlong encoding",
    "surrogate": "surrogate",
    "above": "value above U+10FFFF",
    "end": "input ends inside a sequence",
}
# the kinds Python's reason covers
REASONS = {
    "invalid start byte": {"continuation", "invalid"},
    "invalid continuation byte": {"truncated", "overlong", "surrogate", "above"},
    "unexpected end of data": {"end"},
}

def kind(data, i):
    """The kind of the ill-formed sequence at data[i], by Unicode Table 3-7."""
    b0, b1 = data[i], data[i + 1] if i + 1 < len(data) else None
    cont = lambda b: b is not None and 0x80 <= b <= 0xBF
    if cont(b0):
        return "continuation"
    if b0 in (0xC0, 0xC1) or b0 >= 0xF5:
        return "invalid"
    if b1 is not None:
        if (b0 == 0xE0 and b1 <= 0x9F) or (b0 == 0xF0 and b1 <= 0x8F):
            if cont(b1):
                return "overlong"
        if b0 == 0xED and 0xA0 <= b1 <= 0xBF:
            return "surrogate"
        if b0 == 0xF4 and 0x90 <= b1 <= 0xBF:
            return "above"
    need = 2 if b0 < 0xE0 else 3 if b0 < 0xF0 else 4
    j = i + 1
    while j < i + need and j < len(data) and cont(data[j]):
        j += 1
    return "end" if j == len(data) else "truncated"

def write(d, status, stdout=b"", stderr=b""):
    os.makedirs(d, exist_ok=True)
    for name, value in (("status", f"{status}\n".encode()), ("stdout", stdout), ("stderr", stderr)):
        open(os.path.join(d, name), "wb").write(value)

out, paths = sys.argv[1], sys.argv[2:]
for n, path in enumerate(paths):
    data = open(path, "rb").read()
    d = os.path.join(out, str(n))
    replaced = data.decode("utf-8", "replace")
    try:
        data.decode("utf-8")
        err = None
    except UnicodeDecodeError as e:
        err = e
    if err is None:
        count = f"stream_decode: {len(replaced)} code points\n".encode()
        write(f"{d}/validate", 0, b"ok\n")
        write(f"{d}/strict", 0, data, count)
    else:
        at = err.start
        k = kind(data, at)
        assert k in REASONS[err.reason], (path, at, k, err.reason)
        prefix = data[:at].decode("utf-8")
        line = prefix.count("\n") + 1
        column = len(prefix) - (prefix.rfind("\n") + 1) + 1
        write(f"{d}/validate", 1, f"{path}:{line}:{column}: {NAMES[k]} at byte offset {at}\n".encode())
        msg = f"stream_decode: {NAMES[k]} at byte offset {at} (after {len(prefix)} code points)\n"
        write(f"{d}/strict", 1, data[:at], msg.encode())
    write(f"{d}/replace", 0, replaced.encode("utf-8"),
          f"stream_decode: {len(replaced)} code points\n".encode())
EOF
python3 "$work/expect.py" "$work/want" "${inputs[@]}" || { echo "examples: expect.py failed" >&2; exit 1; }

# --- checks --------------------------------------------------------------------
# check LABEL WANT_DIR INPUT CMD...: runs CMD with INPUT on stdin and compares
# its exit status, stdout and stderr with WANT_DIR/{status,stdout,stderr}.
check() {
  local label=$1 want=$2 input=$3 got=$work/got
  shift 3
  mkdir -p "$got"
  "$@" <"$input" >"$got/stdout" 2>"$got/stderr"
  echo $? >"$got/status"
  local what bad=()
  for what in status stdout stderr; do
    cmp -s "$want/$what" "$got/$what" || bad+=("$what")
  done
  if ((${#bad[@]} == 0)); then
    passed=$((passed + 1))
    printf '%-60s ok\n' "$label"
  else
    failed=$((failed + 1))
    printf '%-60s FAILED (%s differs)\n' "$label" "${bad[*]}"
    for what in status stderr; do
      if [[ " ${bad[*]} " == *" $what "* ]]; then
        echo "    want $what: $(head -c 300 "$want/$what")"
        echo "    got  $what: $(head -c 300 "$got/$what")"
      fi
    done
    if [[ " ${bad[*]} " == *" stdout "* ]]; then
      echo "    stdout: $(cmp "$want/stdout" "$got/stdout" 2>&1 | head -n 1)"
      echo "    want: $(head -c 200 "$want/stdout" | tail -n 2)"
      echo "    got:  $(head -c 200 "$got/stdout" | tail -n 2)"
    fi
  fi
}

for n in "${!inputs[@]}"; do
  f=${inputs[$n]} want=$work/want/$n short=${inputs[$n]#"$work"/}
  for v in validate_file validate_file-chunk1; do
    check "$v $short" "$want/validate" /dev/null "$work/$v" "$f"
  done
  for v in stream_decode stream_decode-buf4; do
    for policy in strict replace; do
      check "$v $policy < $short" "$want/$policy" "$f" "$work/$v" "$policy"
    done
  done
done

# mbstowcs: its built-in samples, then arguments (first lines of the corpus
# texts too). libc's verdict is checked apart: "agrees", or "no UTF-8 locale".
mb_args=(hello $'h\xc3\xa9llo' $'\xe2\x82\xac' $'\xf0\x9f\x98\x80' $'\xef\xbb\xbfBOM' $'\xc0\xaf'
  $'cut \xe2\x82' $'\xed\xa0\x80' $'\xf4\x90\x80\x80' $'\xe0\x80\x80' $'\x80' $'ok\xff')
for f in ../shared/corpus/lipsum/*.txt; do
  [[ -f $f ]] && mb_args+=("$(head -n 1 "$f")")
done
mb_check() {
  local label=$1
  shift
  python3 - "$@" >"$work/mb.want" <<'EOF'
import os, sys
SAMPLES = [b"hello", b"h\xc3\xa9llo w\xc3\xb6rld", b"\xe2\x82\xac 5", b"\xf0\x9f\x98\x80!",
           b"overlong \xc0\xaf", b"cut \xe2\x82", b"surrogate \xed\xa0\x80"]
for s in [os.fsencode(a) for a in sys.argv[1:]] or SAMPLES:
    line = " ".join(f"{b:02x}" for b in s)
    try:
        text = s.decode("utf-8")
        line += f": {len(text)} wide characters" + "".join(f" U+{ord(c):04X}" for c in text)
        line += "; round trip ok"
    except UnicodeDecodeError:
        line += ": not UTF-8 (EILSEQ)"
    print(line + "; LIBC")
EOF
  "$work/mbstowcs" "$@" >"$work/mb.got" 2>&1
  local status=$? note= lax
  grep -q '; no UTF-8 locale$' "$work/mb.got" && note=' (no UTF-8 locale: libc not compared)'
  # libc must decode valid UTF-8 as u8x does; it may accept what is not UTF-8
  lax=$(grep -c 'EILSEQ); libc differs: [0-9]* wide characters' "$work/mb.got")
  ((lax)) && note=" (libc accepts $lax of the inputs that are not UTF-8)"
  sed -i 's/; libc agrees$/; LIBC/; s/; no UTF-8 locale$/; LIBC/
          s/\(not UTF-8 (EILSEQ)\); libc differs: [0-9]* wide characters\( U+[0-9A-F]*\)*$/\1; LIBC/' "$work/mb.got"
  if ((status == 0)) && cmp -s "$work/mb.want" "$work/mb.got"; then
    passed=$((passed + 1))
    printf '%-60s ok%s\n' "$label" "$note"
  else
    failed=$((failed + 1))
    printf '%-60s FAILED (exit status %d)\n' "$label" "$status"
    diff "$work/mb.want" "$work/mb.got" | head -n 10 | sed 's/^/    /'
  fi
}
mb_check "mbstowcs (built-in samples)"
mb_check "mbstowcs (${#mb_args[@]} arguments)" "${mb_args[@]}"

echo "examples: $passed passed, $failed failed"
((failed == 0))
