#define _POSIX_C_SOURCE 200112L
/* A hostile client: every kind of abuse the C boundary must survive in one process — bad handles for
   every function, NULL and malformed strings, out-of-range numbers, catastrophic patterns, callbacks
   that misbehave or re-enter, asynchronous requests resolved with garbage, after a free, from a
   validator, from other threads, or never; locales, message catalogues and single-value checks fed
   garbage, refused from inside a validator and replaced while other threads use them — ending with a
   check that forms made before the abuse are intact. */
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "check.h"
#include "seed_rules.h"

static int hostile_cases = 0;
#define CASE(call, expected) do { hostile_cases++; CHECK_STATUS(call, expected); } while (0)

static int32_t always_valid(void *c, const char *v, size_t l, const char **m) {
    (void)c; (void)v; (void)l; (void)m;
    return FW_VERDICT_VALID;
}

/* Counts how often the library released a context it was handed in an fw_rule array: it must not
   do so when the call that would have taken ownership failed. */
static int contexts_destroyed = 0;
static void count_destroy(void *context) { (void)context; contexts_destroyed++; }

static void blank_snapshot(fw_snapshot *snap) {
    memset(snap, 0x5A, sizeof *snap);
    snap->size = sizeof *snap;
}

/* As a caller built against the first version's header: three texts (message, display message, value). */
static void blank_snapshot_v1(fw_snapshot *snap) {
    memset(snap, 0x5A, sizeof *snap);
    snap->size = TEST_SNAPSHOT_V1_SIZE;
}

static fw_rule custom_rule(void) {
    fw_rule r = test_rule(FW_RULE_CUSTOM, 0, NULL, NULL);
    r.validate = always_valid;
    r.destroy = count_destroy;
    return r;
}

/* Release callbacks of the Arrow structs handed to the library: it borrows them and must never call these. */
static int arrow_releases = 0;
static void arrow_schema_release(struct ArrowSchema *schema) { (void)schema; arrow_releases++; }
static void arrow_array_release(struct ArrowArray *array) { (void)array; arrow_releases++; }

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
    /* The snapshot and index functions. */
    {
        fw_snapshot snap, snaps[2];
        fw_rule rules[2];
        uint32_t limit = 0;
        int destroyed = contexts_destroyed;
        blank_snapshot(&snap);
        blank_snapshot(&snaps[0]);
        blank_snapshot(&snaps[1]);
        rules[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
        rules[1] = custom_rule();
        CASE(fw_form_match_limits(form, &limit, &limit, &limit), expected);
        CASE(fw_form_match_limits(form, NULL, NULL, NULL), expected);
        CASE(fw_form_field_index(form, "f", &n), expected);
        CASE(fw_field_set_value_at(form, 0, "v"), expected);
        CASE(fw_field_focus_at(form, 0), expected);
        CASE(fw_field_blur_at(form, 0), expected);
        CASE(fw_field_touch_at(form, 0), expected);
        CASE(fw_field_snapshot(form, "f", &snap, buf, sizeof buf), expected);
        CASE(fw_field_snapshot_at(form, 0, &snap, buf, sizeof buf), expected);
        CASE(fw_field_snapshot_at(form, SIZE_MAX, &snap, NULL, 0), expected);
        CASE(fw_field_update(form, "f", "v", &snap, buf, sizeof buf), expected);
        CASE(fw_field_update_at(form, 0, "v", &snap, buf, sizeof buf), expected);
        CASE(fw_form_snapshots(form, snaps, 2, &n, buf, sizeof buf, &n), expected);
        CASE(fw_form_add_field_with_rules(form, "f", NULL, "v", rules, 2), expected);
        CASE(fw_form_add_field_with_rules(form, "f", NULL, NULL, NULL, 0), expected);
        CHECK(contexts_destroyed == destroyed); /* refused: the caller keeps the context */
    }
    /* The batch functions. */
    {
        static const int32_t offsets[2] = {0, 1};
        fw_column column;
        uint8_t valid = 7, flags = 7;
        int32_t rule = 7;
        memset(&column, 0, sizeof column);
        column.size = sizeof column;
        column.offsets = offsets;
        column.data = "v";
        column.data_size = 1;
        column.offset_size = 4;
        CASE(fw_form_check_batch(form, &column, 1, 1, 1, &valid, &rule, &flags, &n), expected);
        CASE(fw_form_check_batch(form, NULL, 0, 0, 0, NULL, NULL, NULL, NULL), expected);
        CHECK(valid == 7 && rule == 7 && flags == 7);
        strcpy(buf, "stale");
        CASE(fw_form_batch_message(form, &column, 1, 1, 0, 0, buf, sizeof buf, &n), expected);
        CHECK_STR(buf, "");
        strcpy(buf, "stale");
        CASE(fw_form_rule_message(form, 0, 0, buf, sizeof buf, &n), expected);
        CHECK_STR(buf, "");
    }
    /* The Arrow functions, on a well-formed one-record struct array without children. */
    {
        struct ArrowSchema schema;
        struct ArrowArray array;
        const void *buffers[1] = {NULL};
        uint8_t valid = 7, flags = 7;
        int32_t rule = 7;
        memset(&schema, 0, sizeof schema);
        memset(&array, 0, sizeof array);
        schema.format = "+s";
        schema.release = arrow_schema_release;
        array.length = 1;
        array.n_buffers = 1;
        array.buffers = buffers;
        array.release = arrow_array_release;
        CASE(fw_form_check_arrow(form, &schema, &array, 1, &valid, &rule, &flags, &n), expected);
        CASE(fw_form_check_arrow(form, NULL, NULL, 0, NULL, NULL, NULL, NULL), expected);
        CHECK(valid == 7 && rule == 7 && flags == 7);
        strcpy(buf, "stale");
        CASE(fw_form_arrow_message(form, &schema, &array, 0, 0, buf, sizeof buf, &n), expected);
        CHECK_STR(buf, "");
        CHECK(arrow_releases == 0);
    }
    /* Modes, groups, external errors, live changes, change tracking (valid arguments otherwise). */
    {
        fw_form_info form_info;
        size_t indices[2];
        const char *ids[1] = {"f"}, *values[1] = {"v"};
        memset(&form_info, 0x5A, sizeof form_info);
        form_info.size = sizeof form_info;
        CASE(fw_form_set_mode(form, FW_MODE_ON_BLUR), expected);
        CASE(fw_field_set_mode(form, "f", FW_MODE_FORM), expected);
        CASE(fw_form_set_error_mode(form, FW_ERRORS_ALL), expected);
        CASE(fw_field_add_group(form, "f", "g"), expected);
        CASE(fw_form_validate_group(form, "g", &flag), expected);
        CASE(fw_form_validate_group(form, NULL, &flag), expected);
        CASE(fw_form_touch_all_group(form, "g"), expected);
        CASE(fw_form_touch_all_group(form, NULL), expected);
        CASE(fw_form_is_valid_group(form, "g", &flag), expected);
        strcpy(buf, "stale");
        CASE(fw_form_first_invalid_group(form, "g", buf, sizeof buf, &n), expected);
        CHECK_STR(buf, "");
        CASE(fw_field_set_error(form, "f", "m"), expected);
        CASE(fw_field_clear_error(form, "f"), expected);
        CASE(fw_form_clear_errors(form), expected);
        CASE(fw_form_remove_field(form, "f"), expected);
        CASE(fw_form_reset_values(form, ids, values, 1), expected);
        CASE(fw_form_reset_values(form, NULL, NULL, 0), expected);
        CASE(fw_form_get_info(form, &form_info), expected);
        CHECK(all_bytes((const char *)&form_info + sizeof(size_t), sizeof form_info - sizeof(size_t), 0x5A));
        CASE(fw_form_changed_since(form, 0, indices, 2, &n), expected);
        CASE(fw_form_changed_since(form, 0, NULL, 0, &n), expected);
        strcpy(buf, "stale");
        CASE(fw_form_announcement(form, buf, sizeof buf, &n), expected);
        CHECK_STR(buf, "");
    }
    /* Asynchronous rules (valid arguments otherwise). */
    {
        fw_request request;
        char texts[64];
        uint64_t due = 7;
        int32_t outcome = 7;
        bool stale = true;
        memset(&request, 0x5A, sizeof request);
        request.size = sizeof request;
        CASE(fw_field_add_async_rule(form, "f", "check", 500, NULL), expected);
        CASE(fw_form_tick(form, 1000), expected);
        flag = true;
        CASE(fw_form_next_request(form, 2000, &request, texts, sizeof texts, &flag), expected);
        CHECK(!flag && all_bytes((const char *)&request + sizeof(size_t), sizeof request - sizeof(size_t), 0x5A));
        CASE(fw_form_next_request(form, 2000, &request, NULL, 0, &flag), expected);
        CASE(fw_form_resolve(form, 1, FW_ASYNC_VALID, NULL, &stale), expected);
        CASE(fw_form_resolve(form, 1, FW_ASYNC_INVALID, "taken", NULL), expected);
        CASE(fw_form_resolve(form, 0, FW_ASYNC_ERROR, NULL, NULL), expected);
        CASE(fw_form_submit(form, NULL, &outcome), expected);
        CASE(fw_form_submit(form, "g", &outcome), expected);
        CHECK(outcome == 7);
        CASE(fw_form_next_due_time(form, &due, &flag), expected);
        CHECK(due == 7);
    }
    /* Messages: locales, rule codes and parameters (valid arguments otherwise). */
    CASE(fw_form_set_locale(form, "fr"), expected);
    CASE(fw_form_set_locale(form, "xx"), expected); /* the handle is refused before the tag is looked up */
    strcpy(buf, "stale");
    CASE(fw_form_locale(form, buf, sizeof buf, &n), expected);
    CHECK_STR(buf, "");
    CASE(fw_form_locale(form, NULL, 0, &n), expected);
    strcpy(buf, "stale");
    CASE(fw_form_rule_code(form, 0, 0, buf, sizeof buf, &n), expected);
    CHECK_STR(buf, "");
    strcpy(buf, "stale");
    CASE(fw_form_rule_params(form, 0, 0, buf, sizeof buf, &n), expected);
    CHECK_STR(buf, "");
    CASE(fw_form_rule_code(form, SIZE_MAX, SIZE_MAX, NULL, 0, NULL), expected);
    CASE(fw_field_value(form, "f", buf, sizeof buf, &n), expected);
    CHECK_STR(buf, ""); /* failed string calls leave "" in the buffer, never stale text */
}

static void bad_handles(void) {
    fw_form *freed = NULL, *live = NULL, *reused = NULL;
    int on_stack = 0;
    uintptr_t bits;
    size_t count = 0;
    char value[16];
    CHECK_OK(fw_form_create(&freed));
    CHECK_OK(fw_form_free(freed));
    every_function(freed, FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(uintptr_t)0x1, FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(uintptr_t)0xdeadbeef, FW_ERR_INVALID_HANDLE);
    /* A live form's slot named with another generation (the handle's bits above the slot index):
       refused, and the live form is neither used nor freed. */
    CHECK_OK(fw_form_create(&live));
    CHECK_OK(fw_form_add_field(live, "a", NULL, "alive"));
    bits = (uintptr_t)(void *)live;
    every_function((fw_form *)(bits ^ ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))), FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(bits + ((uintptr_t)1 << 24)), FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(bits & (((uintptr_t)1 << 24) - 1)), FW_ERR_INVALID_HANDLE);
    CHECK_OK(fw_form_field_count(live, &count));
    CHECK(count == 1);
    CHECK_OK(fw_field_value(live, "a", value, sizeof value, NULL));
    CHECK_STR(value, "alive");
    /* A freed form's slot taken by a new form: the old handle stays dead, the new one works. */
    CHECK_OK(fw_form_create(&reused));
    CHECK(reused != freed);
    every_function(freed, FW_ERR_INVALID_HANDLE);
    CHECK_OK(fw_form_field_count(reused, &count));
    CHECK(count == 0);
    CHECK_OK(fw_form_free(reused));
    CHECK_OK(fw_form_free(live));
    every_function(live, FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(uintptr_t)0x1234, FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(uintptr_t)UINTPTR_MAX, FW_ERR_INVALID_HANDLE);
    every_function((fw_form *)(void *)&on_stack, FW_ERR_INVALID_HANDLE);
    every_function(NULL, FW_ERR_INVALID_HANDLE);
    CASE(fw_field_add_custom(freed, "f", always_valid, NULL, NULL, NULL), FW_ERR_INVALID_HANDLE);
    /* NULL: free is a no-op, everything else refuses. */
    CASE(fw_form_free(NULL), FW_OK);
    CASE(fw_field_focus(NULL, "f"), FW_ERR_INVALID_HANDLE);
    CASE(fw_form_validate(NULL, NULL), FW_ERR_NULL_ARGUMENT);
    CASE(fw_field_snapshot(NULL, "f", NULL, NULL, 0), FW_ERR_NULL_ARGUMENT);
    CASE(fw_form_field_index(NULL, "f", NULL), FW_ERR_NULL_ARGUMENT);
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
    CASE(fw_form_first_invalid_group(form, NULL, NULL, 0, NULL), FW_OK);
    CASE(fw_form_announcement(form, NULL, 0, NULL), FW_OK);
    {
        struct ArrowSchema schema;
        struct ArrowArray array;
        const void *buffers[1] = {NULL};
        memset(&schema, 0, sizeof schema);
        memset(&array, 0, sizeof array);
        schema.format = "+s";
        schema.release = arrow_schema_release;
        array.length = 1;
        array.n_buffers = 1;
        array.buffers = buffers;
        array.release = arrow_array_release;
        CASE(fw_form_check_arrow(form, NULL, &array, 0, NULL, NULL, NULL, NULL), FW_ERR_NULL_ARGUMENT);
        CASE(fw_form_check_arrow(form, &schema, NULL, 0, NULL, NULL, NULL, NULL), FW_ERR_NULL_ARGUMENT);
        CASE(fw_form_arrow_message(form, NULL, &array, 0, 0, NULL, 0, NULL), FW_ERR_NULL_ARGUMENT);
        CASE(fw_form_arrow_message(form, &schema, NULL, 0, 0, NULL, 0, NULL), FW_ERR_NULL_ARGUMENT);
        CASE(fw_form_arrow_message(form, &schema, &array, 0, 0, NULL, 10, NULL), FW_ERR_NULL_ARGUMENT);
        CASE(fw_form_arrow_message(form, &schema, &array, 0, 0, NULL, 0, NULL), FW_OK); /* a size query */
        CHECK(arrow_releases == 0);
    }
    /* A spec can smuggle U+0000 into a key or an id; the error detail spells it \u0000, so C reads it
       whole (found by the SpecJSON fuzzer). */
    {
        char detail[256];
        size_t length = 0;
        CASE(fw_form_load_spec(form, "{\"formwell\": 1, \"fields\": [{\"id\": \"n\", \"a\\u0000b\": 1}]}"),
             FW_ERR_INVALID_SPEC);
        CHECK_OK(fw_last_error_message(detail, sizeof detail, &length));
        CHECK(strlen(detail) == length && strstr(detail, "a\\u0000b") != NULL);
        CASE(fw_form_load_spec(form, "{\"formwell\": 1, \"fields\": [{\"id\": \"n\\u0000\"}]}"), FW_ERR_INVALID_SPEC);
        CHECK_OK(fw_last_error_message(detail, sizeof detail, &length));
        CHECK(strlen(detail) == length);
        CHECK_STR(detail, "fields[0].id: a field id must not contain U+0000 (NUL)");
        /* ... and into an initial value (label, message, hint), which C would then read back cut at
           the NUL: refused too (found by the SpecJSON fuzzer, Fuzz/SpecJSON/corpus/regression-nul-in-initial). */
        CASE(fw_form_load_spec(form, "{\"formwell\": 1, \"fields\": [{\"id\": \"v\", \"initial\": \"e\\u0000\"}]}"),
             FW_ERR_INVALID_SPEC);
        CHECK_OK(fw_last_error_message(detail, sizeof detail, &length));
        CHECK_STR(detail, "fields[0].initial: must not contain U+0000 (NUL)");
    }
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
    /* 10 MB take milliseconds natively, far longer under valgrind: a time limit of a minute keeps the
       verdict the patterns' own (the time bound itself is tested in snapshot_test). */
    CHECK_OK(fw_form_set_time_limit(form, 60000000u));
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

    /* 16 a's: about 65,000 steps, decided under the default limit, refused under a tight one.
       (Past phase 1's shortened step limit, so timed: a minute keeps it decided under valgrind.) */
    CHECK_OK(fw_form_set_time_limit(form, 60000000u));
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

