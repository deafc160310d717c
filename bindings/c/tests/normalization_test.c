/* Through the C ABI: normalisers (fw_field_set_normalizers, fw_field_normalizers,
   fw_field_normalized_value, the third version of fw_snapshot) and secret fields
   (fw_field_set_secret), with the hostile cases of each of these functions: a refused call changes
   nothing. */
#include "check.h"

/* The field's snapshot (version 3) with its texts in `texts`. */
static fw_snapshot snap(fw_form *form, const char *id, char *texts, size_t size) {
    fw_snapshot s;
    memset(&s, 0x5A, sizeof s);
    s.size = sizeof s;
    CHECK_OK(fw_field_snapshot(form, id, &s, texts, size));
    return s;
}

static size_t normalizers_of(fw_form *form, const char *id, int32_t *out, size_t capacity) {
    size_t count = 99;
    CHECK_OK(fw_field_normalizers(form, id, out, capacity, &count));
    return count;
}

static void trim_and_required(void) {
    fw_form *form = NULL;
    char texts[512], buf[64];
    int32_t trim[] = {FW_NORMALIZE_TRIM}, got[8];
    fw_snapshot s;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "name", "Name", NULL));
    CHECK_OK(fw_field_add_required(form, "name", NULL));
    CHECK(normalizers_of(form, "name", got, 8) == 0);
    CHECK_OK(fw_field_set_normalizers(form, "name", trim, 1));
    CHECK(normalizers_of(form, "name", got, 8) == 1 && got[0] == FW_NORMALIZE_TRIM);
    CHECK_OK(fw_field_set_value(form, "name", "   "));
    CHECK_OK(fw_field_blur(form, "name"));
    s = snap(form, "name", texts, sizeof texts);
    CHECK(s.validity == FW_VALIDITY_INVALID && s.display == FW_DISPLAY_ERROR && s.failing_rule == 0);
    CHECK_STR(s.message, "This field is required");
    CHECK_STR(s.value, "   ");
    CHECK(s.value_length == 3 && s.normalized_length == 0 && !s.secret && s.label_raised);
    CHECK_STR(s.normalized, "");
    CHECK(s.normalized == s.errors + s.errors_size + 1);
    /* The fourth version's texts follow the normalised value: the codes and parameters last. */
    CHECK(s.code == s.normalized + 1 && s.error_codes == s.display_params + s.display_params_length + 1);
    CHECK_STR(s.code, "required");
    CHECK(s.text_size == (size_t)(s.error_codes + s.error_codes_size + 1 - texts));
    CHECK_OK(fw_field_value(form, "name", buf, sizeof buf, NULL));
    CHECK_STR(buf, "   ");
    CHECK_OK(fw_field_normalized_value(form, "name", buf, sizeof buf, NULL));
    CHECK_STR(buf, "");
    /* A value with text around spaces: valid, what was typed kept. */
    CHECK_OK(fw_field_update(form, "name", "  Ada ", &s, texts, sizeof texts));
    CHECK(s.validity == FW_VALIDITY_VALID && s.normalized_length == 3);
    CHECK_STR(s.value, "  Ada ");
    CHECK_STR(s.normalized, "Ada");
    /* A caller of the second version gets neither the third version's members nor its text. */
    memset(&s, 0x5A, sizeof s);
    s.size = offsetof(fw_snapshot, secret);
    CHECK_OK(fw_field_snapshot(form, "name", &s, texts, sizeof texts));
    CHECK(s.text_size == (size_t)(s.errors + s.errors_size + 1 - texts));
    CHECK(all_bytes((const char *)&s + offsetof(fw_snapshot, secret), sizeof s - offsetof(fw_snapshot, secret), 0x5A));
    CHECK_OK(fw_form_free(form));
}

static void order_and_matches(void) {
    fw_form *form = NULL;
    char texts[512];
    int32_t list[] = {FW_NORMALIZE_COLLAPSE_WHITESPACE, FW_NORMALIZE_TRIM, FW_NORMALIZE_LOWERCASE, FW_NORMALIZE_NFC};
    int32_t digits[] = {FW_NORMALIZE_DIGITS_ONLY}, got[8];
    size_t count = 0;
    fw_snapshot s;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "email", NULL, NULL));
    CHECK_OK(fw_field_add_email(form, "email", NULL));
    CHECK_OK(fw_form_add_field(form, "confirm", NULL, NULL));
    CHECK_OK(fw_field_add_matches(form, "confirm", "email", NULL));
    CHECK_OK(fw_form_add_field(form, "phone", NULL, NULL));
    CHECK_OK(fw_field_add_regex(form, "phone", "^[0-9]{10}$", NULL));
    CHECK_OK(fw_field_set_normalizers(form, "phone", digits, 1));
    CHECK_OK(fw_field_set_value(form, "email", "a@b.co"));
    CHECK_OK(fw_field_set_value(form, "confirm", "  A@B.CO  "));
    CHECK_OK(fw_field_touch(form, "confirm"));
    CHECK_STR(snap(form, "confirm", texts, sizeof texts).message, "Must match email");
    CHECK_OK(fw_field_set_normalizers(form, "confirm", list, 4));
    s = snap(form, "confirm", texts, sizeof texts);
    CHECK(s.validity == FW_VALIDITY_VALID);
    CHECK_STR(s.normalized, "a@b.co");
    CHECK_STR(s.value, "  A@B.CO  ");
    CHECK(normalizers_of(form, "confirm", got, 8) == 4 && got[0] == FW_NORMALIZE_COLLAPSE_WHITESPACE
          && got[3] == FW_NORMALIZE_NFC);
    /* Too small a capacity: the count, nothing stored. */
    got[0] = -7;
    CHECK_STATUS(fw_field_normalizers(form, "confirm", got, 3, &count), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(count == 4 && got[0] == -7);
    CHECK_OK(fw_field_normalizers(form, "email", NULL, 0, &count));
    CHECK(count == 0);
    /* The field a matches rule names changes: compared normalised. */
    CHECK_OK(fw_field_set_value(form, "email", "X@b.co"));
    CHECK_STR(snap(form, "confirm", texts, sizeof texts).message, "Must match email");
    CHECK_OK(fw_field_set_value(form, "phone", "(555) 123-4567"));
    s = snap(form, "phone", texts, sizeof texts);
    CHECK(s.validity == FW_VALIDITY_VALID);
    CHECK_STR(s.normalized, "5551234567");
    /* "e" + U+0301 typed decomposed becomes U+00E9 under NFC. */
    CHECK_OK(fw_field_set_value(form, "confirm", "Jose\xcc\x81"));
    CHECK_STR(snap(form, "confirm", texts, sizeof texts).normalized, "jos\xc3\xa9");
    CHECK_OK(fw_form_free(form));
}

