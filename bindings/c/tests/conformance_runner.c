/*
 * conformance_runner: runs the cross-runtime conformance vectors (Tests/Conformance/NN-name.json, format in
 * Tests/Conformance/README.md) through the C ABI. For each vector: a new form, the starts_with_plus
 * validator (seed 02's example), the spec loaded with fw_form_load_spec, then every step's event and a
 * comparison of every field's state, is_valid and first_invalid with the step's `expect`.
 * `records` are not run here (they belong to `formwell check`).
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

static long g_vectors, g_steps, g_checks, g_failures;

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

static char *first_invalid(fw_form *form, fw_status *out_status) {
    size_t length = 0;
    fw_status status = fw_form_first_invalid(form, NULL, 0, &length);
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
    status = fw_form_first_invalid(form, buf, length + 1, NULL);
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

static void run_step(const char *file, long index, fw_form *form, json_t *step, char **ids, size_t count) {
    const char *event = json_string_value(json_object_get(step, "event"));
    const char *field = json_string_value(json_object_get(step, "field"));
    const char *value = json_string_value(json_object_get(step, "value"));
    json_t *expect = json_object_get(step, "expect");
    json_t *fields = json_object_get(expect, "fields");
    json_t *jvalid, *jfirst;
    fw_status status = FW_OK;
    bool valid;
    size_t i;
    char *first;

    if (event == NULL) {
        failure(file, index, "-", "event", "a string", "missing");
        return;
    }
    if (strcmp(event, "focus") == 0 || strcmp(event, "blur") == 0 || strcmp(event, "touch") == 0) {
        if (field == NULL) {
            failure(file, index, "-", "field", "a string", "missing");
            return;
        }
        status = event[0] == 'f' ? fw_field_focus(form, field)
               : event[0] == 'b' ? fw_field_blur(form, field) : fw_field_touch(form, field);
    } else if (strcmp(event, "type") == 0 || strcmp(event, "set_value") == 0) {
        if (field == NULL || value == NULL) {
            failure(file, index, "-", "field/value", "strings", "missing");
            return;
        }
        status = fw_field_set_value(form, field, value);
    } else if (strcmp(event, "touch_all") == 0) {
        status = fw_form_touch_all(form);
    } else if (strcmp(event, "reset") == 0) {
        status = fw_form_reset(form);
    } else if (strcmp(event, "validate") == 0) {
        json_t *jreturns = json_object_get(step, "returns");
        status = fw_form_validate(form, &valid);
        if (status == FW_OK) {
            if (!json_is_boolean(jreturns)) {
                failure(file, index, "(form)", "returns", "a boolean in the vector", "missing or not a boolean");
            } else {
                g_checks++;
                if (json_is_true(jreturns) != valid) {
                    failure(file, index, "(form)", "validate returns", bool_name(json_is_true(jreturns)), bool_name(valid));
                }
            }
        }
    } else {
        failure(file, index, "-", "event", "a known event", event);
        return;
    }
    if (status != FW_OK) {
        status_failure(file, index, field != NULL ? field : "(form)", event, status);
        return;
    }

    if (!json_is_object(fields)) {
        failure(file, index, "(form)", "expect.fields", "an object", "missing");
    } else {
        const char *key;
        json_t *want;
        for (i = 0; i < count; i++) {
            json_t *entry = json_object_get(fields, ids[i]);
            if (entry == NULL) {
                failure(file, index, ids[i], "expect.fields", "every field of the form listed", "field missing from the vector");
                continue;
            }
            check_field(file, index, form, ids[i], entry);
        }
        json_object_foreach(fields, key, want) {
            bool known = false;
            (void)want;
            for (i = 0; i < count; i++) {
                if (strcmp(ids[i], key) == 0) known = true;
            }
            if (!known) failure(file, index, key, "expect.fields", "a field of the form", "unknown field");
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
    first = first_invalid(form, &status);
    if (first == NULL) {
        status_failure(file, index, "(form)", "fw_form_first_invalid", status);
    } else if (jfirst == NULL || !(json_is_null(jfirst) || json_is_string(jfirst))) {
        failure(file, index, "(form)", "first_invalid", "a string or null in the vector", "missing");
    } else {
        const char *expected = json_is_null(jfirst) ? "" : json_string_value(jfirst);
        g_checks++;
        if (strcmp(expected, first) != 0) {
            char e[256], g[256];
            snprintf(e, sizeof e, json_is_null(jfirst) ? "null" : "\"%s\"", expected);
            snprintf(g, sizeof g, first[0] == '\0' ? "null" : "\"%s\"", first);
            failure(file, index, "(form)", "first_invalid", e, g);
        }
    }
    free(first);
}

/* ---- one vector file ---- */

static void run_vector(const char *file) {
    json_error_t error;
    json_t *root = json_load_file(file, 0, &error);
    json_t *spec, *steps, *step;
    fw_form *form = NULL;
    fw_status status;
    char *text;
    char **ids = NULL;
    size_t count = 0, i, index;

    if (root == NULL) {
        char where[64];
        snprintf(where, sizeof where, "line %d", error.line);
        failure(file, -1, where, "JSON", "a readable vector", error.text);
        return;
    }
    g_vectors++;
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
    text = json_dumps(spec, JSON_COMPACT);
    if (text == NULL) {
        failure(file, -1, "(vector)", "spec", "serializable JSON", "json_dumps failed");
        goto done;
    }
    status = fw_form_load_spec(form, text);
    free(text);
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
        run_step(file, (long)index, form, step, ids, count);
    }

done:
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
    printf("conformance_runner: %ld vectors, %ld steps, %ld checks, %ld failures\n",
           g_vectors, g_steps, g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}