/* ---- the snapshot, index and rule-array functions on a live form ---- */

/* Everything observable about a form, as text: its field count, each field's snapshot and its texts
   (texts only when they fit in 4 KiB, so a 10 MB value costs nothing here). */
static char *fingerprint(fw_form *form) {
    size_t count = 0, i, used = 0, size;
    char *out, texts[4096];
    if (fw_form_field_count(form, &count) != FW_OK) return NULL;
    size = 512 + count * (sizeof texts + 1024);
    out = malloc(size);
    if (!out) return NULL;
    used += (size_t)snprintf(out, size, "%zu fields\n", count);
    {
        /* The catalogue its messages come from (fw_form_set_locale). */
        char locale[64];
        fw_status status = fw_form_locale(form, locale, sizeof locale, NULL);
        used += (size_t)snprintf(out + used, size - used, "locale %d [%s]\n", (int)status, status == FW_OK ? locale : "-");
    }
    {
        /* The form's own state, its revision included: a refused call changes nothing observable. */
        fw_form_info info;
        char announcement[256];
        size_t announcement_length = 0;
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        fw_status status = fw_form_get_info(form, &info);
        fw_status said = fw_form_announcement(form, announcement, sizeof announcement, &announcement_length);
        uint64_t due = 0;
        bool scheduled = false;
        fw_status timed = fw_form_next_due_time(form, &due, &scheduled);
        used += (size_t)snprintf(out + used, size - used, "info %d: %zu %zu %llu %d %d %d %d %d; announcement %d %zu\n",
                                 (int)status, info.field_count, info.dirty_count, (unsigned long long)info.revision,
                                 (int)info.submit_count, (int)info.submit_failed, (int)info.dirty, (int)info.mode,
                                 (int)info.error_mode, (int)said, announcement_length);
        /* Asynchronous rules: pending fields, stale results, the clock and the next due time. */
        used += (size_t)snprintf(out + used, size - used, "async: %zu %zu %llu; next due %d %d %llu\n",
                                 info.pending_count, info.stale_results, (unsigned long long)info.now_ms, (int)timed,
                                 (int)scheduled, (unsigned long long)due);
    }
    for (i = 0; i < count; i++) {
        fw_snapshot snap;
        fw_status status;
        blank_snapshot(&snap);
        status = fw_field_snapshot_at(form, i, &snap, texts, sizeof texts);
        used += (size_t)snprintf(out + used, size - used, "%zu: %d %d %d %d %d %d %d %zu %zu %zu %zu [%s] [%s] [%s]\n",
                                 snap.index, (int)status, (int)snap.phase, (int)snap.validity, (int)snap.display,
                                 (int)snap.failing_rule, (int)snap.touched, (int)snap.limit_exceeded,
                                 snap.message_length, snap.display_message_length, snap.value_length, snap.text_size,
                                 status == FW_OK ? snap.message : "-", status == FW_OK ? snap.display_message : "-",
                                 status == FW_OK ? snap.value : "-");
        used += (size_t)snprintf(out + used, size - used,
                                 "   %d %d %d %d %d %d %d %d %llu %zu %zu %zu %zu %zu [%s] [%s] [%s] [%s]\n",
                                 (int)snap.visited, (int)snap.dirty, (int)snap.modified_since_submit,
                                 (int)snap.external_error, (int)snap.label_raised, (int)snap.emphasized, (int)snap.mode,
                                 (int)snap.tint, (unsigned long long)snap.revision, snap.error_count, snap.label_length,
                                 snap.initial_length, snap.hint_length, snap.errors_size,
                                 status == FW_OK ? snap.label : "-", status == FW_OK ? snap.initial : "-",
                                 status == FW_OK ? snap.hint : "-", status == FW_OK ? snap.errors : "-");
        /* The fourth version: codes and parameters (the code list's first code). */
        used += (size_t)snprintf(out + used, size - used, "   %zu %zu %zu %zu %zu [%s] [%s] [%s] [%s] [%s]\n",
                                 snap.code_length, snap.params_length, snap.display_code_length,
                                 snap.display_params_length, snap.error_codes_size,
                                 status == FW_OK ? snap.code : "-", status == FW_OK ? snap.params : "-",
                                 status == FW_OK ? snap.display_code : "-", status == FW_OK ? snap.display_params : "-",
                                 status == FW_OK ? snap.error_codes : "-");
    }
    return out;
}

#define ANY_OFFSET INT64_MIN

/* One hostile call on `form`: its exact status, the error offset when one is given, and the form
   exactly as it was before (field count, every field's state and texts). */
static void hostile_case(int line, const char *call, fw_form *form, char *before, fw_status got, fw_status expected,
                         int64_t offset, int64_t expected_offset) {
    char *after;
    hostile_cases++;
    check_count++;
    if (got != expected) {
        char detail[256];
        fw_last_error_message(detail, sizeof detail, NULL);
        check_failures++;
        fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d (%s); detail: %s\n", __FILE__, line, call, (int)got,
                fw_status_string(got), (int)expected, fw_status_string(expected), detail);
    }
    if (expected_offset != ANY_OFFSET) {
        check_count++;
        if (offset != expected_offset) {
            check_failures++;
            fprintf(stderr, "%s:%d: %s: error offset %lld, expected %lld\n", __FILE__, line, call, (long long)offset,
                    (long long)expected_offset);
        }
    }
    after = fingerprint(form);
    check_count++;
    if (!before || !after || strcmp(before, after) != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: %s changed the form:\n--- before\n%s--- after\n%s", __FILE__, line, call,
                before ? before : "(none)\n", after ? after : "(none)\n");
    }
    free(before);
    free(after);
}

