#define _POSIX_C_SOURCE 200112L
/* Snapshots and the index-based hot path: a registration form built with fw_form_add_field_with_rules
   and driven through focus / typing / blur / submit / reset, where after every step every field's
   snapshot (by id, by index and through fw_form_snapshots) must agree with the per-property queries;
   then the buffer rules (exact text_size, texts that do not fit), the growth rule (a caller's struct
   larger than fw_snapshot), atomic field registration with context ownership, the index functions,
   match limits, checked handles, and a multi-threaded read/write consistency test. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>

#include "check.h"
#include "seed_rules.h"

#define USERNAME_PATTERN_MESSAGE "Lowercase letters, numbers, and underscores only"
#define SENTINEL 0x5A

/* ---- helpers ---- */

/* A snapshot set up as a caller must (size = sizeof), every other byte a sentinel. */
static void blank(fw_snapshot *snap) {
    memset(snap, SENTINEL, sizeof *snap);
    snap->size = sizeof *snap;
}

/* The same for a caller built against the first version's header (size = the first version's size):
   the buffer arithmetic below counts the first version's three texts. */
static void blank_v1(fw_snapshot *snap) {
    memset(snap, SENTINEL, sizeof *snap);
    snap->size = TEST_SNAPSHOT_V1_SIZE;
}

static size_t field_count(fw_form *form) {
    size_t count = 0;
    CHECK_OK(fw_form_field_count(form, &count));
    return count;
}

static size_t index_of(fw_form *form, const char *id) {
    size_t index = (size_t)-1;
    CHECK_OK(fw_form_field_index(form, id, &index));
    return index;
}

/* One field's whole expected state. */
typedef struct {
    fw_phase phase;
    fw_validity validity;
    int failing_rule;
    const char *message;
    fw_display display;
    const char *display_message;
    bool touched;
    const char *value;
} expected_snap;

/* Checks a snapshot filled with a buffer big enough for all texts: every member, the texts, their
   lengths, text_size and where the texts were put (message, display message, value, back to back
   from `buf`). One check. */
static void check_snapshot_members(int line, const char *what, const fw_snapshot *s, const char *buf,
                                   size_t index, expected_snap want) {
    size_t ml = strlen(want.message), dl = strlen(want.display_message), vl = strlen(want.value);
    int ok = s->size == sizeof(fw_snapshot) && s->index == index && s->phase == (int32_t)want.phase
          && s->validity == (int32_t)want.validity && s->display == (int32_t)want.display
          && s->failing_rule == want.failing_rule && s->touched == want.touched && !s->limit_exceeded
          && s->message_length == ml && s->display_message_length == dl && s->value_length == vl
          && s->text_size == ml + dl + vl + 3 + snapshot_v2_text_bytes(s)
          && s->message == buf && s->display_message == buf + ml + 1 && s->value == buf + ml + dl + 2
          && s->label == s->value + vl + 1 && s->initial == s->label + s->label_length + 1
          && s->hint == s->initial + s->initial_length + 1 && s->errors == s->hint + s->hint_length + 1
          && s->error_count == (want.validity == FW_VALIDITY_INVALID ? 1u : 0u)
          && s->errors_size == (want.validity == FW_VALIDITY_INVALID ? ml + 1 : 0)
          && strcmp(s->errors, want.message) == 0
          && strcmp(s->message, want.message) == 0 && strcmp(s->display_message, want.display_message) == 0
          && strcmp(s->value, want.value) == 0
          /* Third version: no normalisers here, so the normalised value is the value, after the errors. */
          && !s->secret && s->normalized_length == vl && s->normalized == s->errors + s->errors_size + 1
          && strcmp(s->normalized, want.value) == 0;
    check_count++;
    if (!ok) {
        check_failures++;
        fprintf(stderr,
                "%s:%d: %s: got size %zu index %zu phase %d validity %d failing_rule %d \"%s\" display %d \"%s\" "
                "touched %d limit %d value \"%s\" lengths %zu/%zu/%zu text_size %zu; expected index %zu phase %d "
                "validity %d failing_rule %d \"%s\" display %d \"%s\" touched %d value \"%s\"\n",
                __FILE__, line, what, s->size, s->index, (int)s->phase, (int)s->validity, (int)s->failing_rule,
                s->message ? s->message : "(null)", (int)s->display, s->display_message ? s->display_message : "(null)",
                (int)s->touched, (int)s->limit_exceeded, s->value ? s->value : "(null)", s->message_length,
                s->display_message_length, s->value_length, s->text_size, index, (int)want.phase,
                (int)want.validity, want.failing_rule, want.message, (int)want.display, want.display_message,
                (int)want.touched, want.value);
    }
}

/* The field's snapshot by id and by index, both against `want`. */
static void expect_snapshot(int line, fw_form *form, const char *id, expected_snap want) {
    fw_snapshot snap;
    char buf[512];
    size_t index = index_of(form, id);
    blank(&snap);
    CHECK_OK(fw_field_snapshot(form, id, &snap, buf, sizeof buf));
    check_snapshot_members(line, id, &snap, buf, index, want);
    blank(&snap);
    CHECK_OK(fw_field_snapshot_at(form, index, &snap, buf, sizeof buf));
    check_snapshot_members(line, id, &snap, buf, index, want);
}

#define CHECK_SNAP(form, id, ...) expect_snapshot(__LINE__, form, id, (expected_snap){__VA_ARGS__})

/* fw_field_update_at: the returned snapshot is the new state. */
static void expect_update_at(int line, fw_form *form, const char *id, const char *value, expected_snap want) {
    fw_snapshot snap;
    char buf[512];
    size_t index = index_of(form, id);
    blank(&snap);
    CHECK_OK(fw_field_update_at(form, index, value, &snap, buf, sizeof buf));
    check_snapshot_members(line, id, &snap, buf, index, want);
}

/* fw_field_update: the same, by id. */
static void expect_update(int line, fw_form *form, const char *id, const char *value, expected_snap want) {
    fw_snapshot snap;
    char buf[512];
    blank(&snap);
    CHECK_OK(fw_field_update(form, id, value, &snap, buf, sizeof buf));
    check_snapshot_members(line, id, &snap, buf, index_of(form, id), want);
}

#define CHECK_UPDATE_AT(form, id, value, ...) expect_update_at(__LINE__, form, id, value, (expected_snap){__VA_ARGS__})
#define CHECK_UPDATE(form, id, value, ...) expect_update(__LINE__, form, id, value, (expected_snap){__VA_ARGS__})

/* Every field, three ways (fw_field_snapshot by id, fw_field_snapshot_at, fw_form_snapshots), must say
   exactly what the per-property queries say. One check per field. */
static void check_consistent(int line, fw_form *form) {
    enum { MAX_FIELDS = 16 };
    fw_snapshot all[MAX_FIELDS];
    char all_texts[4096];
    size_t count = field_count(form), got_count = 0, text_size = 0, text_total = 0, i;
    for (i = 0; i < MAX_FIELDS; i++) blank(&all[i]);
    CHECK_OK(fw_form_snapshots(form, all, MAX_FIELDS, &got_count, all_texts, sizeof all_texts, &text_size));
    CHECK(got_count == count);
    for (i = 0; i < count && i < MAX_FIELDS; i++) {
        char id[64], by_id_texts[512], at_texts[512], message[256], display_message[256], value[256];
        fw_snapshot by_id, at;
        fw_phase phase = FW_PHASE_IDLE;
        fw_validity validity = FW_VALIDITY_EMPTY;
        fw_display display = FW_DISPLAY_NONE;
        bool touched = false, exceeded = false;
        size_t message_length = 0, display_length = 0, value_length = 0;
        const fw_snapshot *s[3];
        int ok, k;
        blank(&by_id);
        blank(&at);
        ok = fw_form_field_id(form, i, id, sizeof id, NULL) == FW_OK
          && fw_field_snapshot(form, id, &by_id, by_id_texts, sizeof by_id_texts) == FW_OK
          && fw_field_snapshot_at(form, i, &at, at_texts, sizeof at_texts) == FW_OK
          && fw_field_phase(form, id, &phase) == FW_OK
          && fw_field_validity(form, id, &validity) == FW_OK
          && fw_field_display(form, id, &display) == FW_OK
          && fw_field_touched(form, id, &touched) == FW_OK
          && fw_field_limit_exceeded(form, id, &exceeded) == FW_OK
          && fw_field_message(form, id, message, sizeof message, &message_length) == FW_OK
          && fw_field_display_message(form, id, display_message, sizeof display_message, &display_length) == FW_OK
          && fw_field_value(form, id, value, sizeof value, &value_length) == FW_OK;
        s[0] = &by_id;
        s[1] = &at;
        s[2] = &all[i];
        for (k = 0; ok && k < 3; k++) {
            ok = s[k]->size == sizeof(fw_snapshot) && s[k]->index == i && s[k]->phase == (int32_t)phase
              && s[k]->validity == (int32_t)validity && s[k]->display == (int32_t)display
              && s[k]->touched == touched && s[k]->limit_exceeded == exceeded
              && (validity == FW_VALIDITY_INVALID ? s[k]->failing_rule >= 0 : s[k]->failing_rule == -1)
              && s[k]->failing_rule == s[0]->failing_rule
              && s[k]->message_length == message_length && s[k]->display_message_length == display_length
              && s[k]->value_length == value_length
              && s[k]->text_size == message_length + display_length + value_length + 3 + snapshot_v2_text_bytes(s[k])
              && s[k]->message && s[k]->display_message && s[k]->value && s[k]->label && s[k]->errors
              && s[k]->label == s[k]->value + value_length + 1
              && s[k]->errors == s[k]->label + s[k]->label_length + s[k]->initial_length + s[k]->hint_length + 3
              && strcmp(s[k]->errors, message) == 0
              && strcmp(s[k]->message, message) == 0 && strcmp(s[k]->display_message, display_message) == 0
              && strcmp(s[k]->value, value) == 0
              && s[k]->display_message == s[k]->message + message_length + 1
              && s[k]->value == s[k]->display_message + display_length + 1;
        }
        /* fw_form_snapshots puts the fields' texts one after the other. */
        ok = ok && all[i].message == all_texts + text_total;
        text_total += all[i].text_size;
        check_count++;
        if (!ok) {
            check_failures++;
            fprintf(stderr, "%s:%d: field %zu ('%s'): snapshots disagree with the per-property queries "
                    "(phase %d validity %d display %d \"%s\" \"%s\" value \"%s\"; snapshot phase %d validity %d "
                    "display %d failing_rule %d)\n", __FILE__, line, i, id, (int)phase, (int)validity,
                    (int)display, message, display_message, value, (int)by_id.phase, (int)by_id.validity,
                    (int)by_id.display, (int)by_id.failing_rule);
        }
    }
    CHECK(text_size == text_total);
}