static void hostile(void) {
    fw_form *form = NULL, *freed = NULL;
    char buf[8];
    int32_t trim[] = {FW_NORMALIZE_TRIM}, twice[] = {FW_NORMALIZE_TRIM, FW_NORMALIZE_TRIM};
    int32_t bad[] = {FW_NORMALIZE_TRIM, 5}, negative[] = {-1}, got[8];
    size_t count = 0, length = 0;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "a", NULL, "  x "));
    CHECK_OK(fw_field_set_normalizers(form, "a", trim, 1));
    CHECK_STATUS(fw_field_set_normalizers(form, "a", NULL, 2), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_set_normalizers(form, "a", twice, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_set_normalizers(form, "a", bad, 2), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_set_normalizers(form, "a", negative, 1), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_set_normalizers(form, "a", trim, SIZE_MAX), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_field_set_normalizers(form, "zz", trim, 1), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_field_set_normalizers(form, NULL, trim, 1), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_set_normalizers(NULL, "a", trim, 1), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_set_normalizers(form, "\xff", trim, 1), FW_ERR_INVALID_UTF8);
    /* Nothing refused changed anything. */
    CHECK(normalizers_of(form, "a", got, 8) == 1 && got[0] == FW_NORMALIZE_TRIM);
    CHECK_OK(fw_field_normalized_value(form, "a", buf, sizeof buf, &length));
    CHECK(length == 1);
    CHECK_STR(buf, "x");
    CHECK_STATUS(fw_field_normalizers(form, "a", NULL, 2, &count), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_normalizers(form, "a", got, 8, NULL), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_field_normalizers(form, "zz", got, 8, &count), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_field_normalized_value(form, "zz", buf, sizeof buf, NULL), FW_ERR_UNKNOWN_FIELD);
    CHECK_STR(buf, ""); /* a failed copy leaves "" */
    CHECK_STATUS(fw_field_normalized_value(form, "a", buf, 1, &length), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(length == 1);
    CHECK_STATUS(fw_field_set_secret(form, "zz", true), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_field_set_secret(form, NULL, true), FW_ERR_NULL_ARGUMENT);
    CHECK_OK(fw_form_create(&freed));
    CHECK_OK(fw_form_free(freed));
    CHECK_STATUS(fw_field_set_secret(freed, "a", true), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_normalizers(freed, "a", got, 8, &count), FW_ERR_INVALID_HANDLE);
    CHECK_STATUS(fw_field_normalized_value(freed, "a", buf, sizeof buf, NULL), FW_ERR_INVALID_HANDLE);
    CHECK_OK(fw_form_free(form));
}

static void secret_fields(void) {
    fw_form *form = NULL, *loaded = NULL;
    char texts[512], spec[2048];
    fw_snapshot s;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "password", NULL, "hunter22"));
    CHECK_OK(fw_field_add_min_length(form, "password", 8, NULL));
    CHECK(!snap(form, "password", texts, sizeof texts).secret);
    CHECK_OK(fw_field_set_secret(form, "password", true));
    s = snap(form, "password", texts, sizeof texts);
    CHECK(s.secret && s.validity == FW_VALIDITY_EMPTY);
    CHECK_STR(s.value, "hunter22"); /* the value itself is the value */
    CHECK_OK(fw_form_export_spec(form, spec, sizeof spec, NULL));
    CHECK(strstr(spec, "hunter22") == NULL && strstr(spec, "\"secret\" : true") != NULL);
    /* The spec keys load: normalize and secret. */
    CHECK_OK(fw_form_create(&loaded));
    CHECK_OK(fw_form_load_spec(loaded, "{\"formwell\": 1, \"fields\": [{\"id\": \"code\", \"initial\": \" AB \","
                                       " \"normalize\": [\"trim\", \"lowercase\"], \"secret\": true,"
                                       " \"rules\": [{\"rule\": \"max_length\", \"length\": 2}]}]}"));
    s = snap(loaded, "code", texts, sizeof texts);
    CHECK(s.secret && !s.dirty);
    CHECK_STR(s.value, " AB ");
    CHECK_STR(s.normalized, "ab");
    CHECK_STATUS(fw_form_load_spec(loaded, "{\"formwell\": 1, \"fields\": [{\"id\": \"x\", \"normalize\": [\"upper\"]}]}"),
                 FW_ERR_INVALID_SPEC);
    CHECK_OK(fw_form_free(loaded));
    CHECK_OK(fw_form_free(form));
}

int main(void) {
    (void)check_field_at; /* check.h's per-property helper: not needed here */
    trim_and_required();
    order_and_matches();
    hostile();
    secret_fields();
    CHECK(fw_form_live_count() == 0);
    return check_summary("normalization_test");
}
