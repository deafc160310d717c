/* Assertion helpers for the C tests: every check names what it expected and what it got. */
#ifndef FORMWELL_TEST_CHECK_H
#define FORMWELL_TEST_CHECK_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formwell.h"

static int check_failures = 0;
static int check_count = 0;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        check_count++;                                                                  \
        if (!(cond)) {                                                                  \
            check_failures++;                                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
        }                                                                               \
    } while (0)

/* Asserts the exact status of a call, printing the library's detail when it differs. */
#define CHECK_STATUS(call, expected)                                                    \
    do {                                                                                \
        fw_status got_ = (call);                                                        \
        check_count++;                                                                  \
        if (got_ != (expected)) {                                                       \
            char detail_[256];                                                          \
            fw_last_error_message(detail_, sizeof detail_, NULL);                       \
            check_failures++;                                                           \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected %s; detail: %s\n",    \
                    __FILE__, __LINE__, #call, (int)got_, fw_status_string(got_),       \
                    #expected, detail_);                                                \
        }                                                                               \
    } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, FW_OK)

#define CHECK_STR(actual, expected)                                                     \
    do {                                                                                \
        const char *a_ = (actual), *e_ = (expected);                                    \
        check_count++;                                                                  \
        if (strcmp(a_, e_) != 0) {                                                      \
            check_failures++;                                                           \
            fprintf(stderr, "%s:%d: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
                    a_, e_);                                                            \
        }                                                                               \
    } while (0)

/* The whole observable state of one field, as a view reads it. */
typedef struct {
    fw_phase phase;
    fw_validity validity;
    const char *message;
    fw_display display;
    const char *display_message;
    bool touched;
} expected_field;

static void check_field_at(int line, fw_form *form, const char *id, expected_field want) {
    fw_phase phase = FW_PHASE_IDLE;
    fw_validity validity = FW_VALIDITY_EMPTY;
    fw_display display = FW_DISPLAY_NONE;
    bool touched = false;
    char message[256], display_message[256];
    int ok = fw_field_phase(form, id, &phase) == FW_OK
          && fw_field_validity(form, id, &validity) == FW_OK
          && fw_field_display(form, id, &display) == FW_OK
          && fw_field_touched(form, id, &touched) == FW_OK
          && fw_field_message(form, id, message, sizeof message, NULL) == FW_OK
          && fw_field_display_message(form, id, display_message, sizeof display_message, NULL) == FW_OK;
    check_count++;
    if (!ok || phase != want.phase || validity != want.validity || display != want.display
        || touched != want.touched || strcmp(message, want.message) != 0
        || strcmp(display_message, want.display_message) != 0) {
        check_failures++;
        fprintf(stderr,
                "%s:%d: field '%s': got phase %d validity %d \"%s\" display %d \"%s\" touched %d; "
                "expected phase %d validity %d \"%s\" display %d \"%s\" touched %d\n",
                __FILE__, line, id, (int)phase, (int)validity, ok ? message : "?", (int)display,
                ok ? display_message : "?", (int)touched, (int)want.phase, (int)want.validity,
                want.message, (int)want.display, want.display_message, (int)want.touched);
    }
}

#define CHECK_FIELD(form, id, ...) check_field_at(__LINE__, form, id, (expected_field){__VA_ARGS__})

/* The size of the first version of fw_snapshot (a caller built against that header declares it). */
#define TEST_SNAPSHOT_V1_SIZE offsetof(fw_snapshot, visited)
/* The third version's struct ends with `normalized`. */
#define TEST_SNAPSHOT_V3_SIZE (offsetof(fw_snapshot, normalized) + sizeof(const char *))
/* The fourth version's struct ends with `error_codes`. */
#define TEST_SNAPSHOT_V4_SIZE (offsetof(fw_snapshot, error_codes) + sizeof(const char *))

/* The size of the first version of fw_form_info (before the asynchronous rules' members). */
#define TEST_FORM_INFO_V1_SIZE offsetof(fw_form_info, pending_count)

/* Bytes the fourth version's texts of a snapshot take in the text buffer: the code, the parameters,
   the display code and the display parameters, each with its NUL, and the code list with its final NUL. */
/* Whether every one of `size` bytes at `memory` is `byte` (memory the library must not have written). */
static inline int all_bytes(const void *memory, size_t size, unsigned char byte) {
    const unsigned char *p = (const unsigned char *)memory;
    size_t i;
    for (i = 0; i < size; i++) if (p[i] != byte) return 0;
    return 1;
}

static inline size_t snapshot_v4_text_bytes(const fw_snapshot *s) {
    return s->code_length + 1 + s->params_length + 1 + s->display_code_length + 1 + s->display_params_length + 1
         + s->error_codes_size + 1;
}

/* Bytes the texts after the first version's take in the text buffer: the second version's (the label,
   the initial value and the hint, each with its NUL, and the error list with its final NUL), then the
   third's (the normalised value) and the fourth's (see snapshot_v4_text_bytes) when `size` covers them. */
static inline size_t snapshot_v2_text_bytes(const fw_snapshot *s) {
    size_t v3 = s->size >= TEST_SNAPSHOT_V3_SIZE ? s->normalized_length + 1 : 0;
    size_t v4 = s->size >= TEST_SNAPSHOT_V4_SIZE ? snapshot_v4_text_bytes(s) : 0;
    return s->label_length + 1 + s->initial_length + 1 + s->hint_length + 1 + s->errors_size + 1 + v3 + v4;
}

/* The form's fw_form_info (every byte first set to 0x5A, so a member left unwritten shows). */
static inline fw_form_info form_info(fw_form *form) {
    fw_form_info out;
    memset(&out, 0x5A, sizeof out);
    out.size = sizeof out;
    CHECK_OK(fw_form_get_info(form, &out));
    return out;
}

static int check_summary(const char *name) {
    if (check_failures) {
        fprintf(stderr, "%s: %d of %d checks FAILED\n", name, check_failures, check_count);
        return 1;
    }
    printf("%s: all %d checks passed\n", name, check_count);
    return 0;
}

#endif
