/* Messages as codes + parameters + locales through the C ABI. The fourth version of
   fw_snapshot (code, params, display_code, display_params, error_codes) and its growth rule and text
   buffer; fw_form_set_locale / fw_form_locale with the shipped French catalogue (plural rules
   included); fw_locales, fw_message_catalog and fw_add_message_catalog; fw_form_rule_code /
   fw_form_rule_params beside fw_form_check_batch (pattern_limit cells); fw_check_value. Every check
   is on values: exact texts, codes, parameters, lengths and where the texts went. */
#include <stdint.h>

#include "check.h"
#include "seed_rules.h"

#define SENTINEL 0x5A
#define P8 "{\"length\":8,\"unit\":\"graphemes\"}"
#define REQUIRED "This field is required"

/* The field's fourth-version snapshot, every byte of the struct and the buffer first a sentinel. */
static fw_snapshot snap(fw_form *form, const char *id, char *texts, size_t size) {
    fw_snapshot s;
    memset(&s, SENTINEL, sizeof s);
    memset(texts, SENTINEL, size);
    s.size = sizeof s;
    CHECK_OK(fw_field_snapshot(form, id, &s, texts, size));
    return s;
}

/* Compares a NUL-separated list (the snapshot's errors or error_codes: each item and its NUL, then one
   more NUL) of `size` bytes with `want` (the items with their NULs, as a literal "a\0b\0" spells them,
   want_size bytes). */
static int list_is(const char *block, size_t size, const char *want, size_t want_size) {
    return block != NULL && size == want_size && memcmp(block, want, want_size) == 0 && block[want_size] == '\0';
}

/* How many items a list of `size` bytes holds (its NULs). */
static size_t list_count(const char *block, size_t size) {
    size_t i, n = 0;
    for (i = 0; i < size; i++) n += block[i] == '\0';
    return n;
}

/* Checks the fourth version's members of a snapshot filled with a buffer big enough: each text and its
   length, the code list (laid out like the error list, one code per message), and where the texts went
   (after the normalised value, in order, text_size ending with the code list's final NUL). One check. */
static void check_codes_at(int line, const fw_snapshot *s, const char *texts, const char *code, const char *params,
                           const char *display_code, const char *display_params, const char *codes, size_t codes_size) {
    int ok = s->code != NULL && s->params != NULL && s->display_code != NULL && s->display_params != NULL
          && strcmp(s->code, code) == 0 && strcmp(s->params, params) == 0
          && strcmp(s->display_code, display_code) == 0 && strcmp(s->display_params, display_params) == 0
          && s->code_length == strlen(code) && s->params_length == strlen(params)
          && s->display_code_length == strlen(display_code) && s->display_params_length == strlen(display_params)
          && list_is(s->error_codes, s->error_codes_size, codes, codes_size)
          && list_count(s->error_codes, s->error_codes_size) == s->error_count
          && s->code == s->normalized + s->normalized_length + 1 && s->params == s->code + s->code_length + 1
          && s->display_code == s->params + s->params_length + 1
          && s->display_params == s->display_code + s->display_code_length + 1
          && s->error_codes == s->display_params + s->display_params_length + 1
          && s->text_size == (size_t)(s->error_codes + s->error_codes_size + 1 - texts)
          && s->message == texts;
    check_count++;
    if (!ok) {
        check_failures++;
        fprintf(stderr, "%s:%d: got code \"%s\" params %s display_code \"%s\" display_params %s (%zu code bytes, "
                "%zu errors, text_size %zu); expected \"%s\" %s \"%s\" %s (%zu code bytes)\n", __FILE__, line,
                s->code ? s->code : "(null)", s->params ? s->params : "(null)",
                s->display_code ? s->display_code : "(null)", s->display_params ? s->display_params : "(null)",
                s->error_codes_size, s->error_count, s->text_size, code, params, display_code, display_params,
                codes_size);
    }
}

/* CHECK_CODES(s, texts, code, params, display_code, display_params, "code\0list\0"): the list's
   size is the literal's without its own final NUL. */
#define CHECK_CODES(s, texts, code, params, dcode, dparams, list) \
    check_codes_at(__LINE__, &(s), texts, code, params, dcode, dparams, list, sizeof list - 1)

/* Everything observable about a form, as text (each field's fourth-version snapshot and its texts, the
   form's info and locale): a call that fails must leave it as it was. malloc'ed. */
static char *fingerprint(fw_form *form) {
    size_t count = 0, i, used = 0, size = 65536;
    char *out = malloc(size), locale[32];
    fw_form_info info;
    if (!out) return NULL;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if (fw_form_field_count(form, &count) != FW_OK || fw_form_get_info(form, &info) != FW_OK
        || fw_form_locale(form, locale, sizeof locale, NULL) != FW_OK) {
        free(out);
        return NULL;
    }
    used += (size_t)snprintf(out + used, size - used, "%zu fields, revision %llu, locale %s\n", count,
                             (unsigned long long)info.revision, locale);
    for (i = 0; i < count && used < size - 2048; i++) {
        fw_snapshot s;
        char texts[1024];
        memset(&s, 0, sizeof s);
        s.size = sizeof s;
        if (fw_field_snapshot_at(form, i, &s, texts, sizeof texts) != FW_OK) {
            free(out);
            return NULL;
        }
        used += (size_t)snprintf(out + used, size - used,
                                 "%zu: %d %d %d %d %d %d [%s] [%s] [%s] [%s] [%s] [%s] [%s] [%s] [%s] %zu %zu %llu\n",
                                 i, (int)s.phase, (int)s.validity, (int)s.display, (int)s.failing_rule, (int)s.touched,
                                 (int)s.limit_exceeded, s.message, s.display_message, s.value, s.hint, s.code, s.params,
                                 s.display_code, s.display_params, s.error_codes, s.error_codes_size, s.text_size,
                                 (unsigned long long)s.revision);
    }
    return out;
}

/* Asserts `form` shows exactly `before` (a fingerprint), then frees it. */
static void check_unchanged_at(int line, fw_form *form, char *before) {
    char *after = fingerprint(form);
    check_count++;
    if (!before || !after || strcmp(before, after) != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: the form changed:\n--- before\n%s--- after\n%s", __FILE__, line,
                before ? before : "(none)\n", after ? after : "(none)\n");
    }
    free(before);
    free(after);
}
#define CHECK_UNCHANGED(form, before) check_unchanged_at(__LINE__, form, before)

/* ---- the fourth version of fw_snapshot ---- */

