/* Form behaviour through the C ABI: every validation mode on a short event sequence, error
   mode "all" and the snapshot's error list, groups, external errors, removing fields (and the id
   cache), reset to new initial values, the form's info and change tracking, the announcement, the
   presentation members (tint, label_raised, emphasized, hint, label, initial), and the snapshot
   growth rule between its first and second versions. Every expected value is written from the
   design, not read from the library. */
#include <stdalign.h>
#include <stdint.h>

#include "check.h"
#include "seed_rules.h"

#define REQUIRED "This field is required"
#define MIN3 "Must be at least 3 characters"
#define MIN3_HINT "Enter at least 3 characters"
#define SENTINEL 0xA5

/* ---- helpers ---- */

/* A second-version snapshot and its texts. */
typedef struct {
    fw_snapshot s;
    char texts[2048];
} view;

/* Reads the field's snapshot (size = sizeof(fw_snapshot)); a failed read is a failed check. */
static const fw_snapshot *look(fw_form *form, const char *id, view *v) {
    fw_status status;
    memset(&v->s, SENTINEL, sizeof v->s);
    v->s.size = sizeof v->s;
    status = fw_field_snapshot(form, id, &v->s, v->texts, sizeof v->texts);
    check_count++;
    if (status != FW_OK) {
        check_failures++;
        fprintf(stderr, "%s: fw_field_snapshot(%s) returned %s\n", __FILE__, id, fw_status_string(status));
        memset(&v->s, 0, sizeof v->s);
        v->s.message = v->s.display_message = v->s.value = v->s.label = v->s.initial = v->s.hint = v->s.errors = "";
    }
    return &v->s;
}

/* What a field shows, as a view reads it. */
typedef struct {
    fw_phase phase;
    fw_validity validity;
    const char *message;
    fw_display display;
    const char *display_message;
    fw_tint tint;
    const char *hint;
} shown;

/* Checks the shown state, and what follows from it: emphasized is the focused phase; in error mode
   "first" the error list is [message] when invalid, else empty. One check. */
static void check_shown(int line, fw_form *form, const char *id, shown want) {
    view v;
    const fw_snapshot *s = look(form, id, &v);
    int invalid = want.validity == FW_VALIDITY_INVALID;
    int ok = s->phase == (int32_t)want.phase && s->validity == (int32_t)want.validity
          && strcmp(s->message, want.message) == 0 && s->display == (int32_t)want.display
          && strcmp(s->display_message, want.display_message) == 0 && s->tint == (int32_t)want.tint
          && strcmp(s->hint, want.hint) == 0 && s->hint_length == strlen(want.hint)
          && s->emphasized == (want.phase == FW_PHASE_FOCUSED)
          && s->error_count == (invalid ? 1u : 0u) && strcmp(s->errors, invalid ? want.message : "") == 0
          && s->errors_size == (invalid ? strlen(want.message) + 1 : 0);
    check_count++;
    if (!ok) {
        check_failures++;
        fprintf(stderr,
                "%s:%d: field '%s': got phase %d validity %d \"%s\" display %d \"%s\" tint %d hint \"%s\" "
                "emphasized %d errors %zu \"%s\"; expected phase %d validity %d \"%s\" display %d \"%s\" tint %d "
                "hint \"%s\"\n",
                __FILE__, line, id, (int)s->phase, (int)s->validity, s->message, (int)s->display,
                s->display_message, (int)s->tint, s->hint, (int)s->emphasized, s->error_count, s->errors,
                (int)want.phase, (int)want.validity, want.message, (int)want.display, want.display_message,
                (int)want.tint, want.hint);
    }
}

#define CHECK_SHOWN(form, id, ...) check_shown(__LINE__, form, id, (shown){__VA_ARGS__})

/* Shown states used again and again. */
#define NOTHING_FOCUSED FW_PHASE_FOCUSED, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", FW_TINT_ACCENT, ""
#define IDLE FW_PHASE_IDLE, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", FW_TINT_NEUTRAL, ""
#define SHOWN_TOO_SHORT(phase) phase, FW_VALIDITY_INVALID, MIN3, FW_DISPLAY_ERROR, MIN3, FW_TINT_ERROR, MIN3_HINT

static bool is_valid(fw_form *form) {
    bool valid = false;
    CHECK_OK(fw_form_is_valid(form, &valid));
    return valid;
}

static bool validate(fw_form *form) {
    bool valid = false;
    CHECK_OK(fw_form_validate(form, &valid));
    return valid;
}

/* The form's first invalid field, "" when none (a static buffer). */
static const char *first_invalid(fw_form *form) {
    static char buf[64];
    CHECK_OK(fw_form_first_invalid(form, buf, sizeof buf, NULL));
    return buf;
}


/* Whether the snapshot's error list holds exactly `count` messages, `want`. */
static int errors_are(const fw_snapshot *s, const char *const *want, size_t count) {
    const char *at = s->errors;
    size_t i, size = 0;
    if (s->error_count != count || at == NULL) return 0;
    for (i = 0; i < count; i++) {
        if (strcmp(at, want[i]) != 0) return 0;
        size += strlen(want[i]) + 1;
        at += strlen(want[i]) + 1;
    }
    return s->errors_size == size && *at == '\0'; /* the list's final NUL */
}

/* The indices fw_form_changed_since answers, as a string "0,2" ("" for none). */
static const char *changed_since(fw_form *form, uint64_t revision) {
    static char out[128];
    size_t indices[16], count = 99, i, used = 0;
    out[0] = '\0';
    CHECK_OK(fw_form_changed_since(form, revision, indices, 16, &count));
    for (i = 0; i < count && i < 16; i++) {
        used += (size_t)snprintf(out + used, sizeof out - used, i ? ",%zu" : "%zu", indices[i]);
    }
    return out;
}

/* A form in the given mode with "f" (label "Code": required, at least 3 characters) and "g" (no rules). */
static fw_form *mode_form(int32_t mode) {
    fw_form *form = NULL;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_set_mode(form, mode));
    CHECK_OK(fw_form_add_field(form, "f", "Code", NULL));
    CHECK_OK(fw_field_add_required(form, "f", NULL));
    CHECK_OK(fw_field_add_min_length(form, "f", 3, NULL));
    CHECK_OK(fw_form_add_field(form, "g", NULL, NULL));
    return form;
}

/* ---- validation modes ---- */

