//! The long help of each command (`--help`, `u8x help COMMAND`, the man
//! page): what clap cannot derive from the options themselves.

pub const MAIN: &str = "\
u8x checks, repairs and converts UTF-8 (RFC 3629, Unicode Table 3-7),
streaming inputs of any size in constant memory.

A FILE of '-', or no FILE, is standard input. Output goes to standard output
unless '-o OUT' is given. A regular file OUT is replaced only once the whole
input has been converted (u8x writes .OUT.u8x-PID-N.tmp beside it, syncs it
and renames it over OUT): after any error, OUT keeps its old contents, and
SIGHUP, SIGINT, SIGQUIT, SIGTERM or SIGPIPE remove the temporary file before
ending u8x by that signal. OUT keeps its permission bits, and its owner and
group where the user may give them (not its ACLs, extended attributes or
timestamps). A link to an existing file is followed; a dangling link is
refused. A device or FIFO OUT is written directly, and /dev/stdout,
/dev/stderr, /dev/fd/N and /proc/self/fd/N write to that open descriptor (so
'>> log' keeps appending); OUT naming the input file is refused, as is
standard output that is the input file ('u8x fix t >> t': 'u8x: t: input file
is output file', as cat says it); a device is compared by its device number,
whatever its node.";

pub const MAIN_AFTER: &str = "\
Forms: utf-8, utf-32le, utf-32be, utf-16le, utf-16be, latin1 (no byte order
mark is added or removed; one in the text is a character like any other).
--dialect NAME (check, decode, encode, convert) says which UTF-8 the UTF-8
side is: utf-8 (RFC 3629, the default), legacy, cesu-8, mutf-8, wtf-8 or
generalized (see 'u8x help check').

