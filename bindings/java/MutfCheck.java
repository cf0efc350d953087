// u8x's Modified UTF-8 (U8X_DIALECT_MUTF8) against a JVM's own, both ways.
//
// Strings: every BMP code unit alone, and before and after each of eight
// neighbours (ASCII, NUL, U+07FF, both ends of both surrogate halves, U+FFFF);
// every pair of 256 units (the class edges and random ones); random strings
// with NULs, pairs and lone surrogates. For each, the JVM's bytes from
// DataOutputStream.writeUTF and from JNI's GetStringUTFChars must be equal,
// and u8x_encode_utf16 must write exactly those bytes; u8x_decode_utf16 of
// them must give back exactly the string's units, and readUTF and
// NewStringUTF of u8x's bytes the string. A lone surrogate, which the JVM
// writes as its 3-byte form and u8x's Modified UTF-8 refuses (CESU-8's
// rule, as the header says), must stop u8x exactly there: at its index,
// having written the JVM's bytes before it, and when decoding at its byte
// offset; U8X_ESCAPE must bring such bytes back unchanged.
//
// Bytes: every 1- and 2-byte input, 3-byte inputs of class edges, random
// and biased bytes, damaged JVM output. DataInputStream.readUTF either
// reads them or throws UTFDataFormatException; a replica of its loop (whose
// messages and strings must equal the real one's on every input) tells at
// which character it stopped. u8x must stop at that character's first byte,
// or earlier at one of the things readUTF reads but Modified UTF-8 forbids
// (overlong forms, a 00 byte, an unpaired surrogate), and read what readUTF
// reads otherwise.
//
// Prints one line per part and "N passed, N failed"; exits 1 on a failure.

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

public class MutfCheck {
    static {
        System.loadLibrary("u8xjni");
    }

    static native int[] u8xEncode(char[] src, byte[] dst, int policy);

    static native int[] u8xDecode(byte[] src, char[] dst, int policy);

    static native byte[] getStringUTFChars(String s);

    static native String newStringUTF(byte[] mutf8);

    static final int OK = 0, ILL_FORMED = 1, STRICT = 0, ESCAPE = 2;
    static final int ERR_INVALID_BYTE = 2, ERR_OVERLONG = 4, ERR_SURROGATE = 5, ERR_END_OF_INPUT = 7;

    static long passed = 0, failed = 0;

    static void check(boolean ok, Supplier<String> what) {
        if (ok) {
            passed++;
        } else if (++failed <= 20) {
            System.out.println("FAILED " + what.get());
        }
    }

    static String hex(char[] u) {
        StringBuilder b = new StringBuilder();
        for (char c : u) b.append(String.format("%04X ", (int) c));
        return b.toString().trim();
    }

    static String hex(byte[] a) {
        StringBuilder b = new StringBuilder();
        for (byte c : a) b.append(String.format("%02X ", c & 0xFF));
        return b.toString().trim();
    }

    static byte[] writeUTF(String s) throws IOException {
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        new DataOutputStream(bo).writeUTF(s);
        byte[] b = bo.toByteArray();
        return Arrays.copyOfRange(b, 2, b.length);
    }

    static String readUTF(byte[] b) throws IOException {
        byte[] framed = new byte[b.length + 2];
        framed[0] = (byte) (b.length >> 8);
        framed[1] = (byte) b.length;
        System.arraycopy(b, 0, framed, 2, b.length);
        return new DataInputStream(new ByteArrayInputStream(framed)).readUTF();
    }

