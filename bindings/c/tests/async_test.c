/* Asynchronous rules through the C ABI, on a fake clock: debounce, requests handed out
   once, out-of-order results (stale), unknown / closed / not-yet-handed-out ids, submit flushing and
   FW_SUBMIT_PENDING, a too-small buffer that hands nothing out, reset and fw_form_remove_field
   cancelling, the pending state in the snapshot, fw_form_info's second version, FW_RULE_ASYNC. */
#include <stdint.h>

#include "check.h"
#include "seed_rules.h"

#define SENTINEL 0x5A

/* A request with its texts (a buffer per test keeps the pointers valid). */
typedef struct {
    fw_request r;
    char texts[256];
} taken_request;

/* fw_form_next_request at `now` into *out; answers *out_found (false on any failure, which is a
   failed check). */
static bool take(fw_form *form, uint64_t now, taken_request *out) {
    bool found = false;
    memset(out, SENTINEL, sizeof *out);
    out->r.size = sizeof out->r;
    CHECK_OK(fw_form_next_request(form, now, &out->r, out->texts, sizeof out->texts, &found));
    return found;
}


/* The next due time, or UINT64_MAX when nothing is scheduled. */
static uint64_t next_due(fw_form *form) {
    uint64_t due = 7;
    bool scheduled = true;
    CHECK_OK(fw_form_next_due_time(form, &due, &scheduled));
    if (!scheduled) {
        CHECK(due == 0);
        return UINT64_MAX;
    }
    return due;
}

static fw_validity validity(fw_form *form, const char *id) {
    fw_validity v = (fw_validity)-1;
    CHECK_OK(fw_field_validity(form, id, &v));
    return v;
}

static const char *message(fw_form *form, const char *id) {
    static char buf[128];
    CHECK_OK(fw_field_message(form, id, buf, sizeof buf, NULL));
    return buf;
}

static bool is_valid(fw_form *form) {
    bool valid = true;
    CHECK_OK(fw_form_is_valid(form, &valid));
    return valid;
}

static int32_t submit(fw_form *form, const char *group) {
    int32_t outcome = -1;
    CHECK_OK(fw_form_submit(form, group, &outcome));
    return outcome;
}

/* A resolve that must succeed; answers *out_stale. */
static bool resolve(fw_form *form, uint64_t id, int32_t verdict, const char *text) {
    bool stale = true;
    CHECK_OK(fw_form_resolve(form, id, verdict, text, &stale));
    return stale;
}

/* username: required, min_length 3, async "username_available" (debounce_ms); email: email. */
static fw_form *username_form(uint32_t debounce_ms) {
    fw_form *form = NULL;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "username", "Username", NULL));
    CHECK_OK(fw_field_add_required(form, "username", NULL));
    CHECK_OK(fw_field_add_min_length(form, "username", 3, NULL));
    CHECK_OK(fw_field_add_async_rule(form, "username", "username_available", debounce_ms, NULL));
    CHECK_OK(fw_form_add_field(form, "email", "Email", NULL));
    CHECK_OK(fw_field_add_email(form, "email", NULL));
    return form;
}

/* ---- debounce on a fake clock ---- */

