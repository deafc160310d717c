/* Drives seed 03's registration form through the C ABI and asserts every field's state after each
   step, then misuses the API and asserts the exact result codes. */
#include "check.h"
#include "seed_rules.h"

static fw_form *registration_form(strength_context *strength) {
    fw_form *form = NULL;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "name", "Display name", NULL));
    CHECK_OK(fw_field_add_required(form, "name", "Name is required"));
    CHECK_OK(fw_form_add_field(form, "email", "Email address", NULL));
    CHECK_OK(fw_field_add_required(form, "email", NULL));
    CHECK_OK(fw_field_add_email(form, "email", NULL));
    CHECK_OK(fw_form_add_field(form, "username", "Username", NULL));
    CHECK_OK(fw_field_add_required(form, "username", NULL));
    CHECK_OK(fw_field_add_min_length(form, "username", 3, "At least 3 characters"));
    CHECK_OK(fw_field_add_max_length(form, "username", 20, "20 characters maximum"));
    CHECK_OK(fw_field_add_regex(form, "username", "^[a-z0-9_]+$", "Lowercase letters, numbers, and underscores only"));
    CHECK_OK(fw_form_add_field(form, "password", "Password", NULL));
    CHECK_OK(fw_field_add_required(form, "password", NULL));
    CHECK_OK(fw_field_add_min_length(form, "password", 8, NULL));
    CHECK_OK(fw_field_add_custom(form, "password", password_strength, strength, strength_destroy, NULL));
    CHECK_OK(fw_form_add_field(form, "confirm", "Confirm password", NULL));
    CHECK_OK(fw_field_add_required(form, "confirm", "Please confirm your password"));
    CHECK_OK(fw_field_add_matches(form, "confirm", "password", "Passwords don't match"));
    return form;
}

static void check_first_invalid(fw_form *form, const char *expected) {
    char id[64];
    CHECK_OK(fw_form_first_invalid(form, id, sizeof id, NULL));
    CHECK_STR(id, expected);
}

static void check_valid(fw_form *form, bool expected) {
    bool valid = !expected;
    CHECK_OK(fw_form_is_valid(form, &valid));
    CHECK(valid == expected);
}

#define IDLE_UNTOUCHED FW_PHASE_IDLE, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", false

