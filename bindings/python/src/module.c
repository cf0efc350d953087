/* u8x._u8x: the module, its arguments, and the codec functions.
 *
 * Two sets of functions. The direct API (decode, encode, validate, ...)
 * takes its arguments as bytes.decode and str.encode do. The codec
 * functions are built once per codec (u8x, u8x-sig, u8x-cesu-8, ...) with
 * the codec as their `self`, and have the signatures of codecs.utf_8_decode
 * and codecs.utf_8_encode: `u8x._codecs` makes CodecInfo objects of them.
 * Every function is METH_FASTCALL: no argument tuple is built. */
#include "u8xpy.h"

#include <string.h>

const struct codec U8XPY_STANDARD = {U8X_DIALECT_STANDARD, "utf-8"};

/* The codecs, by the index their functions hold as `self`. */
static const struct codec CODECS[] = {
    {U8X_DIALECT_STANDARD, "utf-8"},      {U8X_DIALECT_STANDARD, "utf-8"},
    {U8X_DIALECT_CESU8, "u8x-cesu-8"},    {U8X_DIALECT_MUTF8, "u8x-mutf-8"},
    {U8X_DIALECT_WTF8, "u8x-wtf-8"},      {U8X_DIALECT_LEGACY, "u8x-legacy"},
};
static const char *const CODEC_NAMES[] = {"u8x",        "u8x-sig",   "u8x-cesu-8",
                                          "u8x-mutf-8", "u8x-wtf-8", "u8x-legacy"};
#define NCODECS 6

/* ---------------------------------------------------------------- arguments */

/* Fills out[0..nnames) from positional and keyword arguments (NULL where
 * absent); the first `required` are required. */
static int parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                 const char *const *names, int nnames, int required, PyObject **out)
{
    for (int i = 0; i < nnames; i++)
        out[i] = NULL;
    if (nargs > nnames) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", fname,
                     nnames, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++)
        out[i] = args[i];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int i = 0;
        while (i < nnames && PyUnicode_CompareWithASCIIString(key, names[i]) != 0)
            i++;
        if (i == nnames) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname,
                         key);
            return -1;
        }
        if (out[i]) {
            PyErr_Format(PyExc_TypeError, "argument for %s() given by name ('%s') and position",
                         fname, names[i]);
            return -1;
        }
        out[i] = args[nargs + k];
    }
    for (int i = 0; i < required; i++) {
        if (!out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname, names[i]);
            return -1;
        }
    }
    return 0;
}

int u8xpy_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                const char *const *names, int nnames, int required, PyObject **out)
{
    return parse(fname, args, nargs, kwnames, names, nnames, required, out);
}

int u8xpy_handler(PyObject *errors, enum handler *h)
{
    static const char *const names[] = {"strict", "replace", "surrogateescape", "ignore",
                                        "latin1", "cp1252",  "surrogatepass"};
    if (!errors || errors == Py_None) {
        *h = H_STRICT;
        return 0;
    }
    if (!PyUnicode_Check(errors)) {
        PyErr_Format(PyExc_TypeError, "argument 'errors' must be str or None, not %.50s",
                     Py_TYPE(errors)->tp_name);
        return -1;
    }
    for (int i = 0; i < 7; i++) {
        if (PyUnicode_CompareWithASCIIString(errors, names[i]) == 0) {
            *h = (enum handler)i;
            return 0;
        }
    }
    *h = H_OTHER;
    return 0;
}

/* The bytes of a bytes-like object. bytes itself is read in place (and is
 * the exception's object); anything else through the buffer protocol. */
struct input {
    const uint8_t *p;
    Py_ssize_t n;
    PyObject *obj; /* borrowed: the bytes, or NULL */
    Py_buffer view;
    int has_view;
};

static int get_input(PyObject *arg, struct input *in)
{
    in->has_view = 0;
    if (PyBytes_CheckExact(arg)) {
        in->p = (const uint8_t *)PyBytes_AS_STRING(arg);
        in->n = PyBytes_GET_SIZE(arg);
        in->obj = arg;
        return 0;
    }
    if (PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "a bytes-like object is required, not 'str'");
        return -1;
    }
    if (PyObject_GetBuffer(arg, &in->view, PyBUF_SIMPLE) < 0)
        return -1;
    in->has_view = 1;
    in->p = in->view.buf;
    in->n = in->view.len;
    in->obj = PyBytes_Check(arg) ? arg : NULL;
    return 0;
}