#define CHECK_CONSISTENT(form) check_consistent(__LINE__, form)

/* ---- the registration form, built with fw_form_add_field_with_rules ---- */

static fw_rule custom_rule(fw_validate_fn validate, void *context, fw_destroy_fn destroy, const char *message) {
    fw_rule r = test_rule(FW_RULE_CUSTOM, 0, NULL, message);
    r.validate = validate;
    r.context = context;
    r.destroy = destroy;
    return r;
}

#define COUNT(array) (sizeof array / sizeof array[0])

static fw_form *registration_form(strength_context *strength) {
    fw_form *form = NULL;
    fw_rule name[1], email[2], username[4], password[3], confirm[2], phone[1];
    name[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, "Name is required");
    email[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    email[1] = test_rule(FW_RULE_EMAIL, 0, NULL, NULL);
    username[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    username[1] = test_rule(FW_RULE_MIN_LENGTH, 3, NULL, "At least 3 characters");
    username[2] = test_rule(FW_RULE_MAX_LENGTH, 20, NULL, "20 characters maximum");
    username[3] = test_rule(FW_RULE_REGEX, 0, "^[a-z0-9_]+$", USERNAME_PATTERN_MESSAGE);
    password[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    password[1] = test_rule(FW_RULE_MIN_LENGTH, 8, NULL, NULL);
    password[2] = custom_rule(password_strength, strength, strength_destroy, NULL);
    confirm[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, "Please confirm your password");
    confirm[1] = test_rule(FW_RULE_MATCHES, 0, "password", "Passwords don't match");
    phone[0] = test_rule(FW_RULE_PHONE, 0, NULL, NULL);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field_with_rules(form, "name", "Display name", NULL, name, COUNT(name)));
    CHECK_OK(fw_form_add_field_with_rules(form, "email", "Email address", NULL, email, COUNT(email)));
    CHECK_OK(fw_form_add_field_with_rules(form, "username", "Username", NULL, username, COUNT(username)));
    CHECK_OK(fw_form_add_field_with_rules(form, "password", "Password", NULL, password, COUNT(password)));
    CHECK_OK(fw_form_add_field_with_rules(form, "confirm", "Confirm password", NULL, confirm, COUNT(confirm)));
    CHECK_OK(fw_form_add_field_with_rules(form, "phone", "Phone", NULL, phone, COUNT(phone))); /* optional */
    return form;
}

#define IDLE_EMPTY FW_PHASE_IDLE, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", false, ""
#define SETTLED(value) FW_PHASE_INACTIVE, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_VALID, "", true, value
#define SETTLED_UNTOUCHED(value) FW_PHASE_INACTIVE, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE, "", false, value

static const char *const IDS[] = {"name", "email", "username", "password", "confirm", "phone"};

static void walk_registration(void) {
    int destroyed = 0;
    strength_context strength = {3, 0, &destroyed};
    fw_form *form = registration_form(&strength);
    bool valid = true;
    size_t i;

    CHECK(field_count(form) == 6);
    for (i = 0; i < COUNT(IDS); i++) {
        CHECK(index_of(form, IDS[i]) == i);
        CHECK_SNAP(form, IDS[i], IDLE_EMPTY);
    }
    CHECK_CONSISTENT(form);

    /* Name: focus by index, type; lenient while focused. */
    CHECK_OK(fw_field_focus_at(form, 0));
    CHECK_SNAP(form, "name", FW_PHASE_FOCUSED, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", false, "");
    CHECK_CONSISTENT(form);
    CHECK_UPDATE_AT(form, "name", "Ada", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE, "", false, "Ada");
    CHECK_CONSISTENT(form);

    /* Focusing e-mail blurs name: strict, touched, surfaced as valid. */
    CHECK_OK(fw_field_focus(form, "email"));
    CHECK_SNAP(form, "name", SETTLED("Ada"));
    CHECK_SNAP(form, "email", FW_PHASE_FOCUSED, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", false, "");
    CHECK_CONSISTENT(form);
    CHECK_UPDATE(form, "email", "ada@", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, 1, "Invalid email format",
                 FW_DISPLAY_NONE, "", false, "ada@");
    CHECK_CONSISTENT(form);
    CHECK_UPDATE_AT(form, "email", "ada@example.com", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE,
                    "", false, "ada@example.com");
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_field_blur_at(form, 1));
    CHECK_SNAP(form, "email", SETTLED("ada@example.com"));
    CHECK_CONSISTENT(form);

    /* Username: length (rule 1) before the pattern (rule 3), in the order of the rule array. */
    CHECK_OK(fw_field_focus_at(form, 2));
    CHECK_UPDATE_AT(form, "username", "Ad", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, 1, "At least 3 characters",
                    FW_DISPLAY_NONE, "", false, "Ad");
    CHECK_CONSISTENT(form);
    CHECK_UPDATE_AT(form, "username", "Ada!", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, 3, USERNAME_PATTERN_MESSAGE,
                    FW_DISPLAY_NONE, "", false, "Ada!");
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_field_blur(form, "username"));
    CHECK_SNAP(form, "username", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 3, USERNAME_PATTERN_MESSAGE,
               FW_DISPLAY_ERROR, USERNAME_PATTERN_MESSAGE, true, "Ada!");
    CHECK_CONSISTENT(form);
    CHECK_UPDATE_AT(form, "username", "this_username_is_far_too_long", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 2,
                    "20 characters maximum", FW_DISPLAY_ERROR, "20 characters maximum", true,
                    "this_username_is_far_too_long");
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_field_focus_at(form, 2));
    CHECK_UPDATE_AT(form, "username", "ada_lovelace", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_VALID,
                    "", true, "ada_lovelace");
    CHECK_CONSISTENT(form);

    /* Password: min length (rule 1), then the custom strength check (rule 2). */
    CHECK_OK(fw_field_focus_at(form, 3));
    CHECK_SNAP(form, "username", SETTLED("ada_lovelace"));
    CHECK_UPDATE_AT(form, "password", "abc", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, 1, "Must be at least 8 characters",
                    FW_DISPLAY_NONE, "", false, "abc");
    CHECK_CONSISTENT(form);
    CHECK_UPDATE_AT(form, "password", "abcdefgh", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, 2, WEAK_PASSWORD,
                    FW_DISPLAY_NONE, "", false, "abcdefgh");
    CHECK_CONSISTENT(form);
    CHECK(strength.calls > 0);
    CHECK_UPDATE_AT(form, "password", "abcdefg1!", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE, "",
                    false, "abcdefg1!");
    CHECK_CONSISTENT(form);

    /* Confirm: compared with password, and re-checked when password changes. */
    CHECK_OK(fw_field_focus_at(form, 4));
    CHECK_SNAP(form, "password", SETTLED("abcdefg1!"));
    CHECK_UPDATE_AT(form, "confirm", "abcdefg1", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, 1, "Passwords don't match",
                    FW_DISPLAY_NONE, "", false, "abcdefg1");
    CHECK_CONSISTENT(form);
    CHECK_UPDATE_AT(form, "confirm", "abcdefg1!", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE, "",
                    false, "abcdefg1!");
    CHECK_OK(fw_field_blur_at(form, 4));
    CHECK_SNAP(form, "confirm", SETTLED("abcdefg1!"));
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_field_set_value_at(form, 3, "Abcdefg1!"));
    CHECK_SNAP(form, "password", SETTLED("Abcdefg1!"));
    CHECK_SNAP(form, "confirm", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 1, "Passwords don't match", FW_DISPLAY_ERROR,
               "Passwords don't match", true, "abcdefg1!");
    CHECK_CONSISTENT(form);
    /* check.h's per-property assertion agrees (the same state, read property by property). */
    CHECK_FIELD(form, "confirm", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Passwords don't match", FW_DISPLAY_ERROR,
                "Passwords don't match", true);

    /* Phone, optional: touched while empty shows nothing; a bad number is an error, clearing it idles. */
    CHECK_OK(fw_field_touch_at(form, 5));
    CHECK_SNAP(form, "phone", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", true, "");
    CHECK_CONSISTENT(form);
    CHECK_UPDATE_AT(form, "phone", "12345", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "Invalid phone number",
                    FW_DISPLAY_ERROR, "Invalid phone number", true, "12345");
    CHECK_CONSISTENT(form);
    CHECK_UPDATE_AT(form, "phone", "", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", true, "");
    CHECK_CONSISTENT(form);

    CHECK_UPDATE(form, "confirm", "Abcdefg1!", SETTLED("Abcdefg1!"));
    CHECK_CONSISTENT(form);

    /* Submit. */
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(valid);
    CHECK_SNAP(form, "name", SETTLED("Ada"));
    CHECK_SNAP(form, "email", SETTLED("ada@example.com"));
    CHECK_SNAP(form, "username", SETTLED("ada_lovelace"));
    CHECK_SNAP(form, "password", SETTLED("Abcdefg1!"));
    CHECK_SNAP(form, "confirm", SETTLED("Abcdefg1!"));
    CHECK_SNAP(form, "phone", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", true, "");
    CHECK_CONSISTENT(form);

    /* Clearing a required field: lenient while focused (the display still errs), strict on blur, where
       failing_rule names the required rule. */
    CHECK_OK(fw_field_focus(form, "name"));
    CHECK_UPDATE(form, "name", "", FW_PHASE_FOCUSED, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_ERROR, "Name is required",
                 true, "");
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_field_blur_at(form, 0));
    CHECK_SNAP(form, "name", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "Name is required", FW_DISPLAY_ERROR,
               "Name is required", true, "");
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid);

    /* Reset: everything idle and untouched. Then submitting the empty form. */
    CHECK_OK(fw_form_reset(form));
    for (i = 0; i < COUNT(IDS); i++) CHECK_SNAP(form, IDS[i], IDLE_EMPTY);
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid);
    CHECK_SNAP(form, "name", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "Name is required", FW_DISPLAY_ERROR,
               "Name is required", true, "");
    CHECK_SNAP(form, "email", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "This field is required", FW_DISPLAY_ERROR,
               "This field is required", true, "");
    CHECK_SNAP(form, "username", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "This field is required",
               FW_DISPLAY_ERROR, "This field is required", true, "");
    CHECK_SNAP(form, "confirm", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "Please confirm your password",
               FW_DISPLAY_ERROR, "Please confirm your password", true, "");
    CHECK_SNAP(form, "phone", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", true, "");
    CHECK_CONSISTENT(form);

    CHECK(destroyed == 0);
    CHECK_OK(fw_form_free(form));
    CHECK(destroyed == 1); /* the context given in an fw_rule array, released once */
}

/* failing_rule of an empty required field in the strict stage is the required rule's index, wherever
   it is in the list; with a value, the failing rule's. */
static void failing_rule_of_required(void) {
    fw_form *form = NULL;
    fw_rule rules[3];
    rules[0] = test_rule(FW_RULE_MIN_LENGTH, 2, NULL, NULL);
    rules[1] = test_rule(FW_RULE_REGEX, 0, "[a-z]+", NULL);
    rules[2] = test_rule(FW_RULE_REQUIRED, 0, NULL, "Nickname, please");
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field_with_rules(form, "nick", NULL, NULL, rules, 3));
    CHECK_OK(fw_field_touch(form, "nick"));
    CHECK_SNAP(form, "nick", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 2, "Nickname, please", FW_DISPLAY_ERROR,
               "Nickname, please", true, "");
    CHECK_UPDATE(form, "nick", "x", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "Must be at least 2 characters",
                 FW_DISPLAY_ERROR, "Must be at least 2 characters", true, "x");
    CHECK_UPDATE(form, "nick", "X1", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 1, "Invalid format", FW_DISPLAY_ERROR,
                 "Invalid format", true, "X1");
    CHECK_UPDATE(form, "nick", "ab", SETTLED("ab"));
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_form_free(form));
}

