/* signup_tui: seed 03's registration form in a terminal, driven only through Formwell's C ABI.
 *
 * Every field is drawn from its snapshot (fw_field_snapshot's second version) and nothing else:
 * the border's colour is the snapshot's tint (neutral grey, accent blue, error red), the label rests
 * inside the box until label_raised puts it on the border, the border is heavy and bold while
 * emphasized, the line under the box shows the display message (every failing rule's, from the
 * error list) or a spinner while the validity is pending. The status line is fw_form_announcement.
 * The program keeps no copy of any value, focus or verdict: each keystroke reads the focused
 * field's value from the library, edits it and sets it back.
 *
 * The username's "already taken" check is an asynchronous rule: the library debounces it (500 ms)
 * and hands it out with fw_form_next_request; a pretend server answers in this program's poll loop
 * after SIGNUP_TUI_SERVER_MS milliseconds (default 800). "admin", "root", "ada" and "grace" are
 * taken.
 *
 * Keys: Tab / Shift-Tab (or Down / Up) move focus, typing and Backspace edit, Enter submits,
 * Esc or Ctrl-C quits. Needs an 80x24 terminal; without a terminal it checks the form and exits.
 * Run it with `make tui`.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "formwell.h"

#define FIELD_COUNT 5
#define MIN_COLS 80
#define MIN_ROWS 24
#define BOX_COL 2        /* column of a box's left edge (0-based) */
#define BOX_WIDTH 50     /* columns of a box, edges included */
#define FIELD_TOP 1      /* row of the first box's top edge */
#define FIELD_ROWS 4     /* top edge, text, bottom edge, message */
#define STATUS_ROW 21
#define HELP_ROW 23
#define PANEL_COL 56
#define MAX_VALUE 256    /* bytes a field's value may grow to by typing */

static const char *const FIELD_IDS[FIELD_COUNT] = {"name", "email", "username", "password", "confirm"};
static const char *const TAKEN[] = {"admin", "root", "ada", "grace", NULL};

/* ---- The terminal: raw mode, restored at exit, on signals and on errors ---- */

static struct termios saved_termios;
static volatile sig_atomic_t terminal_raw = 0;
static volatile sig_atomic_t resized = 1;
static int wake_pipe[2] = {-1, -1}; /* SIGWINCH writes a byte here, so a poll never misses a resize */

static void write_all(const char *data, size_t length) {
    while (length > 0) {
        ssize_t written = write(STDOUT_FILENO, data, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            return;
        }
        data += written;
        length -= (size_t)written;
    }
}

/* Async-signal-safe: write and tcsetattr only. */
static void restore_terminal(void) {
    static const char leave[] = "\033[0m\033[?25h\033[?1049l";
    if (!terminal_raw) return;
    terminal_raw = 0;
    write_all(leave, sizeof leave - 1);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_termios);
}

static void on_fatal_signal(int sig) {
    restore_terminal();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_resize(int sig) {
    int saved = errno;
    (void)sig;
    resized = 1;
    if (wake_pipe[1] >= 0) {
        ssize_t ignored = write(wake_pipe[1], "w", 1);
        (void)ignored;
    }
    errno = saved;
}

static void enter_raw_mode(void) {
    static const char enter[] = "\033[?1049h\033[H\033[2J";
    static const int fatal[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    struct termios raw;
    struct sigaction action;
    size_t i;

    if (tcgetattr(STDIN_FILENO, &saved_termios) != 0) {
        perror("signup_tui: tcgetattr");
        exit(1);
    }
    if (pipe(wake_pipe) != 0 || fcntl(wake_pipe[0], F_SETFL, O_NONBLOCK) != 0
        || fcntl(wake_pipe[1], F_SETFL, O_NONBLOCK) != 0) {
        perror("signup_tui: pipe");
        exit(1);
    }
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_fatal_signal;
    for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++) sigaction(fatal[i], &action, NULL);
    action.sa_handler = on_resize;
    sigaction(SIGWINCH, &action, NULL);
    atexit(restore_terminal);

    raw = saved_termios;
    raw.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    raw.c_cflag |= CS8;
    raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG); /* Ctrl-C arrives as a byte */
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    terminal_raw = 1;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0) {
        terminal_raw = 0;
        perror("signup_tui: tcsetattr");
        exit(1);
    }
    write_all(enter, sizeof enter - 1);
}

