#define _POSIX_C_SOURCE 200112L
/* The Arrow C Data Interface entry points (fw_form_check_arrow, fw_form_arrow_message) on structs
   built by hand: examples/registration.json over a few hundred generated records as utf8,
   large_utf8, string_view and dictionary-encoded columns, slices (struct and child offsets, validity
   bit offsets that are not multiples of 8), nulls in children and in the struct itself, unknown
   columns of any type, fields without a column. Every verdict must equal fw_form_check_batch's on
   the same values, and a sample a submit of a fresh form; every message fw_form_batch_message's.
   Then every hostile struct with its exact status and detail. The release callbacks count their
   calls: the library must never call them. */
#include <stdint.h>

#include "check.h"
#include "generated_records.h"

#define FIELDS 5
#define MAX_CHILDREN 8

static const char *const field_ids[FIELDS] = {"name", "email", "username", "password", "confirm"};
static char *spec_json = NULL;

static int schema_releases = 0, array_releases = 0;
static void count_schema_release(struct ArrowSchema *schema) { (void)schema; schema_releases++; }
static void count_array_release(struct ArrowArray *array) { (void)array; array_releases++; }

/* ---- the registration form ---- */

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    long size;
    char *text;
    if (!file) {
        fprintf(stderr, "arrow_test: cannot open %s (run from the repository root)\n", path);
        exit(2);
    }
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    fseek(file, 0, SEEK_SET);
    text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, file) != (size_t)size) abort();
    text[size] = '\0';
    fclose(file);
    return text;
}

static fw_form *registration(void) {
    fw_form *form = NULL;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_load_spec(form, spec_json));
    return form;
}

/* ---- generated records: generated_records.h ---- */

/* ---- Arrow structs by hand ---- */

enum kind { UTF8, LARGE_UTF8, STRING_VIEW, DICTIONARY };

typedef struct {
    struct ArrowSchema schema;
    struct ArrowArray array;
    const void *buffers[6];
    void *memory[6];       /* freed by free_batch */
    struct ArrowSchema dictionary_schema;
    struct ArrowArray dictionary_array;
    const void *dictionary_buffers[3];
} child;

typedef struct {
    struct ArrowSchema schema;
    struct ArrowArray array;
    struct ArrowSchema *schema_children[MAX_CHILDREN];
    struct ArrowArray *array_children[MAX_CHILDREN];
    const void *buffers[1];
    child children[MAX_CHILDREN];
    uint8_t *validity;
    int count;
} batch;

static void init_schema(struct ArrowSchema *schema, const char *format, const char *name) {
    memset(schema, 0, sizeof *schema);
    schema->format = format;
    schema->name = name;
    schema->flags = ARROW_FLAG_NULLABLE;
    schema->release = count_schema_release;
}

static void init_array(struct ArrowArray *array, int64_t length, int64_t offset, int64_t n_buffers, const void **buffers) {
    memset(array, 0, sizeof *array);
    array->length = length;
    array->offset = offset;
    array->n_buffers = n_buffers;
    array->buffers = buffers;
    array->release = count_array_release;
}

static void *zalloc(size_t size) {
    void *p = calloc(size > 0 ? size : 1, 1);
    if (!p) abort();
    return p;
}

/* An empty struct array (no children yet) of `length` records starting at struct offset `offset`. */
static void init_batch(batch *b, int64_t length, int64_t offset) {
    memset(b, 0, sizeof *b);
    init_schema(&b->schema, "+s", "");
    init_array(&b->array, length, offset, 1, b->buffers);
    b->schema.children = b->schema_children;
    b->array.children = b->array_children;
}

static child *add_child(batch *b, const char *format, const char *name) {
    child *c = &b->children[b->count];
    init_schema(&c->schema, format, name);
    b->schema_children[b->count] = &c->schema;
    b->array_children[b->count] = &c->array;
    b->count++;
    b->schema.n_children = b->array.n_children = b->count;
    return c;
}

/* Sets validity bit `bit` (allocated as needed). */
static void set_valid(uint8_t *bitmap, size_t bit) { bitmap[bit / 8] |= (uint8_t)(1u << (bit % 8)); }

/* Field `field`'s column as a child of b: `lead` records before the batch's first (bytes that are not
   UTF-8 where `garbage`), the values, then two trailing records; child offset `child_offset`, struct
   offset b->array.offset, so lead == struct offset + child offset. */
