/* The rule catalogue through the C ABI: fw_rule_catalog, fw_field_add_rule_json,
   fw_form_define_rule_set, FW_RULE_JSON and the kinds after the first version in fw_rule arrays
   (their parameters as JSON in `text`), with every refusal leaving the form as it was. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "seed_rules.h"

#define URL_MESSAGE "Enter a valid URL including https://"
#define REQUIRED "This field is required"

static size_t count_fields(fw_form *form) {
    size_t n = 0;
    fw_form_field_count(form, &n);
    return n;
}

static void catalogue(void) {
    size_t needed = 0;
    char small[8], *text;
    CHECK_OK(fw_rule_catalog(NULL, 0, &needed));
    CHECK(needed > 1000);
    CHECK_STATUS(fw_rule_catalog(small, sizeof small, NULL), FW_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(fw_rule_catalog(NULL, 5, NULL), FW_ERR_NULL_ARGUMENT);
    text = malloc(needed + 1);
    CHECK_OK(fw_rule_catalog(text, needed + 1, NULL));
    CHECK(strlen(text) == needed);
    /* Every kind of the enum is in it, with its C value. */
    CHECK(strstr(text, "\"name\":\"required_if\"") != NULL);
    CHECK(strstr(text, "\"c_name\":\"FW_RULE_PASSWORD_STRENGTH\"") != NULL);
    CHECK(strstr(text, "\"c_value\":20") != NULL && FW_RULE_REQUIRED_WITHOUT == 20);
    CHECK(strstr(text, "\"c_value\":64,\"c_name\":\"FW_RULE_JSON\"") != NULL && FW_RULE_JSON == 64);
    free(text);
}

static void rule_json(void) {
    fw_form *form;
    char detail[256];
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "country", "Country", NULL));
    CHECK_OK(fw_form_add_field(form, "state", NULL, NULL));
    CHECK_OK(fw_form_add_field(form, "site", NULL, NULL));
    CHECK_OK(fw_field_add_rule_json(form, "state", "{\"rule\": \"required_if\", \"field\": \"country\", \"value\": \"US\"}"));
    CHECK_OK(fw_field_add_rule_json(form, "site", "{\"rule\": \"url\", \"schemes\": [\"https\"], \"hint\": \"https only\"}"));

    /* A change of country re-judges state once it has been judged. */
    CHECK_OK(fw_field_touch(form, "state"));
    CHECK_FIELD(form, "state", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", true);
    CHECK_OK(fw_field_set_value(form, "country", "US"));
    CHECK_FIELD(form, "state", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, REQUIRED, FW_DISPLAY_ERROR, REQUIRED, true);
    CHECK_OK(fw_field_set_value(form, "site", "http://example.com"));
    CHECK_FIELD(form, "site", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, URL_MESSAGE, FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_set_value(form, "site", "https://example.com"));
    CHECK_FIELD(form, "site", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_NONE, "", false);

    /* Refusals name the key; nothing is added. */
    CHECK_STATUS(fw_field_add_rule_json(form, "site", "{\"rule\": \"url\", \"schemes\": \"https\"}"), FW_ERR_INVALID_SPEC);
    fw_last_error_message(detail, sizeof detail, NULL);
    CHECK_STR(detail, "schemes: expected an array of strings, found a string");
    CHECK_STATUS(fw_field_add_rule_json(form, "site", "{\"rule\": \"nope\"}"), FW_ERR_INVALID_SPEC);
    CHECK_STATUS(fw_field_add_rule_json(form, "site", "{\"rule\": \"min_length\", \"length\": 2,"), FW_ERR_INVALID_SPEC);
    CHECK_STATUS(fw_field_add_rule_json(form, "site", "{\"rule\": \"not_equal\", \"field\": \"ghost\"}"), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_field_add_rule_json(form, "ghost", "{\"rule\": \"required\"}"), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_field_add_rule_json(form, "site", "{\"rule\": \"integer\", \"min\": 5, \"max\": 1}"), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_add_rule_json(form, "site", "{\"rule\": \"regex\", \"pattern\": \"(\"}"), FW_ERR_INVALID_PATTERN);
    CHECK_STATUS(fw_field_add_rule_json(form, "site", "{\"rule\": \"set\", \"name\": \"nope\"}"), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_add_rule_json(form, "site", NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_add_rule_json(form, "site", "{\"rule\": \"url\"}\xff"), FW_ERR_INVALID_UTF8);
    CHECK_FIELD(form, "site", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_NONE, "", false);

    /* A custom rule by name and an async rule through the same call. */
    CHECK_STATUS(fw_field_add_rule_json(form, "site", "{\"rule\": \"custom\", \"name\": \"undefined\"}"), FW_ERR_INVALID_ARGUMENT);
    CHECK_OK(fw_field_add_rule_json(form, "site", "{\"rule\": \"async\", \"name\": \"reachable\", \"debounce_ms\": 0}"));
    CHECK_OK(fw_form_free(form));
}

static void rule_sets(void) {
    fw_form *form;
    size_t length = 0;
    char spec[4096];
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_define_rule_set(form, "password",
        "[{\"rule\": \"required\"}, {\"rule\": \"min_length\", \"length\": 8}, {\"rule\": \"password_strength\"}]"));
    CHECK_STATUS(fw_form_define_rule_set(form, "", "[]"), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_define_rule_set(form, "x", "{}"), FW_ERR_INVALID_SPEC);
    CHECK_STATUS(fw_form_define_rule_set(form, "x", "[{\"rule\": \"set\", \"name\": \"password\"}]"), FW_ERR_INVALID_SPEC);
    CHECK_STATUS(fw_form_define_rule_set(form, "x", "[{\"rule\": \"async\", \"name\": \"a\"}]"), FW_ERR_INVALID_ARGUMENT);
    CHECK_OK(fw_form_add_field(form, "password", NULL, NULL));
    CHECK_OK(fw_field_add_rule_json(form, "password", "{\"rule\": \"set\", \"name\": \"password\"}"));
    CHECK_OK(fw_field_set_value(form, "password", "abcdefgh"));
    CHECK_FIELD(form, "password", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, WEAK_PASSWORD, FW_DISPLAY_NONE, "", false);
    CHECK_OK(fw_field_set_value(form, "password", "abcdef1!"));
    CHECK_FIELD(form, "password", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_NONE, "", false);
    /* The export writes the set back as a reference, and lists it. */
    CHECK_OK(fw_form_export_spec(form, spec, sizeof spec, &length));
    CHECK(strstr(spec, "\"rule\" : \"set\"") != NULL || strstr(spec, "\"rule\": \"set\"") != NULL);
    CHECK(strstr(spec, "\"rule_sets\"") != NULL);
    CHECK_OK(fw_form_free(form));
}

