/* u8x._u8x: bytes in one of Latin-1, UTF-16 and UTF-32 converted to
 * another with no str and no UTF-8 between (the library's
 * u8x_convert_*), and the detection of bytes of unknown encoding.
 *
 * convert(data, source, target, errors='strict') -> bytes
 *   source and target are 'latin-1', 'utf-16-le', 'utf-16-be', 'utf-32-le'
 *   or 'utf-32-be' (CPython's codec names; 'latin1', 'utf-16le', ... too),
 *   not two of the same kind. errors: 'strict' raises UnicodeDecodeError
 *   (encoding = source, start/end in bytes of data, reason 'unpaired
 *   surrogate', 'code point not in range(0x110000)' or 'character not in
 *   latin-1'); 'replace' writes U+FFFD (or '?' in Latin-1), 'ignore' drops,
 *   'surrogatepass' keeps unpaired surrogates as their values (UTF-16 <->
 *   UTF-32 only). A length that is not a whole number of units is
 *   UnicodeDecodeError 'truncated data'.
 *
 * detect_encoding(data) -> (likely, valid, bom_len)
 *   likely: the most likely encoding's codec name, or None; valid: a
 *   frozenset of the names data is valid as; bom_len: the bytes of the byte
 *   order mark that chose `likely` (0 without one). */
#include "u8xpy.h"

#include <string.h>

enum form { LATIN1, UTF16LE, UTF16BE, UTF32LE, UTF32BE, NFORMS };

static const char *const FORM_NAMES[NFORMS] = {"latin-1", "utf-16-le", "utf-16-be",
                                               "utf-32-le", "utf-32-be"};
static const size_t UNIT[NFORMS] = {1, 2, 2, 4, 4};

static int form_of(PyObject *name, const char *arg, enum form *f)
{
    static const struct {
        const char *name;
        enum form form;
    } names[] = {
        {"latin-1", LATIN1},     {"latin1", LATIN1},     {"iso-8859-1", LATIN1},
        {"utf-16-le", UTF16LE},  {"utf-16le", UTF16LE},  {"utf-16-be", UTF16BE},
        {"utf-16be", UTF16BE},   {"utf-32-le", UTF32LE}, {"utf-32le", UTF32LE},
        {"utf-32-be", UTF32BE},  {"utf-32be", UTF32BE},
    };
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    if (!s) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "argument '%s' must be str", arg);
        return -1;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(s, names[i].name) == 0) {
            *f = names[i].form;
            return 0;
        }
    }
    PyErr_Format(PyExc_LookupError,
                 "u8x.convert: unknown %s '%s' (expected latin-1, utf-16-le, utf-16-be, "
                 "utf-32-le or utf-32-be)",
                 arg, s);
    return -1;
}

static uint32_t utf16_flag(enum form f) { return f == UTF16BE ? U8X_BIG_ENDIAN : U8X_LITTLE_ENDIAN; }
static uint32_t ucs4_flag(enum form f)
{
    return f == UTF32BE ? U8X_UCS4_BIG_ENDIAN : U8X_UCS4_LITTLE_ENDIAN;
}
static int is16(enum form f) { return f == UTF16LE || f == UTF16BE; }
static int is32(enum form f) { return f == UTF32LE || f == UTF32BE; }

/* One library call: n units at src (aligned for the source form) into
 * dst (room for `cap` target units, aligned). */
static struct u8x_result call(enum form from, enum form to, const void *src, size_t n, void *dst,
                              size_t cap, uint32_t policy, uint32_t replacement)
{
    if (from == LATIN1 && is16(to))
        return u8x_convert_latin1_to_utf16(src, n, dst, cap, utf16_flag(to));
    if (from == LATIN1)
        return u8x_convert_latin1_to_ucs4(src, n, dst, cap, ucs4_flag(to));
    if (is16(from) && to == LATIN1)
        return u8x_convert_utf16_to_latin1(src, n, dst, cap, policy, replacement, utf16_flag(from));
    if (is32(from) && to == LATIN1)
        return u8x_convert_ucs4_to_latin1(src, n, dst, cap, policy, replacement, ucs4_flag(from));
    if (is16(from))
        return u8x_convert_utf16_to_ucs4(src, n, dst, cap, policy, replacement,
                                         utf16_flag(from) | ucs4_flag(to));
    return u8x_convert_ucs4_to_utf16(src, n, dst, cap, policy, replacement,
                                     ucs4_flag(from) | utf16_flag(to));
}

static PyObject *decode_error(enum form from, PyObject *obj, const char *data, Py_ssize_t len,
                              Py_ssize_t start, Py_ssize_t end, const char *reason)
{
    PyObject *bytes = obj && PyBytes_Check(obj) ? (Py_INCREF(obj), obj)
                                                : PyBytes_FromStringAndSize(data, len);
    if (!bytes)
        return NULL;
    PyObject *e = PyObject_CallFunction(PyExc_UnicodeDecodeError, "sOnns", FORM_NAMES[from],
                                        bytes, start, end, reason);
    Py_DECREF(bytes);
    if (e) {
        PyErr_SetObject(PyExc_UnicodeDecodeError, e);
        Py_DECREF(e);
    }
    return NULL;
}