static void debounce(void) {
    fw_form *form = username_form(500);
    taken_request req;
    CHECK(next_due(form) == UINT64_MAX);
    CHECK(form_info(form).now_ms == 0);
    CHECK_OK(fw_field_focus(form, "username"));
    CHECK_OK(fw_form_tick(form, 1000));
    CHECK(form_info(form).now_ms == 1000);

    /* A value failing a synchronous rule sends nothing. */
    CHECK_OK(fw_field_set_value(form, "username", "ad"));
    CHECK(validity(form, "username") == FW_VALIDITY_INVALID);
    CHECK_STR(message(form, "username"), "Must be at least 3 characters");
    CHECK(next_due(form) == UINT64_MAX);

    /* "ada" at 1100: request 1, due at 1600. */
    CHECK_OK(fw_form_tick(form, 1100));
    CHECK_OK(fw_field_set_value(form, "username", "ada"));
    CHECK(validity(form, "username") == FW_VALIDITY_PENDING);
    CHECK_STR(message(form, "username"), "");
    CHECK(next_due(form) == 1600);
    CHECK(!is_valid(form));
    CHECK(form_info(form).pending_count == 1);

    /* "adam" at 1300, before 1600: request 1 replaced (never handed out) by request 2, due 1800. */
    CHECK_OK(fw_form_tick(form, 1300));
    CHECK_OK(fw_field_set_value(form, "username", "adam"));
    CHECK(next_due(form) == 1800);
    CHECK(!take(form, 1600, &req)); /* the old due time passes: nothing */
    CHECK(!take(form, 1799, &req));
    CHECK(form_info(form).now_ms == 1799);
    CHECK(take(form, 1800, &req));
    CHECK(req.r.id == 2 && req.r.due == 1800 && req.r.field_index == 0);
    CHECK_STR(req.r.field_id, "username");
    CHECK_STR(req.r.value, "adam");
    CHECK_STR(req.r.rule, "username_available");
    CHECK(req.r.field_id_length == 8 && req.r.value_length == 4 && req.r.rule_length == 18);
    CHECK(req.r.text_size == 8 + 1 + 4 + 1 + 18 + 1);
    CHECK(req.r.field_id == req.texts && req.r.value == req.texts + 9 && req.r.rule == req.texts + 14);
    CHECK(req.r.size == sizeof req.r);
    CHECK(next_due(form) == UINT64_MAX);        /* handed out: no longer scheduled */
    CHECK(!take(form, 99999, &req));            /* handed out once */
    CHECK(validity(form, "username") == FW_VALIDITY_PENDING);

    /* Request 1 was replaced before it was handed out: closed; the result for 2 applies. */
    CHECK_STATUS(fw_form_resolve(form, 1, FW_ASYNC_VALID, NULL, NULL), FW_ERR_REQUEST_CLOSED);
    CHECK(!resolve(form, 2, FW_ASYNC_VALID, NULL));
    CHECK(validity(form, "username") == FW_VALIDITY_VALID);
    CHECK(form_info(form).pending_count == 0);
    CHECK(form_info(form).stale_results == 0);

    /* The same value again changes nothing; an empty value sends nothing. */
    CHECK_OK(fw_field_set_value(form, "username", "adam"));
    CHECK(validity(form, "username") == FW_VALIDITY_VALID && next_due(form) == UINT64_MAX);
    CHECK_OK(fw_field_set_value(form, "username", ""));
    CHECK(next_due(form) == UINT64_MAX && form_info(form).pending_count == 0);

    /* The clock never goes back: a smaller time is ignored, values are dated with the larger. */
    CHECK_OK(fw_form_tick(form, 100));
    CHECK(form_info(form).now_ms == 99999);
    CHECK_OK(fw_field_set_value(form, "username", "bob"));
    CHECK(next_due(form) == 100499);
    CHECK(!take(form, 5, &req));
    CHECK(take(form, 100499, &req) && req.r.id == 3);
    CHECK_OK(fw_form_free(form));
}

/* ---- out-of-order results, unknown / closed / not-yet-handed-out ids ---- */

