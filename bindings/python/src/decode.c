/* bytes -> str.
 *
 * Well-formed RFC 3629 text (the common case):
 *
 * - ASCII below ASCII_COPY_MAX (4 KiB) is checked and copied into a str
 *   of that length (no library call);
 * - anything else below ONE_CALL_MAX (512) bytes, one library call (issue
 *   45): u8x_decode_ucs4 into a UCS-4 buffer on the stack, or up to
 *   TINY_MAX bytes u8x_validate and the binding converts, and the str is
 *   made of it in the narrowest kind (an OR of the code points tells
 *   which);
 * - longer input takes two passes and no intermediate buffer: u8x_classify
 *   validates and reports the widest character and the counts,
 *   PyUnicode_New allocates the str of exactly that kind and length, and
 *   u8x_decode_latin1 / u8x_decode_utf16 / u8x_decode_ucs4 write straight
 *   into its 1-, 2- or 4-byte buffer (pure ASCII is copied).
 *
 * Anything else (ill-formed input under a policy or a handler, the
 * dialects) goes through decode_loop: the library decodes to UCS-4 up to
 * the next error it does not handle itself, the error handler (CPython's,
 * looked up by name) says what to put there and where to go on, and the
 * result is made with PyUnicode_FromKindAndData, which picks the kind. */
#include "u8xpy.h"

#include <string.h>

const char *u8xpy_reason(uint32_t error)
{
    /* CPython reports the same start and maximal-subpart length as u8x,
     * with three coarser reasons. */
    switch (error) {
    case U8X_ERR_UNEXPECTED_CONTINUATION:
    case U8X_ERR_INVALID_BYTE:
        return "invalid start byte";
    case U8X_ERR_END_OF_INPUT:
        return "unexpected end of data";
    case U8X_ERR_NOT_REPRESENTABLE:
        return "code point not in range(0x110000)";
    default:
        return "invalid continuation byte";
    }
}

PyObject *u8xpy_unexpected(const char *what, struct u8x_result r)
{
    PyErr_Format(PyExc_RuntimeError,
                 "u8x: %s returned %s (%s at %zd); please report this", what,
                 u8x_status_name((int)r.status), u8x_error_name((int)r.error), (Py_ssize_t)r.read);
    return NULL;
}

#define HIGH_BITS 0x8080808080808080ULL

/* 1 if the first min(n, 8) bytes of src are ASCII. */
static int starts_ascii(const uint8_t *src, Py_ssize_t n)
{
    uint64_t w = 0;
    if (n >= 8) {
        memcpy(&w, src, 8);
        return (w & HIGH_BITS) == 0;
    }
    unsigned acc = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        acc |= src[i];
    return (acc & 0x80) == 0;
}

/* 1 if src[0..n) is ASCII: blocks of 64 bytes (a loop the compiler
 * vectorizes), stopping after the first block with a non-ASCII byte. Then
 * a memcpy into the str: measured faster than one loop that copies while
 * it checks (libc's memcpy is wider than the vectorized loop). */
static int is_ascii(const uint8_t *src, Py_ssize_t n)
{
    uint64_t w, acc = 0;
    Py_ssize_t i = 0;
    for (; i + 64 <= n; i += 64) {
        for (int j = 0; j < 64; j += 8) {
            memcpy(&w, src + i + j, 8);
            acc |= w;
        }
        if (acc & HIGH_BITS)
            return 0;
    }
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, src + i, 8);
        acc |= w;
    }
    for (; i < n; i++)
        acc |= src[i];
    return (acc & HIGH_BITS) == 0;
}

/* The one-call path (issue 45): below ONE_CALL_MAX bytes of RFC 3629
 * input, ONE library call decodes it, u8x_decode_ucs4 into a UCS-4 buffer
 * on the stack, and the str is made of that buffer in the narrowest kind;
 * from ONE_CALL_MAX bytes, u8x_classify then a decode straight into the
 * str. Measured with bench.py and on ASCII text with an accented letter
 * every 100 characters, AMD Zen 4: the one call wins below a few hundred
 * bytes, where each call's fixed cost dominates (256 B of ASCII: 0.92x
 * CPython's decoder through u8x_classify, 1.3x-1.4x with the copy below),
 * and loses above (1 KB of that accented text: 0.67x against 1.17x; 3 KB
 * 0.43x against 1.09x). */
