/* str -> bytes.
 *
 * RFC 3629 UTF-8 reads the str's own buffer by its kind. ASCII is its
 * bytes. A str of up to SHORT_MAX (256) characters is encoded by one
 * library call into a stack buffer and the bytes object made of the exact
 * size (encode_short; issue 45); up to TINY_MAX (48) characters without
 * surrogates, the binding writes the UTF-8 itself. Longer: Latin-1 goes through
 * u8x_encode_latin1, UCS-2 through u8x_encode_utf16 and UCS-4 through
 * u8x_encode, each into a bytes object of the bound's size that is then cut
 * to length (as CPython's own encoder does), or, when the bound is above
 * EXACT_ABOVE, of the exact size measured first. A str may hold lone
 * surrogates, and in a UCS-2 str a high one followed by a low one are still
 * two characters, which u8x_encode_utf16 would join into one: so a long
 * UCS-2 str is first checked for surrogates, and one that has some (rare)
 * is widened to UCS-4 and takes the general way.
 *
 * The general way (surrogates, the dialects) is encode_loop: u8x_encode
 * with the policy up to an error it does not handle, then the run of
 * surrogates there goes to the error handler as CPython's utf-8 encoder
 * gives it (UnicodeEncodeError "surrogates not allowed", start..end the
 * run), and encoding goes on where the handler says. */
#include "u8xpy.h"

#include <string.h>

static int has_surrogate(const Py_UCS2 *p, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    for (; i + 32 <= n; i += 32) {
        unsigned acc = 0;
        for (int j = 0; j < 32; j++)
            acc |= (p[i + j] & 0xF800) == 0xD800;
        if (acc)
            return 1;
    }
    for (; i < n; i++)
        if ((p[i] & 0xF800) == 0xD800)
            return 1;
    return 0;
}

/* `out`, which the call that returned r filled, cut to what it wrote. */
static PyObject *finish(PyObject *out, struct u8x_result r, const char *what)
{
    if (r.status != U8X_OK) {
        Py_DECREF(out);
        return u8xpy_unexpected(what, r);
    }
    if (_PyBytes_Resize(&out, (Py_ssize_t)r.written) < 0)
        return NULL;
    return out;
}

struct bytebuf {
    uint8_t *p;
    Py_ssize_t len, cap;
};

