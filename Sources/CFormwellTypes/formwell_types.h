/* The C types of Formwell's ABI that Swift cannot declare for C itself: structs and callback
   typedefs. Swift imports them from here (so both sides share one layout) and
   scripts/gen_header.py copies the part between the FW_TYPES markers into include/formwell.h. */
#ifndef FORMWELL_TYPES_H
#define FORMWELL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* FW_TYPES BEGIN */
/**
 * A custom validator. Called with the context given when the rule was added, the field's non-empty
 * value (NUL-terminated valid UTF-8) and its length in bytes. Returns an fw_verdict. On
 * FW_VERDICT_INVALID it may set *out_message to a NUL-terminated message, which the library copies
 * as soon as the function returns (invalid UTF-8 is replaced by U+FFFD). The field's message is the
 * `message` given when the rule was added if there was one, else *out_message, else "Invalid value".
 * Any other return value counts as FW_VERDICT_ERROR.
 * It runs under the form's lock, and its own calls never wait for a lock: a call on the same form,
 * or on a form another thread is using, returns FW_ERR_BUSY (so validators can never deadlock).
 */
typedef int32_t (*fw_validate_fn)(void *context, const char *value, size_t value_length,
                                  const char **out_message);

/** Releases a custom validator's context when the form owning the rule is freed. */
typedef void (*fw_destroy_fn)(void *context);

/**
 * One field's whole state, read in one call (fw_field_snapshot, fw_field_snapshot_at,
 * fw_form_snapshots) under the form's lock: the members and the copied texts always describe the
 * same moment, even while other threads change the form.
 *
 * Growth rule: set `size` to sizeof(fw_snapshot) before the call. Later versions only append members
 * at the end; the library writes the members of the newest version that fits in `size` bytes and
 * nothing past them, so a program built against an older header keeps working. A `size` smaller
 * than the first version's struct is FW_ERR_INVALID_ARGUMENT.
 *
 * Versions: the first version ends with `value`; the second appends the members from `visited` to
 * `errors` (flags, the effective mode, the tint, the revision, the error list, the label, the
 * initial value and the accessibility hint); the third appends `secret` to `normalized` (the
 * value after the field's normalisers); the fourth appends `code_length` to `error_codes` (the
 * stable failure codes and parameters of the messages). A caller whose `size` does not
 * cover a version's members gets the members and texts of the versions before it only.
 *
 * Texts: the message, the display message and the value (first version), then the label, the
 * initial value, the hint and the error list (second version), then the normalised value (third
 * version), then the code, the parameters, the display code, the display parameters and the code
 * list (fourth version) are copied, each NUL-terminated and in this order, into the caller's buffer, and the pointer members point into it. A text that does not
 * fit is not copied (its pointer is NULL, and so are the pointers of the texts after it) and the call
 * returns FW_ERR_BUFFER_TOO_SMALL with every other member filled; `text_size` is the buffer size that
 * holds every text of the caller's version. With a NULL buffer of size 0 no text is copied (every
 * pointer NULL) and the call succeeds.
 */