static void out_of_order(void) {
    fw_form *form = username_form(0);
    taken_request slow, fast;
    fw_snapshot snap;
    char texts[512];
    CHECK_OK(fw_field_focus(form, "username"));
    CHECK_OK(fw_form_tick(form, 100));
    CHECK_OK(fw_field_set_value(form, "username", "ada"));
    CHECK(take(form, 100, &slow) && slow.r.id == 1);
    CHECK_OK(fw_form_tick(form, 150));
    CHECK_OK(fw_field_set_value(form, "username", "adam"));
    CHECK(take(form, 150, &fast) && fast.r.id == 2);
    CHECK_STR(fast.r.value, "adam");
    CHECK_STR(slow.r.value, "ada"); /* each request keeps its own texts */

    /* The second answers first; then the first, late: dropped as stale. */
    CHECK(!resolve(form, fast.r.id, FW_ASYNC_INVALID, "Username is already taken"));
    CHECK(validity(form, "username") == FW_VALIDITY_INVALID);
    CHECK_STR(message(form, "username"), "Username is already taken");
    CHECK(resolve(form, slow.r.id, FW_ASYNC_VALID, NULL));
    CHECK(validity(form, "username") == FW_VALIDITY_INVALID);
    CHECK_STR(message(form, "username"), "Username is already taken");
    CHECK(form_info(form).stale_results == 1);
    memset(&snap, 0, sizeof snap);
    snap.size = sizeof snap;
    CHECK_OK(fw_field_snapshot(form, "username", &snap, texts, sizeof texts));
    CHECK(snap.failing_rule == 2); /* after required and min_length */

    /* Errors change nothing. */
    CHECK_STATUS(fw_form_resolve(form, fast.r.id, FW_ASYNC_VALID, NULL, NULL), FW_ERR_REQUEST_CLOSED);
    CHECK_STATUS(fw_form_resolve(form, slow.r.id, FW_ASYNC_VALID, NULL, NULL), FW_ERR_REQUEST_CLOSED);
    CHECK_STATUS(fw_form_resolve(form, 999, FW_ASYNC_VALID, NULL, NULL), FW_ERR_UNKNOWN_REQUEST);
    CHECK_STATUS(fw_form_resolve(form, 0, FW_ASYNC_VALID, NULL, NULL), FW_ERR_UNKNOWN_REQUEST);
    CHECK_STATUS(fw_form_resolve(form, UINT64_MAX, FW_ASYNC_INVALID, "x", NULL), FW_ERR_UNKNOWN_REQUEST);
    CHECK(validity(form, "username") == FW_VALIDITY_INVALID);
    CHECK(form_info(form).stale_results == 1);

    /* Issued but not yet handed out: FW_ERR_INVALID_ARGUMENT, and it stays scheduled. */
    CHECK_OK(fw_form_add_field(form, "nick", NULL, NULL));
    CHECK_OK(fw_field_add_async_rule(form, "nick", "nick_free", 300, "That nickname is taken"));
    CHECK_OK(fw_field_set_value(form, "nick", "zed"));
    CHECK(next_due(form) == 450);
    CHECK_STATUS(fw_form_resolve(form, 3, FW_ASYNC_VALID, NULL, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK(validity(form, "nick") == FW_VALIDITY_PENDING && next_due(form) == 450);
    /* Not a verdict. */
    CHECK(take(form, 450, &slow) && slow.r.id == 3 && slow.r.field_index == 2);
    CHECK_STATUS(fw_form_resolve(form, 3, 3, NULL, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(fw_form_resolve(form, 3, -1, NULL, NULL), FW_ERR_INVALID_ARGUMENT);
    CHECK(validity(form, "nick") == FW_VALIDITY_PENDING);
    /* The rule's own message wins over the host's. */
    CHECK(!resolve(form, 3, FW_ASYNC_INVALID, "host says no"));
    CHECK_STR(message(form, "nick"), "That nickname is taken");
    CHECK_OK(fw_form_free(form));
}

/* ---- error verdicts and two rules on one field ---- */

static void errors_and_two_rules(void) {
    fw_form *form = NULL;
    taken_request a, b;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "name", NULL, NULL));
    CHECK_OK(fw_field_add_async_rule(form, "name", "first", 100, NULL));
    CHECK_OK(fw_field_add_async_rule(form, "name", "second", 100, NULL));
    CHECK_OK(fw_field_set_value(form, "name", "v1"));
    CHECK(next_due(form) == 100);
    /* Equal due times: the lowest id first. */
    CHECK(take(form, 100, &a) && a.r.id == 1);
    CHECK_STR(a.r.rule, "first");
    CHECK(take(form, 100, &b) && b.r.id == 2);
    CHECK_STR(b.r.rule, "second");
    CHECK(!resolve(form, 2, FW_ASYNC_VALID, NULL));
    CHECK(validity(form, "name") == FW_VALIDITY_PENDING); /* the first has not answered */
    CHECK(!resolve(form, 1, FW_ASYNC_ERROR, NULL));
    CHECK(validity(form, "name") == FW_VALIDITY_INVALID);
    CHECK_STR(message(form, "name"), "Could not check this value");

    CHECK_OK(fw_field_set_value(form, "name", "v2"));
    CHECK(take(form, 200, &a) && take(form, 200, &b));
    CHECK(!resolve(form, a.r.id, FW_ASYNC_ERROR, "Service unavailable"));
    CHECK(!resolve(form, b.r.id, FW_ASYNC_INVALID, NULL));
    CHECK_STR(message(form, "name"), "Service unavailable"); /* the first failing rule in rule order */

    CHECK_OK(fw_field_set_value(form, "name", "v3"));
    CHECK(take(form, 300, &a) && take(form, 300, &b));
    CHECK(!resolve(form, a.r.id, FW_ASYNC_VALID, "ignored with a valid verdict"));
    CHECK(!resolve(form, b.r.id, FW_ASYNC_INVALID, NULL));
    CHECK_STR(message(form, "name"), "Invalid value");
    CHECK_OK(fw_form_free(form));
}

/* ---- submit flushes and answers FW_SUBMIT_PENDING ---- */

static void submit_pending(void) {
    fw_form *form = username_form(500);
    taken_request req;
    bool valid = true;
    CHECK_OK(fw_field_add_group(form, "username", "account"));
    CHECK_OK(fw_field_add_group(form, "email", "contact"));
    CHECK_OK(fw_field_set_value(form, "email", "ada@example.com"));

    CHECK(submit(form, NULL) == FW_SUBMIT_INVALID); /* username is required */
    CHECK(form_info(form).submit_failed && form_info(form).submit_count == 1);

    CHECK_OK(fw_form_tick(form, 100));
    CHECK_OK(fw_field_set_value(form, "username", "ada"));
    CHECK(next_due(form) == 600);
    CHECK(!take(form, 100, &req));
    CHECK(submit(form, NULL) == FW_SUBMIT_PENDING);
    CHECK(next_due(form) == 100); /* flushed: due now, not at 600 */
    CHECK(!form_info(form).submit_failed && form_info(form).submit_count == 2);
    CHECK(form_info(form).pending_count == 1);
    CHECK(take(form, 100, &req) && req.r.due == 100);
    CHECK_STR(req.r.value, "ada");
    CHECK(submit(form, NULL) == FW_SUBMIT_PENDING); /* still waiting for the check */
    CHECK_OK(fw_form_validate(form, &valid));
    CHECK(!valid && !form_info(form).submit_failed);
    {
        char first[32];
        CHECK_OK(fw_form_first_invalid(form, first, sizeof first, NULL));
        CHECK_STR(first, ""); /* pending is not invalid */
    }
    CHECK(!resolve(form, req.r.id, FW_ASYNC_VALID, NULL));
    CHECK(submit(form, NULL) == FW_SUBMIT_VALID);
    CHECK(is_valid(form));

    /* A group submit flushes only its fields and leaves the counters alone. */
    CHECK_OK(fw_form_tick(form, 200));
    CHECK_OK(fw_field_set_value(form, "username", "ada_l"));
    CHECK(submit(form, "contact") == FW_SUBMIT_VALID);
    CHECK(next_due(form) == 700);
    CHECK(submit(form, "account") == FW_SUBMIT_PENDING);
    CHECK(next_due(form) == 200);
    CHECK(form_info(form).submit_count == 5); /* the group submits did not count */
    {
        int32_t outcome = 77;
        CHECK_STATUS(fw_form_submit(form, "nobody", &outcome), FW_ERR_INVALID_ARGUMENT);
    }
    CHECK(take(form, 200, &req));
    CHECK(!resolve(form, req.r.id, FW_ASYNC_INVALID, "Taken"));
    CHECK(submit(form, "account") == FW_SUBMIT_INVALID);
    CHECK(submit(form, NULL) == FW_SUBMIT_INVALID);
    CHECK(form_info(form).submit_failed);
    CHECK_OK(fw_form_free(form));
}

/* ---- a buffer too small hands nothing out ---- */

static void small_buffer(void) {
    fw_form *form = username_form(500);
    fw_request r;
    char small[64];
    bool found = false;
    size_t i;
    int untouched = 1;
    CHECK_OK(fw_form_tick(form, 1000));
    CHECK_OK(fw_field_set_value(form, "username", "ada_lovelace"));

    /* A size query: NULL buffer, size 0. */
    memset(&r, SENTINEL, sizeof r);
    r.size = sizeof r;
    CHECK_STATUS(fw_form_next_request(form, 1500, &r, NULL, 0, &found), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(found && r.id == 1 && r.due == 1500 && r.field_index == 0);
    CHECK(r.text_size == sizeof "username" + sizeof "ada_lovelace" + sizeof "username_available"); /* 41 */
    CHECK(r.field_id == NULL && r.value == NULL && r.rule == NULL);
    CHECK(form_info(form).now_ms == 1000); /* the clock did not move either */
    CHECK(next_due(form) == 1500);     /* still scheduled */

    /* One byte short: nothing copied, nothing handed out. */
    memset(small, SENTINEL, sizeof small);
    memset(&r, SENTINEL, sizeof r);
    r.size = sizeof r;
    CHECK_STATUS(fw_form_next_request(form, 1500, &r, small, 41 - 1, &found), FW_ERR_BUFFER_TOO_SMALL);
    CHECK(found && r.id == 1 && r.text_size == 41 && r.field_id == NULL && r.value == NULL && r.rule == NULL);
    for (i = 0; i < sizeof small; i++) untouched &= (unsigned char)small[i] == SENTINEL;
    CHECK(untouched);
    CHECK_STATUS(fw_form_resolve(form, 1, FW_ASYNC_VALID, NULL, NULL), FW_ERR_INVALID_ARGUMENT); /* not handed out */

    /* The exact size: handed out. */
    memset(&r, SENTINEL, sizeof r);
    r.size = sizeof r;
    CHECK_OK(fw_form_next_request(form, 1500, &r, small, 41, &found));
    CHECK(found && r.id == 1);
    CHECK_STR(r.value, "ada_lovelace");
    CHECK_STR(r.rule, "username_available");
    CHECK(r.field_id == small && r.rule + r.rule_length + 1 == small + 41);
    CHECK((unsigned char)small[41] == SENTINEL); /* nothing past text_size */
    CHECK(form_info(form).now_ms == 1500);
    CHECK(next_due(form) == UINT64_MAX);

    /* Nothing due: *out_found false, the request untouched (but its size), the clock ticked. */
    memset(&r, SENTINEL, sizeof r);
    r.size = sizeof r;
    CHECK_OK(fw_form_next_request(form, 2000, &r, NULL, 0, &found));
    CHECK(!found && r.id == (uint64_t)0x5A5A5A5A5A5A5A5AULL);
    CHECK(form_info(form).now_ms == 2000);
    CHECK(!resolve(form, 1, FW_ASYNC_VALID, NULL));
    CHECK_OK(fw_form_free(form));
}

/* ---- reset and fw_form_remove_field cancel ---- */

static void cancelling(void) {
    fw_form *form = username_form(300);
    taken_request req;
    bool stale = false;
    CHECK_OK(fw_form_tick(form, 1000));
    CHECK_OK(fw_field_set_value(form, "username", "adam"));
    CHECK(take(form, 1300, &req) && req.r.id == 1);
    CHECK_OK(fw_field_set_value(form, "username", "adam_")); /* request 2, scheduled */
    CHECK(next_due(form) == 1600);
    CHECK_OK(fw_form_reset(form));
    CHECK(validity(form, "username") == FW_VALIDITY_EMPTY);
    CHECK(next_due(form) == UINT64_MAX && form_info(form).pending_count == 0);
    CHECK(!take(form, 5000, &req));
    CHECK(resolve(form, 1, FW_ASYNC_VALID, NULL)); /* handed out before the reset: stale */
    CHECK(form_info(form).stale_results == 1);
    CHECK_STATUS(fw_form_resolve(form, 2, FW_ASYNC_VALID, NULL, NULL), FW_ERR_REQUEST_CLOSED); /* never handed out */
    CHECK(validity(form, "username") == FW_VALIDITY_EMPTY);

    /* reset with values cancels too. */
    CHECK_OK(fw_field_set_value(form, "username", "grace"));
    CHECK(take(form, 5300, &req) && req.r.id == 3);
    {
        const char *ids[1] = {"email"}, *values[1] = {"a@b.co"};
        CHECK_OK(fw_form_reset_values(form, ids, values, 1));
    }
    CHECK(resolve(form, 3, FW_ASYNC_VALID, NULL));
    CHECK(form_info(form).stale_results == 2);

    /* Removing the field: a handed-out request becomes stale, a scheduled one vanishes; a later
       field's requests carry its new index. */
    CHECK_OK(fw_form_add_field(form, "nick", NULL, NULL));
    CHECK_OK(fw_field_add_async_rule(form, "nick", "nick_free", 0, NULL));
    CHECK_OK(fw_field_set_value(form, "username", "grace"));
    CHECK(take(form, 5600, &req) && req.r.id == 4);
    CHECK_OK(fw_field_set_value(form, "username", "grace_h")); /* 5, scheduled at 5900 */
    CHECK_OK(fw_form_remove_field(form, "username"));
    CHECK(next_due(form) == UINT64_MAX);
    CHECK_OK(fw_form_resolve(form, 4, FW_ASYNC_INVALID, "x", &stale));
    CHECK(stale && form_info(form).stale_results == 3);
    CHECK_STATUS(fw_form_resolve(form, 5, FW_ASYNC_VALID, NULL, NULL), FW_ERR_REQUEST_CLOSED);
    CHECK_OK(fw_field_set_value(form, "nick", "zed"));
    CHECK(take(form, 5600, &req) && req.r.id == 6 && req.r.field_index == 1);
    CHECK_STR(req.r.field_id, "nick");
    CHECK(!resolve(form, 6, FW_ASYNC_VALID, NULL));
    CHECK(validity(form, "nick") == FW_VALIDITY_VALID);
    CHECK_OK(fw_form_free(form));
}

/* ---- the pending state in the snapshot ---- */

static void pending_snapshot(void) {
    fw_form *form = username_form(500);
    fw_snapshot snap;
    char texts[512];
    CHECK_OK(fw_field_focus(form, "username"));
    CHECK_OK(fw_field_set_value(form, "username", "ada"));
    memset(&snap, SENTINEL, sizeof snap);
    snap.size = sizeof snap;
    CHECK_OK(fw_field_snapshot(form, "username", &snap, texts, sizeof texts));
    CHECK(snap.phase == FW_PHASE_FOCUSED && snap.validity == FW_VALIDITY_PENDING);
    CHECK(snap.display == FW_DISPLAY_NONE && snap.tint == FW_TINT_ACCENT && snap.failing_rule == -1);
    CHECK(snap.error_count == 0 && snap.message_length == 0 && snap.emphasized && snap.label_raised);
    CHECK_STR(snap.message, "");
    CHECK_STR(snap.hint, "");
    CHECK_STR(snap.value, "ada");

    /* Inactive and touched: still pending, shown as nothing, tint accent. */
    CHECK_OK(fw_field_blur(form, "username"));
    memset(&snap, SENTINEL, sizeof snap);
    snap.size = sizeof snap;
    CHECK_OK(fw_field_snapshot(form, "username", &snap, texts, sizeof texts));
    CHECK(snap.phase == FW_PHASE_INACTIVE && snap.touched && snap.validity == FW_VALIDITY_PENDING);
    CHECK(snap.display == FW_DISPLAY_NONE && snap.tint == FW_TINT_ACCENT && snap.failing_rule == -1);
    CHECK_FIELD(form, "username", FW_PHASE_INACTIVE, FW_VALIDITY_PENDING, "", FW_DISPLAY_NONE, "", true);
    CHECK_OK(fw_form_free(form));
}

/* ---- fw_form_info's second version ---- */

static void form_info_v2(void) {
    fw_form *form = username_form(0);
    taken_request a, b;
    union {
        fw_form_info info;
        unsigned char bytes[sizeof(fw_form_info)];
    } v1;
    fw_form_info i;
    size_t k;
    int untouched = 1;
    CHECK_OK(fw_form_tick(form, 42));
    CHECK_OK(fw_field_set_value(form, "username", "ada"));
    CHECK(take(form, 50, &a));
    CHECK_OK(fw_field_set_value(form, "username", "adam"));
    CHECK(take(form, 60, &b));
    CHECK(resolve(form, a.r.id, FW_ASYNC_VALID, NULL));
    i = form_info(form);
    CHECK(i.size == sizeof i && i.field_count == 2 && i.pending_count == 1 && i.stale_results == 1 && i.now_ms == 60);

    /* A first-version caller gets the first version's members and nothing past them. */
    memset(&v1, SENTINEL, sizeof v1);
    v1.info.size = TEST_FORM_INFO_V1_SIZE;
    CHECK_OK(fw_form_get_info(form, &v1.info));
    CHECK(v1.info.field_count == 2 && v1.info.size == TEST_FORM_INFO_V1_SIZE);
    for (k = TEST_FORM_INFO_V1_SIZE; k < sizeof v1; k++) untouched &= v1.bytes[k] == SENTINEL;
    CHECK(untouched);
    CHECK(!resolve(form, b.r.id, FW_ASYNC_VALID, NULL));
    i = form_info(form);
    CHECK(i.pending_count == 0 && i.stale_results == 1);
    CHECK_OK(fw_form_free(form));
}

/* ---- FW_RULE_ASYNC in an fw_rule array ---- */

static void rule_array(void) {
    fw_form *form = NULL;
    fw_rule rules[4];
    fw_snapshot snap;
    taken_request req;
    char texts[512];
    CHECK_OK(fw_form_create(&form));
    rules[0] = test_rule(FW_RULE_ASYNC, -1, "username_available", "That username is taken"); /* default 500 */
    rules[1] = test_rule(FW_RULE_REQUIRED, 0, NULL, NULL);
    rules[2] = test_rule(FW_RULE_MIN_LENGTH, 3, NULL, NULL);
    rules[3] = test_rule(FW_RULE_ASYNC, 0, "not_reserved", NULL);
    rules[3].hint = "Pick another name";
    CHECK_OK(fw_form_add_field_with_rules(form, "user", NULL, "initial", rules, 4));
    CHECK(next_due(form) == UINT64_MAX); /* the initial value counts as checked */
    CHECK_OK(fw_form_tick(form, 10));
    CHECK_OK(fw_field_set_value(form, "user", "root"));
    CHECK(next_due(form) == 10);
    CHECK(take(form, 10, &req) && req.r.id == 2);
    CHECK_STR(req.r.rule, "not_reserved");
    CHECK(!resolve(form, 2, FW_ASYNC_INVALID, "Reserved name"));
    CHECK(validity(form, "user") == FW_VALIDITY_PENDING); /* the other rule is still scheduled */
    CHECK(next_due(form) == 510);
    CHECK(take(form, 510, &req) && req.r.id == 1);
    CHECK_STR(req.r.rule, "username_available");
    CHECK(!resolve(form, 1, FW_ASYNC_INVALID, "host message"));
    CHECK_OK(fw_field_touch(form, "user"));
    memset(&snap, 0, sizeof snap);
    snap.size = sizeof snap;
    CHECK_OK(fw_field_snapshot(form, "user", &snap, texts, sizeof texts));
    CHECK(snap.validity == FW_VALIDITY_INVALID && snap.failing_rule == 2); /* the first async rule */
    CHECK_STR(snap.message, "That username is taken");
    CHECK_OK(fw_form_free(form));
}

/* ---- which fields wait, whatever their modes show; focus; group membership ---- */

static void pending_fields_focus_and_groups(void) {
    fw_form *form = username_form(500);
    CHECK_OK(fw_field_set_mode(form, "username", FW_MODE_ON_BLUR));
    CHECK_OK(fw_field_add_group(form, "email", "contact"));
    size_t indices[4] = {9, 9, 9, 9};
    size_t count = 9, index = 9;
    bool focused = true, member = false;
    CHECK_OK(fw_form_focused_field(form, &index, &focused));
    CHECK(!focused && index == 0);
    CHECK_OK(fw_field_focus(form, "username"));
    CHECK_OK(fw_form_focused_field(form, &index, &focused));
    CHECK(focused && index == 0);
    CHECK_OK(fw_form_tick(form, 1000));
    CHECK_OK(fw_field_set_value(form, "username", "adam"));
    /* on_blur shows nothing yet, but the field waits for its check */
    CHECK(validity(form, "username") == FW_VALIDITY_EMPTY);
    CHECK_STATUS(fw_form_pending_fields(form, NULL, 0, &count), FW_ERR_BUFFER_TOO_SMALL); /* a count query */
    CHECK(count == 1);
    CHECK_STATUS(fw_form_pending_fields(form, NULL, 1, &count), FW_ERR_NULL_ARGUMENT);
    CHECK_OK(fw_form_pending_fields(form, indices, 4, &count));
    CHECK(count == 1 && indices[0] == 0 && indices[1] == 9);
    CHECK_OK(fw_field_focus(form, "email"));
    CHECK_OK(fw_form_focused_field(form, &index, &focused));
    CHECK(focused && index == 1);
    CHECK_OK(fw_field_in_group(form, "email", "contact", &member));
    CHECK(member);
    CHECK_OK(fw_field_in_group(form, "username", "contact", &member));
    CHECK(!member);
    CHECK_STATUS(fw_field_in_group(form, "nope", "contact", &member), FW_ERR_UNKNOWN_FIELD);
    CHECK_STATUS(fw_field_in_group(form, "email", NULL, &member), FW_ERR_NULL_ARGUMENT);
    CHECK_STATUS(fw_form_focused_field(form, NULL, &focused), FW_ERR_NULL_ARGUMENT);
    CHECK_OK(fw_form_free(form));
    CHECK_STATUS(fw_form_pending_fields(form, indices, 4, &count), FW_ERR_INVALID_HANDLE);
}

/* A field nobody touched stays idle (it reads FW_VALIDITY_EMPTY) when a change of the field its
   `matches` rule names makes its value eligible, yet its check is scheduled: it is pending for
   fw_form_info, fw_form_pending_fields and fw_form_is_valid (found by CallSequences, whose check
   counted only fields that read FW_VALIDITY_PENDING). */
static void pending_while_idle(void) {
    fw_form *form;
    fw_form_info info;
    size_t indices[2] = {9, 9}, count = 9;
    CHECK_OK(fw_form_create(&form));
    CHECK_OK(fw_form_add_field(form, "password", NULL, "x"));
    CHECK_OK(fw_form_add_field(form, "confirm", NULL, "y"));
    CHECK_OK(fw_field_add_matches(form, "confirm", "password", NULL));
    CHECK_OK(fw_field_add_async_rule(form, "confirm", "breached", 0, NULL));
    CHECK(next_due(form) == UINT64_MAX); /* the current value counts as checked */
    CHECK_OK(fw_field_set_value(form, "password", "y"));
    CHECK(validity(form, "confirm") == FW_VALIDITY_EMPTY);
    CHECK_OK(fw_form_pending_fields(form, indices, 2, &count));
    CHECK(count == 1 && indices[0] == 1 && indices[1] == 9);
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(fw_form_get_info(form, &info));
    CHECK(info.pending_count == 1);
    CHECK(next_due(form) == 0);
    CHECK(!is_valid(form));
    CHECK_OK(fw_form_free(form));
}

int main(void) {
    pending_while_idle();
    pending_fields_focus_and_groups();
    debounce();
    out_of_order();
    errors_and_two_rules();
    submit_pending();
    small_buffer();
    cancelling();
    pending_snapshot();
    form_info_v2();
    rule_array();
    CHECK(fw_form_live_count() == 0);
    return check_summary("async_test");
}