PyObject *py_convert(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = {"data", "source", "target", "errors"};
    PyObject *a[4];
    if (u8xpy_parse("convert", args, nargs, kwnames, names, 4, 3, a) < 0)
        return NULL;
    enum form from, to;
    enum handler h;
    if (form_of(a[1], "source", &from) < 0 || form_of(a[2], "target", &to) < 0 ||
        u8xpy_handler(a[3], &h) < 0)
        return NULL;
    if (from == to || (is16(from) && is16(to)) || (is32(from) && is32(to))) {
        PyErr_Format(PyExc_ValueError,
                     "u8x.convert: %s to %s is not a conversion between two forms "
                     "(swap the bytes, or decode and encode)",
                     FORM_NAMES[from], FORM_NAMES[to]);
        return NULL;
    }
    uint32_t policy, replacement = to == LATIN1 ? '?' : U8X_REPLACEMENT_CHARACTER;
    switch (h) {
    case H_STRICT: policy = U8X_STRICT; break;
    case H_REPLACE: policy = U8X_REPLACE; break;
    case H_IGNORE: policy = U8X_IGNORE; break;
    case H_SURROGATEPASS:
        if (to != LATIN1 && from != LATIN1) {
            policy = U8X_ESCAPE;
            break;
        }
        /* fall through */
    default: {
        const char *e = PyUnicode_AsUTF8(a[3]);
        PyErr_Format(PyExc_LookupError,
                     "u8x.convert: errors='%s' is not supported here (strict, replace, ignore%s)",
                     e ? e : "?", to != LATIN1 && from != LATIN1 ? ", surrogatepass" : "");
        return NULL;
    }
    }
    Py_buffer view;
    if (PyObject_GetBuffer(a[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *result = NULL;
    void *in_copy = NULL, *out_buf = NULL;
    const char *data = view.buf;
    Py_ssize_t len = view.len;
    size_t in_unit = UNIT[from], out_unit = UNIT[to];
    size_t n = (size_t)len / in_unit;
    if ((size_t)len % in_unit != 0) {
        decode_error(from, a[0], data, len, (Py_ssize_t)(n * in_unit), len, "truncated data");
        goto done;
    }
    const void *src = data;
    if (((uintptr_t)data % in_unit) != 0) {
        /* The library takes aligned units: a copy of an unaligned view. */
        in_copy = PyMem_Malloc(len ? (size_t)len : 1);
        if (!in_copy) {
            PyErr_NoMemory();
            goto done;
        }
        memcpy(in_copy, data, (size_t)len);
        src = in_copy;
    }
    /* At most two target units a source unit (UTF-32 to UTF-16). */
    size_t cap = n * (from == LATIN1 || to == LATIN1 || is16(from) ? 1 : 2);
    out_buf = PyMem_Malloc(cap * out_unit ? cap * out_unit : 1);
    if (!out_buf) {
        PyErr_NoMemory();
        goto done;
    }
    struct u8x_result r;
    Py_BEGIN_ALLOW_THREADS
    r = call(from, to, src, n, out_buf, cap, policy, replacement);
    Py_END_ALLOW_THREADS
    if (r.status == U8X_ILL_FORMED) {
        const char *reason = r.error == U8X_ERR_SURROGATE       ? "unpaired surrogate"
                             : r.error == U8X_ERR_ABOVE_MAX     ? "code point not in range(0x110000)"
                                                                : "character not in latin-1";
        Py_ssize_t start = (Py_ssize_t)(r.read * in_unit);
        decode_error(from, a[0], data, len, start, start + (Py_ssize_t)(r.error_len * in_unit),
                     reason);
        goto done;
    }
    if (r.status != U8X_OK) {
        u8xpy_unexpected("convert", r);
        goto done;
    }
    result = PyBytes_FromStringAndSize(out_buf, (Py_ssize_t)(r.written * out_unit));
done:
    PyMem_Free(in_copy);
    PyMem_Free(out_buf);
    PyBuffer_Release(&view);
    return result;
}

PyObject *py_detect_encoding(PyObject *self, PyObject *data)
{
    (void)self;
    static const char *const codec[5] = {"utf-8", "utf-16-le", "utf-16-be", "utf-32-le",
                                         "utf-32-be"};
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    u8x_detection d;
    struct u8x_result r;
    Py_BEGIN_ALLOW_THREADS
    r = u8x_detect_encoding(view.buf, (size_t)view.len, &d);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (r.status != U8X_OK)
        return u8xpy_unexpected("detect_encoding", r);
    PyObject *valid = PyFrozenSet_New(NULL), *likely = Py_None;
    if (!valid)
        return NULL;
    for (int i = 0; i < 5; i++) {
        if (!(d.valid & (1u << i)))
            continue;
        PyObject *name = PyUnicode_FromString(codec[i]);
        if (!name || PySet_Add(valid, name) < 0) {
            Py_XDECREF(name);
            Py_DECREF(valid);
            return NULL;
        }
        Py_DECREF(name);
    }
    for (int i = 0; i < 5; i++)
        if (d.likely == (1u << i))
            likely = PyUnicode_FromString(codec[i]);
    if (!likely) {
        Py_DECREF(valid);
        return NULL;
    }
    if (likely == Py_None)
        Py_INCREF(Py_None);
    return Py_BuildValue("(NNn)", likely, valid, (Py_ssize_t)d.bom_len);
}
