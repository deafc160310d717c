// hypotf, defined inside the `formwell` executable so that the Swift Glibc overlay's reference to
// it (the CLI never calls it) binds here instead of to libm's hypotf@GLIBC_2.35, the one symbol
// that would otherwise make the tool need a newer glibc than the library does (2.34). Float
// inputs squared in double cannot overflow or lose the float result's precision; infinities
// win over NaNs, as C's Annex F asks.
#include <math.h>

float hypotf(float x, float y) {
    if (isinf(x) || isinf(y)) return INFINITY;
    double a = x, b = y;
    return (float)sqrt(a * a + b * b);
}
