/* Shared by the C tests: seed 03's password-strength check as an fw_validate_fn, and builders for
   fw_rule and fw_column array elements. Test support, not part of the library. */
#ifndef FORMWELL_TEST_SEED_RULES_H
#define FORMWELL_TEST_SEED_RULES_H

#include <string.h>

#include "formwell.h"

#define WEAK_PASSWORD "Password too weak \xe2\x80\x94 add uppercase, numbers, or symbols"

/* Context of password_strength: the score a password needs, the calls so far, and the counter
   strength_destroy increments when the form releases the context. */
typedef struct {
    int minimum_score;
    int calls;
    int *destroyed;
} strength_context;

/* Seed 03's scoring: one point each for 8+ characters, an uppercase letter, a digit, a symbol. */
static inline int32_t password_strength(void *context, const char *value, size_t length, const char **out_message) {
    strength_context *ctx = (strength_context *)context;
    int upper = 0, digit = 0, special = 0;
    size_t characters = 0, i;
    ctx->calls++;
    for (i = 0; i < length; i++) {
        unsigned char c = (unsigned char)value[i];
        if ((c & 0xC0) != 0x80) characters++;
        if (c >= 'A' && c <= 'Z') upper = 1;
        else if (c >= '0' && c <= '9') digit = 1;
        else if (!(c >= 'a' && c <= 'z')) special = 1;
    }
    if ((characters >= 8) + upper + digit + special < ctx->minimum_score) {
        *out_message = WEAK_PASSWORD;
        return FW_VERDICT_INVALID;
    }
    return FW_VERDICT_VALID;
}

static inline void strength_destroy(void *context) { (*((strength_context *)context)->destroyed)++; }

/* One fw_rule, every member the kind does not read zeroed. */
static inline fw_rule test_rule(int32_t kind, int32_t length, const char *text, const char *message) {
    fw_rule r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.kind = kind;
    r.length = length;
    r.text = text;
    r.message = message;
    return r;
}

/* One fw_column with int32 offsets, every other member zeroed. */
static inline fw_column test_column32(const char *id, const void *offsets, const char *data, size_t data_size) {
    fw_column c;
    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    c.field_id = id;
    c.offsets = offsets;
    c.data = data;
    c.data_size = data_size;
    c.offset_size = 4;
    return c;
}

#endif
