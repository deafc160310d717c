/* Building big forms costs time in proportion to their size, and the library's size limits
 * (fw_limit) refuse what would pass them: one million fields added one by one, a hundred thousand
 * rules on one field, a spec whose rule set expands it, and one more of each refused with a message
 * naming the limit and nothing changed. The time bounds are generous; they fail when a step of
 * the construction costs time in proportion to what is already built. */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "check.h"

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int last_message_contains(const char *text) {
    char detail[512];
    fw_last_error_message(detail, sizeof detail, NULL);
    if (strstr(detail, text) != NULL) return 1;
    fprintf(stderr, "message \"%s\" lacks \"%s\"\n", detail, text);
    return 0;
}

static size_t field_count(fw_form *form) {
    size_t count = 0;
    CHECK_OK(fw_form_field_count(form, &count));
    return count;
}

static void test_million_fields(void) {
    fw_form *form = NULL;
    CHECK_OK(fw_form_create(&form));
    char id[32];
    double start = now_seconds();
    int failed = 0;
    for (int i = 0; i < FW_LIMIT_FIELDS_PER_FORM && !failed; i++) {
        snprintf(id, sizeof id, "f%d", i);
        if (fw_form_add_field(form, id, NULL, NULL) != FW_OK) failed = 1;
    }
    double seconds = now_seconds() - start;
    CHECK(!failed);
    printf("construction_test: %d fields added in %.2f s\n", FW_LIMIT_FIELDS_PER_FORM, seconds);
    CHECK(seconds < 10.0);
    CHECK(field_count(form) == (size_t)FW_LIMIT_FIELDS_PER_FORM);
    /* One past the limit: refused, nothing added; the fields already there still work. */
    CHECK_STATUS(fw_form_add_field(form, "one-too-many", NULL, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK(last_message_contains("FW_LIMIT_FIELDS_PER_FORM"));
    CHECK(field_count(form) == (size_t)FW_LIMIT_FIELDS_PER_FORM);
    CHECK_OK(fw_field_add_min_length(form, "f999999", 3, NULL));
    CHECK_OK(fw_field_set_value(form, "f999999", "ab"));
    CHECK_OK(fw_field_touch(form, "f999999"));
    fw_validity validity = FW_VALIDITY_EMPTY;
    CHECK_OK(fw_field_validity(form, "f999999", &validity));
    CHECK(validity == FW_VALIDITY_INVALID);
    CHECK_OK(fw_form_free(form));
}

static void test_many_rules_on_one_field(void) {
    fw_form *form = NULL;
    CHECK_OK(fw_form_create(&form));
    /* A value, so that every rule judges it as it is added. */
    CHECK_OK(fw_form_add_field(form, "code", NULL, "abcd"));
    double start = now_seconds();
    int failed = 0;
    for (int i = 0; i < FW_LIMIT_RULES_PER_FIELD - 1 && !failed; i++) {
        fw_status status;
        switch (i % 3) {
        case 0: status = fw_field_add_min_length(form, "code", 1, NULL); break;
        case 1: status = fw_field_add_max_length(form, "code", 10, NULL); break;
        default: status = fw_field_add_regex(form, "code", "[a-z]+", NULL); break;
        }
        if (status != FW_OK) failed = 1;
    }
    /* The last one fails the value: it is judged when added, after every other rule. */
    CHECK_OK(fw_field_add_min_length(form, "code", 5, "five at least"));
    double seconds = now_seconds() - start;
    CHECK(!failed);
    printf("construction_test: %d rules added to one field in %.2f s\n", FW_LIMIT_RULES_PER_FIELD, seconds);
    CHECK(seconds < 10.0);
    CHECK_OK(fw_field_touch(form, "code"));
    char message[64];
    CHECK_OK(fw_field_message(form, "code", message, sizeof message, NULL));
    CHECK(strcmp(message, "five at least") == 0);
    /* One past the limit: refused, and the field's verdict is as it was. */
    CHECK_STATUS(fw_field_add_required(form, "code", NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK(last_message_contains("FW_LIMIT_RULES_PER_FIELD"));
    CHECK_STATUS(fw_field_add_rule_json(form, "code", "{\"rule\": \"required\"}"), FW_ERR_INVALID_ARGUMENT);
    CHECK(last_message_contains("FW_LIMIT_RULES_PER_FIELD"));
    CHECK_OK(fw_field_set_value(form, "code", "abcdef"));
    fw_validity validity = FW_VALIDITY_EMPTY;
    CHECK_OK(fw_field_validity(form, "code", &validity));
    CHECK(validity == FW_VALIDITY_VALID);
    CHECK_OK(fw_form_free(form));
}

/* A spec of `fields` fields, each using one rule set of `set_rules` rules. */
static char *spec_with_rule_set(int fields, int set_rules) {
    size_t size = 128 + (size_t)set_rules * 40 + (size_t)fields * 64;
    char *spec = malloc(size);
    if (spec == NULL) return NULL;
    size_t at = (size_t)snprintf(spec, size, "{\"formwell\": 1, \"rule_sets\": {\"many\": [");
    for (int i = 0; i < set_rules; i++) {
        at += (size_t)snprintf(spec + at, size - at, "%s{\"rule\": \"min_length\", \"length\": %d}", i ? ", " : "", i % 7);
    }
    at += (size_t)snprintf(spec + at, size - at, "]}, \"fields\": [");
    for (int i = 0; i < fields; i++) {
        at += (size_t)snprintf(spec + at, size - at, "%s{\"id\": \"f%d\", \"rules\": [{\"rule\": \"set\", \"name\": \"many\"}]}",
                               i ? ", " : "", i);
    }
    snprintf(spec + at, size - at, "]}");
    return spec;
}

static void test_spec_expansion(void) {
    fw_form *form = NULL;
    CHECK_OK(fw_form_create(&form));
    char *spec = spec_with_rule_set(300, 1000);
    CHECK(spec != NULL);
    if (spec == NULL) return;
    double start = now_seconds();
    CHECK_OK(fw_form_load_spec(form, spec));
    double seconds = now_seconds() - start;
    printf("construction_test: a %zu-byte spec of 300 fields x a 1,000-rule set loaded in %.2f s\n", strlen(spec), seconds);
    CHECK(seconds < 10.0);
    CHECK(field_count(form) == 300);
    free(spec);
    CHECK_OK(fw_form_free(form));

    /* Past the spec's rule budget: refused before anything is built, and nothing loaded. */
    CHECK_OK(fw_form_create(&form));
    int fields = FW_LIMIT_RULES_PER_SPEC / 1000 + 1;
    spec = spec_with_rule_set(fields, 1000);
    CHECK(spec != NULL);
    if (spec == NULL) return;
    start = now_seconds();
    CHECK_STATUS(fw_form_load_spec(form, spec), FW_ERR_INVALID_SPEC);
    seconds = now_seconds() - start;
    CHECK(last_message_contains("FW_LIMIT_RULES_PER_SPEC"));
    printf("construction_test: a %zu-byte spec expanding to %d rules refused in %.3f s\n", strlen(spec), fields * 1000, seconds);
    CHECK(seconds < 2.0);
    CHECK(field_count(form) == 0);
    free(spec);

    /* A field whose rule sets pass the rules a field may have. */
    spec = spec_with_rule_set(1, 1000);
    CHECK(spec != NULL);
    if (spec == NULL) return;
    char *many = malloc(strlen(spec) + 200 * 40);
    CHECK(many != NULL);
    if (many != NULL) {
        /* The same set named 101 times on one field: 101,000 rules. */
        char *fields_at = strstr(spec, "\"fields\"");
        size_t head = (size_t)(fields_at - spec);
        memcpy(many, spec, head);
        size_t at = head + (size_t)sprintf(many + head, "\"fields\": [{\"id\": \"f\", \"rules\": [");
        for (int i = 0; i < 101; i++) at += (size_t)sprintf(many + at, "%s{\"rule\": \"set\", \"name\": \"many\"}", i ? ", " : "");
        sprintf(many + at, "]}]}");
        CHECK_STATUS(fw_form_load_spec(form, many), FW_ERR_INVALID_SPEC);
        CHECK(last_message_contains("FW_LIMIT_RULES_PER_FIELD"));
        CHECK(field_count(form) == 0);
        free(many);
    }
    free(spec);
    CHECK_OK(fw_form_free(form));
}

int main(void) {
    (void)check_field_at; /* check.h's per-property helper: not needed here */
    test_million_fields();
    test_many_rules_on_one_field();
    test_spec_expansion();
    return check_summary("construction_test");
}
