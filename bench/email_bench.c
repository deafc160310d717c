/* email_bench: what one keystroke costs in Formwell, against the cheapest possible baseline measured
   in the same run: PCRE2's JIT matching seed 02's e-mail pattern directly, compiled once.
   Prints ns per value for each and the ratio. Not part of `make test`; run `make bench`. */
#define _POSIX_C_SOURCE 199309L
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formwell.h"

#define COUNT 100000
#define EMAIL_PATTERN "[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,64}"

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Deterministic addresses, one in five malformed. */
static void make_values(char (*values)[48]) {
    unsigned state = 12345u;
    int i;
    for (i = 0; i < COUNT; i++) {
        state = state * 1103515245u + 12345u;
        if (state % 5 == 0) snprintf(values[i], 48, "user%u.example.com", state % 100000);
        else snprintf(values[i], 48, "user%u@mail%u.example.org", state % 100000, state % 97);
    }
}

int main(void) {
    static char values[COUNT][48];
    int errorcode, i, round, matched = 0, invalid = 0;
    PCRE2_SIZE erroroffset;
    pcre2_code *code;
    pcre2_match_data *data;
    fw_form *form;
    double best_pcre = 1e9, best_fw = 1e9;

    make_values(values);
    code = pcre2_compile((PCRE2_SPTR)EMAIL_PATTERN, PCRE2_ZERO_TERMINATED,
                         PCRE2_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED, &errorcode, &erroroffset, NULL);
    if (!code || pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) != 0) return 1;
    data = pcre2_match_data_create(1, NULL);
    if (fw_form_create(&form) != FW_OK || fw_form_add_field(form, "email", NULL, NULL) != FW_OK
        || fw_field_add_email(form, "email", NULL) != FW_OK)
        return 1;

    for (round = 0; round < 5; round++) { /* best of 5, each over all values */
        double start = seconds(), elapsed;
        matched = 0;
        for (i = 0; i < COUNT; i++)
            matched += pcre2_jit_match(code, (PCRE2_SPTR)values[i], strlen(values[i]), 0, 0, data, NULL) >= 0;
        elapsed = seconds() - start;
        if (elapsed < best_pcre) best_pcre = elapsed;

        start = seconds();
        invalid = 0;
        for (i = 0; i < COUNT; i++) {
            fw_validity validity;
            fw_field_set_value(form, "email", values[i]);
            fw_field_validity(form, "email", &validity);
            invalid += validity == FW_VALIDITY_INVALID;
        }
        elapsed = seconds() - start;
        if (elapsed < best_fw) best_fw = elapsed;
    }
    if (matched + invalid != COUNT) {
        fprintf(stderr, "email_bench: PCRE2 matched %d but Formwell found %d invalid of %d\n", matched, invalid, COUNT);
        return 1;
    }
    printf("email_bench: %d values, best of 5 rounds\n", COUNT);
    printf("  baseline  pcre2_jit_match, compiled once:           %7.1f ns/value\n", best_pcre * 1e9 / COUNT);
    printf("  formwell  fw_field_set_value + fw_field_validity:   %7.1f ns/value\n", best_fw * 1e9 / COUNT);
    printf("  ratio     formwell / baseline:                      %7.1fx\n", best_fw / best_pcre);
    fw_form_free(form);
    pcre2_match_data_free(data);
    pcre2_code_free(code);
    return 0;
}