static void snapshot_codes(void) {
    fw_form *form = NULL, *all = NULL;
    char texts[1024];
    fw_snapshot s, many[4];
    size_t count = 0, text_size = 0, total = 0, i;
    bool valid = true;

    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "password", "Password", NULL));
    CHECK_OK(fw_field_add_required(form, "password", NULL));
    CHECK_OK(fw_field_add_min_length(form, "password", 8, NULL));
    CHECK_OK(fw_form_add_field(form, "name", "Name", NULL));
    CHECK_OK(fw_field_add_required(form, "name", NULL));
    CHECK_OK(fw_form_add_field(form, "email", "Email", NULL));
    CHECK_OK(fw_field_add_email(form, "email", NULL));

    /* Idle: nothing failing, nothing shown. */
    s = snap(form, "password", texts, sizeof texts);
    CHECK(s.validity == FW_VALIDITY_EMPTY && s.error_count == 0);
    CHECK_CODES(s, texts, "", "{}", "", "{}", "");

    /* Typed while focused and untouched: the input validity fails min_length (lenient stage), nothing
       is shown, so the display code is empty. */
    CHECK_OK(fw_field_focus(form, "password"));
    CHECK_OK(fw_field_set_value(form, "password", "abc"));
    s = snap(form, "password", texts, sizeof texts);
    CHECK(s.phase == FW_PHASE_FOCUSED && s.validity == FW_VALIDITY_INVALID && s.display == FW_DISPLAY_NONE);
    CHECK(s.failing_rule == 1);
    CHECK_CODES(s, texts, "min_length", P8, "", "{}", "min_length\0");

    /* Blurred: shown; the parameters after defaults (the unit), keys sorted. */
    CHECK_OK(fw_field_blur(form, "password"));
    s = snap(form, "password", texts, sizeof texts);
    CHECK(s.validity == FW_VALIDITY_INVALID && s.display == FW_DISPLAY_ERROR);
    CHECK_STR(s.message, "Must be at least 8 characters");
    CHECK_STR(s.hint, "Enter at least 8 characters");
    CHECK_CODES(s, texts, "min_length", P8, "min_length", P8, "min_length\0");

    /* Required on an empty blurred field. */
    CHECK_OK(fw_field_focus(form, "name"));
    CHECK_OK(fw_field_blur(form, "name"));
    s = snap(form, "name", texts, sizeof texts);
    CHECK(s.validity == FW_VALIDITY_INVALID && s.display == FW_DISPLAY_ERROR && s.failing_rule == 0);
    CHECK_STR(s.message, REQUIRED);
    CHECK_CODES(s, texts, "required", "{}", "required", "{}", "required\0");

    /* Focused again, empty and touched: the lenient stage judges nothing (code ""), the display
       still shows the requirement (display code "required"). */
    CHECK_OK(fw_field_focus(form, "name"));
    s = snap(form, "name", texts, sizeof texts);
    CHECK(s.phase == FW_PHASE_FOCUSED && s.validity == FW_VALIDITY_EMPTY && s.display == FW_DISPLAY_ERROR);
    CHECK_STR(s.message, "");
    CHECK_STR(s.display_message, REQUIRED);
    CHECK_CODES(s, texts, "", "{}", "required", "{}", "");
    CHECK_FIELD(form, "name", FW_PHASE_FOCUSED, FW_VALIDITY_EMPTY, "", FW_DISPLAY_ERROR, REQUIRED, true);

    /* A valid field: "" and "{}". */
    CHECK_OK(fw_field_set_value(form, "email", "ada@example.com"));
    CHECK_OK(fw_field_touch(form, "email"));
    s = snap(form, "email", texts, sizeof texts);
    CHECK(s.validity == FW_VALIDITY_VALID && s.display == FW_DISPLAY_VALID);
    CHECK_CODES(s, texts, "", "{}", "", "{}", "");

    /* An external error: code "external", no parameters; cleared, back to "". */
    CHECK_OK(fw_field_set_error(form, "email", "Address taken"));
    s = snap(form, "email", texts, sizeof texts);
    CHECK(s.validity == FW_VALIDITY_INVALID && s.display == FW_DISPLAY_ERROR && s.external_error && s.failing_rule == -1);
    CHECK_STR(s.message, "Address taken");
    CHECK_STR(s.hint, "Correct this field");
    CHECK_CODES(s, texts, "external", "{}", "external", "{}", "external\0");
    CHECK_OK(fw_field_clear_error(form, "email"));
    s = snap(form, "email", texts, sizeof texts);
    CHECK_CODES(s, texts, "", "{}", "", "{}", "");

    /* Error mode all: every failing rule's code, aligned with the messages. */
    CHECK_OK(fw_form_add_field(form, "pin", NULL, NULL));
    CHECK_OK(fw_field_add_min_length(form, "pin", 8, NULL));
    CHECK_OK(fw_field_add_regex(form, "pin", "^\\d+$", NULL));
    CHECK_OK(fw_field_set_value(form, "pin", "abc"));
    CHECK_OK(fw_field_touch(form, "pin"));
    CHECK_OK(fw_form_set_error_mode(form, FW_ERRORS_ALL));
    s = snap(form, "pin", texts, sizeof texts);
    CHECK(s.error_count == 2 && s.failing_rule == 0);
    CHECK(list_is(s.errors, s.errors_size, "Must be at least 8 characters\0Invalid format\0", 45));
    CHECK_CODES(s, texts, "min_length", P8, "min_length", P8, "min_length\0regex\0");
    /* Only the pattern fails: its parameters, the pattern JSON-escaped. */
    CHECK_OK(fw_field_set_value(form, "pin", "1234567x"));
    s = snap(form, "pin", texts, sizeof texts);
    CHECK(s.error_count == 1 && s.failing_rule == 1);
    CHECK_CODES(s, texts, "regex", "{\"pattern\":\"^\\\\d+$\"}", "regex", "{\"pattern\":\"^\\\\d+$\"}", "regex\0");
    CHECK_OK(fw_field_set_value(form, "pin", "abc"));
    CHECK_OK(fw_form_set_error_mode(form, FW_ERRORS_FIRST));
    s = snap(form, "pin", texts, sizeof texts);
    CHECK_CODES(s, texts, "min_length", P8, "min_length", P8, "min_length\0");

    /* fw_form_snapshots: each field's texts, the fourth version's included, one field after the other. */
    for (i = 0; i < 4; i++) {
        memset(&many[i], SENTINEL, sizeof many[i]);
        many[i].size = sizeof many[i];
    }
    CHECK_OK(fw_form_snapshots(form, many, 4, &count, texts, sizeof texts, &text_size));
    CHECK(count == 4);
    for (i = 0; i < 4; i++) {
        CHECK(many[i].message == texts + total);
        CHECK(many[i].text_size == (size_t)(many[i].error_codes + many[i].error_codes_size + 1 - many[i].message));
        total += many[i].text_size;
    }
    CHECK(text_size == total);
    CHECK_STR(many[0].code, "min_length");
    CHECK_STR(many[1].display_code, "required");
    CHECK_STR(many[1].code, "");
    CHECK_STR(many[2].params, "{}");
    CHECK_STR(many[3].error_codes, "min_length");

    /* A submit: a focused field keeps its focus (and its lenient verdict: code ""), the display code
       says what is shown. */
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid);
    s = snap(form, "name", texts, sizeof texts);
    CHECK(s.phase == FW_PHASE_FOCUSED && s.validity == FW_VALIDITY_EMPTY && s.display == FW_DISPLAY_ERROR);
    CHECK_CODES(s, texts, "", "{}", "required", "{}", "");
    CHECK_OK(fw_field_blur(form, "name"));
    s = snap(form, "name", texts, sizeof texts);
    CHECK_CODES(s, texts, "required", "{}", "required", "{}", "required\0");
    CHECK_OK(fw_form_free(form));

    /* Error mode all from the spec key "errors": "all". */
    CHECK_OK(fw_form_create(&all));
    CHECK_OK(fw_form_load_spec(all, "{\"formwell\": 1, \"errors\": \"all\", \"fields\": [{\"id\": \"code\", \"rules\": "
                                    "[{\"rule\": \"required\"}, {\"rule\": \"min_length\", \"length\": 8}, "
                                    "{\"rule\": \"regex\", \"pattern\": \"^[0-9]+$\"}]}]}"));
    CHECK_OK(fw_field_set_value(all, "code", "abc"));
    CHECK_OK(fw_field_touch(all, "code"));
    s = snap(all, "code", texts, sizeof texts);
    CHECK(s.error_count == 2 && s.failing_rule == 1);
    CHECK(list_is(s.errors, s.errors_size, "Must be at least 8 characters\0Invalid format\0", 45));
    CHECK_CODES(s, texts, "min_length", P8, "min_length", P8, "min_length\0regex\0");
    CHECK(s.error_codes_size == 17 && memcmp(s.error_codes, "min_length\0regex\0\0", 18) == 0);
    /* An empty value fails required alone. */
    CHECK_OK(fw_field_set_value(all, "code", ""));
    s = snap(all, "code", texts, sizeof texts);
    CHECK_CODES(s, texts, "required", "{}", "required", "{}", "required\0");
    CHECK_OK(fw_form_free(all));
}

/* ---- the growth rule: callers of the third version, between versions, and of a later one ---- */

