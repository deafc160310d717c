/* PCRE2 is built for several code-unit widths; Formwell uses the 8-bit (UTF-8) library only. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