/* ---- buffers: exact text_size, texts that do not fit, NULL buffers, bad sizes ---- */

/* As a caller of the first version (blank_v1): three texts per field. */
static void buffers(void) {
    fw_form *form = NULL;
    fw_snapshot snap;
    char buf[512];
    const char *message = USERNAME_PATTERN_MESSAGE;
    size_t ml = strlen(message), vl = 4, need = 2 * (strlen(USERNAME_PATTERN_MESSAGE) + 1) + 5, sizes[4], k;
    fw_rule rules[2];
    rules[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[1] = test_rule(FW_RULE_REGEX, 0, "^[a-z0-9_]+$", USERNAME_PATTERN_MESSAGE);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field_with_rules(form, "username", NULL, "Ada!", rules, 2));
    CHECK_OK(fw_form_add_field(form, "plain", NULL, "v\xc3\xa9"));
    CHECK_OK(fw_field_touch(form, "username"));
    CHECK(ml == 48);
    CHECK(need == 103);

    /* Exact fit: OK, and not one byte past text_size is written. */
    memset(buf, SENTINEL, sizeof buf);
    blank_v1(&snap);
    CHECK_OK(fw_field_snapshot(form, "username", &snap, buf, need));
    CHECK(snap.text_size == need);
    CHECK(snap.message == buf && snap.display_message == buf + ml + 1 && snap.value == buf + 2 * ml + 2);
    CHECK_STR(snap.value, "Ada!");
    CHECK(all_bytes(buf + need, sizeof buf - need, SENTINEL));

    /* NULL buffer of size 0: no texts, every member filled, FW_OK. */
    blank_v1(&snap);
    CHECK_OK(fw_field_snapshot(form, "username", &snap, NULL, 0));
    CHECK(snap.message == NULL && snap.display_message == NULL && snap.value == NULL);
    CHECK(snap.text_size == need);
    CHECK(snap.phase == FW_PHASE_INACTIVE && snap.validity == FW_VALIDITY_INVALID && snap.display == FW_DISPLAY_ERROR);
    CHECK(snap.failing_rule == 1 && snap.touched && !snap.limit_exceeded && snap.index == 0);
    CHECK(snap.message_length == ml && snap.display_message_length == ml && snap.value_length == vl);
    /* A non-NULL buffer of size 0 asks for the texts and holds none: too small. */
    memset(buf, SENTINEL, sizeof buf);
    blank_v1(&snap);
    CHECK_STATUS(fw_field_snapshot(form, "username", &snap, buf, 0), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(snap.message == NULL && snap.display_message == NULL && snap.value == NULL && snap.text_size == need);
    CHECK(all_bytes(buf, sizeof buf, SENTINEL));

    /* Too small at each text: that text and every later one are NULL (even one that would fit in
       what is left), every member is filled, text_size is what is needed, nothing is written past the
       texts that were copied. */
    sizes[0] = ml;              /* the message needs ml + 1 */
    sizes[1] = ml + 1;          /* the message fits exactly; the display message does not */
    sizes[2] = 2 * ml + 1;      /* ml bytes left: the value (5) would fit, but follows a text that did not */
    sizes[3] = need - 1;        /* only the value's NUL is missing */
    for (k = 0; k < 4; k++) {
        size_t copied = k == 0 ? 0 : (k < 3 ? ml + 1 : 2 * ml + 2);
        memset(buf, SENTINEL, sizeof buf);
        blank_v1(&snap);
        CHECK_STATUS(fw_field_snapshot(form, "username", &snap, buf, sizes[k]), FW_ERR_BUFFER_TOO_SMALL);
        CHECK(snap.size == TEST_SNAPSHOT_V1_SIZE && snap.text_size == need);
        CHECK(snap.phase == FW_PHASE_INACTIVE && snap.validity == FW_VALIDITY_INVALID);
        CHECK(snap.display == FW_DISPLAY_ERROR && snap.failing_rule == 1 && snap.touched && snap.index == 0);
        CHECK(snap.message_length == ml && snap.display_message_length == ml && snap.value_length == vl);
        CHECK(k == 0 ? snap.message == NULL : snap.message == buf);
        if (k >= 1) CHECK_STR(snap.message, message);
        CHECK(k <= 2 ? snap.display_message == NULL : snap.display_message == buf + ml + 1);
        if (k == 3) CHECK_STR(snap.display_message, message);
        CHECK(snap.value == NULL);
        CHECK(all_bytes(buf + copied, sizeof buf - copied, SENTINEL));
    }

    /* The same through fw_field_snapshot_at and fw_field_update_at (which still sets the value). */
    blank_v1(&snap);
    CHECK_STATUS(fw_field_snapshot_at(form, 0, &snap, buf, 10), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(snap.text_size == need && snap.message == NULL && snap.failing_rule == 1);
    blank_v1(&snap);
    CHECK_STATUS(fw_field_update_at(form, 0, "Grace!!", &snap, buf, ml + 1), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(snap.text_size == 2 * ml + 2 + 8 && snap.value_length == 7 && snap.value == NULL);
    CHECK_STR(snap.message, message);
    CHECK_OK(fw_field_value(form, "username", buf, sizeof buf, NULL));
    CHECK_STR(buf, "Grace!!"); /* a too-small buffer does not undo the update */
    blank_v1(&snap);
    CHECK_STATUS(fw_field_update(form, "username", "Ada!", &snap, NULL, 0), FW_OK);
    CHECK(snap.text_size == need && snap.value == NULL);

    /* A valid field: three texts, two of them "" (one byte each). */
    blank_v1(&snap);
    CHECK_STATUS(fw_field_snapshot(form, "plain", &snap, buf, 1), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(snap.text_size == 0 + 0 + 3 + 3 && snap.value_length == 3);
    CHECK(snap.message == buf && snap.display_message == NULL && snap.value == NULL);
    CHECK_STR(snap.message, "");
    blank_v1(&snap);
    CHECK_STATUS(fw_field_snapshot(form, "plain", &snap, buf, 5), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(snap.display_message == buf + 1 && snap.value == NULL); /* "v\xc3\xa9" needs 4 of the 3 left */
    blank_v1(&snap);
    CHECK_OK(fw_field_snapshot(form, "plain", &snap, buf, 6));
    CHECK_STR(snap.value, "v\xc3\xa9");
    CHECK(snap.phase == FW_PHASE_IDLE && snap.validity == FW_VALIDITY_EMPTY && snap.failing_rule == -1);

    /* NULL buffer with a size, NULL snapshot, sizes that break the rule. */
    blank_v1(&snap);
    CHECK_STATUS(fw_field_snapshot(form, "plain", &snap, NULL, 16), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_snapshot_at(form, 1, &snap, NULL, 16), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_snapshot(form, "plain", NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_snapshot_at(form, 1, NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    {
        size_t bad[] = {0, 8, TEST_SNAPSHOT_V1_SIZE - 8, sizeof(fw_snapshot) - 1, sizeof(fw_snapshot) + 1,
                        sizeof(fw_snapshot) + 4, sizeof(fw_snapshot) + 12, SIZE_MAX};
        for (k = 0; k < COUNT(bad); k++) {
            blank_v1(&snap);
            snap.size = bad[k];
            CHECK_STATUS(fw_field_snapshot(form, "plain", &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(fw_field_snapshot_at(form, 1, &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(fw_field_update_at(form, 1, "changed", &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
        }
    }
    CHECK_OK(fw_field_value(form, "plain", buf, sizeof buf, NULL));
    CHECK_STR(buf, "v\xc3\xa9"); /* the refused updates changed nothing */
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_form_free(form));
}

/* ---- fw_form_snapshots over all fields ---- */

static void whole_form(void) {
    int destroyed = 0;
    strength_context strength = {3, 0, &destroyed};
    fw_form *form = registration_form(&strength), *empty = NULL;
    fw_snapshot snaps[8], one;
    char texts[1024], small[77];
    size_t count = 0, text_size = 0, total = 0, i;
    fw_snapshot *none = NULL;

    CHECK_OK(fw_field_focus(form, "email"));
    CHECK_OK(fw_field_set_value(form, "email", "ada@"));
    CHECK_OK(fw_field_set_value(form, "name", "Ada"));
    CHECK_OK(fw_form_touch_all(form));

    /* Capacity smaller than the field count: the count, nothing filled. */
    for (i = 0; i < 8; i++) blank(&snaps[i]);
    memset(texts, SENTINEL, sizeof texts);
    CHECK_STATUS(fw_form_snapshots(form, snaps, 5, &count, texts, sizeof texts, &text_size), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(count == 6);
    for (i = 0; i < 8; i++) CHECK(all_bytes((const char *)&snaps[i] + sizeof(size_t), sizeof(fw_snapshot) - sizeof(size_t), SENTINEL));
    CHECK(all_bytes(texts, sizeof texts, SENTINEL));
    count = 0;
    CHECK_STATUS(fw_form_snapshots(form, none, 0, &count, NULL, 0, NULL), FW_ERR_BUFFER_TOO_SMALL); /* a count query */
    CHECK(count == 6);
    CHECK_STATUS(fw_form_snapshots(form, snaps, 8, NULL, texts, sizeof texts, NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_form_snapshots(form, snaps, 8, &count, NULL, 4, NULL), FW_ERR_NULL_ARGUMENT);

    /* Every field, in registration order, each as fw_field_snapshot_at says. */
    for (i = 0; i < 8; i++) blank(&snaps[i]);
    CHECK_OK(fw_form_snapshots(form, snaps, 8, &count, texts, sizeof texts, &text_size));
    CHECK(count == 6);
    for (i = 0; i < 6; i++) {
        char own[256];
        blank(&one);
        CHECK_OK(fw_field_snapshot_at(form, i, &one, own, sizeof own));
        CHECK(snaps[i].index == i && snaps[i].phase == one.phase && snaps[i].validity == one.validity);
        CHECK(snaps[i].display == one.display && snaps[i].failing_rule == one.failing_rule);
        CHECK(snaps[i].touched == one.touched && snaps[i].text_size == one.text_size);
        CHECK(snaps[i].message == texts + total);
        CHECK_STR(snaps[i].message, one.message);
        CHECK_STR(snaps[i].display_message, one.display_message);
        CHECK_STR(snaps[i].value, one.value);
        total += snaps[i].text_size;
    }
    for (i = 6; i < 8; i++) CHECK(all_bytes((const char *)&snaps[i] + sizeof(size_t), sizeof(fw_snapshot) - sizeof(size_t), SENTINEL));
    CHECK(text_size == total);
    /* name valid, email invalid (lenient, still focused: touch_all keeps focus), the rest required and empty. */
    CHECK(snaps[0].validity == FW_VALIDITY_VALID && snaps[0].display == FW_DISPLAY_VALID);
    CHECK(snaps[1].phase == FW_PHASE_FOCUSED && snaps[1].validity == FW_VALIDITY_INVALID && snaps[1].failing_rule == 1);
    CHECK_STR(snaps[1].message, "Invalid email format");
    CHECK_STR(snaps[1].display_message, "Invalid email format");
    CHECK(snaps[2].failing_rule == 0 && snaps[3].failing_rule == 0 && snaps[4].failing_rule == 0);
    CHECK_STR(snaps[4].message, "Please confirm your password");
    CHECK(snaps[5].phase == FW_PHASE_IDLE && snaps[5].failing_rule == -1 && snaps[5].touched);
    /* name "" "" "Ada"; email twice "Invalid email format" and "ada@"; username and password twice
       "This field is required"; confirm twice "Please confirm your password"; phone three "". Then
       the second version's texts (label, initial value, hint, error list and its final NUL):
       name 13 + 1 + 1 + 1; email 14 + 1 + "Enter a valid email address" 28 + 21 + 1; username and
       password 9 + 1 + "Enter a value" 14 + 23 + 1; confirm 17 + 1 + 14 + 29 + 1; phone 6 + 1 + 1 + 1.
       Then the third version's normalised value (the value again, no normalisers): 4 + 5 + 1 + 1 + 1 + 1.
       Then the fourth version's code, parameters, display code, display parameters and code list:
       name and phone "" "{}" "" "{}" and an empty list, 1 + 3 + 1 + 3 + 1 each; email "email" "{}" twice
       and the list "email", 6 + 3 + 6 + 3 + 7; username, password and confirm "required" "{}" twice and
       the list "required", 9 + 3 + 9 + 3 + 10 each. */
    CHECK(text_size == 6 + 47 + 47 + 47 + 59 + 3 + 16 + 65 + 48 + 48 + 62 + 9 + 13 + 9 + 25 + 34 + 34 + 34 + 9);

    /* A text buffer too small: the fields before the cut have their texts, the rest NULL. */
    for (i = 0; i < 6; i++) blank(&snaps[i]);
    CHECK_STATUS(fw_form_snapshots(form, snaps, 6, &count, small, sizeof small, &text_size), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(count == 6 && text_size == total);
    CHECK(snaps[0].message == small && snaps[0].value == small + 2);
    CHECK_STR(snaps[0].value, "Ada");
    CHECK(snaps[0].label == small + 6 && snaps[0].errors == small + 21); /* name's texts take 35 bytes */
    CHECK(snaps[0].normalized == small + 22);
    CHECK(snaps[0].code == small + 26 && snaps[0].params == small + 27 && snaps[0].error_codes == small + 34);
    CHECK_STR(snaps[0].label, "Display name");
    CHECK_STR(snaps[0].normalized, "Ada");
    CHECK_STR(snaps[0].params, "{}");
    CHECK(snaps[1].message == small + 35 && snaps[1].display_message == small + 56);
    CHECK_STR(snaps[1].display_message, "Invalid email format"); /* 35 + 21 + 21 = 77: exactly full; */
    CHECK(snaps[1].value == NULL && snaps[1].label == NULL && snaps[1].errors == NULL); /* "ada@" does not fit */
    CHECK(snaps[1].code == NULL && snaps[1].error_codes == NULL && snaps[1].code_length == 5);
    CHECK(snaps[1].error_count == 1 && snaps[1].errors_size == 21 && snaps[1].label_length == 13);
    CHECK(snaps[2].message == NULL && snaps[2].display_message == NULL && snaps[2].value == NULL);
    for (i = 2; i < 6; i++) CHECK(snaps[i].message == NULL && snaps[i].value == NULL && snaps[i].index == i);
    CHECK(snaps[4].failing_rule == 0 && snaps[4].message_length == 28); /* members filled all the same */

    /* Sizes: element sizes must all equal snapshots[0].size; a bad first size is refused. */
    for (i = 0; i < 6; i++) blank(&snaps[i]);
    snaps[3].size = sizeof(fw_snapshot) + 8;
    CHECK_STATUS(fw_form_snapshots(form, snaps, 6, &count, texts, sizeof texts, &text_size), FW_ERR_INVALID_ARGUMENT);
    for (i = 0; i < 6; i++) CHECK(all_bytes((const char *)&snaps[i] + sizeof(size_t), sizeof(fw_snapshot) - sizeof(size_t), SENTINEL));
    snaps[3].size = sizeof(fw_snapshot);
    snaps[0].size = TEST_SNAPSHOT_V1_SIZE - 8;
    CHECK_STATUS(fw_form_snapshots(form, snaps, 6, &count, texts, sizeof texts, &text_size), FW_ERR_INVALID_ARGUMENT);
    snaps[0].size = 12;
    CHECK_STATUS(fw_form_snapshots(form, snaps, 6, &count, texts, sizeof texts, &text_size), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_snapshots(form, none, 6, &count, texts, sizeof texts, &text_size), FW_ERR_NULL_ARGUMENT);

    /* An empty form: nothing to fill, FW_OK. */
    CHECK_OK(fw_form_create(&empty));
    count = 99;
    text_size = 99;
    CHECK_OK(fw_form_snapshots(empty, none, 0, &count, NULL, 0, &text_size));
    CHECK(count == 0 && text_size == 0);
    CHECK_OK(fw_form_free(empty));
    CHECK_OK(fw_form_free(form));
}

/* ---- the growth rule: a caller compiled with a larger fw_snapshot ---- */

typedef struct {
    fw_snapshot base;
    unsigned char later[21]; /* members a later header might add; the struct is padded to 8 */
} grown_snapshot;

static void growth_rule(void) {
    fw_form *form = NULL;
    grown_snapshot one, many[3];
    char buf[256];
    size_t count = 0, text_size = 0, i;
    CHECK(sizeof(grown_snapshot) % 8 == 0 && sizeof(grown_snapshot) > sizeof(fw_snapshot));
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "a", NULL, "first"));
    CHECK_OK(fw_form_add_field(form, "b", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "b", NULL));
    CHECK_OK(fw_form_add_field(form, "c", NULL, "third"));
    CHECK_OK(fw_field_touch(form, "b"));

    memset(&one, 0xA5, sizeof one);
    one.base.size = sizeof one;
    CHECK_OK(fw_field_snapshot(form, "b", &one.base, buf, sizeof buf));
    CHECK(one.base.size == sizeof one); /* kept as the caller set it */
    CHECK(one.base.index == 1 && one.base.validity == FW_VALIDITY_INVALID && one.base.failing_rule == 0);
    CHECK_STR(one.base.message, "This field is required");
    CHECK(all_bytes((const char *)&one + sizeof(fw_snapshot), sizeof one - sizeof(fw_snapshot), 0xA5));
    memset(&one, 0xA5, sizeof one);
    one.base.size = sizeof one;
    CHECK_OK(fw_field_update_at(form, 2, "changed", &one.base, buf, sizeof buf));
    CHECK_STR(one.base.value, "changed");
    CHECK(all_bytes((const char *)&one + sizeof(fw_snapshot), sizeof one - sizeof(fw_snapshot), 0xA5));

    /* fw_form_snapshots steps by the declared size. */
    memset(many, 0xA5, sizeof many);
    for (i = 0; i < 3; i++) many[i].base.size = sizeof(grown_snapshot);
    CHECK_OK(fw_form_snapshots(form, &many[0].base, 3, &count, buf, sizeof buf, &text_size));
    /* Second-version texts: label (the id), initial value, hint, error list: "a" 2 + 6 + 1 + 1;
       "b" 2 + 1 + "Enter a value" 14 + "This field is required" 23 + 1; "c" 2 + 6 + 1 + 1; then the
       third version's normalised value: "first" 6, "" 1, "changed" 8; then the fourth version's codes
       and parameters: "a" and "c" "" "{}" "" "{}" and an empty list, 9 each; "b" "required" "{}" twice
       and the list "required", 34. */
    CHECK(count == 3 && text_size == (0 + 0 + 5 + 3 + 10 + 6 + 9) + (22 + 22 + 0 + 3 + 41 + 1 + 34)
                                     + (0 + 0 + 7 + 3 + 10 + 8 + 9));
    for (i = 0; i < 3; i++) {
        CHECK(many[i].base.size == sizeof(grown_snapshot) && many[i].base.index == i);
        CHECK(all_bytes(many[i].later, sizeof many[i].later, 0xA5));
        CHECK(all_bytes((const char *)&many[i] + sizeof(fw_snapshot), sizeof(grown_snapshot) - sizeof(fw_snapshot), 0xA5));
    }
    CHECK_STR(many[0].base.value, "first");
    CHECK_STR(many[1].base.display_message, "This field is required");
    CHECK_STR(many[2].base.value, "changed");
    /* A size that is a multiple of 8 but not the stride of the array the elements say. */
    many[1].base.size = sizeof(fw_snapshot);
    CHECK_STATUS(fw_form_snapshots(form, &many[0].base, 3, &count, buf, sizeof buf, &text_size), FW_ERR_INVALID_ARGUMENT);
    CHECK_OK(fw_form_free(form));
}

/* ---- fw_form_add_field_with_rules: all or nothing, and who owns the contexts ---- */

typedef struct {
    int destroyed;
    int calls;
} counted_context;

static void count_destroy(void *context) { ((counted_context *)context)->destroyed++; }

static int32_t error_on_value(void *context, const char *value, size_t length, const char **out_message) {
    (void)value; (void)length;
    ((counted_context *)context)->calls++;
    *out_message = "backend unreachable";
    return FW_VERDICT_ERROR;
}

static int32_t refuse_everything(void *context, const char *value, size_t length, const char **out_message) {
    (void)value; (void)length;
    ((counted_context *)context)->calls++;
    *out_message = "Refused";
    return FW_VERDICT_INVALID;
}

/* The form must still have `count` fields, no field `id`, and the keeper field its value. */
static void check_unchanged(int line, fw_form *form, size_t count, const char *id) {
    size_t now = 0, index = 0;
    char value[64] = "?";
    int ok = fw_form_field_count(form, &now) == FW_OK && now == count
          && fw_form_field_index(form, id, &index) == FW_ERR_UNKNOWN_FIELD
          && fw_field_value(form, "keeper", value, sizeof value, NULL) == FW_OK && strcmp(value, "kept") == 0;
    check_count++;
    if (!ok) {
        check_failures++;
        fprintf(stderr, "%s:%d: form changed by a refused fw_form_add_field_with_rules: %zu fields (expected %zu), "
                "keeper \"%s\"\n", __FILE__, line, now, count, value);
    }
}

#define CHECK_UNCHANGED(form, count, id) check_unchanged(__LINE__, form, count, id)

typedef struct {
    fw_rule rule;
    uint64_t later[2];
} grown_rule;

static void add_field_with_rules(void) {
    fw_form *form = NULL;
    counted_context ctx = {0, 0}, other = {0, 0};
    fw_rule rules[4];
    char detail[256];
    size_t count;

    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "keeper", NULL, "kept"));
    CHECK_OK(fw_form_add_field(form, "password", NULL, NULL));
    count = field_count(form);

    /* A custom rule first, then a refused rule: nothing added, the context not released. */
    rules[0] = custom_rule(refuse_everything, &ctx, count_destroy, NULL);
    rules[1] = test_rule(FW_RULE_REGEX, 0, "([a-z]", NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, "abc", rules, 2), FW_ERR_INVALID_PATTERN);
    CHECK(fw_last_error_offset() == 6);
    CHECK_OK(fw_last_error_message(detail, sizeof detail, NULL));
    CHECK(strstr(detail, "missing closing parenthesis") != NULL);
    CHECK_UNCHANGED(form, count, "f");

    rules[1] = test_rule(FW_RULE_MIN_LENGTH, -1, NULL, NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[1] = test_rule(FW_RULE_MAX_LENGTH, -5, NULL, NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[1] = test_rule(FW_RULE_MAX_LENGTH, 3, NULL, NULL);
    rules[2] = test_rule(FW_RULE_MIN_LENGTH, 5, NULL, NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 3), FW_ERR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[1] = test_rule(FW_RULE_MATCHES, 0, "ghost", NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_UNKNOWN_FIELD);
    CHECK_UNCHANGED(form, count, "f");
    rules[1] = test_rule(FW_RULE_ASYNC, 500, NULL, NULL); /* an async rule needs a name */
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_NULL_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[1] = test_rule(FW_RULE_ASYNC, 500, "", NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[1] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[1].kind = FW_RULE_JSON - 1; /* no kind has this value */
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[1].kind = -1;
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[1] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[1].size = sizeof(fw_rule) + 8; /* differs from rules[0].size */
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[1].size = sizeof(fw_rule);
    rules[0].size = sizeof(fw_rule) - 8;
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[0].size = sizeof(fw_rule);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, NULL, 2), FW_ERR_NULL_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    CHECK_STATUS(fw_form_add_field_with_rules(form, "keeper", NULL, NULL, rules, 2), FW_ERR_DUPLICATE_FIELD);
    CHECK_UNCHANGED(form, count, "f");
    CHECK_STATUS(fw_form_add_field_with_rules(form, "", NULL, NULL, rules, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    CHECK_STATUS(fw_form_add_field_with_rules(form, NULL, NULL, NULL, rules, 2), FW_ERR_NULL_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");
    rules[1] = custom_rule(NULL, &other, count_destroy, NULL); /* a custom rule without a function */
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, NULL, rules, 2), FW_ERR_NULL_ARGUMENT);
    CHECK_UNCHANGED(form, count, "f");

    /* A custom validator that errs on the (non-empty) initial value: called, refused, not kept.
       (Rules run in array order and the first failure wins, so the erring one goes first.) */
    rules[0] = custom_rule(error_on_value, &other, count_destroy, NULL);
    rules[1] = custom_rule(refuse_everything, &ctx, count_destroy, NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "f", NULL, "abc", rules, 2), FW_ERR_CALLBACK);
    CHECK(other.calls == 1 && ctx.calls == 0);
    CHECK_OK(fw_last_error_message(detail, sizeof detail, NULL));
    CHECK(strstr(detail, "backend unreachable") != NULL);
    CHECK_UNCHANGED(form, count, "f");
    CHECK(ctx.destroyed == 0 && other.destroyed == 0); /* the caller still owns both contexts */

    /* Success: both contexts owned by the form now, released once when it is freed. With an empty
       initial value the erring validator is not run. The rules run in array order. */
    rules[2] = test_rule(FW_RULE_MIN_LENGTH, 2, NULL, NULL);
    CHECK_OK(fw_form_add_field_with_rules(form, "f", "Field", NULL, rules, 3));
    CHECK(field_count(form) == count + 1);
    CHECK(index_of(form, "f") == count);
    CHECK_SNAP(form, "f", IDLE_EMPTY);
    CHECK_STATUS(fw_field_set_value(form, "f", "x"), FW_ERR_CALLBACK); /* the stored validator runs, and errs */
    CHECK(other.calls == 2);
    CHECK_SNAP(form, "f", IDLE_EMPTY);
    CHECK(ctx.destroyed == 0 && other.destroyed == 0);

    /* A custom validator saying "invalid" on the initial value is not an error: the field is added. */
    rules[0] = custom_rule(refuse_everything, &ctx, NULL, "Nope");
    CHECK_OK(fw_form_add_field_with_rules(form, "g", NULL, "abc", rules, 1));
    CHECK_OK(fw_field_touch(form, "g"));
    CHECK_SNAP(form, "g", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "Nope", FW_DISPLAY_ERROR, "Nope", true, "abc");

    /* No rules: a NULL array with count 0. */
    CHECK_OK(fw_form_add_field_with_rules(form, "h", NULL, "plain", NULL, 0));
    CHECK_SNAP(form, "h", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", false, "plain");

    /* Matches another field, and a larger fw_rule (growth rule: stride = rules[0].size). */
    {
        grown_rule grown[2];
        memset(grown, 0xA5, sizeof grown);
        grown[0].rule = test_rule(FW_RULE_REQUIRED, 0, NULL, "Confirm it");
        grown[1].rule = test_rule(FW_RULE_MATCHES, 0, "password", NULL);
        grown[0].rule.size = grown[1].rule.size = sizeof(grown_rule);
        CHECK_OK(fw_form_add_field_with_rules(form, "confirm", NULL, NULL, &grown[0].rule, 2));
        CHECK_OK(fw_field_set_value(form, "password", "secret"));
        CHECK_UPDATE(form, "confirm", "secre", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 1, "Must match password",
                     FW_DISPLAY_NONE, "", false, "secre");
        CHECK_OK(fw_field_blur(form, "confirm"));
        CHECK_SNAP(form, "confirm", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 1, "Must match password",
                   FW_DISPLAY_ERROR, "Must match password", true, "secre");
        CHECK_OK(fw_field_set_value(form, "password", "secre")); /* re-checked when password changes */
        CHECK_SNAP(form, "confirm", SETTLED("secre"));
        CHECK_OK(fw_field_set_value(form, "confirm", ""));
        CHECK_SNAP(form, "confirm", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "Confirm it", FW_DISPLAY_ERROR,
                   "Confirm it", true, "");
    }
    CHECK_CONSISTENT(form);

    CHECK(ctx.destroyed == 0 && other.destroyed == 0);
    CHECK_OK(fw_form_free(form));
    CHECK(ctx.destroyed == 1);   /* owned through field "f" only ("g" gave no destroy function) */
    CHECK(other.destroyed == 1);
}

/* ---- index functions ---- */

static int32_t error_on_boom(void *context, const char *value, size_t length, const char **out_message) {
    (void)context; (void)length; (void)out_message;
    return strcmp(value, "boom") == 0 ? FW_VERDICT_ERROR : FW_VERDICT_VALID;
}

static void index_functions(void) {
    fw_form *form = NULL;
    fw_snapshot snap;
    char buf[128];
    size_t index = 77, bad[] = {3, 4, 1000, SIZE_MAX}, k;
    fw_rule checked = custom_rule(error_on_boom, NULL, NULL, NULL);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "caf\xc3\xa9", NULL, NULL));   /* "café", precomposed */
    CHECK_OK(fw_form_add_field(form, "second", NULL, "two"));
    CHECK_OK(fw_form_add_field_with_rules(form, "checked", NULL, NULL, &checked, 1));

    CHECK_OK(fw_form_field_index(form, "cafe\xcc\x81", &index)); /* the same id, with a combining accent */
    CHECK(index == 0);
    CHECK_OK(fw_form_field_index(form, "second", &index));
    CHECK(index == 1);
    index = 77;
    CHECK_STATUS(fw_form_field_index(form, "nope", &index), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_form_field_index(form, "", &index), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_form_field_index(form, NULL, &index), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_form_field_index(form, "second", NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_form_field_index(form, "\xff", &index), FW_ERR_INVALID_UTF8);

    /* Each index call behaves as its id-named counterpart. */
    CHECK_OK(fw_field_focus_at(form, 0));
    CHECK_OK(fw_field_set_value_at(form, 0, "latte"));
    CHECK_SNAP(form, "caf\xc3\xa9", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE, "", false, "latte");
    CHECK_OK(fw_field_focus_at(form, 1)); /* one focus: the first field is blurred */
    CHECK_SNAP(form, "caf\xc3\xa9", SETTLED("latte"));
    CHECK_SNAP(form, "second", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE, "", false, "two");
    CHECK_OK(fw_field_touch_at(form, 1));
    CHECK_SNAP(form, "second", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_VALID, "", true, "two");
    CHECK_OK(fw_field_blur_at(form, 1));
    CHECK_SNAP(form, "second", SETTLED("two"));
    CHECK_CONSISTENT(form);

    /* Out of range: refused, nothing changes. */
    for (k = 0; k < COUNT(bad); k++) {
        blank(&snap);
        CHECK_STATUS(fw_field_set_value_at(form, bad[k], "x"), FW_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(fw_field_focus_at(form, bad[k]), FW_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(fw_field_blur_at(form, bad[k]), FW_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(fw_field_touch_at(form, bad[k]), FW_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(fw_field_snapshot_at(form, bad[k], &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(fw_field_update_at(form, bad[k], "x", &snap, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
    }
    CHECK(field_count(form) == 3);
    CHECK_SNAP(form, "caf\xc3\xa9", SETTLED("latte"));
    CHECK_SNAP(form, "second", SETTLED("two"));

    /* A failed update changes nothing and fills no snapshot. */
    CHECK_UPDATE_AT(form, "checked", "fine", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE, "", false,
                    "fine");
    blank(&snap);
    memset(buf, SENTINEL, sizeof buf);
    CHECK_STATUS(fw_field_update_at(form, 2, "boom", &snap, buf, sizeof buf), FW_ERR_CALLBACK);
    CHECK(all_bytes((const char *)&snap + sizeof(size_t), sizeof snap - sizeof(size_t), SENTINEL));
    CHECK(all_bytes(buf, sizeof buf, SENTINEL));
    CHECK_STATUS(fw_field_update(form, "checked", "boom", &snap, buf, sizeof buf), FW_ERR_CALLBACK);
    CHECK_STATUS(fw_field_update(form, "checked", "bad \xc3\x28", &snap, buf, sizeof buf), FW_ERR_INVALID_UTF8);
    CHECK(fw_last_error_offset() == 4);
    CHECK_STATUS(fw_field_update(form, "nope", "x", &snap, buf, sizeof buf), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_field_update(form, "checked", NULL, &snap, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_update(form, "checked", "x", NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_update_at(form, 2, "x", NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_update_at(form, 2, "x", &snap, NULL, 8), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_set_value_at(form, 2, "boom"), FW_ERR_CALLBACK);
    CHECK_STATUS(fw_field_set_value_at(form, 2, NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_SNAP(form, "checked", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE, "", false, "fine");
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_form_free(form));
}

/* A value overwritten in place (same length or shorter) never touches the initial value that
   fw_form_reset puts back, nor what an earlier snapshot copied out. */
static void values_written_in_place(void) {
    fw_form *form = NULL;
    fw_snapshot before, after;
    char first[64], second[64];
    fw_rule rules[1];
    rules[0] = test_rule(FW_RULE_MIN_LENGTH, 4, NULL, NULL);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field_with_rules(form, "p", NULL, "abcdef", rules, 1));
    blank(&before);
    blank(&after);
    CHECK_OK(fw_field_snapshot_at(form, 0, &before, first, sizeof first));
    CHECK_UPDATE_AT(form, "p", "xyzuvw", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, -1, "", FW_DISPLAY_NONE, "", false, "xyzuvw");
    CHECK_UPDATE_AT(form, "p", "xyz", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "Must be at least 4 characters",
                    FW_DISPLAY_NONE, "", false, "xyz");
    CHECK_UPDATE_AT(form, "p", "", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", false, "");
    CHECK_UPDATE_AT(form, "p", "a\xc3\xa9", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, 0, "Must be at least 4 characters",
                    FW_DISPLAY_NONE, "", false, "a\xc3\xa9");
    CHECK_STR(before.value, "abcdef");
    CHECK_OK(fw_form_reset(form));
    CHECK_OK(fw_field_snapshot_at(form, 0, &after, second, sizeof second));
    CHECK_STR(after.value, "abcdef");
    CHECK(after.phase == FW_PHASE_IDLE && after.validity == FW_VALIDITY_EMPTY && after.failing_rule == -1);
    CHECK_UPDATE_AT(form, "p", "abcdefghij", SETTLED_UNTOUCHED("abcdefghij"));
    CHECK_OK(fw_form_reset(form));
    CHECK_SNAP(form, "p", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", false, "abcdef");
    CHECK_OK(fw_form_free(form));
}

/* The texts of a full snapshot, in the order the library copies them (see fw_snapshot). */
static const char *const *texts_of(const fw_snapshot *s, const char **texts) {
    texts[0] = s->message;
    texts[1] = s->display_message;
    texts[2] = s->value;
    texts[3] = s->label;
    texts[4] = s->initial;
    texts[5] = s->hint;
    texts[6] = s->errors;
    texts[7] = s->normalized;
    texts[8] = s->code;
    texts[9] = s->params;
    texts[10] = s->display_code;
    texts[11] = s->display_params;
    texts[12] = s->error_codes;
    return texts;
}

/* Every buffer size from 0 to what the texts need, for a valid field (its failure texts are copied
   as one block when they fit) and an invalid one (text by text): the texts that fit are a prefix,
   each as a full read gives it at the same offset; the rest are NULL; nothing is written past them. */
static void every_buffer_size(void) {
    static const char *const values[2] = {"first.last@example.org", "not an e-mail"};
    fw_form *form = NULL;
    fw_snapshot full, snap;
    char whole[512], buf[512];
    const char *want[13], *got[13];
    size_t size;
    int v, k;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "email", "E-mail", "a@b.co"));
    CHECK_OK(fw_field_add_email(form, "email", NULL));
    CHECK_OK(fw_field_touch(form, "email"));
    for (v = 0; v < 2; v++) {
        int mismatches = 0;
        blank(&full);
        CHECK_OK(fw_field_update_at(form, 0, values[v], &full, whole, sizeof whole));
        CHECK(full.validity == (v == 0 ? FW_VALIDITY_VALID : FW_VALIDITY_INVALID));
        texts_of(&full, want);
        for (size = 0; size <= full.text_size; size++) {
            int seen_null = 0;
            memset(buf, SENTINEL, sizeof buf);
            blank(&snap);
            if (fw_field_snapshot_at(form, 0, &snap, buf, size) != (size == full.text_size ? FW_OK : FW_ERR_BUFFER_TOO_SMALL) ||
                snap.text_size != full.text_size || snap.validity != full.validity) {
                mismatches++;
                continue;
            }
            texts_of(&snap, got);
            for (k = 0; k < 13; k++) {
                if (got[k] == NULL) {
                    seen_null = 1;
                    continue;
                }
                /* A text after a NULL one, or not where (and what) the full read put it. */
                if (seen_null || got[k] - buf != want[k] - whole ||
                    memcmp(got[k], want[k], (size_t)((k + 1 < 13 ? want[k + 1] : whole + full.text_size) - want[k])) != 0)
                    mismatches++;
            }
            if (size < full.text_size && !seen_null) mismatches++;
            if (size > 0 && !all_bytes(buf + size, sizeof buf - size, SENTINEL)) mismatches++;
        }
        CHECK(mismatches == 0);
    }
    CHECK_OK(fw_form_free(form));
}

/* Values of every length from 0 to 70 bytes come back byte for byte (the short copies go by words). */
static void value_lengths(void) {
    fw_form *form = NULL;
    fw_snapshot snap;
    char value[80], buf[512];
    size_t length;
    int wrong = 0;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "f", NULL, NULL));
    for (length = 0; length <= 70; length++) {
        size_t i;
        for (i = 0; i < length; i++) value[i] = (char)('a' + (i * 7 + length) % 26);
        value[length] = '\0';
        blank(&snap);
        memset(buf, SENTINEL, sizeof buf);
        if (fw_field_update_at(form, 0, value, &snap, buf, sizeof buf) != FW_OK || snap.value_length != length ||
            strcmp(snap.value, value) != 0 || strcmp(snap.normalized, value) != 0 ||
            !all_bytes(buf + snap.text_size, sizeof buf - snap.text_size, SENTINEL))
            wrong++;
    }
    CHECK(wrong == 0);
    CHECK_OK(fw_form_free(form));
}

/* ---- match limits ---- */

static void match_limits(void) {
    fw_form *form = NULL;
    uint32_t match = 0, depth = 0, heap = 0;
    char value[64], buf[256];
    fw_snapshot snap;
    fw_rule pattern[2];
    pattern[0] = test_rule(FW_RULE_MIN_LENGTH, 1, NULL, NULL);
    pattern[1] = test_rule(FW_RULE_REGEX, 0, "(a+)+$", NULL);
    blank(&snap);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_match_limits(form, &match, &depth, &heap));
    CHECK(match == 1000000 && depth == 100000 && heap == 16384);
    CHECK_OK(fw_form_set_match_limits(form, 1000, 2000, 3000));
    match = depth = heap = 0;
    CHECK_OK(fw_form_match_limits(form, &match, &depth, &heap));
    CHECK(match == 1000 && depth == 2000 && heap == 3000);
    CHECK_OK(fw_form_match_limits(form, NULL, NULL, NULL));
    match = depth = heap = 0;
    CHECK_OK(fw_form_match_limits(form, NULL, &depth, NULL));
    CHECK(match == 0 && depth == 2000 && heap == 0);
    CHECK_OK(fw_form_match_limits(form, &match, NULL, &heap));
    CHECK(match == 1000 && heap == 3000);
    CHECK_STATUS(fw_form_set_match_limits(form, 0, 5, 5), FW_ERR_INVALID_ARGUMENT);
    CHECK_OK(fw_form_match_limits(form, &match, &depth, &heap));
    CHECK(match == 1000 && depth == 2000 && heap == 3000); /* a refused change changes nothing */

    /* The time limit: 5 ms by default, read back, never 0. A minute here, so that the step limits
       alone decide below (valgrind slows matching some fifty times). */
    {
        uint32_t micros = 0;
        CHECK_OK(fw_form_time_limit(form, &micros));
        CHECK(micros == 5000);
        CHECK_STATUS(fw_form_set_time_limit(form, 0), FW_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(fw_form_time_limit(form, NULL), FW_ERR_NULL_ARGUMENT);
        CHECK_OK(fw_form_set_time_limit(form, 60000000u));
        CHECK_OK(fw_form_time_limit(form, &micros));
        CHECK(micros == 60000000u);
        CHECK_OK(fw_form_match_limits(form, &match, &depth, &heap));
        CHECK(match == 1000 && depth == 2000 && heap == 3000); /* the step limits are apart */
    }

    /* A verdict the limits decided shows in the snapshot. */
    CHECK_OK(fw_form_add_field_with_rules(form, "p", NULL, NULL, pattern, 2));
    memset(value, 'a', 16);
    strcpy(value + 16, "!");
    CHECK_OK(fw_field_update(form, "p", value, &snap, buf, sizeof buf));
    CHECK(snap.limit_exceeded && snap.validity == FW_VALIDITY_INVALID && snap.failing_rule == 1);
    CHECK_STR(snap.message, "This value is too complex to check");
    CHECK_OK(fw_form_set_match_limits(form, 1000000, 100000, 16384));
    CHECK_OK(fw_field_snapshot(form, "p", &snap, buf, sizeof buf));
    CHECK(!snap.limit_exceeded && snap.failing_rule == 1);
    CHECK_STR(snap.message, "Invalid format");
    CHECK_OK(fw_form_match_limits(form, &match, &depth, &heap));
    CHECK(match == 1000000 && depth == 100000 && heap == 16384);

    /* A time limit of 1 microsecond cuts short what the step limits would let run: 2^28 steps of
       (a+)+$ on 28 a's and a '!' exceed phase 1 and are abandoned at the first clock read. */
    memset(value, 'a', 28);
    strcpy(value + 28, "!");
    CHECK_OK(fw_form_set_time_limit(form, 1));
    CHECK_OK(fw_field_update(form, "p", value, &snap, buf, sizeof buf));
    CHECK(snap.limit_exceeded && snap.validity == FW_VALIDITY_INVALID && snap.failing_rule == 1);
    CHECK_STR(snap.message ? snap.message : "(null)", "This value is too complex to check");
    CHECK_OK(fw_form_set_time_limit(form, 60000000u));
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_form_free(form));
}

/* ---- checked handles: every snapshot, index, match-limits and rule-array function refuses NULL,
   freed and forged handles ---- */

static void every_new_function(fw_form *form, int line) {
    fw_snapshot snap, snaps[2];
    char buf[128];
    size_t n = 0, t = 0;
    uint32_t limit = 0;
    counted_context ctx = {0, 0};
    fw_rule rules[2];
    int failures = check_failures;
    rules[0] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[1] = custom_rule(refuse_everything, &ctx, count_destroy, NULL);
    blank(&snap);
    blank(&snaps[0]);
    blank(&snaps[1]);
    CHECK_STATUS(fw_field_snapshot(form, "a", &snap, buf, sizeof buf), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_snapshot_at(form, 0, &snap, buf, sizeof buf), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_update(form, "a", "v", &snap, buf, sizeof buf), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_update_at(form, 0, "v", &snap, buf, sizeof buf), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_form_snapshots(form, snaps, 2, &n, buf, sizeof buf, &t), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_form_field_index(form, "a", &n), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_set_value_at(form, 0, "v"), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_focus_at(form, 0), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_blur_at(form, 0), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_touch_at(form, 0), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_form_match_limits(form, &limit, &limit, &limit), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_form_match_limits(form, NULL, NULL, NULL), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "n", NULL, "v", rules, 2), FW_ERR_INVALID_HANDLE);
    CHECK(ctx.destroyed == 0 && ctx.calls == 0); /* refused before anything ran; the caller keeps it */
    CHECK_STATUS(fw_form_free(form), form == NULL ? FW_OK : FW_ERR_INVALID_HANDLE);
    if (check_failures != failures) fprintf(stderr, "  (handle %p, from line %d)\n", (void *)form, line);
}

static void handles(void) {
    fw_form *live = NULL, *freed = NULL, *reused = NULL;
    uintptr_t bits;
    int on_stack = 0;
    size_t index = 9;
    CHECK_OK(fw_form_create(&live));
    CHECK_OK(fw_form_add_field(live, "a", NULL, "alive"));
    CHECK_OK(fw_form_create(&freed));
    CHECK_OK(fw_form_add_field(freed, "a", NULL, NULL));
    CHECK_OK(fw_form_free(freed));
    bits = (uintptr_t)(void *)live;

    every_new_function(NULL, __LINE__);
    every_new_function(freed, __LINE__);
    every_new_function((fw_form *)(uintptr_t)0x1, __LINE__);
    every_new_function((fw_form *)(uintptr_t)0xdeadbeef, __LINE__);
    every_new_function((fw_form *)(uintptr_t)UINTPTR_MAX, __LINE__);
    every_new_function((fw_form *)(void *)&on_stack, __LINE__);
    /* The live handle's slot with another generation (the bits above the slot index). */
    every_new_function((fw_form *)(bits ^ ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))), __LINE__);
    every_new_function((fw_form *)(bits + ((uintptr_t)1 << 24)), __LINE__);
    every_new_function((fw_form *)(bits - ((uintptr_t)1 << 24)), __LINE__);
    every_new_function((fw_form *)(bits & (((uintptr_t)1 << 24) - 1)), __LINE__);

    /* A freed form's slot is reused by the next form: the old handle stays dead. */
    CHECK_OK(fw_form_create(&reused));
    CHECK(reused != freed);
    CHECK_OK(fw_form_add_field(reused, "b", NULL, NULL));
    every_new_function(freed, __LINE__);
    CHECK_OK(fw_form_field_index(reused, "b", &index));
    CHECK(index == 0);

    /* The live form came through all of it. */
    CHECK(field_count(live) == 1);
    CHECK_SNAP(live, "a", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, -1, "", FW_DISPLAY_NONE, "", false, "alive");
    CHECK_OK(fw_form_free(live));
    CHECK_OK(fw_form_free(reused));
}

/* ---- threads: snapshots read while other threads write ---- */

#define WRITERS 4
#define READERS 2
#define READS 20000 /* per reader; the whole test stays under 10 s under valgrind */

/* Values written, and the verdict each must come with (min_length 4 is rule 0, the digits rule 1). */
static const struct {
    const char *value;
    const char *message; /* "" when valid */
    int32_t failing_rule;
} WRITTEN[] = {
    {"1234", "", -1},
    {"12ab", "Digits only", 1},
    {"567890", "", -1},
    {"9", "At least 4 characters", 0},
    {"\xd9\xa1\xd9\xa2\xd9\xa3\xd9\xa4", "Digits only", 1}, /* Arabic-Indic digits: 4 characters, not [0-9] */
    {"0000000000000000000000000000000000000000", "", -1},
};

typedef struct {
    pthread_mutex_t lock;
    int started; /* writers that have written once */
    int stop;
} stop_flag;

static int stopped(stop_flag *flag) {
    int stop;
    pthread_mutex_lock(&flag->lock);
    stop = flag->stop;
    pthread_mutex_unlock(&flag->lock);
    return stop;
}

typedef struct {
    fw_form *form;
    int number;
    stop_flag *flag;
    long writes, failures;
} writer_job;

typedef struct {
    fw_form *form;
    long iterations, reads, failures;
    long seen[6]; /* reads of each WRITTEN value */
    char first_failure[512];
} reader_job;

static void *writer(void *argument) {
    writer_job *job = (writer_job *)argument;
    long i;
    /* Alternates valid and invalid values; each writer its own pair. */
    size_t valid = (size_t)(job->number % 3) * 2, invalid = valid + 1;
    for (i = 0; !stopped(job->flag); i++) {
        if (fw_field_set_value(job->form, "code", WRITTEN[i % 2 ? invalid : valid].value) != FW_OK) job->failures++;
        job->writes++;
        if (i == 0) {
            pthread_mutex_lock(&job->flag->lock);
            job->flag->started++;
            pthread_mutex_unlock(&job->flag->lock);
        }
        if (i % 8 == 7) sched_yield(); /* leaves the readers their share (valgrind runs one thread at a time) */
    }
    return NULL;
}

static void *reader(void *argument) {
    reader_job *job = (reader_job *)argument;
    char buf[256];
    long i;
    int distinct = 0;
    /* At least `iterations` reads, and on until two distinct values were seen (the reads overlapped
       the writes), up to 50 times as many: a fast reader can otherwise finish inside one time slice
       in which no writer ran. Pauses now and then so the writers get the lock. */
    for (i = 0; i < job->iterations || (distinct < 2 && i < 50 * job->iterations); i++) {
        fw_snapshot snap;
        fw_status status;
        size_t w;
        int known = -1, ok;
        memset(&snap, 0, sizeof snap);
        snap.size = sizeof snap;
        status = fw_field_snapshot(job->form, "code", &snap, buf, sizeof buf);
        job->reads++;
        ok = status == FW_OK && snap.message && snap.display_message && snap.value
          && strlen(snap.message) == snap.message_length && strlen(snap.value) == snap.value_length
          && strlen(snap.display_message) == snap.display_message_length;
        if (ok) {
            for (w = 0; w < COUNT(WRITTEN); w++) if (strcmp(snap.value, WRITTEN[w].value) == 0) known = (int)w;
            ok = known >= 0
              && (snap.validity == FW_VALIDITY_INVALID) == (snap.message_length > 0)
              && snap.phase == FW_PHASE_INACTIVE && snap.touched && snap.index == 0
              && snap.validity == (WRITTEN[known].message[0] ? FW_VALIDITY_INVALID : FW_VALIDITY_VALID)
              && strcmp(snap.message, WRITTEN[known].message) == 0
              && snap.failing_rule == WRITTEN[known].failing_rule
              && snap.display == (WRITTEN[known].message[0] ? FW_DISPLAY_ERROR : FW_DISPLAY_VALID)
              && strcmp(snap.display_message, WRITTEN[known].message) == 0
              && snap.text_size == snap.message_length + snap.display_message_length + snap.value_length + 3
                                   + snapshot_v2_text_bytes(&snap)
              /* The second version's members describe the same moment. */
              && snap.errors && snap.hint && snap.label && strcmp(snap.label, "Code") == 0
              && snap.error_count == (WRITTEN[known].message[0] ? 1u : 0u)
              && strcmp(snap.errors, WRITTEN[known].message) == 0
              && snap.errors_size == (WRITTEN[known].message[0] ? snap.message_length + 1 : 0)
              && (snap.hint_length > 0) == (WRITTEN[known].message[0] != 0)
              && snap.tint == (WRITTEN[known].message[0] ? FW_TINT_ERROR : FW_TINT_ACCENT)
              && snap.dirty == (strcmp(snap.value, "1234") != 0);
        }
        if (ok && job->seen[known]++ == 0) distinct++;
        if (distinct < 2 && i % 64 == 63) {
            /* Until the reads have overlapped the writes, a short sleep, not a yield: a mutex does
               not queue its waiters, so two readers taking turns could keep every writer waiting.
               (Not after: under valgrind each sleep waits out the busy writers' time slices.) */
            struct timespec pause = {0, 20000};
            nanosleep(&pause, NULL);
        }
        if (!ok) {
            if (job->failures == 0) {
                snprintf(job->first_failure, sizeof job->first_failure,
                         "read %ld: status %d validity %d failing_rule %d message \"%s\" display %d \"%s\" value \"%s\"",
                         i, (int)status, (int)snap.validity, (int)snap.failing_rule,
                         snap.message ? snap.message : "(null)", (int)snap.display,
                         snap.display_message ? snap.display_message : "(null)", snap.value ? snap.value : "(null)");
            }
            job->failures++;
        }
    }
    return NULL;
}

static void threads(void) {
    fw_form *form = NULL;
    fw_rule rules[3];
    stop_flag flag;
    writer_job writers[WRITERS];
    reader_job readers[READERS];
    pthread_t writer_threads[WRITERS], reader_threads[READERS];
    long writes = 0;
    int i;
    rules[0] = test_rule(FW_RULE_MIN_LENGTH, 4, NULL, "At least 4 characters");
    rules[1] = test_rule(FW_RULE_REGEX, 0, "[0-9]+", "Digits only");
    rules[2] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field_with_rules(form, "code", "Code", "1234", rules, 3));
    CHECK_OK(fw_field_touch(form, "code"));
    CHECK(pthread_mutex_init(&flag.lock, NULL) == 0);
    flag.started = flag.stop = 0;

    for (i = 0; i < WRITERS; i++) {
        writers[i].form = form;
        writers[i].number = i;
        writers[i].flag = &flag;
        writers[i].writes = writers[i].failures = 0;
        CHECK(pthread_create(&writer_threads[i], NULL, writer, &writers[i]) == 0);
    }
    for (;;) { /* the readers start once every writer is writing */
        int started;
        pthread_mutex_lock(&flag.lock);
        started = flag.started;
        pthread_mutex_unlock(&flag.lock);
        if (started == WRITERS) break;
        sched_yield();
    }
    for (i = 0; i < READERS; i++) {
        readers[i].form = form;
        readers[i].iterations = READS;
        readers[i].reads = readers[i].failures = 0;
        memset(readers[i].seen, 0, sizeof readers[i].seen);
        readers[i].first_failure[0] = '\0';
        CHECK(pthread_create(&reader_threads[i], NULL, reader, &readers[i]) == 0);
    }
    for (i = 0; i < READERS; i++) CHECK(pthread_join(reader_threads[i], NULL) == 0);
    pthread_mutex_lock(&flag.lock);
    flag.stop = 1;
    pthread_mutex_unlock(&flag.lock);
    for (i = 0; i < WRITERS; i++) CHECK(pthread_join(writer_threads[i], NULL) == 0);

    for (i = 0; i < READERS; i++) {
        CHECK(readers[i].reads >= readers[i].iterations);
        CHECK(readers[i].failures == 0);
        if (readers[i].failures) {
            fprintf(stderr, "reader %d: %ld of %ld reads inconsistent; first: %s\n", i, readers[i].failures,
                    readers[i].reads, readers[i].first_failure);
        }
    }
    for (i = 0; i < WRITERS; i++) {
        CHECK(writers[i].failures == 0);
        writes += writers[i].writes;
    }
    CHECK(writes > 0);
    {
        int distinct = 0, w;
        for (w = 0; w < (int)COUNT(WRITTEN); w++) distinct += readers[0].seen[w] + readers[1].seen[w] > 0;
        printf("threads: %ld writes by %d writers; %d readers read %d of the %d values\n", writes, WRITERS, READERS,
               distinct, (int)COUNT(WRITTEN));
        CHECK(distinct >= 2); /* the reads did overlap the writes */
    }
    CHECK_CONSISTENT(form);
    CHECK_OK(fw_form_free(form));
    pthread_mutex_destroy(&flag.lock);
}

int main(void) {
    walk_registration();
    failing_rule_of_required();
    buffers();
    whole_form();
    growth_rule();
    add_field_with_rules();
    index_functions();
    values_written_in_place();
    every_buffer_size();
    value_lengths();
    match_limits();
    handles();
    threads();
    CHECK(fw_form_live_count() == 0);
    return check_summary("snapshot_test");
}