static child *string_child(batch *b, const char *name, enum kind kind, const char **values, size_t records, int field,
                           size_t lead, int64_t child_offset) {
    size_t physical = lead + records + 2, r, size = 0, at = 0;
    int large = kind == LARGE_UTF8;
    child *c = add_child(b, kind == UTF8 ? "u" : kind == LARGE_UTF8 ? "U" : kind == STRING_VIEW ? "vu" : "i", name);
    uint8_t *validity = zalloc((physical + 7) / 8);
    int64_t nulls = 0;
    const char **all = zalloc(physical * sizeof *all);
    for (r = 0; r < physical; r++) {
        all[r] = r < lead ? "\xff\xfe" : r < lead + records ? values[(r - lead) * FIELDS + (size_t)field] : "tail";
        if (all[r]) { set_valid(validity, r); size += strlen(all[r]); } else nulls++;
    }
    if (kind == UTF8 || kind == LARGE_UTF8) {
        char *data = zalloc(size);
        void *offsets = zalloc((physical + 1) * 8);
        for (r = 0; r <= physical; r++) {
            if (large) ((int64_t *)offsets)[r] = (int64_t)at;
            else ((int32_t *)offsets)[r] = (int32_t)at;
            if (r < physical && all[r]) { memcpy(data + at, all[r], strlen(all[r])); at += strlen(all[r]); }
        }
        c->buffers[0] = nulls ? validity : NULL;
        c->buffers[1] = offsets;
        c->buffers[2] = data;
        c->memory[0] = validity; c->memory[1] = offsets; c->memory[2] = data;
        init_array(&c->array, (int64_t)physical - child_offset, child_offset, 3, c->buffers);
    } else if (kind == STRING_VIEW) {
        /* Short values inline; long ones in one of two data buffers, alternately. */
        uint8_t *views = zalloc(physical * 16);
        char *data[2];
        int64_t *sizes = zalloc(2 * sizeof *sizes);
        data[0] = zalloc(size);
        data[1] = zalloc(size);
        for (r = 0; r < physical; r++) {
            int32_t length = all[r] ? (int32_t)strlen(all[r]) : 0;
            memcpy(views + r * 16, &length, 4);
            if (length <= 12) {
                if (length > 0) memcpy(views + r * 16 + 4, all[r], (size_t)length);
            } else {
                int32_t index = (int32_t)(r % 2), offset = (int32_t)sizes[index];
                memcpy(views + r * 16 + 4, all[r], 4);
                memcpy(views + r * 16 + 8, &index, 4);
                memcpy(views + r * 16 + 12, &offset, 4);
                memcpy(data[index] + offset, all[r], (size_t)length);
                sizes[index] += length;
            }
        }
        c->buffers[0] = nulls ? validity : NULL;
        c->buffers[1] = views;
        c->buffers[2] = data[0];
        c->buffers[3] = data[1];
        c->buffers[4] = sizes;
        c->memory[0] = validity; c->memory[1] = views; c->memory[2] = data[0]; c->memory[3] = data[1];
        c->memory[4] = sizes;
        init_array(&c->array, (int64_t)physical - child_offset, child_offset, 5, c->buffers);
    } else {
        /* int32 indices into a utf8 dictionary of the distinct values (one extra null entry and one
           entry that is not UTF-8, neither referenced), in first-seen order. */
        const char **distinct = zalloc((physical + 2) * sizeof *distinct);
        int32_t *indices = zalloc(physical * sizeof *indices), *offsets;
        size_t n = 2, d;
        char *data;
        uint8_t *dictionary_validity;
        distinct[0] = NULL;
        distinct[1] = "\xc3(";
        for (r = 0; r < physical; r++) {
            if (!all[r]) continue;
            for (d = 2; d < n && strcmp(distinct[d], all[r]) != 0; d++) {}
            if (d == n) distinct[n++] = all[r];
            indices[r] = (int32_t)d;
        }
        offsets = zalloc((n + 1) * sizeof *offsets);
        data = zalloc(size + 2);
        dictionary_validity = zalloc((n + 7) / 8);
        for (d = 0; d < n; d++) {
            offsets[d] = (int32_t)at;
            if (distinct[d]) { memcpy(data + at, distinct[d], strlen(distinct[d])); at += strlen(distinct[d]); set_valid(dictionary_validity, d); }
        }
        offsets[n] = (int32_t)at;
        c->buffers[0] = nulls ? validity : NULL;
        c->buffers[1] = indices;
        c->memory[0] = validity; c->memory[1] = indices; c->memory[2] = offsets; c->memory[3] = data;
        c->memory[4] = dictionary_validity;
        init_array(&c->array, (int64_t)physical - child_offset, child_offset, 2, c->buffers);
        init_schema(&c->dictionary_schema, "u", NULL);
        c->schema.dictionary = &c->dictionary_schema;
        c->dictionary_buffers[0] = dictionary_validity;
        c->dictionary_buffers[1] = offsets;
        c->dictionary_buffers[2] = data;
        init_array(&c->dictionary_array, (int64_t)n, 0, 3, c->dictionary_buffers);
        c->dictionary_array.null_count = 1;
        c->array.dictionary = &c->dictionary_array;
        free(distinct);
    }
    c->array.null_count = nulls;
    free(all);
    return c;
}

static void free_batch(batch *b) {
    int i, k;
    for (i = 0; i < b->count; i++)
        for (k = 0; k < 6; k++) free(b->children[i].memory[k]);
    free(b->validity);
}

/* fw_columns (int32 offsets, unsliced) of the same values: the reference. */
typedef struct {
    fw_column columns[FIELDS];
    void *memory[3 * FIELDS];
    int count;
} reference_columns;

static void reference_column(reference_columns *ref, const char *id, const char **values, size_t records, int field,
                             const uint8_t *record_nulls) {
    fw_column *col = &ref->columns[ref->count];
    size_t r, size = 0, at = 0;
    int32_t *offsets = zalloc((records + 1) * sizeof *offsets);
    uint8_t *validity = zalloc((records + 7) / 8);
    char *data;
    for (r = 0; r < records; r++) if (values[r * FIELDS + (size_t)field]) size += strlen(values[r * FIELDS + (size_t)field]);
    data = zalloc(size);
    for (r = 0; r < records; r++) {
        const char *v = values[r * FIELDS + (size_t)field];
        offsets[r] = (int32_t)at;
        if (v && !(record_nulls && record_nulls[r])) {
            memcpy(data + at, v, strlen(v));
            at += strlen(v);
            set_valid(validity, r);
        }
    }
    offsets[records] = (int32_t)at;
    memset(col, 0, sizeof *col);
    col->size = sizeof *col;
    col->field_id = id;
    col->offsets = offsets;
    col->data = data;
    col->data_size = at;
    col->validity = validity;
    col->offset_size = 4;
    ref->memory[3 * ref->count] = offsets;
    ref->memory[3 * ref->count + 1] = validity;
    ref->memory[3 * ref->count + 2] = data;
    ref->count++;
}

static void free_reference(reference_columns *ref) {
    int i;
    for (i = 0; i < 3 * ref->count; i++) free(ref->memory[i]);
}

/* ---- comparisons ---- */

/* fw_form_check_arrow on b against fw_form_check_batch on ref: every output equal, and every
   message of a sample of records equal to fw_form_batch_message's. */
