/* Formwell's regex verdicts on the ReDoS corpus against raw PCRE2 with a plain 1,000,000-step
 * limit: for each pattern PCRE2 accepts, its attack string (attack_prefix + pump x pump_count +
 * suffix, at most 1 MB) is checked with fw_check_value and matched by PCRE2 as Formwell compiles
 * it (UTF, anchored at both ends, JIT). It counts the calls both decide, those neither decides,
 * those Formwell refuses as too complex although PCRE2 decides them (by value length), and
 * disagreements. Exit status 1 on any disagreement (a decided verdict that differs): a sanity check,
 * not a target. Counts of steps, not times: the same output on any machine and load. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <jansson.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formwell.h"

enum { RAW_NO_MATCH = 0, RAW_MATCH = 1, RAW_LIMIT = -1, RAW_REFUSED = -2 };

static int raw_verdict(const char *pattern, const char *value, size_t length) {
    int code;
    PCRE2_SIZE offset;
    pcre2_code *compiled = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                         PCRE2_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED, &code, &offset, NULL);
    if (compiled == NULL) return RAW_REFUSED;
    pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE);
    pcre2_match_context *context = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(context, 1000000);
    pcre2_match_data *data = pcre2_match_data_create(1, NULL);
    int result = pcre2_match(compiled, (PCRE2_SPTR)value, length, 0, 0, data, context);
    pcre2_match_data_free(data);
    pcre2_match_context_free(context);
    pcre2_code_free(compiled);
    if (result >= 0) return RAW_MATCH;
    return result == PCRE2_ERROR_NOMATCH ? RAW_NO_MATCH : RAW_LIMIT;
}

static char *attack(json_t *entry, size_t *length) {
    const char *prefix = json_string_value(json_object_get(entry, "attack_prefix"));
    const char *pump = json_string_value(json_object_get(entry, "pump"));
    const char *suffix = json_string_value(json_object_get(entry, "suffix"));
    json_int_t count = json_integer_value(json_object_get(entry, "pump_count"));
    if (prefix == NULL || pump == NULL || suffix == NULL || count < 0) return NULL;
    size_t total = strlen(prefix) + strlen(pump) * (size_t)count + strlen(suffix);
    if (total > 1000000) return NULL;
    char *value = malloc(total + 1), *end = value;
    if (value == NULL) return NULL;
    end += sprintf(end, "%s", prefix);
    for (json_int_t i = 0; i < count; i++) end += sprintf(end, "%s", pump);
    sprintf(end, "%s", suffix);
    *length = total;
    return value;
}

int main(int argc, char **argv) {
    json_error_t error;
    json_t *corpus = json_load_file(argc > 1 ? argv[1] : "Tests/Corpora/redos_patterns.json", 0, &error);
    if (!json_is_array(corpus)) {
        fprintf(stderr, "redos_agreement: cannot read the corpus: %s\n", error.text);
        return 2;
    }
    size_t calls = 0, same = 0, neither = 0, formwell_only = 0, disagree = 0, refused = 0, refused_valid = 0;
    size_t refused_short = 0, shortest_refused = (size_t)-1;
    for (size_t i = 0; i < json_array_size(corpus); i++) {
        json_t *entry = json_array_get(corpus, i);
        const char *pattern = json_string_value(json_object_get(entry, "pattern"));
        size_t length = 0;
        char *value = pattern ? attack(entry, &length) : NULL;
        if (value == NULL) continue;
        int raw = raw_verdict(pattern, value, length);
        json_t *rules = json_pack("[{s:s,s:s}]", "rule", "regex", "pattern", pattern);
        char *rules_text = json_dumps(rules, 0);
        fw_check_result verdict = {.size = sizeof verdict};
        fw_status status = fw_check_value(rules_text, value, NULL, &verdict, NULL, 0);
        if (raw != RAW_REFUSED && (status == FW_OK || status == FW_ERR_BUFFER_TOO_SMALL)) {
            calls++;
            int decided = verdict.limit_exceeded ? RAW_LIMIT
                        : verdict.validity == FW_VALIDITY_INVALID ? RAW_NO_MATCH : RAW_MATCH;
            if (raw == RAW_LIMIT) {
                if (decided == RAW_LIMIT) neither++; else formwell_only++;
            } else if (decided == RAW_LIMIT) {
                refused++;
                if (raw == RAW_MATCH) refused_valid++;
                if (length <= 1024) refused_short++;
                if (length < shortest_refused) shortest_refused = length;
            } else if (decided != raw) {
                disagree++;
                printf("    disagrees: entry %zu, %zu bytes: PCRE2 %s, Formwell %s\n", i, length,
                       raw == RAW_MATCH ? "matches" : "does not match", decided == RAW_MATCH ? "valid" : "invalid");
            } else {
                same++;
            }
        }
        free(rules_text);
        json_decref(rules);
        free(value);
    }
    printf("redos_agreement: %zu calls. Both decide, alike: %zu. Neither decides: %zu. Only Formwell "
           "decides: %zu. PCRE2 decides, Formwell refuses: %zu (%zu of them valid values; %zu of at "
           "most 1 KiB; the shortest %zu bytes). Disagreements: %zu.\n",
           calls, same, neither, formwell_only, refused, refused_valid, refused_short,
           refused ? shortest_refused : 0, disagree);
    json_decref(corpus);
    return disagree ? 1 : 0;
}
