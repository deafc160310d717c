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
 * at the end; the library writes only the members that fit in `size` bytes, so a program built
 * against an older header keeps working. A `size` smaller than the first version's struct is
 * FW_ERR_INVALID_ARGUMENT.
 *
 * Texts: the message, the display message and the value are copied, each NUL-terminated and in this
 * order, into the caller's buffer, and `message`, `display_message` and `value` point into it. A text
 * that does not fit is not copied (its pointer is NULL) and the call returns FW_ERR_BUFFER_TOO_SMALL
 * with every other member filled; `text_size` is the buffer size that holds all three. With a NULL
 * buffer of size 0 no text is copied (all three pointers NULL) and the call succeeds.
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
} fw_snapshot;

/**
 * One rule for fw_form_add_field_with_rules. Set `size` to sizeof(fw_rule) in every element (the
 * same growth rule as fw_snapshot) and `kind` to an fw_rule_kind; the other members are read as the
 * kind needs them and ignored otherwise.
 */
typedef struct fw_rule {
    /** In: sizeof(fw_rule) as the caller was compiled with. */
    size_t size;
    /** An fw_rule_kind. */
    int32_t kind;
    /** FW_RULE_MIN_LENGTH / FW_RULE_MAX_LENGTH: the length in characters. */
    int32_t length;
    /** FW_RULE_REGEX: the pattern; FW_RULE_MATCHES: the other field's id. */
    const char *text;
    /** Replaces the rule's default message; NULL for the default. */
    const char *message;
    /** FW_RULE_CUSTOM: the validator, its context and the context's destructor (may be NULL). */
    fw_validate_fn validate;
    void *context;
    fw_destroy_fn destroy;
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

#endif /* FORMWELL_TYPES_H */