static void compare_with_batch(int line, fw_form *form, batch *b, reference_columns *ref, size_t records, int32_t threads) {
    uint8_t *valid = zalloc(records), *flags = zalloc(records * FIELDS), *ref_valid = zalloc(records);
    uint8_t *ref_flags = zalloc(records * FIELDS);
    int32_t *rules = zalloc(records * FIELDS * sizeof *rules), *ref_rules = zalloc(records * FIELDS * sizeof *rules);
    size_t invalid = 0, ref_invalid = 1, r;
    int f, same;
    CHECK_OK(fw_form_check_arrow(form, &b->schema, &b->array, threads, valid, rules, flags, &invalid));
    CHECK_OK(fw_form_check_batch(form, ref->columns, (size_t)ref->count, records, 1, ref_valid, ref_rules, ref_flags,
                                 &ref_invalid));
    same = memcmp(valid, ref_valid, records) == 0 && memcmp(flags, ref_flags, records * FIELDS) == 0
        && memcmp(rules, ref_rules, records * FIELDS * sizeof *rules) == 0 && invalid == ref_invalid;
    check_count++;
    if (!same) {
        check_failures++;
        fprintf(stderr, "%s:%d: fw_form_check_arrow and fw_form_check_batch differ (invalid %zu vs %zu)\n", __FILE__,
                line, invalid, ref_invalid);
        for (r = 0; r < records; r++) {
            for (f = 0; f < FIELDS; f++) {
                if (rules[r * FIELDS + (size_t)f] != ref_rules[r * FIELDS + (size_t)f]) {
                    fprintf(stderr, "  record %zu field %d: arrow rule %d, batch rule %d\n", r, f,
                            (int)rules[r * FIELDS + (size_t)f], (int)ref_rules[r * FIELDS + (size_t)f]);
                    break;
                }
            }
        }
    }
    CHECK(records == 0 || invalid > 0);
    for (r = 0; r < records; r += 7) {
        for (f = 0; f < FIELDS; f++) {
            char arrow_message[256], batch_message[256];
            size_t length = 0;
            CHECK_OK(fw_form_arrow_message(form, &b->schema, &b->array, r, (size_t)f, arrow_message, sizeof arrow_message,
                                           &length));
            CHECK_OK(fw_form_batch_message(form, ref->columns, (size_t)ref->count, records, r, (size_t)f, batch_message,
                                           sizeof batch_message, NULL));
            CHECK_STR(arrow_message, batch_message);
            CHECK(length == strlen(arrow_message));
        }
    }
    free(valid); free(flags); free(rules); free(ref_valid); free(ref_flags); free(ref_rules);
}

/* Record r against a submit of a fresh form holding its values (fields without a column untouched). */
static void compare_with_submits(fw_form *form, batch *b, const char **values, size_t records, const int *has_column,
                                 const uint8_t *record_nulls) {
    uint8_t *valid = zalloc(records), *flags = zalloc(records * FIELDS);
    int32_t *rules = zalloc(records * FIELDS * sizeof *rules);
    size_t r;
    CHECK_OK(fw_form_check_arrow(form, &b->schema, &b->array, 0, valid, rules, flags, NULL));
    for (r = 0; r < records; r++) {
        fw_form *fresh = registration();
        bool submitted = false;
        int f;
        for (f = 0; f < FIELDS; f++) {
            const char *v = values[r * FIELDS + (size_t)f];
            if (record_nulls && record_nulls[r]) v = NULL;
            if (has_column[f]) CHECK_OK(fw_field_set_value(fresh, field_ids[f], v ? v : ""));
        }
        CHECK_OK(fw_form_validate(fresh, &submitted));
        CHECK(submitted == (valid[r] == 1));
        for (f = 0; f < FIELDS; f++) {
            fw_snapshot snap;
            char texts[512], message[256];
            memset(&snap, 0, sizeof snap);
            snap.size = sizeof snap;
            CHECK_OK(fw_field_snapshot_at(fresh, (size_t)f, &snap, texts, sizeof texts));
            CHECK(snap.failing_rule == rules[r * FIELDS + (size_t)f]);
            CHECK(flags[r * FIELDS + (size_t)f] == 0);
            CHECK_OK(fw_form_arrow_message(form, &b->schema, &b->array, r, (size_t)f, message, sizeof message, NULL));
            CHECK_STR(message, snap.display_message ? snap.display_message : "?");
        }
        fw_form_free(fresh);
    }
    free(valid); free(flags); free(rules);
}

/* ---- the cases ---- */

/* Every layout over the same generated records: verdicts as fw_form_check_batch's. */
static void layouts(void) {
    static const struct {
        enum kind kind;
        int nulls;
        size_t lead;          /* struct offset + child offset */
        int64_t struct_offset;
        int submits;
    } cases[] = {
        {UTF8, 0, 0, 0, 1},
        {UTF8, 1, 0, 0, 0},
        {LARGE_UTF8, 1, 5, 0, 1},    /* child offset 5: validity bit offset 5 */
        {UTF8, 1, 13, 3, 0},         /* struct offset 3 + child offset 10: bit offset 13 */
        {LARGE_UTF8, 1, 9, 9, 0},    /* struct offset 9 only */
        {STRING_VIEW, 1, 11, 4, 0},
        {STRING_VIEW, 0, 0, 0, 0},
        {DICTIONARY, 1, 6, 2, 0},
        {DICTIONARY, 0, 0, 0, 0},
    };
    size_t records = 300, k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char **values = generate(records, cases[k].nulls);
        static const int all_columns[FIELDS] = {1, 1, 1, 1, 1};
        batch b;
        reference_columns ref;
        fw_form *form = registration();
        int f;
        init_batch(&b, (int64_t)records, cases[k].struct_offset);
        memset(&ref, 0, sizeof ref);
        /* An unknown column of another type first, then the fields in reverse order. */
        add_child(&b, "l", "age");
        init_array(&b.children[0].array, 0, 0, 0, NULL); /* lies freely: never looked at */
        for (f = FIELDS - 1; f >= 0; f--) {
            string_child(&b, field_ids[f], cases[k].kind, values, records, f, cases[k].lead,
                         (int64_t)cases[k].lead - cases[k].struct_offset);
            reference_column(&ref, field_ids[f], values, records, f, NULL);
        }
        compare_with_batch(__LINE__, form, &b, &ref, records, 1);
        compare_with_batch(__LINE__, form, &b, &ref, records, 0);
        if (cases[k].submits) compare_with_submits(form, &b, values, records, all_columns, NULL);
        free_reference(&ref);
        free_batch(&b);
        free(values);
        fw_form_free(form);
    }
}