#define HCASE_AT(form, call, expected, offset)                                                      \
    do {                                                                                           \
        char *before_ = fingerprint(form);                                                         \
        fw_status got_ = (call);                                                                   \
        hostile_case(__LINE__, #call, form, before_, got_, expected, fw_last_error_offset(), offset); \
    } while (0)
#define HCASE(form, call, expected) HCASE_AT(form, call, expected, ANY_OFFSET)

/* `target` has fields "x" (value "kept") and "huge" (regex [a-z]+), then whatever huge_value added. */
static void new_functions(fw_form *target) {
    static const struct { const char *bytes; int64_t offset; } bad[] = {
        {"\x80", 0}, {"ok\xC0\xAF", 2}, {"\xED\xA0\x80", 0}, {"abc\xF4\x90\x80\x80", 3},
        {"\xE2\x82", 0}, {"x\xFE", 1}, {"caf\xC3", 3},
    };
    static const size_t bad_sizes[] = {0, 1, 7, 8, TEST_SNAPSHOT_V1_SIZE - 8, TEST_SNAPSHOT_V1_SIZE - 1,
                                       TEST_SNAPSHOT_V1_SIZE + 1, sizeof(fw_snapshot) - 1,
                                       sizeof(fw_snapshot) + 1, sizeof(fw_snapshot) + 4, SIZE_MAX};
    static const int32_t bad_kinds[] = {-1, FW_RULE_JSON - 1, FW_RULE_JSON + 1, 100, INT32_MIN, INT32_MAX};
    fw_snapshot snap, snaps[8];
    fw_rule rules[3];
    char buf[256];
    size_t count = 0, fields = 0, n = 0, i, k;
    uint32_t limits[3] = {0, 0, 0};
    int destroyed = contexts_destroyed;

    CHECK_OK(fw_form_field_count(target, &fields));
    blank_snapshot(&snap);
    for (i = 0; i < 8; i++) blank_snapshot(&snaps[i]);

    /* NULL out-parameters, NULL snapshots, NULL ids and values. */
    HCASE(target, fw_form_field_index(target, "x", NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_field_index(target, NULL, &n), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_snapshot(target, "x", NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_snapshot(target, NULL, &snap, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_snapshot_at(target, 0, NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_update(target, "x", "changed", NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_update(target, NULL, "changed", &snap, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_update(target, "x", NULL, &snap, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_update_at(target, 0, "changed", NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_update_at(target, 0, NULL, &snap, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_set_value_at(target, 0, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_snapshots(target, snaps, 8, NULL, buf, sizeof buf, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_snapshots(target, NULL, 8, &count, buf, sizeof buf, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_match_limits(target, NULL, NULL, NULL), FW_OK); /* NULL out-parameters are skipped */
    HCASE(target, fw_form_match_limits(target, &limits[0], NULL, &limits[2]), FW_OK);
    CHECK(limits[0] == 1000000 && limits[1] == 0 && limits[2] == 16384);
    /* A NULL buffer with a size. */
    HCASE(target, fw_field_snapshot(target, "x", &snap, NULL, 1), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_snapshot_at(target, 0, &snap, NULL, SIZE_MAX), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_update(target, "x", "changed", &snap, NULL, 16), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_update_at(target, 0, "changed", &snap, NULL, 16), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_snapshots(target, snaps, 8, &count, NULL, 16, NULL), FW_ERR_NULL_ARGUMENT);

    /* Sizes that break the rule (smaller than the first version's fw_snapshot, or not a multiple of 8). */
    for (k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++) {
        blank_snapshot(&snap);
        snap.size = bad_sizes[k];
        for (i = 0; i < 8; i++) snaps[i].size = bad_sizes[k];
        HCASE(target, fw_field_snapshot(target, "x", &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
        HCASE(target, fw_field_snapshot_at(target, 0, &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
        HCASE(target, fw_field_update(target, "x", "changed", &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
        HCASE(target, fw_field_update_at(target, 0, "changed", &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
        if (bad_sizes[k] <= sizeof(fw_snapshot)) { /* a larger stride would step past this array */
            HCASE(target, fw_form_snapshots(target, snaps, 8, &count, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
        }
    }
    for (i = 0; i < 8; i++) blank_snapshot(&snaps[i]);
    snaps[1].size = sizeof(fw_snapshot) + 8; /* elements disagreeing with snapshots[0].size */
    HCASE(target, fw_form_snapshots(target, snaps, 8, &count, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    blank_snapshot(&snaps[1]);
    HCASE(target, fw_form_snapshots(target, snaps, fields - 1, &count, buf, sizeof buf, NULL), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(count == fields);
    HCASE(target, fw_form_snapshots(target, snaps, 0, &count, NULL, 0, NULL), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(count == fields);

    /* Indexes out of range, up to SIZE_MAX. */
    {
        size_t indexes[] = {fields, fields + 1, (size_t)INT64_MAX, (size_t)INT64_MAX + 1, SIZE_MAX - 1, SIZE_MAX};
        for (k = 0; k < sizeof indexes / sizeof indexes[0]; k++) {
            blank_snapshot(&snap);
            HCASE(target, fw_field_set_value_at(target, indexes[k], "v"), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_field_focus_at(target, indexes[k]), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_field_blur_at(target, indexes[k]), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_field_touch_at(target, indexes[k]), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_field_snapshot_at(target, indexes[k], &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_field_update_at(target, indexes[k], "v", &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
        }
    }
    HCASE(target, fw_form_field_index(target, "missing", &n), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_field_snapshot(target, "missing", &snap, buf, sizeof buf), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_field_update(target, "missing", "v", &snap, buf, sizeof buf), FW_ERR_UNKNOWN_FIELD);

    /* fw_form_add_field_with_rules: NULL rules with a count, bad kinds, bad sizes, huge counts; every
       refusal leaves the form as it was and the custom rule's context with the caller. */
    rules[0] = custom_rule();
    rules[1] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[2] = test_rule(FW_RULE_MIN_LENGTH, 1, NULL, NULL);
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, NULL, 1), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, NULL, SIZE_MAX), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, SIZE_MAX), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_add_field_with_rules(target, NULL, NULL, NULL, rules, 3), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_add_field_with_rules(target, "x", NULL, NULL, rules, 3), FW_ERR_DUPLICATE_FIELD);
    for (k = 0; k < sizeof bad_kinds / sizeof bad_kinds[0]; k++) {
        rules[1].kind = bad_kinds[k];
        HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_ARGUMENT);
    }
    rules[1] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    {
        size_t sizes[] = {0, 8, sizeof(fw_rule) - 8, sizeof(fw_rule) + 4, SIZE_MAX};
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            rules[2].size = sizes[k]; /* differs from rules[0].size */
            HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_ARGUMENT);
            rules[2].size = sizeof(fw_rule);
            rules[0].size = sizes[k]; /* the stride itself */
            HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_ARGUMENT);
            rules[0].size = sizeof(fw_rule);
        }
    }
    /* First-version elements (no hint) laid out at their own stride, but rules[0] declaring the
       second version's size: its `hint` would be the next element's `size` (found by the
       CallSequences fuzzer). Refused for the disagreeing sizes before any pointer is followed. */
    {
        const size_t v1 = offsetof(fw_rule, hint);
        union {
            fw_rule aligned;
            unsigned char bytes[3 * sizeof(fw_rule)];
        } packed;
        fw_rule r = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
        memset(&packed, 0xCC, sizeof packed);
        for (k = 0; k < 2; k++) {
            r.size = k == 0 ? sizeof(fw_rule) : v1;
            memcpy(packed.bytes + k * v1, &r, v1);
        }
        HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, &packed.aligned, 2), FW_ERR_INVALID_ARGUMENT);
    }
    rules[2] = test_rule(FW_RULE_MIN_LENGTH, -1, NULL, NULL);
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_ARGUMENT);
    rules[2] = test_rule(FW_RULE_MAX_LENGTH, INT32_MIN, NULL, NULL);
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_ARGUMENT);
    rules[1] = test_rule(FW_RULE_MAX_LENGTH, 2, NULL, NULL);
    rules[2] = test_rule(FW_RULE_MIN_LENGTH, INT32_MAX, NULL, NULL);
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_ARGUMENT);
    rules[1] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[2] = test_rule(FW_RULE_REGEX, 0, NULL, NULL); /* a pattern rule without its pattern */
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_NULL_ARGUMENT);
    rules[2] = test_rule(FW_RULE_MATCHES, 0, NULL, NULL);
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_NULL_ARGUMENT);
    rules[2] = test_rule(FW_RULE_MATCHES, 0, "n", NULL); /* itself */
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_ARGUMENT);
    rules[2] = test_rule(FW_RULE_MATCHES, 0, "", NULL);
    HCASE(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_UNKNOWN_FIELD);
    rules[2] = test_rule(FW_RULE_REGEX, 0, "(a+)+(", NULL);
    HCASE_AT(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_PATTERN, 6);
    rules[2] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    HCASE(target, fw_form_add_field_with_rules(target, "", NULL, NULL, rules, 3), FW_ERR_INVALID_ARGUMENT);

    /* Malformed UTF-8 in every string these functions take, fw_rule's text and message included:
       refused with the offset of the first bad byte. */
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *b = bad[k].bytes;
        int64_t at = bad[k].offset;
        HCASE_AT(target, fw_form_field_index(target, b, &n), FW_ERR_INVALID_UTF8, at);
        HCASE_AT(target, fw_field_snapshot(target, b, &snap, buf, sizeof buf), FW_ERR_INVALID_UTF8, at);
        HCASE_AT(target, fw_field_update(target, b, "v", &snap, buf, sizeof buf), FW_ERR_INVALID_UTF8, at);
        HCASE_AT(target, fw_field_update(target, "x", b, &snap, buf, sizeof buf), FW_ERR_INVALID_UTF8, at);
        HCASE_AT(target, fw_field_update_at(target, 0, b, &snap, buf, sizeof buf), FW_ERR_INVALID_UTF8, at);
        HCASE_AT(target, fw_field_set_value_at(target, 0, b), FW_ERR_INVALID_UTF8, at);
        HCASE_AT(target, fw_form_add_field_with_rules(target, b, NULL, NULL, rules, 3), FW_ERR_INVALID_UTF8, at);
        HCASE_AT(target, fw_form_add_field_with_rules(target, "n", b, NULL, rules, 3), FW_ERR_INVALID_UTF8, at);
        HCASE_AT(target, fw_form_add_field_with_rules(target, "n", NULL, b, rules, 3), FW_ERR_INVALID_UTF8, at);
        rules[2] = test_rule(FW_RULE_REGEX, 0, b, NULL);
        HCASE_AT(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_UTF8, at);
        rules[2] = test_rule(FW_RULE_MATCHES, 0, b, NULL);
        HCASE_AT(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_UTF8, at);
        rules[2] = test_rule(FW_RULE_REQUIRED, 0, NULL, b);
        HCASE_AT(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_UTF8, at);
        rules[2] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
        rules[0].message = b; /* on the custom rule itself */
        HCASE_AT(target, fw_form_add_field_with_rules(target, "n", NULL, NULL, rules, 3), FW_ERR_INVALID_UTF8, at);
        rules[0].message = NULL;
    }
    CHECK(contexts_destroyed == destroyed); /* no refused call released the caller's context */
    CHECK_OK(fw_form_field_count(target, &count));
    CHECK(count == fields);
    CHECK_STATUS(fw_form_field_index(target, "n", &n), FW_ERR_UNKNOWN_FIELD);
    CHECK_OK(fw_field_value(target, "x", buf, sizeof buf, NULL));
    CHECK_STR(buf, "kept");
}

/* The functions for modes, groups, external errors, remove_field, reset_values, get_info,
   changed_since and the announcement, refusing NULLs, bad numbers, malformed UTF-8, unknown fields and
   groups, bad struct sizes: each with its exact status, and none changing anything observable (the
   fingerprint holds the form's info and revision, and every field's second-version members). */
static void issue11_functions(fw_form *target) {
    static const struct { const char *bytes; int64_t offset; } bad[] = {
        {"\x80", 0}, {"ok\xC0\xAF", 2}, {"\xED\xA0\x80", 0}, {"abc\xF4\x90\x80\x80", 3}, {"x\xFE", 1},
    };
    static const int32_t bad_modes[] = {-2, 5, 100, INT32_MIN, INT32_MAX};
    static const int32_t bad_error_modes[] = {-1, 2, INT32_MIN, INT32_MAX};
    const char *ids[2] = {"x", "x"}, *values[2] = {"a", "b"}, *null_id[1] = {NULL}, *null_value[1] = {NULL};
    const char *one_id[1] = {"x"}, *one_value[1] = {"v"}, *unknown[1] = {"nope"};
    size_t k, n = 0, indices[4];
    bool flag = false;
    char buf[64];
    union {
        fw_form_info info;
        unsigned char bytes[sizeof(fw_form_info) + 16];
    } memory;
    fw_form_info *info = &memory.info;

    /* Bad mode values. */
    for (k = 0; k < sizeof bad_modes / sizeof bad_modes[0]; k++) {
        HCASE(target, fw_form_set_mode(target, bad_modes[k]), FW_ERR_INVALID_ARGUMENT);
        HCASE(target, fw_field_set_mode(target, "x", bad_modes[k]), FW_ERR_INVALID_ARGUMENT);
    }
    HCASE(target, fw_form_set_mode(target, FW_MODE_FORM), FW_ERR_INVALID_ARGUMENT); /* fields only */
    for (k = 0; k < sizeof bad_error_modes / sizeof bad_error_modes[0]; k++) {
        HCASE(target, fw_form_set_error_mode(target, bad_error_modes[k]), FW_ERR_INVALID_ARGUMENT);
    }

    /* NULL ids, strings and out-parameters. */
    HCASE(target, fw_field_set_mode(target, NULL, FW_MODE_ON_BLUR), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_add_group(target, NULL, "g"), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_add_group(target, "x", NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_validate_group(target, "g", NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_validate_group(target, NULL, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_is_valid_group(target, NULL, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_first_invalid_group(target, NULL, NULL, 10, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_set_error(target, NULL, "m"), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_set_error(target, "x", NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_clear_error(target, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_remove_field(target, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_reset_values(target, NULL, one_value, 1), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_reset_values(target, one_id, NULL, 1), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_reset_values(target, null_id, one_value, 1), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_reset_values(target, one_id, null_value, 1), FW_ERR_NULL_ARGUMENT);
    /* A huge count is read element by element: the first NULL stops it. */
    HCASE(target, fw_form_reset_values(target, null_id, null_value, SIZE_MAX), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_get_info(target, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_changed_since(target, 0, indices, 4, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_changed_since(target, 0, NULL, 4, &n), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_announcement(target, NULL, 10, NULL), FW_ERR_NULL_ARGUMENT);

    /* Malformed UTF-8 in every string parameter. */
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *bad_ids[1], *bad_values[1];
        bad_ids[0] = bad[k].bytes;
        bad_values[0] = bad[k].bytes;
        HCASE_AT(target, fw_field_set_mode(target, bad[k].bytes, FW_MODE_ON_BLUR), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_field_add_group(target, bad[k].bytes, "g"), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_field_add_group(target, "x", bad[k].bytes), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_form_validate_group(target, bad[k].bytes, &flag), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_form_touch_all_group(target, bad[k].bytes), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_form_is_valid_group(target, bad[k].bytes, &flag), FW_ERR_INVALID_UTF8, bad[k].offset);
        strcpy(buf, "stale");
        HCASE_AT(target, fw_form_first_invalid_group(target, bad[k].bytes, buf, sizeof buf, &n), FW_ERR_INVALID_UTF8,
                 bad[k].offset);
        CHECK_STR(buf, "");
        HCASE_AT(target, fw_field_set_error(target, bad[k].bytes, "m"), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_field_set_error(target, "x", bad[k].bytes), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_field_clear_error(target, bad[k].bytes), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_form_remove_field(target, bad[k].bytes), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_form_reset_values(target, bad_ids, one_value, 1), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_form_reset_values(target, one_id, bad_values, 1), FW_ERR_INVALID_UTF8, bad[k].offset);
    }

    /* Unknown fields and groups, empty names and messages, an id twice. */
    HCASE(target, fw_field_set_mode(target, "nope", FW_MODE_ON_BLUR), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_field_add_group(target, "nope", "g"), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_field_add_group(target, "x", ""), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_validate_group(target, "g", &flag), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_validate_group(target, "", &flag), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_touch_all_group(target, "g"), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_is_valid_group(target, "g", &flag), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_first_invalid_group(target, "g", buf, sizeof buf, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_field_set_error(target, "nope", "m"), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_field_set_error(target, "x", ""), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_field_clear_error(target, "nope"), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_form_remove_field(target, "nope"), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_form_remove_field(target, ""), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_form_reset_values(target, unknown, one_value, 1), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_form_reset_values(target, ids, values, 2), FW_ERR_INVALID_ARGUMENT);

    /* fw_form_info sizes and alignment; fw_form_changed_since's capacity. */
    {
        static const size_t bad_sizes[] = {0, 1, 8, TEST_FORM_INFO_V1_SIZE - 8, TEST_FORM_INFO_V1_SIZE - 1,
                                           TEST_FORM_INFO_V1_SIZE + 4, sizeof(fw_form_info) - 1,
                                           sizeof(fw_form_info) + 1, sizeof(fw_form_info) + 4, SIZE_MAX};
        for (k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++) {
            memset(&memory, 0x5A, sizeof memory);
            info->size = bad_sizes[k];
            HCASE(target, fw_form_get_info(target, info), FW_ERR_INVALID_ARGUMENT);
            CHECK(all_bytes(memory.bytes + sizeof(size_t), sizeof memory - sizeof(size_t), 0x5A));
        }
        memset(&memory, 0x5A, sizeof memory);
        *(size_t *)(void *)(memory.bytes + 8) = sizeof(fw_form_info);
        HCASE(target, fw_form_get_info(target, (fw_form_info *)(void *)(memory.bytes + 4)), FW_ERR_INVALID_ARGUMENT);
        memset(&memory, 0x5A, sizeof memory);
        info->size = sizeof(fw_form_info) + 8; /* a later version's size: its own members untouched */
        HCASE(target, fw_form_get_info(target, info), FW_OK);
        CHECK(all_bytes(memory.bytes + sizeof(fw_form_info), 8, 0x5A));
        memset(&memory, 0x5A, sizeof memory);
        info->size = TEST_FORM_INFO_V1_SIZE; /* a first-version caller: nothing past error_mode written */
        HCASE(target, fw_form_get_info(target, info), FW_OK);
        CHECK(all_bytes(memory.bytes + TEST_FORM_INFO_V1_SIZE, sizeof memory - TEST_FORM_INFO_V1_SIZE, 0x5A));
        n = 0;
        HCASE(target, fw_form_changed_since(target, 0, indices, 1, &n), FW_ERR_BUFFER_TOO_SMALL);
        CHECK(n >= 2);
    }
    CHECK_OK(fw_field_value(target, "x", buf, sizeof buf, NULL));
    CHECK_STR(buf, "kept");
}

/* 10 MB values through fw_field_update_at, with buffers too small, exact and absent (first-version
   snapshots, whose texts are the message, the display message and the value). */
static void huge_update(fw_form *target) {
    size_t size = 10u << 20, index = 99, length = 0;
    char *big = malloc(size + 2), *texts = malloc(size + 3);
    fw_snapshot snap;
    char small[64];
    if (!big || !texts) {
        free(big);
        free(texts);
        return;
    }
    memset(big, 'b', size);
    big[size] = '\0';
    CHECK_OK(fw_form_set_time_limit(target, 60000000u)); /* as in huge_value */
    CHECK_OK(fw_form_field_index(target, "huge", &index));
    CHECK(index == 1);

    blank_snapshot_v1(&snap);
    CASE(fw_field_update_at(target, index, big, &snap, NULL, 0), FW_OK);
    CHECK(snap.value_length == size && snap.text_size == size + 3 && snap.value == NULL);
    CHECK(snap.validity == FW_VALIDITY_VALID && snap.failing_rule == -1 && !snap.limit_exceeded);
    CHECK_OK(fw_field_value(target, "huge", NULL, 0, &length));
    CHECK(length == size);

    /* Too small: the two empty messages fit, the value does not; text_size is exact. */
    big[0] = 'c';
    blank_snapshot_v1(&snap);
    CASE(fw_field_update_at(target, index, big, &snap, small, sizeof small), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(snap.text_size == size + 3 && snap.value_length == size && snap.value == NULL);
    CHECK(snap.message == small && snap.display_message == small + 1);
    blank_snapshot_v1(&snap);
    CASE(fw_field_snapshot_at(target, index, &snap, texts, size + 2), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(snap.value == NULL && snap.text_size == size + 3);
    /* Exact fit. */
    blank_snapshot_v1(&snap);
    CASE(fw_field_snapshot_at(target, index, &snap, texts, size + 3), FW_OK);
    CHECK(snap.value == texts + 2 && snap.value[0] == 'c' && snap.value[size] == '\0'
          && memcmp(snap.value + 1, big + 1, size - 1) == 0);

    /* Invalid: a '!' at the very end; the message comes with it (a second-version caller: the
       label, initial value, hint and error list count too). */
    big[size - 1] = '!';
    blank_snapshot(&snap);
    CASE(fw_field_update_at(target, index, big, &snap, small, sizeof small), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(snap.phase == FW_PHASE_INACTIVE && snap.validity == FW_VALIDITY_INVALID && snap.failing_rule == 0);
    CHECK(snap.message_length == strlen("Invalid format") && snap.value == NULL);
    CHECK(snap.text_size == snap.message_length + 1 + snap.display_message_length + 1 + size + 1
                            + snapshot_v2_text_bytes(&snap));
    CHECK(snap.error_count == 1 && snap.errors_size == strlen("Invalid format") + 1 && snap.errors == NULL);
    /* Never touched: no error displayed, so no hint. */
    CHECK(snap.display == FW_DISPLAY_NONE && snap.hint_length == 0 && snap.dirty && snap.tint == FW_TINT_ERROR);
    CHECK_STR(snap.message, "Invalid format");

    /* Malformed UTF-8 at the very end of 10 MB: refused with its offset, nothing changes. */
    big[size - 1] = '\xC3';
    HCASE_AT(target, fw_field_update_at(target, index, big, &snap, small, sizeof small), FW_ERR_INVALID_UTF8,
             (int64_t)(size - 1));
    HCASE_AT(target, fw_field_set_value_at(target, index, big), FW_ERR_INVALID_UTF8, (int64_t)(size - 1));
    CHECK_OK(fw_field_value(target, "huge", texts, size + 3, &length));
    CHECK(length == size && texts[size - 1] == '!');
    free(big);
    free(texts);
}

/* ---- the batch functions on a live form ---- */


/* `target` as new_functions left it (fields "x", "huge" [a-z]+ holding 10 MB, a 10 MB id, ...): lying,
   NULL and malformed columns, out-of-range numbers; every refusal exact, and no call (not even a
   successful batch) changes anything the form shows. */
static void batch_functions(fw_form *target) {
    static const char bad_ids[][8] = {"\x80", "ok\xC0\xAF", "\xE2\x82", "x\xFE"};
    static const int64_t bad_id_offsets[] = {0, 2, 0, 1};
    static const char data[] = "abcxyz";
    int32_t good[4] = {0, 2, 4, 6}, lying[4] = {0, 2, 4, 600}, reversed[4] = {6, 4, 2, 0};
    int32_t huge_offsets[4] = {0, INT32_MAX, INT32_MAX, INT32_MAX}, minimal[4] = {INT32_MIN, 0, 0, 0};
    int64_t wide[4] = {0, 2, 4, (int64_t)1 << 40};
    uint8_t valid[3], flags[64], bitmap = 0;
    int32_t rules_out[64 + 1];
    fw_column c[8];
    char buf[128];
    size_t fields = 0, n = 0, i, k;
    uint8_t stride_buffer[3 * (sizeof(fw_column) + 16)];

    CHECK_OK(fw_form_field_count(target, &fields));
    CHECK(fields >= 3 && fields * 3 <= 64);
    c[0] = test_column32("x", good, data, 6);
    /* A good batch: the form is unchanged (hostile_case compares every field before and after). */
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_OK);
    CHECK(n == 3); /* "ab", "cx", "yz" in x; the other fields keep their values, and x has bounds 3..3 */
    HCASE(target, fw_form_batch_message(target, c, 1, 3, 1, 0, buf, sizeof buf, &n), FW_OK);
    HCASE(target, fw_form_rule_message(target, 0, 0, buf, sizeof buf, &n), FW_OK);
    /* NULLs: columns with a count, a NULL field id is by position, NULL data / offsets. */
    HCASE(target, fw_form_check_batch(target, NULL, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_check_batch(target, NULL, SIZE_MAX, 3, 0, NULL, NULL, NULL, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_batch_message(target, NULL, 1, 3, 0, 0, buf, sizeof buf, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_batch_message(target, c, 1, 3, 0, 0, NULL, 16, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_rule_message(target, 0, 0, NULL, 16, NULL), FW_ERR_NULL_ARGUMENT);
    c[0] = test_column32("x", NULL, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_NULL_ARGUMENT);
    c[0] = test_column32("x", good, NULL, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_NULL_ARGUMENT);
    c[0] = test_column32("x", good, NULL, SIZE_MAX);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_NULL_ARGUMENT);
    /* Lying columns: offsets past the data, decreasing, near INT32_MAX, negative, 2^40 as int64;
       data_size smaller than the offsets promise, or absurdly large with no data. */
    c[0] = test_column32("x", lying, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_batch_message(target, c, 1, 3, 2, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_batch_message(target, c, 1, 3, 0, 0, buf, sizeof buf, NULL), FW_OK); /* record 0 is fine */
    c[0] = test_column32("x", reversed, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    c[0] = test_column32("x", huge_offsets, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    c[0] = test_column32("x", minimal, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_batch_message(target, c, 1, 3, 0, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    c[0] = test_column32("x", wide, data, 6);
    c[0].offset_size = 8;
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    c[0] = test_column32("x", good, data, 5);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    c[0] = test_column32("x", good, data, (size_t)INT64_MAX + 1);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    /* Offset sizes other than 4 and 8; reserved and validity don't matter for the shape. */
    {
        static const int32_t sizes[] = {0, 1, 2, 3, 5, 16, -4, INT32_MIN, INT32_MAX};
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            c[0] = test_column32("x", good, data, 6);
            c[0].offset_size = sizes[k];
            HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_form_batch_message(target, c, 1, 3, 0, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
        }
    }
    c[0] = test_column32("x", good, data, 6);
    c[0].validity = &bitmap; /* every record null: "" in x, which has no required rule */
    c[0].reserved = 12345;
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_OK);
    CHECK(rules_out[0] == -1 && rules_out[fields] == -1 && rules_out[2 * fields] == -1);
    /* Misaligned out_failing_rules. */
    c[0] = test_column32("x", good, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, (int32_t *)(void *)((char *)rules_out + 2), flags, &n),
          FW_ERR_INVALID_ARGUMENT);
    /* Field ids: unknown, empty, malformed UTF-8 (with the offset), the 10 MB id's prefix, twice. */
    c[0] = test_column32("missing", good, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_form_batch_message(target, c, 1, 3, 0, 0, buf, sizeof buf, NULL), FW_ERR_UNKNOWN_FIELD);
    c[0] = test_column32("", good, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_UNKNOWN_FIELD);
    c[0] = test_column32("aaaa", good, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_UNKNOWN_FIELD);
    for (k = 0; k < sizeof bad_ids / sizeof bad_ids[0]; k++) {
        c[0] = test_column32("x", good, data, 6);
        c[1] = test_column32(bad_ids[k], good, data, 6);
        HCASE_AT(target, fw_form_check_batch(target, c, 2, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_UTF8,
                 bad_id_offsets[k]);
        HCASE_AT(target, fw_form_batch_message(target, c, 2, 3, 0, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_UTF8,
                 bad_id_offsets[k]);
    }
    c[0] = test_column32(NULL, good, data, 6);
    c[1] = test_column32("x", good, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 2, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    /* Column counts and sizes: more columns than fields (up to SIZE_MAX), strides that break the rule. */
    for (i = 0; i < 8; i++) c[i] = test_column32(NULL, good, data, 6);
    HCASE(target, fw_form_check_batch(target, c, fields + 1, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_check_batch(target, c, SIZE_MAX, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_batch_message(target, c, SIZE_MAX, 3, 0, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    {
        size_t sizes[] = {0, 8, sizeof(fw_column) - 8, sizeof(fw_column) + 4, SIZE_MAX};
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            c[1].size = sizes[k]; /* differs from c[0].size */
            HCASE(target, fw_form_check_batch(target, c, 2, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
            c[1].size = sizeof(fw_column);
            if (sizes[k] <= sizeof(fw_column)) { /* a larger stride would step past this array */
                c[0].size = sizes[k];
                HCASE(target, fw_form_check_batch(target, c, 2, 3, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
                c[0].size = sizeof(fw_column);
            }
        }
    }
    /* The growth rule: a caller's struct 16 bytes larger, every element the same size, works. */
    memset(stride_buffer, 0xEE, sizeof stride_buffer);
    for (i = 0; i < 3; i++) {
        fw_column one = test_column32(NULL, good, data, 6);
        one.size = sizeof(fw_column) + 16;
        memcpy(stride_buffer + i * (sizeof(fw_column) + 16), &one, sizeof one);
    }
    HCASE(target, fw_form_check_batch(target, (const fw_column *)(void *)stride_buffer, 3, 3, 0, valid, rules_out,
                                      flags, &n), FW_OK);
    /* Numbers out of range. */
    c[0] = test_column32("x", good, data, 6);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, -1, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, INT32_MIN, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_check_batch(target, c, 1, 3, INT32_MAX, valid, rules_out, flags, &n), FW_OK);
    HCASE(target, fw_form_check_batch(target, c, 1, SIZE_MAX, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_check_batch(target, c, 1, (size_t)INT32_MAX, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_check_batch(target, NULL, 0, (size_t)INT32_MAX, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_batch_message(target, c, 1, SIZE_MAX, 0, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    {
        size_t indexes[] = {3, (size_t)INT64_MAX, (size_t)INT64_MAX + 1, SIZE_MAX};
        for (k = 0; k < sizeof indexes / sizeof indexes[0]; k++) {
            HCASE(target, fw_form_batch_message(target, c, 1, 3, indexes[k], 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_form_batch_message(target, c, 1, 3, 0, fields + indexes[k] - 3, buf, sizeof buf, NULL),
                  FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_form_rule_message(target, fields + indexes[k] - 3, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_form_rule_message(target, 0, indexes[k] + 100, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
        }
    }
    HCASE(target, fw_form_rule_message(target, 2, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT); /* no rules */
    CHECK_STR(buf, "");
    CHECK_OK(fw_field_value(target, "x", buf, sizeof buf, NULL));
    CHECK_STR(buf, "kept");
}

/* `target` as batch_functions left it: struct arrays that lie about their counts, buffers and
   offsets, released ones, numbers out of range; every refusal exact, the form unchanged by any call,
   and no release callback ever called. */
static void arrow_functions(fw_form *target) {
    static const char data[] = "abcxyz";
    int32_t good[4] = {0, 2, 4, 6}, reversed[4] = {6, 4, 2, 0};
    int32_t minimal[4] = {INT32_MIN, 0, 0, 0};
    struct ArrowSchema schema, column_schema, *schema_children[1];
    struct ArrowArray array, column, *array_children[1];
    const void *buffers[1] = {NULL}, *column_buffers[3];
    uint8_t valid[3], flags[64], bitmap = 0x5;
    int32_t rules_out[64 + 1];
    char buf[128];
    size_t fields = 0, n = 0, k;

    CHECK_OK(fw_form_field_count(target, &fields));
    CHECK(fields * 3 <= 64);
    memset(&schema, 0, sizeof schema);
    memset(&array, 0, sizeof array);
    memset(&column_schema, 0, sizeof column_schema);
    memset(&column, 0, sizeof column);
    schema.format = "+s";
    schema.n_children = 1;
    schema.children = schema_children;
    schema.release = arrow_schema_release;
    schema_children[0] = &column_schema;
    column_schema.format = "u";
    column_schema.name = "x";
    column_schema.release = arrow_schema_release;
    array.length = 3;
    array.n_buffers = 1;
    array.buffers = buffers;
    array.n_children = 1;
    array.children = array_children;
    array.release = arrow_array_release;
    array_children[0] = &column;
    column_buffers[0] = NULL;
    column_buffers[1] = good;
    column_buffers[2] = data;
    column.length = 3;
    column.n_buffers = 3;
    column.buffers = column_buffers;
    column.release = arrow_array_release;
    /* A good struct array: the form is unchanged. */
    HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_OK);
    CHECK(n == 3);
    HCASE(target, fw_form_arrow_message(target, &schema, &array, 1, 0, buf, sizeof buf, &n), FW_OK);
    /* Lying offsets, values and bitmaps. */
    /* (Offsets that lie consistently past the data, {0, 2, 4, 600}, cannot be caught: the interface gives
       no data size, so the last offset is taken as it. Nor can a child offset past the child's buffers.) */
    column_buffers[1] = reversed;
    HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_arrow_message(target, &schema, &array, 0, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    column_buffers[1] = minimal;
    HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    column_buffers[1] = good;
    column.null_count = 1;
    HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    column_buffers[0] = &bitmap;
    HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_OK);
    column.null_count = 0;
    column_buffers[0] = NULL;
    /* Counts out of range. */
    {
        int64_t counts[] = {-1, INT64_MIN, INT64_MAX, (int64_t)INT32_MAX, ((int64_t)1 << 40) + 1};
        for (k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            array.length = counts[k];
            HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
            array.length = 3;
            array.offset = counts[k];
            HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
            array.offset = 0;
            if (counts[k] != (int64_t)INT32_MAX) { /* a child may be that long, or start that far in */
                column.length = counts[k];
                HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
                column.length = 3;
                column.offset = counts[k];
                HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
                column.offset = 0;
            }
            array.n_children = counts[k];
            HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
            array.n_children = 1;
            column.n_buffers = counts[k];
            HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
            column.n_buffers = 3;
            column.null_count = counts[k] == INT64_MAX ? -2 : counts[k] < 0 && counts[k] != -1 ? counts[k] : -7;
            HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
            column.null_count = 0;
        }
    }
    /* Released structs, a column of another type, a NULL format. */
    column.release = NULL;
    HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    column.release = arrow_array_release;
    schema.release = NULL;
    HCASE(target, fw_form_arrow_message(target, &schema, &array, 0, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    schema.release = arrow_schema_release;
    column_schema.format = "+l";
    HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    column_schema.format = NULL;
    HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    column_schema.format = "u";
    column_schema.name = "\xE2\x82";
    HCASE_AT(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_ERR_INVALID_UTF8, 0);
    column_schema.name = "no such field"; /* ignored: every field reads its initial value */
    HCASE(target, fw_form_check_arrow(target, &schema, &array, 0, valid, rules_out, flags, &n), FW_OK);
    column_schema.name = "x";
    /* Numbers out of range. */
    HCASE(target, fw_form_check_arrow(target, &schema, &array, INT32_MIN, valid, rules_out, flags, &n), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_check_arrow(target, &schema, &array, INT32_MAX, valid, rules_out, flags, &n), FW_OK);
    {
        size_t indexes[] = {3, (size_t)INT64_MAX, (size_t)INT64_MAX + 1, SIZE_MAX};
        for (k = 0; k < sizeof indexes / sizeof indexes[0]; k++) {
            HCASE(target, fw_form_arrow_message(target, &schema, &array, indexes[k], 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_form_arrow_message(target, &schema, &array, 0, fields + indexes[k] - 3, buf, sizeof buf, NULL),
                  FW_ERR_INVALID_ARGUMENT);
        }
    }
    CHECK(arrow_releases == 0);
    CHECK_OK(fw_field_value(target, "x", buf, sizeof buf, NULL));
    CHECK_STR(buf, "kept");
}

/* ---- a validator calling the batch functions ---- */

typedef struct {
    fw_form *form;
    fw_form *other;
    fw_status own_batch, own_message, own_rule, other_batch;
    size_t other_invalid;
    int calls;
} reentry_batch;

static int32_t reentering_batch(void *context, const char *value, size_t length, const char **out_message) {
    reentry_batch *ctx = (reentry_batch *)context;
    static const int32_t offsets[3] = {0, 1, 3};
    fw_column column;
    char buf[64];
    uint8_t valid[2];
    (void)value; (void)out_message;
    ctx->calls++;
    memset(&column, 0, sizeof column);
    column.size = sizeof column;
    column.offsets = offsets;
    column.data = "abc";
    column.data_size = 3;
    column.offset_size = 4;
    ctx->own_batch = fw_form_check_batch(ctx->form, &column, 1, 2, 1, valid, NULL, NULL, NULL);
    ctx->own_message = fw_form_batch_message(ctx->form, &column, 1, 2, 0, 0, buf, sizeof buf, NULL);
    ctx->own_rule = fw_form_rule_message(ctx->form, 0, 0, buf, sizeof buf, NULL);
    ctx->other_batch = fw_form_check_batch(ctx->other, &column, 1, 2, 1, valid, NULL, NULL, &ctx->other_invalid);
    return length > 1 ? FW_VERDICT_VALID : FW_VERDICT_INVALID;
}

static int32_t error_on_z(void *context, const char *value, size_t length, const char **out_message) {
    (void)context; (void)out_message;
    return length == 1 && value[0] == 'z' ? FW_VERDICT_ERROR : FW_VERDICT_VALID;
}

static void reentrant_batch(void) {
    fw_form *form = NULL, *other = NULL;
    reentry_batch ctx;
    static const int32_t offsets[4] = {0, 1, 3, 4};
    fw_column column[2];
    uint8_t valid[3];
    int32_t rules[6];
    size_t invalid = 0;
    memset(&ctx, 0, sizeof ctx);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_create(&other));
    CHECK_OK(fw_form_add_field(other, "o", NULL, NULL));
    CHECK_OK(fw_field_add_min_length(other, "o", 2, NULL));
    ctx.form = form;
    ctx.other = other;
    CHECK_OK(fw_form_add_field(form, "r", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "r", reentering_batch, &ctx, NULL, NULL));
    CHECK_OK(fw_form_add_field(form, "e", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "e", error_on_z, NULL, NULL, NULL));
    CHECK_OK(fw_field_focus(form, "r"));
    CHECK_OK(fw_field_set_value(form, "r", "typed"));
    memset(column, 0, sizeof column);
    column[0].size = column[1].size = sizeof column[0];
    column[0].offsets = column[1].offsets = offsets;
    column[0].data = "xyzw";
    column[0].data_size = 4;
    column[0].offset_size = column[1].offset_size = 4;
    column[1].data = "ab_z";
    column[1].data_size = 4;
    /* From inside a batch of its own form: every batch call on it is FW_ERR_BUSY; another form works. */
    ctx.calls = 0;
    HCASE(form, fw_form_check_batch(form, column, 1, 3, 0, valid, rules, NULL, &invalid), FW_OK);
    CHECK(ctx.calls == 3 && invalid == 2 && valid[1] == 1 && rules[0] == 0 && rules[2] == -1);
    CHECK(ctx.own_batch == FW_ERR_BUSY && ctx.own_message == FW_ERR_BUSY && ctx.own_rule == FW_ERR_BUSY);
    CHECK(ctx.other_batch == FW_OK && ctx.other_invalid == 1);
    /* And from an interactive call. */
    ctx.own_batch = ctx.own_message = ctx.own_rule = FW_ERR_INTERNAL;
    HCASE(form, fw_form_batch_message(form, column, 1, 3, 0, 0, NULL, 0, NULL), FW_OK);
    CHECK(ctx.own_batch == FW_ERR_BUSY && ctx.own_message == FW_ERR_BUSY && ctx.own_rule == FW_ERR_BUSY);
    CHECK_OK(fw_field_set_value(form, "r", "again"));
    CHECK(ctx.own_batch == FW_ERR_BUSY && ctx.own_message == FW_ERR_BUSY && ctx.own_rule == FW_ERR_BUSY);
    /* A validator that cannot decide fails the whole batch (FW_ERR_CALLBACK) and changes nothing. */
    HCASE(form, fw_form_check_batch(form, column, 2, 3, 0, valid, rules, NULL, &invalid), FW_ERR_CALLBACK);
    HCASE(form, fw_form_batch_message(form, column, 2, 3, 2, 1, NULL, 0, NULL), FW_ERR_CALLBACK);
    HCASE(form, fw_form_batch_message(form, column, 2, 3, 1, 1, NULL, 0, NULL), FW_OK);
    CHECK_OK(fw_form_free(form));
    CHECK_OK(fw_form_free(other));
}

/* ---- a validator calling the snapshot, index and rule-array functions on the form it is validating ---- */

typedef struct {
    fw_form *form;
    fw_form *stale;  /* a freed handle of the slot this form now occupies */
    fw_form *other;
    fw_status snapshot, snapshot_at, update, update_at, snapshots, index, limits, set_at, focus_at, add;
    fw_status stale_snapshot, other_update;
    /* The mode, group, external-error, removal, reset and tracking functions, from inside the
       form's own validator. */
    fw_status set_mode, field_mode, error_mode, add_group, validate_group, touch_group, valid_group, first_group;
    fw_status set_error, clear_error, clear_errors, remove, reset_values, info, changed, announce;
    char stale_detail[128];
} reentry_new;

static int32_t reentering_new(void *context, const char *value, size_t length, const char **out_message) {
    reentry_new *ctx = (reentry_new *)context;
    fw_snapshot snap, snaps[4];
    fw_rule rules[1];
    char buf[64];
    size_t n = 0;
    uint32_t limit;
    (void)value; (void)length; (void)out_message;
    blank_snapshot(&snap);
    blank_snapshot(&snaps[0]);
    rules[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    ctx->snapshot = fw_field_snapshot(ctx->form, "r", &snap, buf, sizeof buf);
    ctx->snapshot_at = fw_field_snapshot_at(ctx->form, 0, &snap, buf, sizeof buf);
    ctx->update = fw_field_update(ctx->form, "r", "inner", &snap, buf, sizeof buf);
    ctx->update_at = fw_field_update_at(ctx->form, 0, "inner", &snap, buf, sizeof buf);
    ctx->snapshots = fw_form_snapshots(ctx->form, snaps, 4, &n, buf, sizeof buf, NULL);
    ctx->index = fw_form_field_index(ctx->form, "r", &n);
    ctx->limits = fw_form_match_limits(ctx->form, &limit, &limit, &limit);
    ctx->set_at = fw_field_set_value_at(ctx->form, 0, "inner");
    ctx->focus_at = fw_field_focus_at(ctx->form, 0);
    ctx->add = fw_form_add_field_with_rules(ctx->form, "inner", NULL, NULL, rules, 1);
    {
        fw_form_info info;
        size_t indices[4];
        bool valid;
        const char *ids[1] = {"r"}, *values[1] = {"v"};
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        ctx->set_mode = fw_form_set_mode(ctx->form, FW_MODE_ON_BLUR);
        ctx->field_mode = fw_field_set_mode(ctx->form, "r", FW_MODE_ON_CHANGE);
        ctx->error_mode = fw_form_set_error_mode(ctx->form, FW_ERRORS_ALL);
        ctx->add_group = fw_field_add_group(ctx->form, "r", "g");
        ctx->validate_group = fw_form_validate_group(ctx->form, "g", &valid);
        ctx->touch_group = fw_form_touch_all_group(ctx->form, "g");
        ctx->valid_group = fw_form_is_valid_group(ctx->form, "g", &valid);
        ctx->first_group = fw_form_first_invalid_group(ctx->form, "g", buf, sizeof buf, NULL);
        ctx->set_error = fw_field_set_error(ctx->form, "r", "inner");
        ctx->clear_error = fw_field_clear_error(ctx->form, "r");
        ctx->clear_errors = fw_form_clear_errors(ctx->form);
        ctx->remove = fw_form_remove_field(ctx->form, "r");
        ctx->reset_values = fw_form_reset_values(ctx->form, ids, values, 1);
        ctx->info = fw_form_get_info(ctx->form, &info);
        ctx->changed = fw_form_changed_since(ctx->form, 0, indices, 4, &n);
        ctx->announce = fw_form_announcement(ctx->form, buf, sizeof buf, NULL);
    }
    ctx->stale_snapshot = fw_field_snapshot(ctx->stale, "r", &snap, buf, sizeof buf);
    fw_last_error_message(ctx->stale_detail, sizeof ctx->stale_detail, NULL);
    ctx->other_update = fw_field_update(ctx->other, "o", "from a validator", &snap, buf, sizeof buf);
    return FW_VERDICT_VALID;
}

static void reentrant_new_functions(void) {
    fw_form *stale = NULL, *form = NULL, *other = NULL;
    reentry_new ctx;
    fw_rule rules[1];
    fw_snapshot snap;
    char buf[64];
    size_t count = 0;
    CHECK_OK(fw_form_create(&stale));
    CHECK_OK(fw_form_free(stale));
    CHECK_OK(fw_form_create(&form)); /* takes the freed slot (with the next generation) */
    CHECK(((uintptr_t)(void *)form & 0xFFFFFF) == ((uintptr_t)(void *)stale & 0xFFFFFF) && form != stale);
    CHECK_OK(fw_form_create(&other));
    CHECK_OK(fw_form_add_field(other, "o", NULL, NULL));
    memset(&ctx, 0, sizeof ctx);
    ctx.form = form;
    ctx.stale = stale;
    ctx.other = other;
    rules[0] = test_rule(FW_RULE_CUSTOM, 0, NULL, NULL);
    rules[0].validate = reentering_new;
    rules[0].context = &ctx;
    /* Run on the initial value while the field is being added, then again on a new value. */
    CASE(fw_form_add_field_with_rules(form, "r", NULL, "start", rules, 1), FW_OK);
    CHECK(ctx.add == FW_ERR_BUSY);
    blank_snapshot(&snap);
    CASE(fw_field_update(form, "r", "outer", &snap, buf, sizeof buf), FW_OK);
    CHECK_STR(snap.value, "outer");
    CHECK(ctx.snapshot == FW_ERR_BUSY && ctx.snapshot_at == FW_ERR_BUSY);
    CHECK(ctx.update == FW_ERR_BUSY && ctx.update_at == FW_ERR_BUSY);
    CHECK(ctx.snapshots == FW_ERR_BUSY && ctx.index == FW_ERR_BUSY && ctx.limits == FW_ERR_BUSY);
    CHECK(ctx.set_at == FW_ERR_BUSY && ctx.focus_at == FW_ERR_BUSY && ctx.add == FW_ERR_BUSY);
    CHECK(ctx.other_update == FW_OK);
    CHECK(ctx.set_mode == FW_ERR_BUSY && ctx.field_mode == FW_ERR_BUSY && ctx.error_mode == FW_ERR_BUSY);
    CHECK(ctx.add_group == FW_ERR_BUSY && ctx.validate_group == FW_ERR_BUSY && ctx.touch_group == FW_ERR_BUSY);
    CHECK(ctx.valid_group == FW_ERR_BUSY && ctx.first_group == FW_ERR_BUSY);
    CHECK(ctx.set_error == FW_ERR_BUSY && ctx.clear_error == FW_ERR_BUSY && ctx.clear_errors == FW_ERR_BUSY);
    CHECK(ctx.remove == FW_ERR_BUSY && ctx.reset_values == FW_ERR_BUSY && ctx.info == FW_ERR_BUSY);
    CHECK(ctx.changed == FW_ERR_BUSY && ctx.announce == FW_ERR_BUSY);
    /* A freed handle is FW_ERR_INVALID_HANDLE everywhere, also inside a validator whose form took
       its slot: it names no form in use. */
    CHECK(ctx.stale_snapshot == FW_ERR_INVALID_HANDLE);
    if (ctx.stale_snapshot != FW_ERR_INVALID_HANDLE) {
        fprintf(stderr, "  a freed handle (%p) whose slot the validated form (%p) took, used inside its validator: "
                "%s (\"%s\")\n", (void *)stale, (void *)form, fw_status_string(ctx.stale_snapshot), ctx.stale_detail);
    }
    CHECK_OK(fw_form_field_count(form, &count));
    CHECK(count == 1);
    CHECK_OK(fw_field_value(other, "o", buf, sizeof buf, NULL));
    CHECK_STR(buf, "from a validator");
    CHECK_OK(fw_form_free(form));
    CHECK_OK(fw_form_free(other));
}

/* ---- messages: locales, catalogues, rule codes, single-value checks ---- */

/* fw_form_set_locale / fw_form_locale / fw_form_rule_code / fw_form_rule_params on `target` (fields "x"
   with four length rules, "huge" with [a-z]+, ...), and the functions that need no form
   (fw_locales, fw_message_catalog, fw_add_message_catalog, fw_check_value): NULLs, malformed UTF-8,
   unknown tags, malformed catalogues and rules, indexes and sizes out of range. Every refusal exact,
   none changing the form (the fingerprint holds its locale and every field's codes and parameters)
   or the process's catalogues. */
static void messages_functions(fw_form *target) {
    static const struct { const char *bytes; int64_t offset; } bad[] = {
        {"\x80", 0}, {"ok\xC0\xAF", 2}, {"\xED\xA0\x80", 0}, {"abc\xF4\x90\x80\x80", 3},
        {"\xE2\x82", 0}, {"x\xFE", 1}, {"caf\xC3", 3},
    };
    static const char *const unknown[] = {"xx", "", "-", "_", "fr-", "-fr", "fr--CA", "1fr", "f r", "fr-toolongsubtag",
                                          "zz-FR", "fr-CA-x-private-toolongsubtag", "\xC3\xA9n"};
    static const char *const malformed[] = {
        "", "{", "null", "[]", "\"de\"", "{\"locale\": \"de\"} x", "{\"locale\": \"de\",}",
        "{\"locale\": \"de\", \"failures\": {\"nope\": {}}}", "{\"locale\": \"de\", \"plurals\": \"few\"}",
        "{\"locale\": \"de\", \"plurals\": 1}", "{\"locale\": \"\"}", "{\"locale\": \"de-\"}", "{\"locale\": 7}",
        "{\"locale\": \"de\", \"units\": []}", "{\"locale\": \"de\", \"units\": {\"bytes\": 1}}",
        "{\"locale\": \"de\", \"failures\": []}", "{\"locale\": \"de\", \"failures\": {\"email\": {\"hint\": 3}}}",
        "{\"locale\": \"de\", \"announcement\": []}", "{\"locale\": \"de\", \"list_separator\": null}",
    };
    static const char *const bad_rules[] = {
        "", "[", "{", "null", "42", "\"required\"", "[42]", "[[]]", "{}", "{\"rule\": 1}", "{\"rule\": \"nope\"}",
        "{\"rule\": \"min_length\"}", "{\"rule\": \"min_length\", \"length\": -1}", "{\"rule\": \"min_length\", \"length\": 1.5}",
        "{\"rule\": \"required\", \"colour\": 1}", "{\"rule\": \"required\", \"message\": \"a\\u0000b\"}",
        "[{\"rule\": \"required\"}] x",
    };
    static const char *const refused_rules[] = {
        "{\"rule\": \"matches\", \"field\": \"x\"}", "{\"rule\": \"not_equal\", \"field\": \"x\"}",
        "{\"rule\": \"required_with\", \"field\": \"x\"}", "{\"rule\": \"required_without\", \"field\": \"x\"}",
        "{\"rule\": \"required_if\", \"field\": \"x\", \"value\": \"y\"}", "{\"rule\": \"custom\", \"name\": \"v\"}",
        "{\"rule\": \"async\", \"name\": \"available\"}", "[{\"rule\": \"required\"}, {\"rule\": \"async\", \"name\": \"a\"}]",
        "{\"rule\": \"set\", \"name\": \"x\"}",
    };
    static const size_t bad_sizes[] = {0, 1, 7, 8, sizeof(fw_check_result) - 8, sizeof(fw_check_result) - 1,
                                       (size_t)INT32_MAX + 8, (size_t)1 << 40, SIZE_MAX};
    union {
        fw_check_result result;
        unsigned char bytes[sizeof(fw_check_result) + 16];
    } memory;
    fw_check_result *verdict = &memory.result;
    char buf[128], locales[64], shipped[64];
    size_t fields = 0, n = 0, k, length = 0;
    const char *rules = "{\"rule\": \"min_length\", \"length\": 2}";

    CHECK_OK(fw_form_field_count(target, &fields));
    CHECK_OK(fw_locales(shipped, sizeof shipped, NULL));

    /* fw_form_set_locale: NULL, malformed UTF-8 (with the offset), tags no catalogue matches. */
    HCASE(target, fw_form_set_locale(target, NULL), FW_ERR_NULL_ARGUMENT);
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        HCASE_AT(target, fw_form_set_locale(target, bad[k].bytes), FW_ERR_INVALID_UTF8, bad[k].offset);
    }
    for (k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
        HCASE(target, fw_form_set_locale(target, unknown[k]), FW_ERR_INVALID_ARGUMENT);
    }
    {
        size_t size = 1u << 20;
        char *tag = malloc(size + 1);
        if (tag != NULL) {
            memset(tag, 'a', size);
            tag[size] = '\0';
            HCASE(target, fw_form_set_locale(target, tag), FW_ERR_INVALID_ARGUMENT); /* a 1 MB tag */
            memcpy(tag, "fr-", 3);
            HCASE(target, fw_form_set_locale(target, tag), FW_ERR_INVALID_ARGUMENT);
            tag[size - 1] = '\xC3';
            HCASE_AT(target, fw_form_set_locale(target, tag), FW_ERR_INVALID_UTF8, (int64_t)(size - 1));
            free(tag);
        }
    }
    /* Documented: strings are NUL-terminated, so "fr\0xx" names "fr". */
    CASE(fw_form_set_locale(target, "fr\0xx"), FW_OK);
    CHECK_OK(fw_form_locale(target, buf, sizeof buf, NULL));
    CHECK_STR(buf, "fr");
    CASE(fw_form_set_locale(target, "en"), FW_OK);

    /* fw_form_locale: NULL buffers with a size, too small, a size query. */
    HCASE(target, fw_form_locale(target, NULL, 1, &n), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_locale(target, NULL, SIZE_MAX, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_locale(target, NULL, 0, NULL), FW_OK);
    n = 0;
    HCASE(target, fw_form_locale(target, buf, 1, &n), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(n == 2 && buf[0] == '\0');

    /* fw_form_rule_code / fw_form_rule_params: indexes out of range, NULL buffers, too small. */
    {
        size_t field_indexes[] = {fields, fields + 1, (size_t)INT64_MAX, (size_t)INT64_MAX + 1, SIZE_MAX};
        size_t rule_indexes[] = {4, 5, (size_t)INT32_MAX + 1, (size_t)INT64_MAX + 1, SIZE_MAX};
        for (k = 0; k < 5; k++) {
            strcpy(buf, "stale");
            HCASE(target, fw_form_rule_code(target, field_indexes[k], 0, buf, sizeof buf, &n), FW_ERR_INVALID_ARGUMENT);
            CHECK_STR(buf, "");
            strcpy(buf, "stale");
            HCASE(target, fw_form_rule_params(target, field_indexes[k], 0, buf, sizeof buf, &n), FW_ERR_INVALID_ARGUMENT);
            CHECK_STR(buf, "");
            HCASE(target, fw_form_rule_code(target, 0, rule_indexes[k], buf, sizeof buf, &n), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_form_rule_params(target, 0, rule_indexes[k], NULL, 0, NULL), FW_ERR_INVALID_ARGUMENT);
            HCASE(target, fw_form_rule_code(target, 1, rule_indexes[k] - 3, buf, sizeof buf, &n), FW_ERR_INVALID_ARGUMENT);
        }
    }
    HCASE(target, fw_form_rule_code(target, 0, 0, NULL, 1, &n), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_rule_params(target, 0, 0, NULL, SIZE_MAX, &n), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_rule_code(target, 0, 0, NULL, 0, NULL), FW_OK);
    n = 0;
    HCASE(target, fw_form_rule_params(target, 1, 0, buf, 2, &n), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(n == strlen("{\"pattern\":\"[a-z]+\"}"));
    CHECK_STR(buf, "{");
    HCASE(target, fw_form_rule_code(target, 1, 0, buf, sizeof buf, &n), FW_OK);
    CHECK_STR(buf, "regex");

    /* fw_locales and fw_message_catalog: NULLs, malformed UTF-8, unknown tags; "" left behind. */
    HCASE(target, fw_locales(NULL, 1, &n), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_locales(NULL, SIZE_MAX, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_locales(NULL, 0, NULL), FW_OK);
    HCASE(target, fw_message_catalog(NULL, buf, sizeof buf, &n), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_message_catalog("en", NULL, 1, &n), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_message_catalog("en", NULL, SIZE_MAX, &n), FW_ERR_NULL_ARGUMENT);
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        strcpy(buf, "stale");
        HCASE_AT(target, fw_message_catalog(bad[k].bytes, buf, sizeof buf, &n), FW_ERR_INVALID_UTF8, bad[k].offset);
        CHECK_STR(buf, "");
    }
    for (k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
        strcpy(buf, "stale");
        HCASE(target, fw_message_catalog(unknown[k], buf, sizeof buf, &n), FW_ERR_INVALID_ARGUMENT);
        CHECK_STR(buf, "");
    }
    length = 0;
    HCASE(target, fw_message_catalog("fr", buf, sizeof buf, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(length > sizeof buf && strlen(buf) < sizeof buf);

    /* fw_add_message_catalog: NULL, malformed UTF-8 (raw, and inside a JSON string), malformed
       catalogues, nesting deeper than the parser takes; nothing registered. */
    HCASE(target, fw_add_message_catalog(NULL), FW_ERR_NULL_ARGUMENT);
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        HCASE_AT(target, fw_add_message_catalog(bad[k].bytes), FW_ERR_INVALID_UTF8, bad[k].offset);
    }
    HCASE_AT(target, fw_add_message_catalog("{\"locale\": \"de\", \"language\": \"Deutsch\xFF\"}"), FW_ERR_INVALID_UTF8, 37);
    HCASE_AT(target, fw_add_message_catalog("{\"locale\": \"d\xC3\"}"), FW_ERR_INVALID_UTF8, 13);
    for (k = 0; k < sizeof malformed / sizeof malformed[0]; k++) {
        HCASE(target, fw_add_message_catalog(malformed[k]), FW_ERR_INVALID_SPEC);
    }
    {
        size_t depth = 100000, i;
        char *deep = malloc(2 * depth + 1);
        if (deep != NULL) {
            for (i = 0; i < depth; i++) {
                deep[i] = '[';
                deep[depth + i] = ']';
            }
            deep[2 * depth] = '\0';
            HCASE(target, fw_add_message_catalog(deep), FW_ERR_INVALID_SPEC);
            memory.result.size = sizeof(fw_check_result);
            HCASE(target, fw_check_value(deep, "a", NULL, verdict, buf, sizeof buf), FW_ERR_INVALID_SPEC);
            for (i = 0; i < depth; i++) deep[i] = '{';
            HCASE(target, fw_add_message_catalog(deep), FW_ERR_INVALID_SPEC);
            free(deep);
        }
    }
    CHECK_OK(fw_locales(locales, sizeof locales, NULL));
    CHECK_STR(locales, shipped); /* no refused catalogue was registered */

    /* fw_check_value: NULLs, struct sizes and alignment, malformed UTF-8 in each string, malformed
       rules, rules that need a form, unknown locales. */
    memset(&memory, 0x5A, sizeof memory);
    verdict->size = sizeof *verdict;
    HCASE(target, fw_check_value(NULL, "a", NULL, verdict, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_check_value(rules, NULL, NULL, verdict, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_check_value(rules, "a", NULL, NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_check_value(rules, "a", NULL, verdict, NULL, 1), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_check_value(rules, "a", NULL, verdict, NULL, SIZE_MAX), FW_ERR_NULL_ARGUMENT);
    for (k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++) {
        memset(&memory, 0x5A, sizeof memory);
        verdict->size = bad_sizes[k];
        HCASE(target, fw_check_value(rules, "a", NULL, verdict, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
        CHECK(all_bytes(memory.bytes + sizeof(size_t), sizeof memory - sizeof(size_t), 0x5A));
    }
    memset(&memory, 0x5A, sizeof memory);
    *(size_t *)(void *)(memory.bytes + 8) = sizeof(fw_check_result);
    HCASE(target, fw_check_value(rules, "a", NULL, (fw_check_result *)(void *)(memory.bytes + 4), buf, sizeof buf),
          FW_ERR_INVALID_ARGUMENT);
    memset(&memory, 0x5A, sizeof memory);
    verdict->size = sizeof *verdict;
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        HCASE_AT(target, fw_check_value(bad[k].bytes, "a", NULL, verdict, buf, sizeof buf), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_check_value(rules, bad[k].bytes, NULL, verdict, buf, sizeof buf), FW_ERR_INVALID_UTF8,
                 bad[k].offset);
        HCASE_AT(target, fw_check_value(rules, "a", bad[k].bytes, verdict, buf, sizeof buf), FW_ERR_INVALID_UTF8,
                 bad[k].offset);
    }
    for (k = 0; k < sizeof bad_rules / sizeof bad_rules[0]; k++) {
        HCASE(target, fw_check_value(bad_rules[k], "a", NULL, verdict, buf, sizeof buf), FW_ERR_INVALID_SPEC);
    }
    HCASE(target, fw_check_value("{\"rule\": \"regex\", \"pattern\": \"a{2,1}\"}", "a", NULL, verdict, buf, sizeof buf),
          FW_ERR_INVALID_PATTERN);
    for (k = 0; k < sizeof refused_rules / sizeof refused_rules[0]; k++) {
        HCASE(target, fw_check_value(refused_rules[k], "a", NULL, verdict, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
    }
    for (k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
        HCASE(target, fw_check_value(rules, "a", unknown[k], verdict, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
    }
    /* A 10 MB value: judged, its length counted, nothing of it in the verdict's texts. */
    {
        size_t size = 10u << 20;
        char *big = malloc(size + 1);
        if (big != NULL) {
            memset(big, 'a', size);
            big[size] = '\0';
            memset(&memory, 0x5A, sizeof memory);
            verdict->size = sizeof *verdict;
            HCASE(target, fw_check_value("{\"rule\": \"max_length\", \"length\": 5}", big, NULL, verdict, buf, sizeof buf),
                  FW_OK);
            CHECK(verdict->validity == FW_VALIDITY_INVALID && verdict->text_size < 100);
            CHECK_STR(verdict->code, "max_length");
            big[size - 1] = '\xC3';
            HCASE_AT(target, fw_check_value(rules, big, NULL, verdict, buf, sizeof buf), FW_ERR_INVALID_UTF8,
                     (int64_t)(size - 1));
            free(big);
        }
    }
    CHECK_OK(fw_locales(locales, sizeof locales, NULL));
    CHECK_STR(locales, shipped);
    CHECK_OK(fw_field_value(target, "x", buf, sizeof buf, NULL));
    CHECK_STR(buf, "kept");
}

/* ---- asynchronous rules: garbage, NULLs, closed ids, bad sizes; the form unchanged by every refusal ---- */

/* `target` has fields "x" (value "kept") and "huge"; adds "nick" with an async rule. */
static void async_functions(fw_form *target) {
    static const struct { const char *bytes; int64_t offset; } bad[] = {
        {"\x80", 0}, {"ok\xC0\xAF", 2}, {"\xED\xA0\x80", 0}, {"abc\xF4\x90\x80\x80", 3},
        {"\xE2\x82", 0}, {"x\xFE", 1}, {"caf\xC3", 3},
    };
    static const size_t bad_sizes[] = {0, 1, 7, 8, sizeof(fw_request) - 8, sizeof(fw_request) - 1,
                                       sizeof(fw_request) + 1, sizeof(fw_request) + 4, SIZE_MAX};
    static const int32_t bad_verdicts[] = {-1, 3, 100, INT32_MIN, INT32_MAX};
    static const uint64_t unknown_ids[] = {0, 999, (uint64_t)INT64_MAX + 1, UINT64_MAX};
    union {
        fw_request request;
        unsigned char bytes[sizeof(fw_request) + 16];
    } memory;
    fw_request *request = &memory.request;
    char texts[128];
    uint64_t due = 0, scheduled_id = 0;
    int32_t outcome = 7;
    bool found = false, stale = false, flag = false;
    size_t k;

    CHECK_OK(fw_form_add_field(target, "nick", NULL, NULL));
    CHECK_OK(fw_field_add_min_length(target, "nick", 2, NULL));
    CHECK_OK(fw_field_add_async_rule(target, "nick", "nick_free", 100, NULL));
    CHECK_OK(fw_form_tick(target, 5000));

    /* NULL arguments. */
    HCASE(target, fw_field_add_async_rule(target, NULL, "n", 0, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_field_add_async_rule(target, "nick", NULL, 0, NULL), FW_ERR_NULL_ARGUMENT);
    memset(&memory, 0x5A, sizeof memory);
    request->size = sizeof *request;
    HCASE(target, fw_form_next_request(target, 5000, NULL, texts, sizeof texts, &found), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_next_request(target, 5000, request, texts, sizeof texts, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_next_request(target, 5000, request, NULL, 1, &found), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_next_request(target, 5000, request, NULL, SIZE_MAX, &found), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_submit(target, NULL, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_next_due_time(target, NULL, &flag), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_next_due_time(target, &due, NULL), FW_ERR_NULL_ARGUMENT);
    HCASE(target, fw_form_next_due_time(NULL, &due, &flag), FW_ERR_INVALID_HANDLE);

    /* Garbage strings, names and fields. */
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        HCASE_AT(target, fw_field_add_async_rule(target, bad[k].bytes, "n", 0, NULL), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_field_add_async_rule(target, "nick", bad[k].bytes, 0, NULL), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_field_add_async_rule(target, "nick", "n", 0, bad[k].bytes), FW_ERR_INVALID_UTF8, bad[k].offset);
        HCASE_AT(target, fw_form_submit(target, bad[k].bytes, &outcome), FW_ERR_INVALID_UTF8, bad[k].offset);
    }
    HCASE(target, fw_field_add_async_rule(target, "nick", "", 0, NULL), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_field_add_async_rule(target, "nobody", "n", 0, NULL), FW_ERR_UNKNOWN_FIELD);
    HCASE(target, fw_form_submit(target, "no such group", &outcome), FW_ERR_INVALID_ARGUMENT);
    HCASE(target, fw_form_submit(target, "", &outcome), FW_ERR_INVALID_ARGUMENT);
    CHECK(outcome == 7);

    /* Bad fw_request sizes and alignment: refused before anything is handed out or ticked. */
    CHECK_OK(fw_field_set_value(target, "nick", "zed"));  /* request due at 5100 */
    for (k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++) {
        memset(&memory, 0x5A, sizeof memory);
        request->size = bad_sizes[k];
        HCASE(target, fw_form_next_request(target, 9000, request, texts, sizeof texts, &found), FW_ERR_INVALID_ARGUMENT);
        CHECK(all_bytes(memory.bytes + sizeof(size_t), sizeof memory - sizeof(size_t), 0x5A));
    }
    memset(&memory, 0x5A, sizeof memory);
    *(size_t *)(void *)(memory.bytes + 8) = sizeof(fw_request);
    HCASE(target, fw_form_next_request(target, 9000, (fw_request *)(void *)(memory.bytes + 4), texts, sizeof texts, &found),
          FW_ERR_INVALID_ARGUMENT);

    /* Too small a buffer: nothing handed out, the clock not moved (the fingerprint has both). */
    memset(&memory, 0x5A, sizeof memory);
    request->size = sizeof *request;
    HCASE(target, fw_form_next_request(target, 9000, request, texts, 5, &found), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(found && request->text_size == sizeof "nick" + sizeof "zed" + sizeof "nick_free");
    CHECK(request->field_id == NULL && request->value == NULL && request->rule == NULL);
    scheduled_id = request->id;
    /* A later version's size: its own members untouched. */
    memset(&memory, 0x5A, sizeof memory);
    request->size = sizeof *request + 8;
    HCASE(target, fw_form_next_request(target, 9000, request, NULL, 0, &found), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(all_bytes(memory.bytes + sizeof(fw_request), 8, 0x5A) && request->size == sizeof(fw_request) + 8);

    /* Resolving garbage: unknown ids, bad verdicts, a request not handed out, a bad message. */
    for (k = 0; k < sizeof unknown_ids / sizeof unknown_ids[0]; k++) {
        HCASE(target, fw_form_resolve(target, unknown_ids[k], FW_ASYNC_VALID, NULL, &stale), FW_ERR_UNKNOWN_REQUEST);
        HCASE(target, fw_form_resolve(target, unknown_ids[k], FW_ASYNC_INVALID, "m", NULL), FW_ERR_UNKNOWN_REQUEST);
    }
    for (k = 0; k < sizeof bad_verdicts / sizeof bad_verdicts[0]; k++) {
        HCASE(target, fw_form_resolve(target, scheduled_id, bad_verdicts[k], NULL, &stale), FW_ERR_INVALID_ARGUMENT);
    }
    HCASE(target, fw_form_resolve(target, scheduled_id, FW_ASYNC_VALID, NULL, &stale), FW_ERR_INVALID_ARGUMENT);
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        HCASE_AT(target, fw_form_resolve(target, scheduled_id, FW_ASYNC_INVALID, bad[k].bytes, NULL), FW_ERR_INVALID_UTF8,
                 bad[k].offset);
        HCASE_AT(target, fw_form_resolve(target, scheduled_id, FW_ASYNC_ERROR, bad[k].bytes, NULL), FW_ERR_INVALID_UTF8,
                 bad[k].offset);
    }

    /* Taken, then resolved with garbage first; then for real; then closed. */
    memset(&memory, 0x5A, sizeof memory);
    request->size = sizeof *request;
    CHECK_OK(fw_form_next_request(target, 9000, request, texts, sizeof texts, &found));
    CHECK(found && request->id == scheduled_id);
    CHECK_STR(request->value, "zed");
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        HCASE(target, fw_form_resolve(target, scheduled_id, FW_ASYNC_INVALID, bad[k].bytes, NULL), FW_ERR_INVALID_UTF8);
    }
    /* With a valid verdict the message is not read, garbage or not. */
    CASE(fw_form_resolve(target, scheduled_id, FW_ASYNC_VALID, "\xFF", &stale), FW_OK);
    CHECK(!stale);
    HCASE(target, fw_form_resolve(target, scheduled_id, FW_ASYNC_VALID, NULL, &stale), FW_ERR_REQUEST_CLOSED);
    HCASE(target, fw_form_resolve(target, scheduled_id, FW_ASYNC_INVALID, "late", &stale), FW_ERR_REQUEST_CLOSED);
    CHECK_OK(fw_form_remove_field(target, "nick"));
}

/* ---- resolving after fw_form_free ---- */

static void resolve_after_free(void) {
    fw_form *form = NULL, *next = NULL;
    fw_request request;
    char texts[128];
    bool found = false, stale = true;
    int32_t outcome = 7;
    uint64_t due = 7;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "user", NULL, NULL));
    CHECK_OK(fw_field_add_async_rule(form, "user", "available", 0, NULL));
    CHECK_OK(fw_field_set_value(form, "user", "ada"));
    memset(&request, 0, sizeof request);
    request.size = sizeof request;
    CHECK_OK(fw_form_next_request(form, 0, &request, texts, sizeof texts, &found));
    CHECK(found && request.id == 1);
    CHECK_OK(fw_field_set_value(form, "user", "adam")); /* request 2, scheduled */
    CHECK_OK(fw_form_free(form));
    CASE(fw_form_resolve(form, 1, FW_ASYNC_VALID, NULL, &stale), FW_ERR_INVALID_HANDLE);
    CASE(fw_form_resolve(form, 2, FW_ASYNC_INVALID, "late", NULL), FW_ERR_INVALID_HANDLE);
    CASE(fw_form_next_request(form, 10, &request, texts, sizeof texts, &found), FW_ERR_INVALID_HANDLE);
    CHECK(!found);
    CASE(fw_form_submit(form, NULL, &outcome), FW_ERR_INVALID_HANDLE);
    CASE(fw_form_next_due_time(form, &due, &found), FW_ERR_INVALID_HANDLE);
    CASE(fw_form_tick(form, 10), FW_ERR_INVALID_HANDLE);
    /* A new form in the freed slot: the old handle's ids never reach it. */
    CHECK_OK(fw_form_create(&next));
    CHECK_OK(fw_form_add_field(next, "user", NULL, NULL));
    CHECK_OK(fw_field_add_async_rule(next, "user", "available", 0, NULL));
    CHECK_OK(fw_field_set_value(next, "user", "grace"));
    CHECK_OK(fw_form_next_request(next, 0, &request, texts, sizeof texts, &found));
    CHECK(found && request.id == 1);
    CASE(fw_form_resolve(form, 1, FW_ASYNC_INVALID, "from the old handle", NULL), FW_ERR_INVALID_HANDLE);
    CHECK_OK(fw_form_resolve(next, 1, FW_ASYNC_VALID, NULL, &stale));
    CHECK(!stale);
    CHECK_OK(fw_form_free(next));
}

/* ---- the asynchronous functions from inside a custom validator of the same form ---- */

typedef struct {
    fw_form *form;
    uint64_t id;       /* a request of the form, handed out before */
    fw_status resolve, next, tick, submit, due, add, other_resolve;
    fw_form *other;
    uint64_t other_id;
} reentry_async;

static int32_t reentering_async(void *context, const char *value, size_t length, const char **out_message) {
    reentry_async *ctx = (reentry_async *)context;
    fw_request request;
    char texts[64];
    bool found = false, stale = false;
    int32_t outcome;
    uint64_t due;
    (void)value; (void)length; (void)out_message;
    if (strcmp(value, "go") != 0) return FW_VERDICT_VALID;
    memset(&request, 0, sizeof request);
    request.size = sizeof request;
    ctx->resolve = fw_form_resolve(ctx->form, ctx->id, FW_ASYNC_VALID, NULL, &stale);
    ctx->next = fw_form_next_request(ctx->form, 100, &request, texts, sizeof texts, &found);
    ctx->tick = fw_form_tick(ctx->form, 100);
    ctx->submit = fw_form_submit(ctx->form, NULL, &outcome);
    ctx->due = fw_form_next_due_time(ctx->form, &due, &found);
    ctx->add = fw_field_add_async_rule(ctx->form, "v", "more", 0, NULL);
    /* Another form, idle: a validator may resolve its requests. */
    ctx->other_resolve = fw_form_resolve(ctx->other, ctx->other_id, FW_ASYNC_VALID, NULL, &stale);
    return FW_VERDICT_VALID;
}

static void reentrant_async(void) {
    fw_form *form = NULL, *other = NULL;
    reentry_async ctx;
    fw_request request;
    char texts[64];
    bool found = false;
    fw_validity validity;
    memset(&ctx, 0, sizeof ctx);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_create(&other));
    CHECK_OK(fw_form_add_field(other, "o", NULL, NULL));
    CHECK_OK(fw_field_add_async_rule(other, "o", "check", 0, NULL));
    CHECK_OK(fw_field_set_value(other, "o", "value"));
    memset(&request, 0, sizeof request);
    request.size = sizeof request;
    CHECK_OK(fw_form_next_request(other, 0, &request, texts, sizeof texts, &found));
    ctx.other = other;
    ctx.other_id = request.id;
    ctx.form = form;
    CHECK_OK(fw_form_add_field(form, "a", NULL, NULL));
    CHECK_OK(fw_field_add_async_rule(form, "a", "check", 0, NULL));
    CHECK_OK(fw_field_set_value(form, "a", "pending"));
    CHECK_OK(fw_form_next_request(form, 0, &request, texts, sizeof texts, &found));
    CHECK(found);
    ctx.id = request.id;
    CHECK_OK(fw_form_add_field(form, "v", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "v", reentering_async, &ctx, NULL, NULL));
    ctx.resolve = ctx.next = ctx.tick = ctx.submit = ctx.due = ctx.add = ctx.other_resolve = FW_ERR_INTERNAL;
    CASE(fw_field_set_value(form, "v", "go"), FW_OK);
    CHECK(ctx.resolve == FW_ERR_BUSY && ctx.next == FW_ERR_BUSY && ctx.tick == FW_ERR_BUSY);
    CHECK(ctx.submit == FW_ERR_BUSY && ctx.due == FW_ERR_BUSY && ctx.add == FW_ERR_BUSY);
    CHECK(ctx.other_resolve == FW_OK);
    /* The refused resolve left the request open: it resolves now. */
    CHECK_OK(fw_field_validity(form, "a", &validity));
    CHECK(validity == FW_VALIDITY_PENDING);
    CASE(fw_form_resolve(form, ctx.id, FW_ASYNC_VALID, NULL, NULL), FW_OK);
    CHECK_OK(fw_field_validity(form, "a", &validity));
    CHECK(validity == FW_VALIDITY_VALID);
    CHECK_OK(fw_field_validity(other, "o", &validity));
    CHECK(validity == FW_VALIDITY_VALID);
    CHECK_OK(fw_form_free(form));
    CHECK_OK(fw_form_free(other));
}

/* ---- the message functions from inside a custom validator; a validator failing a locale change ---- */

typedef struct {
    fw_form *form, *other;
    fw_status set_locale, locale, rule_code, rule_params, other_locale, check, locales, catalog, add;
    char message[64];
    int fail; /* answer FW_VERDICT_ERROR */
    int calls;
} reentry_messages;

static int32_t reentering_messages(void *context, const char *value, size_t length, const char **out_message) {
    reentry_messages *ctx = (reentry_messages *)context;
    fw_check_result verdict;
    char buf[64], texts[128];
    size_t n = 0;
    (void)length; (void)out_message;
    ctx->calls++;
    if (ctx->fail) return FW_VERDICT_ERROR;
    if (strcmp(value, "go") != 0) return FW_VERDICT_VALID;
    ctx->set_locale = fw_form_set_locale(ctx->form, "fr");
    ctx->locale = fw_form_locale(ctx->form, buf, sizeof buf, &n);
    ctx->rule_code = fw_form_rule_code(ctx->form, 0, 0, buf, sizeof buf, &n);
    ctx->rule_params = fw_form_rule_params(ctx->form, 0, 0, buf, sizeof buf, &n);
    /* Another form, and the functions that need no form, work. */
    ctx->other_locale = fw_form_set_locale(ctx->other, "fr");
    memset(&verdict, 0, sizeof verdict);
    verdict.size = sizeof verdict;
    ctx->check = fw_check_value("{\"rule\": \"required\"}", "", "fr", &verdict, texts, sizeof texts);
    if (ctx->check == FW_OK) snprintf(ctx->message, sizeof ctx->message, "%s", verdict.message);
    ctx->locales = fw_locales(buf, sizeof buf, &n);
    ctx->catalog = fw_message_catalog("fr", NULL, 0, &n);
    ctx->add = fw_add_message_catalog("{\"locale\": \"qr\", \"failures\": {\"required\": {\"message\": \"R\"}}}");
    return FW_VERDICT_VALID;
}

static void reentrant_messages(void) {
    fw_form *form = NULL, *other = NULL;
    reentry_messages ctx;
    char buf[64];
    memset(&ctx, 0, sizeof ctx);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_create(&other));
    CHECK_OK(fw_form_add_field(other, "o", NULL, NULL));
    ctx.form = form;
    ctx.other = other;
    CHECK_OK(fw_form_add_field(form, "v", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "v", reentering_messages, &ctx, NULL, NULL));
    CHECK_OK(fw_form_add_field(form, "w", NULL, NULL));
    CHECK_OK(fw_field_add_min_length(form, "w", 3, NULL));
    CHECK_OK(fw_field_set_value(form, "w", "ab"));
    ctx.set_locale = ctx.locale = ctx.rule_code = ctx.rule_params = FW_ERR_INTERNAL;
    CASE(fw_field_set_value(form, "v", "go"), FW_OK);
    CHECK(ctx.set_locale == FW_ERR_BUSY && ctx.locale == FW_ERR_BUSY);
    CHECK(ctx.rule_code == FW_ERR_BUSY && ctx.rule_params == FW_ERR_BUSY);
    CHECK(ctx.other_locale == FW_OK && ctx.check == FW_OK && ctx.locales == FW_OK && ctx.catalog == FW_OK);
    CHECK(ctx.add == FW_OK);
    CHECK_STR(ctx.message, "Ce champ est obligatoire");
    CHECK_OK(fw_form_locale(form, buf, sizeof buf, NULL));
    CHECK_STR(buf, "en"); /* the refused change did not happen */
    CHECK_OK(fw_form_locale(other, buf, sizeof buf, NULL));
    CHECK_STR(buf, "fr");
    /* A locale change judges every field again: a validator that fails makes it FW_ERR_CALLBACK, and
       nothing changes (still English). */
    ctx.fail = 1;
    ctx.calls = 0;
    HCASE(form, fw_form_set_locale(form, "fr"), FW_ERR_CALLBACK);
    CHECK(ctx.calls > 0);
    ctx.fail = 0;
    CHECK_OK(fw_field_message(form, "w", buf, sizeof buf, NULL));
    CHECK_STR(buf, "Must be at least 3 characters");
    CASE(fw_form_set_locale(form, "fr"), FW_OK);
    CHECK_OK(fw_field_message(form, "w", buf, sizeof buf, NULL));
    CHECK_STR(buf, "Au moins 3 caract\xc3\xa8res");
    CHECK_OK(fw_form_free(form));
    CHECK_OK(fw_form_free(other));
}

/* ---- catalogues replaced while other threads check values and switch forms to them ---- */

typedef struct {
    int adder;
    long unexpected;
} catalogue_job;

#define CATALOGUE_A "{\"locale\": \"qt\", \"failures\": {\"required\": {\"message\": \"Version A\"}}}"
#define CATALOGUE_B "{\"locale\": \"qt\", \"failures\": {\"required\": {\"message\": \"Version B\"}}}"

static void *catalogue_loop(void *argument) {
    catalogue_job *job = (catalogue_job *)argument;
    fw_form *form = NULL;
    int i;
    if (!job->adder) {
        if (fw_form_create(&form) != FW_OK || fw_form_add_field(form, "r", NULL, NULL) != FW_OK
            || fw_field_add_required(form, "r", NULL) != FW_OK || fw_field_touch(form, "r") != FW_OK) {
            job->unexpected++;
            fw_form_free(form);
            return NULL;
        }
    }
    for (i = 0; i < 200; i++) {
        if (job->adder) {
            if (fw_add_message_catalog(i % 2 ? CATALOGUE_A : CATALOGUE_B) != FW_OK) job->unexpected++;
        } else {
            fw_check_result verdict;
            char texts[128], message[64];
            memset(&verdict, 0, sizeof verdict);
            verdict.size = sizeof verdict;
            if (fw_check_value("{\"rule\": \"required\"}", "", "qt", &verdict, texts, sizeof texts) != FW_OK
                || (strcmp(verdict.message, "Version A") != 0 && strcmp(verdict.message, "Version B") != 0)) {
                job->unexpected++;
            }
            if (fw_form_set_locale(form, i % 3 ? "qt" : "en") != FW_OK
                || fw_field_message(form, "r", message, sizeof message, NULL) != FW_OK
                || (strcmp(message, "Version A") != 0 && strcmp(message, "Version B") != 0
                    && strcmp(message, "This field is required") != 0)) {
                job->unexpected++;
            }
        }
    }
    if (form != NULL && fw_form_free(form) != FW_OK) job->unexpected++;
    return NULL;
}

static void threaded_catalogues(void) {
    catalogue_job jobs[4];
    pthread_t threads[4];
    char buf[64];
    int t;
    CHECK_OK(fw_add_message_catalog(CATALOGUE_A));
    for (t = 0; t < 4; t++) {
        jobs[t].adder = t < 2;
        jobs[t].unexpected = 0;
        CHECK(pthread_create(&threads[t], NULL, catalogue_loop, &jobs[t]) == 0);
    }
    for (t = 0; t < 4; t++) CHECK(pthread_join(threads[t], NULL) == 0);
    for (t = 0; t < 4; t++) CHECK(jobs[t].unexpected == 0);
    CHECK_OK(fw_locales(buf, sizeof buf, NULL));
    CHECK_STR(buf, "[\"en\",\"fr\",\"qr\",\"qt\"]"); /* replaced, never listed twice */
}

/* ---- a host that never resolves: the form stays usable ---- */

static void never_resolved(void) {
    fw_form *form = NULL;
    fw_request request;
    char texts[128], value[32];
    bool found = false, valid = true, stale = false;
    int32_t outcome = -1;
    fw_validity validity;
    uint64_t first = 0, i;
    fw_form_info info;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "user", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "user", NULL));
    CHECK_OK(fw_field_add_async_rule(form, "user", "available", 0, NULL));
    CHECK_OK(fw_form_add_field(form, "email", NULL, NULL));
    CHECK_OK(fw_field_add_email(form, "email", NULL));
    /* 2,000 values, each request taken and never answered. */
    for (i = 0; i < 2000; i++) {
        snprintf(value, sizeof value, "user%llu", (unsigned long long)i);
        CHECK_OK(fw_field_set_value(form, "user", value));
        memset(&request, 0, sizeof request);
        request.size = sizeof request;
        CHECK_OK(fw_form_next_request(form, i, &request, texts, sizeof texts, &found));
        CHECK(found && request.id == i + 1);
        if (i == 0) first = request.id;
    }
    /* Everything else still works. */
    CHECK_OK(fw_field_set_value(form, "email", "ada@example.com"));
    CHECK_OK(fw_field_validity(form, "email", &validity));
    CHECK(validity == FW_VALIDITY_VALID);
    CHECK_OK(fw_field_validity(form, "user", &validity));
    CHECK(validity == FW_VALIDITY_PENDING);
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid);
    CHECK_OK(fw_form_submit(form, NULL, &outcome));
    CHECK(outcome == FW_SUBMIT_PENDING);
    /* Only the last 1,024 stale ids are remembered: older ones are closed, recent ones stale. */
    CASE(fw_form_resolve(form, first, FW_ASYNC_VALID, NULL, &stale), FW_ERR_REQUEST_CLOSED);
    CASE(fw_form_resolve(form, 1990, FW_ASYNC_VALID, NULL, &stale), FW_OK);
    CHECK(stale);
    CASE(fw_form_resolve(form, 1990, FW_ASYNC_VALID, NULL, &stale), FW_ERR_REQUEST_CLOSED);
    /* Reset cancels the last one; the form goes on. */
    CHECK_OK(fw_form_reset(form));
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(fw_form_get_info(form, &info));
    CHECK(info.pending_count == 0 && info.stale_results == 1 && info.now_ms == 1999);
    CHECK_OK(fw_field_set_value(form, "user", "grace"));
    CHECK_OK(fw_form_next_request(form, 2000, &request, texts, sizeof texts, &found));
    CHECK(found && request.id == 2001);
    CHECK_OK(fw_form_resolve(form, 2000, FW_ASYNC_VALID, NULL, &stale)); /* cancelled by the reset */
    CHECK(stale);
    /* Freed with a request still out. */
    CHECK_OK(fw_form_free(form));
}

/* ---- resolving from several threads while another types ---- */

typedef struct {
    fw_form *form;
    pthread_mutex_t *lock;
    uint64_t *ids;          /* handed-out ids, shared with the typing thread */
    size_t *count;
    volatile int *done;
    long applied, stale, closed, other;
} resolver_job;

static void *resolve_loop(void *argument) {
    resolver_job *job = (resolver_job *)argument;
    for (;;) {
        uint64_t id = 0;
        int finished;
        bool stale = false;
        fw_status status;
        pthread_mutex_lock(job->lock);
        finished = *job->done;
        if (*job->count > 0) id = job->ids[--*job->count];
        pthread_mutex_unlock(job->lock);
        if (id == 0) {
            struct timespec pause = {0, 20 * 1000};
            if (finished) break;
            nanosleep(&pause, NULL);
            continue;
        }
        status = fw_form_resolve(job->form, id, id % 3 == 0 ? FW_ASYNC_INVALID : FW_ASYNC_VALID, "taken", &stale);
        if (status == FW_OK && stale) job->stale++;
        else if (status == FW_OK) job->applied++;
        else if (status == FW_ERR_REQUEST_CLOSED) job->closed++;
        else job->other++;
    }
    return NULL;
}

static void threaded_resolves(void) {
    fw_form *form = NULL;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    uint64_t ids[256];
    size_t count = 0, handed = 0;
    volatile int done = 0;
    resolver_job jobs[3];
    pthread_t threads[3];
    fw_form_info info;
    long applied = 0, stale = 0;
    int i, t;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "user", NULL, NULL));
    CHECK_OK(fw_field_add_async_rule(form, "user", "available", 0, NULL));
    for (t = 0; t < 3; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].form = form;
        jobs[t].lock = &lock;
        jobs[t].ids = ids;
        jobs[t].count = &count;
        jobs[t].done = &done;
        CHECK(pthread_create(&threads[t], NULL, resolve_loop, &jobs[t]) == 0);
    }
    /* This thread types and hands requests to the resolvers. */
    for (i = 0; i < 3000; i++) {
        char value[32], texts[128];
        fw_request request;
        bool found = false;
        snprintf(value, sizeof value, "name%d", i % 7 == 0 ? 0 : i);
        CHECK_OK(fw_field_set_value(form, "user", value));
        memset(&request, 0, sizeof request);
        request.size = sizeof request;
        CHECK_OK(fw_form_next_request(form, (uint64_t)i, &request, texts, sizeof texts, &found));
        if (found) {
            handed++;
            /* At most 256 waiting (far below the 1,024 stale ids a form remembers), also when the
               resolvers are slow to run (valgrind runs one thread at a time). */
            for (;;) {
                struct timespec pause = {0, 20 * 1000};
                bool queued = false;
                pthread_mutex_lock(&lock);
                if (count < 256) {
                    ids[count++] = request.id;
                    queued = true;
                }
                pthread_mutex_unlock(&lock);
                if (queued) break;
                nanosleep(&pause, NULL);
            }
        }
    }
    pthread_mutex_lock(&lock);
    done = 1;
    pthread_mutex_unlock(&lock);
    for (t = 0; t < 3; t++) CHECK(pthread_join(threads[t], NULL) == 0);
    for (t = 0; t < 3; t++) {
        CHECK(jobs[t].other == 0 && jobs[t].closed == 0); /* every id handed out once, resolved once */
        applied += jobs[t].applied;
        stale += jobs[t].stale;
    }
    CHECK((size_t)(applied + stale) == handed);
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(fw_form_get_info(form, &info));
    CHECK(info.stale_results == (size_t)stale && info.pending_count <= 1);
    CHECK_OK(fw_form_free(form));
}

/* ---- freeing a form while other threads read it, then reusing its slot ---- */

typedef struct {
    fw_form *form;
    long ok, invalid, other, newer;
} snapshot_reader;

static void *read_until_freed(void *argument) {
    snapshot_reader *job = (snapshot_reader *)argument;
    char buf[128];
    long reads;
    for (reads = 1;; reads++) {
        fw_snapshot snap;
        fw_status status;
        if (reads % 16 == 0) {
            /* A short pause now and then: a mutex does not queue its waiters, and two readers taking
               turns could otherwise keep the freeing thread waiting (for ever under valgrind, which
               runs one thread at a time). */
            struct timespec pause = {0, 50 * 1000};
            nanosleep(&pause, NULL);
        }
        blank_snapshot(&snap);
        status = fw_field_snapshot(job->form, "f", &snap, buf, sizeof buf);
        if (status == FW_OK) {
            job->ok++;
            if (strcmp(snap.value, "old") != 0) job->newer++; /* never the next form's field */
        } else if (status == FW_ERR_INVALID_HANDLE) {
            if (++job->invalid >= 50) break;
        } else {
            job->other++;
            break;
        }
    }
    return NULL;
}

static void free_while_reading(void) {
    fw_form *form = NULL, *next = NULL;
    snapshot_reader jobs[2];
    pthread_t threads[2];
    struct timespec pause = {0, 2 * 1000 * 1000};
    int i;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "f", NULL, "old"));
    for (i = 0; i < 2; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].form = form;
        CHECK(pthread_create(&threads[i], NULL, read_until_freed, &jobs[i]) == 0);
    }
    nanosleep(&pause, NULL);
    CASE(fw_form_free(form), FW_OK);
    CHECK_OK(fw_form_create(&next)); /* most likely in the freed slot */
    CHECK_OK(fw_form_add_field(next, "f", NULL, "new"));
    for (i = 0; i < 2; i++) CHECK(pthread_join(threads[i], NULL) == 0);
    for (i = 0; i < 2; i++) {
        CHECK(jobs[i].other == 0);   /* only FW_OK or FW_ERR_INVALID_HANDLE */
        CHECK(jobs[i].newer == 0);   /* the old handle never reached the new form */
        CHECK(jobs[i].invalid == 50);
    }
    CHECK_OK(fw_form_free(next));
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

/* ---- validators calling the next form's validator, deeper than the library allows ---- */

#define CHAIN 18 /* the library holds at most 16 forms on one thread (validators nested in calls) */

typedef struct {
    fw_form *next;
    fw_status status; /* what the call on `next` answered */
    int ran;
} chain_link;

static int32_t call_next_form(void *context, const char *value, size_t length, const char **out_message) {
    chain_link *link = (chain_link *)context;
    (void)length;
    (void)out_message;
    link->ran++;
    if (link->next) link->status = fw_field_set_value(link->next, "x", value);
    return FW_VERDICT_VALID;
}

static void nested_validators(void) {
    fw_form *forms[CHAIN];
    chain_link links[CHAIN];
    int i;
    for (i = 0; i < CHAIN; i++) CHECK_OK(fw_form_create(&forms[i]));
    for (i = 0; i < CHAIN; i++) {
        links[i].next = i + 1 < CHAIN ? forms[i + 1] : NULL;
        links[i].status = FW_OK;
        links[i].ran = 0;
        CHECK_OK(fw_form_add_field(forms[i], "x", NULL, NULL));
        CHECK_OK(fw_field_add_custom(forms[i], "x", call_next_form, &links[i], NULL, NULL));
    }
    /* forms[0]'s call holds 1 form, its validator's call on forms[1] holds 2, ... forms[15] holds
       the 16th; its validator's call on forms[16] is refused with FW_ERR_BUSY, and runs nothing. */
    CASE(fw_field_set_value(forms[0], "x", "v"), FW_OK);
    for (i = 0; i < 15; i++) {
        CHECK(links[i].ran == 1);
        CHECK(links[i].status == FW_OK);
    }
    CHECK(links[15].ran == 1);
    CHECK(links[15].status == FW_ERR_BUSY);
    CHECK(links[16].ran == 0 && links[17].ran == 0);
    /* The refused form is as it was: empty, idle. */
    {
        char value[8];
        fw_phase phase;
        CHECK_OK(fw_field_value(forms[16], "x", value, sizeof value, NULL));
        CHECK_STR(value, "");
        CHECK_OK(fw_field_phase(forms[16], "x", &phase));
        CHECK(phase == FW_PHASE_IDLE);
    }
    for (i = 0; i < CHAIN; i++) CHECK_OK(fw_form_free(forms[i]));
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
    new_functions(target);
    huge_update(target);
    batch_functions(target);
    arrow_functions(target);
    issue11_functions(target);
    async_functions(target);
    messages_functions(target);
    catastrophic_patterns();
    misbehaving_callbacks();
    reentrant_new_functions();
    reentrant_batch();
    reentrant_async();
    reentrant_messages();
    resolve_after_free();
    never_resolved();
    threaded_resolves();
    threaded_catalogues();
    crossing_validators();
    nested_validators();
    free_while_reading();
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
