/* Forms whose custom validators' destructors free other forms: a chain of a hundred thousand forms,
 * each freeing the next when it is freed, is destroyed in full by one fw_form_free (the destructors
 * run one after another, not nested on the caller's stack), and every form of it is gone. */
#include "check.h"

enum { CHAIN = 100000 };

static int32_t always_valid(void *context, const char *value, size_t length, const char **message) {
    (void)context; (void)value; (void)length; (void)message;
    return FW_VERDICT_VALID;
}

static int destroyed = 0;
static int free_failures = 0;

/* The context is the next form of the chain (NULL at its end). */
static void free_next(void *context) {
    destroyed++;
    if (context != NULL && fw_form_free((fw_form *)context) != FW_OK) free_failures++;
}

static void test_destroy_chain(void) {
    size_t before = fw_form_live_count();
    fw_form *next = NULL;
    int built = 1;
    for (int i = 0; i < CHAIN && built; i++) {
        fw_form *form = NULL;
        if (fw_form_create(&form) != FW_OK || fw_form_add_field(form, "f", NULL, NULL) != FW_OK ||
            fw_field_add_custom(form, "f", always_valid, next, free_next, NULL) != FW_OK) {
            built = 0;
            break;
        }
        next = form;
    }
    CHECK(built);
    CHECK(fw_form_live_count() == before + CHAIN);
    CHECK_OK(fw_form_free(next));
    CHECK(destroyed == CHAIN);
    CHECK(free_failures == 0);
    CHECK(fw_form_live_count() == before);
    /* The head's handle is dead, as a freed handle is. */
    CHECK_STATUS(fw_form_free(next), FW_ERR_INVALID_HANDLE);
}

int main(void) {
    (void)check_field_at; /* check.h's per-property helper: not needed here */
    test_destroy_chain();
    return check_summary("lifetime_test");
}
