/*
 * conformance_runner: runs the cross-runtime conformance vectors (Tests/Conformance/NN-name.json, format in
 * Tests/Conformance/README.md) through the C ABI. For each vector: a new form, the starts_with_plus
 * validator (seed 02's example), the spec loaded with fw_form_load_spec, then every step's event and a
 * comparison of every field's state, is_valid and first_invalid with the step's `expect`.
 * The keys of vectors 11-19 are read through the C ABI too: per field (errors, tint, label_raised,
 * emphasized, hint, visited, dirty, modified_since_submit, external_error) from one second-version
 * fw_field_snapshot; per form dirty_fields (the snapshots' dirty flags), submit_count and submit_failed
 * (fw_form_get_info), announcement (fw_form_announcement), valid_in / first_invalid_in
 * (fw_form_is_valid_group / fw_form_first_invalid_group) and changed (fw_form_changed_since with the
 * revision fw_form_get_info gave before the step). A step with "error" must fail with that status and
 * change nothing (its revision stays).
 * The asynchronous steps of vectors 20-24: `tick` (fw_form_tick), `now` on type / set_value (a tick
 * first), `take` (fw_form_next_request: first with no buffer, which must answer
 * FW_ERR_BUFFER_TOO_SMALL without handing the request out, then with one; the request is remembered
 * under its label), `resolve` (fw_form_resolve by label or raw id; `returns` applied / stale from
 * *out_stale) and `submit` (fw_form_submit); per form pending_fields (fw_form_pending_fields,
 * checked against fw_form_info's pending_count), stale_results (fw_form_info) and
 * next_due (fw_form_next_due_time).
 * The keys of vectors 60-63 (normalisers, secret fields): per field value (as set), normalized and
 * secret from one third-version fw_field_snapshot (sizeof(fw_snapshot)); per form values, every
 * field's fw_field_normalized_value (what a submission uses). The spec's normalize / secret keys
 * reach the engine through fw_form_load_spec.
 * The keys of vectors 64-68 (failure codes, parameters, locales): per field code, params (the
 * engine's JSON object text parsed and compared structurally: keys in any order, numbers by value,
 * strings by bytes), display_code and error_codes (the code list, laid out as the error list) from one
 * fourth-version fw_field_snapshot (sizeof(fw_snapshot)); a spec's top-level "locale" reaches the
 * engine through fw_form_load_spec. A field's expectation with a key no runner knows fails the vector.
 * Then every vector's `records` go through the batch path: one fw_form_check_batch over columns built
 * from them (a field some record names gets a column, by id, int32 and int64 offsets in turn; a record
 * that leaves it out holds the field's initial value there; a field no record names has no column),
 * messages through fw_form_rule_message, or fw_form_batch_message when the cell says
 * FW_CELL_OWN_MESSAGE or FW_CELL_LIMIT_EXCEEDED; each record's valid flag and errors must equal the
 * vector's, and its `codes` (when given) the cells' codes: fw_form_rule_code of the failing rule,
 * "pattern_limit" for a cell flagged FW_CELL_LIMIT_EXCEEDED. And through the submit path: a new form
 * per record, its values set, fw_form_submit; the outcome, and every field whose display is an error
 * with its display message (`errors`) and display code (`codes`).
 * Top-level `checks` (vector 68) go through fw_check_value (the rules serialized back to JSON text,
 * the locale NULL when absent), sized first without a buffer: validity, message, code and params.
 *
 * Usage: conformance_runner VECTOR.json...
 * Prints one line per mismatch and a summary; exits 1 on any failure, 2 on a usage error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "formwell.h"

static long g_vectors, g_steps, g_records, g_submits, g_value_checks, g_checks, g_failures;

/* The requests a vector's `take` steps handed out, by label (cleared for every vector). */
typedef struct {
    char label[64];
    uint64_t id;
} request_label;
static request_label g_labels[64];
static size_t g_label_count;

/* ---- the starts_with_plus named validator ---- */

static int32_t starts_with_plus(void *context, const char *value, size_t value_length, const char **out_message) {
    (void)context;
    if (value_length > 0 && value[0] == '+') return FW_VERDICT_VALID;
    *out_message = "Number must start with '+'";
    return FW_VERDICT_INVALID;
}

/* ---- reporting ---- */

static void failure(const char *file, long step, const char *field, const char *what,
                    const char *expected, const char *got) {
    g_failures++;
    if (step >= 0) {
        printf("%s: step %ld: %s: %s: expected %s, got %s\n", file, step, field, what, expected, got);
    } else {
        printf("%s: %s: %s: expected %s, got %s\n", file, field, what, expected, got);
    }
}

static void status_failure(const char *file, long step, const char *field, const char *call, fw_status status) {
    char detail[512];
    if (fw_last_error_message(detail, sizeof detail, NULL) != FW_OK) detail[0] = '\0';
    g_failures++;
    printf("%s: step %ld: %s: %s failed: %s (%s)\n", file, step, field, call, fw_status_string(status), detail);
}

/* Compares two strings, printing them quoted when they differ. */
static void check_string(const char *file, long step, const char *field, const char *what,
                         const char *expected, const char *got) {
    g_checks++;
    if (strcmp(expected, got) != 0) {
        size_t el = strlen(expected) + 3, gl = strlen(got) + 3;
        char *e = malloc(el), *g = malloc(gl);
        if (e == NULL || g == NULL) {
            free(e);
            free(g);
            failure(file, step, field, what, expected, got);
            return;
        }
        snprintf(e, el, "\"%s\"", expected);
        snprintf(g, gl, "\"%s\"", got);
        failure(file, step, field, what, e, g);
        free(e);
        free(g);
    }
}

/* Compares an id-or-null in the vector with an id ("" for none). */
static void check_id_or_null(const char *file, long step, const char *field, const char *what, json_t *want,
                             const char *got) {
    const char *expected = json_is_null(want) ? "" : json_string_value(want);
    g_checks++;
    if (strcmp(expected, got) != 0) {
        char e[256], g[256];
        snprintf(e, sizeof e, json_is_null(want) ? "null" : "\"%s\"", expected);
        snprintf(g, sizeof g, got[0] == '\0' ? "null" : "\"%s\"", got);
        failure(file, step, field, what, e, g);
    }
}

/* ---- ABI helpers ---- */

typedef fw_status (*string_query)(fw_form *, const char *, char *, size_t, size_t *);

/* Returns a malloc'ed copy of a field string (message, display message), or NULL on failure. */
static char *field_string(fw_form *form, const char *field, string_query query, fw_status *out_status) {
    size_t length = 0;
    fw_status status = query(form, field, NULL, 0, &length);
    char *buf;
    if (status != FW_OK && status != FW_ERR_BUFFER_TOO_SMALL) {
        *out_status = status;
        return NULL;
    }
    buf = malloc(length + 1);
    if (buf == NULL) {
        *out_status = FW_ERR_INTERNAL;
        return NULL;
    }
    status = query(form, field, buf, length + 1, NULL);
    if (status != FW_OK) {
        free(buf);
        *out_status = status;
        return NULL;
    }
    *out_status = FW_OK;
    return buf;
}

