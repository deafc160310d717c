/* threads_bench: row 5 of bench/README.md. Does Formwell scale across threads when each thread
   works on its own form? Two threads, each with its own form (one focused [email] field), each
   doing the same fixed work (PASSES passes of fw_field_update_at over the BENCH_COUNT generated
   e-mails), against one thread doing that work alone on one form, in the same run:
       throughput ratio = (2 x work / wall time with 2 threads) / (work / wall time with 1 thread).
   Threads start together behind a barrier; wall time runs from the first thread's start to the last
   thread's end. Row 5r measures the same with raw pcre2_jit_match instead of Formwell (RAW_PASSES
   passes, about as long), to show what this machine's two cores give at all. Best of BENCH_ROUNDS
   rounds after one warm-up; every round runs all four (Formwell and raw, 1 and 2 threads) in a
   rotating order. A note under each row tells how much CPU the best 2-thread round actually got.
   Exit status 1 when a sanity check fails (a thread's valid count differs from PCRE2's). */
#include "bench_common.h"

#include <pthread.h>

#define PASSES 3      /* passes over the values per thread and round (Formwell) */
#define RAW_PASSES 15 /* the same for raw PCRE2, about as long a run as Formwell's */

static char emails[BENCH_COUNT][EMAIL_LEN];

typedef struct {
    int raw; /* 1: raw pcre2_jit_match, 0: fw_field_update_at */
    int passes;
    fw_form *form;
    pcre2_code *code;
    pcre2_match_data *data; /* each thread its own */
    pthread_barrier_t *barrier;
    double start, end, cpu; /* cpu: this thread's CPU time during the run */
    int valid, errors;
} worker;

static double thread_cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *work(void *arg) {
    worker *w = arg;
    fw_snapshot s = bench_snapshot();
    char buf[BENCH_TEXT];
    int pass, i, valid = 0, errors = 0;
    double cpu_start;

    pthread_barrier_wait(w->barrier);
    w->start = bench_now();
    cpu_start = thread_cpu();
    for (pass = 0; pass < w->passes; pass++) {
        if (w->raw) {
            for (i = 0; i < BENCH_COUNT; i++)
                valid += pcre2_jit_match(w->code, (PCRE2_SPTR)emails[i], strlen(emails[i]), 0, 0, w->data, NULL) >= 0;
        } else {
            for (i = 0; i < BENCH_COUNT; i++) {
                errors += fw_field_update_at(w->form, 0, emails[i], &s, buf, sizeof buf) != FW_OK;
                valid += s.validity == FW_VALIDITY_VALID;
            }
        }
    }
    w->cpu = thread_cpu() - cpu_start;
    w->end = bench_now();
    w->valid = valid;
    w->errors = errors;
    return NULL;
}

/* Runs workers[0 .. n-1] together; returns the wall time, and in *cpu the threads' CPU time. */
static double run(worker *workers, int n, int expected_valid, int *reported, double *cpu) {
    pthread_t threads[2];
    pthread_barrier_t barrier;
    double first, last;
    int k;

    pthread_barrier_init(&barrier, NULL, (unsigned)n);
    for (k = 0; k < n; k++) {
        workers[k].barrier = &barrier;
        if (pthread_create(&threads[k], NULL, work, &workers[k]) != 0) {
            fprintf(stderr, "threads_bench: pthread_create failed\n");
            exit(2);
        }
    }
    for (k = 0; k < n; k++) pthread_join(threads[k], NULL);
    pthread_barrier_destroy(&barrier);

    first = workers[0].start;
    last = workers[0].end;
    *cpu = 0;
    for (k = 0; k < n; k++) {
        *cpu += workers[k].cpu;
        if (workers[k].start < first) first = workers[k].start;
        if (workers[k].end > last) last = workers[k].end;
        if (!*reported && (workers[k].errors || workers[k].valid != expected_valid)) {
            bench_fail("%s, %d thread(s), thread %d: %d valid of %d (PCRE2: %d), %d failed calls",
                       workers[k].raw ? "raw pcre2_jit_match" : "fw_field_update_at", n, k, workers[k].valid,
                       workers[k].passes * BENCH_COUNT, expected_valid, workers[k].errors);
            *reported = 1;
        }
    }
    return last - first;
}

static fw_form *email_form(void) {
    fw_form *form;
    bench_setup(fw_form_create(&form), "fw_form_create");
    bench_setup(fw_form_add_field(form, "email", NULL, NULL), "fw_form_add_field");
    bench_setup(fw_field_add_email(form, "email", NULL), "fw_field_add_email");
    bench_setup(fw_field_focus_at(form, 0), "fw_field_focus_at");
    return form;
}