static int reserve(struct bytebuf *b, size_t more)
{
    if (more == (size_t)U8X_BAD_SIZE || more > (size_t)(PY_SSIZE_T_MAX - b->len)) {
        PyErr_NoMemory();
        return -1;
    }
    if ((size_t)(b->cap - b->len) >= more)
        return 0;
    Py_ssize_t cap = b->len + (Py_ssize_t)more;
    if (cap < b->cap + b->cap / 2 && b->cap <= PY_SSIZE_T_MAX / 2)
        cap = b->cap + b->cap / 2;
    uint8_t *p = PyMem_Realloc(b->p, (size_t)(cap ? cap : 1));
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static int is_surrogate(uint32_t c)
{
    return c >= 0xD800 && c <= 0xDFFF;
}

static const uint32_t LIB_POLICY[] = {
    [H_STRICT] = U8X_STRICT, [H_REPLACE] = U8X_REPLACE, [H_ESCAPE] = U8X_ESCAPE,
    [H_IGNORE] = U8X_IGNORE, [H_LATIN1] = U8X_STRICT,   [H_CP1252] = U8X_STRICT,
    [H_SURROGATEPASS] = U8X_STRICT | U8X_DIALECT_GENERALIZED, [H_OTHER] = U8X_STRICT,
};

static PyObject *encode_loop(const struct codec *c, PyObject *text, const uint32_t *u,
                             Py_ssize_t n, uint32_t policy, enum handler h, PyObject *errors)
{
    struct bytebuf b = {NULL, 0, 0};
    PyObject *exc = NULL, *handler = NULL, *result = NULL;
    uint32_t dialect = policy & U8X_DIALECT_MASK;
    Py_ssize_t pos = 0;
    for (;;) {
        if (reserve(&b, u8x_encode_bound_in((size_t)(n - pos), dialect)) < 0)
            goto done;
        struct u8x_result r = u8x_encode(u + pos, (size_t)(n - pos), b.p + b.len,
                                         (size_t)(b.cap - b.len), policy, '?');
        b.len += (Py_ssize_t)r.written;
        if (r.status == U8X_OK)
            break;
        if (r.status != U8X_ILL_FORMED) {
            u8xpy_unexpected("u8x_encode", r);
            goto done;
        }
        Py_ssize_t start = pos + (Py_ssize_t)r.read, end = start + 1;
        const char *reason = "surrogates not allowed";
        if (dialect == U8X_DIALECT_WTF8) {
            /* WTF-8 writes lone surrogates; a high one then a low one is
             * what it refuses (their pair is one 4-byte character). */
            end = start + 2 <= n ? start + 2 : n;
            reason = "a high surrogate followed by a low one";
        } else {
            while (end < n && is_surrogate(u[end]))
                end++;
        }
        if (!exc) {
            exc = PyObject_CallFunction(PyExc_UnicodeEncodeError, "sOnns", c->name, text, start,
                                        end, reason);
            if (!exc)
                goto done;
        } else if (PyUnicodeEncodeError_SetStart(exc, start) < 0 ||
                   PyUnicodeEncodeError_SetEnd(exc, end) < 0 ||
                   PyUnicodeEncodeError_SetReason(exc, reason) < 0) {
            goto done;
        }
        if (h == H_STRICT || h == H_ESCAPE) {
            /* surrogateescape stopped at a surrogate it cannot map, which
             * CPython's handler refuses with this very exception. */
            PyErr_SetObject(PyExc_UnicodeEncodeError, exc);
            goto done;
        }
        if (!handler && !(handler = PyCodec_LookupError(PyUnicode_AsUTF8(errors))))
            goto done;
        PyObject *res = PyObject_CallOneArg(handler, exc);
        if (!res)
            goto done;
        PyObject *rep = PyTuple_Check(res) && PyTuple_GET_SIZE(res) == 2
                            ? PyTuple_GET_ITEM(res, 0)
                            : NULL;
        if (!rep || !(PyUnicode_Check(rep) || PyBytes_Check(rep)) ||
            !PyLong_Check(PyTuple_GET_ITEM(res, 1))) {
            Py_DECREF(res);
            PyErr_SetString(PyExc_TypeError,
                            "encoding error handler must return (str/bytes, int) tuple");
            goto done;
        }
        Py_ssize_t newpos = PyLong_AsSsize_t(PyTuple_GET_ITEM(res, 1));
        if (newpos == -1 && PyErr_Occurred()) {
            Py_DECREF(res);
            goto done;
        }
        if (newpos < 0)
            newpos += n;
        if (newpos < 0 || newpos > n) {
            Py_DECREF(res);
            PyErr_Format(PyExc_IndexError, "position %zd from error handler out of bounds",
                         newpos);
            goto done;
        }
        const char *bytes;
        Py_ssize_t k;
        if (PyBytes_Check(rep)) {
            bytes = PyBytes_AS_STRING(rep);
            k = PyBytes_GET_SIZE(rep);
        } else if (PyUnicode_IS_ASCII(rep)) {
            bytes = (const char *)PyUnicode_1BYTE_DATA(rep);
            k = PyUnicode_GET_LENGTH(rep);
        } else {
            /* As CPython: a str replacement must be ASCII. */
            Py_DECREF(res);
            PyUnicodeEncodeError_SetStart(exc, start);
            PyUnicodeEncodeError_SetEnd(exc, end);
            PyErr_SetObject(PyExc_UnicodeEncodeError, exc);
            goto done;
        }
        if (reserve(&b, (size_t)k) < 0) {
            Py_DECREF(res);
            goto done;
        }
        memcpy(b.p + b.len, bytes, (size_t)k);
        b.len += k;
        Py_DECREF(res);
        pos = newpos;
    }
    result = PyBytes_FromStringAndSize((const char *)b.p, b.len);
done:
    PyMem_Free(b.p);
    Py_XDECREF(exc);
    Py_XDECREF(handler);
    return result;
}

/* The short-string path (issue 45): a non-ASCII str of up to SHORT_MAX
 * characters is encoded by one library call into a stack buffer, and the
 * bytes object is made once, of the exact size (no bound-sized allocation
 * cut afterwards). A UCS-2 str is widened to UCS-4 first and goes through
 * u8x_encode, which is cheaper than u8x_encode_utf16 on short input and
 * sees each surrogate alone (as a str holds them), so no surrogate check is
 * needed; one it does not handle sends the str to encode_loop. */
#define SHORT_MAX 256

/* Above this bound (bytes), the exact size is measured first: a little
 * below glibc malloc's default mmap threshold (128 KiB), past which a
 * bound-sized bytes object is mapped afresh, its pages faulted in, on
 * every call (2x-5x slower on Arabic and Russian lipsum, whose bounds are
 * 137 and 174 KB). Below it, the bound and a cut are faster than two
 * passes. */
#define EXACT_ABOVE (120 * 1024)

/* Up to TINY_MAX characters, the binding writes the UTF-8 itself, from
 * the str's own 1-, 2- or 4-byte buffer. The library's short-string loop
 * (u8x_encode below 16 code points) is the same loop, but a UCS-2 str
 * would first be widened to UCS-4 for it (u8x_encode_utf16 would join a
 * high and a low surrogate, which are two characters in a str): with the
 * library call in its place, 8-16 non-ASCII characters encoded at
 * 1.00x-1.05x str.encode instead of 1.3x (AMD Zen 4, bench.py). Up to 48:
 * strings of 64 UTF-8 bytes went from 0.92x-0.98x (one u8x_encode call)
 * to 1.1x-1.28x; at 64 emoji (256 bytes) the call is faster again.
 * Surrogates, which need a policy or a handler, are left to the library:
 * the result is -1 at the first one. */
#define TINY_MAX 48

static inline Py_ssize_t encode_tiny(int kind, const void *data, Py_ssize_t n, uint8_t *out)
{
    uint8_t *o = out;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = kind == PyUnicode_1BYTE_KIND   ? ((const Py_UCS1 *)data)[i]
                     : kind == PyUnicode_2BYTE_KIND ? ((const Py_UCS2 *)data)[i]
                                                    : ((const Py_UCS4 *)data)[i];
        if (ch < 0x80) {
            *o++ = (uint8_t)ch;
        } else if (ch < 0x800) {
            *o++ = (uint8_t)(0xC0 | ch >> 6);
            *o++ = (uint8_t)(0x80 | (ch & 0x3F));
        } else if (ch < 0x10000) {
            if ((ch & 0xF800) == 0xD800)
                return -1;
            *o++ = (uint8_t)(0xE0 | ch >> 12);
            *o++ = (uint8_t)(0x80 | (ch >> 6 & 0x3F));
            *o++ = (uint8_t)(0x80 | (ch & 0x3F));
        } else {
            *o++ = (uint8_t)(0xF0 | ch >> 18);
            *o++ = (uint8_t)(0x80 | (ch >> 12 & 0x3F));
            *o++ = (uint8_t)(0x80 | (ch >> 6 & 0x3F));
            *o++ = (uint8_t)(0x80 | (ch & 0x3F));
        }
    }
    return o - out;
}