#define ONE_CALL_MAX 512

/* Below this many bytes, text that starts with ASCII is checked for ASCII
 * by the binding and then copied into the str; from it, u8x_classify (the
 * library's fastest pass) tells, and the str is made the two-pass way:
 * 64 KiB of ASCII decoded at 19.5 GB/s (0.94x CPython's one-pass copy)
 * through the binding's check, 33 GB/s (1.56x) through u8x_classify. */
#define ASCII_COPY_MAX 4096

/* Up to TINY_MAX bytes, the one library call is u8x_validate and the
 * binding converts the validated bytes itself (decode_valid): below that
 * u8x_decode_ucs4's fixed cost is more than the work (some 70-90 ns on
 * Zen 3 for 15-63 bytes of CJK, against 18 ns for u8x_validate); at 96
 * bytes the two are even. */
#define TINY_MAX 64

/* src[0..n), which u8x_validate found well-formed, as code points into u
 * (at most n of them). No checks: validation was the library's. */
static Py_ssize_t decode_valid(const uint8_t *src, Py_ssize_t n, uint32_t *u)
{
    Py_ssize_t i = 0, k = 0;
    while (i < n) {
        uint32_t b = src[i];
        if (b < 0x80) {
            u[k++] = b;
            i += 1;
        } else if (b < 0xE0) {
            u[k++] = (b & 0x1F) << 6 | (src[i + 1] & 0x3F);
            i += 2;
        } else if (b < 0xF0) {
            u[k++] = (b & 0x0F) << 12 | (uint32_t)(src[i + 1] & 0x3F) << 6 | (src[i + 2] & 0x3F);
            i += 3;
        } else {
            u[k++] = (b & 0x07) << 18 | (uint32_t)(src[i + 1] & 0x3F) << 12 |
                     (uint32_t)(src[i + 2] & 0x3F) << 6 | (src[i + 3] & 0x3F);
            i += 4;
        }
    }
    return k;
}

/* The str of u[0..len), all of them < 0x110000. */
static PyObject *narrow_ucs4(const uint32_t *u, Py_ssize_t len)
{
    uint32_t bits = 0;
    for (Py_ssize_t i = 0; i < len; i++)
        bits |= u[i];
    /* The OR of the code points is below 0x80, 0x100 or 0x10000 exactly
     * when their maximum is: the kind is right; PyUnicode_New needs no
     * more (a maxchar above 0xFFFF means UCS-4 and must be <= 0x10FFFF). */
    if (len == 1 && bits < 0x100)
        return PyUnicode_FromOrdinal((int)bits); /* CPython's singletons */
    if (bits > 0xFFFF)
        bits = 0x10FFFF;
    PyObject *s = PyUnicode_New(len, bits);
    if (!s)
        return NULL;
    if (bits < 0x100) {
        Py_UCS1 *d = PyUnicode_1BYTE_DATA(s);
        for (Py_ssize_t i = 0; i < len; i++)
            d[i] = (Py_UCS1)u[i];
    } else if (bits <= 0xFFFF) {
        Py_UCS2 *d = PyUnicode_2BYTE_DATA(s);
        for (Py_ssize_t i = 0; i < len; i++)
            d[i] = (Py_UCS2)u[i];
    } else {
        memcpy(PyUnicode_4BYTE_DATA(s), u, (size_t)len * 4);
    }
    return s;
}