    static int firstLoneSurrogate(char[] u) {
        for (int i = 0; i < u.length; i++) {
            if (Character.isHighSurrogate(u[i])) {
                if (i + 1 < u.length && Character.isLowSurrogate(u[i + 1])) i++;
                else return i;
            } else if (Character.isLowSurrogate(u[i])) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------ strings

    static void checkString(char[] u) throws IOException {
        String s = new String(u);
        byte[] jvm = writeUTF(s);
        check(Arrays.equals(jvm, getStringUTFChars(s)), () -> "writeUTF = GetStringUTFChars for " + hex(u));
        byte[] out = new byte[u.length * 3];
        int[] e = u8xEncode(u, out, STRICT);
        byte[] mine = Arrays.copyOf(out, e[3]);
        char[] back = new char[jvm.length];
        int lone = firstLoneSurrogate(u);
        if (lone < 0) {
            check(e[0] == OK && Arrays.equals(mine, jvm), () -> "u8x encodes " + hex(u) + " as the JVM: " + hex(mine) + " vs " + hex(jvm));
            int[] d = u8xDecode(jvm, back, STRICT);
            check(d[0] == OK && Arrays.equals(Arrays.copyOf(back, d[3]), u), () -> "u8x decodes the JVM's " + hex(jvm));
            check(readUTF(mine).equals(s), () -> "readUTF of u8x's bytes for " + hex(u));
            check(s.equals(newStringUTF(mine)), () -> "NewStringUTF of u8x's bytes for " + hex(u));
            return;
        }
        int before = writeUTF(new String(u, 0, lone)).length;
        check(e[0] == ILL_FORMED && e[1] == ERR_SURROGATE && e[2] == lone && e[3] == before
                && Arrays.equals(mine, Arrays.copyOf(jvm, before)), () ->
              "u8x stops at the lone surrogate " + lone + " of " + hex(u) + ": " + Arrays.toString(e));
        int[] d = u8xDecode(jvm, back, STRICT);
        // (A high surrogate's 3 bytes at the very end are U8X_ERR_END_OF_INPUT:
        // its low half could still have followed.)
        boolean last = before + 3 == jvm.length && Character.isHighSurrogate(u[lone]);
        check(d[0] == ILL_FORMED && d[1] == (last ? ERR_END_OF_INPUT : ERR_SURROGATE) && d[2] == before
                && Arrays.equals(Arrays.copyOf(back, d[3]), Arrays.copyOf(u, lone)), () ->
              "u8x stops decoding the JVM's " + hex(jvm) + " at byte " + before + ": " + Arrays.toString(d));
        int[] de = u8xDecode(jvm, back, ESCAPE);
        byte[] again = new byte[de[3] * 3];
        int[] ee = u8xEncode(Arrays.copyOf(back, de[3]), again, ESCAPE);
        check(de[0] == OK && ee[0] == OK && Arrays.equals(Arrays.copyOf(again, ee[3]), jvm), () ->
              "U8X_ESCAPE brings back the JVM's " + hex(jvm));
    }

    static void strings() throws IOException {
        long start = passed + failed;
        char[] neighbours = {'A', 0, 0x7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xFFFF};
        for (int c = 0; c <= 0xFFFF; c++) {
            checkString(new char[] {(char) c});
            for (char n : neighbours) {
                checkString(new char[] {(char) c, n});
                checkString(new char[] {n, (char) c});
            }
        }
        Random rng = new Random(0x4D555446L);
        char[] set = new char[256];
        char[] edges = {0, 1, 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF, 0xD800, 0xDBFF,
                        0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF};
        for (int i = 0; i < set.length; i++) set[i] = i < edges.length ? edges[i] : (char) rng.nextInt(0x10000);
        for (char a : set) for (char b : set) checkString(new char[] {a, b});
        int[][] classes = {{0, 0}, {1, 0x7F}, {0x80, 0x7FF}, {0x800, 0xD7FF}, {0xD800, 0xDBFF},
                           {0xDC00, 0xDFFF}, {0xE000, 0xFFFF}};
        for (int k = 0; k < 30000; k++) {
            char[] u = new char[rng.nextInt(k % 3 == 0 ? 8 : 120)];
            for (int i = 0; i < u.length; i++) {
                if (rng.nextInt(4) == 0 && i + 1 < u.length) { // a pair
                    int cp = 0x10000 + rng.nextInt(0x100000);
                    u[i++] = Character.highSurrogate(cp);
                    u[i] = Character.lowSurrogate(cp);
                    continue;
                }
                int[] c = classes[rng.nextInt(k % 2 == 0 ? classes.length : 4)];
                u[i] = (char) (c[0] + rng.nextInt(c[1] - c[0] + 1));
            }
            checkString(u);
        }
        System.out.println("mutf-8: strings, both ways: " + (passed + failed - start) + " checks");
    }

    // ------------------------------------------------------------ bytes

    /** DataInputStream.readUTF's loop: what it reads, the message it throws,
     * the first byte of the character it stops at, and where characters start. */
    static final class Replica {
        String str, msg;
        int lead = -1;
        Set<Integer> starts = new HashSet<>();

        Replica(byte[] b) {
            StringBuilder out = new StringBuilder();
            int n = b.length, at = 0;
            while (at < n) {
                int c = b[at] & 0xFF, kind = c >> 4;
                starts.add(at);
                if (kind < 8) {
                    out.append((char) c);
                    at++;
                } else if (kind == 12 || kind == 13) {
                    if (at + 2 > n) { fail(at, "malformed input: partial character at end"); return; }
                    int c2 = b[at + 1];
                    if ((c2 & 0xC0) != 0x80) { fail(at, "malformed input around byte " + (at + 2)); return; }
                    out.append((char) (((c & 0x1F) << 6) | (c2 & 0x3F)));
                    at += 2;
                } else if (kind == 14) {
                    if (at + 3 > n) { fail(at, "malformed input: partial character at end"); return; }
                    int c2 = b[at + 1], c3 = b[at + 2];
                    if ((c2 & 0xC0) != 0x80 || (c3 & 0xC0) != 0x80) {
                        fail(at, "malformed input around byte " + (at + 2));
                        return;
                    }
                    out.append((char) (((c & 0x0F) << 12) | ((c2 & 0x3F) << 6) | (c3 & 0x3F)));
                    at += 3;
                } else {
                    fail(at, "malformed input around byte " + at);
                    return;
                }
            }
            str = out.toString();
        }

        void fail(int at, String m) {
            lead = at;
            msg = m;
        }
    }

    static long same = 0, earlier = 0, bothRead = 0, stricter = 0;

    /** What u8x's Modified UTF-8 refuses and readUTF reads. */
    static boolean documented(byte[] b, int[] d) {
        int q = d[2], c = b[q] & 0xFF;
        return d[1] == ERR_OVERLONG || d[1] == ERR_SURROGATE
            || (d[1] == ERR_INVALID_BYTE && (c == 0 || c == 0xC1))
            || (d[1] == ERR_END_OF_INPUT && c == 0xED); // a high surrogate at the end
    }

    static void checkBytes(byte[] b) throws IOException {
        Replica rep = new Replica(b);
        String real = null, msg = null;
        try {
            real = readUTF(b);
        } catch (UTFDataFormatException e) {
            msg = e.getMessage();
        }
        String m = msg;
        check(Objects.equals(msg, rep.msg) && Objects.equals(real, rep.str), () ->
              "the replica of readUTF for " + hex(b) + ": " + m + " vs " + rep.msg);
        char[] back = new char[b.length];
        int[] d = u8xDecode(b, back, STRICT);
        Supplier<String> what = () -> hex(b) + ": readUTF " + (m == null ? "reads it" : m + " (lead " + rep.lead + ")")
            + ", u8x " + Arrays.toString(d);
        if (rep.lead >= 0) {
            boolean at = d[0] == ILL_FORMED && d[2] == rep.lead;
            boolean before = d[0] == ILL_FORMED && d[2] < rep.lead && rep.starts.contains(d[2]) && documented(b, d);
            check(at || before, () -> "u8x stops where readUTF does: " + what.get());
            if (at) same++;
            if (before) earlier++;
        } else if (d[0] == OK) {
            check(new String(back, 0, d[3]).equals(real), () -> "u8x reads what readUTF reads: " + what.get());
            bothRead++;
        } else {
            check(d[0] == ILL_FORMED && rep.starts.contains(d[2]) && documented(b, d), () ->
                  "u8x refuses only what Modified UTF-8 forbids: " + what.get());
            stricter++;
        }
    }

    static void bytes() throws IOException {
        long start = passed + failed;
        for (int a = 0; a < 256; a++) {
            checkBytes(new byte[] {(byte) a});
            for (int c = 0; c < 256; c++) checkBytes(new byte[] {(byte) a, (byte) c});
        }
        int[] edges = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
                       0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
        for (int a : edges) for (int c : edges) for (int e : edges)
            checkBytes(new byte[] {(byte) a, (byte) c, (byte) e});
        byte[] cesu = {(byte) 0xED, (byte) 0xA0, (byte) 0xBD, (byte) 0xED, (byte) 0xB8, (byte) 0x80};
        for (int i = 0; i <= cesu.length; i++) checkBytes(Arrays.copyOf(cesu, i));
        Random rng = new Random(0x55544644L);
        for (int k = 0; k < 60000; k++) {
            byte[] b;
            if (k % 2 == 0) {
                b = new byte[rng.nextInt(24)];
                for (int i = 0; i < b.length; i++) {
                    double r = rng.nextDouble();
                    b[i] = (byte) (r < 0.4 ? 0x80 + rng.nextInt(64) : r < 0.8 ? 0xC0 + rng.nextInt(64) : rng.nextInt(256));
                }
            } else {
                char[] u = new char[rng.nextInt(20)];
                for (int i = 0; i < u.length; i++) u[i] = (char) (rng.nextInt(3) == 0 ? rng.nextInt(0x80) : rng.nextInt(0x10000));
                b = writeUTF(new String(u));
                for (int m = rng.nextInt(3); m >= 0 && b.length > 0; m--) {
                    int i = rng.nextInt(b.length);
                    switch (rng.nextInt(3)) {
                        case 0 -> b[i] = (byte) rng.nextInt(256);
                        case 1 -> b = Arrays.copyOf(b, i);
                        default -> {
                            byte[] c = new byte[b.length - 1];
                            System.arraycopy(b, 0, c, 0, i);
                            System.arraycopy(b, i + 1, c, i, b.length - i - 1);
                            b = c;
                        }
                    }
                }
            }
            checkBytes(b);
        }
        System.out.println("mutf-8: bytes against readUTF: " + (passed + failed - start) + " checks; readUTF throws: u8x stops at the same byte "
            + same + ", earlier on what Modified UTF-8 forbids " + earlier + "; readUTF reads: u8x too " + bothRead
            + ", u8x refuses what Modified UTF-8 forbids " + stricter);
    }

    public static void main(String[] args) throws IOException {
        long t0 = System.nanoTime();
        strings();
        long t1 = System.nanoTime();
        bytes();
        long t2 = System.nanoTime();
        System.out.printf("mutf-8: %.1f s strings, %.1f s bytes%n", (t1 - t0) / 1e9, (t2 - t1) / 1e9);
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}
