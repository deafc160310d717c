/* lua_bench_c: the C side of bench/lua_bench.lua (rows 9a, 9b), built as a shared library the Lua
   script loads with ffi.load, so the C passes and the LuaJIT passes run in one process, interleaved
   round by round, on the same form and the same generated e-mails (bench_common.h's generator). */
#include "bench_common.h"

int lua_bench_count(void) { return BENCH_COUNT; }
int lua_bench_rounds(void) { return BENCH_ROUNDS; }
int lua_bench_email_len(void) { return EMAIL_LEN; }
double lua_bench_now(void) { return bench_now(); }

/* BENCH_COUNT e-mails of EMAIL_LEN bytes each (NUL-padded), the same as keystroke_bench's. */
void lua_bench_emails(char *out) { bench_make_emails((char (*)[EMAIL_LEN])out, BENCH_COUNT, 12345u); }

/* 1 when PCRE2 (compiled as Formwell compiles its rules) matches value with seed 02's e-mail pattern. */
int lua_bench_email_matches(const char *value) {
    static pcre2_code *code;
    static pcre2_match_data *data;
    if (!code) {
        code = bench_compile(EMAIL_PATTERN);
        data = pcre2_match_data_create(1, NULL);
    }
    return pcre2_jit_match(code, (PCRE2_SPTR)value, strlen(value), 0, 0, data, NULL) >= 0;
}

/* One pass from C: fw_field_update_at (by_id == NULL) or fw_field_update (by id) on every value,
   counting valid verdicts and failed calls; returns the seconds it took. */
double lua_bench_c_pass(fw_form *form, size_t index, const char *by_id, const char *values, int *out_valid,
                        int *out_errors) {
    fw_snapshot s = bench_snapshot();
    char buf[BENCH_TEXT];
    int i, valid = 0, errors = 0;
    double start = bench_now();
    if (by_id == NULL) {
        for (i = 0; i < BENCH_COUNT; i++) {
            errors += fw_field_update_at(form, index, values + (size_t)i * EMAIL_LEN, &s, buf, sizeof buf) != FW_OK;
            valid += s.validity == FW_VALIDITY_VALID;
        }
    } else {
        for (i = 0; i < BENCH_COUNT; i++) {
            errors += fw_field_update(form, by_id, values + (size_t)i * EMAIL_LEN, &s, buf, sizeof buf) != FW_OK;
            valid += s.validity == FW_VALIDITY_VALID;
        }
    }
    start = bench_now() - start;
    *out_valid = valid;
    *out_errors = errors;
    return start;
}
