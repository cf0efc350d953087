/* The config.h gnulib's tests include: nothing to configure, since they run
 * against the libc that is linked (glibc, or glibc with the preload), with
 * no gnulib replacement functions. */
#define _GNU_SOURCE 1
#define _GL_UNUSED __attribute__ ((__unused__))
/* gnulib's uchar module adds btoc32 and c32tob; on glibc, whose char32_t
 * and wchar_t are both UCS-4, gnulib's own uchar.h makes them btowc and
 * wctob, and so does this. */
#include <wchar.h>
#define btoc32 btowc
#define c32tob wctob