/* The str of src[0..n), which u8x_classify found well-formed and described. */
static PyObject *build_valid(const uint8_t *src, Py_ssize_t n, const struct u8x_classification *info)
{
    Py_ssize_t cps = (Py_ssize_t)info->code_points;
    PyObject *s;
    struct u8x_result r;
    switch (info->width) {
    case U8X_WIDTH_ASCII:
        if (n == 1)
            return PyUnicode_FromOrdinal(src[0]);
        s = PyUnicode_New(n, 127);
        if (s && n)
            memcpy(PyUnicode_1BYTE_DATA(s), src, (size_t)n);
        return s;
    case U8X_WIDTH_LATIN1:
        s = PyUnicode_New(cps, 255);
        if (!s)
            return NULL;
        r = u8x_decode_latin1(src, (size_t)n, PyUnicode_1BYTE_DATA(s), (size_t)cps, U8X_STRICT, 0, 0);
        break;
    case U8X_WIDTH_BMP:
        s = PyUnicode_New(cps, 0xFFFF);
        if (!s)
            return NULL;
        r = u8x_decode_utf16(src, (size_t)n, (uint16_t *)PyUnicode_2BYTE_DATA(s), (size_t)cps,
                             U8X_STRICT, U8X_REPLACEMENT_CHARACTER, 0);
        break;
    default:
        s = PyUnicode_New(cps, 0x10FFFF);
        if (!s)
            return NULL;
        r = u8x_decode_ucs4(src, (size_t)n, (uint32_t *)PyUnicode_4BYTE_DATA(s), (size_t)cps,
                            U8X_STRICT, U8X_REPLACEMENT_CHARACTER, 0);
        break;
    }
    if (r.status != U8X_OK || r.written != (size_t)cps) {
        Py_DECREF(s);
        return u8xpy_unexpected("a decoder after u8x_classify", r);
    }
    return s;
}

/* A growable UCS-4 buffer. */
struct ucs4buf {
    uint32_t *p;
    Py_ssize_t len, cap;
};

static int reserve(struct ucs4buf *b, Py_ssize_t more)
{
    if (b->cap - b->len >= more)
        return 0;
    if (more > PY_SSIZE_T_MAX / 4 - b->len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t cap = b->len + more;
    if (cap < b->cap + b->cap / 2 && b->cap + b->cap / 2 <= PY_SSIZE_T_MAX / 4)
        cap = b->cap + b->cap / 2;
    uint32_t *p = PyMem_Realloc(b->p, (size_t)(cap ? cap : 1) * 4);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

/* Appends the str `rep` (a handler's replacement). */
static int append_str(struct ucs4buf *b, PyObject *rep)
{
    Py_ssize_t k = PyUnicode_GET_LENGTH(rep);
    if (reserve(b, k) < 0)
        return -1;
    int kind = PyUnicode_KIND(rep);
    const void *data = PyUnicode_DATA(rep);
    for (Py_ssize_t i = 0; i < k; i++)
        b->p[b->len++] = PyUnicode_READ(kind, data, i);
    return 0;
}

/* One library call from src[0..n) onto b: UCS-4, or for legacy UTF-8
 * (whose values above U+10FFFF a str cannot hold: u8x_decode_utf16 reports
 * them as U8X_ERR_NOT_REPRESENTABLE, and every policy handles them) UTF-16
 * widened to UCS-4. The library never writes half a pair. */
static int decode_some(struct ucs4buf *b, const uint8_t *src, Py_ssize_t n, uint32_t policy,
                       uint32_t flags, struct u8x_result *r)
{
    if (reserve(b, n) < 0)
        return -1;
    if ((policy & U8X_DIALECT_MASK) != U8X_DIALECT_LEGACY) {
        *r = u8x_decode_ucs4(src, (size_t)n, b->p + b->len, (size_t)n, policy,
                             U8X_REPLACEMENT_CHARACTER, flags);
        b->len += (Py_ssize_t)r->written;
        return 0;
    }
    uint16_t *u = PyMem_Malloc((size_t)(n ? n : 1) * 2);
    if (!u) {
        PyErr_NoMemory();
        return -1;
    }
    *r = u8x_decode_utf16(src, (size_t)n, u, (size_t)n, policy, U8X_REPLACEMENT_CHARACTER, flags);
    for (size_t i = 0; i < r->written; i++) {
        uint32_t c = u[i];
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < r->written && u[i + 1] >= 0xDC00 &&
            u[i + 1] <= 0xDFFF) {
            c = 0x10000 + ((c - 0xD800) << 10) + (u[i + 1] - 0xDC00);
            i++;
        }
        b->p[b->len++] = c;
    }
    PyMem_Free(u);
    return 0;
}

/* The handler's answer: (str, int) with the position made absolute. */
static PyObject *handler_result(PyObject *res, Py_ssize_t n, Py_ssize_t *newpos)
{
    if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != 2 ||
        !PyUnicode_Check(PyTuple_GET_ITEM(res, 0)) || !PyLong_Check(PyTuple_GET_ITEM(res, 1))) {
        PyErr_SetString(PyExc_TypeError, "decoding error handler must return (str, int) tuple");
        return NULL;
    }
    Py_ssize_t p = PyLong_AsSsize_t(PyTuple_GET_ITEM(res, 1));
    if (p == -1 && PyErr_Occurred())
        return NULL;
    if (p < 0)
        p += n;
    if (p < 0 || p > n) {
        PyErr_Format(PyExc_IndexError, "position %zd from error handler out of bounds", p);
        return NULL;
    }
    *newpos = p;
    return PyTuple_GET_ITEM(res, 0);
}