/* Dictionary indices of every integer type, over a three-value dictionary. */
static void dictionary_index_types(void) {
    static const char *const formats[] = {"c", "C", "s", "S", "i", "I", "l", "L"};
    static const int widths[] = {1, 1, 2, 2, 4, 4, 8, 8};
    static const char dictionary_data[] = "ada@example.comada@x@y.co";
    static const int32_t dictionary_offsets[] = {0, 15, 19, 25};
    static const uint8_t want_valid[] = {0, 1, 1, 0}; /* "ada@", "ada@example.com", "x@y.co", "ada@" (and no name) */
    size_t k;
    for (k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        /* Records: indices 1, 0, 2, 1; four more name columns so that the form can pass. */
        uint8_t indices[4 * 8];
        const uint8_t order[4] = {1, 0, 2, 1};
        const void *buffers[2], *dictionary_buffers[3];
        static const char names[] = "AdaAdaAda";
        static const int32_t name_offsets[] = {0, 3, 6, 9, 9};
        static const char users[] = "ada_lada_lada_lada_l";
        static const int32_t user_offsets[] = {0, 5, 10, 15, 20};
        static const char pw[] = "Secret123Secret123Secret123Secret123";
        static const int32_t pw_offsets[] = {0, 9, 18, 27, 36};
        batch b;
        child *c;
        fw_form *form = registration();
        uint8_t valid[4];
        int32_t rules[4 * FIELDS];
        size_t r, invalid = 0;
        memset(indices, 0, sizeof indices);
        for (r = 0; r < 4; r++) {
            /* little-endian: the low byte first */
            indices[r * (size_t)widths[k]] = order[r];
        }
        init_batch(&b, 4, 0);
        c = add_child(&b, formats[k], "email");
        buffers[0] = NULL;
        buffers[1] = indices;
        init_array(&c->array, 4, 0, 2, buffers);
        init_schema(&c->dictionary_schema, "u", NULL);
        c->schema.dictionary = &c->dictionary_schema;
        dictionary_buffers[0] = NULL;
        dictionary_buffers[1] = dictionary_offsets;
        dictionary_buffers[2] = dictionary_data;
        init_array(&c->dictionary_array, 3, 0, 3, dictionary_buffers);
        c->array.dictionary = &c->dictionary_array;
        c = add_child(&b, "u", "name");
        c->buffers[1] = name_offsets; c->buffers[2] = names;
        init_array(&c->array, 4, 0, 3, c->buffers);
        c = add_child(&b, "u", "username");
        c->buffers[1] = user_offsets; c->buffers[2] = users;
        init_array(&c->array, 4, 0, 3, c->buffers);
        c = add_child(&b, "u", "password");
        c->buffers[1] = pw_offsets; c->buffers[2] = pw;
        init_array(&c->array, 4, 0, 3, c->buffers);
        c = add_child(&b, "u", "confirm");
        c->buffers[1] = pw_offsets; c->buffers[2] = pw;
        init_array(&c->array, 4, 0, 3, c->buffers);
        CHECK_OK(fw_form_check_arrow(form, &b.schema, &b.array, 1, valid, rules, NULL, &invalid));
        CHECK(memcmp(valid, want_valid, 4) == 0);
        CHECK(invalid == 2);
        CHECK(rules[0 * FIELDS + 1] == 1 && rules[1 * FIELDS + 1] == -1 && rules[2 * FIELDS + 1] == -1);
        CHECK(rules[3 * FIELDS + 0] == 0 && rules[3 * FIELDS + 1] == 1 && rules[2 * FIELDS + 0] == -1);
        /* An index past the dictionary (3) or negative (0xFF: -1 signed, 255 unsigned). */
        indices[2 * (size_t)widths[k]] = 3;
        CHECK_STATUS(fw_form_check_arrow(form, &b.schema, &b.array, 1, valid, rules, NULL, &invalid), FW_ERR_INVALID_ARGUMENT);
        {
            char detail[256];
            fw_last_error_message(detail, sizeof detail, NULL);
            CHECK_STR(detail, "column 'email', record 2: dictionary index 3 is out of range (the dictionary has 3 values)");
        }
        memset(indices + 2 * (size_t)widths[k], 0xFF, (size_t)widths[k]);
        CHECK_STATUS(fw_form_check_arrow(form, &b.schema, &b.array, 1, valid, rules, NULL, &invalid), FW_ERR_INVALID_ARGUMENT);
        free_batch(&b);
        fw_form_free(form);
    }
}

/* Nulls in the struct itself: every column of a null record reads "". */
static void struct_nulls(void) {
    size_t records = 200, r;
    const char **values = generate(records, 1);
    uint8_t *record_nulls = zalloc(records);
    static const int all_columns[FIELDS] = {1, 1, 1, 1, 1};
    batch b;
    reference_columns ref;
    fw_form *form = registration();
    int f, k;
    size_t lead = 21;
    for (k = 0; k < 2; k++) {
        enum kind kind = k == 0 ? UTF8 : STRING_VIEW;
        int64_t nulls = 0;
        init_batch(&b, (int64_t)records, 5);
        b.validity = zalloc((5 + records + 7) / 8);
        for (r = 0; r < records; r++) {
            record_nulls[r] = next_random() % 5 == 0;
            if (!record_nulls[r]) set_valid(b.validity, 5 + r); else nulls++;
        }
        b.buffers[0] = b.validity;
        b.array.null_count = nulls;
        memset(&ref, 0, sizeof ref);
        for (f = 0; f < FIELDS; f++) {
            string_child(&b, field_ids[f], kind, values, records, f, lead, (int64_t)lead - 5);
            reference_column(&ref, field_ids[f], values, records, f, record_nulls);
        }
        compare_with_batch(__LINE__, form, &b, &ref, records, 0);
        if (k == 0) compare_with_submits(form, &b, values, records, all_columns, record_nulls);
        free_reference(&ref);
        free_batch(&b);
    }
    free(record_nulls);
    free(values);
    fw_form_free(form);
}

/* Fields without a column hold their initial value; unnamed children and unknown ones of any type,
   however malformed, are ignored. */
