/* keystroke_ir: the work of one keystroke counted in instructions, not timed, so that two builds
   can be compared on a noisy machine (bench/keystroke_ir.sh runs it under callgrind).
   Usage: keystroke_ir ROW COUNT, ROW one of
     email-raw, username-raw   pcre2_jit_match of seed 02's e-mail pattern / ^[a-z0-9_]{3,20}$
     email, username, plain    fw_field_update_at on a focused field with that rule / no rule
     email-v1, username-v1, plain-v1
                               the same, the caller declaring the first version's fw_snapshot
     email-floor, username-floor, plain-floor
                               the same keystroke in plain C (keystroke_floor.h): a yardstick
   COUNT calls over bench_common.h's generated values (rows 1-3 of keystroke_bench), cycled.
   The script subtracts a run of COUNT calls from a run of 2 x COUNT: setup cancels out.
   Prints the number of valid verdicts (matches), so the loop cannot be optimised away. */
#include "bench_common.h"
#include "keystroke_floor.h"

#define VALUES 10000

static char emails[VALUES][EMAIL_LEN];
static char usernames[VALUES][USERNAME_LEN];

int main(int argc, char **argv) {
    const char *row = argc > 1 ? argv[1] : "";
    long count = argc > 2 ? atol(argv[2]) : 0, i, valid = 0;
    int email = strncmp(row, "email", 5) == 0, username = strncmp(row, "username", 8) == 0;
    int plain = strncmp(row, "plain", 5) == 0;
    const char *values = username ? usernames[0] : emails[0];
    size_t stride = username ? USERNAME_LEN : EMAIL_LEN;
    fw_snapshot s = bench_snapshot();
    char buf[BENCH_TEXT];
    if (strstr(row, "-v1")) s.size = bench_snapshot_v1_size();

    if (count <= 0 || !(email || username || plain)) {
        fprintf(stderr, "usage: keystroke_ir email-raw|username-raw|email|username|plain[-v1|-floor] COUNT\n");
        return 2;
    }
    bench_make_emails(emails, VALUES, 12345u);
    bench_make_usernames(usernames, VALUES, 67890u);
    if (strstr(row, "-raw")) {
        pcre2_code *code = bench_compile(email ? EMAIL_PATTERN : USERNAME_PATTERN);
        pcre2_match_data *data = pcre2_match_data_create(1, NULL);
        for (i = 0; i < count; i++) {
            const char *v = values + (size_t)(i % VALUES) * stride;
            valid += pcre2_jit_match(code, (PCRE2_SPTR)v, strlen(v), 0, 0, data, NULL) >= 0;
        }
    } else if (strstr(row, "-floor")) {
        floor_form *form = floor_form_create(plain ? NULL : bench_compile(email ? EMAIL_PATTERN : USERNAME_PATTERN));
        for (i = 0; i < count; i++) {
            if (floor_update(form, 0, values + (size_t)(i % VALUES) * stride, &s, buf, sizeof buf) != 0)
                bench_fail("floor_update failed at call %ld", i);
            valid += s.validity == FW_VALIDITY_VALID;
        }
    } else {
        fw_form *form;
        bench_setup(fw_form_create(&form), "fw_form_create");
        bench_setup(fw_form_add_field(form, "f", NULL, NULL), "fw_form_add_field");
        if (email) bench_setup(fw_field_add_email(form, "f", NULL), "fw_field_add_email");
        if (username) bench_setup(fw_field_add_regex(form, "f", USERNAME_PATTERN, NULL), "fw_field_add_regex");
        bench_setup(fw_field_focus_at(form, 0), "fw_field_focus_at"); /* typing: the lenient stage */
        for (i = 0; i < count; i++) {
            if (fw_field_update_at(form, 0, values + (size_t)(i % VALUES) * stride, &s, buf, sizeof buf) != FW_OK)
                bench_fail("fw_field_update_at failed at call %ld", i);
            valid += s.validity == FW_VALIDITY_VALID;
        }
        fw_form_free(form);
    }
    printf("%ld\n", valid);
    return bench_failures ? 1 : 0;
}