/* Decodes src[pos..n) under `policy` (a library policy and dialect, applied
 * by the library), stopping at each error the library reports for h to
 * handle (raise for strict and surrogatepass; else the named handler). */
static PyObject *decode_loop(const struct codec *c, const uint8_t *src, Py_ssize_t n,
                             PyObject *obj, uint32_t policy, enum handler h, PyObject *errors,
                             uint32_t flags, Py_ssize_t pos, Py_ssize_t *consumed)
{
    struct ucs4buf b = {NULL, 0, 0};
    PyObject *exc = NULL, *handler = NULL, *result = NULL;
    Py_INCREF(obj ? obj : Py_None);
    PyObject *held = obj; /* the bytes src points into, if any */
    for (;;) {
        struct u8x_result r;
        if (decode_some(&b, src + pos, n - pos, policy, flags, &r) < 0)
            goto done;
        if (r.status == U8X_OK || r.status == U8X_INCOMPLETE) {
            pos += (Py_ssize_t)r.read;
            break;
        }
        if (r.status != U8X_ILL_FORMED) {
            u8xpy_unexpected("a u8x decoder", r);
            goto done;
        }
        Py_ssize_t start = pos + (Py_ssize_t)r.read, end = start + (Py_ssize_t)r.error_len;
        const char *reason = u8xpy_reason(r.error);
        if (h == H_SURROGATEPASS) {
            /* Not a surrogate: CPython's surrogatepass re-raises the utf-8
             * decoder's error there, which RFC 3629 rules decide. */
            struct u8x_result std = u8x_validate(src + start, (size_t)(n - start), flags);
            if (std.status == U8X_ILL_FORMED && std.read == 0) {
                end = start + (Py_ssize_t)std.error_len;
                reason = u8xpy_reason(std.error);
            }
        }
        if (!held) {
            held = PyBytes_FromStringAndSize((const char *)src, n);
            if (!held)
                goto done;
        }
        if (!exc) {
            exc = PyObject_CallFunction(PyExc_UnicodeDecodeError, "sOnns", c->name, held, start,
                                        end, reason);
            if (!exc)
                goto done;
        } else if (PyUnicodeDecodeError_SetStart(exc, start) < 0 ||
                   PyUnicodeDecodeError_SetEnd(exc, end) < 0 ||
                   PyUnicodeDecodeError_SetReason(exc, reason) < 0) {
            goto done;
        }
        if (h == H_STRICT || h == H_SURROGATEPASS) {
            PyErr_SetObject(PyExc_UnicodeDecodeError, exc);
            goto done;
        }
        if (!handler && !(handler = PyCodec_LookupError(PyUnicode_AsUTF8(errors))))
            goto done;
        PyObject *res = PyObject_CallOneArg(handler, exc);
        if (!res)
            goto done;
        /* A handler may replace exc.object: go on in the new bytes. */
        PyObject *now = PyUnicodeDecodeError_GetObject(exc);
        if (!now) {
            Py_DECREF(res);
            goto done;
        }
        if (now != held) {
            Py_XDECREF(held);
            held = now;
            src = (const uint8_t *)PyBytes_AS_STRING(now);
            n = PyBytes_GET_SIZE(now);
        } else {
            Py_DECREF(now);
        }
        Py_ssize_t newpos;
        PyObject *rep = handler_result(res, n, &newpos);
        if (!rep || append_str(&b, rep) < 0) {
            Py_DECREF(res);
            goto done;
        }
        Py_DECREF(res);
        pos = newpos;
    }
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, b.p, b.len);
    if (consumed)
        *consumed = pos;
done:
    PyMem_Free(b.p);
    Py_XDECREF(exc);
    Py_XDECREF(handler);
    Py_XDECREF(held);
    return result;
}