typedef struct fw_snapshot {
    /** In: sizeof(fw_snapshot) as the caller was compiled with. */
    size_t size;
    /** The field's index in registration order (see fw_form_field_index). */
    size_t index;
    /** An fw_phase. */
    int32_t phase;
    /** An fw_validity: how the value fares in the current phase (FW_VALIDITY_EMPTY when idle). */
    int32_t validity;
    /** An fw_display: what a view surfaces (FW_DISPLAY_NONE until touched). */
    int32_t display;
    /** Index of the rule whose message `message` is (order of addition, from 0); -1 unless invalid. */
    int32_t failing_rule;
    /** Blurred or touched since it was added or the form was reset. */
    bool touched;
    /** The verdict comes from a pattern that hit its match limits ("This value is too complex to check"). */
    bool limit_exceeded;
    /** Length in bytes (without NUL) of the message of an invalid validity, else 0. */
    size_t message_length;
    /** Length in bytes of the message to surface (FW_DISPLAY_ERROR), else 0. */
    size_t display_message_length;
    /** Length in bytes of the current value. */
    size_t value_length;
    /** Buffer size, in bytes, that holds all three texts with their NULs. */
    size_t text_size;
    /** The message, in the caller's buffer ("" unless invalid), or NULL when not copied. */
    const char *message;
    /** The message to surface, in the caller's buffer, or NULL when not copied. */
    const char *display_message;
    /** The value, in the caller's buffer, or NULL when not copied. */
    const char *value;
    /* Second version. */
    /** Version 2. Has had focus (fw_field_focus) since it was added or the form was reset. */
    bool visited;
    /** Version 2. The value differs from the initial value, byte for byte (UTF-8). */
    bool dirty;
    /** Version 2. A set-value changed the value since the field last took part in a validate (whole form or one of its groups) or the form was reset. */
    bool modified_since_submit;
    /** Version 2. An error set with fw_field_set_error is in force (then failing_rule is -1). */
    bool external_error;
    /** Version 2. The floating label sits above the field: false only when idle with an empty value. */
    bool label_raised;
    /** Version 2. The field is drawn emphasized: it has focus. */
    bool emphasized;
    /** Version 2. The fw_mode the field is judged in: its own, else the form's (never FW_MODE_FORM). */
    int32_t mode;
    /** Version 2. An fw_tint: the colour role of the field's input state. */
    int32_t tint;
    /** Version 2. The form revision at which this field's state last changed (see fw_form_changed_since). */
    uint64_t revision;
    /** Version 2. The number of messages in `errors`: 0 unless the validity is FW_VALIDITY_INVALID; 1 in FW_ERRORS_FIRST; every failing rule's in FW_ERRORS_ALL. */
    size_t error_count;
    /** Version 2. Length in bytes of the label (the id when the field has no label). */
    size_t label_length;
    /** Version 2. Length in bytes of the initial value. */
    size_t initial_length;
    /** Version 2. Length in bytes of the accessibility hint. */
    size_t hint_length;
    /** Version 2. Bytes of the error list, its NULs included (error_count messages, each followed by a NUL); 0 when error_count is 0. */
    size_t errors_size;
    /** Version 2. The label, else the id, in the caller's buffer, or NULL when not copied. */
    const char *label;
    /** Version 2. The initial value (what fw_form_reset restores), in the caller's buffer, or NULL when not copied. */
    const char *initial;
    /** Version 2. The accessibility hint (a prompt to correct the field), "" unless the display is FW_DISPLAY_ERROR; in the caller's buffer, or NULL when not copied. */
    const char *hint;
    /**
     * Version 2. The error list in the caller's buffer, or NULL when not copied: error_count
     * NUL-terminated messages one after another (the first is `message`), errors_size bytes in all,
     * then one more NUL (so an empty list reads as "" and the list ends at an empty string).
     * The accessibility value of the field is `display_message` while the display is FW_DISPLAY_ERROR.
     */
    const char *errors;
    /* Third version. */
    /** Version 3. The field is secret (fw_field_set_secret): its value is never echoed outside `value` and `normalized`. */
    bool secret;
    /** Version 3. Length in bytes of the normalised value. */
    size_t normalized_length;
    /**
     * Version 3. The value after the field's normalisers (fw_field_set_normalizers), in the caller's
     * buffer, or NULL when not copied: what the rules judged and what a submission uses. The same
     * text as `value` when the field has no normalisers or they left the value as it was; `value` is
     * always what was set (what a view shows back while the user types).
     */
    const char *normalized;
    /* Fourth version. */
    /** Version 4. Length in bytes of `code`. */
    size_t code_length;
    /** Version 4. Length in bytes of `params`. */
    size_t params_length;
    /** Version 4. Length in bytes of `display_code`. */
    size_t display_code_length;
    /** Version 4. Length in bytes of `display_params`. */
    size_t display_params_length;
    /** Version 4. Bytes of the code list, its NULs included (error_count codes); 0 when error_count is 0. */
    size_t error_codes_size;
    /**
     * Version 4. The stable code of the failure `message` reports ("required", "min_length",
     * "pattern_limit", "external", ...; see fw_rule_catalog and the rule table in docs/rules-and-messages.md), "" unless
     * the validity is FW_VALIDITY_INVALID; in the caller's buffer, or NULL when not copied. Codes
     * never change with the locale (fw_form_set_locale): a view may word its own messages from them.
     */
    const char *code;
    /**
     * Version 4. The failure's parameters as a JSON object, keys sorted ("{\"length\":8,\"unit\":
     * \"graphemes\"}": integers as numbers, decimal bounds and strings as strings, lists as arrays),
     * "{}" for none; in the caller's buffer, or NULL when not copied. Never holds a field's value.
     */
    const char *params;
    /** Version 4. The code of `display_message`, "" unless the display is FW_DISPLAY_ERROR (or NULL when not copied). */
    const char *display_code;
    /** Version 4. The parameters of `display_message` as a JSON object, "{}" for none (or NULL when not copied). */
    const char *display_params;
    /** Version 4. The code of each message in `errors`, laid out as `errors` (error_count NUL-terminated codes, then one more NUL), or NULL when not copied. */
    const char *error_codes;
} fw_snapshot;

