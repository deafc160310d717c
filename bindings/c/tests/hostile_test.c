#define _POSIX_C_SOURCE 200112L
/* A hostile client: every kind of abuse the C boundary must survive in one process — bad handles for
   every function, NULL and malformed strings, out-of-range numbers, catastrophic patterns, callbacks
   that misbehave or re-enter — ending with a check that forms made before the abuse are intact. */
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "check.h"

static int hostile_cases = 0;
#define CASE(call, expected) do { hostile_cases++; CHECK_STATUS(call, expected); } while (0)

static int32_t always_valid(void *c, const char *v, size_t l, const char **m) {
    (void)c; (void)v; (void)l; (void)m;
    return FW_VERDICT_VALID;
}

/* Every function that takes a form handle, called with `form`; each must answer `expected`. */
static void every_function(fw_form *form, fw_status expected) {
    char buf[64];
    size_t n = 0;
    bool flag = false;
    fw_phase phase;
    fw_validity validity;
    fw_display display;
    CASE(fw_form_free(form), form == NULL ? FW_OK : expected); /* free(NULL) is a no-op */
    CASE(fw_form_add_field(form, "f", NULL, NULL), expected);
    CASE(fw_form_touch_all(form), expected);
    CASE(fw_form_validate(form, &flag), expected);
    CASE(fw_form_reset(form), expected);
    CASE(fw_form_set_match_limits(form, 10, 10, 10), expected);
    CASE(fw_form_is_valid(form, &flag), expected);
    CASE(fw_form_first_invalid(form, buf, sizeof buf, &n), expected);
    CASE(fw_form_field_count(form, &n), expected);
    CASE(fw_form_field_id(form, 0, buf, sizeof buf, &n), expected);
    CASE(fw_field_add_required(form, "f", NULL), expected);
    CASE(fw_field_add_email(form, "f", NULL), expected);
    CASE(fw_field_add_phone(form, "f", NULL), expected);
    CASE(fw_field_add_min_length(form, "f", 1, NULL), expected);
    CASE(fw_field_add_max_length(form, "f", 1, NULL), expected);
    CASE(fw_field_add_regex(form, "f", "x", NULL), expected);
    CASE(fw_field_add_matches(form, "f", "g", NULL), expected);
    CASE(fw_field_focus(form, "f"), expected);
    CASE(fw_field_blur(form, "f"), expected);
    CASE(fw_field_set_value(form, "f", "v"), expected);
    CASE(fw_field_touch(form, "f"), expected);
    CASE(fw_field_phase(form, "f", &phase), expected);
    CASE(fw_field_validity(form, "f", &validity), expected);
    CASE(fw_field_display(form, "f", &display), expected);
    CASE(fw_field_touched(form, "f", &flag), expected);
    CASE(fw_field_limit_exceeded(form, "f", &flag), expected);
    CASE(fw_field_message(form, "f", buf, sizeof buf, &n), expected);
    CASE(fw_field_display_message(form, "f", buf, sizeof buf, &n), expected);
    CASE(fw_form_load_spec(form, "{\"formwell\": 1, \"fields\": []}"), expected);
    CASE(fw_form_define_validator(form, "v", always_valid, NULL, NULL), expected);
    CASE(fw_form_export_spec(form, buf, sizeof buf, &n), expected);
    CASE(fw_field_value(form, "f", buf, sizeof buf, &n), expected);
    CHECK_STR(buf, ""); /* failed string calls leave "" in the buffer, never stale text */
}

static void bad_handles(void) {
    fw_form *freed = NULL;
    int on_stack = 0;
    CHECK_OK(fw_form_create(&freed));
    CHECK_OK(fw_form_free(freed));
    every_function(freed, FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(uintptr_t)0x1234, FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(uintptr_t)UINTPTR_MAX, FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(void *)&on_stack, FW_ERR_INVALID_HANDLE);
    every_function(NULL, FW_ERR_INVALID_HANDLE);
    CASE(fw_field_add_custom(freed, "f", always_valid, NULL, NULL, NULL), FW_ERR_INVALID_HANDLE);
    /* NULL: free is a no-op, everything else refuses. */
    CASE(fw_form_free(NULL), FW_OK);
    CASE(fw_field_focus(NULL, "f"), FW_ERR_INVALID_HANDLE);
    CASE(fw_form_validate(NULL, NULL), FW_ERR_NULL_ARGUMENT);
}