static void walk_registration(void) {
    int destroyed = 0;
    strength_context strength = {3, 0, &destroyed};
    fw_form *form = registration_form(&strength);
    bool valid = true;
    const char *ids[] = {"name", "email", "username", "password", "confirm"};
    size_t i;

    /* Untouched: everything idle and silent, but the submit button is disabled. */
    for (i = 0; i < 5; i++) CHECK_FIELD(form, ids[i], IDLE_UNTOUCHED);
    check_valid(form, false);
    check_first_invalid(form, "name");

    /* Name: focus, type; lenient while focused. */
    CHECK_OK(fw_field_focus(form, "name"));
    CHECK_FIELD(form, "name", FW_PHASE_FOCUSED, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_set_value(form, "name", "Ada"));
    CHECK_FIELD(form, "name", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, "", FW_DISPLAY_NONE, "", false);

    /* Focusing e-mail blurs name: strict stage, touched, surfaced as valid. */
    CHECK_OK(fw_field_focus(form, "email"));
    CHECK_FIELD(form, "name", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", true);
    CHECK_FIELD(form, "email", FW_PHASE_FOCUSED, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_set_value(form, "email", "ada@"));
    CHECK_FIELD(form, "email", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, "Invalid email format", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_set_value(form, "email", "ada@example.com"));
    CHECK_FIELD(form, "email", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, "", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_blur(form, "email"));
    CHECK_FIELD(form, "email", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", true);

    /* Username: length first, then the pattern, in the order the rules were added. */
    CHECK_OK(fw_field_focus(form, "username"));
    CHECK_OK(fw_field_set_value(form, "username", "Ad"));
    CHECK_FIELD(form, "username", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, "At least 3 characters", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_set_value(form, "username", "Ada!"));
    CHECK_FIELD(form, "username", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, "Lowercase letters, numbers, and underscores only", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_blur(form, "username"));
    CHECK_FIELD(form, "username", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Lowercase letters, numbers, and underscores only",
                FW_DISPLAY_ERROR, "Lowercase letters, numbers, and underscores only", true);
    CHECK_OK(fw_field_focus(form, "username"));
    CHECK_OK(fw_field_set_value(form, "username", "ada_lovelace"));
    CHECK_FIELD(form, "username", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", true);

    /* Password: min length, then the custom strength check with its context. */
    CHECK_OK(fw_field_focus(form, "password"));
    CHECK_FIELD(form, "username", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", true);
    CHECK_OK(fw_field_set_value(form, "password", "abc"));
    CHECK_FIELD(form, "password", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, "Must be at least 8 characters", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_set_value(form, "password", "abcdefgh"));
    CHECK_FIELD(form, "password", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, WEAK_PASSWORD, FW_DISPLAY_NONE, "", false);
    CHECK(strength.calls > 0);
    CHECK_OK(fw_field_set_value(form, "password", "abcdefg1!"));
    CHECK_FIELD(form, "password", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, "", FW_DISPLAY_NONE, "", false);

    /* Confirm: compared with password, and re-checked when password changes. */
    CHECK_OK(fw_field_focus(form, "confirm"));
    CHECK_OK(fw_field_set_value(form, "confirm", "abcdefg1"));
    CHECK_FIELD(form, "confirm", FW_PHASE_FOCUSED, FW_VALIDITY_INVALID, "Passwords don't match", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_set_value(form, "confirm", "abcdefg1!"));
    CHECK_FIELD(form, "confirm", FW_PHASE_FOCUSED, FW_VALIDITY_VALID, "", FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_blur(form, "confirm"));
    CHECK_OK(fw_field_set_value(form, "password", "Abcdefg1!"));
    CHECK_FIELD(form, "password", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", true);
    CHECK_FIELD(form, "confirm", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Passwords don't match",
                FW_DISPLAY_ERROR, "Passwords don't match", true);
    check_valid(form, false);
    check_first_invalid(form, "confirm");
    CHECK_OK(fw_field_set_value(form, "confirm", "Abcdefg1!"));
    CHECK_FIELD(form, "confirm", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", true);

    /* Submit. */
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(valid);
    check_first_invalid(form, "");

    /* Clearing a required field and submitting again. */
    CHECK_OK(fw_field_focus(form, "name"));
    CHECK_OK(fw_field_set_value(form, "name", ""));
    CHECK_FIELD(form, "name", FW_PHASE_FOCUSED, FW_VALIDITY_EMPTY, "", FW_DISPLAY_ERROR, "Name is required", true);
    CHECK_OK(fw_field_blur(form, "name"));
    CHECK_FIELD(form, "name", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Name is required", FW_DISPLAY_ERROR, "Name is required", true);
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid);
    check_first_invalid(form, "name");

    /* Reset: values back to initial (empty), every field idle and untouched. */
    CHECK_OK(fw_form_reset(form));
    for (i = 0; i < 5; i++) CHECK_FIELD(form, ids[i], IDLE_UNTOUCHED);
    {
        char value[32];
        size_t length = 99;
        CHECK_OK(fw_field_value(form, "email", value, sizeof value, &length));
        CHECK_STR(value, "");
        CHECK(length == 0);
    }

    /* Submitting the empty form surfaces every required message at once. */
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid);
    CHECK_FIELD(form, "name", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Name is required", FW_DISPLAY_ERROR, "Name is required", true);
    CHECK_FIELD(form, "email", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "This field is required", FW_DISPLAY_ERROR, "This field is required", true);
    CHECK_FIELD(form, "confirm", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Please confirm your password",
                FW_DISPLAY_ERROR, "Please confirm your password", true);

    CHECK(destroyed == 0);
    CHECK_OK(fw_form_free(form));
    CHECK(destroyed == 1);
}

/* ---- misuse: every call below must return its exact code and leave the form as it was ---- */

static int32_t failing_validator(void *context, const char *value, size_t length, const char **out_message) {
    (void)context; (void)value; (void)length;
    *out_message = "backend unreachable";
    return FW_VERDICT_ERROR;
}

static int32_t garbage_validator(void *context, const char *value, size_t length, const char **out_message) {
    (void)context; (void)value; (void)length; (void)out_message;
    return 42;
}

static void count_destroy(void *context) { (*(int *)context)++; }

static void misuse(void) {
    fw_form *form = NULL, *freed = NULL;
    char text[256];
    size_t length = 0;
    fw_phase phase;
    bool valid;
    int destroyed = 0;

    CHECK_STATUS(fw_form_create(NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "email", "Email", "start@example.com"));
    CHECK_OK(fw_field_add_email(form, "email", NULL));

    /* NULL form and NULL arguments. */
    CHECK_STATUS(fw_field_focus(NULL, "email"), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_form_add_field(NULL, "x", NULL, NULL), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_set_value(form, NULL, "x"), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_set_value(form, "email", NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_phase(form, "email", NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_form_is_valid(form, NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_add_custom(form, "email", NULL, NULL, NULL, NULL), FW_ERR_NULL_ARGUMENT);

    /* Unknown and duplicate fields; the detail names the field. */
    CHECK_STATUS(fw_field_focus(form, "nope"), FW_ERR_UNKNOWN_FIELD);
    CHECK_OK(fw_last_error_message(text, sizeof text, NULL));
    CHECK(strstr(text, "'nope'") != NULL);
    CHECK(fw_last_error_code() == FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_form_add_field(form, "email", NULL, NULL), FW_ERR_DUPLICATE_FIELD);
    CHECK_STATUS(fw_form_add_field(form, "", NULL, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_add_matches(form, "email", "ghost", NULL), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_field_add_matches(form, "email", "email", NULL), FW_ERR_INVALID_ARGUMENT);

    /* Invalid UTF-8: refused with the offset of the first bad byte; the value is untouched. */
    CHECK_STATUS(fw_field_set_value(form, "email", "ab\xC3\x28"), FW_ERR_INVALID_UTF8);
    CHECK(fw_last_error_offset() == 2);
    CHECK_STATUS(fw_field_set_value(form, "email", "\xED\xA0\x80"), FW_ERR_INVALID_UTF8); /* a surrogate */
    CHECK(fw_last_error_offset() == 0);
    CHECK_STATUS(fw_form_add_field(form, "\xFF", NULL, NULL), FW_ERR_INVALID_UTF8);
    CHECK_OK(fw_field_value(form, "email", text, sizeof text, &length));
    CHECK_STR(text, "start@example.com");

    /* A bad regex: PCRE2's message and offset. */
    CHECK_STATUS(fw_field_add_regex(form, "email", "([a-z]", NULL), FW_ERR_INVALID_PATTERN);
    CHECK(fw_last_error_offset() == 6);
    CHECK_OK(fw_last_error_message(text, sizeof text, NULL));
    CHECK(strstr(text, "missing closing parenthesis") != NULL);
    CHECK_STATUS(fw_field_add_regex(form, "email", NULL, NULL), FW_ERR_NULL_ARGUMENT);

    /* Out-of-range lengths. */
    CHECK_STATUS(fw_field_add_min_length(form, "email", -1, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK_OK(fw_field_add_max_length(form, "email", 5, NULL));
    CHECK_STATUS(fw_field_add_min_length(form, "email", 6, NULL), FW_ERR_INVALID_ARGUMENT);

    /* The max_length rule above made the initial value too long; nothing else changed. */
    CHECK_OK(fw_field_blur(form, "email"));
    CHECK_FIELD(form, "email", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Must be 5 characters or fewer",
                FW_DISPLAY_ERROR, "Must be 5 characters or fewer", true);

    /* Buffers: size query, exact fit, too small (cut at a character boundary). */
    CHECK_OK(fw_field_value(form, "email", NULL, 0, &length));
    CHECK(length == strlen("start@example.com"));
    CHECK_STATUS(fw_field_value(form, "email", text, 6, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK_STR(text, "start");
    CHECK_STATUS(fw_field_value(form, "email", NULL, 8, &length), FW_ERR_NULL_ARGUMENT);
    CHECK_OK(fw_form_add_field(form, "emoji", NULL, "a\xC3\xA9"));
    CHECK_STATUS(fw_field_value(form, "emoji", text, 3, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK_STR(text, "a");
    CHECK(length == 3);
    CHECK_STATUS(fw_form_field_id(form, 2, text, sizeof text, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK_STR(text, "");

    /* Custom validators that fail: the operation is refused and the form keeps its state. */
    CHECK_OK(fw_form_add_field(form, "code", NULL, NULL));
    CHECK_OK(fw_field_add_custom(form, "code", failing_validator, &destroyed, count_destroy, NULL));
    CHECK_STATUS(fw_field_set_value(form, "code", "1234"), FW_ERR_CALLBACK);
    CHECK_OK(fw_last_error_message(text, sizeof text, NULL));
    CHECK(strstr(text, "backend unreachable") != NULL);
    CHECK_OK(fw_field_value(form, "code", text, sizeof text, NULL));
    CHECK_STR(text, "");
    CHECK_OK(fw_field_phase(form, "code", &phase));
    CHECK(phase == FW_PHASE_IDLE);
    CHECK_OK(fw_form_add_field(form, "other", NULL, "x"));
    CHECK_STATUS(fw_field_add_custom(form, "other", garbage_validator, &destroyed, count_destroy, NULL), FW_ERR_CALLBACK);
    CHECK(destroyed == 0); /* refused: the caller still owns the context */

    /* Status strings: one per code, distinct. */
    CHECK_STR(fw_status_string(FW_OK), "ok");
    CHECK(strcmp(fw_status_string(FW_ERR_UNKNOWN_FIELD), fw_status_string(FW_ERR_DUPLICATE_FIELD)) != 0);
    CHECK_STR(fw_status_string(999), "unknown status code");
    CHECK_STR(fw_version(), FW_VERSION_STRING);
    {
        char expected[32];
        snprintf(expected, sizeof expected, "%d.%d.%d", FW_VERSION_MAJOR, FW_VERSION_MINOR, FW_VERSION_PATCH);
        CHECK_STR(fw_version(), expected); /* the header's version macros match the loaded library */
    }
    CHECK(fw_abi_version() == FW_ABI_VERSION);

    /* Freed handles: refused, double free harmless, NULL free a no-op. */
    CHECK_OK(fw_form_create(&freed));
    CHECK_OK(fw_form_free(freed));
    CHECK_STATUS(fw_form_free(freed), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_focus(freed, "email"), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_form_is_valid(freed, &valid), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_form_is_valid((fw_form *)(uintptr_t)0x1234, &valid), FW_ERR_INVALID_HANDLE);
    CHECK_OK(fw_form_free(NULL));

    /* After all that, the form still holds what it held. */
    CHECK_OK(fw_field_value(form, "email", text, sizeof text, NULL));
    CHECK_STR(text, "start@example.com");
    CHECK_OK(fw_form_free(form));
    CHECK(destroyed == 1); /* the failing validator's context, owned by the form, was released once */
}

int main(void) {
    walk_registration();
    misuse();
    return check_summary("registration_test");
}