static PyObject *encode_short(const struct codec *c, PyObject *text, int kind, const void *data,
                              Py_ssize_t n, uint32_t policy, enum handler h, PyObject *errors)
{
    uint8_t out[4 * SHORT_MAX];
    struct u8x_result r;
    if (n <= TINY_MAX) {
        Py_ssize_t k = kind == PyUnicode_1BYTE_KIND   ? encode_tiny(PyUnicode_1BYTE_KIND, data, n, out)
                       : kind == PyUnicode_2BYTE_KIND ? encode_tiny(PyUnicode_2BYTE_KIND, data, n, out)
                                                      : encode_tiny(PyUnicode_4BYTE_KIND, data, n, out);
        if (k >= 0)
            return PyBytes_FromStringAndSize((const char *)out, k);
    }
    if (kind == PyUnicode_1BYTE_KIND) {
        r = u8x_encode_latin1(data, (size_t)n, out, sizeof out);
        if (r.status != U8X_OK)
            return u8xpy_unexpected("u8x_encode_latin1", r);
        return PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)r.written);
    }
    uint32_t wide[SHORT_MAX];
    const uint32_t *u = data;
    if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *p = data;
        for (Py_ssize_t i = 0; i < n; i++)
            wide[i] = p[i];
        u = wide;
    }
    r = u8x_encode(u, (size_t)n, out, sizeof out, policy, '?');
    if (r.status == U8X_OK)
        return PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)r.written);
    if (r.status != U8X_ILL_FORMED)
        return u8xpy_unexpected("u8x_encode", r);
    return encode_loop(c, text, u, n, policy, h, errors); /* a surrogate */
}