/**
 * The result of fw_check_value: one value checked against rules without a form (single-value
 * validation). Set `size` to sizeof(fw_check_result) before the call (the growth rule of
 * fw_snapshot). Texts (message, code, parameters) are copied into the caller's buffer in this
 * order, as fw_snapshot's are: a text that does not fit is NULL with those after it, and the call
 * returns FW_ERR_BUFFER_TOO_SMALL with every other member filled.
 */
typedef struct fw_check_result {
    /** In: sizeof(fw_check_result) as the caller was compiled with. */
    size_t size;
    /** FW_VALIDITY_EMPTY (an empty value no required rule refuses), FW_VALIDITY_VALID or FW_VALIDITY_INVALID. */
    int32_t validity;
    /** Index of the failing rule in the rules given (from 0); -1 unless invalid. */
    int32_t failing_rule;
    /** The verdict comes from a pattern that hit its match limits (code "pattern_limit"). */
    bool limit_exceeded;
    /** Lengths in bytes (without NUL) of the message, the code and the parameters. */
    size_t message_length;
    size_t code_length;
    size_t params_length;
    /** Buffer size, in bytes, that holds every text with its NUL. */
    size_t text_size;
    /** The message in the requested locale ("" unless invalid), or NULL when not copied. */
    const char *message;
    /** The failure's stable code ("" unless invalid), or NULL when not copied. */
    const char *code;
    /** The failure's parameters as a JSON object ("{}" for none), or NULL when not copied. */
    const char *params;
} fw_check_result;

/**
 * The form's own state (fw_form_get_info), read in one call. Set `size` to sizeof(fw_form_info)
 * before the call (the growth rule of fw_snapshot). The first version ends with `error_mode`; the
 * second appends `pending_count`, `stale_results` and `now_ms` (asynchronous rules), written only
 * when `size` covers them.
 */
typedef struct fw_form_info {
    /** In: sizeof(fw_form_info) as the caller was compiled with. */
    size_t size;
    /** The number of fields. */
    size_t field_count;
    /** The number of dirty fields (value differs from the initial value). */
    size_t dirty_count;
    /** The form's revision: goes up with every event that changes anything observable (see fw_form_changed_since). */
    uint64_t revision;
    /** Whole-form validates (fw_form_validate, fw_form_validate_group with a NULL group) since creation or the last reset; group validates and batch checks do not count. */
    int32_t submit_count;
    /** The last whole-form validate answered false (cleared by a reset). */
    bool submit_failed;
    /** Some field is dirty. */
    bool dirty;
    /** The form's fw_mode (fields without their own follow it). */
    int32_t mode;
    /** The form's fw_error_mode. */
    int32_t error_mode;
    /* Second version. */
    /** Version 2. The number of fields whose verdict is pending: an asynchronous check is scheduled or handed out and not yet resolved (fw_form_submit answers FW_SUBMIT_PENDING for them). */
    size_t pending_count;
    /** Version 2. Results dropped as stale since the form was created (fw_form_resolve with *out_stale true). */
    size_t stale_results;
    /** Version 2. The host's time as last told (fw_form_tick, fw_form_next_request), in milliseconds; 0 until then. */
    uint64_t now_ms;
} fw_form_info;

/**
 * One asynchronous check the host is asked to make (fw_form_next_request): the rule named `rule` on
 * the field's exact `value`. Resolve it by `id` (fw_form_resolve) whenever the check answers, from
 * any thread; a result that arrives after the field's value changed is dropped as stale.
 *
 * Growth rule: as fw_snapshot (set `size` to sizeof(fw_request); later versions only append).
 *
 * Texts: the field id, the value and the rule name are copied, each NUL-terminated and in this
 * order, into the caller's buffer, and the pointer members point into it. When they do not all fit
 * nothing is copied (every pointer NULL), the request is NOT handed out, and the call returns
 * FW_ERR_BUFFER_TOO_SMALL with the other members filled: `text_size` is the buffer size to retry with.
 */
typedef struct fw_request {
    /** In: sizeof(fw_request) as the caller was compiled with. */
    size_t size;
    /** The request's id, unique in the form (the first is 1, then one more per request created). */
    uint64_t id;
    /** The host time (ms) from which it was due: when the value was set plus the rule's debounce (or the time of a submit that flushed it). */
    uint64_t due;
    /** The field's index in registration order when the request was handed out. */
    size_t field_index;
    /** Length in bytes of the field id. */
    size_t field_id_length;
    /** Length in bytes of the value to check. */
    size_t value_length;
    /** Length in bytes of the rule name. */
    size_t rule_length;
    /** Buffer size, in bytes, that holds all three texts with their NULs. */
    size_t text_size;
    /** The field id, in the caller's buffer, or NULL when not copied. */
    const char *field_id;
    /** The value to check, in the caller's buffer, or NULL when not copied. */
    const char *value;
    /** The asynchronous rule's name, in the caller's buffer, or NULL when not copied. */
    const char *rule;
} fw_request;

