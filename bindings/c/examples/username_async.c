/* username_async: an asynchronous "is this username available?" check from C, with a worker thread.
 *
 * Formwell runs no thread and reads no clock. The host tells it the time (here
 * clock_gettime(CLOCK_MONOTONIC), in milliseconds), takes the checks that fell due
 * (fw_form_next_request), performs them however it likes, and resolves them by request id
 * (fw_form_resolve). Here:
 *
 *   - the username field has required, min_length 3 and the asynchronous rule "username_available"
 *     with a 500 ms debounce;
 *   - the main thread "types" ada, adam, adam_ quickly, hands every request that falls due to a
 *     worker thread, and prints the field's state after each step;
 *   - the worker asks a slow pretend server (600 ms per answer) and resolves the request from its
 *     own thread: calls on one form are serialized by the library, so that is safe (posting the
 *     answer back to the main thread and resolving there would be just as correct).
 *
 * What happens: "ada" is sent once its debounce has passed; "adam" is replaced by "adam_" before its
 * debounce passes, so it is never sent; the server's late answer for "ada" ("taken") arrives after
 * the value changed and is dropped as stale, so it can never overwrite the newer value's verdict;
 * "adam_" is sent and comes back available. The program exits 0 only when the field ends valid with
 * the value "adam_", two checks sent and one stale answer dropped.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "formwell.h"

#define DEBOUNCE_MS 500u
#define SERVER_LATENCY_MS 600u
#define MAX_JOBS 8

/* ---- the host's clock ---- */

static uint64_t monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

static void sleep_ms(unsigned ms) {
    struct timespec pause;
    pause.tv_sec = (time_t)(ms / 1000u);
    pause.tv_nsec = (long)(ms % 1000u) * 1000000L;
    while (nanosleep(&pause, &pause) != 0) {
    }
}

static uint64_t started; /* monotonic_ms() at the first keystroke, for printing */

/* ---- the worker thread and its pretend server ---- */

static bool server_says_available(const char *username) {
    static const char *const taken[] = {"ada", "adam", "grace", NULL};
    const char *const *name;
    sleep_ms(SERVER_LATENCY_MS); /* a slow network round trip */
    for (name = taken; *name != NULL; name++) {
        if (strcmp(*name, username) == 0) return false;
    }
    return true;
}

typedef struct {
    uint64_t id;
    char value[64];
    bool available; /* answers only */
    bool stale;     /* answers only: fw_form_resolve dropped it */
    fw_status status;
} job;

/* The worker's mailbox: requests in, what became of each answer out (for the main thread to print). */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t to_worker, to_main; /* to_main waits on CLOCK_MONOTONIC */
    job requests[MAX_JOBS];
    size_t request_count;
    job answers[MAX_JOBS];
    size_t answer_count;
    bool working, quit;
    fw_form *form;
} mailbox;

static void *worker(void *unused) {
    (void)unused;
    pthread_mutex_lock(&mailbox.lock);
    for (;;) {
        job current;
        while (mailbox.request_count == 0 && !mailbox.quit) pthread_cond_wait(&mailbox.to_worker, &mailbox.lock);
        if (mailbox.request_count == 0) break; /* quit, nothing left */
        current = mailbox.requests[0];
        memmove(&mailbox.requests[0], &mailbox.requests[1], --mailbox.request_count * sizeof(job));
        mailbox.working = true;
        pthread_mutex_unlock(&mailbox.lock);

        current.available = server_says_available(current.value);
        /* Resolved from this thread. A value changed since the request was handed out makes the
           answer stale: dropped, *stale true, the field untouched. */
        current.status = fw_form_resolve(mailbox.form, current.id,
                                         current.available ? FW_ASYNC_VALID : FW_ASYNC_INVALID,
                                         current.available ? NULL : "That username is taken", &current.stale);

        pthread_mutex_lock(&mailbox.lock);
        if (mailbox.answer_count < MAX_JOBS) mailbox.answers[mailbox.answer_count++] = current;
        mailbox.working = false;
        pthread_cond_signal(&mailbox.to_main);
    }
    pthread_mutex_unlock(&mailbox.lock);
    return NULL;
}

/* ---- printing ---- */

static const char *validity_name(fw_validity validity) {
    switch (validity) {
    case FW_VALIDITY_EMPTY: return "empty";
    case FW_VALIDITY_VALID: return "valid";
    case FW_VALIDITY_INVALID: return "invalid";
    case FW_VALIDITY_PENDING: return "pending";
    default: return "?";
    }
}