static void mode_two_stage(void) {
    fw_form *form = mode_form(FW_MODE_TWO_STAGE);
    view v;
    CHECK(form_info(form).mode == FW_MODE_TWO_STAGE);
    CHECK(look(form, "f", &v)->mode == FW_MODE_TWO_STAGE);
    CHECK_SHOWN(form, "f", IDLE);
    CHECK_OK(fw_field_focus(form, "f"));
    CHECK_SHOWN(form, "f", NOTHING_FOCUSED); /* lenient: empty and required is no error while focused */
    CHECK_OK(fw_field_set_value(form, "f", "ab"));
    CHECK_SHOWN(form, "f", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, MIN3, FW_DISPLAY_NONE, "", FW_TINT_ERROR, "");
    CHECK_OK(fw_field_blur(form, "f"));
    CHECK_SHOWN(form, "f", SHOWN_TOO_SHORT(FW_PHASE_INACTIVE));
    /* The per-property queries say the same. */
    CHECK_FIELD(form, "f", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, MIN3, FW_DISPLAY_ERROR, MIN3, true);
    CHECK_OK(fw_field_focus(form, "f"));
    CHECK_OK(fw_field_set_value(form, "f", ""));
    /* Focused and empty: the input is lenient, the display (touched) strict. */
    CHECK_SHOWN(form, "f", FW_PHASE_FOCUSED, FW_VALIDITY_EMPTY, "", FW_DISPLAY_ERROR, REQUIRED, FW_TINT_ACCENT,
                "Enter a value");
    CHECK_OK(fw_form_free(form));
}