/* Stops the program with the library's detail when a call fails (the terminal restored first). */
static void must(fw_status status, const char *what) {
    char detail[256];
    if (status == FW_OK) return;
    fw_last_error_message(detail, sizeof detail, NULL);
    restore_terminal();
    fprintf(stderr, "signup_tui: %s failed: %s (%s)\n", what, fw_status_string(status), detail);
    exit(1);
}

static void *must_alloc(void *pointer) {
    if (pointer == NULL) {
        restore_terminal();
        fprintf(stderr, "signup_tui: out of memory\n");
        exit(1);
    }
    return pointer;
}

static uint64_t monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

/* ---- Output: one frame is composed in memory and written at once ---- */

typedef struct out_buffer {
    char *data;
    size_t length, capacity;
} out_buffer;

static void out_bytes(out_buffer *out, const char *bytes, size_t length) {
    if (out->length + length + 1 > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        while (out->length + length + 1 > capacity) capacity *= 2;
        out->data = (char *)must_alloc(realloc(out->data, capacity));
        out->capacity = capacity;
    }
    memcpy(out->data + out->length, bytes, length);
    out->length += length;
    out->data[out->length] = '\0';
}

static void out_str(out_buffer *out, const char *text) { out_bytes(out, text, strlen(text)); }

static void out_printf(out_buffer *out, const char *format, ...) {
    char text[512];
    va_list args;
    int length;
    va_start(args, format);
    length = vsnprintf(text, sizeof text, format, args);
    va_end(args);
    if (length < 0) return;
    out_bytes(out, text, (size_t)length < sizeof text ? (size_t)length : sizeof text - 1);
}

static void out_move(out_buffer *out, int row, int col) { out_printf(out, "\033[%d;%dH", row + 1, col + 1); }

static void out_repeat(out_buffer *out, const char *piece, int count) {
    for (; count > 0; count--) out_str(out, piece);
}

/* Decodes one UTF-8 character at text (well-formed: the library hands out nothing else); returns
   its byte length and stores its code point. */
static size_t utf8_next(const char *text, unsigned long *out_code) {
    const unsigned char *s = (const unsigned char *)text;
    if (s[0] < 0x80) { *out_code = s[0]; return 1; }
    if (s[0] < 0xE0 && s[1]) { *out_code = ((s[0] & 0x1Ful) << 6) | (s[1] & 0x3Ful); return 2; }
    if (s[0] < 0xF0 && s[1] && s[2]) {
        *out_code = ((s[0] & 0x0Ful) << 12) | ((s[1] & 0x3Ful) << 6) | (s[2] & 0x3Ful);
        return 3;
    }
    if (s[1] && s[2] && s[3]) {
        *out_code = ((s[0] & 0x07ul) << 18) | ((s[1] & 0x3Ful) << 12) | ((s[2] & 0x3Ful) << 6) | (s[3] & 0x3Ful);
        return 4;
    }
    *out_code = 0xFFFD;
    return 1;
}

/* Terminal columns of one code point (combining marks 0, wide characters 2). */
static int code_width(unsigned long code) {
    int width = wcwidth((wchar_t)code);
    return width < 0 ? 1 : width;
}

static int text_width(const char *text) {
    int width = 0;
    while (*text) {
        unsigned long code;
        text += utf8_next(text, &code);
        width += code_width(code);
    }
    return width;
}

/* Writes text cut to max_cols columns (the last one an ellipsis when cut); returns the columns written. */
static int out_clipped(out_buffer *out, const char *text, int max_cols) {
    int width = text_width(text), used = 0;
    if (width <= max_cols) {
        out_str(out, text);
        return width;
    }
    while (*text) {
        unsigned long code;
        size_t length = utf8_next(text, &code);
        int w = code_width(code);
        if (used + w > max_cols - 1) break;
        out_bytes(out, text, length);
        used += w;
        text += length;
    }
    out_str(out, "\xE2\x80\xA6"); /* … */
    return used + 1;
}

/* ---- The form ---- */

