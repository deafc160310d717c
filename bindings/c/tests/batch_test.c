#define _POSIX_C_SOURCE 200112L
/* Batches (fw_form_check_batch, fw_form_batch_message, fw_form_rule_message) checked against the
   interactive API: seed 03's registration form, a few hundred generated records in every column
   layout (int32 / int64 offsets, Arrow slices, validity bitmaps, columns named by id and by position,
   fields without a column), and for every record the batch's valid flag, failing rules, flags and
   messages must equal what a fresh form says after the same record is submitted (fw_field_set_value
   per field, fw_form_validate, fw_field_snapshot). Then threads 0 / 1 / 2 on >10k records, optional
   outputs, custom validators' own messages, match limits, the form's own state left alone, and every
   refused column with its exact status and detail. */
#include <stdint.h>

#include "check.h"
#include "generated_records.h"
#include "seed_rules.h"

#define FIELDS 5
#define TOO_COMPLEX "This value is too complex to check"

static const char *const field_ids[FIELDS] = {"name", "email", "username", "password", "confirm"};

/* ---- the registration form (examples/registration.json as fw_rule arrays) ---- */

/* initial: each field's initial value (NULL for none), or NULL for no initial values at all. */
static fw_form *registration(const char *const *initial) {
    fw_form *form = NULL;
    fw_rule name[1], email[2], username[4], password[3], confirm[2];
    name[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, "Name is required");
    email[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    email[1] = test_rule(FW_RULE_EMAIL, 0, NULL, NULL);
    username[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    username[1] = test_rule(FW_RULE_MIN_LENGTH, 3, NULL, "At least 3 characters");
    username[2] = test_rule(FW_RULE_MAX_LENGTH, 20, NULL, "20 characters maximum");
    username[3] = test_rule(FW_RULE_REGEX, 0, "^[a-z0-9_]+$", "Lowercase letters, numbers, and underscores only");
    password[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    password[1] = test_rule(FW_RULE_MIN_LENGTH, 8, NULL, NULL);
    password[2] = test_rule(FW_RULE_PASSWORD_STRENGTH, 0, "{\"min_score\": 3}", NULL); /* parameters as JSON */
    confirm[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, "Please confirm your password");
    confirm[1] = test_rule(FW_RULE_MATCHES, 0, "password", "Passwords don't match");
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field_with_rules(form, "name", "Display name", initial ? initial[0] : NULL, name, 1));
    CHECK_OK(fw_form_add_field_with_rules(form, "email", "Email address", initial ? initial[1] : NULL, email, 2));
    CHECK_OK(fw_form_add_field_with_rules(form, "username", "Username", initial ? initial[2] : NULL, username, 4));
    CHECK_OK(fw_form_add_field_with_rules(form, "password", "Password", initial ? initial[3] : NULL, password, 3));
    CHECK_OK(fw_form_add_field_with_rules(form, "confirm", "Confirm password", initial ? initial[4] : NULL, confirm, 2));
    return form;
}

/* ---- generated records: generated_records.h ---- */

/* ---- columns in the Arrow layout ---- */

typedef struct {
    void *offsets;
    char *data;
    uint8_t *validity;
} column_memory;

/* How a column is laid out. */
typedef struct {
    int offset_size;      /* 4 or 8 */
    size_t slice;         /* bytes before offsets[0] (invalid UTF-8 that no value covers) */
    int garbage_nulls;    /* null slots cover invalid UTF-8 bytes instead of being empty */
} layout;

/* Builds the column of field `field` from `values` (record-major, FIELDS per record). */
static void build_column(fw_column *col, column_memory *mem, const char *field_id, const char **values, size_t records,
                         int field, layout how) {
    size_t r, size = how.slice + 2, at;
    int64_t *o64;
    int32_t *o32;
    int any_null = 0;
    for (r = 0; r < records; r++) {
        const char *v = values[r * FIELDS + field];
        size += v ? strlen(v) : 2;
        if (!v) any_null = 1;
    }
    mem->data = calloc(size, 1); /* every byte defined: PCRE2's JIT may read (harmlessly) past a value */
    mem->offsets = malloc((records + 1) * 8);
    mem->validity = any_null ? calloc((records + 7) / 8, 1) : NULL;
    if (!mem->data || !mem->offsets || (any_null && !mem->validity)) abort();
    o64 = (int64_t *)mem->offsets;
    o32 = (int32_t *)mem->offsets;
    memset(mem->data, 0xFF, how.slice);
    at = how.slice;
    for (r = 0; r <= records; r++) {
        if (how.offset_size == 8) o64[r] = (int64_t)at;
        else o32[r] = (int32_t)at;
        if (r == records) break;
        {
            const char *v = values[r * FIELDS + field];
            if (v) {
                memcpy(mem->data + at, v, strlen(v));
                at += strlen(v);
                if (mem->validity) mem->validity[r / 8] |= (uint8_t)(1u << (r % 8));
            } else if (how.garbage_nulls) {
                mem->data[at++] = (char)0xC3; /* "\xC3(": not UTF-8, but only a null slot covers it */
                mem->data[at++] = '(';
            }
        }
    }
    mem->data[at++] = (char)0xFF; /* trailing bytes past the last offset: never read */
    memset(col, 0, sizeof *col);
    col->size = sizeof *col;
    col->field_id = field_id;
    col->offsets = mem->offsets;
    col->data = mem->data;
    col->validity = mem->validity;
    col->data_size = at;
    col->offset_size = how.offset_size;
}

static void free_column(column_memory *mem) {
    free(mem->offsets);
    free(mem->data);
    free(mem->validity);
}

/* ---- the reference: a submit on a fresh form ---- */

typedef struct {
    const char *const *initial; /* the forms' initial values (NULL: none) */
    int has_column[FIELDS];     /* which fields the batch gave a column */
} reference;

/* Compares record r of a batch with a submit of the same values on a fresh form. */
static int compare_record(fw_form *form, const fw_column *cols, size_t ncols, size_t records, size_t r,
                          const char **values, reference ref, uint8_t valid, const int32_t *rules,
                          const uint8_t *flags, int line) {
    fw_form *fresh = registration(ref.initial);
    bool submitted = false;
    int f, ok = 1;
    for (f = 0; f < FIELDS; f++) {
        const char *v = values[r * FIELDS + f];
        if (ref.has_column[f] && fw_field_set_value(fresh, field_ids[f], v ? v : "") != FW_OK) ok = 0;
    }
    if (fw_form_validate(fresh, &submitted) != FW_OK) ok = 0;
    check_count++;
    if (!ok || submitted != (valid == 1)) {
        check_failures++;
        fprintf(stderr, "%s:%d: record %zu: batch valid %d, submit %d\n", __FILE__, line, r, (int)valid, (int)submitted);
    }
    for (f = 0; f < FIELDS; f++) {
        fw_snapshot snap;
        char texts[512], by_record[256], by_rule[256], expected_message[256];
        const char *resolved;
        memset(&snap, 0, sizeof snap);
        snap.size = sizeof snap;
        CHECK_OK(fw_field_snapshot_at(fresh, (size_t)f, &snap, texts, sizeof texts));
        snprintf(expected_message, sizeof expected_message, "%s", snap.display_message ? snap.display_message : "?");
        CHECK_OK(fw_form_batch_message(form, cols, ncols, records, r, (size_t)f, by_record, sizeof by_record, NULL));
        by_rule[0] = '\0';
        if (rules[f] >= 0) CHECK_OK(fw_form_rule_message(form, (size_t)f, (size_t)rules[f], by_rule, sizeof by_rule, NULL));
        /* What a caller holding only the outputs shows: the rule's fixed message unless a flag says otherwise. */
        resolved = rules[f] < 0 ? "" : (flags[f] & FW_CELL_OWN_MESSAGE) ? by_record
                 : (flags[f] & FW_CELL_LIMIT_EXCEEDED) ? TOO_COMPLEX : by_rule;
        check_count++;
        if (snap.failing_rule != rules[f] || strcmp(resolved, expected_message) != 0
            || strcmp(by_record, expected_message) != 0 || strcmp(snap.message, expected_message) != 0
            || ((flags[f] & FW_CELL_LIMIT_EXCEEDED) != 0) != snap.limit_exceeded) {
            check_failures++;
            fprintf(stderr, "%s:%d: record %zu field %s: batch rule %d flags %d message \"%s\" (batch_message \"%s\"); "
                    "submit rule %d limit %d message \"%s\"\n", __FILE__, line, r, field_ids[f], (int)rules[f],
                    (int)flags[f], resolved, by_record, (int)snap.failing_rule, (int)snap.limit_exceeded,
                    expected_message);
        }
    }
    fw_form_free(fresh);
    return ok;
}

/* One batch of `records` generated records over every layout variant, each record compared. */
static void layouts_against_submits(void) {
    static const layout layouts[] = {
        {4, 0, 0}, {8, 0, 0}, {4, 7, 0}, {8, 13, 1}, {4, 3, 1},
    };
    size_t records = 240, k, r;
    for (k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
        int nulls = k >= 3;
        const char **values = generate(records, nulls || k == 2);
        fw_column cols[FIELDS];
        column_memory mem[FIELDS];
        uint8_t *valid = malloc(records), *flags = malloc(records * FIELDS);
        int32_t *rules = malloc(records * FIELDS * sizeof *rules);
        size_t invalid = 99, counted = 0;
        int f;
        reference ref;
        fw_form *form = registration(NULL);
        memset(&ref, 0, sizeof ref);
        for (f = 0; f < FIELDS; f++) {
            /* k even: columns named by id in reverse order; k odd: by position (NULL id). */
            int field = k % 2 == 0 ? FIELDS - 1 - f : f;
            build_column(&cols[f], &mem[f], k % 2 == 0 ? field_ids[field] : NULL, values, records, field, layouts[k]);
            ref.has_column[field] = 1;
        }
        CHECK_OK(fw_form_check_batch(form, cols, FIELDS, records, 1, valid, rules, flags, &invalid));
        for (r = 0; r < records; r++) {
            int all_pass = 1;
            for (f = 0; f < FIELDS; f++) all_pass &= rules[r * FIELDS + (size_t)f] == -1;
            CHECK(valid[r] == (uint8_t)all_pass);
            counted += !all_pass;
            compare_record(form, cols, FIELDS, records, r, values, ref, valid[r], rules + r * FIELDS,
                           flags + r * FIELDS, __LINE__);
        }
        CHECK(invalid == counted);
        CHECK(counted > 0 && counted < records); /* the generator makes both kinds */
        for (f = 0; f < FIELDS; f++) free_column(&mem[f]);
        free(values);
        free(valid);
        free(flags);
        free(rules);
        fw_form_free(form);
    }
}

/* Fields without a column hold their initial value in every record. */
static void fields_without_columns(void) {
    static const char *const initial[FIELDS] = {"Ada", NULL, "ada_l", "Secret123", "Secret123"};
    size_t records = 120, r;
    const char **values = generate(records, 0);
    fw_column cols[2];
    column_memory mem[2];
    layout plain = {4, 0, 0};
    uint8_t valid[120], flags[120 * FIELDS];
    int32_t rules[120 * FIELDS];
    reference ref;
    fw_form *form = registration(initial);
    memset(&ref, 0, sizeof ref);
    /* Only email and password have columns: name, username and confirm read "Ada", "ada_l", "Secret123";
       confirm must match each record's password. */
    build_column(&cols[0], &mem[0], "password", values, records, 3, plain);
    build_column(&cols[1], &mem[1], "email", values, records, 1, plain);
    ref.initial = initial;
    ref.has_column[1] = ref.has_column[3] = 1;
    CHECK_OK(fw_form_check_batch(form, cols, 2, records, 1, valid, rules, flags, NULL));
    for (r = 0; r < records; r++) {
        CHECK(rules[r * FIELDS + 0] == -1 && rules[r * FIELDS + 2] == -1);
        compare_record(form, cols, 2, records, r, values, ref, valid[r], rules + r * FIELDS, flags + r * FIELDS, __LINE__);
    }
    /* The same with no column at all: one verdict repeated. */
    CHECK_OK(fw_form_check_batch(form, NULL, 0, records, 1, valid, rules, flags, NULL));
    for (r = 0; r < records; r++) {
        CHECK(valid[r] == 0 && rules[r * FIELDS + 1] == 0 && rules[r * FIELDS + 4] == -1);
    }
    free_column(&mem[0]);
    free_column(&mem[1]);
    free(values);
    fw_form_free(form);
}

/* ---- threads, optional outputs, record_count 0 ---- */

static void threads_agree(void) {
    size_t records = 12345, r, invalid[4] = {0, 0, 0, 0}, counted = 0;
    const char **values = generate(records, 1);
    fw_column cols[FIELDS];
    column_memory mem[FIELDS];
    layout how = {8, 5, 1};
    int32_t threads[4] = {1, 0, 2, 5};
    uint8_t *valid[4], *flags[4];
    int32_t *rules[4];
    reference ref;
    int f, t;
    fw_form *form = registration(NULL);
    memset(&ref, 0, sizeof ref);
    for (f = 0; f < FIELDS; f++) {
        build_column(&cols[f], &mem[f], field_ids[f], values, records, f, how);
        ref.has_column[f] = 1;
    }
    for (t = 0; t < 4; t++) {
        valid[t] = malloc(records);
        flags[t] = malloc(records * FIELDS);
        rules[t] = malloc(records * FIELDS * sizeof(int32_t));
        memset(valid[t], 0x77, records);
        memset(flags[t], 0x77, records * FIELDS);
        memset(rules[t], 0x77, records * FIELDS * sizeof(int32_t));
        CHECK_OK(fw_form_check_batch(form, cols, FIELDS, records, threads[t], valid[t], rules[t], flags[t], &invalid[t]));
    }
    for (t = 1; t < 4; t++) {
        CHECK(memcmp(valid[0], valid[t], records) == 0);
        CHECK(memcmp(flags[0], flags[t], records * FIELDS) == 0);
        CHECK(memcmp(rules[0], rules[t], records * FIELDS * sizeof(int32_t)) == 0);
        CHECK(invalid[t] == invalid[0]);
    }
    for (r = 0; r < records; r++) {
        counted += valid[0][r] == 0;
        CHECK(valid[0][r] <= 1);
    }
    CHECK(counted == invalid[0]);
    /* A sample against submits (every record would take a while under valgrind). */
    for (r = 0; r < records; r += 97) {
        compare_record(form, cols, FIELDS, records, r, values, ref, valid[2][r], rules[2] + r * FIELDS,
                       flags[2] + r * FIELDS, __LINE__);
    }

    /* Optional outputs: each alone (or none) gives the same values. */
    {
        uint8_t *v = malloc(records), *fl = malloc(records * FIELDS);
        int32_t *ru = malloc(records * FIELDS * sizeof(int32_t));
        size_t n = 0;
        CHECK_OK(fw_form_check_batch(form, cols, FIELDS, records, 2, NULL, NULL, NULL, NULL));
        CHECK_OK(fw_form_check_batch(form, cols, FIELDS, records, 2, NULL, NULL, NULL, &n));
        CHECK(n == invalid[0]);
        memset(v, 9, records);
        CHECK_OK(fw_form_check_batch(form, cols, FIELDS, records, 0, v, NULL, NULL, NULL));
        CHECK(memcmp(v, valid[0], records) == 0);
        memset(ru, 9, records * FIELDS * sizeof(int32_t));
        CHECK_OK(fw_form_check_batch(form, cols, FIELDS, records, 1, NULL, ru, NULL, NULL));
        CHECK(memcmp(ru, rules[0], records * FIELDS * sizeof(int32_t)) == 0);
        memset(fl, 9, records * FIELDS);
        CHECK_OK(fw_form_check_batch(form, cols, FIELDS, records, 3, NULL, NULL, fl, NULL));
        CHECK(memcmp(fl, flags[0], records * FIELDS) == 0);
        free(v);
        free(fl);
        free(ru);
    }

    /* record_count 0: no record read, no output written except the count. */
    {
        uint8_t untouched = 0xAB;
        int32_t untouched_rule = 0x12345678;
        size_t n = 99;
        fw_column empty[FIELDS];
        memcpy(empty, cols, sizeof empty);
        for (f = 0; f < FIELDS; f++) {
            empty[f].offsets = NULL; /* Arrow allows a 0-length array without an offsets buffer */
            empty[f].data = NULL;
            empty[f].data_size = 0;
        }
        CHECK_OK(fw_form_check_batch(form, cols, FIELDS, 0, 0, &untouched, &untouched_rule, &untouched, &n));
        CHECK(n == 0 && untouched == 0xAB && untouched_rule == 0x12345678);
        n = 99;
        CHECK_OK(fw_form_check_batch(form, empty, FIELDS, 0, 1, NULL, NULL, NULL, &n));
        CHECK(n == 0);
        n = 99;
        CHECK_OK(fw_form_check_batch(form, NULL, 0, 0, 2, NULL, NULL, NULL, &n));
        CHECK(n == 0);
        CHECK_STATUS(fw_form_batch_message(form, empty, FIELDS, 0, 0, 0, NULL, 0, NULL), FW_ERR_INVALID_ARGUMENT);
    }

    for (t = 0; t < 4; t++) {
        free(valid[t]);
        free(flags[t]);
        free(rules[t]);
    }
    for (f = 0; f < FIELDS; f++) free_column(&mem[f]);
    free(values);
    fw_form_free(form);
}

/* ---- custom validators' own messages, match limits ---- */

#define PIN_MESSAGE "PIN ung\xc3\xbcltig \xe2\x80\x94 vier Ziffern"

static int32_t four_digits(void *context, const char *value, size_t length, const char **out_message) {
    size_t i;
    (*(int *)context)++;
    *out_message = "ignored: the rule has a message";
    if (length != 4) return FW_VERDICT_INVALID;
    for (i = 0; i < 4; i++) if (value[i] < '0' || value[i] > '9') return FW_VERDICT_INVALID;
    return FW_VERDICT_VALID;
}

/* An array of strings as one int32 column. */
static void strings_column(fw_column *col, column_memory *mem, const char *id, const char *const *strings, size_t n) {
    const char **values = malloc(n * FIELDS * sizeof *values);
    size_t r;
    layout plain = {4, 0, 0};
    for (r = 0; r < n; r++) values[r * FIELDS] = strings[r];
    build_column(col, mem, id, values, n, 0, plain);
    free(values);
}

static void custom_and_limits(void) {
    static const char *const passwords[] = {"", "weak", "Str0ng!pass", "alllowercase", "ALLUPPER12", "Ok1!"};
    static const char *const pins[] = {"1234", "12a4", "", "99999", "0000", "4321"};
    static const char *const patterns[] = {"ab", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaacb", "b", "aaaaaaaaaaaaaaaaaaaaaaaaab", "", "c"};
    size_t n = 6, r, length = 0;
    int destroyed = 0, pin_calls = 0;
    strength_context strength = {3, 0, NULL};
    fw_form *form = NULL, *probe = NULL;
    fw_rule rules[2];
    fw_column cols[3];
    column_memory mem[3];
    uint8_t valid[6], flags[18];
    int32_t failing[18];
    char buf[256];
    strength.destroyed = &destroyed;
    CHECK_OK(fw_form_create(&form));
    rules[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[1] = test_rule(FW_RULE_CUSTOM, 0, NULL, NULL);
    rules[1].validate = password_strength;
    rules[1].context = &strength;
    rules[1].destroy = strength_destroy;
    CHECK_OK(fw_form_add_field_with_rules(form, "password", NULL, NULL, rules, 2));
    rules[0] = test_rule(FW_RULE_CUSTOM, 0, NULL, PIN_MESSAGE);
    rules[0].validate = four_digits;
    rules[0].context = &pin_calls;
    CHECK_OK(fw_form_add_field_with_rules(form, "pin", NULL, NULL, rules, 1));
    CHECK_OK(fw_form_add_field(form, "pattern", NULL, NULL));
    CHECK_OK(fw_field_add_regex(form, "pattern", "(a+)+b", NULL));
    CHECK_OK(fw_form_set_match_limits(form, 200, 200, 16384));
    strings_column(&cols[0], &mem[0], "password", passwords, n);
    strings_column(&cols[1], &mem[1], "pin", pins, n);
    strings_column(&cols[2], &mem[2], "pattern", patterns, n);
    strength.calls = 0;
    CHECK_OK(fw_form_check_batch(form, cols, 3, n, 0, valid, failing, flags, NULL));
    CHECK(strength.calls == 5 && pin_calls == 5); /* once per non-empty value, on this thread */

    /* password: the validator's own words, flagged; the rule's fixed message is the default. */
    CHECK(failing[1 * 3 + 0] == 1 && flags[1 * 3 + 0] == FW_CELL_OWN_MESSAGE);
    CHECK_OK(fw_form_batch_message(form, cols, 3, n, 1, 0, buf, sizeof buf, &length));
    CHECK_STR(buf, WEAK_PASSWORD);
    CHECK(length == strlen(WEAK_PASSWORD));
    CHECK_OK(fw_form_rule_message(form, 0, 1, buf, sizeof buf, NULL));
    CHECK_STR(buf, "Invalid value");
    CHECK(failing[0 * 3 + 0] == 0 && flags[0 * 3 + 0] == 0); /* empty: required */
    CHECK(failing[2 * 3 + 0] == -1 && flags[2 * 3 + 0] == 0);
    /* pin: a rule with a message never shows the validator's words. */
    CHECK(failing[1 * 3 + 1] == 0 && flags[1 * 3 + 1] == 0);
    CHECK_OK(fw_form_batch_message(form, cols, 3, n, 1, 1, buf, sizeof buf, NULL));
    CHECK_STR(buf, PIN_MESSAGE);
    CHECK_OK(fw_form_rule_message(form, 1, 0, buf, sizeof buf, NULL));
    CHECK_STR(buf, PIN_MESSAGE);
    CHECK(failing[2 * 3 + 1] == -1 && failing[0 * 3 + 1] == -1);
    /* pattern: over its limits on the long non-matching value. */
    CHECK(failing[1 * 3 + 2] == 0 && (flags[1 * 3 + 2] & FW_CELL_LIMIT_EXCEEDED));
    CHECK_OK(fw_form_batch_message(form, cols, 3, n, 1, 2, buf, sizeof buf, NULL));
    CHECK_STR(buf, TOO_COMPLEX);
    CHECK(failing[4 * 3 + 2] == -1 && flags[4 * 3 + 2] == 0);

    /* Every cell against a submit on a form with the same rules. */
    for (r = 0; r < n; r++) {
        int f;
        bool ok = false;
        CHECK_OK(fw_form_create(&probe));
        rules[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
        rules[1] = test_rule(FW_RULE_CUSTOM, 0, NULL, NULL);
        rules[1].validate = password_strength;
        rules[1].context = &strength;
        CHECK_OK(fw_form_add_field_with_rules(probe, "password", NULL, NULL, rules, 2));
        rules[0] = test_rule(FW_RULE_CUSTOM, 0, NULL, PIN_MESSAGE);
        rules[0].validate = four_digits;
        rules[0].context = &pin_calls;
        CHECK_OK(fw_form_add_field_with_rules(probe, "pin", NULL, NULL, rules, 1));
        CHECK_OK(fw_form_add_field(probe, "pattern", NULL, NULL));
        CHECK_OK(fw_field_add_regex(probe, "pattern", "(a+)+b", NULL));
        CHECK_OK(fw_form_set_match_limits(probe, 200, 200, 16384));
        CHECK_OK(fw_field_set_value(probe, "password", passwords[r]));
        CHECK_OK(fw_field_set_value(probe, "pin", pins[r]));
        CHECK_OK(fw_field_set_value(probe, "pattern", patterns[r]));
        CHECK_OK(fw_form_validate(probe, &ok));
        CHECK(ok == (valid[r] == 1));
        for (f = 0; f < 3; f++) {
            fw_snapshot snap;
            char texts[512], mine[256];
            memset(&snap, 0, sizeof snap);
            snap.size = sizeof snap;
            CHECK_OK(fw_field_snapshot_at(probe, (size_t)f, &snap, texts, sizeof texts));
            CHECK(snap.failing_rule == failing[r * 3 + (size_t)f]);
            CHECK(snap.limit_exceeded == ((flags[r * 3 + (size_t)f] & FW_CELL_LIMIT_EXCEEDED) != 0));
            CHECK_OK(fw_form_batch_message(form, cols, 3, n, r, (size_t)f, mine, sizeof mine, NULL));
            CHECK_STR(mine, snap.display_message);
        }
        fw_form_free(probe);
    }
    /* A limit-exceeded cell is not a custom validator's words: FW_CELL_LIMIT_EXCEEDED alone. */
    CHECK(flags[1 * 3 + 2] == FW_CELL_LIMIT_EXCEEDED);

    /* Buffers exactly as fw_field_message: compare every size on a field showing the same text. */
    CHECK_OK(fw_form_create(&probe));
    rules[0] = test_rule(FW_RULE_CUSTOM, 0, NULL, NULL);
    rules[0].validate = password_strength;
    rules[0].context = &strength;
    CHECK_OK(fw_form_add_field_with_rules(probe, "password", NULL, "weak", rules, 1));
    CHECK_OK(fw_field_blur(probe, "password"));
    {
        size_t size, total = strlen(WEAK_PASSWORD) + 1;
        for (size = 0; size <= total + 1; size++) {
            char a[256], b[256];
            size_t la = 777, lb = 888;
            fw_status sa, sb;
            memset(a, '#', sizeof a);
            memset(b, '#', sizeof b);
            sa = fw_field_message(probe, "password", size ? a : NULL, size, &la);
            sb = fw_form_batch_message(form, cols, 3, n, 1, 0, size ? b : NULL, size, &lb);
            CHECK(sa == sb && la == lb && memcmp(a, b, sizeof a) == 0);
            CHECK((size == 0 || size >= total) == (sb == FW_OK)); /* NULL, 0: a length query */
        }
        /* The pin message (fixed, with ü and an em dash) through rule_message vs a field showing it. */
        {
            fw_form *pinform = NULL;
            size_t total_pin = strlen(PIN_MESSAGE) + 1;
            rules[0] = test_rule(FW_RULE_CUSTOM, 0, NULL, PIN_MESSAGE);
            rules[0].validate = four_digits;
            rules[0].context = &pin_calls;
            CHECK_OK(fw_form_create(&pinform));
            CHECK_OK(fw_form_add_field_with_rules(pinform, "pin", NULL, "x", rules, 1));
            CHECK_OK(fw_field_blur(pinform, "pin"));
            for (size = 0; size <= total_pin + 1; size++) {
                char a[256], b[256];
                size_t la = 777, lb = 888;
                fw_status sa, sb;
                memset(a, '#', sizeof a);
                memset(b, '#', sizeof b);
                sa = fw_field_message(pinform, "pin", size ? a : NULL, size, &la);
                sb = fw_form_rule_message(form, 1, 0, size ? b : NULL, size, &lb);
                CHECK(sa == sb && la == lb && memcmp(a, b, sizeof a) == 0);
                CHECK((size == 0 || size >= total_pin) == (sb == FW_OK));
            }
            fw_form_free(pinform);
        }
    }
    /* A failed message call leaves "" in the buffer. */
    strcpy(buf, "stale");
    CHECK_STATUS(fw_form_batch_message(form, cols, 3, n, n, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK_STR(buf, "");
    strcpy(buf, "stale");
    CHECK_STATUS(fw_form_rule_message(form, 0, 2, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK_STR(buf, "");
    fw_form_free(probe);
    for (r = 0; r < 3; r++) free_column(&mem[r]);
    fw_form_free(form);
    CHECK(destroyed == 1);
}

/* ---- the form's own state is left alone ---- */

static char *fingerprint(fw_form *form) {
    size_t count = 0, i, used = 0, size = 8192;
    char *out = malloc(size), texts[512], first[64];
    bool valid = false;
    CHECK_OK(fw_form_field_count(form, &count));
    CHECK_OK(fw_form_is_valid(form, &valid));
    CHECK_OK(fw_form_first_invalid(form, first, sizeof first, NULL));
    used += (size_t)snprintf(out, size, "%zu fields, valid %d, first [%s]\n", count, (int)valid, first);
    for (i = 0; i < count; i++) {
        fw_snapshot snap;
        memset(&snap, 0, sizeof snap);
        snap.size = sizeof snap;
        CHECK_OK(fw_field_snapshot_at(form, i, &snap, texts, sizeof texts));
        used += (size_t)snprintf(out + used, size - used, "%zu: %d %d %d %d %d %d [%s] [%s] [%s]\n", i, (int)snap.phase,
                                 (int)snap.validity, (int)snap.display, (int)snap.failing_rule, (int)snap.touched,
                                 (int)snap.limit_exceeded, snap.message, snap.display_message, snap.value);
    }
    return out;
}

static void state_untouched(void) {
    static const char *const initial[FIELDS] = {"Ada", NULL, NULL, NULL, NULL};
    size_t records = 300, n = 0;
    const char **values = generate(records, 1);
    fw_column cols[FIELDS];
    column_memory mem[FIELDS];
    layout how = {4, 2, 1};
    fw_form *form = registration(initial);
    char *before, *after;
    int f;
    for (f = 0; f < FIELDS; f++) build_column(&cols[f], &mem[f], field_ids[f], values, records, f, how);
    CHECK_OK(fw_field_focus(form, "email"));
    CHECK_OK(fw_field_set_value(form, "email", "ada@"));
    CHECK_OK(fw_field_blur(form, "email"));
    CHECK_OK(fw_field_focus(form, "password"));
    CHECK_OK(fw_field_set_value(form, "password", "abc"));
    CHECK_OK(fw_field_touch(form, "username"));
    before = fingerprint(form);
    CHECK_OK(fw_form_check_batch(form, cols, FIELDS, records, 2, NULL, NULL, NULL, &n));
    CHECK_OK(fw_form_batch_message(form, cols, FIELDS, records, 5, 4, NULL, 0, NULL));
    CHECK_STATUS(fw_form_check_batch(form, cols, FIELDS, records, -1, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT);
    after = fingerprint(form);
    CHECK_STR(after, before);
    CHECK_FIELD(form, "email", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Invalid email format", FW_DISPLAY_ERROR,
                "Invalid email format", true);
    CHECK_FIELD(form, "name", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", false); /* not judged yet */
    free(before);
    free(after);
    for (f = 0; f < FIELDS; f++) free_column(&mem[f]);
    free(values);
    fw_form_free(form);
}

/* ---- refused columns: exact status and detail ---- */

static void expect_error(int line, fw_status got, fw_status want, const char *detail) {
    char message[512];
    fw_last_error_message(message, sizeof message, NULL);
    check_count++;
    if (got != want || strcmp(message, detail) != 0 || fw_last_error_code() != want) {
        check_failures++;
        fprintf(stderr, "%s:%d: got %d (%s) \"%s\", expected %d (%s) \"%s\"\n", __FILE__, line, (int)got,
                fw_status_string(got), message, (int)want, fw_status_string(want), detail);
    }
}

#define EXPECT_ERROR(call, status, detail) expect_error(__LINE__, (call), (status), (detail))


static void refused_columns(void) {
    fw_form *form = registration(NULL);
    static const char data[] = "adagracezoe";
    static const char utf8[] = "xyab\xc3\xa9" "cd";          /* "xyabécd": é is bytes 4..5 */
    static const char bad[] = "ok\xff" "x";
    int32_t good[4] = {0, 3, 8, 11}, decreasing[4] = {0, 5, 3, 11}, past[4] = {0, 3, 8, 12};
    int32_t negative[4] = {-1, 3, 8, 11}, negative_later[4] = {0, 3, -2, 11}, start_past[4] = {12, 12, 12, 12};
    int32_t split[4] = {0, 2, 5, 8}, bad_value[4] = {0, 0, 4, 4};
    int64_t aligned64[5] = {0, 0, 3, 8, 11};
    uint8_t valid[3];
    int32_t rules[15];
    char raw[64], buf[64];
    int32_t *misaligned;
    fw_column c[6];
    size_t n = 0, i;

    c[0] = test_column32("email", decreasing, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "column 'email', record 1: offsets decrease (5 then 3)");
    c[0] = test_column32("email", past, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "column 'email', record 2: offset 12 is past the end of the data (11 bytes)");
    c[0] = test_column32(NULL, start_past, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "column 'name', record 0: offset 12 is outside the data (11 bytes)");
    c[0] = test_column32("username", negative, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "column 'username', record 0: offset -1 is outside the data (11 bytes)");
    c[0] = test_column32("username", negative_later, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "column 'username', record 1: offsets decrease (3 then -2)");
    /* Invalid UTF-8 inside a value: named by record and 1-based byte of the value. */
    c[0] = test_column32("email", bad_value, bad, 4);
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "column 'email', record 1: invalid UTF-8 at byte 3 of the value");
    /* ... but a null slot may cover it. */
    {
        uint8_t bitmap = 0x05; /* record 1 null */
        c[0].validity = &bitmap;
        EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_OK, "");
        CHECK(rules[1 * FIELDS + 1] == 0); /* "" : required */
        c[0].validity = NULL;
    }
    /* A value boundary inside é: record 1 ends after its first byte, record 2 starts at its second. */
    c[0] = test_column32("password", split, utf8, 8);
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "column 'password', record 1: invalid UTF-8 at byte 3 of the value");
    EXPECT_ERROR(fw_form_batch_message(form, c, 1, 3, 2, 3, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT,
                 "column 'password', record 2: invalid UTF-8 at byte 1 of the value");
    EXPECT_ERROR(fw_form_batch_message(form, c, 1, 3, 0, 3, buf, sizeof buf, NULL), FW_OK, ""); /* record 0 alone is fine */
    CHECK_STR(buf, "Must be at least 8 characters");
    /* offset_size 3, misaligned offsets, NULL data, NULL offsets. */
    c[0] = test_column32("email", good, data, 11);
    c[0].offset_size = 3;
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "columns[0].offset_size is 3; it must be 4 or 8");
    c[0].offset_size = 8;
    c[0].offsets = (const char *)aligned64 + 4;
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "columns[0].offsets is not aligned to 8 bytes");
    c[0].offsets = aligned64 + 1;
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_OK, "");
    for (i = 0; i < 4 * sizeof(int32_t); i++) raw[1 + i] = ((const char *)good)[i];
    misaligned = (int32_t *)(void *)(raw + 1); /* never dereferenced here: the library must refuse it */
    c[1] = test_column32("name", misaligned, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 2, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "columns[1].offsets is not aligned to 4 bytes");
    c[1] = test_column32("name", good, NULL, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 2, 3, 1, valid, rules, NULL, &n), FW_ERR_NULL_ARGUMENT,
                 "columns[1].data is NULL but data_size is 11");
    c[1] = test_column32("name", NULL, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 2, 3, 1, valid, rules, NULL, &n), FW_ERR_NULL_ARGUMENT,
                 "columns[1].offsets is NULL");
    EXPECT_ERROR(fw_form_batch_message(form, c, 2, 3, 0, 0, buf, sizeof buf, NULL), FW_ERR_NULL_ARGUMENT,
                 "columns[1].offsets is NULL");
    /* Fields: unknown, twice, too many columns. */
    c[1] = test_column32("nope", good, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 2, 3, 1, valid, rules, NULL, &n), FW_ERR_UNKNOWN_FIELD,
                 "columns[1]: no field with id 'nope'");
    c[0] = test_column32("email", good, data, 11);
    c[1] = test_column32(NULL, good, data, 11); /* position 1: email again */
    EXPECT_ERROR(fw_form_check_batch(form, c, 2, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "columns[1]: field 'email' already has a column");
    c[1] = test_column32("email", good, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 2, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "columns[1]: field 'email' already has a column");
    for (i = 0; i < 6; i++) c[i] = test_column32(NULL, good, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 6, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "6 columns for a form of 5 fields");
    EXPECT_ERROR(fw_form_check_batch(form, c, 5, 3, 1, valid, rules, NULL, &n), FW_OK, "");
    /* Sizes: columns[i].size must equal columns[0].size, which must be sizeof(fw_column) or more. */
    c[2].size = sizeof(fw_column) + 8;
    {
        char want[128];
        snprintf(want, sizeof want, "columns[2].size differs from columns[0].size (%zu)", sizeof(fw_column));
        EXPECT_ERROR(fw_form_check_batch(form, c, 5, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT, want);
        c[2].size = sizeof(fw_column);
        c[0].size = 8;
        snprintf(want, sizeof want, "columns[0].size is 8; set it to sizeof(fw_column) (%zu)", sizeof(fw_column));
        EXPECT_ERROR(fw_form_check_batch(form, c, 5, 3, 1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT, want);
        c[0].size = sizeof(fw_column);
    }
    EXPECT_ERROR(fw_form_check_batch(form, NULL, 2, 3, 1, valid, rules, NULL, &n), FW_ERR_NULL_ARGUMENT,
                 "argument 'columns' is NULL but column_count is 2");
    EXPECT_ERROR(fw_form_check_batch(form, c, 5, 3, -1, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "threads is -1; use 0 for every processor");
    EXPECT_ERROR(fw_form_check_batch(form, c, 5, 3, INT32_MIN, valid, rules, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "threads is -2147483648; use 0 for every processor");
    /* Indexes out of range. */
    EXPECT_ERROR(fw_form_batch_message(form, c, 5, 3, 3, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT,
                 "record 3 is out of range (3 records)");
    CHECK_STR(buf, "");
    EXPECT_ERROR(fw_form_batch_message(form, c, 5, 3, SIZE_MAX, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT,
                 "record 9223372036854775807 is out of range (3 records)");
    EXPECT_ERROR(fw_form_batch_message(form, c, 5, 3, 0, 5, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT,
                 "field index 5 is out of range (5 fields)");
    EXPECT_ERROR(fw_form_rule_message(form, 5, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT,
                 "field index 5 is out of range (5 fields)");
    EXPECT_ERROR(fw_form_rule_message(form, 1, 2, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT,
                 "rule index 2 is out of range (field 'email' has 2 rules)");
    EXPECT_ERROR(fw_form_rule_message(form, 0, SIZE_MAX, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT,
                 "rule index 9223372036854775807 is out of range (field 'name' has 1 rules)");
    EXPECT_ERROR(fw_form_rule_message(form, 4, 1, buf, sizeof buf, NULL), FW_OK, "");
    CHECK_STR(buf, "Passwords don't match");
    EXPECT_ERROR(fw_form_rule_message(form, 1, 1, buf, sizeof buf, NULL), FW_OK, "");
    CHECK_STR(buf, "Invalid email format");
    /* record_count beyond what the ABI takes. */
    EXPECT_ERROR(fw_form_check_batch(form, c, 5, (size_t)INT32_MAX, 1, NULL, NULL, NULL, &n), FW_ERR_INVALID_ARGUMENT,
                 "record_count 2147483647 is too large (at most 2147483646)");
    /* A good batch after all of that: the three values as names. */
    c[0] = test_column32("name", good, data, 11);
    EXPECT_ERROR(fw_form_check_batch(form, c, 1, 3, 1, valid, rules, NULL, &n), FW_OK, "");
    CHECK(n == 3 && rules[0] == -1 && rules[5] == -1 && rules[10] == -1 && rules[1] == 0);
    fw_form_free(form);
}

int main(void) {
    layouts_against_submits();
    fields_without_columns();
    threads_agree();
    custom_and_limits();
    state_untouched();
    refused_columns();
    CHECK(fw_form_live_count() == 0);
    return check_summary("batch_test");
}