static void mode_on_change(void) {
    fw_form *form = mode_form(FW_MODE_ON_CHANGE);
    view v;
    CHECK(form_info(form).mode == FW_MODE_ON_CHANGE);
    CHECK(look(form, "f", &v)->mode == FW_MODE_ON_CHANGE);
    CHECK_OK(fw_field_focus(form, "f"));
    /* Strict while focused: empty and required is invalid at once (shown once touched). */
    CHECK_SHOWN(form, "f", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, REQUIRED, FW_DISPLAY_NONE, "", FW_TINT_ERROR, "");
    CHECK_OK(fw_field_set_value(form, "f", "abc"));
    CHECK_SHOWN(form, "f", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, "", FW_DISPLAY_NONE, "", FW_TINT_ACCENT, "");
    CHECK_OK(fw_field_blur(form, "f"));
    CHECK_SHOWN(form, "f", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", FW_TINT_ACCENT, "");
    CHECK_OK(fw_form_free(form));
}

static void mode_on_blur(void) {
    fw_form *form = mode_form(FW_MODE_ON_BLUR);
    CHECK_OK(fw_field_focus(form, "f"));
    CHECK_SHOWN(form, "f", NOTHING_FOCUSED);
    CHECK_OK(fw_field_set_value(form, "f", "ab"));
    CHECK_SHOWN(form, "f", NOTHING_FOCUSED); /* nothing shown before the first blur */
    CHECK(!is_valid(form));                  /* the live verdict is current all the same */
    CHECK_STR(first_invalid(form), "f");
    CHECK_OK(fw_field_blur(form, "f"));
    CHECK_SHOWN(form, "f", SHOWN_TOO_SHORT(FW_PHASE_INACTIVE));
    CHECK_OK(fw_field_focus(form, "f"));
    CHECK_OK(fw_field_set_value(form, "f", "abcd"));
    CHECK_SHOWN(form, "f", SHOWN_TOO_SHORT(FW_PHASE_FOCUSED)); /* frozen at the blur */
    CHECK(is_valid(form));
    CHECK_STR(first_invalid(form), "");
    CHECK_OK(fw_field_focus(form, "g")); /* focus moves on: an implicit blur refreshes it */
    CHECK_SHOWN(form, "f", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", FW_TINT_ACCENT, "");
    CHECK_OK(fw_form_reset(form));
    CHECK_SHOWN(form, "f", IDLE);
    CHECK_OK(fw_form_free(form));
}

static void mode_on_touched(void) {
    fw_form *form = mode_form(FW_MODE_ON_TOUCHED);
    CHECK_OK(fw_field_focus(form, "f"));
    CHECK_OK(fw_field_set_value(form, "f", "ab"));
    CHECK_SHOWN(form, "f", NOTHING_FOCUSED); /* frozen (nothing yet) until touched */
    CHECK_OK(fw_field_blur(form, "f"));
    CHECK_SHOWN(form, "f", SHOWN_TOO_SHORT(FW_PHASE_INACTIVE));
    CHECK_OK(fw_field_focus(form, "f"));
    CHECK_OK(fw_field_set_value(form, "f", "abcd")); /* touched: live and strict */
    CHECK_SHOWN(form, "f", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", FW_TINT_ACCENT, "");
    CHECK_OK(fw_field_set_value(form, "f", ""));
    CHECK_SHOWN(form, "f", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, REQUIRED, FW_DISPLAY_ERROR, REQUIRED, FW_TINT_ERROR,
                "Enter a value");
    CHECK_OK(fw_form_free(form));
}

static void mode_on_submit(void) {
    fw_form *form = mode_form(FW_MODE_ON_SUBMIT);
    bool valid = true;
    view v;
    CHECK_OK(fw_field_focus(form, "f"));
    CHECK_OK(fw_field_set_value(form, "f", "ab"));
    CHECK_OK(fw_field_blur(form, "f"));
    /* Touched, inactive, and still nothing shown until a validate. */
    CHECK_SHOWN(form, "f", FW_PHASE_INACTIVE, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", FW_TINT_NEUTRAL, "");
    CHECK(look(form, "f", &v)->touched);
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid);
    CHECK_SHOWN(form, "f", SHOWN_TOO_SHORT(FW_PHASE_INACTIVE));
    CHECK_OK(fw_field_set_value(form, "f", "abcd")); /* then live */
    CHECK_SHOWN(form, "f", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", FW_TINT_ACCENT, "");
    CHECK_OK(fw_form_reset(form));
    /* Not submitted since the reset: a set-value changes the value and the live verdict only (as
       in the frozen modes: the phase stays idle). */
    CHECK_OK(fw_field_set_value(form, "f", "x"));
    CHECK_SHOWN(form, "f", IDLE);
    CHECK(!is_valid(form));
    CHECK_OK(fw_form_free(form));
}

/* A field's own mode, FW_MODE_FORM, and refused values. */
static void field_modes(void) {
    fw_form *form = mode_form(FW_MODE_TWO_STAGE);
    view v;
    CHECK_OK(fw_field_set_mode(form, "f", FW_MODE_ON_SUBMIT));
    CHECK(look(form, "f", &v)->mode == FW_MODE_ON_SUBMIT);
    CHECK(look(form, "g", &v)->mode == FW_MODE_TWO_STAGE);
    CHECK_OK(fw_field_set_value(form, "f", "ab"));
    CHECK_OK(fw_field_touch(form, "f"));
    CHECK_SHOWN(form, "f", FW_PHASE_INACTIVE, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", FW_TINT_NEUTRAL, "");
    CHECK_OK(fw_form_set_mode(form, FW_MODE_ON_CHANGE)); /* "f" keeps its own; "g" follows */
    CHECK(look(form, "f", &v)->mode == FW_MODE_ON_SUBMIT);
    CHECK(look(form, "g", &v)->mode == FW_MODE_ON_CHANGE);
    CHECK_OK(fw_field_set_mode(form, "f", FW_MODE_FORM)); /* back to the form's: on_change, live */
    CHECK(look(form, "f", &v)->mode == FW_MODE_ON_CHANGE);
    CHECK_SHOWN(form, "f", SHOWN_TOO_SHORT(FW_PHASE_INACTIVE));
    CHECK(form_info(form).mode == FW_MODE_ON_CHANGE);

    CHECK_STATUS(fw_form_set_mode(form, FW_MODE_FORM), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_set_mode(form, 5), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_set_mode(form, INT32_MIN), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_set_mode(form, "f", -2), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_set_mode(form, "f", 5), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_set_mode(form, "nope", FW_MODE_ON_BLUR), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_form_set_error_mode(form, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_set_error_mode(form, -1), FW_ERR_INVALID_ARGUMENT);
    CHECK(form_info(form).mode == FW_MODE_ON_CHANGE && form_info(form).error_mode == FW_ERRORS_FIRST); /* unchanged */
    CHECK(look(form, "f", &v)->mode == FW_MODE_ON_CHANGE);
    CHECK_OK(fw_form_free(form));
}

/* ---- error mode "all" ---- */

static void error_mode_all(void) {
    static const char *const both[] = {"Too short", "Lowercase only"};
    static const char *const required[] = {REQUIRED};
    static const char *const regex_only[] = {"Lowercase only"};
    fw_form *form = NULL;
    fw_rule rules[3];
    view v;
    const fw_snapshot *s;
    rules[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[1] = test_rule(FW_RULE_MIN_LENGTH, 5, NULL, "Too short");
    rules[2] = test_rule(FW_RULE_REGEX, 0, "^[a-z]+$", "Lowercase only");
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field_with_rules(form, "u", NULL, NULL, rules, 3));
    CHECK_OK(fw_field_set_value(form, "u", "AB1")); /* programmatic: inactive, strict */

    /* "first": the first failing rule only. */
    s = look(form, "u", &v);
    CHECK(s->validity == FW_VALIDITY_INVALID && s->failing_rule == 1);
    CHECK_STR(s->message, "Too short");
    CHECK(errors_are(s, both, 1));
    CHECK(form_info(form).error_mode == FW_ERRORS_FIRST);

    /* "all": every failing rule's message in rule order; the message is the first. */
    CHECK_OK(fw_form_set_error_mode(form, FW_ERRORS_ALL));
    CHECK(form_info(form).error_mode == FW_ERRORS_ALL);
    s = look(form, "u", &v);
    CHECK(s->validity == FW_VALIDITY_INVALID && s->failing_rule == 1);
    CHECK_STR(s->message, "Too short");
    CHECK(errors_are(s, both, 2));
    CHECK(s->errors_size == 10 + 15);
    /* The texts are back to back: ..., hint, then the list and its final NUL; text_size counts it all. */
    CHECK(s->errors == s->hint + s->hint_length + 1);
    CHECK(s->text_size == s->message_length + s->display_message_length + s->value_length + 3
                          + s->label_length + s->initial_length + s->hint_length + 3 + 25 + 1
                          + s->normalized_length + 1 /* the third version's normalised value */
                          + snapshot_v4_text_bytes(s)); /* the fourth version's codes and parameters last */
    CHECK(s->normalized == s->errors + 25 + 1 && s->normalized_length == s->value_length);
    /* The fourth version's code list is laid out as the error list: one code per message. */
    CHECK(s->error_codes_size == 11 + 6 && memcmp(s->error_codes, "min_length\0regex\0", 18) == 0);
    CHECK_STR(s->code, "min_length");
    CHECK_OK(fw_field_set_value(form, "u", "ABCDEF")); /* long enough, still not lowercase */
    s = look(form, "u", &v);
    CHECK(s->failing_rule == 2 && errors_are(s, regex_only, 1));
    CHECK_STR(s->message, "Lowercase only");
    CHECK_OK(fw_field_set_value(form, "u", "")); /* empty: required alone */
    s = look(form, "u", &v);
    CHECK(s->failing_rule == 0 && errors_are(s, required, 1));
    CHECK_OK(fw_field_set_value(form, "u", "abcdef"));
    s = look(form, "u", &v);
    CHECK(s->validity == FW_VALIDITY_VALID && s->error_count == 0 && s->errors_size == 0);
    CHECK_STR(s->errors, "");
    /* Back to "first". */
    CHECK_OK(fw_field_set_value(form, "u", "AB1"));
    CHECK_OK(fw_form_set_error_mode(form, FW_ERRORS_FIRST));
    CHECK(errors_are(look(form, "u", &v), both, 1));
    /* A kept copy (on_blur) shows every message of "all", and their codes, until the next blur. */
    CHECK_OK(fw_form_set_error_mode(form, FW_ERRORS_ALL));
    CHECK_OK(fw_field_set_mode(form, "u", FW_MODE_ON_BLUR));
    CHECK_OK(fw_field_blur(form, "u"));
    s = look(form, "u", &v);
    CHECK(s->validity == FW_VALIDITY_INVALID && s->failing_rule == 1 && errors_are(s, both, 2));
    CHECK(s->error_codes_size == 11 + 6 && memcmp(s->error_codes, "min_length\0regex\0", 18) == 0);
    CHECK_OK(fw_field_focus(form, "u"));
    CHECK_OK(fw_field_set_value(form, "u", "abcdef")); /* valid now: the copy still shows both */
    s = look(form, "u", &v);
    CHECK(s->validity == FW_VALIDITY_INVALID && errors_are(s, both, 2) && s->error_codes_size == 11 + 6);
    CHECK_OK(fw_field_blur(form, "u"));
    s = look(form, "u", &v);
    CHECK(s->validity == FW_VALIDITY_VALID && s->error_count == 0 && s->errors_size == 0 && s->error_codes_size == 0);
    CHECK_OK(fw_form_free(form));
}

/* ---- groups ---- */

static void groups(void) {
    fw_form *form = NULL;
    bool valid = true;
    char buf[32];
    size_t length = 99;
    view v;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "a", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "a", NULL));
    CHECK_OK(fw_form_add_field(form, "b", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "b", NULL));
    CHECK_OK(fw_form_add_field(form, "c", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "c", NULL));
    CHECK_OK(fw_form_add_field(form, "d", NULL, NULL)); /* in no group */
    CHECK_OK(fw_field_add_group(form, "a", "one"));
    CHECK_OK(fw_field_add_group(form, "b", "one"));
    CHECK_OK(fw_field_add_group(form, "b", "two"));
    CHECK_OK(fw_field_add_group(form, "b", "two")); /* again: no change */
    CHECK_OK(fw_field_add_group(form, "c", "two"));

    CHECK_OK(fw_field_set_value(form, "a", "filled"));
    CHECK(look(form, "a", &v)->modified_since_submit);
    CHECK_OK(fw_form_is_valid_group(form, "one", &valid));
    CHECK(!valid);
    CHECK_OK(fw_form_first_invalid_group(form, "one", buf, sizeof buf, &length));
    CHECK_STR(buf, "b");
    CHECK(length == 1);
    CHECK_OK(fw_form_first_invalid_group(form, "two", buf, sizeof buf, NULL));
    CHECK_STR(buf, "b");

    /* Validating group "one" touches a and b only, is no submit, and clears their modified flag. */
    valid = true;
    CHECK_OK(fw_form_validate_group(form, "one", &valid));
    CHECK(!valid);
    CHECK(look(form, "a", &v)->touched && !v.s.modified_since_submit);
    CHECK(look(form, "b", &v)->touched && v.s.display == FW_DISPLAY_ERROR);
    CHECK(!look(form, "c", &v)->touched && v.s.display == FW_DISPLAY_NONE);
    CHECK(!look(form, "d", &v)->touched);
    CHECK(form_info(form).submit_count == 0 && !form_info(form).submit_failed);

    CHECK_OK(fw_field_set_value(form, "b", "x"));
    CHECK_OK(fw_form_validate_group(form, "one", &valid));
    CHECK(valid);
    CHECK_OK(fw_form_is_valid_group(form, "one", &valid));
    CHECK(valid);
    CHECK_OK(fw_form_first_invalid_group(form, "one", buf, sizeof buf, &length));
    CHECK_STR(buf, "");
    CHECK(length == 0);
    CHECK_OK(fw_form_first_invalid_group(form, "two", buf, sizeof buf, NULL));
    CHECK_STR(buf, "c");
    CHECK_OK(fw_form_is_valid_group(form, "two", &valid));
    CHECK(!valid);

    /* touch_all of group "two": b and c. */
    CHECK_OK(fw_form_touch_all_group(form, "two"));
    CHECK(look(form, "c", &v)->touched && v.s.display == FW_DISPLAY_ERROR);
    CHECK_STR(v.s.display_message, REQUIRED);
    CHECK(!look(form, "d", &v)->touched);

    /* A group no field belongs to, and an empty name: refused, nothing changes. */
    strcpy(buf, "stale");
    CHECK_STATUS(fw_form_validate_group(form, "three", &valid), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_touch_all_group(form, "three"), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_is_valid_group(form, "three", &valid), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_first_invalid_group(form, "three", buf, sizeof buf, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK_STR(buf, "");
    CHECK_STATUS(fw_form_validate_group(form, "", &valid), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_add_group(form, "a", ""), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_add_group(form, "nope", "one"), FW_ERR_UNKNOWN_FIELD);
    CHECK(!look(form, "d", &v)->touched);

    /* group NULL: the whole form. */
    CHECK_OK(fw_form_is_valid_group(form, NULL, &valid));
    CHECK(!valid);
    CHECK_OK(fw_form_first_invalid_group(form, NULL, buf, sizeof buf, NULL));
    CHECK_STR(buf, "c");
    CHECK_OK(fw_form_validate_group(form, NULL, &valid));
    CHECK(!valid);
    CHECK(look(form, "d", &v)->touched);
    CHECK(form_info(form).submit_count == 1 && form_info(form).submit_failed);
    CHECK_OK(fw_field_set_value(form, "c", "y"));
    CHECK_OK(fw_form_validate_group(form, "two", &valid));
    CHECK(valid);
    CHECK(form_info(form).submit_count == 1 && form_info(form).submit_failed); /* a group validate is not a submit */
    CHECK_OK(fw_form_free(form));
}

/* ---- external errors ---- */

static void external_errors(void) {
    fw_form *form = NULL;
    view v;
    const fw_snapshot *s;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "email", "Email", NULL));
    CHECK_OK(fw_field_add_required(form, "email", NULL));
    CHECK_OK(fw_field_add_email(form, "email", NULL));
    CHECK_OK(fw_form_add_field(form, "nick", NULL, NULL)); /* optional */
    CHECK_OK(fw_field_focus(form, "email"));
    CHECK_OK(fw_field_set_value(form, "email", "ada@example.com"));
    CHECK_OK(fw_field_blur(form, "email"));
    CHECK(is_valid(form));

    CHECK_OK(fw_field_set_error(form, "email", "Already registered"));
    CHECK_SHOWN(form, "email", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Already registered", FW_DISPLAY_ERROR,
                "Already registered", FW_TINT_ERROR, "Correct this field");
    s = look(form, "email", &v);
    CHECK(s->external_error && s->failing_rule == -1);
    CHECK(!is_valid(form));
    CHECK_STR(first_invalid(form), "email");
    /* The same value again keeps it; another value ends it. */
    CHECK_OK(fw_field_set_value(form, "email", "ada@example.com"));
    CHECK(look(form, "email", &v)->external_error);
    CHECK_OK(fw_field_set_value(form, "email", "grace@example.com"));
    CHECK(!look(form, "email", &v)->external_error && v.s.validity == FW_VALIDITY_VALID);
    CHECK(is_valid(form));

    /* On an optional, empty, untouched field: idle reads empty, but the form is invalid. */
    CHECK_OK(fw_field_set_error(form, "nick", "Pick another"));
    CHECK_SHOWN(form, "nick", IDLE);
    CHECK(look(form, "nick", &v)->external_error);
    CHECK(!is_valid(form));
    CHECK_STR(first_invalid(form), "nick");
    CHECK_OK(fw_field_touch(form, "nick")); /* judged: inactive, not idle, with the error */
    CHECK_SHOWN(form, "nick", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Pick another", FW_DISPLAY_ERROR,
                "Pick another", FW_TINT_ERROR, "Correct this field");
    CHECK_OK(fw_field_set_error(form, "email", "Taken"));
    CHECK_OK(fw_field_clear_error(form, "nick"));
    CHECK(!look(form, "nick", &v)->external_error);
    CHECK_SHOWN(form, "nick", IDLE); /* empty and optional again */
    CHECK_OK(fw_field_clear_error(form, "nick")); /* none: no change */
    CHECK(look(form, "email", &v)->external_error);
    CHECK_OK(fw_field_set_error(form, "nick", "Pick another"));
    CHECK_OK(fw_form_clear_errors(form));
    CHECK(!look(form, "email", &v)->external_error && !look(form, "nick", &v)->external_error);
    CHECK(is_valid(form));

    /* A reset clears them too. */
    CHECK_OK(fw_field_set_error(form, "email", "Taken"));
    CHECK_OK(fw_form_reset(form));
    CHECK(!look(form, "email", &v)->external_error);

    CHECK_STATUS(fw_field_set_error(form, "email", ""), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_set_error(form, "nope", "x"), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_field_clear_error(form, "nope"), FW_ERR_UNKNOWN_FIELD);
    CHECK(!look(form, "email", &v)->external_error);
    CHECK_OK(fw_form_free(form));
}

/* ---- removing fields ---- */

static void remove_field(void) {
    fw_form *form = NULL;
    size_t index = 99, count = 0;
    char buf[32];
    view v;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "a", NULL, "va"));
    CHECK_OK(fw_form_add_field(form, "b", NULL, "vb"));
    CHECK_OK(fw_form_add_field(form, "pw", "Password", "secret"));
    CHECK_OK(fw_form_add_field(form, "confirm", NULL, NULL));
    CHECK_OK(fw_field_add_matches(form, "confirm", "pw", NULL));

    /* Refused while a matches rule names it. */
    CHECK_STATUS(fw_form_remove_field(form, "pw"), FW_ERR_INVALID_ARGUMENT);
    CHECK_OK(fw_form_field_count(form, &count));
    CHECK(count == 4);
    CHECK_STATUS(fw_form_remove_field(form, "nope"), FW_ERR_UNKNOWN_FIELD);

    /* Name "b" by id (the slot caches "b" -> 1), remove "a", name "b" again: index 0 now. A stale
       cache would write "pw" (index 1 after the removal). */
    CHECK_OK(fw_field_set_value(form, "b", "first"));
    CHECK_OK(fw_field_focus(form, "b"));
    CHECK_OK(fw_form_remove_field(form, "a"));
    CHECK_OK(fw_field_set_value(form, "b", "second"));
    CHECK_OK(fw_field_value(form, "b", buf, sizeof buf, NULL));
    CHECK_STR(buf, "second");
    CHECK_OK(fw_field_value(form, "pw", buf, sizeof buf, NULL));
    CHECK_STR(buf, "secret");
    CHECK(look(form, "b", &v)->index == 0);
    CHECK_OK(fw_form_field_index(form, "pw", &index));
    CHECK(index == 1);
    CHECK_OK(fw_form_field_id(form, 0, buf, sizeof buf, NULL));
    CHECK_STR(buf, "b");
    CHECK_OK(fw_field_snapshot_at(form, 2, &v.s, v.texts, sizeof v.texts));
    CHECK_STR(v.s.label, "confirm");
    CHECK_STATUS(fw_field_snapshot_at(form, 3, &v.s, v.texts, sizeof v.texts), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_value(form, "a", buf, sizeof buf, NULL), FW_ERR_UNKNOWN_FIELD);
    /* The same through a cached id that is then removed: it is unknown afterwards. */
    CHECK_OK(fw_field_set_value(form, "confirm", "secret"));
    CHECK(look(form, "confirm", &v)->validity == FW_VALIDITY_VALID);
    CHECK_OK(fw_form_remove_field(form, "confirm"));
    CHECK_STATUS(fw_field_set_value(form, "confirm", "x"), FW_ERR_UNKNOWN_FIELD);
    CHECK_OK(fw_form_remove_field(form, "pw")); /* nothing names it now */
    CHECK(form_info(form).field_count == 1);
    /* "b" had focus and was not removed: still focused. Remove it: no field is focused. */
    CHECK(look(form, "b", &v)->phase == FW_PHASE_FOCUSED);
    CHECK_OK(fw_form_add_field(form, "z", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "z", NULL));
    CHECK_OK(fw_form_remove_field(form, "b"));
    CHECK_OK(fw_field_focus(form, "z"));
    CHECK_OK(fw_field_blur(form, "z"));
    CHECK(look(form, "z", &v)->index == 0 && v.s.phase == FW_PHASE_INACTIVE);
    CHECK_OK(fw_form_remove_field(form, "z"));
    CHECK(form_info(form).field_count == 0);
    CHECK(is_valid(form));
    CHECK_OK(fw_form_free(form));
}

/* ---- reset to new initial values ---- */

static void reset_values(void) {
    const char *ids[2] = {"email", "name"}, *values[2] = {"ada@example.com", "Ada L."};
    const char *unknown[2] = {"email", "nope"}, *twice[2] = {"email", "email"};
    fw_form *form = NULL;
    bool valid = false;
    view v;
    fw_form_info i;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "name", NULL, "Ada"));
    CHECK_OK(fw_form_add_field(form, "email", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "email", NULL));
    CHECK_OK(fw_field_add_email(form, "email", NULL));
    CHECK_OK(fw_field_focus(form, "email"));
    CHECK_OK(fw_field_set_value(form, "email", "old@example.com"));
    CHECK_OK(fw_field_set_error(form, "name", "Server says no"));
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid && form_info(form).submit_count == 1);

    /* Refused (nothing changes): an unknown id, an id twice, NULL arrays or elements. */
    CHECK_STATUS(fw_form_reset_values(form, unknown, values, 2), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_form_reset_values(form, twice, values, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_reset_values(form, NULL, values, 1), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_form_reset_values(form, ids, NULL, 1), FW_ERR_NULL_ARGUMENT);
    CHECK(form_info(form).submit_count == 1);
    CHECK(look(form, "email", &v)->phase == FW_PHASE_FOCUSED && v.s.visited && v.s.touched);
    CHECK_STR(v.s.value, "old@example.com");
    CHECK_STR(v.s.initial, "");

    CHECK_OK(fw_form_reset_values(form, ids, values, 2));
    CHECK_SHOWN(form, "email", IDLE);
    CHECK(!look(form, "email", &v)->touched && !v.s.visited && !v.s.dirty && !v.s.modified_since_submit);
    CHECK(v.s.label_raised); /* idle, but not empty */
    CHECK_STR(v.s.value, "ada@example.com");
    CHECK_STR(v.s.initial, "ada@example.com");
    CHECK(!look(form, "name", &v)->external_error);
    CHECK_STR(v.s.value, "Ada L.");
    CHECK_STR(v.s.initial, "Ada L.");
    i = form_info(form);
    CHECK(i.submit_count == 0 && !i.submit_failed && !i.dirty && i.dirty_count == 0);
    /* A plain reset now goes back to the new initial values; count 0 is a plain reset. */
    CHECK_OK(fw_field_set_value(form, "name", "Someone"));
    CHECK(form_info(form).dirty_count == 1);
    CHECK_OK(fw_form_reset_values(form, NULL, NULL, 0));
    CHECK_OK(fw_field_value(form, "name", v.texts, sizeof v.texts, NULL));
    CHECK_STR(v.texts, "Ada L.");
    CHECK_OK(fw_form_free(form));
}

