/* keystroke_floor.h: the least work a keystroke with a whole-state read can cost, written in plain
   C, as a yardstick for fw_field_update_at (make bench-ir's "floor" rows; not a library, never
   linked into one). It does what every update_at on a focused two-stage field must do, and
   nothing a real form needs beyond that: a handle checked against a table with a generation and a
   per-form mutex; the thread's last status written; the value's length and UTF-8 checked (ASCII by
   8-byte words); the value compared with the stored one and copied into the field's own buffer;
   the dirty flag (against the initial value); each rule's pattern matched by pcre2_jit_match with
   the field's match data; the lenient stage's validity, display and tint; the revision stamped;
   then every member of a version-4 fw_snapshot filled and its 13 texts copied, each with its
   NUL, into the caller's buffer after one capacity check. No modes, groups, normalisers,
   dependents, asynchronous rules, external errors, locales or error lists: what is left out only
   makes the floor lower. */
#ifndef KEYSTROKE_FLOOR_H
#define KEYSTROKE_FLOOR_H

#include <pthread.h>

typedef struct {
    pthread_mutex_t lock;
    unsigned long generation;
    pcre2_code *code; /* NULL: no rule */
    pcre2_match_data *data;
    char value[256];
    size_t value_length;
    const char *label, *initial, *message;
    unsigned long revision;
    int touched, visited;
} floor_form;

static floor_form *floor_table[4];
static unsigned long floor_generations[4];
static __thread int floor_last_status;

static inline floor_form *floor_form_create(pcre2_code *code) {
    floor_form *form = calloc(1, sizeof *form);
    pthread_mutex_init(&form->lock, NULL);
    form->generation = floor_generations[0] = 1;
    form->code = code;
    form->data = code ? pcre2_match_data_create_from_pattern(code, NULL) : NULL;
    form->label = "f";
    form->initial = "";
    form->message = "Invalid format";
    floor_table[0] = form;
    return form;
}

/* UTF-8 well-formedness, ASCII runs by words: the check fw_ calls make once per value. */
static inline int floor_valid_utf8(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (i + 8 <= n) {
            unsigned long long w;
            memcpy(&w, s + i, 8);
            if ((w & 0x8080808080808080ULL) == 0) { i += 8; continue; }
        }
        unsigned char c = s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > n) return 0;
        for (size_t k = 1; k < len; k++) if ((s[i + k] & 0xC0) != 0x80) return 0;
        i += len;
    }
    return 1;
}

static inline char *floor_put(char **at, const char *text, size_t length) {
    char *start = *at;
    memcpy(start, text, length);
    start[length] = 0;
    *at += length + 1;
    return start;
}

static inline int floor_update(void *handle, size_t index, const char *value, fw_snapshot *s, char *buf, size_t size) {
    floor_form *form = handle;
    if (!form || form != floor_table[index & 3] || form->generation != floor_generations[index & 3]) return -1;
    size_t n = strlen(value);
    if (!floor_valid_utf8((const unsigned char *)value, n) || n >= sizeof form->value) return -2;
    pthread_mutex_lock(&form->lock);
    int changed = n != form->value_length || memcmp(form->value, value, n) != 0;
    memcpy(form->value, value, n);
    form->value_length = n;
    int dirty = n != strlen(form->initial) || memcmp(form->value, form->initial, n) != 0;
    int valid = 1;
    if (form->code && n > 0) valid = pcre2_jit_match(form->code, (PCRE2_SPTR)form->value, n, 0, 0, form->data, NULL) >= 0;
    if (changed) form->revision++;
    /* Focused, two-stage, lenient: an invalid value reads invalid; nothing is displayed before a blur. */
    int validity = n == 0 ? FW_VALIDITY_EMPTY : valid ? FW_VALIDITY_VALID : FW_VALIDITY_INVALID;
    const char *message = validity == FW_VALIDITY_INVALID ? form->message : "";
    size_t message_length = strlen(message), label_length = strlen(form->label), initial_length = strlen(form->initial);
    const char *code = validity == FW_VALIDITY_INVALID ? "pattern" : "";
    size_t code_length = strlen(code), listed = validity == FW_VALIDITY_INVALID;
    s->index = index;
    s->phase = FW_PHASE_FOCUSED;
    s->validity = validity;
    s->display = FW_DISPLAY_NONE;
    s->failing_rule = validity == FW_VALIDITY_INVALID ? 0 : -1;
    s->touched = form->touched;
    s->limit_exceeded = 0;
    s->message_length = message_length;
    s->display_message_length = 0;
    s->value_length = n;
    s->visited = form->visited;
    s->dirty = dirty;
    s->modified_since_submit = changed;
    s->external_error = 0;
    s->label_raised = 1;
    s->emphasized = 1;
    s->mode = FW_MODE_TWO_STAGE;
    s->tint = validity == FW_VALIDITY_INVALID ? FW_TINT_ERROR : FW_TINT_ACCENT;
    s->revision = form->revision;
    s->error_count = listed;
    s->label_length = label_length;
    s->initial_length = initial_length;
    s->hint_length = 0;
    s->errors_size = listed ? message_length + 1 : 0;
    s->secret = 0;
    s->normalized_length = n;
    s->code_length = code_length;
    s->params_length = 2;
    s->display_code_length = 0;
    s->display_params_length = 2;
    s->error_codes_size = listed ? code_length + 1 : 0;
    size_t total = message_length + 1 + 1 + n + 1 + label_length + 1 + initial_length + 1 + 1 + s->errors_size + 1
        + n + 1 + code_length + 1 + 3 + 1 + 3 + s->error_codes_size + 1;
    s->text_size = total;
    int status = 0;
    if (total <= size) {
        char *at = buf;
        s->message = floor_put(&at, message, message_length);
        s->display_message = floor_put(&at, "", 0);
        s->value = floor_put(&at, form->value, n);
        s->label = floor_put(&at, form->label, label_length);
        s->initial = floor_put(&at, form->initial, initial_length);
        s->hint = floor_put(&at, "", 0);
        s->errors = at;
        if (listed) floor_put(&at, message, message_length);
        *at++ = 0;
        s->normalized = floor_put(&at, form->value, n);
        s->code = floor_put(&at, code, code_length);
        s->params = floor_put(&at, "{}", 2);
        s->display_code = floor_put(&at, "", 0);
        s->display_params = floor_put(&at, "{}", 2);
        s->error_codes = at;
        if (listed) floor_put(&at, code, code_length);
        *at++ = 0;
    } else {
        status = FW_ERR_BUFFER_TOO_SMALL;
    }
    pthread_mutex_unlock(&form->lock);
    floor_last_status = status;
    return status;
}

#endif