/* One line: the time, what happened, and the field's state as a view would read it. */
static void show(fw_form *form, const char *event) {
    fw_snapshot snap;
    char texts[512];
    uint64_t due = 0;
    bool scheduled = false;
    memset(&snap, 0, sizeof snap);
    snap.size = sizeof snap;
    if (fw_field_snapshot(form, "username", &snap, texts, sizeof texts) != FW_OK) {
        printf("(snapshot failed)\n");
        return;
    }
    printf("[+%4llu ms] %-40s username \"%s\": %s", (unsigned long long)(monotonic_ms() - started), event, snap.value,
           validity_name((fw_validity)snap.validity));
    if (snap.validity == FW_VALIDITY_INVALID) printf(" (%s)", snap.message);
    if (fw_form_next_due_time(form, &due, &scheduled) == FW_OK && scheduled) {
        printf(", check due at +%llu ms", (unsigned long long)(due - started));
    }
    printf("\n");
}

static bool ok(fw_status status, const char *call) {
    if (status != FW_OK) {
        char detail[256];
        fw_last_error_message(detail, sizeof detail, NULL);
        fprintf(stderr, "%s: %s (%s)\n", call, fw_status_string(status), detail);
    }
    return status == FW_OK;
}

/* ---- the main thread: keystrokes, due requests, answers ---- */