A regular file that shrinks or grows while it is read is reported ('u8x:
FILE: file changed while being read', exit status 2).

Exit status: 0 success, valid input; 1 invalid input (check: a file is not
UTF-8; fix: input repaired, output written; decode, encode, convert: stopped
early, OUT unchanged); 2 usage or I/O error. An error writing standard
output is 'u8x: write error: MESSAGE' (a standard output closed at start,
'>&-', gives 'Bad file descriptor'). A write to a closed pipe ends u8x by
SIGPIPE, quietly, unless SIGPIPE was ignored (then 'Broken pipe', status 2).
SIGXFSZ is ignored: a write beyond 'ulimit -f' fails with 'File too large'.

A progress bar is drawn on standard error for inputs of 256 MiB or more when
standard error is a terminal (never otherwise, and never with -q).";

pub const CHECK: &str = "\
Checks that each FILE ('-' or none: standard input) is UTF-8. For an invalid
file, prints its first ill-formed sequence:

  FILE:LINE:COLUMN: byte offset N: DESCRIPTION (bytes XX YY)

LINE counts from 1, lines ending at each 0x0A byte. COLUMN counts from 1 in
characters (code points), not bytes: it is 1 + the number of characters
before the error on its line, an earlier ill-formed sequence counting as one
character (the U+FFFD it would be replaced by). N is the offset of the first
bad byte, counted from 0. The bytes shown are the maximal subpart (Unicode
chapter 3): the bytes one U+FFFD would replace.

With --json, each error is one line holding one JSON object:
  {\"file\":\"a.txt\",\"line\":2,\"column\":3,\"offset\":5,\"kind\":\"invalid_byte\",
   \"description\":\"byte never valid in UTF-8\",\"bytes\":\"C0\"}
A file name that is not UTF-8 is written with U+FFFD for its bad bytes in
\"file\", and as it is, in hex pairs, in a \"file_bytes\" field after it.

File names in text (reports, -l, messages) are written as they are when they
are UTF-8 without control or bidirectional formatting characters; others are
quoted as the shells' $'...' reads them back: $'a\\nb.txt', $'caf\\351.txt'
(so a crafted name cannot drive the terminal). -l -0 (--null) writes each
name as it is, ended by a NUL byte, for xargs -0.

--dialect NAME checks the files against another UTF-8 (errors are reported
the same way, by the maximal subpart in that dialect):
  utf-8        RFC 3629 / Unicode Table 3-7 (the default)
  legacy       RFC 2044 31-bit UTF-8: values up to 0x7FFFFFFF in up to 6
               bytes (F5..FD leads); shortest form only, no surrogates
  cesu-8       CESU-8: a character above U+FFFF as its two UTF-16 surrogates,
               3 bytes each; 4-byte forms (F0..F4) are ill-formed
  mutf-8       Java's Modified UTF-8: CESU-8, and U+0000 as C0 80 (the byte
               00 is ill-formed)
  wtf-8        WTF-8: lone surrogates as 3-byte forms; a high surrogate
               followed by a low one is ill-formed (the pair is one 4-byte
               character)
  generalized  any surrogate as a 3-byte form, paired or not (Python's
               surrogatepass)
COLUMN counts code points in the dialect: a CESU-8 pair is one.";

pub const CHECK_AFTER: &str = "\
With -r, directories are walked in name order; symbolic links met inside them
are not followed (those named on the command line are), and only regular files
are checked: FIFOs, sockets and devices found are skipped, as grep -r skips
them (-v names each entry skipped on standard error). -j splits a large
regular file at character boundaries and checks the parts on N threads; the
reports are the same, in file order, in memory bounded by N + 1 blocks of 4
MiB and 4096 reports per block in flight whatever the input (a block with more
errors is scanned again by the thread that prints). With --all, a FILE that
standard output is appended to or opened on ('>> FILE') is refused ('input
file is output file'), as it would read its own reports.

Exit status: 0 if every file is valid UTF-8, 1 if some file is not, 2 if some
file could not be read (reported on standard error; the other files are still
checked).";

pub const FIX: &str = "\
Copies FILE ('-' or none: standard input) to OUT (default: standard output)
as valid UTF-8. Well-formed text is copied unchanged; each ill-formed
sequence is rewritten according to the policy:

  replace  one U+FFFD per maximal subpart (the default; as WHATWG, Rust's
           String::from_utf8_lossy and Python's errors=\"replace\")
  latin1   each bad byte as the ISO-8859-1 character of that value
  cp1252   each bad byte as the windows-1252 character (WHATWG mapping;
           81, 8D, 8F, 90, 9D become the C1 controls of that value)
  escape   each bad byte as the ASCII text \\xhh (two lower-case hex digits),
           exactly as Python's errors=\"backslashreplace\": readable, nothing
           lost. Text that already contains \\x sequences becomes ambiguous;
           for an exact round trip of any bytes use 'decode --policy escape'
           and 'encode --policy escape' instead.
  ignore   each ill-formed sequence dropped, as Python's errors=\"ignore\"
           and iconv's //IGNORE: the count below is all that is left of it.

Prints 'u8x: fixed N ill-formed sequences' on standard error when N > 0
(not with -q).";

pub const FIX_AFTER: &str = "\
-j N repairs a large regular file in blocks on N threads, with the same
output, holding at most 3 N + 1 buffers of 4.5 MiB whatever the input (a
block whose repair would not fit is repaired by the main thread as a
stream). Without -j, memory is constant: 64 KiB and 1 MiB buffers.

Exit status: 0 if the input was already valid UTF-8 (the output is an exact
copy); 1 if N > 0 sequences were repaired (the repaired output is written all
the same; like 'u8x check', 1 says the input was not UTF-8); 2 on a usage or
I/O error (a file OUT is then left unchanged). To fail only on errors:
  u8x fix -q -o OUT FILE; [ $? -lt 2 ]";

pub const DECODE: &str = "\
Decodes UTF-8 from FILE ('-' or none: standard input) to FORM on OUT
(default: standard output):
  utf-32le  4 bytes, little-endian, per code point (the default)
  utf-32be  the same, big-endian
  utf-16le  2 bytes, little-endian, per UTF-16 code unit: a character above
            U+FFFF becomes a surrogate pair (4 bytes)
  utf-16be  the same, big-endian
  latin1    ISO-8859-1, 1 byte per character; characters above U+00FF do
            not fit (see below)
A byte order mark is decoded like any other character; none is added.
--dialect NAME reads the input as that UTF-8 (see 'u8x help check'; not with
latin1): legacy gives values up to 0x7FFFFFFF in UTF-32 (to UTF-16 one above
U+10FFFF is 'character not representable in the output form'), wtf-8 and
generalized give lone surrogates as they stand, cesu-8 and mutf-8 read a pair
of 3-byte surrogates as one character.
Memory use is constant: the input is read and written 64 KiB at a time.

Policies for ill-formed sequences:
  strict   stop at the first one (the default): prints
           'u8x: FILE:LINE:COLUMN: byte offset N: DESCRIPTION' (LINE and
           COLUMN as 'u8x check' counts them) and exits with 1. The code
           points before it have been written to standard output, but a file
           OUT is left unchanged, as after any incomplete conversion
  replace  one U+FFFD per maximal subpart
  escape   each bad byte b as U+DC00+b (U+DC80..U+DCFF, UTF-8B / Python
           surrogateescape); 'encode --policy escape' restores the exact bytes
           (in UTF-16 these are lone surrogates, so not well-formed UTF-16)
  latin1   each bad byte as ISO-8859-1
  cp1252   each bad byte as windows-1252 (WHATWG mapping)
  ignore   each maximal subpart dropped (Python's errors=\"ignore\", iconv's
           //IGNORE): the count below is all that is left of it

With --to latin1, only strict, replace and ignore are accepted; they apply
to characters above U+00FF as to ill-formed sequences. strict stops at the
first one; for a character it prints
  'u8x: FILE:LINE:COLUMN: byte offset N: character not representable in the
  output form (U+20AC is not in Latin-1)'
replace writes one '?' (3F) for each (as Python's
bytes.decode('utf-8', 'replace').encode('latin-1', 'replace')), ignore
nothing.

Under every policy but strict, how many ill-formed sequences (maximal
subparts) it handled is said on standard error when there were any (not
with -q), one line, as 'u8x fix' says it:
  'u8x: replaced N ill-formed sequences' (escaped, dropped; 'decoded N
  ill-formed sequences as ISO-8859-1' or 'as windows-1252'; to latin1,
  'N ill-formed sequences or characters not in Latin-1')";

pub const DECODE_AFTER: &str = "\
Exit status: 0 on success (whatever a non-strict policy handled), 1 if strict
decoding met an ill-formed sequence or a character not in Latin-1, 2 on a
usage or I/O error.";

pub const ENCODE: &str = "\
Encodes FORM from FILE ('-' or none: standard input) to UTF-8 on OUT
(default: standard output):
  utf-32le  4 bytes, little-endian, per code point (the default)
  utf-32be  the same, big-endian
  utf-16le  2 bytes, little-endian, per UTF-16 code unit; a surrogate pair
            (high D800..DBFF, then low DC00..DFFF) is one character
  utf-16be  the same, big-endian
  latin1    ISO-8859-1, 1 byte per character: every input is valid, and the
            policy has nothing to act on
A byte order mark is encoded like any other character. --dialect NAME writes
that UTF-8 (see 'u8x help check'; not with latin1): legacy takes UTF-32
values up to 0x7FFFFFFF, cesu-8 and mutf-8 write a character above U+FFFF as
two 3-byte surrogates (mutf-8 U+0000 as C0 80), wtf-8 and generalized write
unpaired surrogates (from UTF-16, wtf-8 round-trips any unit sequence; from
UTF-32, a high surrogate followed by a low one is an error in wtf-8). Memory use is
constant: the input is read 64 KiB at a time, a pair or unit cut by the end
of a read being completed by the next.

Policies for units that are not Unicode scalar values (in UTF-32,
surrogates D800..DFFF and values above 10FFFF; in UTF-16, a surrogate
without its other half):
  strict   stop at the first one (the default): prints
           'u8x: FILE: unit K (byte offset N): DESCRIPTION (value 0xXXXXXXXX)'
           and exits with 1 (from UTF-16, K counts 2-byte units, N is 2K,
           and the message ends 'unpaired surrogate (value 0xXXXX)'). The
           UTF-8 before it has been written to standard output, but a file
           OUT is left unchanged
  replace  write U+FFFD instead (one per unit)
  escape   U+DC80..U+DCFF become the byte they escape (the inverse of
           'decode --policy escape'); any other invalid unit stops as strict
  ignore   drop them (Python's errors=\"ignore\", iconv's //IGNORE)
(latin1 and cp1252 are for decoding only.) Under every policy but strict,
how many units it handled is said on standard error when there were any
(not with -q): 'u8x: replaced N invalid units' (escaped, dropped; from
UTF-16 'N unpaired surrogates'), before any error that stopped it.

An input whose length is not a multiple of the unit (4 bytes for UTF-32, 2
for UTF-16) is not in that form: the complete units are encoded (to standard
output; a file OUT is left unchanged), then u8x reports the length and exits
with 1. A high surrogate just before the odd last byte is unpaired.";

pub const ENCODE_AFTER: &str = "\
Exit status: 0 on success (whatever a non-strict policy handled), 1 on an
invalid unit the policy stops at or a bad input length, 2 on a usage or I/O
error.";

pub const CONVERT: &str = "\
Converts FILE ('-' or none: standard input) from the --from form to the --to
form on OUT (default: standard output), streaming in constant memory. The
forms are utf-8, utf-32le, utf-32be, utf-16le, utf-16be and latin1.

From utf-8 this is 'u8x decode --to', to utf-8 'u8x encode --from', and
utf-8 to utf-8 is 'u8x fix' with its exit statuses and summary (strict: 'u8x
decode' without the decoding; escape is refused). Between latin1, a utf-16
and a utf-32 form the text is converted directly, with no UTF-8 between:
the --policy applies to the input's invalid units (unpaired surrogates;
in UTF-32 also values above 0x10FFFF) and, for latin1 output, to
characters above U+00FF (strict stops, replace writes U+FFFD, or '?' in
latin1, ignore drops them). escape keeps every unpaired surrogate as its
value, so UTF-16 goes to UTF-32 and back unchanged; it stops as strict
does at a UTF-32 value above 0x10FFFF and at a high surrogate value
followed by a low one (which UTF-16 would read back as one character).
Between two forms of the same kind (utf-16le to utf-16be, utf-32le to
utf-32be) the text goes through UTF-8, with the policy of 'encode'.

Under every policy but strict, how many errors it handled is said on
standard error as 'decode' and 'encode' say it (not with -q), each counted
once: 'u8x: replaced N unpaired surrogates or characters not in Latin-1'
counts a lone surrogate once though its U+FFFD then becomes '?'.

Errors name a line and column where the input is UTF-8, and a unit index
otherwise, with the same messages as 'decode' and 'encode'.

--dialect NAME is the UTF-8 of the side that is utf-8, as for 'decode' and
'encode'. It is a usage error when the other side is latin1, when neither
side is utf-8, and from utf-8 to utf-8 (to rewrite a dialect as RFC 3629
UTF-8, pipe 'u8x decode --dialect NAME' into 'u8x encode').";

pub const CONVERT_AFTER: &str = "\
Exit status: 0 on success (whatever a non-strict policy handled; from utf-8
to utf-8, 1 when something was repaired, as 'u8x fix'), 1 if the input was
not in the --from form or a character had no place in the --to form and the
policy stopped, 2 on a usage or I/O error.";