static void missing_and_unknown_columns(void) {
    size_t records = 150, r;
    const char **values = generate(records, 0);
    static const int has_column[FIELDS] = {0, 1, 0, 1, 0};
    batch b;
    reference_columns ref;
    fw_form *form = registration();
    fw_form *initial = NULL;
    child *c;
    uint8_t valid[150];
    int32_t rules[150 * FIELDS];
    init_batch(&b, (int64_t)records, 0);
    memset(&ref, 0, sizeof ref);
    c = add_child(&b, "+s", "address");          /* a nested struct with no children and no buffers */
    init_array(&c->array, -4, -1, 7, NULL);
    c = add_child(&b, "u", NULL);                /* a column without a name */
    init_array(&c->array, 0, 0, 0, NULL);
    string_child(&b, "password", UTF8, values, records, 3, 0, 0);
    c = add_child(&b, "z", "avatar");            /* binary */
    init_array(&c->array, 1, 0, 3, NULL);
    c->array.release = NULL;                     /* even released: never looked at */
    string_child(&b, "email", LARGE_UTF8, values, records, 1, 0, 0);
    c = add_child(&b, "u", "Email");             /* ids are compared exactly */
    init_array(&c->array, 0, 0, 0, NULL);
    reference_column(&ref, "password", values, records, 3, NULL);
    reference_column(&ref, "email", values, records, 1, NULL);
    compare_with_batch(__LINE__, form, &b, &ref, records, 1);
    compare_with_submits(form, &b, values, records, has_column, NULL);
    CHECK_OK(fw_form_check_arrow(form, &b.schema, &b.array, 1, valid, rules, NULL, NULL));
    for (r = 0; r < records; r++) {
        CHECK(valid[r] == 0);                     /* name "" fails required */
        CHECK(rules[r * FIELDS + 0] == 0 && rules[r * FIELDS + 2] == 0 && rules[r * FIELDS + 4] == 0);
    }
    /* With initial values, the fields without a column read them. */
    CHECK_OK(fw_form_create(&initial));
    CHECK_OK(fw_form_load_spec(initial,
        "{\"formwell\": 1, \"fields\": ["
        "{\"id\": \"name\", \"initial\": \"Ada\", \"rules\": [{\"rule\": \"required\"}]},"
        "{\"id\": \"email\", \"rules\": [{\"rule\": \"email\"}]},"
        "{\"id\": \"password\", \"rules\": []},"
        "{\"id\": \"confirm\", \"initial\": \"Secret123\", \"rules\": [{\"rule\": \"matches\", \"field\": \"password\"}]}]}"));
    CHECK_OK(fw_form_check_arrow(initial, &b.schema, &b.array, 1, valid, rules, NULL, NULL));
    for (r = 0; r < records; r++) {
        const char *password = values[r * FIELDS + 3];
        CHECK(rules[r * 4 + 0] == -1);
        CHECK(rules[r * 4 + 3] == (strcmp(password, "Secret123") == 0 ? -1 : 0));
    }
    fw_form_free(initial);
    free_reference(&ref);
    free_batch(&b);
    free(values);
    fw_form_free(form);
}

/* ---- hostile structs ---- */

/* A valid two-record batch: email (utf8) and password (large_utf8), with nulls; hostile cases break
   one thing each and put it back. */
typedef struct {
    batch b;
    int32_t email_offsets[4];
    int64_t password_offsets[4];
    uint8_t email_validity[1];
    const void *view_buffers[4];
    uint8_t views[3 * 16];
    int64_t view_sizes[1];
} fixture;

static const char email_data[] = "ada@example.comx@y.co";
static const char password_data[] = "Secret123short";

static void init_fixture(fixture *x) {
    child *c;
    memset(x, 0, sizeof *x);
    init_batch(&x->b, 2, 1);
    x->email_offsets[0] = 0; x->email_offsets[1] = 15; x->email_offsets[2] = 15; x->email_offsets[3] = 21;
    x->email_validity[0] = 0x5;  /* records: [0] "ada@example.com", [1] null, [2] "x@y.co" */
    c = add_child(&x->b, "u", "email");
    c->buffers[0] = x->email_validity; c->buffers[1] = x->email_offsets; c->buffers[2] = email_data;
    init_array(&c->array, 3, 0, 3, c->buffers);
    c->array.null_count = 1;
    x->password_offsets[0] = 0; x->password_offsets[1] = 9; x->password_offsets[2] = 14; x->password_offsets[3] = 14;
    c = add_child(&x->b, "U", "password");
    c->buffers[1] = x->password_offsets; c->buffers[2] = password_data;
    init_array(&c->array, 3, 0, 3, c->buffers);
}

static int hostile_count = 0;

/* Both entry points refuse (schema, array) with `expected` and exactly `detail`, leaving the buffer
   "" as the failure convention says. fw_form_arrow_message (asked for record 0) checks the offsets and
   values of that record only: where its detail differs, `message_detail` is it, NULL when record 0 is
   fine (the call then succeeds). */
static void refused_twice_at(int line, fw_form *form, const struct ArrowSchema *schema, const struct ArrowArray *array,
                             fw_status expected, const char *detail, const char *message_detail) {
    uint8_t valid[4] = {7, 7, 7, 7};
    int32_t rules[4 * FIELDS];
    size_t invalid = 99;
    char got[512], buf[64];
    fw_status status = fw_form_check_arrow(form, schema, array, 1, valid, rules, NULL, &invalid);
    hostile_count++;
    fw_last_error_message(got, sizeof got, NULL);
    check_count++;
    if (status != expected || strcmp(got, detail) != 0 || fw_last_error_code() != expected) {
        check_failures++;
        fprintf(stderr, "%s:%d: fw_form_check_arrow returned %s \"%s\", expected %s \"%s\"\n", __FILE__, line,
                fw_status_string(status), got, fw_status_string(expected), detail);
    }
    strcpy(buf, "stale");
    status = fw_form_arrow_message(form, schema, array, 0, 1, buf, sizeof buf, NULL);
    fw_last_error_message(got, sizeof got, NULL);
    check_count++;
    if (!message_detail) {
        if (status != FW_OK) {
            check_failures++;
            fprintf(stderr, "%s:%d: fw_form_arrow_message returned %s \"%s\", expected ok\n", __FILE__, line,
                    fw_status_string(status), got);
        }
        return;
    }
    if (status != expected || strcmp(got, message_detail) != 0 || strcmp(buf, "") != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: fw_form_arrow_message returned %s \"%s\" (buf \"%s\"), expected %s \"%s\"\n", __FILE__,
                line, fw_status_string(status), got, buf, fw_status_string(expected), message_detail);
    }
}
static void refused_at(int line, fw_form *form, const struct ArrowSchema *schema, const struct ArrowArray *array,
                       fw_status expected, const char *detail) {
    refused_twice_at(line, form, schema, array, expected, detail, detail);
}
#define REFUSED(x, expected, detail) refused_at(__LINE__, form, &(x).b.schema, &(x).b.array, expected, detail)
#define REFUSED2(x, expected, detail, message_detail) \
    refused_twice_at(__LINE__, form, &(x).b.schema, &(x).b.array, expected, detail, message_detail)