int main(void) {
    /* What the user types, and when (ms after the first keystroke). */
    static const struct {
        unsigned at_ms;
        const char *value;
    } typing[] = {{0, "ada"}, {650, "adam"}, {750, "adam_"}};
    const size_t keystrokes = sizeof typing / sizeof typing[0];
    size_t typed = 0;
    unsigned sent = 0, stale = 0;
    pthread_condattr_t attributes;
    pthread_t thread;
    fw_form *form = NULL;
    fw_form_info info;
    fw_validity validity = FW_VALIDITY_EMPTY;
    char value[64] = "";
    int32_t outcome = -1;
    bool passed;

    if (!ok(fw_form_create(&form), "fw_form_create")) return 1;
    if (!ok(fw_form_add_field(form, "username", "Username", NULL), "fw_form_add_field")
        || !ok(fw_field_add_required(form, "username", NULL), "fw_field_add_required")
        || !ok(fw_field_add_min_length(form, "username", 3, NULL), "fw_field_add_min_length")
        || !ok(fw_field_add_async_rule(form, "username", "username_available", DEBOUNCE_MS, NULL),
               "fw_field_add_async_rule")) {
        fw_form_free(form);
        return 1;
    }

    pthread_mutex_init(&mailbox.lock, NULL);
    pthread_cond_init(&mailbox.to_worker, NULL);
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&mailbox.to_main, &attributes);
    pthread_condattr_destroy(&attributes);
    mailbox.form = form;
    if (pthread_create(&thread, NULL, worker, NULL) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        fw_form_free(form);
        return 1;
    }

    started = monotonic_ms();
    ok(fw_form_tick(form, started), "fw_form_tick");
    ok(fw_field_focus(form, "username"), "fw_field_focus");
    for (;;) {
        uint64_t now = monotonic_ms(), wake;
        fw_request request;
        char texts[256];
        bool found = false, waiting;

        /* 1. Requests that fell due go to the worker (before this wake-up's keystrokes, which came
              later). fw_form_next_request ticks the form's clock to `now` first. */
        for (;;) {
            memset(&request, 0, sizeof request);
            request.size = sizeof request;
            /* texts is large enough here; with FW_ERR_BUFFER_TOO_SMALL the request would stay
               scheduled and request.text_size would tell the size to retry with. */
            if (!ok(fw_form_next_request(form, now, &request, texts, sizeof texts, &found), "fw_form_next_request")
                || !found) {
                break;
            }
            pthread_mutex_lock(&mailbox.lock);
            if (mailbox.request_count < MAX_JOBS) {
                job next;
                memset(&next, 0, sizeof next);
                next.id = request.id;
                snprintf(next.value, sizeof next.value, "%s", request.value);
                mailbox.requests[mailbox.request_count++] = next;
                pthread_cond_signal(&mailbox.to_worker);
            }
            pthread_mutex_unlock(&mailbox.lock);
            sent++;
            {
                char event[96];
                snprintf(event, sizeof event, "request %llu: ask the server about \"%s\"",
                         (unsigned long long)request.id, request.value);
                show(form, event);
            }
        }

        /* 2. Keystrokes whose time has come: the form is told the time, then the value. */
        while (typed < keystrokes && now >= started + typing[typed].at_ms) {
            char event[64];
            ok(fw_form_tick(form, now), "fw_form_tick");
            ok(fw_field_set_value(form, "username", typing[typed].value), "fw_field_set_value");
            snprintf(event, sizeof event, "typed \"%s\"", typing[typed].value);
            show(form, event);
            typed++;
        }

        /* 3. Answers the worker applied (or found stale). */
        pthread_mutex_lock(&mailbox.lock);
        while (mailbox.answer_count > 0) {
            job answer = mailbox.answers[0];
            char event[96];
            memmove(&mailbox.answers[0], &mailbox.answers[1], --mailbox.answer_count * sizeof(job));
            pthread_mutex_unlock(&mailbox.lock);
            if (!ok(answer.status, "fw_form_resolve")) {
                snprintf(event, sizeof event, "answer for request %llu refused", (unsigned long long)answer.id);
            } else {
                if (answer.stale) stale++;
                snprintf(event, sizeof event, "server: \"%s\" %s%s", answer.value, answer.available ? "is free" : "is taken",
                         answer.stale ? ": stale, dropped" : ": applied");
            }
            show(form, event);
            pthread_mutex_lock(&mailbox.lock);
        }
        waiting = mailbox.working || mailbox.request_count > 0;
        pthread_mutex_unlock(&mailbox.lock);

        /* 4. Done when everything is typed, nothing is scheduled or pending, and the worker is idle. */
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (!ok(fw_form_get_info(form, &info), "fw_form_get_info")) break;
        if (typed == keystrokes && info.pending_count == 0 && !waiting) break;

        /* 5. Sleep until the next keystroke, the next due request, or an answer (at most 1 s). */
        wake = now + 1000;
        if (typed < keystrokes && started + typing[typed].at_ms < wake) wake = started + typing[typed].at_ms;
        {
            uint64_t due = 0;
            bool scheduled = false;
            if (ok(fw_form_next_due_time(form, &due, &scheduled), "fw_form_next_due_time") && scheduled && due < wake) {
                wake = due;
            }
        }
        if (wake > now) {
            struct timespec until;
            until.tv_sec = (time_t)(wake / 1000u);
            until.tv_nsec = (long)(wake % 1000u) * 1000000L;
            pthread_mutex_lock(&mailbox.lock);
            if (mailbox.answer_count == 0) pthread_cond_timedwait(&mailbox.to_main, &mailbox.lock, &until);
            pthread_mutex_unlock(&mailbox.lock);
        }
    }

    /* The form can be submitted now: nothing is pending. */
    ok(fw_field_blur(form, "username"), "fw_field_blur");
    ok(fw_form_submit(form, NULL, &outcome), "fw_form_submit");
    show(form, outcome == FW_SUBMIT_VALID ? "submit: valid" : outcome == FW_SUBMIT_PENDING ? "submit: pending"
                                                                                           : "submit: invalid");

    pthread_mutex_lock(&mailbox.lock);
    mailbox.quit = true;
    pthread_cond_signal(&mailbox.to_worker);
    pthread_mutex_unlock(&mailbox.lock);
    pthread_join(thread, NULL);

    ok(fw_field_validity(form, "username", &validity), "fw_field_validity");
    ok(fw_field_value(form, "username", value, sizeof value, NULL), "fw_field_value");
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    ok(fw_form_get_info(form, &info), "fw_form_get_info");
    fw_form_free(form);
    pthread_cond_destroy(&mailbox.to_main);
    pthread_cond_destroy(&mailbox.to_worker);
    pthread_mutex_destroy(&mailbox.lock);

    passed = validity == FW_VALIDITY_VALID && strcmp(value, "adam_") == 0 && outcome == FW_SUBMIT_VALID && sent == 2
          && stale == 1 && info.stale_results == 1;
    printf("%s: \"%s\" %s, %u checks sent (\"adam\" never: debounced), %u stale answer dropped\n",
           passed ? "ok" : "UNEXPECTED", value, validity_name(validity), sent, stale);
    return passed ? 0 : 1;
}
