/*
 * packaging/arm64/glibc-compat.c against the real thing: built for the build
 * chroot's own glibc (sid, 2.42, which has the __isoc23_* functions and
 * strlcpy), the shim's functions under other names (-D renames) are compared
 * with glibc's on inputs chosen for the edges: prefixes, signs, bases, range,
 * where parsing stops, errno; strlcpy's truncation and return value; fmod and
 * fmodf against the architecture's newest libm version, bit for bit.
 * packaging/arm64/glibc-compat builds and runs it. Exit status 1 on a difference.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

long __isoc23_strtol(const char *, char **, int);
long long __isoc23_strtoll(const char *, char **, int);
int __isoc23_sscanf(const char *, const char *, ...);
size_t strlcpy(char *, const char *, size_t);
long compat_strtol(const char *, char **, int);
long long compat_strtoll(const char *, char **, int);
int compat_sscanf(const char *, const char *, ...);
size_t compat_strlcpy(char *, const char *, size_t);
double compat_fmod(double, double);
float compat_fmodf(float, float);

static int failures, cases;

static void strto(const char *text, int base) {
    char *end_real, *end_shim;
    errno = 0; long real = __isoc23_strtol(text, &end_real, base); int errno_real = errno;
    errno = 0; long shim = compat_strtol(text, &end_shim, base); int errno_shim = errno;
    cases++;
    if (real != shim || end_real != end_shim || errno_real != errno_shim) {
        failures++;
        printf("strtol(\"%s\", %d): glibc %ld end+%td errno %d, shim %ld end+%td errno %d\n", text, base,
               real, end_real - text, errno_real, shim, end_shim - text, errno_shim);
    }
    errno = 0; long long lreal = __isoc23_strtoll(text, &end_real, base); errno_real = errno;
    errno = 0; long long lshim = compat_strtoll(text, &end_shim, base); errno_shim = errno;
    cases++;
    if (lreal != lshim || end_real != end_shim || errno_real != errno_shim) {
        failures++;
        printf("strtoll(\"%s\", %d): glibc %lld end+%td errno %d, shim %lld end+%td errno %d\n", text, base,
               lreal, end_real - text, errno_real, lshim, end_shim - text, errno_shim);
    }
}

static void lcpy(const char *text, size_t size) {
    char real[32], shim[32];
    memset(real, 'x', sizeof real); memset(shim, 'x', sizeof shim);
    size_t a = strlcpy(real, text, size), b = compat_strlcpy(shim, text, size);
    cases++;
    if (a != b || memcmp(real, shim, sizeof real) != 0) {
        failures++;
        printf("strlcpy(\"%s\", %zu): glibc %zu, shim %zu, or the buffers differ\n", text, size, a, b);
    }
}

static void scan(const char *text, const char *format) {
    int a1 = -7, a2 = -7, b1 = -7, b2 = -7;
    char s1[16] = "", s2[16] = "";
    int real = __isoc23_sscanf(text, format, &a1, s1, &a2);
    int shim = compat_sscanf(text, format, &b1, s2, &b2);
    cases++;
    if (real != shim || a1 != b1 || a2 != b2 || strcmp(s1, s2) != 0) {
        failures++;
        printf("sscanf(\"%s\", \"%s\"): glibc %d (%d %s %d), shim %d (%d %s %d)\n", text, format,
               real, a1, s1, a2, shim, b1, s2, b2);
    }
}

static void fmods(double x, double y) {
    /* fmod is exact: the same bits (or both NaN), and the same errno. */
    errno = 0; double real = fmod(x, y); int errno_real = errno;
    errno = 0; double shim = compat_fmod(x, y); int errno_shim = errno;
    cases++;
    if (!((isnan(real) && isnan(shim)) || memcmp(&real, &shim, sizeof real) == 0) || errno_real != errno_shim) {
        failures++;
        printf("fmod(%a, %a): glibc %a errno %d, shim %a errno %d\n", x, y, real, errno_real, shim, errno_shim);
    }
    float xf = (float)x, yf = (float)y;
    errno = 0; float realf = fmodf(xf, yf); errno_real = errno;
    errno = 0; float shimf = compat_fmodf(xf, yf); errno_shim = errno;
    cases++;
    if (!((isnan(realf) && isnan(shimf)) || memcmp(&realf, &shimf, sizeof realf) == 0) || errno_real != errno_shim) {
        failures++;
        printf("fmodf(%a, %a): glibc %a errno %d, shim %a errno %d\n", xf, yf, realf, errno_real, shimf, errno_shim);
    }
}

int main(void) {
    static const char *numbers[] = {
        "0", "42", "-42", "+42", "  \t17xyz", "", "   ", "-", "+", "0x", "0x1f", "0X1F", "-0x1f", "017", "08", "0b", "0b2",
        "0b101", "0B101", "-0b101", "+0b101", "  0b1101z", "0b0", "0b1", "-0b1",
        "0b111111111111111111111111111111111111111111111111111111111111111",
        "0b1000000000000000000000000000000000000000000000000000000000000000",
        "-0b1000000000000000000000000000000000000000000000000000000000000000",
        "-0b1000000000000000000000000000000000000000000000000000000000000001",
        "0b11111111111111111111111111111111111111111111111111111111111111111111",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "99999999999999999999999", "zz", "101", "-101", "0b", "b101", "1b0",
    };
    static const int bases[] = {0, 2, 8, 10, 16, 36};
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
        for (size_t j = 0; j < sizeof bases / sizeof *bases; j++)
            strto(numbers[i], bases[j]);
    static const char *strings[] = {"", "a", "hello", "exactly-sixteen!", "a string longer than the buffer is"};
    static const size_t sizes[] = {0, 1, 2, 5, 16, 17, 31};
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
        for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++)
            lcpy(strings[i], sizes[j]);
    static const double reals[] = {0.0, -0.0, 1.0, -1.0, 0.5, 3.75, -3.75, 1e300, -1e-300, 5e-324, 360.0, 2.5e10,
                                   6.283185307179586, INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++)
        for (size_t j = 0; j < sizeof reals / sizeof *reals; j++)
            fmods(reals[i], reals[j]);
    scan("12 abc 34", "%d %15s %d");
    scan("7fff5000-7fff6000 rw", "%x-%15s %x");
    scan("-3 x 0x10", "%d %15s %i");
    scan("", "%d %15s %d");
    scan("12", "%d %15s %d");
    printf("glibc-compat: %d cases, %d differ from glibc's own __isoc23_*, strlcpy, fmod and fmodf\n", cases, failures);
    return failures != 0;
}