static void growth_rule(void) {
    union {
        fw_snapshot s;
        unsigned char bytes[sizeof(fw_snapshot) + 32];
    } m;
    fw_form *form = NULL;
    char texts[512], more[512];
    fw_snapshot v4, many[2];
    const size_t v3 = TEST_SNAPSHOT_V3_SIZE;
    size_t v3_text = 0, count = 0, text_size = 0, sizes[3], k;
    CHECK(v3 % 8 == 0 && v3 < TEST_SNAPSHOT_V4_SIZE && TEST_SNAPSHOT_V4_SIZE == sizeof(fw_snapshot));
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "password", "Password", NULL));
    CHECK_OK(fw_field_add_min_length(form, "password", 8, NULL));
    CHECK_OK(fw_field_set_value(form, "password", "abc"));
    CHECK_OK(fw_field_touch(form, "password"));
    v4 = snap(form, "password", more, sizeof more);
    CHECK_CODES(v4, more, "min_length", P8, "min_length", P8, "min_length\0");

    /* A third-version caller: nothing written past `normalized`, texts ending with the normalised value. */
    memset(&m, SENTINEL, sizeof m);
    memset(texts, SENTINEL, sizeof texts);
    m.s.size = v3;
    CHECK_OK(fw_field_snapshot(form, "password", &m.s, texts, sizeof texts));
    CHECK(m.s.size == v3 && m.s.validity == FW_VALIDITY_INVALID && m.s.failing_rule == 0);
    CHECK_STR(m.s.normalized, "abc");
    CHECK(all_bytes(m.bytes + v3, sizeof m - v3, SENTINEL));
    v3_text = m.s.text_size;
    CHECK(v3_text == (size_t)(m.s.normalized + m.s.normalized_length + 1 - texts));
    CHECK(all_bytes(texts + v3_text, sizeof texts - v3_text, SENTINEL));
    CHECK(v3_text < v4.text_size && v4.text_size == v3_text + snapshot_v4_text_bytes(&v4));
    CHECK(v4.text_size - v3_text == 11 + 32 + 11 + 32 + 12);
    /* The same through fw_field_update_at and fw_form_snapshots (stride v3). */
    memset(&m, SENTINEL, sizeof m);
    m.s.size = v3;
    CHECK_OK(fw_field_update_at(form, 0, "abcd", &m.s, texts, sizeof texts));
    CHECK_STR(m.s.value, "abcd");
    CHECK(all_bytes(m.bytes + v3, sizeof m - v3, SENTINEL));
    memset(&m, SENTINEL, sizeof m);
    m.s.size = v3;
    CHECK_OK(fw_form_snapshots(form, &m.s, 1, &count, texts, sizeof texts, &text_size));
    CHECK(count == 1 && text_size == v3_text + 2 && all_bytes(m.bytes + v3, sizeof m - v3, SENTINEL)); /* "abcd" twice */

    /* Sizes between the third and fourth versions (multiples of 8): the third version's members only. */
    sizes[0] = v3 + 8;
    sizes[1] = TEST_SNAPSHOT_V4_SIZE - 8;
    sizes[2] = offsetof(fw_snapshot, code);
    for (k = 0; k < 3; k++) {
        memset(&m, SENTINEL, sizeof m);
        m.s.size = sizes[k];
        CHECK_OK(fw_field_snapshot(form, "password", &m.s, texts, sizeof texts));
        CHECK(m.s.text_size == v3_text + 2 && all_bytes(m.bytes + v3, sizeof m - v3, SENTINEL));
    }

    /* A later version's caller (32 bytes more): the fourth version's members, nothing after them. */
    memset(&m, SENTINEL, sizeof m);
    m.s.size = sizeof m;
    CHECK_OK(fw_field_snapshot(form, "password", &m.s, texts, sizeof texts));
    CHECK(m.s.size == sizeof m && m.s.text_size == v4.text_size + 2);
    CHECK_STR(m.s.code, "min_length");
    CHECK_STR(m.s.error_codes, "min_length");
    CHECK(all_bytes(m.bytes + sizeof(fw_snapshot), sizeof m - sizeof(fw_snapshot), SENTINEL));

    /* fw_form_snapshots with a fourth-version array: the v4 members of every element. */
    CHECK_OK(fw_form_add_field(form, "other", NULL, "x"));
    memset(many, SENTINEL, sizeof many);
    many[0].size = many[1].size = sizeof(fw_snapshot);
    CHECK_OK(fw_form_snapshots(form, many, 2, &count, texts, sizeof texts, &text_size));
    CHECK(count == 2 && text_size == many[0].text_size + many[1].text_size);
    CHECK_STR(many[0].display_params, P8);
    CHECK_STR(many[1].code, "");
    CHECK(many[1].error_codes_size == 0 && many[1].error_codes[0] == '\0');
    CHECK_OK(fw_form_free(form));
}

/* ---- a text buffer too small for the fourth version's texts ---- */