PyObject *u8xpy_encode(const struct codec *c, PyObject *text, enum handler h, PyObject *errors)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    uint32_t policy = LIB_POLICY[h];
    if (c->dialect == U8X_DIALECT_STANDARD) {
        PyObject *out;
        if (PyUnicode_IS_ASCII(text))
            return PyBytes_FromStringAndSize(data, n);
        if (n <= SHORT_MAX)
            return encode_short(c, text, kind, data, n, policy, h, errors);
        /* Longer: into a bytes object of the bound's size, cut to length
         * afterwards; or where the bound is above EXACT_ABOVE, of the
         * exact size, measured first. */
        Py_ssize_t size;
        if (kind == PyUnicode_1BYTE_KIND) {
            size = 2 * n;
            if (size > EXACT_ABOVE)
                size = (Py_ssize_t)u8x_encode_latin1(data, (size_t)n, NULL, 0).written;
            if (!(out = PyBytes_FromStringAndSize(NULL, size)))
                return NULL;
            return finish(out,
                          u8x_encode_latin1(data, (size_t)n, (uint8_t *)PyBytes_AS_STRING(out),
                                            (size_t)size),
                          "u8x_encode_latin1");
        }
        if (kind == PyUnicode_2BYTE_KIND && !has_surrogate(data, n)) {
            if (n > PY_SSIZE_T_MAX / 3)
                return PyErr_NoMemory();
            size = 3 * n;
            if (size > EXACT_ABOVE)
                size = (Py_ssize_t)u8x_encoded_len_utf16_valid(data, (size_t)n, 0);
            if (!(out = PyBytes_FromStringAndSize(NULL, size)))
                return NULL;
            return finish(out,
                          u8x_encode_utf16(data, (size_t)n, (uint8_t *)PyBytes_AS_STRING(out),
                                           (size_t)size, U8X_STRICT, '?', 0),
                          "u8x_encode_utf16");
        }
        if (kind == PyUnicode_4BYTE_KIND) {
            if (n > PY_SSIZE_T_MAX / 4)
                return PyErr_NoMemory();
            size = 4 * n;
            if (size > EXACT_ABOVE) {
                struct u8x_result len = u8x_encoded_len(data, (size_t)n, policy, '?');
                if (len.status == U8X_ILL_FORMED)
                    return encode_loop(c, text, data, n, policy, h, errors);
                if (len.status != U8X_OK)
                    return u8xpy_unexpected("u8x_encoded_len", len);
                size = (Py_ssize_t)len.written;
            }
            if (!(out = PyBytes_FromStringAndSize(NULL, size)))
                return NULL;
            struct u8x_result r = u8x_encode(data, (size_t)n, (uint8_t *)PyBytes_AS_STRING(out),
                                             (size_t)size, policy, '?');
            if (r.status != U8X_ILL_FORMED)
                return finish(out, r, "u8x_encode");
            Py_DECREF(out); /* a surrogate the policy does not handle */
            return encode_loop(c, text, data, n, policy, h, errors);
        }
    } else {
        if (h == H_SURROGATEPASS)
            h = H_OTHER; /* CPython's handler knows no dialect: it re-raises */
        policy = LIB_POLICY[h] | c->dialect;
        if (kind == PyUnicode_4BYTE_KIND)
            return encode_loop(c, text, data, n, policy, h, errors);
    }
    Py_UCS4 *u = PyUnicode_AsUCS4Copy(text);
    if (!u)
        return NULL;
    PyObject *out = encode_loop(c, text, u, n, policy, h, errors);
    PyMem_Free(u);
    return out;
}