static void release(struct input *in)
{
    if (in->has_view)
        PyBuffer_Release(&in->view);
}

static int get_str(PyObject *arg, const char *fname)
{
    if (PyUnicode_Check(arg))
        return 0;
    PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.50s", fname,
                 Py_TYPE(arg)->tp_name);
    return -1;
}

static int get_strict_errors(PyObject *errors, const char *fname, enum handler *h)
{
    if (errors && !PyUnicode_Check(errors)) {
        PyErr_Format(PyExc_TypeError, "%s() argument 'errors' must be str, not %.50s", fname,
                     Py_TYPE(errors)->tp_name);
        return -1;
    }
    return u8xpy_handler(errors, h);
}

/* ---------------------------------------------------------------- direct API */

static PyObject *py_decode(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"data", "errors"};
    PyObject *a[2];
    enum handler h = H_STRICT;
    struct input in;
    /* The common call, decode(b), parses nothing. */
    if (nargs == 1 && !kw) {
        a[0] = args[0];
        a[1] = NULL;
    } else if (parse("decode", args, nargs, kw, names, 2, 1, a) < 0 ||
               get_strict_errors(a[1], "decode", &h) < 0) {
        return NULL;
    }
    if (get_input(a[0], &in) < 0)
        return NULL;
    PyObject *s = u8xpy_decode(&U8XPY_STANDARD, in.p, in.n, in.obj, h, a[1], 1, 0, NULL);
    release(&in);
    return s;
}

static PyObject *py_encode(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"text", "errors"};
    PyObject *a[2];
    enum handler h = H_STRICT;
    if (nargs == 1 && !kw) {
        a[0] = args[0];
        a[1] = NULL;
    } else if (parse("encode", args, nargs, kw, names, 2, 1, a) < 0 ||
               get_strict_errors(a[1], "encode", &h) < 0) {
        return NULL;
    }
    if (get_str(a[0], "encode") < 0)
        return NULL;
    return u8xpy_encode(&U8XPY_STANDARD, a[0], h, a[1]);
}

static PyObject *decode_error(PyObject *arg, const struct input *in, struct u8x_result r)
{
    if (r.status != U8X_ILL_FORMED)
        return u8xpy_unexpected("u8x_validate", r);
    PyObject *obj = in->obj ? (Py_INCREF(in->obj), in->obj)
                            : PyBytes_FromStringAndSize((const char *)in->p, in->n);
    if (!obj)
        return NULL;
    PyObject *exc = PyObject_CallFunction(PyExc_UnicodeDecodeError, "sOnns", "utf-8", obj,
                                          (Py_ssize_t)r.read, (Py_ssize_t)(r.read + r.error_len),
                                          u8xpy_reason(r.error));
    Py_DECREF(obj);
    if (exc) {
        PyErr_SetObject(PyExc_UnicodeDecodeError, exc);
        Py_DECREF(exc);
    }
    return NULL;
}

static PyObject *py_validate(PyObject *m, PyObject *arg)
{
    struct input in;
    if (get_input(arg, &in) < 0)
        return NULL;
    struct u8x_result r = u8x_validate(in.p, (size_t)in.n, 0);
    PyObject *res = r.status == U8X_OK ? (Py_INCREF(Py_None), Py_None) : decode_error(arg, &in, r);
    release(&in);
    return res;
}

static PyObject *py_is_valid(PyObject *m, PyObject *arg)
{
    struct input in;
    if (get_input(arg, &in) < 0)
        return NULL;
    struct u8x_result r = u8x_validate(in.p, (size_t)in.n, 0);
    release(&in);
    if (r.status == U8X_OK)
        Py_RETURN_TRUE;
    if (r.status == U8X_ILL_FORMED)
        Py_RETURN_FALSE;
    return u8xpy_unexpected("u8x_validate", r);
}