static void buffer_too_small(void) {
    fw_form *form = NULL;
    char texts[512], *exact;
    fw_snapshot full, s, v3s;
    size_t need, v3_text;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "password", "Password", NULL));
    CHECK_OK(fw_field_add_min_length(form, "password", 8, NULL));
    CHECK_OK(fw_field_set_value(form, "password", "abc"));
    CHECK_OK(fw_field_touch(form, "password"));
    full = snap(form, "password", texts, sizeof texts);
    need = full.text_size;
    memset(&v3s, 0, sizeof v3s);
    v3s.size = TEST_SNAPSHOT_V3_SIZE;
    CHECK_OK(fw_field_snapshot(form, "password", &v3s, NULL, 0));
    v3_text = v3s.text_size;

    /* NULL and 0: no text, every pointer NULL, FW_OK, text_size the size needed. */
    memset(&s, SENTINEL, sizeof s);
    s.size = sizeof s;
    CHECK_OK(fw_field_snapshot(form, "password", &s, NULL, 0));
    CHECK(s.text_size == need && s.message == NULL && s.normalized == NULL && s.code == NULL && s.params == NULL
          && s.display_code == NULL && s.display_params == NULL && s.error_codes == NULL);
    CHECK(s.code_length == 10 && s.params_length == strlen(P8) && s.error_codes_size == 11);

    /* Room for the first three versions' texts only: those copied, the fourth's NULL, every member filled. */
    memset(&s, SENTINEL, sizeof s);
    memset(texts, SENTINEL, sizeof texts);
    s.size = sizeof s;
    CHECK_STATUS(fw_field_snapshot(form, "password", &s, texts, v3_text), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(s.text_size == need && s.validity == FW_VALIDITY_INVALID && s.display == FW_DISPLAY_ERROR);
    CHECK(s.message == texts && s.normalized != NULL && s.errors != NULL);
    CHECK_STR(s.message, "Must be at least 8 characters");
    CHECK_STR(s.normalized, "abc");
    CHECK(s.code == NULL && s.params == NULL && s.display_code == NULL && s.display_params == NULL
          && s.error_codes == NULL);
    CHECK(s.code_length == 10 && s.params_length == 31 && s.display_code_length == 10 && s.display_params_length == 31
          && s.error_codes_size == 11);
    CHECK(all_bytes(texts + v3_text, sizeof texts - v3_text, SENTINEL));
    /* The code fits, the parameters do not: the code copied, the rest NULL. */
    memset(&s, SENTINEL, sizeof s);
    s.size = sizeof s;
    CHECK_STATUS(fw_field_snapshot(form, "password", &s, texts, v3_text + 11 + 31), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(s.code == texts + v3_text && s.params == NULL && s.display_code == NULL && s.error_codes == NULL);
    CHECK_STR(s.code, "min_length");
    /* One byte short: only the code list is missing. */
    memset(&s, SENTINEL, sizeof s);
    s.size = sizeof s;
    CHECK_STATUS(fw_field_update(form, "password", "abc", &s, texts, need - 1), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(s.display_params != NULL && s.error_codes == NULL && s.text_size == need);
    CHECK_STR(s.display_params, P8);
    /* Retrying with text_size succeeds, in a buffer of exactly that size. */
    exact = malloc(need);
    if (exact != NULL) {
        memset(&s, SENTINEL, sizeof s);
        s.size = sizeof s;
        CHECK_OK(fw_field_snapshot(form, "password", &s, exact, need));
        CHECK_CODES(s, exact, "min_length", P8, "min_length", P8, "min_length\0");
        free(exact);
    }
    CHECK_OK(fw_form_free(form));
}

/* ---- locales ---- */

static void locales(void) {
    fw_form *form = NULL, *spec = NULL;
    char texts[1024], tag[16], said[256], english_params[64];
    fw_snapshot s;
    size_t length = 99;
    bool valid = true;
    static const char *const unknown[] = {"xx", "", "zz-FR", "fr--CA", "-fr", "1fr", "fr CA", "french-language", "e"};
    size_t k;

    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "password", "Password", NULL));
    CHECK_OK(fw_field_add_min_length(form, "password", 8, NULL));
    CHECK_OK(fw_form_add_field(form, "initial", "Initial", NULL));
    CHECK_OK(fw_field_add_max_length(form, "initial", 1, NULL));
    CHECK_OK(fw_form_add_field(form, "none", NULL, NULL));
    CHECK_OK(fw_field_add_max_length(form, "none", 0, NULL));
    CHECK_OK(fw_field_set_value(form, "password", "abc"));
    CHECK_OK(fw_field_set_value(form, "initial", "ab"));
    CHECK_OK(fw_field_set_value(form, "none", "ab"));
    CHECK_OK(fw_form_touch_all(form));
    CHECK_OK(fw_form_locale(form, tag, sizeof tag, &length));
    CHECK_STR(tag, "en");
    CHECK(length == 2);

    /* English: the plural agrees with the count (one exactly for 1). */
    s = snap(form, "password", texts, sizeof texts);
    CHECK_STR(s.message, "Must be at least 8 characters");
    CHECK(strlen(s.params) < sizeof english_params);
    strcpy(english_params, s.params);
    s = snap(form, "initial", texts, sizeof texts);
    CHECK_STR(s.message, "Must be 1 character or fewer");
    CHECK_STR(s.hint, "Enter at most 1 character");
    CHECK_CODES(s, texts, "max_length", "{\"length\":1,\"unit\":\"graphemes\"}", "max_length",
                "{\"length\":1,\"unit\":\"graphemes\"}", "max_length\0");
    s = snap(form, "none", texts, sizeof texts);
    CHECK_STR(s.message, "Must be 0 characters or fewer");

    /* French through a regional tag: matched by dropping the subtag. */
    CHECK_OK(fw_form_set_locale(form, "fr-CA"));
    length = 99;
    CHECK_OK(fw_form_locale(form, tag, sizeof tag, &length));
    CHECK_STR(tag, "fr");
    CHECK(length == 2);
    s = snap(form, "password", texts, sizeof texts);
    CHECK_STR(s.message, "Au moins 8 caract\xc3\xa8res");
    CHECK_STR(s.display_message, "Au moins 8 caract\xc3\xa8res");
    CHECK_STR(s.hint, "Saisissez au moins 8 caract\xc3\xa8res");
    CHECK(list_is(s.errors, s.errors_size, "Au moins 8 caract\xc3\xa8res\0", 23));
    /* Codes and parameters do not change with the locale. */
    CHECK_CODES(s, texts, "min_length", P8, "min_length", P8, "min_length\0");
    CHECK_STR(s.params, english_params);
    /* French plural: one for 0 and 1. */
    s = snap(form, "initial", texts, sizeof texts);
    CHECK_STR(s.message, "Au plus 1 caract\xc3\xa8re");
    CHECK_STR(s.hint, "Saisissez au plus 1 caract\xc3\xa8re");
    CHECK_CODES(s, texts, "max_length", "{\"length\":1,\"unit\":\"graphemes\"}", "max_length",
                "{\"length\":1,\"unit\":\"graphemes\"}", "max_length\0");
    s = snap(form, "none", texts, sizeof texts);
    CHECK_STR(s.message, "Au plus 0 caract\xc3\xa8re");
    CHECK_STR(s.params, "{\"length\":0,\"unit\":\"graphemes\"}");
    /* The batch path's rule messages and the announcement speak French too. */
    CHECK_OK(fw_form_rule_message(form, 0, 0, said, sizeof said, NULL));
    CHECK_STR(said, "Au moins 8 caract\xc3\xa8res");
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid);
    CHECK_OK(fw_form_announcement(form, said, sizeof said, NULL));
    CHECK_STR(said, "3 champs \xc3\xa0 corriger : Password, Initial, none");
    CHECK_OK(fw_form_set_locale(form, "en"));
    CHECK_OK(fw_form_announcement(form, said, sizeof said, NULL));
    CHECK_STR(said, "3 fields need attention: Password, Initial, none");
    CHECK_OK(fw_form_set_locale(form, "fr"));

    /* Unknown tags: refused, the form exactly as it was (French). */
    for (k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
        char *before = fingerprint(form);
        CHECK_STATUS(fw_form_set_locale(form, unknown[k]), FW_ERR_INVALID_ARGUMENT);
        CHECK_OK(fw_last_error_message(said, sizeof said, NULL));
        CHECK(strstr(said, "no message catalogue") != NULL);
        CHECK_UNCHANGED(form, before);
    }
    /* Setting the locale it has changes nothing either (not even the revision). */
    {
        char *before = fingerprint(form);
        CHECK_OK(fw_form_set_locale(form, "fr-FR"));
        CHECK_UNCHANGED(form, before);
    }
    CHECK_OK(fw_form_locale(form, tag, sizeof tag, NULL));
    CHECK_STR(tag, "fr");

    /* Back to English. Tags are matched case-insensitively, with _ read as -. */
    CHECK_OK(fw_form_set_locale(form, "en"));
    s = snap(form, "password", texts, sizeof texts);
    CHECK_STR(s.message, "Must be at least 8 characters");
    CHECK_STR(s.hint, "Enter at least 8 characters");
    CHECK_STR(s.params, english_params);
    CHECK_OK(fw_form_set_locale(form, "FR_be"));
    CHECK_OK(fw_form_locale(form, tag, sizeof tag, NULL));
    CHECK_STR(tag, "fr");
    CHECK_OK(fw_form_set_locale(form, "EN-gb"));
    CHECK_OK(fw_form_locale(form, tag, sizeof tag, NULL));
    CHECK_STR(tag, "en");
    CHECK_STR(snap(form, "initial", texts, sizeof texts).message, "Must be 1 character or fewer");

    /* fw_form_locale's buffer: too small, a size query, NULL with a size. */
    CHECK_OK(fw_form_set_locale(form, "fr"));
    length = 0;
    CHECK_STATUS(fw_form_locale(form, tag, 2, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(length == 2);
    CHECK_STR(tag, "f");
    length = 0;
    CHECK_OK(fw_form_locale(form, NULL, 0, &length));
    CHECK(length == 2);
    CHECK_STATUS(fw_form_locale(form, NULL, 3, &length), FW_ERR_NULL_ARGUMENT);
    CHECK_OK(fw_form_free(form));

    /* The spec's top-level "locale". */
    CHECK_OK(fw_form_create(&spec));
    CHECK_OK(fw_form_load_spec(spec, "{\"formwell\": 1, \"locale\": \"fr\", \"fields\": [{\"id\": \"name\", "
                                     "\"rules\": [{\"rule\": \"required\"}]}]}"));
    CHECK_OK(fw_form_locale(spec, tag, sizeof tag, NULL));
    CHECK_STR(tag, "fr");
    CHECK_OK(fw_field_touch(spec, "name"));
    s = snap(spec, "name", texts, sizeof texts);
    CHECK_STR(s.message, "Ce champ est obligatoire");
    CHECK_STR(s.hint, "Saisissez une valeur");
    CHECK_CODES(s, texts, "required", "{}", "required", "{}", "required\0");
    CHECK_STATUS(fw_form_load_spec(spec, "{\"formwell\": 1, \"locale\": \"xx\", \"fields\": []}"), FW_ERR_INVALID_SPEC);
    CHECK_OK(fw_form_free(spec));
}

/* ---- the catalogues: listing, reading ---- */

/* Whether the JSON text has the member "key": "value" (whatever white space around the colon). */
static int has_member(const char *json, const char *key, const char *value) {
    char quoted[64];
    const char *at = json;
    size_t n;
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    while ((at = strstr(at, quoted)) != NULL) {
        const char *p = at + strlen(quoted);
        at++;
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
        if (*p++ != ':') continue;
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
        n = strlen(value);
        if (p[0] == '"' && strncmp(p + 1, value, n) == 0 && p[n + 1] == '"') return 1;
    }
    return 0;
}

static void catalogues(void) {
    char buf[64], *full, *again;
    size_t length = 0, size = 0, i, cut = 0;
    /* The shipped catalogues (before catalogue_added adds one). */
    CHECK_OK(fw_locales(buf, sizeof buf, &length));
    CHECK_STR(buf, "[\"en\",\"fr\"]");
    CHECK(length == 11);
    length = 0;
    CHECK_OK(fw_locales(NULL, 0, &length));
    CHECK(length == 11);
    CHECK_OK(fw_locales(NULL, 0, NULL));
    length = 0;
    CHECK_STATUS(fw_locales(buf, 5, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(length == 11);
    CHECK_STR(buf, "[\"en");
    CHECK_STATUS(fw_locales(buf, 11, &length), FW_ERR_BUFFER_TOO_SMALL); /* no room for the NUL */
    CHECK_STR(buf, "[\"en\",\"fr\"");
    CHECK_STATUS(fw_locales(NULL, 5, &length), FW_ERR_NULL_ARGUMENT);

    /* fw_message_catalog: sized, then read whole. */
    CHECK_OK(fw_message_catalog("fr", NULL, 0, &size));
    CHECK(size > 1000);
    full = malloc(size + 1);
    again = malloc(size + 1);
    if (full == NULL || again == NULL) {
        free(full);
        free(again);
        return;
    }
    CHECK_OK(fw_message_catalog("fr", full, size + 1, &length));
    CHECK(length == size && strlen(full) == size);
    CHECK(has_member(full, "locale", "fr"));
    CHECK(has_member(full, "plurals", "one_is_0_or_1"));
    CHECK(has_member(full, "language", "Fran\xc3\xa7" "ais"));
    CHECK(strstr(full, "\"Au moins {length} {units}\"") != NULL);
    CHECK(strstr(full, "\"Ce champ est obligatoire\"") != NULL);
    /* A regional tag reads the same catalogue. */
    CHECK_OK(fw_message_catalog("fr-CA", again, size + 1, NULL));
    CHECK_STR(again, full);
    /* Too small: the longest prefix of whole UTF-8 characters, the length needed. Cut inside the first
       multi-byte character ("Français"): its first byte would fit, it is left out. */
    for (i = 0; i < size && cut == 0; i++) {
        if ((unsigned char)full[i] >= 0xC0) cut = i;
    }
    CHECK(cut > 0);
    length = 0;
    memset(again, SENTINEL, size + 1);
    CHECK_STATUS(fw_message_catalog("fr", again, cut + 2, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(length == size && strlen(again) == cut && memcmp(again, full, cut) == 0);
    CHECK_STATUS(fw_message_catalog("fr", again, size, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(strlen(again) == size - 1 && memcmp(again, full, size - 1) == 0);
    CHECK_STATUS(fw_message_catalog("fr", NULL, 4, &length), FW_ERR_NULL_ARGUMENT);
    /* English, and unknown tags: "" left in the buffer. */
    CHECK_OK(fw_message_catalog("en", NULL, 0, &size));
    free(full);
    full = malloc(size + 1);
    if (full != NULL) {
        CHECK_OK(fw_message_catalog("en", full, size + 1, NULL));
        CHECK(has_member(full, "locale", "en"));
        CHECK(strstr(full, "\"Must be at least {length} {units}\"") != NULL);
        CHECK(strstr(full, "\"pattern_limit\"") != NULL);
    }
    strcpy(buf, "stale");
    CHECK_STATUS(fw_message_catalog("xx", buf, sizeof buf, &length), FW_ERR_INVALID_ARGUMENT);
    CHECK_STR(buf, "");
    CHECK_STATUS(fw_message_catalog("", buf, sizeof buf, &length), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_message_catalog(NULL, buf, sizeof buf, &length), FW_ERR_NULL_ARGUMENT);
    free(full);
    free(again);
}

/* ---- a catalogue added at run time ---- */

#define GERMAN "{\"locale\":\"de\",\"plurals\":\"one_is_1\",\"failures\":{\"required\":{\"message\":\"Dieses Feld ist " \
               "erforderlich\"},\"min_length\":{\"message\":\"Mindestens {length} {units}\"}},\"units\":{\"graphemes\":" \
               "\"{count, plural, one {Zeichen} other {Zeichen}}\"}}"

static void catalogue_added(void) {
    static const struct { const char *json; const char *path; } refused[] = {
        {"{\"locale\": \"de\"", "end of input"},
        {"[]", "a message catalogue is a JSON object"},
        {"{\"locale\": \"de\", \"failures\": {\"nope\": {\"message\": \"x\"}}}", "failures.nope"},
        {"{\"locale\": \"de\", \"plurals\": \"two_is_2\"}", "plurals"},
        {"{\"locale\": \"de\", \"colour\": 1}", "colour"},
        {"{\"locale\": \"1de\"}", "locale"},
        {"{\"plurals\": \"one_is_1\"}", "locale"},
        {"{\"locale\": \"de\", \"units\": {\"furlongs\": \"x\"}}", "units.furlongs"},
        {"{\"locale\": \"de\", \"failures\": {\"required\": {\"messag\": \"x\"}}}", "failures.required.messag"},
        {"{\"locale\": \"de\", \"failures\": {\"required\": {\"message\": []}}}", "failures.required.message"},
        {"{\"locale\": \"de\", \"failures\": {\"required\": {\"message\": [\"a\", 1]}}}", "failures.required.message[1]"},
        {"{\"locale\": \"de\", \"failures\": {\"required\": \"x\"}}", "failures.required"},
        {"{\"locale\": \"de\", \"language\": 7}", "language"},
    };
    fw_form *form = NULL;
    char texts[1024], buf[64], detail[512], *catalog;
    fw_snapshot s;
    size_t k, size = 0;
    CHECK_OK(fw_add_message_catalog(GERMAN));
    CHECK_OK(fw_locales(buf, sizeof buf, NULL));
    CHECK_STR(buf, "[\"de\",\"en\",\"fr\"]");

    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "name", "Name", NULL));
    CHECK_OK(fw_field_add_required(form, "name", NULL));
    CHECK_OK(fw_form_add_field(form, "email", "E-Mail", NULL));
    CHECK_OK(fw_field_add_email(form, "email", NULL));
    CHECK_OK(fw_form_add_field(form, "pw", NULL, NULL));
    CHECK_OK(fw_field_add_min_length(form, "pw", 8, NULL));
    CHECK_OK(fw_field_set_value(form, "email", "nope"));
    CHECK_OK(fw_field_set_value(form, "pw", "abc"));
    CHECK_OK(fw_form_touch_all(form));
    CHECK_OK(fw_form_set_locale(form, "de-AT"));
    CHECK_OK(fw_form_locale(form, buf, sizeof buf, NULL));
    CHECK_STR(buf, "de");
    s = snap(form, "name", texts, sizeof texts);
    CHECK_STR(s.message, "Dieses Feld ist erforderlich");
    CHECK_STR(s.hint, "Enter a value"); /* the catalogue has no hint: English's */
    CHECK_CODES(s, texts, "required", "{}", "required", "{}", "required\0");
    s = snap(form, "email", texts, sizeof texts);
    CHECK_STR(s.message, "Invalid email format"); /* left out: English */
    CHECK_CODES(s, texts, "email", "{}", "email", "{}", "email\0");
    s = snap(form, "pw", texts, sizeof texts);
    CHECK_STR(s.message, "Mindestens 8 Zeichen");
    CHECK_CODES(s, texts, "min_length", P8, "min_length", P8, "min_length\0");
    /* Its JSON: its own texts and English's for the rest. */
    CHECK_OK(fw_message_catalog("de", NULL, 0, &size));
    catalog = malloc(size + 1);
    if (catalog != NULL) {
        CHECK_OK(fw_message_catalog("de", catalog, size + 1, NULL));
        CHECK(has_member(catalog, "locale", "de"));
        CHECK(strstr(catalog, "\"Dieses Feld ist erforderlich\"") != NULL);
        CHECK(strstr(catalog, "\"Invalid email format\"") != NULL);
        free(catalog);
    }

    /* Refused catalogues: FW_ERR_INVALID_SPEC naming the path, nothing registered or changed. */
    for (k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        char *before = fingerprint(form);
        CHECK_STATUS(fw_add_message_catalog(refused[k].json), FW_ERR_INVALID_SPEC);
        CHECK_OK(fw_last_error_message(detail, sizeof detail, NULL));
        check_count++;
        if (strstr(detail, refused[k].path) == NULL) {
            check_failures++;
            fprintf(stderr, "%s:%d: catalogue %zu: detail \"%s\" does not name \"%s\"\n", __FILE__, __LINE__, k, detail,
                    refused[k].path);
        }
        CHECK_UNCHANGED(form, before);
    }
    CHECK_OK(fw_locales(buf, sizeof buf, NULL));
    CHECK_STR(buf, "[\"de\",\"en\",\"fr\"]");
    CHECK_STATUS(fw_add_message_catalog(NULL), FW_ERR_NULL_ARGUMENT);

    /* Replaced: a form keeps the catalogue it has until its locale is set again. */
    CHECK_OK(fw_add_message_catalog("{\"locale\": \"de\", \"failures\": {\"required\": {\"message\": \"Pflichtfeld\", "
                                    "\"hint\": \"Bitte ausf\xc3\xbcllen\"}}}"));
    CHECK_OK(fw_field_set_value(form, "name", "x"));
    CHECK_OK(fw_field_set_value(form, "name", ""));
    CHECK_STR(snap(form, "name", texts, sizeof texts).message, "Dieses Feld ist erforderlich");
    CHECK_OK(fw_form_set_locale(form, "de"));
    s = snap(form, "name", texts, sizeof texts);
    CHECK_STR(s.message, "Pflichtfeld");
    CHECK_STR(s.hint, "Bitte ausf\xc3\xbcllen");
    /* The replacement left min_length out: English now, the unit nouns English too. */
    CHECK_STR(snap(form, "pw", texts, sizeof texts).message, "Must be at least 8 characters");
    CHECK_OK(fw_locales(buf, sizeof buf, NULL));
    CHECK_STR(buf, "[\"de\",\"en\",\"fr\"]");
    /* Put the first German catalogue back (as other tests of this process expect nothing of it). */
    CHECK_OK(fw_add_message_catalog(GERMAN));
    CHECK_OK(fw_form_free(form));
}

/* ---- rule codes and parameters, with batch results ---- */

/* The code of a batch cell: "" when it passes, "pattern_limit" when flagged, else the failing rule's. */
static void cell_code(fw_form *form, size_t field, int32_t rule, uint8_t flags, char *out, size_t size) {
    out[0] = '\0';
    if (rule < 0) return;
    if (flags & FW_CELL_LIMIT_EXCEEDED) {
        snprintf(out, size, "pattern_limit");
        return;
    }
    CHECK_OK(fw_form_rule_code(form, field, (size_t)rule, out, size, NULL));
}

static void rule_codes(void) {
    /* Records: user, mail, pin. */
    static const char *const values[4][3] = {
        {"ab", "a@b.co", "aaa"},
        {"", "x", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaab"},
        {"abc1", "", ""},
        {"abcd", "ada@example.com", "aaaa"},
    };
    static const char *const want[4][3] = {
        {"min_length", "", ""},
        {"required", "email", "pattern_limit"},
        {"regex", "", ""},
        {"", "", ""},
    };
    fw_form *form = NULL;
    char buf[128], data[3][256], code[32], texts[512];
    int32_t offsets[3][5], rules[20];
    uint8_t valid[4], flags[20];
    fw_column columns[3];
    size_t length = 0, invalid = 0, r, f, at;
    fw_snapshot s;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "user", NULL, NULL));
    CHECK_OK(fw_field_add_required(form, "user", NULL));
    CHECK_OK(fw_field_add_min_length(form, "user", 3, NULL));
    CHECK_OK(fw_field_add_regex(form, "user", "^[a-z]+$", NULL));
    CHECK_OK(fw_form_add_field(form, "mail", NULL, NULL));
    CHECK_OK(fw_field_add_email(form, "mail", NULL));
    CHECK_OK(fw_form_add_field(form, "pin", NULL, NULL));
    CHECK_OK(fw_field_add_regex(form, "pin", "^(a+)+$", NULL));
    CHECK_OK(fw_form_add_field(form, "tag", NULL, NULL));
    CHECK_OK(fw_form_load_spec(form, "{\"formwell\": 1, \"fields\": [{\"id\": \"size\", \"rules\": [{\"rule\": \"one_of\", "
                                     "\"values\": [\"S\", \"M\"]}, {\"rule\": \"decimal\", \"min\": 0.5}, {\"rule\": "
                                     "\"max_length\", \"length\": 4, \"unit\": \"bytes\"}]}]}"));

    /* Each rule's code and parameters (after defaults, keys sorted). */
    CHECK_OK(fw_form_rule_code(form, 0, 0, buf, sizeof buf, &length));
    CHECK_STR(buf, "required");
    CHECK(length == 8);
    CHECK_OK(fw_form_rule_params(form, 0, 0, buf, sizeof buf, &length));
    CHECK_STR(buf, "{}");
    CHECK(length == 2);
    {
        /* field, rule, code (NULL: not checked), parameters; decimal bounds are strings. */
        static const struct { size_t field, rule; const char *code, *params; } rules[] = {
            {0, 1, "min_length", "{\"length\":3,\"unit\":\"graphemes\"}"},
            {0, 2, "regex", "{\"pattern\":\"^[a-z]+$\"}"},
            {1, 0, "email", "{}"},
            {4, 0, "one_of", "{\"values\":[\"S\",\"M\"]}"},
            {4, 1, "decimal", "{\"min\":\"0.5\"}"},
            {4, 2, NULL, "{\"length\":4,\"unit\":\"bytes\"}"},
        };
        size_t k;
        for (k = 0; k < sizeof rules / sizeof rules[0]; k++) {
            if (rules[k].code) {
                CHECK_OK(fw_form_rule_code(form, rules[k].field, rules[k].rule, buf, sizeof buf, NULL));
                CHECK_STR(buf, rules[k].code);
            }
            CHECK_OK(fw_form_rule_params(form, rules[k].field, rules[k].rule, buf, sizeof buf, NULL));
            CHECK_STR(buf, rules[k].params);
        }
    }
    /* Buffers: a size query, too small (a prefix), NULL with a size. */
    length = 0;
    CHECK_OK(fw_form_rule_params(form, 0, 1, NULL, 0, &length));
    CHECK(length == 31);
    CHECK_STATUS(fw_form_rule_params(form, 0, 1, buf, 5, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK_STR(buf, "{\"le");
    CHECK(length == 31);
    CHECK_STATUS(fw_form_rule_code(form, 0, 1, buf, 3, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK_STR(buf, "mi");
    CHECK(length == 10);
    CHECK_STATUS(fw_form_rule_code(form, 0, 1, NULL, 3, &length), FW_ERR_NULL_ARGUMENT);
    /* Out of range: a rule past the field's, a field without rules, a field past the form's. */
    {
        static const size_t bad[][2] = {{0, 3}, {1, 1}, {3, 0}, {5, 0}, {0, SIZE_MAX}, {SIZE_MAX, 0},
                                        {(size_t)INT64_MAX + 1, 0}, {0, (size_t)INT64_MAX + 1}};
        size_t k;
        for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            strcpy(buf, "stale");
            CHECK_STATUS(fw_form_rule_code(form, bad[k][0], bad[k][1], buf, sizeof buf, &length), FW_ERR_INVALID_ARGUMENT);
            CHECK_STR(buf, "");
            strcpy(buf, "stale");
            CHECK_STATUS(fw_form_rule_params(form, bad[k][0], bad[k][1], buf, sizeof buf, &length), FW_ERR_INVALID_ARGUMENT);
            CHECK_STR(buf, "");
        }
    }

    /* A batch: each failing cell's code through fw_form_rule_code, a limit-flagged cell "pattern_limit". */
    CHECK_OK(fw_form_set_match_limits(form, 1000, 1000, 1024));
    for (f = 0; f < 3; f++) {
        at = 0;
        for (r = 0; r < 4; r++) {
            offsets[f][r] = (int32_t)at;
            memcpy(data[f] + at, values[r][f], strlen(values[r][f]));
            at += strlen(values[r][f]);
        }
        offsets[f][4] = (int32_t)at;
        columns[f] = test_column32(f == 0 ? "user" : f == 1 ? "mail" : "pin", offsets[f], data[f], at);
    }
    /* Fields tag (no rules) and size (empty, optional) pass in every record. */
    CHECK_OK(fw_form_check_batch(form, columns, 3, 4, 1, valid, rules, flags, &invalid));
    CHECK(invalid == 3 && valid[0] == 0 && valid[1] == 0 && valid[2] == 0 && valid[3] == 1);
    for (r = 0; r < 4; r++) {
        for (f = 0; f < 3; f++) {
            size_t cell = r * 5 + f;
            cell_code(form, f, rules[cell], flags[cell], code, sizeof code);
            CHECK_STR(code, want[r][f]);
        }
        CHECK(rules[r * 5 + 3] == -1 && rules[r * 5 + 4] == -1);
    }
    /* The limit-flagged cell: its failing rule is the pattern's, whose own code is "regex". */
    CHECK(rules[5 + 2] == 0 && (flags[5 + 2] & FW_CELL_LIMIT_EXCEEDED) != 0);
    CHECK((flags[2] & FW_CELL_LIMIT_EXCEEDED) == 0 && (flags[5 + 1] & FW_CELL_LIMIT_EXCEEDED) == 0);
    CHECK_OK(fw_form_rule_code(form, 2, 0, buf, sizeof buf, NULL));
    CHECK_STR(buf, "regex");
    CHECK_OK(fw_form_batch_message(form, columns, 3, 4, 1, 2, buf, sizeof buf, NULL));
    CHECK_STR(buf, "This value is too complex to check");
    /* The same value typed into the form: the snapshot's code agrees with the cell's. */
    CHECK_OK(fw_field_set_value(form, "pin", values[1][2]));
    s = snap(form, "pin", texts, sizeof texts);
    CHECK(s.limit_exceeded && s.validity == FW_VALIDITY_INVALID && s.failing_rule == 0);
    CHECK_CODES(s, texts, "pattern_limit", "{}", "", "{}", "pattern_limit\0");
    CHECK_OK(fw_field_set_value(form, "user", values[2][0]));
    s = snap(form, "user", texts, sizeof texts);
    CHECK_CODES(s, texts, "regex", "{\"pattern\":\"^[a-z]+$\"}", "", "{}", "regex\0");
    /* Batch messages follow the locale; codes do not. */
    CHECK_OK(fw_form_set_locale(form, "fr"));
    CHECK_OK(fw_form_batch_message(form, columns, 3, 4, 0, 0, buf, sizeof buf, NULL));
    CHECK_STR(buf, "Au moins 3 caract\xc3\xa8res");
    CHECK_OK(fw_form_rule_code(form, 0, 1, buf, sizeof buf, NULL));
    CHECK_STR(buf, "min_length");
    CHECK_OK(fw_form_free(form));
}

/* ---- single-value checks ---- */

/* fw_check_value into `r` (every byte first a sentinel) with texts in `buf`. */
static fw_status check_value(const char *rules, const char *value, const char *locale, fw_check_result *r, char *buf,
                             size_t size) {
    memset(r, SENTINEL, sizeof *r);
    r->size = sizeof *r;
    return fw_check_value(rules, value, locale, r, buf, size);
}

/* Checks a verdict filled with a buffer big enough: validity, failing rule, the three texts, their
   lengths and where they went (message, code, parameters back to back from buf). One check. */
static void check_verdict_at(int line, const fw_check_result *r, const char *buf, int validity, int failing_rule,
                             const char *message, const char *code, const char *params) {
    int ok = r->validity == validity && r->failing_rule == failing_rule && r->message == buf && r->code != NULL
          && r->params != NULL && strcmp(r->message, message) == 0 && strcmp(r->code, code) == 0
          && strcmp(r->params, params) == 0 && r->message_length == strlen(message)
          && r->code_length == strlen(code) && r->params_length == strlen(params)
          && r->code == r->message + r->message_length + 1 && r->params == r->code + r->code_length + 1
          && r->text_size == r->message_length + r->code_length + r->params_length + 3;
    check_count++;
    if (!ok) {
        check_failures++;
        fprintf(stderr, "%s:%d: verdict %d rule %d \"%s\" \"%s\" %s; expected %d rule %d \"%s\" \"%s\" %s\n", __FILE__,
                line, (int)r->validity, (int)r->failing_rule, r->message ? r->message : "(null)",
                r->code ? r->code : "(null)", r->params ? r->params : "(null)", validity, failing_rule, message, code,
                params);
    }
}
#define CHECK_VERDICT(r, buf, ...) check_verdict_at(__LINE__, &(r), buf, __VA_ARGS__)

static void single_values(void) {
    fw_check_result r;
    char buf[256], small[24];
    union {
        fw_check_result r;
        unsigned char bytes[sizeof(fw_check_result) + 16];
    } grown;
    const char *min8 = "{\"rule\": \"min_length\", \"length\": 8}";
    const char *both = "[{\"rule\": \"required\"}, {\"rule\": \"min_length\", \"length\": 8}, {\"rule\": \"email\"}]";

    /* A single rule object and an array; valid, invalid, empty. */
    CHECK_OK(check_value(min8, "abcdefgh", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_VALID, -1, "", "", "{}");
    CHECK(!r.limit_exceeded);
    CHECK_OK(check_value(min8, "abc", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "Must be at least 8 characters", "min_length", P8);
    CHECK_OK(check_value(min8, "", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_EMPTY, -1, "", "", "{}");
    CHECK_OK(check_value(both, "", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, REQUIRED, "required", "{}");
    CHECK_OK(check_value(both, "abc", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 1, "Must be at least 8 characters", "min_length", P8);
    CHECK_OK(check_value(both, "abcdefghij", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 2, "Invalid email format", "email", "{}");
    CHECK_OK(check_value(both, "ada.lovelace@example.com", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_VALID, -1, "", "", "{}");
    CHECK_OK(check_value("[]", "anything", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_VALID, -1, "", "", "{}");
    CHECK_OK(check_value("{\"rule\": \"integer\", \"min\": 1, \"max\": 5}", "9", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "Enter a whole number from 1 to 5", "integer",
                  "{\"max\":\"5\",\"min\":\"1\"}");
    CHECK_OK(check_value("{\"rule\": \"url\"}", "example.com", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "Enter a valid URL including https://", "url",
                  "{\"schemes\":[\"http\",\"https\"]}");

    /* French, through a regional tag; the code and parameters as in English. */
    CHECK_OK(check_value(min8, "abc", "fr-CA", &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "Au moins 8 caract\xc3\xa8res", "min_length", P8);
    CHECK_OK(check_value(both, "", "fr", &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "Ce champ est obligatoire", "required", "{}");
    CHECK_OK(check_value("{\"rule\": \"max_length\", \"length\": 1}", "ab", "fr", &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "Au plus 1 caract\xc3\xa8re", "max_length",
                  "{\"length\":1,\"unit\":\"graphemes\"}");
    CHECK_OK(check_value("{\"rule\": \"max_length\", \"length\": 1}", "ab", "en", &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "Must be 1 character or fewer", "max_length",
                  "{\"length\":1,\"unit\":\"graphemes\"}");

    /* A rule's own message is a template: parameters by name, {units}, ICU plurals; unknown
       placeholders left as written. */
    CHECK_OK(check_value("{\"rule\": \"min_length\", \"length\": 8, \"message\": \"Need {length} {units}, {nope}\"}", "abc",
                         NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "Need 8 characters, {nope}", "min_length", P8);
    CHECK_OK(check_value("{\"rule\": \"max_length\", \"length\": 1, \"message\": \"{length, plural, one {# char} other "
                         "{# chars}} at most\"}", "ab", NULL, &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "1 char at most", "max_length", "{\"length\":1,\"unit\":\"graphemes\"}");
    CHECK_OK(check_value("{\"rule\": \"max_length\", \"length\": 0, \"message\": \"{length, plural, one {# car.} other "
                         "{# cars}}\"}", "ab", "fr", &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "0 car.", "max_length", "{\"length\":0,\"unit\":\"graphemes\"}");

    /* A catastrophic pattern at the default limits: pattern_limit. */
    CHECK_OK(check_value("{\"rule\": \"regex\", \"pattern\": \"^(a+)+$\"}", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", NULL,
                         &r, buf, sizeof buf));
    CHECK_VERDICT(r, buf, FW_VALIDITY_INVALID, 0, "This value is too complex to check", "pattern_limit", "{}");
    CHECK(r.limit_exceeded);

    /* Refused: malformed rules, rules that need a form, unknown locales, NULLs, bad sizes, bad UTF-8. */
    CHECK_STATUS(check_value("[{\"rule\": \"min_length\", \"length\": 2}", "a", NULL, &r, buf, sizeof buf),
                 FW_ERR_INVALID_SPEC);
    CHECK_STATUS(check_value("{\"rule\": \"min_length\"}", "a", NULL, &r, buf, sizeof buf), FW_ERR_INVALID_SPEC);
    CHECK_OK(fw_last_error_message(buf, sizeof buf, NULL));
    CHECK(strstr(buf, "length") != NULL);
    CHECK_STATUS(check_value("[{\"rule\": \"required\"}, {\"rule\": \"nope\"}]", "a", NULL, &r, buf, sizeof buf),
                 FW_ERR_INVALID_SPEC);
    CHECK_OK(fw_last_error_message(buf, sizeof buf, NULL));
    CHECK(strstr(buf, "[1].rule") != NULL);
    CHECK_STATUS(check_value("42", "a", NULL, &r, buf, sizeof buf), FW_ERR_INVALID_SPEC);
    CHECK_STATUS(check_value("", "a", NULL, &r, buf, sizeof buf), FW_ERR_INVALID_SPEC);
    CHECK_STATUS(check_value("{\"rule\": \"regex\", \"pattern\": \"(\"}", "a", NULL, &r, buf, sizeof buf),
                 FW_ERR_INVALID_PATTERN);
    CHECK_STATUS(check_value("{\"rule\": \"matches\", \"field\": \"x\"}", "a", NULL, &r, buf, sizeof buf),
                 FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(check_value("{\"rule\": \"not_equal\", \"field\": \"x\"}", "a", NULL, &r, buf, sizeof buf),
                 FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(check_value("{\"rule\": \"required_if\", \"field\": \"x\", \"value\": \"y\"}", "", NULL, &r, buf,
                             sizeof buf), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(check_value("{\"rule\": \"custom\", \"name\": \"starts_with_plus\"}", "a", NULL, &r, buf, sizeof buf),
                 FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(check_value("{\"rule\": \"async\", \"name\": \"available\"}", "a", NULL, &r, buf, sizeof buf),
                 FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(check_value(min8, "abc", "xx", &r, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(check_value(min8, "abc", "", &r, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(check_value(NULL, "abc", NULL, &r, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(check_value(min8, NULL, NULL, &r, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_check_value(min8, "abc", NULL, NULL, buf, sizeof buf), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(check_value(min8, "abc", NULL, &r, NULL, 4), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(check_value(min8, "ab\xff", NULL, &r, buf, sizeof buf), FW_ERR_INVALID_UTF8);
    CHECK(fw_last_error_offset() == 2);
    {
        static const size_t sizes[] = {0, 8, sizeof(fw_check_result) - 8, sizeof(fw_check_result) - 1};
        size_t k;
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            memset(&grown, SENTINEL, sizeof grown);
            grown.r.size = sizes[k];
            CHECK_STATUS(fw_check_value(min8, "abc", NULL, &grown.r, buf, sizeof buf), FW_ERR_INVALID_ARGUMENT);
            CHECK(all_bytes(grown.bytes + sizeof(size_t), sizeof grown - sizeof(size_t), SENTINEL));
        }
    }
    /* A later version's size: its own bytes untouched. */
    memset(&grown, SENTINEL, sizeof grown);
    grown.r.size = sizeof grown;
    CHECK_OK(fw_check_value(min8, "abc", NULL, &grown.r, buf, sizeof buf));
    CHECK_VERDICT(grown.r, buf, FW_VALIDITY_INVALID, 0, "Must be at least 8 characters", "min_length", P8);
    CHECK(all_bytes(grown.bytes + sizeof(fw_check_result), 16, SENTINEL));

    /* Buffers: NULL and 0 (the size, no text), too small (members filled, texts that do not fit NULL). */
    CHECK_OK(check_value(both, "", NULL, &r, NULL, 0));
    CHECK(r.validity == FW_VALIDITY_INVALID && r.failing_rule == 0 && r.text_size == 22 + 8 + 2 + 3);
    CHECK(r.message == NULL && r.code == NULL && r.params == NULL);
    memset(small, SENTINEL, sizeof small);
    CHECK_STATUS(check_value(both, "", NULL, &r, small, 10), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(r.validity == FW_VALIDITY_INVALID && r.failing_rule == 0 && r.text_size == 35 && r.message_length == 22);
    CHECK(r.code_length == 8 && r.params_length == 2);
    CHECK(r.message == NULL && r.code == NULL && r.params == NULL);
    CHECK_STATUS(check_value(both, "", NULL, &r, small, sizeof small), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(r.message == small && r.code == NULL && r.params == NULL && r.text_size == 35);
    CHECK_STR(r.message, REQUIRED);
    {
        char exact[35];
        CHECK_OK(check_value(both, "", NULL, &r, exact, sizeof exact));
        CHECK_VERDICT(r, exact, FW_VALIDITY_INVALID, 0, REQUIRED, "required", "{}");
    }
}

int main(void) {
    snapshot_codes();
    growth_rule();
    buffer_too_small();
    locales();
    catalogues();       /* before catalogue_added: only the shipped catalogues */
    catalogue_added();
    rule_codes();
    single_values();
    CHECK(fw_form_live_count() == 0);
    return check_summary("messages_test");
}