/* fw_rule arrays: the later kinds read `text` as their parameters; FW_RULE_JSON a whole rule. */
static void rule_arrays(void) {
    fw_form *form;
    fw_rule rules[3];
    size_t before;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "street", NULL, NULL));
    rules[0] = test_rule(FW_RULE_REQUIRED_WITH, 0, "{\"field\": \"street\"}", "City, please");
    rules[1] = test_rule(FW_RULE_JSON, 0, "{\"rule\": \"max_length\", \"length\": 4, \"unit\": \"bytes\"}", NULL);
    rules[2] = test_rule(FW_RULE_NONE_OF, 0, "{\"values\": [\"nowhere\"]}", NULL);
    CHECK_OK(fw_form_add_field_with_rules(form, "city", NULL, NULL, rules, 3));
    CHECK_OK(fw_form_touch_all(form));
    CHECK_FIELD(form, "city", FW_PHASE_IDLE, FW_VALIDITY_EMPTY, "", FW_DISPLAY_NONE, "", true);
    CHECK_OK(fw_field_set_value(form, "street", "Main St"));
    CHECK_FIELD(form, "city", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "City, please", FW_DISPLAY_ERROR, "City, please", true);
    CHECK_OK(fw_field_set_value(form, "city", "Köln"));  /* 5 bytes */
    CHECK_FIELD(form, "city", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "Must be 4 bytes or fewer", FW_DISPLAY_ERROR,
                "Must be 4 bytes or fewer", true);
    CHECK_OK(fw_field_set_value(form, "city", "Bonn"));
    CHECK_FIELD(form, "city", FW_PHASE_INACTIVE, FW_VALIDITY_VALID, "", FW_DISPLAY_VALID, "", true);

    /* NULL text: a kind with no required parameter takes its defaults; one that needs one is refused. */
    before = count_fields(form);
    rules[0] = test_rule(FW_RULE_URL, 0, NULL, NULL);
    CHECK_OK(fw_form_add_field_with_rules(form, "site", NULL, NULL, rules, 1));
    rules[0] = test_rule(FW_RULE_ONE_OF, 0, NULL, NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "size", NULL, NULL, rules, 1), FW_ERR_INVALID_SPEC);
    rules[0] = test_rule(FW_RULE_ONE_OF, 0, "{\"rule\": \"one_of\", \"values\": []}", NULL); /* "rule" is a member */
    CHECK_STATUS(fw_form_add_field_with_rules(form, "size", NULL, NULL, rules, 1), FW_ERR_INVALID_SPEC);
    rules[0] = test_rule(FW_RULE_ONE_OF, 0, "[1]", NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "size", NULL, NULL, rules, 1), FW_ERR_INVALID_SPEC);
    rules[0] = test_rule(FW_RULE_JSON, 0, NULL, NULL);
    CHECK_STATUS(fw_form_add_field_with_rules(form, "size", NULL, NULL, rules, 1), FW_ERR_NULL_ARGUMENT);
    rules[0] = test_rule(FW_RULE_JSON, 0, "{\"rule\": \"not_equal\", \"field\": \"size\"}", NULL); /* itself */
    CHECK_STATUS(fw_form_add_field_with_rules(form, "size", NULL, NULL, rules, 1), FW_ERR_INVALID_ARGUMENT);
    CHECK(count_fields(form) == before + 1);
    /* A message member replaces the JSON's own. */
    rules[0] = test_rule(FW_RULE_JSON, 0, "{\"rule\": \"e164\", \"message\": \"json\"}", "member");
    CHECK_OK(fw_form_add_field_with_rules(form, "tel", NULL, "555", rules, 1));
    CHECK_OK(fw_field_touch(form, "tel"));
    CHECK_FIELD(form, "tel", FW_PHASE_INACTIVE, FW_VALIDITY_INVALID, "member", FW_DISPLAY_ERROR, "member", true);
    CHECK_OK(fw_form_free(form));
}

int main(void) {
    catalogue();
    rule_json();
    rule_sets();
    rule_arrays();
    return check_summary("rules_test");
}