static fw_form *build_form(void) {
    fw_form *form = NULL;
    must(fw_form_create(&form), "fw_form_create");
    /* Every failing rule's message, not only the first: the password's line lists what is missing. */
    must(fw_form_set_error_mode(form, FW_ERRORS_ALL), "fw_form_set_error_mode");

    must(fw_form_add_field(form, "name", "Display name", NULL), "add name");
    must(fw_field_add_required(form, "name", "Name is required"), "name required");

    must(fw_form_add_field(form, "email", "Email address", NULL), "add email");
    must(fw_field_add_required(form, "email", NULL), "email required");
    must(fw_field_add_email(form, "email", "Enter a valid email address"), "email rule");

    must(fw_form_add_field(form, "username", "Username", NULL), "add username");
    must(fw_field_add_required(form, "username", NULL), "username required");
    must(fw_field_add_min_length(form, "username", 3, "At least 3 characters"), "username min");
    must(fw_field_add_max_length(form, "username", 20, "20 characters maximum"), "username max");
    must(fw_field_add_regex(form, "username", "[a-z0-9_]+", "Use a-z, 0-9 and _ only"), "username pattern");
    must(fw_field_add_async_rule(form, "username", "username_available", 500, "That username is already taken"),
         "username async rule");

    /* Seed 03: "don't show password strength errors until the user has left the field". */
    must(fw_form_add_field(form, "password", "Password", NULL), "add password");
    must(fw_field_set_mode(form, "password", FW_MODE_ON_BLUR), "password mode");
    must(fw_field_add_required(form, "password", NULL), "password required");
    must(fw_field_add_min_length(form, "password", 8, "At least 8 characters"), "password min");
    must(fw_field_add_regex(form, "password", ".*[0-9].*", "Add a number"), "password digit");
    must(fw_field_add_regex(form, "password", ".*[A-Z].*", "Add an uppercase letter"), "password uppercase");

    must(fw_form_add_field(form, "confirm", "Confirm password", NULL), "add confirm");
    must(fw_field_add_required(form, "confirm", "Please confirm your password"), "confirm required");
    must(fw_field_add_matches(form, "confirm", "password", "Passwords don't match"), "confirm matches");
    return form;
}

/* The pretend server's answers, waiting for their time. */
typedef struct check {
    uint64_t id;
    uint64_t answer_at;
    int32_t verdict;
} check;

typedef struct app {
    fw_form *form;
    uint64_t start_ms, server_ms;
    check *checks;
    size_t check_count, check_capacity;
    unsigned long checks_sent;
    bool submit_waiting;      /* Enter was pressed while a check was pending: submit when it ends */
    bool signed_up;
    uint64_t signed_up_revision;
    bool quit;
    int rows, cols;
    fw_snapshot snapshots[FIELD_COUNT];
    char *text;               /* the snapshots' texts */
    size_t text_capacity;
    char *request_text;
    size_t request_capacity;
    unsigned char input[64];
    size_t input_start, input_length;
} app;

static uint64_t now_ms(const app *a) { return monotonic_ms() - a->start_ms + 1; }

static fw_form_info form_info(const app *a) {
    fw_form_info info;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    must(fw_form_get_info(a->form, &info), "fw_form_get_info");
    return info;
}

/* Reads every field's snapshot (texts included) in one consistent call. */
static void read_snapshots(app *a) {
    for (;;) {
        size_t i, count = 0, needed = 0;
        fw_status status;
        for (i = 0; i < FIELD_COUNT; i++) {
            memset(&a->snapshots[i], 0, sizeof a->snapshots[i]);
            a->snapshots[i].size = sizeof a->snapshots[i];
        }
        status = fw_form_snapshots(a->form, a->snapshots, FIELD_COUNT, &count, a->text, a->text_capacity, &needed);
        /* A NULL buffer is no error (no text is copied): compare the size needed either way. */
        if ((status == FW_OK || status == FW_ERR_BUFFER_TOO_SMALL) && needed > a->text_capacity) {
            a->text = (char *)must_alloc(realloc(a->text, needed));
            a->text_capacity = needed;
            continue;
        }
        must(status, "fw_form_snapshots");
        return;
    }
}