/* NULL for every pointer parameter of a live form, one at a time. */
static void null_arguments(fw_form *form) {
    CASE(fw_form_add_field(form, NULL, "label", "v"), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_add_required(form, NULL, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_add_regex(form, "x", NULL, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_add_matches(form, "x", NULL, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_add_custom(form, "x", NULL, NULL, NULL, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_form_load_spec(form, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_form_define_validator(form, NULL, always_valid, NULL, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_form_define_validator(form, "v", NULL, NULL, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_form_export_spec(form, NULL, 3, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_set_value(form, "x", NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_set_value(form, NULL, "v"), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_phase(form, "x", NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_validity(form, "x", NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_display(form, "x", NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_touched(form, "x", NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_limit_exceeded(form, "x", NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_form_is_valid(form, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_form_field_count(form, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_value(form, "x", NULL, 10, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_last_error_message(NULL, 5, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_value(form, "x", NULL, 0, NULL), FW_OK); /* a size query without a length is legal */
}

/* Malformed UTF-8 in every string parameter: refused with the offset of the first bad byte. */
static void malformed_strings(fw_form *form) {
    static const struct { const char *bytes; int64_t offset; } bad[] = {
        {"\x80", 0}, {"ok\xC0\xAF", 2}, {"\xED\xA0\x80", 0}, {"abc\xF4\x90\x80\x80", 3},
        {"\xE2\x82", 0}, {"x\xFE", 1}, {"caf\xC3", 3},
    };
    size_t i;
    char value[64];
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CASE(fw_field_set_value(form, "x", bad[i].bytes), FW_ERR_INVALID_UTF8);
        CHECK(fw_last_error_offset() == bad[i].offset);
        CASE(fw_form_add_field(form, bad[i].bytes, NULL, NULL), FW_ERR_INVALID_UTF8);
        CASE(fw_form_add_field(form, "new", bad[i].bytes, NULL), FW_ERR_INVALID_UTF8);
        CASE(fw_form_add_field(form, "new", NULL, bad[i].bytes), FW_ERR_INVALID_UTF8);
        CASE(fw_field_add_regex(form, "x", bad[i].bytes, NULL), FW_ERR_INVALID_UTF8);
        CASE(fw_field_add_required(form, "x", bad[i].bytes), FW_ERR_INVALID_UTF8);
        CASE(fw_field_add_matches(form, "x", bad[i].bytes, NULL), FW_ERR_INVALID_UTF8);
        CASE(fw_field_focus(form, bad[i].bytes), FW_ERR_INVALID_UTF8);
        CASE(fw_form_load_spec(form, bad[i].bytes), FW_ERR_INVALID_UTF8);
    }
    CHECK_OK(fw_field_value(form, "x", value, sizeof value, NULL));
    CHECK_STR(value, "kept");
    /* Documented: strings are NUL-terminated, so an embedded NUL ends the value. */
    CASE(fw_field_set_value(form, "x", "before\0after"), FW_OK);
    CHECK_OK(fw_field_value(form, "x", value, sizeof value, NULL));
    CHECK_STR(value, "before");
    CHECK_OK(fw_field_set_value(form, "x", "kept"));
}

static void out_of_range_numbers(fw_form *form) {
    CASE(fw_field_add_min_length(form, "x", -1, NULL), FW_ERR_INVALID_ARGUMENT);
    CASE(fw_field_add_max_length(form, "x", INT32_MIN, NULL), FW_ERR_INVALID_ARGUMENT);
    CASE(fw_field_add_max_length(form, "x", 10, NULL), FW_OK);
    CASE(fw_field_add_min_length(form, "x", 11, NULL), FW_ERR_INVALID_ARGUMENT);
    CASE(fw_field_add_min_length(form, "x", INT32_MAX, NULL), FW_ERR_INVALID_ARGUMENT);
    /* Every earlier bound counts, not just the first: max 10, max 3, then min 5 contradicts max 3. */
    CASE(fw_field_add_max_length(form, "x", 3, NULL), FW_OK);
    CASE(fw_field_add_min_length(form, "x", 5, NULL), FW_ERR_INVALID_ARGUMENT);
    CASE(fw_field_add_min_length(form, "x", 3, NULL), FW_OK);
    CASE(fw_field_add_min_length(form, "x", 1, NULL), FW_OK);
    CASE(fw_field_add_max_length(form, "x", 2, NULL), FW_ERR_INVALID_ARGUMENT); /* below min 3 */
    CASE(fw_form_set_match_limits(form, 0, 1, 1), FW_ERR_INVALID_ARGUMENT);
    CASE(fw_form_set_match_limits(form, 1, 0, 1), FW_ERR_INVALID_ARGUMENT);
    CASE(fw_form_set_match_limits(form, 1, 1, 0), FW_ERR_INVALID_ARGUMENT);
    CASE(fw_form_field_id(form, SIZE_MAX, NULL, 0, NULL), FW_ERR_INVALID_ARGUMENT);
}

static void huge_value(fw_form *form) {
    size_t size = 10u << 20, length = 0;
    char *big = malloc(size + 1);
    bool exceeded = true;
    fw_validity validity;
    if (!big) return;
    memset(big, 'a', size);
    big[size] = '\0';
    CASE(fw_field_set_value(form, "huge", big), FW_OK);
    CHECK_OK(fw_field_value(form, "huge", NULL, 0, &length));
    CHECK(length == size);
    CHECK_OK(fw_field_validity(form, "huge", &validity));
    CHECK(validity == FW_VALIDITY_VALID); /* [a-z]+ over 10 MB of 'a' */
    CHECK_OK(fw_field_limit_exceeded(form, "huge", &exceeded));
    CHECK(!exceeded);
    /* 10 MB ids and labels work too, and read back whole. */
    CASE(fw_form_add_field(form, big, big, "v"), FW_OK);
    CHECK_OK(fw_form_field_id(form, 2, NULL, 0, &length));
    CHECK(length == size);
    CASE(fw_field_set_value(form, big, "w"), FW_OK);
    CASE(fw_form_add_field(form, big, NULL, NULL), FW_ERR_DUPLICATE_FIELD);
    free(big);
}

static void catastrophic_patterns(void) {
    fw_form *form = NULL;
    char value[64], message[128];
    fw_validity validity;
    bool exceeded = false;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "p", NULL, NULL));
    CHECK_OK(fw_field_add_regex(form, "p", "(a+)+$", NULL));
    memset(value, 'a', 40);
    strcpy(value + 40, "!");
    CASE(fw_field_set_value(form, "p", value), FW_OK); /* returns: never hangs */
    CHECK_OK(fw_field_validity(form, "p", &validity));
    CHECK(validity == FW_VALIDITY_INVALID); /* never "valid" */
    CHECK_OK(fw_field_limit_exceeded(form, "p", &exceeded));
    CHECK(exceeded);
    CHECK_OK(fw_field_message(form, "p", message, sizeof message, NULL));
    CHECK_STR(message, "This value is too complex to check");

    /* 16 a's: about 65,000 steps, decided under the default limit, refused under a tight one. */
    memset(value, 'a', 16);
    strcpy(value + 16, "!");
    CHECK_OK(fw_field_set_value(form, "p", value));
    CHECK_OK(fw_field_limit_exceeded(form, "p", &exceeded));
    CHECK(!exceeded);
    CHECK_OK(fw_field_message(form, "p", message, sizeof message, NULL));
    CHECK_STR(message, "Invalid format");
    CHECK_OK(fw_form_set_match_limits(form, 1000, 1000, 1024));
    CHECK_OK(fw_field_limit_exceeded(form, "p", &exceeded));
    CHECK(exceeded); /* setting limits re-ran the rule */
    CHECK_OK(fw_form_set_match_limits(form, 1000000, 100000, 16384));
    CHECK_OK(fw_field_limit_exceeded(form, "p", &exceeded));
    CHECK(!exceeded);

    /* Over-long patterns are refused with PCRE2's message. */
    {
        char *pattern = malloc(40001);
        if (pattern) {
            memset(pattern, 'a', 40000);
            pattern[40000] = '\0';
            CASE(fw_field_add_regex(form, "p", pattern, NULL), FW_ERR_INVALID_PATTERN);
            CHECK_OK(fw_last_error_message(message, sizeof message, NULL));
            CHECK(strstr(message, "longer than the limit") != NULL);
            free(pattern);
        }
    }
    CASE(fw_field_add_regex(form, "p", "a{2,1}", NULL), FW_ERR_INVALID_PATTERN);
    CASE(fw_field_add_regex(form, "p", "(?<=a+)b", NULL), FW_ERR_INVALID_PATTERN);
    CHECK(fw_last_error_offset() >= 0);
    CHECK_OK(fw_form_free(form));
}

/* ---- callbacks that misbehave ---- */

typedef struct {
    fw_form *form;
    fw_form *other;
    fw_status reentrant;
    fw_status free_self;
    fw_status other_form;
} reentry_context;

static int32_t reentering(void *context, const char *value, size_t length, const char **out_message) {
    reentry_context *ctx = (reentry_context *)context;
    char buf[32];
    (void)value; (void)length; (void)out_message;
    ctx->reentrant = fw_field_value(ctx->form, "r", buf, sizeof buf, NULL);
    ctx->free_self = fw_form_free(ctx->form);
    ctx->other_form = fw_field_set_value(ctx->other, "o", "from a callback");
    return FW_VERDICT_VALID;
}

static int32_t null_message(void *c, const char *v, size_t l, const char **m) {
    (void)c; (void)v; (void)l;
    *m = NULL;
    return FW_VERDICT_INVALID;
}

static int32_t bad_utf8_message(void *c, const char *v, size_t l, const char **m) {
    (void)c; (void)v; (void)l;
    *m = "bad \xFF byte";
    return FW_VERDICT_INVALID;
}

static int32_t garbage_verdict(void *c, const char *v, size_t l, const char **m) {
    (void)c; (void)v; (void)l; (void)m;
    return -7;
}

static void misbehaving_callbacks(void) {
    fw_form *form = NULL, *other = NULL;
    reentry_context ctx;
    char message[128];
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_create(&other));
    CHECK_OK(fw_form_add_field(other, "o", NULL, NULL));
    ctx.form = form;
    ctx.other = other;
    ctx.reentrant = ctx.free_self = ctx.other_form = FW_ERR_INTERNAL;
    CHECK_OK(fw_form_add_field(form, "r", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "r", reentering, &ctx, NULL, NULL));
    CASE(fw_field_set_value(form, "r", "go"), FW_OK);
    CHECK(ctx.reentrant == FW_ERR_BUSY);  /* same form from its own validator: busy, no deadlock */
    CHECK(ctx.free_self == FW_ERR_BUSY);  /* and it cannot free the form under itself */
    CHECK(ctx.other_form == FW_OK);       /* another form is fine */
    CHECK_OK(fw_field_value(other, "o", message, sizeof message, NULL));
    CHECK_STR(message, "from a callback");

    CHECK_OK(fw_form_add_field(form, "n", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "n", null_message, NULL, NULL, NULL));
    CHECK_OK(fw_field_set_value(form, "n", "x"));
    CHECK_OK(fw_field_message(form, "n", message, sizeof message, NULL));
    CHECK_STR(message, "Invalid value");
    CHECK_OK(fw_form_add_field(form, "n2", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "n2", null_message, NULL, NULL, "Rule's own message"));
    CHECK_OK(fw_field_set_value(form, "n2", "x"));
    CHECK_OK(fw_field_message(form, "n2", message, sizeof message, NULL));
    CHECK_STR(message, "Rule's own message");

    CHECK_OK(fw_form_add_field(form, "u", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "u", bad_utf8_message, NULL, NULL, NULL));
    CHECK_OK(fw_field_set_value(form, "u", "x"));
    CHECK_OK(fw_field_message(form, "u", message, sizeof message, NULL));
    CHECK_STR(message, "bad \xEF\xBF\xBD byte"); /* repaired with U+FFFD */

    CHECK_OK(fw_form_add_field(form, "g", NULL, "start"));
    CASE(fw_field_add_custom(form, "g", garbage_verdict, NULL, NULL, NULL), FW_ERR_CALLBACK);
    CHECK_OK(fw_field_set_value(form, "g", "still settable")); /* the refused rule was not kept */

    CHECK_OK(fw_form_free(form));
    CHECK_OK(fw_form_free(other));
}

/* ---- two validators calling each other's forms from two threads: never a deadlock, never a trap ---- */

typedef struct {
    fw_form *other;
    int ok, busy, other_status;
} crossing_context;

static int32_t call_the_other_form(void *context, const char *value, size_t length, const char **out_message) {
    crossing_context *ctx = (crossing_context *)context;
    struct timespec pause = {0, 20 * 1000 * 1000};
    size_t count = 0;
    fw_status status;
    (void)value; (void)length; (void)out_message;
    nanosleep(&pause, NULL); /* so both threads are inside their validators at once */
    status = fw_form_field_count(ctx->other, &count);
    if (status == FW_OK) ctx->ok++;
    else if (status == FW_ERR_BUSY) ctx->busy++;
    else ctx->other_status = status;
    return FW_VERDICT_VALID;
}

typedef struct {
    fw_form *form;
    fw_status result;
} setter;

static void *set_value_thread(void *argument) {
    setter *job = (setter *)argument;
    job->result = fw_field_set_value(job->form, "v", "go");
    return NULL;
}

static void crossing_validators(void) {
    fw_form *a = NULL, *b = NULL;
    crossing_context on_a = {NULL, 0, 0, FW_OK}, on_b = {NULL, 0, 0, FW_OK};
    setter jobs[2];
    pthread_t threads[2];
    int round, i;
    CHECK_OK(fw_form_create(&a));
    CHECK_OK(fw_form_create(&b));
    on_a.other = b;
    on_b.other = a;
    CHECK_OK(fw_form_add_field(a, "v", NULL, NULL));
    CHECK_OK(fw_form_add_field(b, "v", NULL, NULL));
    CHECK_OK(fw_field_add_custom(a, "v", call_the_other_form, &on_a, NULL, NULL));
    CHECK_OK(fw_field_add_custom(b, "v", call_the_other_form, &on_b, NULL, NULL));
    for (round = 0; round < 5; round++) {
        jobs[0].form = a;
        jobs[1].form = b;
        for (i = 0; i < 2; i++) CHECK(pthread_create(&threads[i], NULL, set_value_thread, &jobs[i]) == 0);
        for (i = 0; i < 2; i++) CHECK(pthread_join(threads[i], NULL) == 0);
        CASE(jobs[0].result, FW_OK);
        CASE(jobs[1].result, FW_OK);
    }
    CHECK(on_a.other_status == FW_OK && on_b.other_status == FW_OK); /* only OK or BUSY were seen */
    CHECK(on_a.ok + on_a.busy == 5 && on_b.ok + on_b.busy == 5);
    CHECK(on_a.busy + on_b.busy > 0); /* the crossing did happen, and was refused instead of waited on */
    CHECK_OK(fw_form_free(a));
    CHECK_OK(fw_form_free(b));
}

int main(void) {
    fw_form *keeper = NULL, *target = NULL;
    bool valid = true, touched = false;
    char value[64];
    fw_phase phase;

    /* A form made before the abuse, in a known state. */
    CHECK_OK(fw_form_create(&keeper));
    CHECK_OK(fw_form_add_field(keeper, "email", "Email", "keep@example.com"));
    CHECK_OK(fw_field_add_required(keeper, "email", NULL));
    CHECK_OK(fw_field_add_email(keeper, "email", NULL));
    CHECK_OK(fw_form_add_field(keeper, "code", NULL, NULL));
    CHECK_OK(fw_field_add_phone(keeper, "code", NULL));
    CHECK_OK(fw_field_focus(keeper, "code"));
    CHECK_OK(fw_field_set_value(keeper, "code", "12345"));

    /* The target of argument abuse. */
    CHECK_OK(fw_form_create(&target));
    CHECK_OK(fw_form_add_field(target, "x", NULL, "kept"));
    CHECK_OK(fw_form_add_field(target, "huge", NULL, NULL));
    CHECK_OK(fw_field_add_regex(target, "huge", "[a-z]+", NULL));

    bad_handles();
    null_arguments(target);
    malformed_strings(target);
    out_of_range_numbers(target);
    huge_value(target);
    catastrophic_patterns();
    misbehaving_callbacks();
    crossing_validators();
    CHECK_OK(fw_form_free(target));
    CASE(fw_form_free(target), FW_ERR_INVALID_HANDLE); /* double free */

    /* The keeper still holds its values and states. */
    CHECK_OK(fw_field_value(keeper, "email", value, sizeof value, NULL));
    CHECK_STR(value, "keep@example.com");
    CHECK_OK(fw_field_value(keeper, "code", value, sizeof value, NULL));
    CHECK_STR(value, "12345");
    CHECK_FIELD(keeper, "code", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, "Invalid phone number", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_phase(keeper, "email", &phase));
    CHECK(phase == FW_PHASE_IDLE);
    CHECK_OK(fw_field_touched(keeper, "email", &touched));
    CHECK(!touched);
    CHECK_OK(fw_form_is_valid(keeper, &valid));
    CHECK(!valid);
    CHECK(fw_form_live_count() == 1);
    CHECK_OK(fw_form_free(keeper));
    CHECK(fw_form_live_count() == 0);

    printf("hostile_test: %d hostile cases\n", hostile_cases);
    return check_summary("hostile_test");
}
