/* batch_bench.c: rows 7a-7b, the batch API from C (issue "Bulk validation faster than pydantic").
   100,000 registration records (examples/registration.json's rules; generated values, most of them
   invalid in some field, so every rule runs) as int32-offset columns.
     7a  fw_form_check_batch on the calling thread vs the same records submitted one by one through
         the interactive API (fw_field_set_value_at for each field + fw_form_validate on one form):
         what the batch path saves per record.
     7b  fw_form_check_batch with threads = 0 (every core) vs threads = 1: throughput ratio.
   Sanity: every record's verdict from the batch equals the interactive submit's. */
#include "bench_common.h"

#define FIELDS 5
#define PASSWORD_LEN 24

static const char *SPEC =
    "{\"formwell\": 1, \"fields\": ["
    "{\"id\": \"name\", \"rules\": [{\"rule\": \"required\", \"message\": \"Name is required\"}]},"
    "{\"id\": \"email\", \"rules\": [{\"rule\": \"required\"}, {\"rule\": \"email\"}]},"
    "{\"id\": \"username\", \"rules\": [{\"rule\": \"required\"}, {\"rule\": \"min_length\", \"length\": 3},"
    " {\"rule\": \"max_length\", \"length\": 20}, {\"rule\": \"regex\", \"pattern\": \"^[a-z0-9_]+$\"}]},"
    "{\"id\": \"password\", \"rules\": [{\"rule\": \"required\"}, {\"rule\": \"min_length\", \"length\": 8},"
    " {\"rule\": \"regex\", \"pattern\": \".*[A-Z].*\"}, {\"rule\": \"regex\", \"pattern\": \".*[0-9].*\"}]},"
    "{\"id\": \"confirm\", \"rules\": [{\"rule\": \"required\"}, {\"rule\": \"matches\", \"field\": \"password\"}]}"
    "]}";

typedef struct {
    char *data;
    int32_t *offsets;
    size_t size;
} column_data;

/* Appends value to the column (record index i). */
static void put(column_data *c, int i, const char *value) {
    size_t n = strlen(value);
    memcpy(c->data + c->size, value, n);
    c->size += n;
    c->offsets[i + 1] = (int32_t)c->size;
}

int main(void) {
    static char emails[BENCH_COUNT][EMAIL_LEN], usernames[BENCH_COUNT][USERNAME_LEN];
    static char passwords[BENCH_COUNT][PASSWORD_LEN], confirms[BENCH_COUNT][PASSWORD_LEN];
    static const char *names[] = {"Ada Lovelace", "Grace Hopper", "", "Alan Turing", "Edsger Dijkstra"};
    column_data columns[FIELDS];
    fw_column described[FIELDS];
    fw_form *form;
    unsigned seed = 7;
    int i, f, round;

    bench_make_emails(emails, BENCH_COUNT, 11);
    bench_make_usernames(usernames, BENCH_COUNT, 13);
    for (i = 0; i < BENCH_COUNT; i++) {
        unsigned r = bench_next(&seed);
        snprintf(passwords[i], PASSWORD_LEN, r % 5 == 0 ? "short%u" : r % 5 == 1 ? "nouppercase%u" : "Correct%u!", r % 9999);
        if (r % 7 == 0) snprintf(confirms[i], PASSWORD_LEN, "Other%u", r % 99);
        else memcpy(confirms[i], passwords[i], PASSWORD_LEN);
    }
    for (f = 0; f < FIELDS; f++) {
        columns[f].data = malloc((size_t)BENCH_COUNT * 64);
        columns[f].offsets = calloc(BENCH_COUNT + 1, sizeof(int32_t));
        columns[f].size = 0;
        if (!columns[f].data || !columns[f].offsets) return 2;
    }
    for (i = 0; i < BENCH_COUNT; i++) {
        put(&columns[0], i, names[i % 5]);
        put(&columns[1], i, emails[i]);
        put(&columns[2], i, usernames[i]);
        put(&columns[3], i, passwords[i]);
        put(&columns[4], i, confirms[i]);
    }
    memset(described, 0, sizeof described);
    for (f = 0; f < FIELDS; f++) {
        described[f].size = sizeof(fw_column);
        described[f].offsets = columns[f].offsets;
        described[f].data = columns[f].data;
        described[f].data_size = columns[f].size;
        described[f].offset_size = 4;
    }
    bench_setup(fw_form_create(&form), "fw_form_create");
    bench_setup(fw_form_load_spec(form, SPEC), "fw_form_load_spec");

    static uint8_t valid_one[BENCH_COUNT], valid_all[BENCH_COUNT], valid_each[BENCH_COUNT];
    static int32_t failing[BENCH_COUNT * FIELDS];
    double best_one = 1e9, best_all = 1e9, best_each = 1e9;
    size_t invalid = 0;
    for (round = 0; round <= BENCH_ROUNDS; round++) {  /* round 0 warms up, untimed */
        double t0 = bench_now();
        bench_setup(fw_form_check_batch(form, described, FIELDS, BENCH_COUNT, 1, valid_one, failing, NULL, &invalid),
                    "fw_form_check_batch (1 thread)");
        double t1 = bench_now();
        bench_setup(fw_form_check_batch(form, described, FIELDS, BENCH_COUNT, 0, valid_all, failing, NULL, &invalid),
                    "fw_form_check_batch (every core)");
        double t2 = bench_now();
        for (i = 0; i < BENCH_COUNT; i++) {
            bool ok = false;
            bench_setup(fw_field_set_value_at(form, 0, names[i % 5]), "set name");
            bench_setup(fw_field_set_value_at(form, 1, emails[i]), "set email");
            bench_setup(fw_field_set_value_at(form, 2, usernames[i]), "set username");
            bench_setup(fw_field_set_value_at(form, 3, passwords[i]), "set password");
            bench_setup(fw_field_set_value_at(form, 4, confirms[i]), "set confirm");
            bench_setup(fw_form_validate(form, &ok), "validate");
            valid_each[i] = ok;
        }
        double t3 = bench_now();
        if (round > 0) {
            bench_keep_min(&best_one, t1 - t0);
            bench_keep_min(&best_all, t2 - t1);
            bench_keep_min(&best_each, t3 - t2);
        }
    }
    for (i = 0; i < BENCH_COUNT; i++) {
        if (valid_one[i] != valid_each[i] || valid_all[i] != valid_each[i]) {
            bench_fail("record %d: batch says %d/%d, a submit says %d", i, valid_one[i], valid_all[i], valid_each[i]);
            break;
        }
    }
    double per_one = best_one / BENCH_COUNT * 1e9, per_all = best_all / BENCH_COUNT * 1e9;
    double per_each = best_each / BENCH_COUNT * 1e9;
    char note[200];
    bench_row("7a", "C batch, 1 thread vs per-record submit (ns/record)", per_one, per_each, "ns", per_one / per_each,
              0, 0.5, 0);
    bench_row("7b", "C batch, every core vs 1 thread (krecords/s)", 1e6 / per_all, 1e6 / per_one, "k/s",
              per_one / per_all, 1, 1.7, 0);
    snprintf(note, sizeof note, "%zu of %d records invalid; batch: %.0f ns/record on 1 thread = %.0f ns per field; "
             "%.2fM records/s on every core", invalid, BENCH_COUNT, per_one, per_one / FIELDS, 1e3 / per_all);
    bench_note("7", note);
    fw_form_free(form);
    for (f = 0; f < FIELDS; f++) {
        free(columns[f].data);
        free(columns[f].offsets);
    }
    return bench_failures ? 1 : 0;
}