/* The index of the field that has focus, or -1. */
static int focused_index(app *a) {
    size_t index = 0;
    bool focused = false;
    must(fw_form_focused_field(a->form, &index, &focused), "fw_form_focused_field");
    return focused ? (int)index : -1;
}

static void move_focus(app *a, int step) {
    int current = focused_index(a);
    int next = current < 0 ? (step > 0 ? 0 : FIELD_COUNT - 1) : (current + step + FIELD_COUNT) % FIELD_COUNT;
    must(fw_field_focus_at(a->form, (size_t)next), "fw_field_focus_at");
    a->submit_waiting = false;
}

/* Edits the focused field's value as the library holds it: appends bytes, or (bytes NULL) removes
   the last character together with any combining marks after it. */
static void edit_value(app *a, const char *bytes, size_t length) {
    char value[MAX_VALUE + 8];
    size_t value_length = 0;
    int index = focused_index(a);
    fw_status status;
    if (index < 0) return;
    status = fw_field_value(a->form, FIELD_IDS[index], value, sizeof value, &value_length);
    if (status == FW_ERR_BUFFER_TOO_SMALL) return; /* longer than typing makes it: leave it */
    must(status, "fw_field_value");
    if (bytes != NULL) {
        if (value_length + length > MAX_VALUE) return;
        memcpy(value + value_length, bytes, length);
        value[value_length + length] = '\0';
    } else {
        for (;;) {
            size_t end = value_length, start = 0, at = 0;
            unsigned long code = 0;
            if (end == 0) return;
            while (at < end) { /* the start of the last character */
                start = at;
                at += utf8_next(value + at, &code);
            }
            value[start] = '\0';
            value_length = start;
            if (code_width(code) > 0) break;
        }
    }
    must(fw_field_set_value_at(a->form, (size_t)index, value), "fw_field_set_value_at");
    a->submit_waiting = false;
}

/* Enter: submit (every field touched, checks not yet due are asked now); on failure focus moves to
   the first invalid field and the status line carries the announcement. */
static void submit(app *a) {
    int32_t outcome = FW_SUBMIT_INVALID;
    char first[64];
    must(fw_form_submit(a->form, NULL, &outcome), "fw_form_submit");
    a->submit_waiting = outcome == FW_SUBMIT_PENDING;
    a->signed_up = outcome == FW_SUBMIT_VALID;
    if (outcome == FW_SUBMIT_INVALID) {
        must(fw_form_first_invalid(a->form, first, sizeof first, NULL), "fw_form_first_invalid");
        if (first[0] != '\0') must(fw_field_focus(a->form, first), "fw_field_focus");
    }
    if (a->signed_up) a->signed_up_revision = form_info(a).revision;
}

/* ---- The pretend server: hands out due checks, answers them after server_ms ---- */

static bool is_taken(const char *username) {
    const char *const *name;
    for (name = TAKEN; *name; name++)
        if (strcmp(*name, username) == 0) return true;
    return false;
}

static void pump_checks(app *a) {
    uint64_t now = now_ms(a);
    size_t i = 0;
    while (i < a->check_count) {
        if (a->checks[i].answer_at <= now) {
            bool stale = false;
            must(fw_form_resolve(a->form, a->checks[i].id, a->checks[i].verdict, NULL, &stale), "fw_form_resolve");
            a->checks[i] = a->checks[--a->check_count];
        } else {
            i++;
        }
    }
    for (;;) {
        fw_request request;
        bool found = false;
        fw_status status;
        memset(&request, 0, sizeof request);
        request.size = sizeof request;
        status = fw_form_next_request(a->form, now, &request, a->request_text, a->request_capacity, &found);
        if (status == FW_ERR_BUFFER_TOO_SMALL) { /* not handed out: retry with room for its texts */
            a->request_text = (char *)must_alloc(realloc(a->request_text, request.text_size));
            a->request_capacity = request.text_size;
            continue;
        }
        must(status, "fw_form_next_request");
        if (!found) break;
        if (a->check_count == a->check_capacity) {
            a->check_capacity = a->check_capacity ? a->check_capacity * 2 : 8;
            a->checks = (check *)must_alloc(realloc(a->checks, a->check_capacity * sizeof *a->checks));
        }
        a->checks[a->check_count].id = request.id;
        a->checks[a->check_count].answer_at = now + a->server_ms;
        a->checks[a->check_count].verdict = is_taken(request.value) ? FW_ASYNC_INVALID : FW_ASYNC_VALID;
        a->check_count++;
        a->checks_sent++;
    }
    if (a->submit_waiting && form_info(a).pending_count == 0) submit(a);
}

