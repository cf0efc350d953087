/* The u8x CPython extension (u8x._u8x): declarations shared by its files.
 *
 * decode.c turns bytes into str, encode.c str into bytes, forms.c bytes of
 * one form into another and detects encodings, module.c parses arguments
 * and defines the module. All of them call libu8x (linked in
 * statically by setup.py) and only CPython's limited-by-habit public API:
 * PyUnicode_New and the PyUnicode_DATA/KIND macros, PyCodec_LookupError,
 * PyUnicodeDecodeError_Create and friends. */
#ifndef U8XPY_H
#define U8XPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "u8x.h"

/* What an `errors` name means to the binding. The first six are library
 * policies; SURROGATEPASS is the generalized dialect; OTHER is any name
 * looked up with PyCodec_LookupError (backslashreplace, namereplace,
 * xmlcharrefreplace and user-registered handlers). */
enum handler {
    H_STRICT,
    H_REPLACE,
    H_ESCAPE,
    H_IGNORE,
    H_LATIN1,
    H_CP1252,
    H_SURROGATEPASS,
    H_OTHER,
};

/* A codec: which UTF-8 it speaks and the name its exceptions carry. */
struct codec {
    uint32_t dialect; /* a u8x_dialect */
    const char *name; /* UnicodeError.encoding */
};

extern const struct codec U8XPY_STANDARD;

/* Sets *h from `errors` (a str, or NULL/None for strict). Returns -1 with
 * TypeError for a non-str. */
int u8xpy_handler(PyObject *errors, enum handler *h);

/* Decodes src[0..n). obj is the bytes object the exception reports (NULL:
 * made from src when needed). final=0 leaves a cut sequence at the end
 * unconsumed; *consumed says how much was read. bom=1 drops one leading
 * EF BB BF. */
PyObject *u8xpy_decode(const struct codec *c, const uint8_t *src, Py_ssize_t n, PyObject *obj,
                       enum handler h, PyObject *errors, int final, int bom,
                       Py_ssize_t *consumed);

/* Encodes the str `text`. */
PyObject *u8xpy_encode(const struct codec *c, PyObject *text, enum handler h, PyObject *errors);

/* The module's argument parser: out[0..nnames) from positional and
 * keyword arguments, the first `required` required. */
int u8xpy_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                const char *const *names, int nnames, int required, PyObject **out);

/* forms.c: convert() and detect_encoding(). */
PyObject *py_convert(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *py_detect_encoding(PyObject *self, PyObject *data);

/* CPython's reason for a u8x_error. */
const char *u8xpy_reason(uint32_t error);

/* RuntimeError for a result the library should never give. */
PyObject *u8xpy_unexpected(const char *what, struct u8x_result r);

#endif