static const uint32_t LIB_POLICY[] = {
    [H_STRICT] = U8X_STRICT, [H_REPLACE] = U8X_REPLACE, [H_ESCAPE] = U8X_ESCAPE,
    [H_IGNORE] = U8X_IGNORE, [H_LATIN1] = U8X_LATIN1,   [H_CP1252] = U8X_CP1252,
    [H_SURROGATEPASS] = U8X_STRICT, [H_OTHER] = U8X_STRICT,
};

PyObject *u8xpy_decode(const struct codec *c, const uint8_t *src, Py_ssize_t n, PyObject *obj,
                       enum handler h, PyObject *errors, int final, int bom,
                       Py_ssize_t *consumed)
{
    uint32_t flags = (final ? 0 : U8X_MORE_INPUT) | (bom ? U8X_SKIP_BOM : 0);
    uint32_t policy = LIB_POLICY[h] | c->dialect;
    if (c->dialect != U8X_DIALECT_STANDARD) {
        if (h == H_SURROGATEPASS)
            h = H_OTHER; /* CPython's handler knows no dialect: it re-raises */
        return decode_loop(c, src, n, obj, policy, h, errors, flags, 0, consumed);
    }
    /* ASCII (checked when it starts so): a copy. */
    if (n < ASCII_COPY_MAX && !bom && starts_ascii(src, n) && is_ascii(src, n)) {
        if (consumed)
            *consumed = n;
        struct u8x_classification ascii = {U8X_WIDTH_ASCII, (size_t)n, (size_t)n};
        return build_valid(src, n, &ascii);
    }
    if (n < ONE_CALL_MAX) {
        uint32_t u[ONE_CALL_MAX];
        if (n <= TINY_MAX) {
            struct u8x_result v = u8x_validate(src, (size_t)n, flags);
            if (v.status == U8X_OK || v.status == U8X_INCOMPLETE) {
                Py_ssize_t skip = (Py_ssize_t)v.bom_skipped;
                Py_ssize_t len = decode_valid(src + skip, (Py_ssize_t)v.read - skip, u);
                if (consumed)
                    *consumed = (Py_ssize_t)v.read;
                return narrow_ucs4(u, len);
            }
            /* Ill-formed: the general way below. */
        }
        struct u8x_result r = u8x_decode_ucs4(src, (size_t)n, u, (size_t)n, U8X_STRICT,
                                              U8X_REPLACEMENT_CHARACTER, flags);
        if (r.status == U8X_OK || r.status == U8X_INCOMPLETE) {
            if (consumed)
                *consumed = (Py_ssize_t)r.read;
            return narrow_ucs4(u, (Py_ssize_t)r.written);
        }
        /* Ill-formed (or a result the general way reports): that way. */
    }
    struct u8x_classification info;
    struct u8x_result r = u8x_classify(src, (size_t)n, flags, &info);
    if (r.status == U8X_OK || r.status == U8X_INCOMPLETE) {
        if (consumed)
            *consumed = (Py_ssize_t)r.read;
        size_t skip = r.bom_skipped;
        return build_valid(src + skip, (Py_ssize_t)(r.read - skip), &info);
    }
    if (r.status != U8X_ILL_FORMED)
        return u8xpy_unexpected("u8x_classify", r);
    if (h == H_STRICT) {
        PyObject *held = obj ? (Py_INCREF(obj), obj)
                             : PyBytes_FromStringAndSize((const char *)src, n);
        if (!held)
            return NULL;
        PyObject *exc = PyObject_CallFunction(PyExc_UnicodeDecodeError, "sOnns", c->name, held,
                                              (Py_ssize_t)r.read,
                                              (Py_ssize_t)(r.read + r.error_len),
                                              u8xpy_reason(r.error));
        Py_DECREF(held);
        if (exc) {
            PyErr_SetObject(PyExc_UnicodeDecodeError, exc);
            Py_DECREF(exc);
        }
        return NULL;
    }
    if (h == H_SURROGATEPASS)
        policy = U8X_STRICT | U8X_DIALECT_GENERALIZED;
    /* The BOM flag stays on the first call only. */
    Py_ssize_t pos = (Py_ssize_t)r.bom_skipped;
    return decode_loop(c, src, n, obj, policy, h, errors, flags & ~(uint32_t)U8X_SKIP_BOM, pos,
                       consumed);
}
