/* unique_username: a complete Formwell program (also shown in bindings/c/README.md). */
#include <stdio.h>
#include <string.h>
#include "formwell.h"

/* A custom rule: refuses names already taken. The context is the list of taken names. */
static int32_t unique_username(void *context, const char *value, size_t length, const char **out_message) {
    const char *const *taken = (const char *const *)context;
    (void)length;
    for (; *taken; taken++) {
        if (strcmp(*taken, value) == 0) {
            *out_message = "That username is already taken";
            return FW_VERDICT_INVALID;
        }
    }
    return FW_VERDICT_VALID;
}

static int check(fw_status status) {
    if (status != FW_OK) {
        char detail[256];
        fw_last_error_message(detail, sizeof detail, NULL);
        fprintf(stderr, "formwell: %s: %s\n", fw_status_string(status), detail);
    }
    return status == FW_OK;
}

int main(void) {
    static const char *const taken[] = {"ada", "grace", NULL};
    fw_form *form = NULL;
    bool valid = false;
    char message[128], first[64];

    if (!check(fw_form_create(&form))) return 1;
    if (!check(fw_form_add_field(form, "username", "Username", NULL))
        || !check(fw_field_add_required(form, "username", NULL))
        || !check(fw_field_add_regex(form, "username", "[a-z0-9_]{3,20}", "3 to 20 lowercase letters, digits or _"))
        || !check(fw_field_add_custom(form, "username", unique_username, (void *)taken, NULL, NULL))) {
        fw_form_free(form);
        return 1;
    }

    check(fw_field_focus(form, "username"));
    check(fw_field_set_value(form, "username", "ada"));
    check(fw_field_blur(form, "username"));
    check(fw_field_display_message(form, "username", message, sizeof message, NULL));
    printf("username: %s\n", message);                 /* That username is already taken */

    check(fw_field_set_value(form, "username", "ada_l"));
    check(fw_form_validate(form, &valid));
    check(fw_form_first_invalid(form, first, sizeof first, NULL));
    printf("valid: %s, first invalid: '%s'\n", valid ? "yes" : "no", first);  /* yes, '' */

    fw_form_free(form);
    return valid ? 0 : 1;
}