/* A measured setup: two workers (forms or match data), the best wall times, the CPU share. */
typedef struct {
    worker workers[2];
    int passes, expected_valid, reported;
    double best_single, best_dual, dual_cpu;
} scaling;

static void scaling_init(scaling *m, int raw, int passes, fw_form *forms[2], pcre2_code *code, int matched) {
    int k;
    memset(m, 0, sizeof *m);
    m->passes = passes;
    m->expected_valid = passes * matched;
    m->best_single = m->best_dual = 1e30;
    for (k = 0; k < 2; k++) {
        m->workers[k].raw = raw;
        m->workers[k].passes = passes;
        m->workers[k].form = forms[k];
        m->workers[k].code = code;
        m->workers[k].data = pcre2_match_data_create(1, NULL);
    }
}

static void scaling_run(scaling *m, int threads, int timed) {
    double cpu, wall = run(m->workers, threads, m->expected_valid, &m->reported, &cpu);
    if (!timed) return;
    if (threads == 1) bench_keep_min(&m->best_single, wall);
    else if (wall < m->best_dual) {
        m->best_dual = wall;
        m->dual_cpu = cpu;
    }
}

/* Prints the row and its CPU note; returns the throughput ratio. */
static double scaling_report(scaling *m, const char *id, const char *name, int judged) {
    double work_values = (double)m->passes * BENCH_COUNT;
    double single_rate = work_values / m->best_single / 1e3; /* thousand values per second */
    double dual_rate = 2.0 * work_values / m->best_dual / 1e3;
    char note[200];
    int k;
    bench_row(id, name, dual_rate, single_rate, "kval/s", dual_rate / single_rate, 1, 1.7, judged);
    /* How much of two cores the best 2-thread run had: well below 2, another process took a core
       (then 5r shows it too) or the threads slept waiting for each other (a lock; then 5r does not). */
    snprintf(note, sizeof note, "best 2-thread round: threads ran %.2f CPU-s per wall-s (2.00 = both cores busy throughout)",
             m->dual_cpu / m->best_dual);
    bench_note(id, note);
    for (k = 0; k < 2; k++) pcre2_match_data_free(m->workers[k].data);
    return dual_rate / single_rate;
}

int main(void) {
    pcre2_code *code;
    pcre2_match_data *data;
    fw_form *forms[2];
    int i, matched = 0;

    bench_make_emails(emails, BENCH_COUNT, 12345u);
    code = bench_compile(EMAIL_PATTERN);
    data = pcre2_match_data_create(1, NULL);
    for (i = 0; i < BENCH_COUNT; i++)
        matched += pcre2_jit_match(code, (PCRE2_SPTR)emails[i], strlen(emails[i]), 0, 0, data, NULL) >= 0;
    pcre2_match_data_free(data);
    printf("threads_bench: libformwell %s; %d passes (raw PCRE2: %d) over %d e-mails per thread, 1 thread vs "
           "2 threads on distinct forms, best of %d interleaved rounds after 1 warm-up; figures in thousand values/s\n",
           fw_version(), PASSES, RAW_PASSES, BENCH_COUNT, BENCH_ROUNDS);

    forms[0] = email_form();
    forms[1] = email_form();
    {
        /* Both setups in every round, so Formwell and the reference see the same machine; 1 and
           2 threads in an order that changes from round to round. */
        scaling formwell, reference;
        int round, step;
        scaling_init(&formwell, 0, PASSES, forms, code, matched);
        scaling_init(&reference, 1, RAW_PASSES, forms, code, matched);
        for (round = 0; round <= BENCH_ROUNDS; round++) {
            for (step = 0; step < 4; step++) {
                int which = (step + round) % 4;
                scaling_run(which < 2 ? &formwell : &reference, which % 2 ? 2 : 1, round > 0);
            }
        }
        scaling_report(&formwell, "5", "2 threads x own form vs 1 thread (update_at)", 1);
        if (scaling_report(&reference, "5r", "reference: raw pcre2_jit_match, 2 threads vs 1", 0) < 1.7)
            bench_note("5", "raw PCRE2 itself did not reach 1.7x: this run did not get two free cores "
                            "(other processes busy), so row 5 says little; run again on a quiet machine");
    }

    fw_form_free(forms[0]);
    fw_form_free(forms[1]);
    pcre2_code_free(code);
    if (bench_failures) {
        fprintf(stderr, "threads_bench: %d sanity check(s) failed\n", bench_failures);
        return 1;
    }
    return 0;
}