/* How long the loop may sleep: until the next check falls due or is answered, or the spinner moves. */
static int poll_timeout(app *a) {
    uint64_t now = now_ms(a), due = 0, wake = UINT64_MAX;
    bool scheduled = false;
    size_t i;
    must(fw_form_next_due_time(a->form, &due, &scheduled), "fw_form_next_due_time");
    if (scheduled) wake = due;
    for (i = 0; i < a->check_count; i++)
        if (a->checks[i].answer_at < wake) wake = a->checks[i].answer_at;
    if (form_info(a).pending_count > 0 || a->submit_waiting) {
        uint64_t tick = now - now % 100 + 100;
        if (tick < wake) wake = tick;
    }
    if (wake == UINT64_MAX) return -1;
    return wake <= now ? 0 : (int)(wake - now);
}

/* ---- Drawing: every field from its snapshot ---- */

static const char *tint_sgr(int32_t tint) {
    switch (tint) {
    case FW_TINT_ACCENT: return "\033[34m";  /* seed 01's .blue */
    case FW_TINT_ERROR: return "\033[31m";   /* .red */
    default: return "\033[90m";              /* .secondary */
    }
}

static const char *spinner(const app *a) {
    static const char *const frames[] = {"\xE2\xA0\x8B", "\xE2\xA0\x99", "\xE2\xA0\xB9", "\xE2\xA0\xB8", "\xE2\xA0\xBC",
                                         "\xE2\xA0\xB4", "\xE2\xA0\xA6", "\xE2\xA0\xA7", "\xE2\xA0\x87", "\xE2\xA0\x8F"};
    return frames[(now_ms(a) / 100) % 10];
}

/* Rows of the panel beside the boxes: the form's own state (fw_form_get_info, fw_form_is_valid). */
#define PANEL_LINES 9
static void draw_panel_line(app *a, out_buffer *out, int line, const fw_form_info *info, bool valid) {
    const char *label = NULL;
    char value[32];
    switch (line) {
    case 0: out_str(out, "\033[1mForm\033[0m"); return;
    case 1: label = "revision"; snprintf(value, sizeof value, "%llu", (unsigned long long)info->revision); break;
    case 2: label = "dirty fields"; snprintf(value, sizeof value, "%zu", info->dirty_count); break;
    case 3: label = "submits"; snprintf(value, sizeof value, "%d", (int)info->submit_count); break;
    case 4: label = "submit failed"; snprintf(value, sizeof value, "%s", info->submit_failed ? "yes" : "no"); break;
    case 5: label = "ready to submit"; snprintf(value, sizeof value, "%s", valid ? "yes" : "no"); break;
    case 6: label = "pending checks"; snprintf(value, sizeof value, "%zu", info->pending_count); break;
    case 7: label = "checks sent"; snprintf(value, sizeof value, "%lu", a->checks_sent); break;
    case 8: label = "stale answers"; snprintf(value, sizeof value, "%zu", info->stale_results); break;
    default: return;
    }
    out_printf(out, "\033[90m%-16s\033[0m%6s", label, value);
}

static void draw_border(out_buffer *out, const fw_snapshot *s, int row, bool top) {
    const bool heavy = s->emphasized;
    const char *h = heavy ? "\xE2\x94\x81" : "\xE2\x94\x80"; /* ━ ─ */
    out_move(out, row, BOX_COL);
    out_str(out, tint_sgr(s->tint));
    if (heavy) out_str(out, "\033[1m");
    if (top) {
        out_str(out, heavy ? "\xE2\x94\x8F" : "\xE2\x95\xAD"); /* ┏ ╭ */
        if (s->label_raised) { /* the floating label, risen onto the border */
            int used;
            out_str(out, h);
            out_str(out, " ");
            used = 2 + out_clipped(out, s->label, BOX_WIDTH - 6) + 1;
            out_str(out, " ");
            out_repeat(out, h, BOX_WIDTH - 2 - used);
        } else {
            out_repeat(out, h, BOX_WIDTH - 2);
        }
        out_str(out, heavy ? "\xE2\x94\x93" : "\xE2\x95\xAE"); /* ┓ ╮ */
    } else {
        out_str(out, heavy ? "\xE2\x94\x97" : "\xE2\x95\xB0"); /* ┗ ╰ */
        out_repeat(out, h, BOX_WIDTH - 2);
        out_str(out, heavy ? "\xE2\x94\x9B" : "\xE2\x95\xAF"); /* ┛ ╯ */
    }
    out_str(out, "\033[0m");
}