static void hostile(void) {
    fw_form *form = registration();
    fixture x;
    struct ArrowSchema *saved_schema;
    struct ArrowArray *saved_array;
    uint8_t valid[4];
    int32_t rules[4 * FIELDS];
    size_t invalid = 0;
    char buf[128];
    static const int32_t decreasing[] = {0, 15, 10, 21}, negative[] = {-1, 15, 15, 21}, negative_last[] = {0, 15, 15, -3};
    static const int32_t past[] = {0, 30, 15, 21};
    static const int64_t wide_decreasing[] = {0, 9, 3, 14};

    init_fixture(&x);
    /* The fixture itself: records 1 and 2 of the children (struct offset 1). */
    CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, rules, NULL, &invalid));
    CHECK(invalid == 2 && rules[0 * FIELDS + 1] == 0 && rules[1 * FIELDS + 1] == -1);
    CHECK(rules[0 * FIELDS + 3] == 1 && rules[1 * FIELDS + 3] == 0); /* "short", then "" */
    CHECK_OK(fw_form_arrow_message(form, &x.b.schema, &x.b.array, 1, 3, buf, sizeof buf, NULL));
    CHECK_STR(buf, "This field is required");
    CHECK_OK(fw_form_arrow_message(form, &x.b.schema, &x.b.array, 0, 3, buf, sizeof buf, NULL));
    CHECK_STR(buf, "Must be at least 8 characters");
    CHECK_STATUS(fw_form_arrow_message(form, &x.b.schema, &x.b.array, 2, 0, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    fw_last_error_message(buf, sizeof buf, NULL);
    CHECK_STR(buf, "record 2 is out of range (2 records)");
    CHECK_STATUS(fw_form_arrow_message(form, &x.b.schema, &x.b.array, 0, 5, buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_arrow_message(form, &x.b.schema, &x.b.array, 0, 1, buf, 4, NULL), FW_ERR_BUFFER_TOO_SMALL);
    /* The form's own state is left alone. */
    CHECK_FIELD(form, "email", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", false);

    /* NULL pointers and released structs. */
    refused_at(__LINE__, form, NULL, &x.b.array, FW_ERR_NULL_ARGUMENT, "argument 'schema' is NULL");
    refused_at(__LINE__, form, &x.b.schema, NULL, FW_ERR_NULL_ARGUMENT, "argument 'array' is NULL");
    x.b.schema.release = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "schema has been released or moved (its release callback is NULL)");
    x.b.schema.release = count_schema_release;
    x.b.array.release = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array has been released or moved (its release callback is NULL)");
    x.b.array.release = count_array_release;
    x.b.children[0].schema.release = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': its schema has been released (release callback is NULL)");
    x.b.children[0].schema.release = count_schema_release;
    x.b.children[1].array.release = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'password': its array has been released (release callback is NULL)");
    x.b.children[1].array.release = count_array_release;

    /* The struct. */
    x.b.schema.format = "i";
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "schema: format \"i\" (int32) is not a struct (\"+s\"): pass a record batch or a struct array");
    x.b.schema.format = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "schema: format is NULL");
    x.b.schema.format = "+s";
    x.b.array.length = -1;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: length is -1");
    x.b.array.length = 2;
    x.b.array.offset = -2;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: offset is -2");
    x.b.array.offset = 1;
    x.b.array.null_count = -2;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: null_count is -2");
    x.b.array.null_count = -1;   /* "not computed": fine */
    CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, rules, NULL, &invalid));
    x.b.array.null_count = 1;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: null_count is 1 but the validity bitmap is NULL");
    x.b.array.null_count = 0;
    x.b.array.length = (int64_t)1 << 40;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: length 1099511627776 is too large (at most 2147483646 records)");
    x.b.array.length = 2;
    x.b.array.offset = ((int64_t)1 << 40) + 1;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: offset 1099511627777 and length 2 are too large");
    x.b.array.offset = 1;
    x.b.array.n_children = 3;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: n_children is 3 but the schema's is 2");
    x.b.schema.n_children = -1;
    x.b.array.n_children = -1;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "schema: n_children is -1");
    x.b.schema.n_children = x.b.array.n_children = 2;
    x.b.array.n_buffers = 0;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: n_buffers is 0; a struct array has 1 (its validity bitmap)");
    x.b.array.n_buffers = 1;
    x.b.array.buffers = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: buffers is NULL (n_buffers is 1)");
    x.b.array.buffers = x.b.buffers;
    x.b.schema.children = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "schema: children is NULL (n_children is 2)");
    x.b.schema.children = x.b.schema_children;
    x.b.array.children = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: children is NULL (n_children is 2)");
    x.b.array.children = x.b.array_children;
    saved_schema = x.b.schema_children[1];
    x.b.schema_children[1] = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "schema: children[1] is NULL");
    x.b.schema_children[1] = saved_schema;
    saved_array = x.b.array_children[0];
    x.b.array_children[0] = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "array: children[0] is NULL");
    x.b.array_children[0] = saved_array;

    /* Names. */
    x.b.children[1].schema.name = "email";
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': named twice (children 0 and 1)");
    x.b.children[1].schema.name = "pass\xc3";
    REFUSED(x, FW_ERR_INVALID_UTF8, "argument 'schema.children[1]->name' is not valid UTF-8 (first bad byte at offset 4)");
    x.b.children[1].schema.name = "password";

    /* Types. */
    x.b.children[0].schema.format = "l";
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': format \"l\" (int64) is not a string type");
    x.b.children[0].schema.format = "z";
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': format \"z\" (binary) is not a string type");
    x.b.children[0].schema.format = "tss:UTC";
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': format \"tss:UTC\" (timestamp) is not a string type");
    x.b.children[0].schema.format = "+w:3";
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': format \"+w:3\" (fixed_size_list) is not a string type");
    x.b.children[0].schema.format = "whatever";
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': format \"whatever\" is not a string type");
    x.b.children[0].schema.format = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': format is NULL");
    x.b.children[0].schema.format = "u";

    /* A child's counts and buffers. */
    x.b.children[0].array.length = 2;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': length 2 is less than the struct's offset + length (1 + 2)");
    x.b.children[0].array.length = -3;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': length is -3");
    x.b.children[0].array.length = 3;
    x.b.children[0].array.offset = -1;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': offset is -1");
    x.b.children[0].array.offset = 0;
    x.b.children[0].array.null_count = -7;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': null_count is -7");
    x.b.children[0].array.null_count = 1;
    x.b.children[0].array.n_buffers = 2;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': n_buffers is 2; utf8 has 3");
    x.b.children[1].array.n_buffers = 4;
    x.b.children[0].array.n_buffers = 3;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'password': n_buffers is 4; large_utf8 has 3");
    x.b.children[1].array.n_buffers = 3;
    x.b.children[0].array.buffers = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': buffers is NULL (n_buffers is 3)");
    x.b.children[0].array.buffers = x.b.children[0].buffers;
    x.b.children[0].buffers[0] = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': null_count is 1 but the validity bitmap is NULL");
    x.b.children[0].buffers[0] = x.email_validity;
    x.b.children[0].buffers[1] = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': the offsets buffer is NULL (length 3)");
    {
        /* Offsets not aligned to their width are copied (the values are still read in place). */
        int64_t narrow[3], wide[5];
        memcpy((uint8_t *)narrow + 2, x.email_offsets, sizeof x.email_offsets);
        x.b.children[0].buffers[1] = (uint8_t *)narrow + 2;
        memcpy((uint8_t *)wide + 5, x.password_offsets, sizeof x.password_offsets);
        x.b.children[1].buffers[1] = (uint8_t *)wide + 5;
        memset(valid, 9, sizeof valid);
        CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, rules, NULL, &invalid));
        CHECK(invalid == 2 && rules[0 * FIELDS + 1] == 0 && rules[1 * FIELDS + 1] == -1 && valid[0] == 0);
    }
    x.b.children[0].buffers[1] = x.email_offsets;
    x.b.children[1].buffers[1] = x.password_offsets;
    x.b.children[0].buffers[2] = NULL;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': the data buffer is NULL but the offsets reach 21");
    x.b.children[0].buffers[2] = email_data;

    /* Offsets and values (records count from the struct's offset: child index 1 is record 0). */
    x.b.children[0].buffers[1] = decreasing;
    REFUSED2(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 0: offsets decrease (15 then 10)",
             "column 'email', record 0: offsets 15..10 are not within the data (21 bytes)");
    x.b.children[0].buffers[1] = past;   /* 30 past the last offset (21), the data's size as far as anyone can tell */
    REFUSED2(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 0: offset 30 is outside the data (21 bytes)",
             "column 'email', record 0: offsets 30..15 are not within the data (21 bytes)");
    x.b.children[0].buffers[1] = negative_last;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 1: offset -3 is negative");
    x.b.array.offset = 0;
    x.b.children[0].array.offset = 0;
    x.b.children[0].buffers[1] = negative;
    REFUSED2(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 0: offset -1 is outside the data (15 bytes)",
             "column 'email', record 0: offsets -1..15 are not within the data (15 bytes)");
    x.b.array.offset = 1;
    x.b.children[0].buffers[1] = x.email_offsets;
    x.b.children[1].buffers[1] = wide_decreasing;
    REFUSED2(x, FW_ERR_INVALID_ARGUMENT, "column 'password', record 0: offsets decrease (9 then 3)",
             "column 'password', record 0: offsets 9..3 are not within the data (14 bytes)");
    x.b.children[1].buffers[1] = x.password_offsets;
    x.b.children[1].buffers[2] = "Secret123sh\xffrt";
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'password', record 0: invalid UTF-8 at byte 3 of the value");
    x.b.children[1].buffers[2] = password_data;
    /* Bytes only a null slot covers are never judged. */
    x.b.children[0].buffers[2] = "ada@example.com\xff\xffy.co";
    x.email_offsets[2] = 17;
    CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, rules, NULL, &invalid));
    x.email_validity[0] = 0x7;
    REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 0: invalid UTF-8 at byte 1 of the value");
    x.email_validity[0] = 0x5;
    x.email_offsets[2] = 15;
    x.b.children[0].buffers[2] = email_data;
    CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, rules, NULL, &invalid));

    /* string_view. */
    {
        child *c = &x.b.children[0];
        int32_t length = 15, index = 0, offset = 0, inline_length = 6;
        memset(x.views, 0, sizeof x.views);
        memcpy(x.views + 0, &length, 4);
        memcpy(x.views + 4, "ada@", 4);
        memcpy(x.views + 8, &index, 4);
        memcpy(x.views + 12, &offset, 4);
        memcpy(x.views + 32, &inline_length, 4);
        memcpy(x.views + 36, "x@y.co", 6);
        x.view_sizes[0] = 15;
        x.view_buffers[0] = x.email_validity;
        x.view_buffers[1] = x.views;
        x.view_buffers[2] = email_data;
        x.view_buffers[3] = x.view_sizes;
        c->schema.format = "vu";
        c->array.buffers = x.view_buffers;
        c->array.n_buffers = 4;
        x.b.array.offset = 0;
        x.b.array.length = 3;
        CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, rules, NULL, &invalid));
        CHECK(rules[0 * FIELDS + 1] == -1 && rules[1 * FIELDS + 1] == 0);
        c->array.n_buffers = 2;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': n_buffers is 2; string_view has at least 3");
        c->array.n_buffers = 4;
        x.view_buffers[1] = NULL;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': the views buffer is NULL (length 3)");
        x.view_buffers[1] = x.views;
        x.view_buffers[3] = NULL;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': the variadic buffer sizes buffer is NULL (1 data buffers)");
        x.view_buffers[3] = x.view_sizes;
        x.view_buffers[2] = NULL;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': data buffer 0 is NULL but its size is 15");
        x.view_buffers[2] = email_data;
        x.view_sizes[0] = -1;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': data buffer 0 has size -1");
        x.view_sizes[0] = 14;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 0: the view's bytes 0..<15 are past the end of data buffer 0 (14 bytes)");
        x.view_sizes[0] = 15;
        index = 1;
        memcpy(x.views + 8, &index, 4);
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 0: the view names data buffer 1 (there are 1)");
        index = 0;
        memcpy(x.views + 8, &index, 4);
        length = -5;
        memcpy(x.views + 0, &length, 4);
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 0: the view's length is -5");
        length = 15;
        memcpy(x.views + 0, &length, 4);
        x.views[37] = (uint8_t)0xC0;
        REFUSED2(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 2: invalid UTF-8 at byte 2 of the value", NULL);
        x.views[37] = '@';
        CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, rules, NULL, &invalid));
        c->schema.format = "u";
        c->array.buffers = c->buffers;
        c->array.n_buffers = 3;
        x.b.array.offset = 1;
        x.b.array.length = 2;
    }

    /* Dictionary-encoded. */
    {
        child *c = &x.b.children[0];
        static const int16_t indices[3] = {0, 0, 1};
        static const int32_t dictionary_offsets[4] = {0, 15, 21, 0};
        const void *index_buffers[2], *dictionary_buffers[3];
        index_buffers[0] = x.email_validity;
        index_buffers[1] = indices;
        dictionary_buffers[0] = NULL;
        dictionary_buffers[1] = dictionary_offsets;
        dictionary_buffers[2] = email_data;
        c->schema.format = "s";
        c->schema.dictionary = &c->dictionary_schema;
        init_schema(&c->dictionary_schema, "u", NULL);
        c->array.buffers = index_buffers;
        c->array.n_buffers = 2;
        init_array(&c->dictionary_array, 2, 0, 3, dictionary_buffers);
        c->array.dictionary = &c->dictionary_array;
        CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, rules, NULL, &invalid));
        CHECK(rules[0 * FIELDS + 1] == 0 && rules[1 * FIELDS + 1] == -1); /* null, then "x@y.co" */
        c->schema.format = "u";
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': format \"u\" (utf8) with a dictionary: the indices are not an integer type");
        c->schema.format = "s";
        c->dictionary_schema.format = "i";
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': dictionary format \"i\" (int32) is not a string type");
        c->dictionary_schema.format = "u";
        c->dictionary_schema.release = NULL;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': its dictionary's schema has been released (release callback is NULL)");
        c->dictionary_schema.release = count_schema_release;
        c->array.dictionary = NULL;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': the schema is dictionary-encoded but the array has no dictionary");
        c->array.dictionary = &c->dictionary_array;
        c->dictionary_array.release = NULL;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email' dictionary: released (release callback is NULL)");
        c->dictionary_array.release = count_array_release;
        c->array.n_buffers = 3;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': n_buffers is 3; a dictionary-encoded column has 2");
        c->array.n_buffers = 2;
        index_buffers[1] = NULL;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email': the indices buffer is NULL (length 3)");
        index_buffers[1] = indices;
        c->dictionary_array.length = 3;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email' dictionary, value 0: offset 15 is past the end of the data (0 bytes)");
        c->dictionary_array.length = 2;
        c->dictionary_array.n_buffers = 2;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email' dictionary: n_buffers is 2; utf8 has 3");
        c->dictionary_array.n_buffers = 3;
        dictionary_buffers[2] = "ada@example.com\xe2\x82y.co";
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email', record 1: invalid UTF-8 at byte 1 of dictionary value 1");
        dictionary_buffers[2] = email_data;
        dictionary_buffers[1] = NULL;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email' dictionary: the offsets buffer is NULL (length 2)");
        dictionary_buffers[1] = dictionary_offsets;
        c->dictionary_array.offset = -1;
        REFUSED(x, FW_ERR_INVALID_ARGUMENT, "column 'email' dictionary: offset is -1");
        c->dictionary_array.offset = 0;
        CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, rules, NULL, &invalid));
        c->schema.format = "u";
        c->schema.dictionary = NULL;
        c->array.dictionary = NULL;
        c->array.buffers = c->buffers;
        c->array.n_buffers = 3;
    }

    /* Arguments. */
    CHECK_STATUS(fw_form_check_arrow(form, &x.b.schema, &x.b.array, -1, valid, rules, NULL, &invalid), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 1, valid, (int32_t *)(void *)((char *)rules + 2), NULL, NULL),
                 FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_arrow_message(form, &x.b.schema, &x.b.array, 0, 0, NULL, 16, NULL), FW_ERR_NULL_ARGUMENT);
    /* No outputs at all, and an empty batch. */
    CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 0, NULL, NULL, NULL, NULL));
    x.b.array.length = 0;
    x.b.children[0].buffers[1] = NULL;
    x.b.children[0].buffers[2] = NULL;
    invalid = 5;
    CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 0, valid, rules, NULL, &invalid));
    CHECK(invalid == 0);
    x.b.schema.n_children = x.b.array.n_children = 0;
    CHECK_OK(fw_form_check_arrow(form, &x.b.schema, &x.b.array, 0, valid, rules, NULL, &invalid));
    fw_form_free(form);
    /* A freed form. */
    refused_at(__LINE__, form, &x.b.schema, &x.b.array, FW_ERR_INVALID_HANDLE, "form handle was freed or never issued by fw_form_create");
}

int main(void) {
    spec_json = read_file("examples/registration.json");
    layouts();
    dictionary_index_types();
    struct_nulls();
    missing_and_unknown_columns();
    hostile();
    /* The library borrowed every struct and released none. */
    CHECK(schema_releases == 0);
    CHECK(array_releases == 0);
    free(spec_json);
    printf("arrow_test: %d hostile structs, each refused by both entry points\n", hostile_count);
    return check_summary("arrow_test");
}
