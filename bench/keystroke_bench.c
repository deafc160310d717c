/* keystroke_bench: what one keystroke costs in Formwell (set a field's value and read its whole
   state back), against raw PCRE2 JIT matching of the same values, measured in the same run.
   Rows 1-4 of bench/README.md:
     1  [email] field, four ways of calling (update_at; set_value_at + snapshot_at; by id; by id
        with single-member reads of the validity and the message instead of a snapshot)
        vs pcre2_jit_match of seed 02's e-mail pattern;
     2  regex ^[a-z0-9_]{3,20}$ field, the same four ways, vs pcre2_jit_match of that pattern;
     3  a field with no rules (update_at) vs one e-mail match per value;
     4  keystroke on field #0 of a 1,000-field form vs a 10-field form.
   Rows 1v1, 2v1 and 3v1 (not judged): update_at with the caller declaring the first version's
   struct (up to `value`: the members and three texts issue 9 defined), so the library writes only
   those; the judged rows declare the whole version-4 struct (13 texts).
   Every pass goes over the same BENCH_COUNT generated values; each figure is the best of
   BENCH_ROUNDS rounds, after one warm-up round, with the passes of a row interleaved in every round
   (order reversed every other round). Exit status 1 when a sanity check fails (Formwell's verdicts
   disagree with PCRE2's matches, or a call fails); timings never fail the run. */
#include "bench_common.h"

static char emails[BENCH_COUNT][EMAIL_LEN];
static char usernames[BENCH_COUNT][USERNAME_LEN];

enum pass_kind { RAW_MATCH, UPDATE_AT, SET_AT_SNAPSHOT_AT, BY_ID, MEMBERS_BY_ID, UPDATE_AT_V1 };

/* One timed loop over the values. */
typedef struct {
    const char *label;
    enum pass_kind kind;
    const char *values; /* values[i] is at values + i * stride */
    size_t stride;
    pcre2_code *code; /* RAW_MATCH */
    pcre2_match_data *data;
    fw_form *form; /* Formwell passes: the field by index or id */
    size_t index;
    const char *id;
    int expected; /* matches (RAW_MATCH) or valid verdicts expected per pass */
    double best;  /* seconds */
    int failed;   /* a sanity failure was reported for this pass */
} pass;

static int run_pass(pass *p) {
    int i, count = 0, errors = 0;
    double start;
    fw_snapshot s = bench_snapshot();
    char buf[BENCH_TEXT];

    if (p->kind == UPDATE_AT_V1) s.size = bench_snapshot_v1_size();
    start = bench_now();
    switch (p->kind) {
    case RAW_MATCH:
        for (i = 0; i < BENCH_COUNT; i++) {
            const char *v = p->values + (size_t)i * p->stride;
            count += pcre2_jit_match(p->code, (PCRE2_SPTR)v, strlen(v), 0, 0, p->data, NULL) >= 0;
        }
        break;
    case UPDATE_AT:
    case UPDATE_AT_V1:
        for (i = 0; i < BENCH_COUNT; i++) {
            errors += fw_field_update_at(p->form, p->index, p->values + (size_t)i * p->stride, &s, buf, sizeof buf) != FW_OK;
            count += s.validity == FW_VALIDITY_VALID;
        }
        break;
    case SET_AT_SNAPSHOT_AT:
        for (i = 0; i < BENCH_COUNT; i++) {
            errors += fw_field_set_value_at(p->form, p->index, p->values + (size_t)i * p->stride) != FW_OK;
            errors += fw_field_snapshot_at(p->form, p->index, &s, buf, sizeof buf) != FW_OK;
            count += s.validity == FW_VALIDITY_VALID;
        }
        break;
    case BY_ID:
        for (i = 0; i < BENCH_COUNT; i++) {
            errors += fw_field_set_value(p->form, p->id, p->values + (size_t)i * p->stride) != FW_OK;
            errors += fw_field_snapshot(p->form, p->id, &s, buf, sizeof buf) != FW_OK;
            count += s.validity == FW_VALIDITY_VALID;
        }
        break;
    case MEMBERS_BY_ID:
        for (i = 0; i < BENCH_COUNT; i++) {
            fw_validity validity = FW_VALIDITY_EMPTY;
            size_t length = 0;
            errors += fw_field_set_value(p->form, p->id, p->values + (size_t)i * p->stride) != FW_OK;
            errors += fw_field_validity(p->form, p->id, &validity) != FW_OK;
            errors += fw_field_message(p->form, p->id, buf, sizeof buf, &length) != FW_OK;
            count += validity == FW_VALIDITY_VALID;
        }
        break;
    }
    bench_keep_min(&p->best, bench_now() - start);

    if (!p->failed && (errors || count != p->expected)) {
        bench_fail("%s: %d %s of %d values (expected %d), %d failed calls", p->label, count,
                   p->kind == RAW_MATCH ? "matches" : "valid verdicts", BENCH_COUNT, p->expected, errors);
        p->failed = 1;
    }
    return count;
}