/* The text shown in the box: the value (masked for passwords), its tail when it is too long.
   Returns the columns it takes, where the cursor goes. */
static int draw_value(out_buffer *out, const char *value, bool secret, int max_cols) {
    const char *start = value;
    int width = 0;
    if (secret) {
        int count = 0;
        while (*value) {
            unsigned long code;
            value += utf8_next(value, &code);
            count++;
        }
        if (count > max_cols) count = max_cols;
        out_repeat(out, "\xE2\x80\xA2", count); /* • */
        return count;
    }
    width = text_width(value);
    while (width > max_cols) { /* drop characters from the front until the tail fits */
        unsigned long code;
        start += utf8_next(start, &code);
        width -= code_width(code);
    }
    out_str(out, start);
    return width;
}

/* The box's middle row; returns the cursor column. */
static int draw_middle(out_buffer *out, const fw_snapshot *s, int row, bool secret) {
    const char *v = s->emphasized ? "\xE2\x94\x83" : "\xE2\x94\x82"; /* ┃ │ */
    const int inner = BOX_WIDTH - 4;
    int used, cursor = BOX_COL + 2;
    out_move(out, row, BOX_COL);
    out_printf(out, "%s%s%s\033[0m ", tint_sgr(s->tint), s->emphasized ? "\033[1m" : "", v);
    if (!s->label_raised) { /* the label resting inside the empty, idle field */
        out_str(out, tint_sgr(s->tint));
        used = out_clipped(out, s->label, inner);
        out_str(out, "\033[0m");
    } else {
        used = draw_value(out, s->value, secret, inner - 2);
        cursor += used;
    }
    out_repeat(out, " ", inner - used);
    if (s->display == FW_DISPLAY_VALID) { /* seed 03's success, in the accent colour */
        out_move(out, row, BOX_COL + BOX_WIDTH - 3);
        out_printf(out, "%s\xE2\x9C\x93\033[0m", tint_sgr(FW_TINT_ACCENT)); /* ✓ */
    }
    out_move(out, row, BOX_COL + BOX_WIDTH - 2);
    out_printf(out, " %s%s%s\033[0m", tint_sgr(s->tint), s->emphasized ? "\033[1m" : "", v);
    return cursor;
}

/* The line under the box: the display message (every failing rule's), or the pending spinner. */
static void draw_message(app *a, out_buffer *out, const fw_snapshot *s, int row, int max_cols) {
    out_move(out, row, BOX_COL + 2);
    if (s->validity == FW_VALIDITY_PENDING) {
        out_printf(out, "%s%s checking availability\xE2\x80\xA6\033[0m", tint_sgr(FW_TINT_ACCENT), spinner(a));
    } else if (s->display == FW_DISPLAY_ERROR) {
        char joined[1024];
        size_t at = 0, k;
        const char *message = s->errors;
        joined[0] = '\0';
        if (s->error_count > 1 && message != NULL) {
            for (k = 0; k < s->error_count; k++) {
                int n = snprintf(joined + at, sizeof joined - at, "%s%s", k ? " \xC2\xB7 " : "", message); /* · */
                if (n < 0 || (size_t)n >= sizeof joined - at) break;
                at += (size_t)n;
                message += strlen(message) + 1;
            }
        } else {
            snprintf(joined, sizeof joined, "%s", s->display_message);
        }
        out_str(out, tint_sgr(FW_TINT_ERROR));
        out_clipped(out, joined, max_cols);
        out_str(out, "\033[0m");
    }
}

