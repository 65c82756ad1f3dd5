/*
 * The glibc 2.38 symbols that Debian's static Swift runtime for aarch64
 * (swiftlang:arm64 6.2.3 from sid, built against glibc 2.42 headers) asks for,
 * defined here on older interfaces so that the arm64 accessoryd needs no glibc
 * newer than bookworm's 2.36. Linked into every arm64 product as an object
 * (packaging/arm64/swift-env), so the linker takes these before libc's.
 *
 * Why the names exist: glibc 2.38's headers send strtol, strtoll and sscanf
 * under _GNU_SOURCE to their ISO C23 variants (__isoc23_*), which also accept
 * the binary prefix "0b"; strlcpy is new in 2.38. The strto* here keep the C23
 * behaviour (the prefix, for base 0 and 2); sscanf does not: a %i or %b of a
 * "0b…" string reads as C11 does. The Swift runtime's callers (environment
 * variables, /proc files) use neither.
 *
 * Compiled as C11 without _GNU_SOURCE, so that strtol, strtoll and vsscanf
 * below are glibc's C99 entry points, not these again.
 */
#undef _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a C23 "0b"/"0B" prefix followed by a binary digit starts the number, for
 * base 0 or 2: the position after the prefix (and the sign, reapplied by the
 * caller), else NULL. */
static const char *binary_digits(const char *text, int base, int *negative) {
    const char *p = text;
    if (base != 0 && base != 2) return NULL;
    while (isspace((unsigned char)*p)) p++;
    *negative = 0;
    if (*p == '+' || *p == '-') *negative = *p++ == '-';
    if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) return p + 2;
    return NULL;
}

long __isoc23_strtol(const char *text, char **end, int base) {
    int negative;
    const char *digits = binary_digits(text, base, &negative);
    if (!digits) return strtol(text, end, base);
    /* The digits alone, unsigned (ERANGE past ULONG_MAX), then the sign and the range. */
    unsigned long magnitude = strtoul(digits, end, 2);
    if (negative) {
        if (magnitude > (unsigned long)LONG_MAX + 1) { errno = ERANGE; return LONG_MIN; }
        return magnitude == (unsigned long)LONG_MAX + 1 ? LONG_MIN : -(long)magnitude;
    }
    if (magnitude > LONG_MAX) { errno = ERANGE; return LONG_MAX; }
    return (long)magnitude;
}

long long __isoc23_strtoll(const char *text, char **end, int base) {
    int negative;
    const char *digits = binary_digits(text, base, &negative);
    if (!digits) return strtoll(text, end, base);
    unsigned long long magnitude = strtoull(digits, end, 2);
    if (negative) {
        if (magnitude > (unsigned long long)LLONG_MAX + 1) { errno = ERANGE; return LLONG_MIN; }
        return magnitude == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)magnitude;
    }
    if (magnitude > LLONG_MAX) { errno = ERANGE; return LLONG_MAX; }
    return (long long)magnitude;
}

int __isoc23_sscanf(const char *text, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int count = vsscanf(text, format, arguments);
    va_end(arguments);
    return count;
}

#if defined(__aarch64__)
#define GLIBC_FIRST "GLIBC_2.17"
#elif defined(__x86_64__)
#define GLIBC_FIRST "GLIBC_2.2.5"
#endif
double first_fmod(double, double);
float first_fmodf(float, float);
__asm__(".symver first_fmod, fmod@" GLIBC_FIRST);
__asm__(".symver first_fmodf, fmodf@" GLIBC_FIRST);

double fmod(double x, double y) { return first_fmod(x, y); }
float fmodf(float x, float y) { return first_fmodf(x, y); }

size_t strlcpy(char *destination, const char *source, size_t size) {
    size_t length = strlen(source);
    if (size > 0) {
        size_t copied = length < size - 1 ? length : size - 1;
        memcpy(destination, source, copied);
        destination[copied] = '\0';
    }
    return length;
}
