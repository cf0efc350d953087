/* libu8xjni.so: the JNI side of MutfCheck (a test, not a binding).
 *
 * u8x's Modified UTF-8 (U8X_DIALECT_MUTF8 through u8x_encode_utf16 /
 * u8x_decode_utf16) as static native methods, and the JVM's own JNI
 * conversions (GetStringUTFChars, NewStringUTF) for MutfCheck to compare
 * with DataOutputStream.writeUTF and DataInputStream.readUTF. */
#include <jni.h>
#include <stdlib.h>
#include <string.h>

#include "u8x.h"

static jintArray result(JNIEnv *env, struct u8x_result r)
{
    jint v[5] = {(jint)r.status, (jint)r.error, (jint)r.read, (jint)r.written,
                 (jint)r.error_len};
    jintArray a = (*env)->NewIntArray(env, 5);
    if (a)
        (*env)->SetIntArrayRegion(env, a, 0, 5, v);
    return a;
}

/* int[] {status, error, read, written, error_len} of u8x_encode_utf16(src,
 * MUTF8 | policy) into dst. */
JNIEXPORT jintArray JNICALL Java_MutfCheck_u8xEncode(JNIEnv *env, jclass cls, jcharArray src,
                                                     jbyteArray dst, jint policy)
{
    jsize n = (*env)->GetArrayLength(env, src), cap = (*env)->GetArrayLength(env, dst);
    uint16_t *u = malloc((size_t)n * 2 + 2);
    uint8_t *b = malloc((size_t)cap + 1);
    if (!u || !b) {
        free(u);
        free(b);
        return NULL;
    }
    (*env)->GetCharArrayRegion(env, src, 0, n, (jchar *)u);
    struct u8x_result r = u8x_encode_utf16(u, (size_t)n, b, (size_t)cap,
                                           (uint32_t)policy | U8X_DIALECT_MUTF8, 0xFFFD, 0);
    (*env)->SetByteArrayRegion(env, dst, 0, (jsize)r.written, (jbyte *)b);
    free(u);
    free(b);
    return result(env, r);
}

/* u8x_decode_utf16(src, MUTF8 | policy) into dst. */
JNIEXPORT jintArray JNICALL Java_MutfCheck_u8xDecode(JNIEnv *env, jclass cls, jbyteArray src,
                                                     jcharArray dst, jint policy)
{
    jsize n = (*env)->GetArrayLength(env, src), cap = (*env)->GetArrayLength(env, dst);
    uint8_t *b = malloc((size_t)n + 1);
    uint16_t *u = malloc((size_t)cap * 2 + 2);
    if (!u || !b) {
        free(u);
        free(b);
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, src, 0, n, (jbyte *)b);
    struct u8x_result r = u8x_decode_utf16(b, (size_t)n, u, (size_t)cap,
                                           (uint32_t)policy | U8X_DIALECT_MUTF8, 0xFFFD, 0);
    (*env)->SetCharArrayRegion(env, dst, 0, (jsize)r.written, (jchar *)u);
    free(u);
    free(b);
    return result(env, r);
}

/* The JVM's own Modified UTF-8 of s: GetStringUTFChars. */
JNIEXPORT jbyteArray JNICALL Java_MutfCheck_getStringUTFChars(JNIEnv *env, jclass cls, jstring s)
{
    jsize n = (*env)->GetStringUTFLength(env, s);
    const char *c = (*env)->GetStringUTFChars(env, s, NULL);
    if (!c)
        return NULL;
    jbyteArray a = (*env)->NewByteArray(env, n);
    if (a)
        (*env)->SetByteArrayRegion(env, a, 0, n, (const jbyte *)c);
    (*env)->ReleaseStringUTFChars(env, s, c);
    return a;
}

/* The JVM's string of Modified UTF-8 bytes: NewStringUTF (which takes a
 * NUL-terminated string, so the bytes must hold no 00). */
JNIEXPORT jstring JNICALL Java_MutfCheck_newStringUTF(JNIEnv *env, jclass cls, jbyteArray src)
{
    jsize n = (*env)->GetArrayLength(env, src);
    char *c = malloc((size_t)n + 1);
    if (!c)
        return NULL;
    (*env)->GetByteArrayRegion(env, src, 0, n, (jbyte *)c);
    c[n] = 0;
    jstring s = memchr(c, 0, (size_t)n) ? NULL : (*env)->NewStringUTF(env, c);
    free(c);
    return s;
}