static void draw_too_small(app *a, out_buffer *out) {
    char line[128];
    out_str(out, "\033[?25l\033[0m\033[H\033[2J");
    snprintf(line, sizeof line, "The sign-up form needs an %dx%d terminal; this one is %dx%d.", MIN_COLS, MIN_ROWS,
             a->cols, a->rows);
    out_move(out, 0, 0);
    out_clipped(out, line, a->cols);
    out_move(out, 1, 0);
    out_clipped(out, "Make the window larger, or press Esc to quit.", a->cols);
}

static void draw(app *a) {
    out_buffer out = {NULL, 0, 0};
    fw_form_info info = form_info(a);
    bool valid = false;
    char status[512];
    int row, cursor_row = -1, cursor_col = 0;
    size_t i;

    if (a->cols < MIN_COLS || a->rows < MIN_ROWS) {
        draw_too_small(a, &out);
    } else {
        read_snapshots(a);
        must(fw_form_is_valid(a->form, &valid), "fw_form_is_valid");
        out_str(&out, "\033[?25l\033[0m");
        for (row = 0; row < MIN_ROWS; row++) {
            out_move(&out, row, 0);
            out_str(&out, "\033[2K");
        }
        out_move(&out, 0, BOX_COL);
        out_str(&out, "\033[1mCreate Account\033[0m");
        out_move(&out, 0, PANEL_COL);
        out_printf(&out, "\033[90mFormwell %s, C ABI\033[0m", fw_version());
        for (i = 0; i < FIELD_COUNT; i++) {
            const fw_snapshot *s = &a->snapshots[i];
            const bool secret = i >= 3;
            int top = FIELD_TOP + (int)i * FIELD_ROWS, message_row = top + 3;
            int col;
            draw_border(&out, s, top, true);
            col = draw_middle(&out, s, top + 1, secret);
            draw_border(&out, s, top + 2, false);
            draw_message(a, &out, s, message_row,
                         message_row - FIELD_TOP < PANEL_LINES ? PANEL_COL - 1 - (BOX_COL + 2) : MIN_COLS - 1 - (BOX_COL + 2));
            if (s->emphasized) {
                cursor_row = top + 1;
                cursor_col = col;
            }
        }
        for (row = 0; row < PANEL_LINES; row++) {
            out_move(&out, FIELD_TOP + row, PANEL_COL);
            draw_panel_line(a, &out, row, &info, valid);
        }

        /* The status line: "Signed up!", a submit waiting for a check, or the announcement. */
        out_move(&out, STATUS_ROW, BOX_COL);
        must(fw_form_announcement(a->form, status, sizeof status, NULL), "fw_form_announcement");
        if (a->signed_up && info.revision == a->signed_up_revision) {
            out_printf(&out, "\033[32m\xE2\x9C\x93 Signed up! Welcome, ");
            out_clipped(&out, a->snapshots[0].value, 40);
            out_str(&out, ".\033[0m");
        } else if (a->submit_waiting) {
            out_printf(&out, "%s%s Signing up once the username check answers\xE2\x80\xA6\033[0m",
                       tint_sgr(FW_TINT_ACCENT), spinner(a));
        } else if (status[0] != '\0') {
            out_printf(&out, "\033[31m\xE2\x9C\x97 ");
            out_clipped(&out, status, MIN_COLS - BOX_COL - 3);
            out_str(&out, "\033[0m");
        }
        out_move(&out, HELP_ROW, BOX_COL);
        out_str(&out, "\033[90mTab/Shift-Tab move \xC2\xB7 Enter sign up \xC2\xB7 Backspace delete \xC2\xB7 Esc quit\033[0m");
        if (cursor_row >= 0) {
            out_move(&out, cursor_row, cursor_col);
            out_str(&out, "\033[?25h");
        }
    }
    write_all(out.data, out.length);
    free(out.data);
}

/* ---- Input ---- */

/* The next input byte, waiting up to timeout_ms for it (0: only what is buffered or ready); -1 if none. */
static int next_byte(app *a, int timeout_ms) {
    if (a->input_start == a->input_length) {
        struct pollfd fd;
        ssize_t got;
        fd.fd = STDIN_FILENO;
        fd.events = POLLIN;
        fd.revents = 0;
        if (poll(&fd, 1, timeout_ms) <= 0) return -1;
        got = read(STDIN_FILENO, a->input, sizeof a->input);
        if (got == 0) { /* the terminal went away */
            a->quit = true;
            return -1;
        }
        if (got < 0) return -1;
        a->input_start = 0;
        a->input_length = (size_t)got;
    }
    return a->input[a->input_start++];
}

