/* A stand-in for glibc's include/array_length.h. */
#ifndef U8X_ARRAY_LENGTH_H
#define U8X_ARRAY_LENGTH_H
#define array_length(var) (sizeof(var) / sizeof((var)[0]))
#define array_end(var) (&(var)[array_length(var)])
#endif