/* The first invalid field of the form (group NULL) or of a group, malloc'ed ("" when none). */
static char *first_invalid(fw_form *form, const char *group, fw_status *out_status) {
    size_t length = 0;
    fw_status status = group != NULL ? fw_form_first_invalid_group(form, group, NULL, 0, &length)
                                     : fw_form_first_invalid(form, NULL, 0, &length);
    char *buf;
    if (status != FW_OK && status != FW_ERR_BUFFER_TOO_SMALL) {
        *out_status = status;
        return NULL;
    }
    buf = malloc(length + 1);
    if (buf == NULL) {
        *out_status = FW_ERR_INTERNAL;
        return NULL;
    }
    status = group != NULL ? fw_form_first_invalid_group(form, group, buf, length + 1, NULL)
                           : fw_form_first_invalid(form, buf, length + 1, NULL);
    *out_status = status;
    if (status != FW_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static char *field_id_at(fw_form *form, size_t index) {
    size_t length = 0;
    fw_status status = fw_form_field_id(form, index, NULL, 0, &length);
    char *buf;
    if (status != FW_OK && status != FW_ERR_BUFFER_TOO_SMALL) return NULL;
    buf = malloc(length + 1);
    if (buf == NULL) return NULL;
    if (fw_form_field_id(form, index, buf, length + 1, NULL) != FW_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static const char *phase_name(int phase) {
    switch (phase) {
    case FW_PHASE_IDLE: return "idle";
    case FW_PHASE_FOCUSED: return "focused";
    case FW_PHASE_INACTIVE: return "inactive";
    default: return "(unknown phase)";
    }
}

static const char *validity_name(int validity) {
    switch (validity) {
    case FW_VALIDITY_EMPTY: return "empty";
    case FW_VALIDITY_VALID: return "valid";
    case FW_VALIDITY_INVALID: return "invalid";
    case FW_VALIDITY_PENDING: return "pending";
    default: return "(unknown validity)";
    }
}

static const char *display_name(int display) {
    switch (display) {
    case FW_DISPLAY_NONE: return "none";
    case FW_DISPLAY_VALID: return "valid";
    case FW_DISPLAY_ERROR: return "error";
    default: return "(unknown display)";
    }
}

static const char *bool_name(bool value) { return value ? "true" : "false"; }

static const char *tint_name(int tint) {
    switch (tint) {
    case FW_TINT_NEUTRAL: return "neutral";
    case FW_TINT_ACCENT: return "accent";
    case FW_TINT_ERROR: return "error";
    default: return "(unknown tint)";
    }
}

/* A vector's status name ("invalid_argument": FW_ERR_* without the prefix, lower case), or -1. */
static int status_named(const char *name) {
    static const struct { const char *name; fw_status status; } names[] = {
        {"null_argument", FW_ERR_NULL_ARGUMENT}, {"invalid_handle", FW_ERR_INVALID_HANDLE},
        {"unknown_field", FW_ERR_UNKNOWN_FIELD}, {"duplicate_field", FW_ERR_DUPLICATE_FIELD},
        {"invalid_utf8", FW_ERR_INVALID_UTF8}, {"invalid_pattern", FW_ERR_INVALID_PATTERN},
        {"invalid_argument", FW_ERR_INVALID_ARGUMENT}, {"callback", FW_ERR_CALLBACK},
        {"internal", FW_ERR_INTERNAL}, {"buffer_too_small", FW_ERR_BUFFER_TOO_SMALL}, {"busy", FW_ERR_BUSY},
        {"invalid_spec", FW_ERR_INVALID_SPEC}, {"unknown_request", FW_ERR_UNKNOWN_REQUEST},
        {"request_closed", FW_ERR_REQUEST_CLOSED},
    };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(names[i].name, name) == 0) return (int)names[i].status;
    }
    return -1;
}

/* Compares an integer key of `want` (when present) with `got`. */
static void check_optional_integer(const char *file, long step, const char *field, json_t *want, const char *key,
                                   long long got) {
    json_t *ji = json_object_get(want, key);
    if (ji == NULL) return;
    g_checks++;
    if (!json_is_integer(ji)) {
        failure(file, step, field, key, "an integer in the vector", "something else");
    } else if (json_integer_value(ji) != (json_int_t)got) {
        char e[32], g[32];
        snprintf(e, sizeof e, "%lld", (long long)json_integer_value(ji));
        snprintf(g, sizeof g, "%lld", got);
        failure(file, step, field, key, e, g);
    }
}

/* Compares a boolean key of `want` (when present) with `got`. */
static void check_optional_bool(const char *file, long step, const char *field, json_t *want, const char *key, bool got) {
    json_t *jb = json_object_get(want, key);
    if (jb == NULL) return;
    if (!json_is_boolean(jb)) {
        failure(file, step, field, key, "a boolean in the vector", "something else");
        return;
    }
    g_checks++;
    if (json_is_true(jb) != got) failure(file, step, field, key, bool_name(json_is_true(jb)), bool_name(got));
}

/* Compares a list of strings in the vector with `count` strings (`got`), joined for the report. */
static void check_string_list(const char *file, long step, const char *field, const char *what, json_t *want,
                              const char *const *got, size_t count) {
    char expected[1024], actual[1024];
    size_t used = 0, i;
    json_t *item;
    if (!json_is_array(want)) {
        failure(file, step, field, what, "an array of strings in the vector", "something else");
        return;
    }
    used = (size_t)snprintf(expected, sizeof expected, "[");
    json_array_foreach(want, i, item) {
        const char *s = json_string_value(item);
        used += (size_t)snprintf(expected + used, sizeof expected - used, "%s\"%s\"", i ? ", " : "",
                                 s != NULL ? s : "(not a string)");
        if (used >= sizeof expected) used = sizeof expected - 1; /* cut short, still terminated */
    }
    snprintf(expected + used, sizeof expected - used, "]");
    used = (size_t)snprintf(actual, sizeof actual, "[");
    for (i = 0; i < count; i++) {
        used += (size_t)snprintf(actual + used, sizeof actual - used, "%s\"%s\"", i ? ", " : "", got[i]);
        if (used >= sizeof actual) used = sizeof actual - 1;
    }
    snprintf(actual + used, sizeof actual - used, "]");
    g_checks++;
    if (strcmp(expected, actual) != 0) failure(file, step, field, what, expected, actual);
}

/* The string member `key` of `object`, or NULL (and a failure) when it is missing or not a string. */
static const char *expect_string(const char *file, long step, const char *field, json_t *object, const char *key) {
    json_t *value = json_object_get(object, key);
    if (!json_is_string(value)) {
        failure(file, step, field, key, "a string in the vector", "missing or not a string");
        return NULL;
    }
    return json_string_value(value);
}

/* ---- one field's expected state ---- */

/* The keys of vectors 11-19, each compared when the vector gives it, from one second-version snapshot. */
static void check_v2_members(const char *file, long step, fw_form *form, const char *field, json_t *want) {
    static const char *const keys[] = {"errors", "tint", "label_raised", "emphasized", "hint", "visited", "dirty",
                                       "modified_since_submit", "external_error"};
    fw_snapshot snap;
    char texts[4096];
    const char *errors[64];
    const char *at;
    size_t i, count;
    fw_status status;
    int any = 0;
    json_t *jt;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) any |= json_object_get(want, keys[i]) != NULL;
    if (!any) return;
    memset(&snap, 0, sizeof snap);
    snap.size = sizeof snap;
    status = fw_field_snapshot(form, field, &snap, texts, sizeof texts);
    if (status != FW_OK) {
        status_failure(file, step, field, "fw_field_snapshot", status);
        return;
    }
    if ((jt = json_object_get(want, "errors")) != NULL) {
        /* The error list: error_count NUL-terminated messages back to back, errors_size bytes. */
        count = 0;
        at = snap.errors;
        while (count < snap.error_count && count < sizeof errors / sizeof errors[0]) {
            errors[count++] = at;
            at += strlen(at) + 1;
        }
        g_checks++;
        if ((size_t)(at - snap.errors) != snap.errors_size || *at != '\0' || count != snap.error_count) {
            failure(file, step, field, "errors block", "error_count messages in errors_size bytes", "another shape");
        }
        check_string_list(file, step, field, "errors", jt, errors, count);
    }
    if ((jt = json_object_get(want, "tint")) != NULL) {
        if (!json_is_string(jt)) failure(file, step, field, "tint", "a string in the vector", "something else");
        else check_string(file, step, field, "tint", json_string_value(jt), tint_name((int)snap.tint));
    }
    if ((jt = json_object_get(want, "hint")) != NULL) {
        if (!json_is_string(jt)) failure(file, step, field, "hint", "a string in the vector", "something else");
        else check_string(file, step, field, "hint", json_string_value(jt), snap.hint);
    }
    check_optional_bool(file, step, field, want, "label_raised", snap.label_raised);
    check_optional_bool(file, step, field, want, "emphasized", snap.emphasized);
    check_optional_bool(file, step, field, want, "visited", snap.visited);
    check_optional_bool(file, step, field, want, "dirty", snap.dirty);
    check_optional_bool(file, step, field, want, "modified_since_submit", snap.modified_since_submit);
    check_optional_bool(file, step, field, want, "external_error", snap.external_error);
}

/* The field's whole snapshot (sizeof(fw_snapshot): every version) with its texts, in a buffer sized
   by a first call without one; NULL (the failure reported) when a call fails. Free the texts. */
static char *read_snapshot(const char *file, long step, fw_form *form, const char *field, fw_snapshot *snap) {
    size_t text_size;
    char *texts;
    fw_status status;
    memset(snap, 0, sizeof *snap);
    snap->size = sizeof *snap;
    status = fw_field_snapshot(form, field, snap, NULL, 0);
    if (status != FW_OK) {
        status_failure(file, step, field, "fw_field_snapshot (sizing)", status);
        return NULL;
    }
    text_size = snap->text_size > 0 ? snap->text_size : 1;
    texts = malloc(text_size);
    if (texts == NULL) {
        failure(file, step, field, "memory", "enough", "out of memory");
        return NULL;
    }
    memset(snap, 0, sizeof *snap);
    snap->size = sizeof *snap;
    status = fw_field_snapshot(form, field, snap, texts, text_size);
    if (status != FW_OK) {
        status_failure(file, step, field, "fw_field_snapshot", status);
        free(texts);
        return NULL;
    }
    return texts;
}

/* The keys of vectors 60-63 (value as set, normalized, secret), each compared when the vector gives it,
   from one third-version snapshot (size sizeof(fw_snapshot), which covers `secret` .. `normalized`) whose
   text buffer is sized by a first call without one. */
static void check_v3_members(const char *file, long step, fw_form *form, const char *field, json_t *want) {
    fw_snapshot snap;
    char *texts;
    json_t *jvalue = json_object_get(want, "value"), *jnormalized = json_object_get(want, "normalized");
    if (jvalue == NULL && jnormalized == NULL && json_object_get(want, "secret") == NULL) return;
    texts = read_snapshot(file, step, form, field, &snap);
    if (texts == NULL) return;
    if (jvalue != NULL) {
        if (!json_is_string(jvalue)) failure(file, step, field, "value", "a string in the vector", "something else");
        else if (snap.value == NULL) failure(file, step, field, "value", "a copied text", "NULL");
        else {
            check_string(file, step, field, "value", json_string_value(jvalue), snap.value);
            g_checks++;
            if (snap.value_length != json_string_length(jvalue)) {
                failure(file, step, field, "value_length", "the value's length", "another length");
            }
        }
    }
    if (jnormalized != NULL) {
        if (!json_is_string(jnormalized)) failure(file, step, field, "normalized", "a string in the vector", "something else");
        else if (snap.normalized == NULL) failure(file, step, field, "normalized", "a copied text (a version-3 snapshot)", "NULL");
        else {
            check_string(file, step, field, "normalized", json_string_value(jnormalized), snap.normalized);
            g_checks++;
            if (snap.normalized_length != json_string_length(jnormalized)) {
                failure(file, step, field, "normalized_length", "the normalised value's length", "another length");
            }
        }
    }
    check_optional_bool(file, step, field, want, "secret", snap.secret);
    free(texts);
}

/* The form-level `values` of vectors 60-63: every field's value for submission (normalised), read
   with fw_field_normalized_value, against the vector's object (which must name exactly the form's fields). */
static void check_values(const char *file, long step, fw_form *form, json_t *want, char **ids, size_t count) {
    size_t i;
    const char *key;
    json_t *jv;
    if (!json_is_object(want)) {
        failure(file, step, "(form)", "values", "an object in the vector", "something else");
        return;
    }
    for (i = 0; i < count; i++) {
        char where[300];
        fw_status status;
        char *got;
        const char *expected = json_string_value(json_object_get(want, ids[i]));
        snprintf(where, sizeof where, "values[%s]", ids[i]);
        if (expected == NULL) {
            failure(file, step, "(form)", where, "a string in the vector", "missing or not a string");
            continue;
        }
        got = field_string(form, ids[i], fw_field_normalized_value, &status);
        if (got == NULL) {
            status_failure(file, step, ids[i], "fw_field_normalized_value", status);
            continue;
        }
        check_string(file, step, "(form)", where, expected, got);
        free(got);
    }
    json_object_foreach(want, key, jv) {
        bool listed = false;
        (void)jv;
        for (i = 0; i < count; i++) listed |= strcmp(ids[i], key) == 0;
        if (!listed) failure(file, step, "(form)", "values", "a field of the form", key);
    }
}

/* JSON equality as the Swift runner's `same` has it: objects key by key whatever their order, arrays
   item by item, strings by their bytes, numbers by value (8 and 8.0 alike), true, false and null by kind. */
static bool json_same(json_t *a, json_t *b) {
    if (json_is_object(a) && json_is_object(b)) {
        const char *key;
        json_t *value;
        if (json_object_size(a) != json_object_size(b)) return false;
        json_object_foreach(a, key, value) {
            json_t *other = json_object_get(b, key);
            if (other == NULL || !json_same(value, other)) return false;
        }
        return true;
    }
    if (json_is_array(a) && json_is_array(b)) {
        size_t i;
        if (json_array_size(a) != json_array_size(b)) return false;
        for (i = 0; i < json_array_size(a); i++) {
            if (!json_same(json_array_get(a, i), json_array_get(b, i))) return false;
        }
        return true;
    }
    if (json_is_string(a) && json_is_string(b)) {
        return json_string_length(a) == json_string_length(b)
            && memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
    }
    if (json_is_integer(a) && json_is_integer(b)) return json_integer_value(a) == json_integer_value(b);
    if (json_is_number(a) && json_is_number(b)) return json_number_value(a) == json_number_value(b);
    return (json_is_true(a) && json_is_true(b)) || (json_is_false(a) && json_is_false(b))
        || (json_is_null(a) && json_is_null(b));
}

/* Compares the engine's parameters (a JSON object's text) with the vector's object, structurally. */
static void check_params(const char *file, long step, const char *field, const char *what, json_t *want,
                         const char *got_text) {
    json_error_t error;
    json_t *got = json_loads(got_text, JSON_DECODE_ANY, &error);
    g_checks++;
    if (!json_is_object(want)) {
        failure(file, step, field, what, "an object in the vector", "something else");
    } else if (!json_is_object(got)) {
        char g[512];
        snprintf(g, sizeof g, "%s (not a JSON object)", got_text);
        failure(file, step, field, what, "a JSON object", g);
    } else if (!json_same(got, want)) {
        char *e = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
        failure(file, step, field, what, e != NULL ? e : "(the vector's object)", got_text);
        free(e);
    }
    json_decref(got);
}

/* The keys of vectors 64-68 (code, params, display_code, error_codes), each compared when the vector
   gives it, from one fourth-version snapshot (sizeof(fw_snapshot) covers `code` .. `error_codes`) whose
   text buffer is sized by a first call without one. */
static void check_v4_members(const char *file, long step, fw_form *form, const char *field, json_t *want) {
    fw_snapshot snap;
    char *texts;
    const char *codes[64], *at;
    size_t count;
    json_t *jcode = json_object_get(want, "code"), *jparams = json_object_get(want, "params");
    json_t *jdisplay = json_object_get(want, "display_code"), *jcodes = json_object_get(want, "error_codes");
    if (jcode == NULL && jparams == NULL && jdisplay == NULL && jcodes == NULL) return;
    texts = read_snapshot(file, step, form, field, &snap);
    if (texts == NULL) return;
    if (snap.code == NULL || snap.params == NULL || snap.display_code == NULL || snap.error_codes == NULL) {
        failure(file, step, field, "codes", "copied texts (a version-4 snapshot)", "NULL");
        free(texts);
        return;
    }
    g_checks++;
    if (snap.code_length != strlen(snap.code) || snap.params_length != strlen(snap.params)
        || snap.display_code_length != strlen(snap.display_code) || snap.display_params_length != strlen(snap.display_params)) {
        failure(file, step, field, "code/params lengths", "the texts' lengths", "other lengths");
    }
    if (jcode != NULL) {
        if (!json_is_string(jcode)) failure(file, step, field, "code", "a string in the vector", "something else");
        else check_string(file, step, field, "code", json_string_value(jcode), snap.code);
    }
    if (jparams != NULL) check_params(file, step, field, "params", jparams, snap.params);
    if (jdisplay != NULL) {
        if (!json_is_string(jdisplay)) failure(file, step, field, "display_code", "a string in the vector", "something else");
        else check_string(file, step, field, "display_code", json_string_value(jdisplay), snap.display_code);
    }
    if (jcodes != NULL) {
        /* The code list, laid out as the error list: error_count NUL-terminated codes, error_codes_size bytes. */
        count = 0;
        at = snap.error_codes;
        while (count < snap.error_count && count < sizeof codes / sizeof codes[0]) {
            codes[count++] = at;
            at += strlen(at) + 1;
        }
        g_checks++;
        if ((size_t)(at - snap.error_codes) != snap.error_codes_size || *at != '\0' || count != snap.error_count) {
            failure(file, step, field, "error_codes block", "error_count codes in error_codes_size bytes", "another shape");
        }
        check_string_list(file, step, field, "error_codes", jcodes, codes, count);
    }
    free(texts);
}

/* The keys a field's expectation may have (the Swift runner's `observed`): any other fails the vector. */
static void check_known_keys(const char *file, long step, const char *field, json_t *want) {
    static const char *const known[] = {
        "phase", "validity", "message", "display", "display_message", "touched", "failing_rule", "visited", "dirty",
        "modified_since_submit", "errors", "external_error", "tint", "label_raised", "emphasized", "hint", "value",
        "normalized", "secret", "code", "params", "display_code", "error_codes",
    };
    const char *key;
    json_t *value;
    json_object_foreach(want, key, value) {
        size_t i;
        bool listed = false;
        (void)value;
        for (i = 0; i < sizeof known / sizeof known[0] && !listed; i++) listed = strcmp(known[i], key) == 0;
        g_checks++;
        if (!listed) failure(file, step, field, "expectation key", "a known key", key);
    }
}

static void check_field(const char *file, long step, fw_form *form, const char *field, json_t *want) {
    fw_phase phase;
    fw_validity validity;
    fw_display display;
    bool touched;
    fw_status status;
    const char *expected;
    char *text;
    json_t *jt;

    if (!json_is_object(want)) {
        failure(file, step, field, "expectation", "an object", "something else");
        return;
    }

    if ((expected = expect_string(file, step, field, want, "phase")) != NULL) {
        status = fw_field_phase(form, field, &phase);
        if (status != FW_OK) status_failure(file, step, field, "fw_field_phase", status);
        else check_string(file, step, field, "phase", expected, phase_name((int)phase));
    }
    if ((expected = expect_string(file, step, field, want, "validity")) != NULL) {
        status = fw_field_validity(form, field, &validity);
        if (status != FW_OK) status_failure(file, step, field, "fw_field_validity", status);
        else check_string(file, step, field, "validity", expected, validity_name((int)validity));
    }
    if ((expected = expect_string(file, step, field, want, "message")) != NULL) {
        text = field_string(form, field, fw_field_message, &status);
        if (text == NULL) status_failure(file, step, field, "fw_field_message", status);
        else check_string(file, step, field, "message", expected, text);
        free(text);
    }
    if ((expected = expect_string(file, step, field, want, "display")) != NULL) {
        status = fw_field_display(form, field, &display);
        if (status != FW_OK) status_failure(file, step, field, "fw_field_display", status);
        else check_string(file, step, field, "display", expected, display_name((int)display));
    }
    if ((expected = expect_string(file, step, field, want, "display_message")) != NULL) {
        text = field_string(form, field, fw_field_display_message, &status);
        if (text == NULL) status_failure(file, step, field, "fw_field_display_message", status);
        else check_string(file, step, field, "display_message", expected, text);
        free(text);
    }
    jt = json_object_get(want, "failing_rule"); /* optional: null or the rule's index */
    if (jt != NULL) {
        fw_snapshot snap;
        memset(&snap, 0, sizeof snap);
        snap.size = sizeof snap;
        status = fw_field_snapshot(form, field, &snap, NULL, 0);
        if (status != FW_OK) status_failure(file, step, field, "fw_field_snapshot", status);
        else if (!json_is_null(jt) && !json_is_integer(jt)) {
            failure(file, step, field, "failing_rule", "null or an integer in the vector", "something else");
        } else {
            long want_rule = json_is_null(jt) ? -1 : (long)json_integer_value(jt);
            char want_text[32], got_text[32];
            g_checks++;
            if (want_rule != (long)snap.failing_rule) {
                snprintf(want_text, sizeof want_text, "%ld", want_rule);
                snprintf(got_text, sizeof got_text, "%ld", (long)snap.failing_rule);
                failure(file, step, field, "failing_rule", want_text, got_text);
            }
        }
    }
    check_v2_members(file, step, form, field, want);
    check_v3_members(file, step, form, field, want);
    check_v4_members(file, step, form, field, want);
    check_known_keys(file, step, field, want);
    jt = json_object_get(want, "touched");
    if (!json_is_boolean(jt)) {
        failure(file, step, field, "touched", "a boolean in the vector", "missing or not a boolean");
    } else {
        status = fw_field_touched(form, field, &touched);
        if (status != FW_OK) status_failure(file, step, field, "fw_field_touched", status);
        else {
            g_checks++;
            if (json_is_true(jt) != touched) failure(file, step, field, "touched", bool_name(json_is_true(jt)), bool_name(touched));
        }
    }
}

/* ---- one step ---- */

/* The form's field ids in registration order (malloc'ed), replacing *ids; false on failure. */
static bool read_ids(fw_form *form, char ***ids, size_t *count) {
    size_t n = 0, i;
    char **fresh;
    if (fw_form_field_count(form, &n) != FW_OK) return false;
    fresh = calloc(n > 0 ? n : 1, sizeof *fresh);
    if (fresh == NULL) return false;
    for (i = 0; i < n; i++) {
        fresh[i] = field_id_at(form, i);
        if (fresh[i] == NULL) {
            while (i > 0) free(fresh[--i]);
            free(fresh);
            return false;
        }
    }
    for (i = 0; i < *count; i++) free((*ids)[i]);
    free(*ids);
    *ids = fresh;
    *count = n;
    return true;
}

/* The step's `now` (a non-negative integer) in *out_now; false (and a failure) when it is missing or
   malformed and `required`, or malformed. */
static bool step_now(const char *file, long index, json_t *step, bool required, uint64_t *out_now, bool *present) {
    json_t *jnow = json_object_get(step, "now");
    *present = jnow != NULL;
    if (jnow == NULL) {
        if (required) failure(file, index, "-", "now", "an integer", "missing");
        return !required;
    }
    if (!json_is_integer(jnow) || json_integer_value(jnow) < 0) {
        failure(file, index, "-", "now", "a non-negative integer", "something else");
        return false;
    }
    *out_now = (uint64_t)json_integer_value(jnow);
    return true;
}

/* `take`: fw_form_next_request at `now`, compared with `expect_request`; the request handed out is
   remembered under the label `as`. A first call without a buffer must not hand the request out. */
static fw_status take_request(const char *file, long index, fw_form *form, json_t *step, bool *known) {
    json_t *want = json_object_get(step, "expect_request");
    const char *label = json_string_value(json_object_get(step, "as"));
    fw_request request, sized;
    char *texts;
    bool found = false, present = false;
    uint64_t now = 0;
    fw_status status;
    if (!step_now(file, index, step, true, &now, &present) || want == NULL || !(json_is_null(want) || json_is_object(want))) {
        if (want == NULL || !(json_is_null(want) || json_is_object(want))) {
            failure(file, index, "-", "expect_request", "an object or null", "missing or something else");
        }
        *known = false;
        return FW_OK;
    }
    memset(&sized, 0x5A, sizeof sized);
    sized.size = sizeof sized;
    status = fw_form_next_request(form, now, &sized, NULL, 0, &found);
    g_checks++;
    if (json_is_null(want)) {
        if (status != FW_OK) return status;
        if (found) failure(file, index, "(form)", "take", "no request due", "a request");
        return FW_OK;
    }
    if (status != FW_ERR_BUFFER_TOO_SMALL || !found) {
        if (status == FW_OK) failure(file, index, "(form)", "take", "a request due", "none");
        else failure(file, index, "(form)", "take without a buffer", "FW_ERR_BUFFER_TOO_SMALL", fw_status_string(status));
        return status == FW_ERR_BUFFER_TOO_SMALL ? FW_OK : status;
    }
    texts = malloc(sized.text_size);
    if (texts == NULL) return FW_ERR_INTERNAL;
    memset(&request, 0x5A, sizeof request);
    request.size = sizeof request;
    status = fw_form_next_request(form, now, &request, texts, sized.text_size, &found);
    if (status != FW_OK) {
        free(texts);
        return status;
    }
    g_checks++;
    if (!found || request.id != sized.id) {
        failure(file, index, "(form)", "take", "the request the sizing call saw, handed out now", "another");
    } else {
        const char *field = json_string_value(json_object_get(want, "field"));
        const char *value = json_string_value(json_object_get(want, "value"));
        const char *rule = json_string_value(json_object_get(want, "rule"));
        size_t position = 0;
        if (field == NULL || value == NULL || rule == NULL) {
            failure(file, index, "-", "expect_request", "field, value and rule strings", "missing");
        } else {
            check_string(file, index, "(request)", "field", field, request.field_id);
            check_string(file, index, "(request)", "value", value, request.value);
            check_string(file, index, "(request)", "rule", rule, request.rule);
            g_checks++;
            if (fw_form_field_index(form, field, &position) != FW_OK || position != request.field_index
                || request.field_id_length != strlen(field) || request.value_length != strlen(value)
                || request.rule_length != strlen(rule) || request.text_size != sized.text_size) {
                failure(file, index, "(request)", "field_index / lengths", "the field's index and the texts' lengths",
                        "others");
            }
        }
        if (label == NULL) {
            failure(file, index, "-", "as", "a label", "missing");
        } else if (g_label_count < sizeof g_labels / sizeof g_labels[0] && strlen(label) < sizeof g_labels[0].label) {
            strcpy(g_labels[g_label_count].label, label);
            g_labels[g_label_count++].id = request.id;
        } else {
            failure(file, index, "-", "as", "at most 64 labels of 63 bytes", label);
        }
    }
    free(texts);
    return FW_OK;
}

/* `resolve`: fw_form_resolve of a label's request (or a raw id); *out_returned "applied" / "stale". */
static fw_status resolve_request(const char *file, long index, fw_form *form, json_t *step, const char **out_returned,
                                 bool *known) {
    json_t *jrequest = json_object_get(step, "request");
    const char *verdict = json_string_value(json_object_get(step, "verdict"));
    const char *message = json_string_value(json_object_get(step, "message"));
    uint64_t id = 0;
    int32_t code;
    bool stale = true;
    fw_status status;
    if (json_is_integer(jrequest)) {
        id = (uint64_t)json_integer_value(jrequest);
    } else if (json_is_string(jrequest)) {
        size_t i;
        bool found = false;
        for (i = 0; i < g_label_count && !found; i++) {
            if (strcmp(g_labels[i].label, json_string_value(jrequest)) == 0) {
                id = g_labels[i].id;
                found = true;
            }
        }
        if (!found) {
            failure(file, index, "-", "request", "a label a take gave", json_string_value(jrequest));
            *known = false;
            return FW_OK;
        }
    } else {
        failure(file, index, "-", "request", "a label or an integer id", "something else");
        *known = false;
        return FW_OK;
    }
    if (verdict != NULL && strcmp(verdict, "valid") == 0) code = FW_ASYNC_VALID;
    else if (verdict != NULL && strcmp(verdict, "invalid") == 0) code = FW_ASYNC_INVALID;
    else if (verdict != NULL && strcmp(verdict, "error") == 0) code = FW_ASYNC_ERROR;
    else {
        failure(file, index, "-", "verdict", "valid, invalid or error", verdict != NULL ? verdict : "missing");
        *known = false;
        return FW_OK;
    }
    status = fw_form_resolve(form, id, code, message, &stale);
    if (status == FW_OK) *out_returned = stale ? "stale" : "applied";
    return status;
}

/* Runs the step's event; *ran_validate tells whether `valid` holds a validate's answer, *out_returned
   (when not NULL) is what a resolve or a submit answered, for the step's `returns`. */
static fw_status run_event(const char *file, long index, fw_form *form, json_t *step, const char *event,
                           bool *valid, bool *ran_validate, const char **out_returned, bool *known) {
    const char *field = json_string_value(json_object_get(step, "field"));
    const char *value = json_string_value(json_object_get(step, "value"));
    json_t *jgroup = json_object_get(step, "group");
    const char *group = json_string_value(jgroup);
    uint64_t now = 0;
    bool has_now = false;
    *known = true;
    *ran_validate = false;
    *out_returned = NULL;
    if (jgroup != NULL && group == NULL) {
        failure(file, index, "-", "group", "a string", "something else");
        *known = false;
        return FW_OK;
    }
    if (strcmp(event, "tick") == 0) {
        if (!step_now(file, index, step, true, &now, &has_now)) {
            *known = false;
            return FW_OK;
        }
        return fw_form_tick(form, now);
    }
    if (strcmp(event, "take") == 0) return take_request(file, index, form, step, known);
    if (strcmp(event, "resolve") == 0) return resolve_request(file, index, form, step, out_returned, known);
    if (strcmp(event, "submit") == 0) {
        int32_t outcome = -1;
        fw_status status = fw_form_submit(form, group, &outcome);
        if (status == FW_OK) {
            *out_returned = outcome == FW_SUBMIT_VALID ? "valid"
                          : outcome == FW_SUBMIT_INVALID ? "invalid"
                          : outcome == FW_SUBMIT_PENDING ? "pending" : "(unknown outcome)";
        }
        return status;
    }
    if (strcmp(event, "focus") == 0 || strcmp(event, "blur") == 0 || strcmp(event, "touch") == 0
        || strcmp(event, "clear_error") == 0 || strcmp(event, "remove_field") == 0) {
        if (field == NULL) {
            failure(file, index, "-", "field", "a string", "missing");
            *known = false;
            return FW_OK;
        }
        switch (event[0]) {
        case 'f': return fw_field_focus(form, field);
        case 'b': return fw_field_blur(form, field);
        case 't': return fw_field_touch(form, field);
        case 'c': return fw_field_clear_error(form, field);
        default: return fw_form_remove_field(form, field);
        }
    }
    if (strcmp(event, "type") == 0 || strcmp(event, "set_value") == 0 || strcmp(event, "set_error") == 0) {
        if (event[4] == 'e') value = json_string_value(json_object_get(step, "message"));
        if (field == NULL || value == NULL) {
            failure(file, index, "-", "field/value", "strings", "missing");
            *known = false;
            return FW_OK;
        }
        if (event[4] == 'e') return fw_field_set_error(form, field, value);
        if (!step_now(file, index, step, false, &now, &has_now)) {
            *known = false;
            return FW_OK;
        }
        if (has_now) {
            fw_status ticked = fw_form_tick(form, now);
            if (ticked != FW_OK) return ticked;
        }
        return fw_field_set_value(form, field, value);
    }
    if (strcmp(event, "touch_all") == 0) return group != NULL ? fw_form_touch_all_group(form, group) : fw_form_touch_all(form);
    if (strcmp(event, "clear_errors") == 0) return fw_form_clear_errors(form);
    if (strcmp(event, "validate") == 0) {
        *ran_validate = true;
        return group != NULL ? fw_form_validate_group(form, group, valid) : fw_form_validate(form, valid);
    }
    if (strcmp(event, "reset") == 0) {
        json_t *values = json_object_get(step, "values");
        if (values == NULL) return fw_form_reset(form);
        if (!json_is_object(values)) {
            failure(file, index, "-", "values", "an object", "something else");
            *known = false;
            return FW_OK;
        } else {
            size_t n = json_object_size(values), i = 0;
            const char **ids = calloc(n > 0 ? n : 1, sizeof *ids), **initials = calloc(n > 0 ? n : 1, sizeof *initials);
            const char *key;
            json_t *jv;
            fw_status status;
            if (ids == NULL || initials == NULL) {
                free(ids);
                free(initials);
                return FW_ERR_INTERNAL;
            }
            json_object_foreach(values, key, jv) {
                ids[i] = key;
                initials[i] = json_string_value(jv) != NULL ? json_string_value(jv) : "";
                i++;
            }
            status = fw_form_reset_values(form, ids, initials, n);
            free(ids);
            free(initials);
            return status;
        }
    }
    *known = false;
    failure(file, index, "-", "event", "a known event", event);
    return FW_OK;
}

static void run_step(const char *file, long index, fw_form *form, json_t *step, char ***ids, size_t *count) {
    const char *event = json_string_value(json_object_get(step, "event"));
    const char *field = json_string_value(json_object_get(step, "field"));
    json_t *expect = json_object_get(step, "expect");
    json_t *fields = json_object_get(expect, "fields");
    json_t *jerror = json_object_get(step, "error");
    json_t *jvalid, *jfirst, *jt;
    fw_status status = FW_OK;
    fw_form_info before, after;
    bool valid = false, ran_validate = false, known = true;
    const char *returned = NULL;
    size_t i;
    char *first;

    if (event == NULL) {
        failure(file, index, "-", "event", "a string", "missing");
        return;
    }
    memset(&before, 0, sizeof before);
    before.size = sizeof before;
    if ((status = fw_form_get_info(form, &before)) != FW_OK) {
        status_failure(file, index, "(form)", "fw_form_get_info", status);
        return;
    }
    status = run_event(file, index, form, step, event, &valid, &ran_validate, &returned, &known);
    if (!known) return;
    if (jerror != NULL) {
        /* The event must fail with that status and change nothing. */
        const char *name = json_string_value(jerror);
        int expected = name != NULL ? status_named(name) : -1;
        g_checks++;
        if (expected < 0) {
            failure(file, index, "(form)", "error", "a status name in the vector", name != NULL ? name : "not a string");
        } else if ((int)status != expected) {
            failure(file, index, field != NULL ? field : "(form)", event, name, fw_status_string(status));
        }
    } else if (status != FW_OK) {
        status_failure(file, index, field != NULL ? field : "(form)", event, status);
        return;
    } else if (ran_validate) {
        json_t *jreturns = json_object_get(step, "returns");
        if (!json_is_boolean(jreturns)) {
            failure(file, index, "(form)", "returns", "a boolean in the vector", "missing or not a boolean");
        } else {
            g_checks++;
            if (json_is_true(jreturns) != valid) {
                failure(file, index, "(form)", "validate returns", bool_name(json_is_true(jreturns)), bool_name(valid));
            }
        }
    } else if (returned != NULL) {
        const char *want_returns = json_string_value(json_object_get(step, "returns"));
        if (want_returns == NULL) failure(file, index, "(form)", "returns", "a string in the vector", "missing");
        else check_string(file, index, "(form)", event, want_returns, returned);
    }
    if (!read_ids(form, ids, count)) {
        status_failure(file, index, "(form)", "fw_form_field_id", fw_last_error_code());
        return;
    }

    if (!json_is_object(fields)) {
        failure(file, index, "(form)", "expect.fields", "an object", "missing");
    } else {
        const char *key;
        json_t *want;
        for (i = 0; i < *count; i++) {
            json_t *entry = json_object_get(fields, (*ids)[i]);
            if (entry == NULL) {
                failure(file, index, (*ids)[i], "expect.fields", "every field of the form listed", "field missing from the vector");
                continue;
            }
            check_field(file, index, form, (*ids)[i], entry);
        }
        json_object_foreach(fields, key, want) {
            bool listed = false;
            (void)want;
            for (i = 0; i < *count; i++) {
                if (strcmp((*ids)[i], key) == 0) listed = true;
            }
            if (!listed) failure(file, index, key, "expect.fields", "a field of the form", "unknown field");
        }
    }

    jvalid = json_object_get(expect, "valid");
    status = fw_form_is_valid(form, &valid);
    if (status != FW_OK) {
        status_failure(file, index, "(form)", "fw_form_is_valid", status);
    } else if (!json_is_boolean(jvalid)) {
        failure(file, index, "(form)", "valid", "a boolean in the vector", "missing or not a boolean");
    } else {
        g_checks++;
        if (json_is_true(jvalid) != valid) {
            failure(file, index, "(form)", "valid", bool_name(json_is_true(jvalid)), bool_name(valid));
        }
    }

    jfirst = json_object_get(expect, "first_invalid");
    first = first_invalid(form, NULL, &status);
    if (first == NULL) {
        status_failure(file, index, "(form)", "fw_form_first_invalid", status);
    } else if (jfirst == NULL || !(json_is_null(jfirst) || json_is_string(jfirst))) {
        failure(file, index, "(form)", "first_invalid", "a string or null in the vector", "missing");
    } else {
        check_id_or_null(file, index, "(form)", "first_invalid", jfirst, first);
    }
    free(first);

    /* The form-level keys of vectors 11-19, when present. */
    memset(&after, 0, sizeof after);
    after.size = sizeof after;
    if ((status = fw_form_get_info(form, &after)) != FW_OK) {
        status_failure(file, index, "(form)", "fw_form_get_info", status);
        return;
    }
    if (jerror != NULL) {
        g_checks++;
        if (after.revision != before.revision) {
            failure(file, index, "(form)", "revision after a failing step", "unchanged", "changed");
        }
    }
    if ((jt = json_object_get(expect, "dirty_fields")) != NULL) {
        const char *dirty[64];
        size_t n = 0;
        for (i = 0; i < *count && n < sizeof dirty / sizeof dirty[0]; i++) {
            fw_snapshot snap;
            memset(&snap, 0, sizeof snap);
            snap.size = sizeof snap;
            status = fw_field_snapshot_at(form, i, &snap, NULL, 0);
            if (status != FW_OK) status_failure(file, index, (*ids)[i], "fw_field_snapshot_at", status);
            else if (snap.dirty) dirty[n++] = (*ids)[i];
        }
        check_string_list(file, index, "(form)", "dirty_fields", jt, dirty, n);
        g_checks++;
        if (after.dirty_count != n || after.dirty != (n > 0)) {
            failure(file, index, "(form)", "fw_form_info dirty_count/dirty", "the snapshots' dirty flags", "another count");
        }
    }
    check_optional_integer(file, index, "(form)", expect, "submit_count", (long long)after.submit_count);
    check_optional_bool(file, index, "(form)", expect, "submit_failed", after.submit_failed);
    if ((jt = json_object_get(expect, "announcement")) != NULL) {
        char said[1024];
        status = fw_form_announcement(form, said, sizeof said, NULL);
        if (status != FW_OK) status_failure(file, index, "(form)", "fw_form_announcement", status);
        else if (!json_is_string(jt)) failure(file, index, "(form)", "announcement", "a string in the vector", "something else");
        else check_string(file, index, "(form)", "announcement", json_string_value(jt), said);
    }
    if ((jt = json_object_get(expect, "valid_in")) != NULL) {
        const char *group;
        json_t *jg;
        json_object_foreach(jt, group, jg) {
            bool group_valid = false;
            char where[128];
            snprintf(where, sizeof where, "valid_in[%s]", group);
            status = fw_form_is_valid_group(form, group, &group_valid);
            if (status != FW_OK) status_failure(file, index, "(form)", where, status);
            else if (!json_is_boolean(jg)) failure(file, index, "(form)", where, "a boolean in the vector", "something else");
            else {
                g_checks++;
                if (json_is_true(jg) != group_valid) {
                    failure(file, index, "(form)", where, bool_name(json_is_true(jg)), bool_name(group_valid));
                }
            }
        }
    }
    if ((jt = json_object_get(expect, "first_invalid_in")) != NULL) {
        const char *group;
        json_t *jg;
        json_object_foreach(jt, group, jg) {
            char where[128];
            snprintf(where, sizeof where, "first_invalid_in[%s]", group);
            first = first_invalid(form, group, &status);
            if (first == NULL) status_failure(file, index, "(form)", where, status);
            else if (!(json_is_null(jg) || json_is_string(jg))) {
                failure(file, index, "(form)", where, "a string or null in the vector", "something else");
            } else {
                check_id_or_null(file, index, "(form)", where, jg, first);
            }
            free(first);
        }
    }
    if ((jt = json_object_get(expect, "changed")) != NULL) {
        size_t indices[64], n = 0;
        const char *changed[64];
        status = fw_form_changed_since(form, before.revision, indices, 64, &n);
        if (status != FW_OK) {
            status_failure(file, index, "(form)", "fw_form_changed_since", status);
        } else {
            for (i = 0; i < n; i++) changed[i] = indices[i] < *count ? (*ids)[indices[i]] : "(index out of range)";
            check_string_list(file, index, "(form)", "changed", jt, changed, n);
        }
    }
    /* The asynchronous keys of vectors 20-24, when present. */
    if ((jt = json_object_get(expect, "pending_fields")) != NULL) {
        const char *pending[64];
        size_t indices[64], n = 0, found = 0;
        status = fw_form_pending_fields(form, indices, sizeof indices / sizeof indices[0], &found);
        if (status != FW_OK) status_failure(file, index, "(form)", "fw_form_pending_fields", status);
        for (i = 0; status == FW_OK && i < found; i++) {
            if (indices[i] < *count) pending[n++] = (*ids)[indices[i]];
        }
        check_string_list(file, index, "(form)", "pending_fields", jt, pending, n);
        g_checks++;
        if (after.pending_count != n) {
            failure(file, index, "(form)", "fw_form_info pending_count", "fw_form_pending_fields' count", "another count");
        }
    }
    check_optional_integer(file, index, "(form)", expect, "stale_results", (long long)after.stale_results);
    /* The values for submission of vectors 60-63, when present. */
    if ((jt = json_object_get(expect, "values")) != NULL) check_values(file, index, form, jt, *ids, *count);
    if ((jt = json_object_get(expect, "next_due")) != NULL) {
        uint64_t due = 1;
        bool scheduled = true;
        status = fw_form_next_due_time(form, &due, &scheduled);
        if (status != FW_OK) {
            status_failure(file, index, "(form)", "fw_form_next_due_time", status);
        } else if (!json_is_null(jt) && !(json_is_integer(jt) && json_integer_value(jt) >= 0)) {
            failure(file, index, "(form)", "next_due", "null or an integer in the vector", "something else");
        } else {
            char e[32], g[32];
            snprintf(e, sizeof e, json_is_null(jt) ? "null" : "%lld", (long long)json_integer_value(jt));
            if (scheduled) snprintf(g, sizeof g, "%llu", (unsigned long long)due);
            else snprintf(g, sizeof g, due == 0 ? "null" : "null with due %llu", (unsigned long long)due);
            check_string(file, index, "(form)", "next_due", e, g);
        }
    }
}

/* ---- records through the batch path ---- */

/* The field's initial value in the spec ("" when it has none). */
static const char *initial_value(json_t *spec, const char *id) {
    json_t *fields = json_object_get(spec, "fields"), *field;
    size_t i;
    json_array_foreach(fields, i, field) {
        const char *fid = json_string_value(json_object_get(field, "id"));
        if (fid != NULL && strcmp(fid, id) == 0) {
            const char *initial = json_string_value(json_object_get(field, "initial"));
            return initial != NULL ? initial : "";
        }
    }
    return "";
}

static void run_records(const char *file, fw_form *form, json_t *spec, json_t *records, char **ids, size_t count) {
    size_t n = json_array_size(records), f, r, used = 0, invalid = 0;
    fw_column *columns = calloc(count > 0 ? count : 1, sizeof *columns);
    void **offsets = calloc(count > 0 ? count : 1, sizeof *offsets);
    char **data = calloc(count > 0 ? count : 1, sizeof *data);
    uint8_t *valid = malloc(n > 0 ? n : 1), *flags = malloc(n * count > 0 ? n * count : 1);
    int32_t *rules = malloc((n * count > 0 ? n * count : 1) * sizeof *rules);
    fw_status status;
    if (!columns || !offsets || !data || !valid || !flags || !rules) {
        failure(file, -1, "(records)", "memory", "enough", "out of memory");
        goto done;
    }
    for (f = 0; f < count; f++) {
        size_t size = 0, at = 0;
        int named = 0, wide = used % 2 == 1;
        json_t *record;
        json_array_foreach(records, r, record) {
            const char *v = json_string_value(json_object_get(json_object_get(record, "values"), ids[f]));
            if (v != NULL) named = 1;
            size += strlen(v != NULL ? v : initial_value(spec, ids[f]));
        }
        if (!named) continue; /* no column: every record holds the initial value */
        offsets[used] = malloc((n + 1) * 8);
        data[used] = malloc(size > 0 ? size : 1);
        if (!offsets[used] || !data[used]) {
            failure(file, -1, "(records)", "memory", "enough", "out of memory");
            used++;
            goto done;
        }
        json_array_foreach(records, r, record) {
            const char *v = json_string_value(json_object_get(json_object_get(record, "values"), ids[f]));
            if (v == NULL) v = initial_value(spec, ids[f]);
            if (wide) ((int64_t *)offsets[used])[r] = (int64_t)at;
            else ((int32_t *)offsets[used])[r] = (int32_t)at;
            memcpy(data[used] + at, v, strlen(v));
            at += strlen(v);
        }
        if (wide) ((int64_t *)offsets[used])[n] = (int64_t)at;
        else ((int32_t *)offsets[used])[n] = (int32_t)at;
        columns[used].size = sizeof columns[used];
        columns[used].field_id = ids[f];
        columns[used].offsets = offsets[used];
        columns[used].data = data[used];
        columns[used].data_size = at;
        columns[used].offset_size = wide ? 8 : 4;
        used++;
    }
    status = fw_form_check_batch(form, columns, used, n, 0, valid, rules, flags, &invalid);
    if (status != FW_OK) {
        status_failure(file, -1, "(records)", "fw_form_check_batch", status);
        goto done;
    }
    for (r = 0; r < n; r++) {
        json_t *record = json_array_get(records, r), *jvalid = json_object_get(record, "valid");
        json_t *errors = json_object_get(record, "errors"), *codes = json_object_get(record, "codes");
        char where[64];
        const char *key;
        json_t *message;
        g_records++;
        snprintf(where, sizeof where, "record %zu", r);
        if (!json_is_boolean(jvalid) || !json_is_object(errors)) {
            failure(file, -1, where, "shape", "\"valid\" boolean and \"errors\" object", "missing");
            continue;
        }
        g_checks++;
        if (json_is_true(jvalid) != (valid[r] == 1)) {
            failure(file, -1, where, "batch valid", bool_name(json_is_true(jvalid)), bool_name(valid[r] == 1));
        }
        if (codes != NULL && !json_is_object(codes)) {
            failure(file, -1, where, "codes", "an object in the vector", "something else");
            codes = NULL;
        }
        for (f = 0; f < count; f++) {
            char label[300], by_rule[512], by_record[512];
            const char *want = json_string_value(json_object_get(errors, ids[f]));
            const char *got = "";
            int32_t rule = rules[r * count + f];
            snprintf(label, sizeof label, "record %zu: %s", r, ids[f]);
            if (codes != NULL) {
                /* The cell's code: "pattern_limit" when flagged, else the failing rule's (none: ""). */
                const char *want_code = json_string_value(json_object_get(codes, ids[f]));
                char code[64] = "";
                if (rule >= 0 && (flags[r * count + f] & FW_CELL_LIMIT_EXCEEDED)) {
                    strcpy(code, "pattern_limit");
                } else if (rule >= 0) {
                    status = fw_form_rule_code(form, f, (size_t)rule, code, sizeof code, NULL);
                    if (status != FW_OK) status_failure(file, -1, label, "fw_form_rule_code", status);
                }
                check_string(file, -1, label, "batch code", want_code != NULL ? want_code : "", code);
            }
            status = fw_form_batch_message(form, columns, used, n, r, f, by_record, sizeof by_record, NULL);
            if (status != FW_OK) {
                status_failure(file, -1, label, "fw_form_batch_message", status);
                continue;
            }
            if (rule >= 0) {
                status = fw_form_rule_message(form, f, (size_t)rule, by_rule, sizeof by_rule, NULL);
                if (status != FW_OK) {
                    status_failure(file, -1, label, "fw_form_rule_message", status);
                    continue;
                }
                /* A custom validator's own words, or a pattern stopped at its limits ("This value is too
                   complex to check"): the record's message; else the failing rule's. */
                got = (flags[r * count + f] & (FW_CELL_OWN_MESSAGE | FW_CELL_LIMIT_EXCEEDED)) ? by_record : by_rule;
            }
            check_string(file, -1, label, "batch error", want != NULL ? want : "", got);
            check_string(file, -1, label, "fw_form_batch_message", want != NULL ? want : "", by_record);
        }
        json_object_foreach(errors, key, message) {
            int known = 0;
            (void)message;
            for (f = 0; f < count; f++) known |= strcmp(ids[f], key) == 0;
            if (!known) failure(file, -1, where, "errors", "a field of the form", key);
        }
        if (codes != NULL) {
            json_object_foreach(codes, key, message) {
                int known = 0;
                (void)message;
                for (f = 0; f < count; f++) known |= strcmp(ids[f], key) == 0;
                if (!known) failure(file, -1, where, "codes", "a field of the form", key);
            }
        }
    }
    {
        size_t counted = 0;
        for (r = 0; r < n; r++) counted += valid[r] == 0;
        g_checks++;
        if (counted != invalid) failure(file, -1, "(records)", "out_invalid_count", "the number of 0 flags", "another number");
    }

done:
    for (f = 0; f < used; f++) {
        free(offsets[f]);
        free(data[f]);
    }
    free(columns);
    free(offsets);
    free(data);
    free(valid);
    free(flags);
    free(rules);
}

/* A new form for the vector: the starts_with_plus validator, then the spec (JSON text). NULL on failure. */
static fw_form *new_form(const char *file, const char *spec_text) {
    fw_form *form = NULL;
    fw_status status = fw_form_create(&form);
    if (status != FW_OK) {
        status_failure(file, -1, "(vector)", "fw_form_create", status);
        return NULL;
    }
    status = fw_form_define_validator(form, "starts_with_plus", starts_with_plus, NULL, NULL);
    if (status != FW_OK) {
        status_failure(file, -1, "(vector)", "fw_form_define_validator", status);
        fw_form_free(form);
        return NULL;
    }
    status = fw_form_load_spec(form, spec_text);
    if (status != FW_OK) {
        status_failure(file, -1, "(vector)", "fw_form_load_spec", status);
        fw_form_free(form);
        return NULL;
    }
    return form;
}

/* The records through the submit path, as the Swift runner's `submit(values)`: on a new form per record,
   the record's values set, then fw_form_submit (whole form); the outcome must be the record's `valid`,
   every field whose display is an error must be in `errors` with its display message (and no other
   field), and, when the record has `codes`, in `codes` with its display code. */
static void run_submits(const char *file, const char *spec_text, json_t *records) {
    size_t r, f, count = 0;
    json_t *record;
    json_array_foreach(records, r, record) {
        json_t *values = json_object_get(record, "values"), *jvalid = json_object_get(record, "valid");
        json_t *errors = json_object_get(record, "errors"), *codes = json_object_get(record, "codes"), *jv;
        const char *key;
        char where[64];
        int32_t outcome = -1;
        fw_status status;
        fw_form *form;
        snprintf(where, sizeof where, "record %zu (submit)", r);
        if (!json_is_object(values) || !json_is_boolean(jvalid) || !json_is_object(errors)
            || (codes != NULL && !json_is_object(codes))) {
            failure(file, -1, where, "shape", "\"values\", \"errors\" (and \"codes\") objects, \"valid\" boolean", "another");
            continue;
        }
        form = new_form(file, spec_text);
        if (form == NULL) return;
        if ((status = fw_form_field_count(form, &count)) != FW_OK) {
            status_failure(file, -1, where, "fw_form_field_count", status);
            fw_form_free(form);
            return;
        }
        g_submits++;
        json_object_foreach(values, key, jv) {
            const char *value = json_string_value(jv);
            status = value != NULL ? fw_field_set_value(form, key, value) : FW_ERR_INVALID_ARGUMENT;
            if (status != FW_OK) status_failure(file, -1, where, "fw_field_set_value", status);
        }
        status = fw_form_submit(form, NULL, &outcome);
        if (status != FW_OK) {
            status_failure(file, -1, where, "fw_form_submit", status);
            fw_form_free(form);
            continue;
        }
        g_checks++;
        if ((outcome == FW_SUBMIT_VALID) != json_is_true(jvalid) || (outcome != FW_SUBMIT_VALID && outcome != FW_SUBMIT_INVALID)) {
            failure(file, -1, where, "submit outcome", json_is_true(jvalid) ? "valid" : "invalid",
                    outcome == FW_SUBMIT_VALID ? "valid" : outcome == FW_SUBMIT_INVALID ? "invalid" : "pending or unknown");
        }
        for (f = 0; f < count; f++) {
            fw_snapshot snap;
            char texts[2048], label[300], *id = field_id_at(form, f);
            const char *want = id != NULL ? json_string_value(json_object_get(errors, id)) : NULL;
            const char *want_code = id != NULL && codes != NULL ? json_string_value(json_object_get(codes, id)) : NULL;
            bool shown;
            snprintf(label, sizeof label, "record %zu (submit): %s", r, id != NULL ? id : "(no id)");
            free(id);
            memset(&snap, 0, sizeof snap);
            snap.size = sizeof snap;
            status = fw_field_snapshot_at(form, f, &snap, texts, sizeof texts);
            if (status != FW_OK) {
                status_failure(file, -1, label, "fw_field_snapshot_at", status);
                continue;
            }
            shown = snap.display == FW_DISPLAY_ERROR;
            check_string(file, -1, label, "error", want != NULL ? want : "", shown ? snap.display_message : "");
            if (codes != NULL) check_string(file, -1, label, "code", want_code != NULL ? want_code : "", shown ? snap.display_code : "");
        }
        fw_form_free(form);
    }
}

/* ---- single-value checks ---- */

/* The vector's top-level `checks` through fw_check_value: the check's rules serialized back to JSON
   text, its value and locale (absent: NULL, English); validity, message, code and parameters compared. */
static void run_checks(const char *file, json_t *checks) {
    size_t i;
    json_t *check;
    if (!json_is_array(checks)) {
        failure(file, -1, "(checks)", "checks", "an array", "something else");
        return;
    }
    json_array_foreach(checks, i, check) {
        json_t *rules = json_object_get(check, "rules"), *jlocale = json_object_get(check, "locale");
        json_t *params = json_object_get(check, "params");
        const char *value = json_string_value(json_object_get(check, "value"));
        const char *validity = json_string_value(json_object_get(check, "validity"));
        const char *message = json_string_value(json_object_get(check, "message"));
        const char *code = json_string_value(json_object_get(check, "code"));
        const char *locale = json_string_value(jlocale);
        fw_check_result verdict, sized;
        char where[64], *rules_text, *texts;
        fw_status status;
        snprintf(where, sizeof where, "check %zu", i);
        if (!(json_is_array(rules) || json_is_object(rules)) || value == NULL || validity == NULL || message == NULL
            || code == NULL || !json_is_object(params) || (jlocale != NULL && locale == NULL)) {
            failure(file, -1, where, "shape", "rules, value, validity, message, code, params (and a string locale)", "another");
            continue;
        }
        g_value_checks++;
        rules_text = json_dumps(rules, JSON_COMPACT | JSON_REAL_PRECISION(15));
        if (rules_text == NULL) {
            failure(file, -1, where, "rules", "serializable JSON", "json_dumps failed");
            continue;
        }
        /* Sized first (no buffer: FW_OK, no text), then read into a buffer of exactly text_size. */
        memset(&sized, 0, sizeof sized);
        sized.size = sizeof sized;
        status = fw_check_value(rules_text, value, locale, &sized, NULL, 0);
        if (status != FW_OK) {
            status_failure(file, -1, where, "fw_check_value (sizing)", status);
            free(rules_text);
            continue;
        }
        texts = malloc(sized.text_size > 0 ? sized.text_size : 1);
        if (texts == NULL) {
            failure(file, -1, where, "memory", "enough", "out of memory");
            free(rules_text);
            continue;
        }
        memset(&verdict, 0, sizeof verdict);
        verdict.size = sizeof verdict;
        status = fw_check_value(rules_text, value, locale, &verdict, texts, sized.text_size);
        if (status != FW_OK) {
            status_failure(file, -1, where, "fw_check_value", status);
        } else if (verdict.message == NULL || verdict.code == NULL || verdict.params == NULL) {
            failure(file, -1, where, "texts", "copied", "NULL");
        } else {
            check_string(file, -1, where, "validity", validity, validity_name((int)verdict.validity));
            check_string(file, -1, where, "message", message, verdict.message);
            check_string(file, -1, where, "code", code, verdict.code);
            check_params(file, -1, where, "params", params, verdict.params);
            g_checks++;
            if (verdict.text_size != sized.text_size
                || verdict.text_size != verdict.message_length + verdict.code_length + verdict.params_length + 3
                || (verdict.validity == FW_VALIDITY_INVALID) != (verdict.failing_rule >= 0)) {
                failure(file, -1, where, "text_size / failing_rule", "consistent with the texts and validity", "not");
            }
        }
        free(texts);
        free(rules_text);
    }
}

/* ---- one vector file ---- */

static void run_vector(const char *file) {
    json_error_t error;
    json_t *root = json_load_file(file, 0, &error);
    json_t *spec, *steps, *step;
    fw_form *form = NULL;
    fw_status status;
    char *text = NULL;
    char **ids = NULL;
    size_t count = 0, i, index;

    if (root == NULL) {
        char where[64];
        snprintf(where, sizeof where, "line %d", error.line);
        failure(file, -1, where, "JSON", "a readable vector", error.text);
        return;
    }
    g_vectors++;
    g_label_count = 0;
    spec = json_object_get(root, "spec");
    steps = json_object_get(root, "steps");
    if (!json_is_object(spec) || !json_is_array(steps)) {
        failure(file, -1, "(vector)", "shape", "\"spec\" object and \"steps\" array", "missing");
        json_decref(root);
        return;
    }
    if ((status = fw_form_create(&form)) != FW_OK) {
        status_failure(file, -1, "(vector)", "fw_form_create", status);
        json_decref(root);
        return;
    }
    status = fw_form_define_validator(form, "starts_with_plus", starts_with_plus, NULL, NULL);
    if (status != FW_OK) {
        status_failure(file, -1, "(vector)", "fw_form_define_validator", status);
        goto done;
    }
    /* Reals as 15 significant digits, the shortest text of a decimal bound like 999.99 (jansson's
       default of 17 would hand the library 999.99000000000001, a different bound). */
    text = json_dumps(spec, JSON_COMPACT | JSON_REAL_PRECISION(15));
    if (text == NULL) {
        failure(file, -1, "(vector)", "spec", "serializable JSON", "json_dumps failed");
        goto done;
    }
    status = fw_form_load_spec(form, text);
    if (status != FW_OK) {
        status_failure(file, -1, "(vector)", "fw_form_load_spec", status);
        goto done;
    }
    if ((status = fw_form_field_count(form, &count)) != FW_OK) {
        status_failure(file, -1, "(vector)", "fw_form_field_count", status);
        goto done;
    }
    ids = calloc(count > 0 ? count : 1, sizeof *ids);
    if (ids == NULL) {
        failure(file, -1, "(vector)", "memory", "enough", "out of memory");
        goto done;
    }
    for (i = 0; i < count; i++) {
        ids[i] = field_id_at(form, i);
        if (ids[i] == NULL) {
            status_failure(file, -1, "(vector)", "fw_form_field_id", fw_last_error_code());
            goto done;
        }
    }
    json_array_foreach(steps, index, step) {
        g_steps++;
        run_step(file, (long)index, form, step, &ids, &count); /* refreshes ids (remove_field) */
    }
    /* After the steps on purpose: a batch reads the rules and initial values, never the form's state. */
    if (json_is_array(json_object_get(root, "records"))) {
        run_records(file, form, spec, json_object_get(root, "records"), ids, count);
        run_submits(file, text, json_object_get(root, "records"));
    } else if (json_object_get(root, "records") != NULL) {
        failure(file, -1, "(vector)", "records", "an array", "something else");
    }
    /* Single-value checks (no form). */
    if (json_object_get(root, "checks") != NULL) run_checks(file, json_object_get(root, "checks"));

done:
    free(text);
    if (ids != NULL) {
        for (i = 0; i < count; i++) free(ids[i]);
        free(ids);
    }
    fw_form_free(form);
    json_decref(root);
}

int main(int argc, char **argv) {
    int i;
    if (argc < 2) {
        fprintf(stderr, "usage: %s VECTOR.json...\n", argv[0]);
        return 2;
    }
    for (i = 1; i < argc; i++) run_vector(argv[i]);
    if (fw_form_live_count() != 0) {
        g_failures++;
        printf("conformance_runner: %lu forms still alive after the run\n", (unsigned long)fw_form_live_count());
    }
    printf("conformance_runner: %ld vectors, %ld steps, %ld records (batch), %ld records (submit), %ld value checks, "
           "%ld checks, %ld failures\n", g_vectors, g_steps, g_records, g_submits, g_value_checks, g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}