/* Handles one key; returns false when no input is ready. */
static bool handle_key(app *a) {
    int c = next_byte(a, 0);
    bool usable = a->cols >= MIN_COLS && a->rows >= MIN_ROWS;
    if (c < 0) return false;
    if (c == 0x03) { /* Ctrl-C */
        a->quit = true;
    } else if (c == 0x1B) {
        int n = next_byte(a, 50);
        if (n < 0) { /* Esc alone */
            a->quit = true;
        } else if (n == '[' || n == 'O') { /* CSI or SS3: read to the final byte */
            int f = next_byte(a, 50), guard = 0;
            while (n == '[' && f >= 0 && (f < 0x40 || f > 0x7E) && guard++ < 16) f = next_byte(a, 50);
            if (usable && (f == 'Z' || f == 'A')) move_focus(a, -1);
            if (usable && f == 'B') move_focus(a, +1);
        }
    } else if (!usable) {
        return true;
    } else if (c == '\t') {
        move_focus(a, +1);
    } else if (c == '\r' || c == '\n') {
        submit(a);
    } else if (c == 0x7F || c == 0x08) {
        edit_value(a, NULL, 0);
    } else if (c >= 0x20 && c != 0x7F) {
        char bytes[4];
        size_t length = 1, need = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0, k;
        if (c >= 0x80 && c < 0xC0) return true; /* a stray continuation byte */
        if (c >= 0xF8) return true;
        bytes[0] = (char)c;
        for (k = 0; k < need; k++) {
            int more = next_byte(a, 50);
            if (more < 0x80 || more >= 0xC0) return true; /* malformed: dropped */
            bytes[length++] = (char)more;
        }
        edit_value(a, bytes, length);
    }
    return true;
}

static void read_size(app *a) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 && size.ws_row > 0) {
        a->cols = size.ws_col;
        a->rows = size.ws_row;
    } else {
        a->cols = MIN_COLS;
        a->rows = MIN_ROWS;
    }
}

int main(void) {
    app a;
    const char *server = getenv("SIGNUP_TUI_SERVER_MS");

    setlocale(LC_CTYPE, "");
    memset(&a, 0, sizeof a);
    a.form = build_form();
    a.server_ms = server ? (uint64_t)strtoul(server, NULL, 10) : 800;
    a.start_ms = monotonic_ms();

    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        printf("signup_tui: the form is ready, but this program needs a terminal (run `make tui`).\n");
        must(fw_form_free(a.form), "fw_form_free");
        return 0;
    }

    enter_raw_mode();
    must(fw_form_tick(a.form, now_ms(&a)), "fw_form_tick");
    must(fw_field_focus(a.form, FIELD_IDS[0]), "fw_field_focus");
    while (!a.quit) {
        struct pollfd fds[2];
        int ready;
        if (resized) {
            char drain[16];
            while (read(wake_pipe[0], drain, sizeof drain) > 0) {}
            resized = 0;
            read_size(&a);
        }
        pump_checks(&a);
        draw(&a);
        fds[0].fd = STDIN_FILENO;
        fds[0].events = POLLIN;
        fds[0].revents = 0;
        fds[1].fd = wake_pipe[0];
        fds[1].events = POLLIN;
        fds[1].revents = 0;
        ready = poll(fds, 2, a.input_start < a.input_length ? 0 : poll_timeout(&a));
        if (ready < 0 && errno != EINTR) break;
        if ((ready > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) || a.input_start < a.input_length) {
            /* The engine reads no clock: tell it the time before the events it should stamp. */
            must(fw_form_tick(a.form, now_ms(&a)), "fw_form_tick");
            while (!a.quit && handle_key(&a)) {}
        }
    }
    restore_terminal();
    free(a.text);
    free(a.request_text);
    free(a.checks);
    must(fw_form_free(a.form), "fw_form_free");
    return 0;
}