/* ---- the form's info, flags and change tracking ---- */

static void info_and_changes(void) {
    fw_form *form = NULL;
    fw_form_info i, before;
    uint64_t revision;
    size_t indices[4], count = 0;
    view v;
    struct {
        fw_form_info info;
        unsigned char later[24];
    } grown;
    CHECK_OK(fw_form_create(&form));
    i = form_info(form);
    CHECK(i.size == sizeof i && i.field_count == 0 && i.dirty_count == 0 && i.revision == 0);
    CHECK(i.submit_count == 0 && !i.submit_failed && !i.dirty);
    CHECK(i.mode == FW_MODE_TWO_STAGE && i.error_mode == FW_ERRORS_FIRST);

    CHECK_OK(fw_form_add_field(form, "word", NULL, "caf\xc3\xa9")); /* precomposed e-acute */
    CHECK_OK(fw_form_add_field(form, "num", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "num", NULL));
    CHECK_OK(fw_form_add_field(form, "note", NULL, NULL));
    i = form_info(form);
    CHECK(i.field_count == 3 && i.revision >= 3);
    CHECK_STR(changed_since(form, 0), "0,1,2"); /* adding a field is a change of it */
    CHECK(look(form, "note", &v)->revision == i.revision);

    /* dirty compares bytes: the decomposed spelling is a change. */
    revision = i.revision;
    CHECK_OK(fw_field_set_value(form, "word", "cafe\xcc\x81"));
    CHECK(look(form, "word", &v)->dirty && v.s.modified_since_submit);
    i = form_info(form);
    CHECK(i.dirty && i.dirty_count == 1 && i.revision > revision);
    CHECK(v.s.revision == i.revision);
    CHECK_STR(changed_since(form, revision), "0");
    CHECK_OK(fw_field_set_value(form, "word", "caf\xc3\xa9"));
    CHECK(!look(form, "word", &v)->dirty && v.s.modified_since_submit); /* modified, but pristine */
    CHECK(!form_info(form).dirty && form_info(form).dirty_count == 0);

    /* The same value again changes nothing: the revision stays. */
    before = form_info(form);
    CHECK_OK(fw_field_set_value(form, "word", "caf\xc3\xa9"));
    CHECK(form_info(form).revision == before.revision);
    CHECK_STR(changed_since(form, before.revision), "");

    /* visited by focus; a focus switch changes both fields. */
    CHECK(!look(form, "num", &v)->visited);
    CHECK_OK(fw_field_focus(form, "num"));
    CHECK(look(form, "num", &v)->visited);
    revision = form_info(form).revision;
    CHECK_OK(fw_field_focus(form, "note"));
    CHECK_STR(changed_since(form, revision), "1,2");
    CHECK(look(form, "num", &v)->visited && v.s.touched);

    /* Submit counters; validate clears modified_since_submit. */
    CHECK(!validate(form));
    i = form_info(form);
    CHECK(i.submit_count == 1 && i.submit_failed);
    CHECK(!look(form, "word", &v)->modified_since_submit);
    CHECK_OK(fw_field_set_value(form, "num", "7"));
    CHECK(validate(form));
    i = form_info(form);
    CHECK(i.submit_count == 2 && !i.submit_failed);

    /* fw_form_changed_since's buffer rules. */
    count = 99;
    CHECK_STATUS(fw_form_changed_since(form, 0, indices, 2, &count), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(count == 3);
    count = 99;
    CHECK_STATUS(fw_form_changed_since(form, 0, NULL, 0, &count), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(count == 3);
    CHECK_OK(fw_form_changed_since(form, i.revision, NULL, 0, &count)); /* a count query: none */
    CHECK(count == 0);
    CHECK_OK(fw_form_changed_since(form, UINT64_MAX, indices, 4, &count));
    CHECK(count == 0);

    /* Reset: counters back to 0, visited cleared; only the fields that changed. */
    revision = form_info(form).revision;
    CHECK_OK(fw_form_reset(form));
    i = form_info(form);
    CHECK(i.submit_count == 0 && !i.submit_failed && i.revision == revision + 1);
    CHECK(!look(form, "num", &v)->visited && !v.s.touched);
    CHECK_STR(changed_since(form, revision), "0,1,2");

    /* A mode change of the form changes the fields that follow it. */
    CHECK_OK(fw_field_set_mode(form, "note", FW_MODE_ON_BLUR));
    revision = form_info(form).revision;
    CHECK_OK(fw_form_set_mode(form, FW_MODE_ON_SUBMIT));
    CHECK(form_info(form).revision == revision + 1);
    CHECK_STR(changed_since(form, revision), "0,1");
    CHECK_OK(fw_form_set_mode(form, FW_MODE_ON_SUBMIT)); /* the same mode: nothing */
    CHECK(form_info(form).revision == revision + 1);

    /* fw_form_info's growth rule: a larger struct keeps its later bytes; a smaller one is refused. */
    memset(&grown, SENTINEL, sizeof grown);
    grown.info.size = sizeof grown;
    CHECK_OK(fw_form_get_info(form, &grown.info));
    CHECK(grown.info.size == sizeof grown && grown.info.field_count == 3 && grown.info.mode == FW_MODE_ON_SUBMIT);
    CHECK(all_bytes(grown.later, sizeof grown.later, SENTINEL));
    memset(&i, SENTINEL, sizeof i);
    i.size = TEST_FORM_INFO_V1_SIZE - 8;
    CHECK_STATUS(fw_form_get_info(form, &i), FW_ERR_INVALID_ARGUMENT);
    CHECK(all_bytes((const char *)&i + sizeof(size_t), sizeof i - sizeof(size_t), SENTINEL));
    i.size = sizeof i + 1;
    CHECK_STATUS(fw_form_get_info(form, &i), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_get_info(form, NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_OK(fw_form_free(form));
}

/* ---- the announcement ---- */

static void announcement(void) {
    fw_form *form = NULL;
    char buf[128], small[8];
    size_t length = 0;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "email", "Email", NULL));
    CHECK_OK(fw_field_add_required(form, "email", NULL));
    CHECK_OK(fw_form_add_field(form, "password", "Password", NULL));
    CHECK_OK(fw_field_add_required(form, "password", NULL));
    CHECK_OK(fw_form_add_field(form, "phone", NULL, NULL));
    CHECK_OK(fw_field_add_phone(form, "phone", NULL));

    CHECK_OK(fw_form_announcement(form, buf, sizeof buf, &length));
    CHECK_STR(buf, ""); /* no submit yet */
    CHECK(length == 0);
    CHECK(!validate(form));
    CHECK_OK(fw_form_announcement(form, buf, sizeof buf, &length));
    CHECK_STR(buf, "2 fields need attention: Email, Password");
    CHECK(length == strlen("2 fields need attention: Email, Password"));
    /* It reads the fields as they are now (labels, else ids). */
    CHECK_OK(fw_field_set_value(form, "email", "x"));
    CHECK_OK(fw_field_set_value(form, "phone", "12"));
    CHECK_OK(fw_form_announcement(form, buf, sizeof buf, NULL));
    CHECK_STR(buf, "2 fields need attention: Password, phone");
    CHECK_OK(fw_field_set_value(form, "password", "pw"));
    CHECK_OK(fw_form_announcement(form, buf, sizeof buf, NULL));
    CHECK_STR(buf, "1 field needs attention: phone");
    CHECK_STATUS(fw_form_announcement(form, small, sizeof small, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK_STR(small, "1 field");
    CHECK(length == strlen("1 field needs attention: phone"));
    CHECK_OK(fw_field_set_value(form, "phone", "5551234567"));
    CHECK_OK(fw_form_announcement(form, buf, sizeof buf, NULL));
    CHECK_STR(buf, ""); /* still submit_failed, but nothing fails now */
    CHECK(form_info(form).submit_failed);
    CHECK(validate(form));
    CHECK_OK(fw_field_set_value(form, "phone", "1"));
    CHECK_OK(fw_form_announcement(form, buf, sizeof buf, NULL));
    CHECK_STR(buf, ""); /* the last submit passed */
    CHECK_OK(fw_form_free(form));
}

/* ---- presentation: tint, label, emphasis, hints ---- */

static int32_t starts_with_plus(void *context, const char *value, size_t length, const char **out_message) {
    (void)context;
    if (length > 0 && value[0] == '+') return FW_VERDICT_VALID;
    *out_message = "Number must start with '+'";
    return FW_VERDICT_INVALID;
}

/* The hint a touched field with `value` shows (a static buffer). */
static const char *hint_for(fw_form *form, const char *id, const char *value) {
    static view v;
    CHECK_OK(fw_field_set_value(form, id, value));
    CHECK_OK(fw_field_touch(form, id));
    return look(form, id, &v)->hint;
}

static void presentation(void) {
    fw_form *form = NULL;
    fw_rule rules[2], old_rule;
    view v;
    const fw_snapshot *s;
    char value[64];
    CHECK_OK(fw_form_create(&form));
    /* Label, initial value, label_raised. */
    CHECK_OK(fw_form_add_field(form, "plain", NULL, NULL));
    CHECK_OK(fw_form_add_field(form, "prefilled", "Prefilled", "hello"));
    s = look(form, "plain", &v);
    CHECK(s->phase == FW_PHASE_IDLE && !s->label_raised && !s->emphasized && s->tint == FW_TINT_NEUTRAL);
    CHECK_STR(s->label, "plain"); /* no label: the id */
    CHECK(s->label_length == 5 && s->initial_length == 0);
    s = look(form, "prefilled", &v);
    CHECK(s->phase == FW_PHASE_IDLE && s->label_raised && s->tint == FW_TINT_NEUTRAL);
    CHECK_STR(s->label, "Prefilled");
    CHECK_STR(s->initial, "hello");
    CHECK(s->initial_length == 5);
    CHECK_OK(fw_field_focus(form, "plain"));
    s = look(form, "plain", &v);
    CHECK(s->label_raised && s->emphasized && s->tint == FW_TINT_ACCENT);
    CHECK_OK(fw_field_blur(form, "plain")); /* empty and optional: idle again */
    s = look(form, "plain", &v);
    CHECK(s->phase == FW_PHASE_IDLE && !s->label_raised && !s->emphasized && s->tint == FW_TINT_NEUTRAL);
    CHECK(s->touched && s->visited);

    /* Default hints of every kind, shown only while the display is an error. */
    CHECK_OK(fw_form_add_field(form, "req", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "req", NULL));
    CHECK_STR(hint_for(form, "req", ""), "Enter a value");
    CHECK_STR(hint_for(form, "req", "x"), "");
    CHECK_OK(fw_form_add_field(form, "mail", NULL, NULL));
    CHECK_OK(fw_field_add_email(form, "mail", NULL));
    CHECK_STR(hint_for(form, "mail", "nope"), "Enter a valid email address");
    CHECK_OK(fw_form_add_field(form, "tel", NULL, NULL));
    CHECK_OK(fw_field_add_phone(form, "tel", NULL));
    CHECK_STR(hint_for(form, "tel", "123"), "Enter a 10-digit phone number");
    CHECK_OK(fw_form_add_field(form, "short", NULL, NULL));
    CHECK_OK(fw_field_add_max_length(form, "short", 2, NULL));
    CHECK_STR(hint_for(form, "short", "abc"), "Enter at most 2 characters");
    CHECK_OK(fw_form_add_field(form, "long", NULL, NULL));
    CHECK_OK(fw_field_add_min_length(form, "long", 4, NULL));
    CHECK_STR(hint_for(form, "long", "abc"), "Enter at least 4 characters");
    CHECK_OK(fw_form_add_field(form, "pattern", NULL, NULL));
    CHECK_OK(fw_field_add_regex(form, "pattern", "[0-9]+", NULL));
    CHECK_STR(hint_for(form, "pattern", "abc"), "Enter a value in the expected format");
    CHECK_OK(fw_form_add_field(form, "confirm", NULL, NULL));
    CHECK_OK(fw_field_add_matches(form, "confirm", "prefilled", NULL));
    CHECK_STR(hint_for(form, "confirm", "abc"), "Enter the same value as Prefilled");
    CHECK_OK(fw_form_add_field(form, "plus", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "plus", starts_with_plus, NULL, NULL, NULL));
    CHECK_STR(hint_for(form, "plus", "1"), "Correct this field");
    CHECK_OK(fw_field_set_error(form, "req", "Nope"));
    CHECK_STR(look(form, "req", &v)->hint, "Correct this field");

    /* A rule's own hint (fw_rule version 2), and a first-version fw_rule whose hint is not read. */
    rules[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[0].hint = "Type your handle";
    rules[1] = test_rule(FW_RULE_MIN_LENGTH, 3, NULL, NULL);
    rules[1].hint = "Three letters or more";
    CHECK_OK(fw_form_add_field_with_rules(form, "handle", NULL, NULL, rules, 2));
    CHECK_STR(hint_for(form, "handle", ""), "Type your handle");
    CHECK_STR(hint_for(form, "handle", "ab"), "Three letters or more");
    old_rule = test_rule(FW_RULE_MIN_LENGTH, 3, NULL, NULL);
    old_rule.size = offsetof(fw_rule, hint);
    old_rule.hint = "\xff not read"; /* past the declared size: read, it would be refused as bad UTF-8 */
    CHECK_OK(fw_form_add_field_with_rules(form, "old", NULL, NULL, &old_rule, 1));
    CHECK_STR(hint_for(form, "old", "ab"), MIN3_HINT);
    old_rule.size = sizeof old_rule; /* read now */
    CHECK_STATUS(fw_form_add_field_with_rules(form, "old2", NULL, NULL, &old_rule, 1), FW_ERR_INVALID_UTF8);

    /* A match-limit failure's hint. */
    CHECK_OK(fw_form_add_field(form, "slow", NULL, NULL));
    CHECK_OK(fw_field_add_regex(form, "slow", "(a+)+$", NULL));
    memset(value, 'a', 40);
    strcpy(value + 40, "!");
    CHECK_STR(hint_for(form, "slow", value), "Enter a shorter or simpler value");
    CHECK(look(form, "slow", &v)->limit_exceeded);
    CHECK_OK(fw_form_free(form));
}

/* ---- the snapshot growth rule: first-version callers ---- */

/* A first-version caller's struct and what lies after it in its memory. */
typedef union {
    fw_snapshot aligned;
    unsigned char bytes[sizeof(fw_snapshot) + 64];
} caller_memory;

static void growth_v1(void) {
    fw_form *form = NULL;
    caller_memory one, many[4];
    fw_snapshot *s = &one.aligned, *at;
    char texts[512];
    size_t v1 = TEST_SNAPSHOT_V1_SIZE, count = 0, text_size = 0, i, need;
    CHECK(v1 == offsetof(fw_snapshot, value) + sizeof(const char *));
    CHECK(v1 % 8 == 0 && v1 < sizeof(fw_snapshot));
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_set_error_mode(form, FW_ERRORS_ALL));
    CHECK_OK(fw_form_add_field(form, "user", "User name", "Ada"));
    CHECK_OK(fw_field_add_min_length(form, "user", 5, "Too short"));
    CHECK_OK(fw_field_add_regex(form, "user", "[a-z]+", "Lowercase only"));
    CHECK_OK(fw_form_add_field(form, "b", NULL, "bee"));
    CHECK_OK(fw_form_add_field(form, "c", NULL, NULL));
    CHECK_OK(fw_field_touch(form, "user"));

    /* One snapshot: the first version's members and three texts; not a byte past the first version. */
    need = strlen("Too short") * 2 + 3 + 3;
    memset(&one, SENTINEL, sizeof one);
    memset(texts, SENTINEL, sizeof texts);
    s->size = v1;
    CHECK_OK(fw_field_snapshot(form, "user", s, texts, sizeof texts));
    CHECK(s->size == v1 && s->index == 0 && s->phase == FW_PHASE_INACTIVE && s->validity == FW_VALIDITY_INVALID);
    CHECK(s->display == FW_DISPLAY_ERROR && s->failing_rule == 0 && s->touched);
    CHECK(s->message_length == 9 && s->value_length == 3 && s->text_size == need);
    CHECK_STR(s->message, "Too short");
    CHECK_STR(s->value, "Ada");
    CHECK(s->message == texts && s->value == texts + 20);
    CHECK(all_bytes(one.bytes + v1, sizeof one - v1, SENTINEL));
    CHECK(all_bytes(texts + need, sizeof texts - need, SENTINEL));
    /* Exactly text_size bytes suffice. */
    memset(&one, SENTINEL, sizeof one);
    s->size = v1;
    CHECK_OK(fw_field_snapshot_at(form, 0, s, texts, need));
    CHECK(all_bytes(one.bytes + v1, sizeof one - v1, SENTINEL));
    /* fw_field_update: the same. */
    memset(&one, SENTINEL, sizeof one);
    memset(texts, SENTINEL, sizeof texts);
    s->size = v1;
    CHECK_OK(fw_field_update(form, "b", "buzz", s, texts, sizeof texts));
    CHECK(s->index == 1 && s->validity == FW_VALIDITY_VALID && s->text_size == 0 + 0 + 4 + 3);
    CHECK_STR(s->value, "buzz");
    CHECK(all_bytes(one.bytes + v1, sizeof one - v1, SENTINEL));
    CHECK(all_bytes(texts + 7, sizeof texts - 7, SENTINEL));
    /* A size between the versions (a multiple of 8): the first version's members only. */
    memset(&one, SENTINEL, sizeof one);
    s->size = v1 + 8;
    CHECK_OK(fw_field_snapshot(form, "user", s, texts, sizeof texts));
    CHECK(s->size == v1 + 8 && s->text_size == need);
    CHECK(all_bytes(one.bytes + v1, sizeof one - v1, SENTINEL));

    /* fw_form_snapshots with the first version's stride: three structs back to back. */
    memset(many, SENTINEL, sizeof many);
    memset(texts, SENTINEL, sizeof texts);
    for (i = 0; i < 3; i++) ((fw_snapshot *)(void *)(many[0].bytes + i * v1))->size = v1;
    CHECK_OK(fw_form_snapshots(form, &many[0].aligned, 3, &count, texts, sizeof texts, &text_size));
    CHECK(count == 3 && text_size == need + (0 + 0 + 4 + 3) + (0 + 0 + 0 + 3));
    for (i = 0; i < 3; i++) {
        at = (fw_snapshot *)(void *)(many[0].bytes + i * v1);
        CHECK(at->size == v1 && at->index == i && at->text_size == (i == 0 ? need : i == 1 ? 7u : 3u));
    }
    at = (fw_snapshot *)(void *)(many[0].bytes + v1);
    CHECK_STR(at->value, "buzz");
    CHECK(at->value == texts + need + 2);
    CHECK(all_bytes(many[0].bytes + 3 * v1, sizeof many - 3 * v1, SENTINEL));
    CHECK(all_bytes(texts + text_size, sizeof texts - text_size, SENTINEL));

    /* The second version's size: everything, and the texts in their order. */
    memset(&one, SENTINEL, sizeof one);
    memset(texts, SENTINEL, sizeof texts);
    s->size = sizeof(fw_snapshot);
    CHECK_OK(fw_field_snapshot(form, "user", s, texts, sizeof texts));
    CHECK(s->error_count == 2 && s->errors_size == 10 + 15);
    CHECK(s->label == texts + 24 && s->initial == texts + 34 && s->hint == texts + 38);
    CHECK_STR(s->label, "User name");
    CHECK_STR(s->initial, "Ada");
    CHECK_STR(s->hint, "Enter at least 5 characters");
    CHECK(s->errors == texts + 38 + 28);
    CHECK(memcmp(s->errors, "Too short\0Lowercase only\0", 26) == 0);
    /* + the normalised value, + the fourth version's "min_length" "{"length":5,"unit":"graphemes"}" twice
       and the code list "min_length\0regex\0\0" (error mode all) */
    CHECK(s->text_size == need + 10 + 4 + 28 + 26 + s->value_length + 1 + (11 + 32) * 2 + 18);
    CHECK(s->normalized == s->errors + 26 && strcmp(s->normalized, s->value) == 0 && !s->secret);
    CHECK(s->code == s->normalized + s->normalized_length + 1 && s->error_codes == s->display_params + 32);
    CHECK(memcmp(s->error_codes, "min_length\0regex\0", 18) == 0);
    CHECK(!s->visited && !s->dirty && !s->modified_since_submit && !s->external_error);
    CHECK(s->label_raised && !s->emphasized && s->mode == FW_MODE_TWO_STAGE && s->tint == FW_TINT_ERROR);
    CHECK(all_bytes(one.bytes + sizeof(fw_snapshot), sizeof one - sizeof(fw_snapshot), SENTINEL));
    CHECK(all_bytes(texts + s->text_size, sizeof texts - s->text_size, SENTINEL));
    /* Too small for the error list alone: every earlier text copied, the list NULL. */
    memset(&one, SENTINEL, sizeof one);
    s->size = sizeof(fw_snapshot);
    CHECK_STATUS(fw_field_snapshot(form, "user", s, texts, need + 10 + 4 + 28 + 25), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(s->hint == texts + 38 && s->errors == NULL && s->errors_size == 25 && s->error_count == 2);
    CHECK_OK(fw_form_free(form));
}

int main(void) {
    mode_two_stage();
    mode_on_change();
    mode_on_blur();
    mode_on_touched();
    mode_on_submit();
    field_modes();
    error_mode_all();
    groups();
    external_errors();
    remove_field();
    reset_values();
    info_and_changes();
    announcement();
    presentation();
    growth_v1();
    CHECK(fw_form_live_count() == 0);
    return check_summary("form_behaviour_test");
}