/**
 * One rule for fw_form_add_field_with_rules. Set `size` to sizeof(fw_rule) in every element (the
 * same growth rule as fw_snapshot) and `kind` to an fw_rule_kind; the other members are read as the
 * kind needs them and ignored otherwise. The first version ends with `destroy`; the second appends
 * `hint`, read only when `size` covers it.
 */
typedef struct fw_rule {
    /** In: sizeof(fw_rule) as the caller was compiled with. */
    size_t size;
    /** An fw_rule_kind. */
    int32_t kind;
    /** FW_RULE_MIN_LENGTH / FW_RULE_MAX_LENGTH: the length in characters; FW_RULE_ASYNC: the debounce in milliseconds (negative: the default, 500). */
    int32_t length;
    /** FW_RULE_REGEX: the pattern; FW_RULE_MATCHES: the other field's id; FW_RULE_ASYNC: the rule's name;
        FW_RULE_JSON: a whole rule object as in a spec; every kind after FW_RULE_ASYNC: the JSON object
        of its parameters by name (NULL: none), e.g. {"schemes": ["https"]} for FW_RULE_URL. */
    const char *text;
    /** Replaces the rule's default message; NULL for the default. */
    const char *message;
    /** FW_RULE_CUSTOM: the validator, its context and the context's destructor (may be NULL). */
    fw_validate_fn validate;
    void *context;
    fw_destroy_fn destroy;
    /** Version 2. The accessibility hint shown while the field's display shows this rule's message; NULL for the kind's default hint. */
    const char *hint;
} fw_rule;

/**
 * One field's values for every record of a batch (fw_form_check_batch), in the Apache Arrow layout
 * of a string column, so Arrow arrays, NumPy buffers or plain C arrays pass without copying:
 * record i's value is the UTF-8 bytes data[offsets[i] .. offsets[i+1]). Set `size` to
 * sizeof(fw_column) in every element (the growth rule of fw_snapshot).
 *
 * The library checks everything it can before reading a value: offsets not negative, never
 * decreasing, within data_size; every non-null value well-formed UTF-8. It cannot check that the
 * arrays are as long as promised: offsets must hold record_count + 1 entries, validity
 * (record_count + 7) / 8 bytes.
 */
typedef struct fw_column {
    /** In: sizeof(fw_column) as the caller was compiled with. */
    size_t size;
    /** The field these values are for; NULL: the field whose index is this column's position. */
    const char *field_id;
    /** record_count + 1 offsets into data, each int32_t or int64_t (offset_size), aligned to it. */
    const void *offsets;
    /** The values' bytes; may be NULL when data_size is 0. */
    const char *data;
    /** Arrow validity bitmap (bit i of byte i / 8, least significant bit first; a clear bit is a
        null, read as ""), or NULL when no value is null. */
    const uint8_t *validity;
    /** Bytes readable at data. */
    size_t data_size;
    /** 4 (int32_t offsets, Arrow's utf8) or 8 (int64_t, Arrow's large_utf8). */
    int32_t offset_size;
    /** Set to 0. */
    int32_t reserved;
} fw_column;

/*
 * The Apache Arrow C Data Interface (verbatim from the Arrow specification), for
 * fw_form_check_arrow and fw_form_arrow_message. Guarded by ARROW_C_DATA_INTERFACE as the
 * specification asks, so a program that already has these structs (arrow/c/abi.h, nanoarrow)
 * compiles with this header too.
 */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE
/* FW_TYPES END */

/* Internal to the library (not copied into formwell.h): the sizes of the snapshot struct's versions
   as compile-time constants. Swift's MemoryLayout.offset(of:) in a static let costs a swift_once
   check on every snapshot call. */
static inline size_t formwell_snapshot_v1_size(void) { return offsetof(fw_snapshot, visited); }
static inline size_t formwell_snapshot_v2_size(void) { return offsetof(fw_snapshot, errors) + sizeof(const char *); }
static inline size_t formwell_snapshot_v3_size(void) { return offsetof(fw_snapshot, normalized) + sizeof(const char *); }
static inline size_t formwell_check_result_v1_size(void) { return offsetof(fw_check_result, params) + sizeof(const char *); }
static inline size_t formwell_snapshot_v4_size(void) { return offsetof(fw_snapshot, error_codes) + sizeof(const char *); }

#endif /* FORMWELL_TYPES_H */