static PyObject *py_count(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"data", "errors"};
    static const uint32_t policy[] = {U8X_STRICT, U8X_REPLACE, U8X_ESCAPE,
                                      U8X_IGNORE, U8X_LATIN1,  U8X_CP1252};
    PyObject *a[2];
    enum handler h;
    struct input in;
    if (parse("count", args, nargs, kw, names, 2, 1, a) < 0 ||
        get_strict_errors(a[1], "count", &h) < 0)
        return NULL;
    if (h > H_CP1252) {
        PyErr_Format(PyExc_ValueError,
                     "u8x.count: unsupported errors=%R (supported: strict, replace, "
                     "surrogateescape, ignore, latin1, cp1252)",
                     a[1]);
        return NULL;
    }
    if (get_input(a[0], &in) < 0)
        return NULL;
    struct u8x_result r = u8x_count(in.p, (size_t)in.n, policy[h], 0);
    PyObject *res = r.status == U8X_OK ? PyLong_FromSize_t(r.written)
                    : h == H_STRICT    ? decode_error(a[0], &in, r)
                                       : u8xpy_unexpected("u8x_count", r);
    release(&in);
    return res;
}

static PyObject *boundary(const char *fname, size_t (*fn)(const uint8_t *, size_t, size_t),
                          PyObject *const *args, Py_ssize_t nargs)
{
    struct input in;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly 2 arguments (%zd given)", fname, nargs);
        return NULL;
    }
    PyObject *idx = PyNumber_Index(args[1]);
    if (!idx)
        return NULL;
    Py_ssize_t pos = PyLong_AsSsize_t(idx);
    Py_DECREF(idx);
    if (pos == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return NULL;
        PyErr_Clear();
        pos = PY_SSIZE_T_MAX; /* out of range either way */
    }
    if (get_input(args[0], &in) < 0)
        return NULL;
    PyObject *res;
    if (pos < 0 || pos > in.n) {
        PyErr_Format(PyExc_IndexError, "u8x.%s: position %zd outside 0..%zd", fname, pos, in.n);
        res = NULL;
    } else {
        res = PyLong_FromSize_t(fn(in.p, (size_t)in.n, (size_t)pos));
    }
    release(&in);
    return res;
}

static PyObject *py_next_boundary(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    return boundary("next_boundary", u8x_next_boundary, args, nargs);
}

static PyObject *py_prev_boundary(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    return boundary("prev_boundary", u8x_prev_boundary, args, nargs);
}

static PyObject *py_tier(PyObject *m, PyObject *unused)
{
    return PyUnicode_FromString(u8x_tier_name());
}

/* ---------------------------------------------------------------- codec functions */

static const struct codec *codec_of(PyObject *self, int *bom)
{
    long i = PyLong_AsLong(self);
    *bom = i == 1;
    return &CODECS[i];
}

/* decode(data, errors=None, final=False) -> (str, consumed), as
 * codecs.utf_8_decode; the stateless codec function passes final=True. */
static PyObject *codec_decode(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kw, int final)
{
    static const char *const names[] = {"data", "errors", "final"};
    PyObject *a[3];
    enum handler h;
    struct input in;
    int bom;
    const struct codec *c = codec_of(self, &bom);
    if (parse("decode", args, nargs, kw, names, 3, 1, a) < 0 || u8xpy_handler(a[1], &h) < 0)
        return NULL;
    if (a[2] && (final = PyObject_IsTrue(a[2])) < 0)
        return NULL;
    if (get_input(a[0], &in) < 0)
        return NULL;
    Py_ssize_t consumed = 0;
    PyObject *s = u8xpy_decode(c, in.p, in.n, in.obj, h, a[1], final, bom, &consumed);
    release(&in);
    if (!s)
        return NULL;
    PyObject *t = Py_BuildValue("(Nn)", s, consumed);
    return t;
}

static PyObject *codec_decode_stream(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kw)
{
    return codec_decode(self, args, nargs, kw, 0);
}

static PyObject *codec_decode_final(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kw)
{
    return codec_decode(self, args, nargs, kw, 1);
}

