/* registration_walkthrough: seed 03's registration form driven the way a user fills it in —
   focus, typing, blur, submit — printing every field's state after each step. */
#include <stdio.h>
#include <stdlib.h>

#include "formwell.h"

static const char *const FIELDS[] = {"name", "email", "username", "password", "confirm"};
#define FIELD_COUNT (sizeof FIELDS / sizeof FIELDS[0])

/* Stops the program with the library's detail when a call fails. */
static void must(fw_status status, const char *what) {
    char detail[256];
    if (status == FW_OK) return;
    fw_last_error_message(detail, sizeof detail, NULL);
    fprintf(stderr, "%s failed: %s (%s)\n", what, fw_status_string(status), detail);
    exit(1);
}

static const char *phase_name(fw_phase phase) {
    switch (phase) {
    case FW_PHASE_IDLE: return "idle";
    case FW_PHASE_FOCUSED: return "focused";
    case FW_PHASE_INACTIVE: return "inactive";
    }
    return "?";
}

static const char *validity_name(fw_validity validity) {
    switch (validity) {
    case FW_VALIDITY_EMPTY: return "empty";
    case FW_VALIDITY_VALID: return "valid";
    case FW_VALIDITY_INVALID: return "invalid";
    case FW_VALIDITY_PENDING: return "pending";
    }
    return "?";
}

static const char *display_name(fw_display display) {
    switch (display) {
    case FW_DISPLAY_NONE: return "none";
    case FW_DISPLAY_VALID: return "valid";
    case FW_DISPLAY_ERROR: return "error";
    }
    return "?";
}

static void print_step(fw_form *form, const char *step) {
    size_t i;
    bool valid = false;
    printf("\n== %s\n", step);
    for (i = 0; i < FIELD_COUNT; i++) {
        fw_phase phase;
        fw_validity validity;
        fw_display display;
        bool touched;
        char value[128], message[128];
        must(fw_field_phase(form, FIELDS[i], &phase), "fw_field_phase");
        must(fw_field_validity(form, FIELDS[i], &validity), "fw_field_validity");
        must(fw_field_display(form, FIELDS[i], &display), "fw_field_display");
        must(fw_field_touched(form, FIELDS[i], &touched), "fw_field_touched");
        must(fw_field_value(form, FIELDS[i], value, sizeof value, NULL), "fw_field_value");
        must(fw_field_message(form, FIELDS[i], message, sizeof message, NULL), "fw_field_message");
        printf("  %-9s %-18s %-8s %-7s display=%-5s %s %s\n", FIELDS[i], value, phase_name(phase),
               validity_name(validity), display_name(display), touched ? "touched" : "       ", message);
    }
    must(fw_form_is_valid(form, &valid), "fw_form_is_valid");
    printf("  submit button: %s\n", valid ? "enabled" : "disabled");
}

/* Typing: one value per keystroke, as a text field reports them. */
static void type_text(fw_form *form, const char *field, const char *const *keystrokes, size_t count) {
    size_t i;
    for (i = 0; i < count; i++) must(fw_field_set_value(form, field, keystrokes[i]), "fw_field_set_value");
}

int main(void) {
    fw_form *form = NULL;
    bool valid = false;
    char first_invalid[64];
    static const char *const typed_email[] = {"a", "ada", "ada@", "ada@example", "ada@example.com"};
    static const char *const typed_username[] = {"A", "Ad", "Ada"};
    static const char *const typed_password[] = {"s", "secret", "secret12", "Secret12!"};

    printf("Formwell %s: registration form walkthrough\n", fw_version());
    must(fw_form_create(&form), "fw_form_create");
    must(fw_form_add_field(form, "name", "Display name", NULL), "add name");
    must(fw_field_add_required(form, "name", "Name is required"), "name required");
    must(fw_form_add_field(form, "email", "Email address", NULL), "add email");
    must(fw_field_add_required(form, "email", NULL), "email required");
    must(fw_field_add_email(form, "email", NULL), "email rule");
    must(fw_form_add_field(form, "username", "Username", NULL), "add username");
    must(fw_field_add_required(form, "username", NULL), "username required");
    must(fw_field_add_min_length(form, "username", 3, "At least 3 characters"), "username min");
    must(fw_field_add_max_length(form, "username", 20, "20 characters maximum"), "username max");
    must(fw_field_add_regex(form, "username", "^[a-z0-9_]+$", "Lowercase letters, numbers, and underscores only"),
         "username pattern");
    must(fw_form_add_field(form, "password", "Password", NULL), "add password");
    must(fw_field_add_required(form, "password", NULL), "password required");
    must(fw_field_add_min_length(form, "password", 8, NULL), "password min");
    must(fw_field_add_regex(form, "password", ".*[0-9].*", "Must contain a number"), "password digit");
    must(fw_form_add_field(form, "confirm", "Confirm password", NULL), "add confirm");
    must(fw_field_add_required(form, "confirm", "Please confirm your password"), "confirm required");
    must(fw_field_add_matches(form, "confirm", "password", "Passwords don't match"), "confirm matches");
    print_step(form, "form shown: nothing flagged yet");

    must(fw_field_focus(form, "name"), "focus");
    print_step(form, "focus name");
    must(fw_field_focus(form, "email"), "focus");
    print_step(form, "tab to email without typing a name (name blurred empty: required)");
    type_text(form, "email", typed_email, 3);
    print_step(form, "typing email: \"ada@\" (lenient stage: format only)");
    type_text(form, "email", typed_email + 3, 2);
    must(fw_field_blur(form, "email"), "blur");
    print_step(form, "finish email and blur");
    must(fw_field_focus(form, "name"), "focus");
    must(fw_field_set_value(form, "name", "Ada Lovelace"), "type");
    must(fw_field_focus(form, "username"), "focus");
    type_text(form, "username", typed_username, 3);
    print_step(form, "go back to fill name; type \"Ada\" as username");
    must(fw_field_set_value(form, "username", "ada"), "type");
    must(fw_field_focus(form, "password"), "focus");
    type_text(form, "password", typed_password, 4);
    must(fw_field_focus(form, "confirm"), "focus");
    must(fw_field_set_value(form, "confirm", "Secret12"), "type");
    print_step(form, "fix username, choose a password, mistype the confirmation");

    must(fw_form_validate(form, &valid), "fw_form_validate");
    must(fw_form_first_invalid(form, first_invalid, sizeof first_invalid, NULL), "fw_form_first_invalid");
    print_step(form, "submit");
    printf("  validate() -> %s; focus moves to: %s\n", valid ? "true" : "false", first_invalid);

    must(fw_field_set_value(form, "confirm", "Secret12!"), "type");
    must(fw_form_validate(form, &valid), "fw_form_validate");
    print_step(form, "correct the confirmation and submit again");
    printf("  validate() -> %s\n", valid ? "true" : "false");

    must(fw_form_free(form), "fw_form_free");
    return valid ? 0 : 1;
}