/* One warm-up round, then BENCH_ROUNDS timed rounds; passes interleaved, order reversed every other round. */
static void run_rounds(pass *passes, int n) {
    int round, k;
    for (round = 0; round <= BENCH_ROUNDS; round++) {
        for (k = 0; k < n; k++) run_pass(&passes[round % 2 ? n - 1 - k : k]);
        if (round == 0)
            for (k = 0; k < n; k++) passes[k].best = 1e30;
    }
}

static double ns_per_value(const pass *p) { return p->best * 1e9 / BENCH_COUNT; }

static int count_matches(pcre2_code *code, pcre2_match_data *data, const char *values, size_t stride) {
    int i, count = 0;
    for (i = 0; i < BENCH_COUNT; i++) {
        const char *v = values + (size_t)i * stride;
        count += pcre2_jit_match(code, (PCRE2_SPTR)v, strlen(v), 0, 0, data, NULL) >= 0;
    }
    return count;
}

/* Untimed: Formwell's verdict on every value agrees with PCRE2's match (not just the counts). */
static void verify_each(const char *what, fw_form *form, size_t index, pcre2_code *code, pcre2_match_data *data,
                        const char *values, size_t stride) {
    int i;
    fw_snapshot s = bench_snapshot();
    char buf[BENCH_TEXT];
    for (i = 0; i < BENCH_COUNT; i++) {
        const char *v = values + (size_t)i * stride;
        int matched = pcre2_jit_match(code, (PCRE2_SPTR)v, strlen(v), 0, 0, data, NULL) >= 0;
        fw_status status = fw_field_update_at(form, index, v, &s, buf, sizeof buf);
        if (status != FW_OK || matched != (s.validity == FW_VALIDITY_VALID)) {
            bench_fail("%s: value \"%s\": PCRE2 %s, Formwell status %d validity %d message \"%s\"", what, v,
                       matched ? "matches" : "does not match", (int)status, (int)s.validity,
                       s.message ? s.message : "");
            return;
        }
    }
}

static fw_form *single_field_form(const char *id, int with_email, const char *pattern) {
    fw_form *form;
    bench_setup(fw_form_create(&form), "fw_form_create");
    bench_setup(fw_form_add_field(form, id, NULL, NULL), "fw_form_add_field");
    if (with_email) bench_setup(fw_field_add_email(form, id, NULL), "fw_field_add_email");
    if (pattern) bench_setup(fw_field_add_regex(form, id, pattern, NULL), "fw_field_add_regex");
    bench_setup(fw_field_focus_at(form, 0), "fw_field_focus_at"); /* typing: the lenient stage */
    return form;
}