/* encode(text, errors=None) -> (bytes, len(text)), as codecs.utf_8_encode. */
static PyObject *codec_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kw)
{
    static const char *const names[] = {"text", "errors"};
    PyObject *a[2];
    enum handler h;
    int bom;
    const struct codec *c = codec_of(self, &bom);
    if (parse("encode", args, nargs, kw, names, 2, 1, a) < 0 || u8xpy_handler(a[1], &h) < 0 ||
        get_str(a[0], "encode") < 0)
        return NULL;
    PyObject *b = u8xpy_encode(c, a[0], h, a[1]);
    return b ? Py_BuildValue("(Nn)", b, PyUnicode_GET_LENGTH(a[0])) : NULL;
}

static PyMethodDef codec_defs[] = {
    {"decode", (PyCFunction)(void (*)(void))codec_decode_final, METH_FASTCALL | METH_KEYWORDS,
     "decode(data, errors=None) -> (str, consumed): the whole input."},
    {"decode_stream", (PyCFunction)(void (*)(void))codec_decode_stream,
     METH_FASTCALL | METH_KEYWORDS,
     "decode_stream(data, errors=None, final=False) -> (str, consumed), as "
     "codecs.utf_8_decode: with final false a sequence cut by the end is left unconsumed."},
    {"encode", (PyCFunction)(void (*)(void))codec_encode, METH_FASTCALL | METH_KEYWORDS,
     "encode(text, errors=None) -> (bytes, len(text)), as codecs.utf_8_encode."},
};

/* ---------------------------------------------------------------- module */

static PyMethodDef methods[] = {
    {"decode", (PyCFunction)(void (*)(void))py_decode, METH_FASTCALL | METH_KEYWORDS,
     "decode(data, errors='strict') -> str"},
    {"encode", (PyCFunction)(void (*)(void))py_encode, METH_FASTCALL | METH_KEYWORDS,
     "encode(text, errors='strict') -> bytes"},
    {"validate", py_validate, METH_O, "validate(data) -> None, or raises UnicodeDecodeError"},
    {"is_valid", py_is_valid, METH_O, "is_valid(data) -> bool"},
    {"count", (PyCFunction)(void (*)(void))py_count, METH_FASTCALL | METH_KEYWORDS,
     "count(data, errors='strict') -> int"},
    {"next_boundary", (PyCFunction)(void (*)(void))py_next_boundary, METH_FASTCALL,
     "next_boundary(data, pos) -> int"},
    {"prev_boundary", (PyCFunction)(void (*)(void))py_prev_boundary, METH_FASTCALL,
     "prev_boundary(data, pos) -> int"},
    {"tier", py_tier, METH_NOARGS, "tier() -> the CPU tier libu8x runs"},
    {"convert", (PyCFunction)(void (*)(void))py_convert, METH_FASTCALL | METH_KEYWORDS,
     "convert(data, source, target, errors='strict') -> bytes, between latin-1, utf-16-le/be "
     "and utf-32-le/be with no str between"},
    {"detect_encoding", py_detect_encoding, METH_O,
     "detect_encoding(data) -> (likely, frozenset of valid encodings, bom_len)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "u8x._u8x",
    "The compiled core of the u8x package (libu8x linked in statically).", -1, methods,
};

PyMODINIT_FUNC PyInit__u8x(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    PyObject *codecs = PyDict_New();
    if (!codecs || PyModule_AddObject(m, "CODECS", codecs) < 0)
        goto fail;
    for (int i = 0; i < NCODECS; i++) {
        PyObject *idx = PyLong_FromLong(i), *fns[3];
        if (!idx)
            goto fail;
        for (int k = 0; k < 3; k++) {
            fns[k] = PyCFunction_NewEx(&codec_defs[k], idx, NULL);
            if (!fns[k]) {
                Py_DECREF(idx);
                goto fail;
            }
        }
        Py_DECREF(idx);
        PyObject *t = Py_BuildValue("(NNN)", fns[0], fns[1], fns[2]);
        if (!t || PyDict_SetItemString(codecs, CODEC_NAMES[i], t) < 0) {
            Py_XDECREF(t);
            goto fail;
        }
        Py_DECREF(t);
    }
    if (PyModule_AddStringConstant(m, "library_version", u8x_version()) < 0 ||
        PyModule_AddStringConstant(m, "header_version", U8X_VERSION_STRING) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
