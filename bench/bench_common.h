/* bench_common.h: what the C benchmarks share: a monotonic clock, deterministic value generators,
   PCRE2 compilation as Formwell does it, and printing one result row (to stdout, and as a TSV line
   appended to $BENCH_ROWS, from which bench/summary.py prints the Markdown table).
   Include it first: it sets the feature-test macros. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#define _POSIX_C_SOURCE 200809L
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formwell.h"

#define BENCH_COUNT 100000 /* values per round */
#define BENCH_ROUNDS 5     /* best of */
#define BENCH_TEXT 256     /* text buffer of a snapshot */
#define EMAIL_LEN 48
#define USERNAME_LEN 32

/* Seed 02's e-mail pattern, as fw_field_add_email uses it; and the username pattern of rows 2 and 4. */
#define EMAIL_PATTERN "[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,64}"
#define USERNAME_PATTERN "^[a-z0-9_]{3,20}$"

static int bench_failures = 0; /* sanity checks that failed; main returns non-zero when any did */

static inline double bench_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline void bench_keep_min(double *best, double seconds) {
    if (seconds < *best) *best = seconds;
}

static inline void bench_fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("SANITY CHECK FAILED: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    bench_failures++;
}

static inline unsigned bench_next(unsigned *state) {
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

/* Deterministic e-mail addresses, about one in four malformed in one of several ways. */
static inline void bench_make_emails(char (*values)[EMAIL_LEN], int count, unsigned seed) {
    int i;
    for (i = 0; i < count; i++) {
        unsigned r = bench_next(&seed), n = bench_next(&seed) % 100000u;
        switch (r % 16) {
        case 0: snprintf(values[i], EMAIL_LEN, "user%u.example.com", n); break;          /* no @ */
        case 1: snprintf(values[i], EMAIL_LEN, "user%u@example", n); break;              /* no TLD */
        case 2: snprintf(values[i], EMAIL_LEN, "user %u@mail.example.org", n); break;    /* space */
        case 3: snprintf(values[i], EMAIL_LEN, "u%u@mail%u.example.c", n, r % 97); break; /* 1-letter TLD */
        case 4: snprintf(values[i], EMAIL_LEN, "first.last+tag%u@sub.mail%u.co.uk", n, r % 89); break;
        case 5: snprintf(values[i], EMAIL_LEN, "%u_x%%y@EXAMPLE-%u.INFO", n, r % 53); break;
        default: snprintf(values[i], EMAIL_LEN, "user%u@mail%u.example.org", n, r % 97); break;
        }
    }
}

/* Deterministic usernames, 1 to 24 characters, some with characters the pattern refuses (upper
   case, '-', '.', ' ', 'é'): roughly half match ^[a-z0-9_]{3,20}$. */
static inline void bench_make_usernames(char (*values)[USERNAME_LEN], int count, unsigned seed) {
    static const char good[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
    int i;
    for (i = 0; i < count; i++) {
        unsigned length = 1 + bench_next(&seed) % 24u, spoil = bench_next(&seed) % 6u, j;
        char *v = values[i];
        for (j = 0; j < length; j++) v[j] = good[bench_next(&seed) % (sizeof good - 1)];
        v[length] = '\0';
        if (spoil == 0) v[bench_next(&seed) % length] = "A-. Z"[bench_next(&seed) % 5u];
        else if (spoil == 1 && length <= 20) strcat(v, "\xc3\xa9"); /* é */
    }
}

/* A pattern compiled as Formwell compiles its rules: UTF, anchored at both ends, JIT. */
static inline pcre2_code *bench_compile(const char *pattern) {
    int errorcode;
    PCRE2_SIZE erroroffset;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                     PCRE2_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED, &errorcode, &erroroffset, NULL);
    if (!code || pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) != 0) {
        fprintf(stderr, "bench: cannot compile or JIT-compile %s\n", pattern);
        exit(2);
    }
    return code;
}

/* Exits (status 2) when a setup call fails: nothing could be measured. */
static inline void bench_setup(fw_status status, const char *what) {
    if (status != FW_OK) {
        char detail[256] = "";
        fw_last_error_message(detail, sizeof detail, NULL);
        fprintf(stderr, "bench: setup failed: %s: %s (%s)\n", what, fw_status_string(status), detail);
        exit(2);
    }
}

/* One result row. `higher_is_better`: the target is ratio >= target (throughput), else ratio <= target
   (time). `judged`: 0 for rows printed for information, whose verdict is shown in parentheses. */
static inline void bench_row(const char *id, const char *name, double formwell, double baseline, const char *unit,
                      double ratio, int higher_is_better, double target, int judged) {
    int holds = higher_is_better ? ratio >= target : ratio <= target;
    char target_text[32], verdict[16];
    const char *rows = getenv("BENCH_ROWS");
    snprintf(target_text, sizeof target_text, "%s%gx", higher_is_better ? "\xe2\x89\xa5" : "\xe2\x89\xa4", target);
    snprintf(verdict, sizeof verdict, judged ? "%s" : "(%s)", holds ? "holds" : "MISSES");
    printf("row %-3s %-52s formwell %9.1f %s  baseline %9.1f %s  ratio %5.2fx  target %-6s %s\n", id, name,
           formwell, unit, baseline, unit, ratio, target_text, verdict);
    fflush(stdout);
    if (rows && *rows) {
        FILE *out = fopen(rows, "a");
        if (out) {
            fprintf(out, "%s\t%s\t%.1f\t%.1f\t%s\t%.2f\t%s\t%s\n", id, name, formwell, baseline, unit, ratio,
                    target_text, verdict);
            fclose(out);
        }
    }
}

/* A remark printed under the rows (and below the Markdown table by bench/summary.py). */
static inline void bench_note(const char *id, const char *text) {
    const char *rows = getenv("BENCH_ROWS");
    printf("    %s: %s\n", id, text);
    fflush(stdout);
    if (rows && *rows) {
        FILE *out = fopen(rows, "a");
        if (out) {
            fprintf(out, "#note\t%s\t%s\n", id, text);
            fclose(out);
        }
    }
}

/* A snapshot ready for a call: size set, as the growth rule asks. */
static inline fw_snapshot bench_snapshot(void) {
    fw_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    return s;
}

/* The size of the first version's fw_snapshot (up to `value`: the members and three texts issue 9
   defined); a caller declaring it gets only those written (rows 1v1, 2v1, 3v1). */
static inline size_t bench_snapshot_v1_size(void) { return offsetof(fw_snapshot, visited); }

#endif