/* Rows 1 and 2: four ways of calling against the raw match. */
static void four_ways(const char *row, const char *what, fw_form *form, const char *id, pcre2_code *code,
                       pcre2_match_data *data, const char *values, size_t stride) {
    int matched = count_matches(code, data, values, stride);
    pass passes[6];
    char ids[4][8], names[4][96], v1_id[8], v1_name[96];
    int k;

    verify_each(what, form, 0, code, data, values, stride);
    memset(passes, 0, sizeof passes);
    for (k = 0; k < 6; k++) {
        passes[k].values = values;
        passes[k].stride = stride;
        passes[k].form = form;
        passes[k].index = 0;
        passes[k].id = id;
        passes[k].code = code;
        passes[k].data = data;
        passes[k].expected = matched;
    }
    passes[0].kind = RAW_MATCH;
    passes[0].label = "raw pcre2_jit_match";
    passes[1].kind = UPDATE_AT;
    passes[1].label = "fw_field_update_at";
    passes[2].kind = SET_AT_SNAPSHOT_AT;
    passes[2].label = "fw_field_set_value_at + fw_field_snapshot_at";
    passes[3].kind = BY_ID;
    passes[3].label = "fw_field_set_value + fw_field_snapshot";
    passes[4].kind = MEMBERS_BY_ID;
    passes[4].label = "fw_field_set_value + fw_field_validity + fw_field_message";
    passes[5].kind = UPDATE_AT_V1;
    passes[5].label = "fw_field_update_at, first-version snapshot";
    run_rounds(passes, 6);

    snprintf(names[0], sizeof names[0], "%s: update_at (set + snapshot, 1 call)", what);
    snprintf(names[1], sizeof names[1], "%s: set_value_at + snapshot_at", what);
    snprintf(names[2], sizeof names[2], "%s: set_value + snapshot (by id)", what);
    snprintf(names[3], sizeof names[3], "%s: set_value + validity + message (by id)", what);
    for (k = 0; k < 4; k++) {
        snprintf(ids[k], sizeof ids[k], "%s%c", row, 'a' + k);
        bench_row(ids[k], names[k], ns_per_value(&passes[k + 1]), ns_per_value(&passes[0]), "ns",
                  passes[k + 1].best / passes[0].best, 0, 3.0, k == 0);
    }
    snprintf(v1_id, sizeof v1_id, "%sv1", row);
    snprintf(v1_name, sizeof v1_name, "%s: update_at, first-version struct", what);
    bench_row(v1_id, v1_name, ns_per_value(&passes[5]), ns_per_value(&passes[0]), "ns",
              passes[5].best / passes[0].best, 0, 3.0, 0);
}

/* Row 4: a form of `fields` fields, each required + min_length(3) + the username regex; field #0 focused. */
static fw_form *wide_form(int fields) {
    fw_form *form;
    fw_rule rules[3];
    int i, k;
    memset(rules, 0, sizeof rules);
    for (k = 0; k < 3; k++) rules[k].size = sizeof(fw_rule);
    rules[0].kind = FW_RULE_REQUIRED;
    rules[1].kind = FW_RULE_MIN_LENGTH;
    rules[1].length = 3;
    rules[2].kind = FW_RULE_REGEX;
    rules[2].text = USERNAME_PATTERN;
    bench_setup(fw_form_create(&form), "fw_form_create");
    for (i = 0; i < fields; i++) {
        char id[16];
        snprintf(id, sizeof id, "field%04d", i);
        bench_setup(fw_form_add_field_with_rules(form, id, NULL, NULL, rules, 3), "fw_form_add_field_with_rules");
    }
    bench_setup(fw_field_focus_at(form, 0), "fw_field_focus_at");
    return form;
}

int main(void) {
    pcre2_code *email_code, *username_code;
    pcre2_match_data *data;
    fw_form *email_form, *regex_form, *plain_form, *wide, *narrow;
    int email_matches, username_matches;

    bench_make_emails(emails, BENCH_COUNT, 12345u);
    bench_make_usernames(usernames, BENCH_COUNT, 67890u);
    email_code = bench_compile(EMAIL_PATTERN);
    username_code = bench_compile(USERNAME_PATTERN);
    data = pcre2_match_data_create(1, NULL);
    email_matches = count_matches(email_code, data, emails[0], EMAIL_LEN);
    username_matches = count_matches(username_code, data, usernames[0], USERNAME_LEN);
    printf("keystroke_bench: libformwell %s; %d values per pass (%d e-mails valid, %d usernames valid), "
           "best of %d interleaved rounds after 1 warm-up\n",
           fw_version(), BENCH_COUNT, email_matches, username_matches, BENCH_ROUNDS);

    /* Row 1: [email]. */
    email_form = single_field_form("email", 1, NULL);
    four_ways("1", "[email]", email_form, "email", email_code, data, emails[0], EMAIL_LEN);

    /* Row 2: regex ^[a-z0-9_]{3,20}$. */
    regex_form = single_field_form("username", 0, USERNAME_PATTERN);
    four_ways("2", "[regex username]", regex_form, "username", username_code, data, usernames[0],
               USERNAME_LEN);

    /* Row 3: no rules at all (every non-empty value is valid) vs one e-mail match. */
    plain_form = single_field_form("plain", 0, NULL);
    {
        pass passes[3];
        memset(passes, 0, sizeof passes);
        passes[0].label = "raw pcre2_jit_match (e-mail)";
        passes[0].kind = RAW_MATCH;
        passes[0].code = email_code;
        passes[0].data = data;
        passes[0].expected = email_matches;
        passes[1].label = "fw_field_update_at (no rules)";
        passes[1].kind = UPDATE_AT;
        passes[1].form = plain_form;
        passes[1].expected = BENCH_COUNT;
        passes[2] = passes[1];
        passes[2].label = "fw_field_update_at (no rules), first-version snapshot";
        passes[2].kind = UPDATE_AT_V1;
        passes[0].values = passes[1].values = passes[2].values = emails[0];
        passes[0].stride = passes[1].stride = passes[2].stride = EMAIL_LEN;
        run_rounds(passes, 3);
        bench_row("3", "no rules: update_at vs 1 raw e-mail match", ns_per_value(&passes[1]),
                  ns_per_value(&passes[0]), "ns", passes[1].best / passes[0].best, 0, 1.5, 1);
        bench_row("3v1", "no rules: update_at, first-version struct", ns_per_value(&passes[2]),
                  ns_per_value(&passes[0]), "ns", passes[2].best / passes[0].best, 0, 1.5, 0);
    }

    /* Row 4: keystroke on field #0, 1,000 fields vs 10. */
    wide = wide_form(1000);
    narrow = wide_form(10);
    verify_each("1000-field form, field #0", wide, 0, username_code, data, usernames[0], USERNAME_LEN);
    verify_each("10-field form, field #0", narrow, 0, username_code, data, usernames[0], USERNAME_LEN);
    {
        pass passes[2];
        int k;
        memset(passes, 0, sizeof passes);
        for (k = 0; k < 2; k++) {
            passes[k].kind = UPDATE_AT;
            passes[k].values = usernames[0];
            passes[k].stride = USERNAME_LEN;
            passes[k].expected = username_matches;
        }
        passes[0].label = "fw_field_update_at, 10-field form";
        passes[0].form = narrow;
        passes[1].label = "fw_field_update_at, 1000-field form";
        passes[1].form = wide;
        run_rounds(passes, 2);
        bench_row("4", "keystroke: 1000-field form vs 10-field form", ns_per_value(&passes[1]),
                  ns_per_value(&passes[0]), "ns", passes[1].best / passes[0].best, 0, 1.2, 1);
    }

    fw_form_free(email_form);
    fw_form_free(regex_form);
    fw_form_free(plain_form);
    fw_form_free(wide);
    fw_form_free(narrow);
    pcre2_match_data_free(data);
    pcre2_code_free(email_code);
    pcre2_code_free(username_code);
    if (bench_failures) {
        fprintf(stderr, "keystroke_bench: %d sanity check(s) failed\n", bench_failures);
        return 1;
    }
    return 0;
}
