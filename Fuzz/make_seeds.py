#!/usr/bin/env python3
"""Writes the seed corpora Fuzz/TextInputs/corpus, Fuzz/CallSequences/corpus, Fuzz/BatchColumns/corpus,
Fuzz/ArrowStructs/corpus and Fuzz/AsyncSequences/corpus (their NN-name seeds; other files there stay).

Deterministic; reads /work/shared/corpora (or $FORMWELL_CORPORA) when present, falling back to built-in
strings. Re-run after changing an input format:  python3 Fuzz/make_seeds.py
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPORA = os.environ.get("FORMWELL_CORPORA", "/work/shared/corpora")
SEP = b"\x1f"


def load(name):
    path = os.path.join(CORPORA, name)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def enc(s):
    return s.encode("utf-8", "surrogatepass")


def write(directory, seeds):
    # Only this script's own seeds (NN-name) are replaced: the corpus also holds hand-kept regression-*
    # inputs and what the long campaigns added (scripts/fuzz.sh campaign), which stay.
    os.makedirs(directory, exist_ok=True)
    for old in os.listdir(directory):
        if len(old) > 3 and old[:2].isdigit() and old[2] == "-":
            os.remove(os.path.join(directory, old))
    for i, (name, data) in enumerate(seeds):
        with open(os.path.join(directory, f"{i:02d}-{name}"), "wb") as f:
            f.write(data)


# ---- TextInputs: flags, then id | label | initial | value | pattern | message | value2 | numbers ----

def text_seed(flags, id_, label, initial, value, pattern, message, value2, minimum=0, maximum=0, sizes=b""):
    numbers = struct.pack("<iiQ", minimum, maximum, 0) + sizes
    return bytes([flags]) + SEP.join([id_, label, initial, value, pattern, message, value2, numbers])


def text_inputs():
    seeds = []
    email = load("validatorjs_email_url_phone.json") or {}
    whatwg = load("whatwg_html_email_wpt.json") or {}
    redos = load("redos_patterns.json") or []
    uni = load("unicode_length_and_utf8.json") or {}
    urls = load("wpt_urltestdata_absolute.json") or []

    spec_regex = whatwg.get("spec", {}).get("regex") if isinstance(whatwg.get("spec"), dict) else None
    email_pattern = enc(spec_regex.strip("/").lstrip("^").rstrip("$")) if spec_regex else \
        rb"[a-zA-Z0-9.!#$%&'*+\/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*"
    valid = email.get("email_valid", ["foo@bar.com"])[:4]
    invalid = email.get("email_invalid", ["invalidemail@"])[:4]
    for i, (v, w) in enumerate(zip(valid, invalid)):
        seeds.append((f"email{i}", text_seed(0, b"email", b"E-mail", b"", enc(v), email_pattern, b"Invalid email format",
                                             enc(w), 3, 254, bytes([i * 7, 8]))))
    for i, u in enumerate(email.get("url_valid", ["http://example.com"])[:2] + [e["input"] for e in urls[:2] if isinstance(e, dict)]):
        seeds.append((f"url{i}", text_seed(4, b"website", b"Site", enc(u), enc(u), rb"https?://\S+", b"", b"ftp://x", 0, 2048)))
    for i, entry in enumerate(redos[:6]):
        attack = entry.get("attack_prefix", "") + entry.get("pump", "") * min(int(entry.get("pump_count", 20)), 40) + entry.get("suffix", "")
        seeds.append((f"redos{i}", text_seed(2, b"r", b"", b"", enc(attack[:300]), enc(entry["pattern"][:300]), b"too complex?",
                                             enc(attack[:40]), 1, 500)))
    for i, s in enumerate(uni.get("valid_strings", [])[:8]):
        string = enc(s["string"])
        seeds.append((f"unicode{i}", text_seed(0, string, string, string, string, rb"\X+", string, string,
                                               s.get("grapheme_clusters", 1), s.get("grapheme_clusters", 1), bytes([len(string), 0]))))
    bad = [c for c in uni.get("utf8_stress_cases", []) if not c.get("expected_valid_utf8")]
    for i, c in enumerate(bad[:8]):
        raw = bytes.fromhex(c["hex"].replace(" ", ""))
        seeds.append((f"malformed{i}", text_seed(i & 7, raw if i % 2 else b"id", raw, raw if i % 3 == 0 else b"ok",
                                                 b"a" + raw, raw + b"+", raw, raw + b"z", -1, 5)))
    # Embedded NULs, empty everything, huge lengths, pattern errors.
    seeds.append(("nul", text_seed(0, b"a\x00b", b"l\x00", b"\x00", b"x\x00y", b"a\x00(", b"m\x00", b"\x00", 0, 1)))
    seeds.append(("empty", text_seed(7, b"", b"", b"", b"", b"", b"", b"", 0, 0)))
    seeds.append(("bounds", text_seed(0, b"n", b"", b"", b"abc", b"(", b"", b"abcdef", 2**31 - 1, -2**31)))
    seeds.append(("badpattern", text_seed(0, b"p", b"", b"", b"aaa", b"(?<n>a)(?<n>b)\\", b"", b"", 4, 2)))
    return seeds


# ---- CallSequences: opcode stream (see CallSequencesFuzzer.swift: Session.step) ----
# Every op: opcode, handle byte (0 = live form 0), then its own bytes. The last quarter of the input
# feeds the validators' verdicts.

def op(code, *rest, handle=0):
    return bytes([code, handle]) + bytes(rest)


CREATE = op(0, 0)
def add_field(idb, label=15, initial=16): return op(2, idb, label, initial)   # idb: 2*k picks idPool[k] (no field yet)
def required(fid=0, msg=0): return op(3, fid, msg)
def email(fid=0, msg=0): return op(4, fid, msg, 1)
def min_len(n, fid=0, msg=0): return op(5, fid, msg, n)
def max_len(n, fid=0, msg=0): return op(6, fid, msg, n)
def regex(pattern, fid=0, msg=0): return op(7, fid, msg, pattern)
def matches(other, fid=0, msg=0): return op(8, fid, msg, other)
def custom(flags=0, fid=0, msg=0): return op(9, fid, msg, flags)
def focus(fid=0): return op(10, fid)
def blur(fid=0): return op(11, fid)
def set_value(v, fid=0): return op(12, fid, v)
def touch(fid=0): return op(13, fid)
TOUCH_ALL = op(14)
def validate(null=0): return op(15, null)
RESET = op(16)
def query(which, fid=0): return op(17, fid, which)
def string_query(which, size, mode=0, index=0, fid=0): return op(18, fid, which, size, mode, index)
def count(null=0, which=1): return op(19, null, which)
def limits(m, d, h): return bytes([20, 0]) + struct.pack("<III", m, d, h)
FREE = op(1)
# Opcodes 22-28 (snapshots, update, add_field_with_rules, match limits read-back, index events).
# size: pickSnapshotSize byte (0 = sizeof, 9 = +8, 11 = too small, 13 = unaligned, 14 = absurd);
# buf: pickTextSize byte (0 NULL/0, 1 NULL+size, 2 zero, 3 message-1, 4 message, 5 inside display,
# 6 message+display, 7 text_size-1, 8 text_size, 10 larger, 11 r bytes).
def snap(fid=0, size=0, buf=8, r=0, handle=0): return op(22, size, buf, r, fid, handle=handle)
def snap_at(index=0, size=0, buf=8, r=0, handle=0): return op(23, size, buf, r, index, handle=handle)
def snaps(flags=0, cap=7, size=0, buf=8, r=0, handle=0): return op(24, flags, cap, size, buf, r, handle=handle)
def update(v, fid=0, size=0, buf=8, r=0, handle=0): return op(25, 0, v, size, buf, r, fid, handle=handle)
def update_at(v, index=0, size=0, buf=8, r=0, handle=0): return op(25, 1, v, size, buf, r, index, handle=handle)
def with_rules(idb, rules, label=15, initial=16, flags=None, extra=0, handle=0):
    # rules: list of byte strings, each kind byte + message byte + kind-specific bytes
    if flags is None: flags = len(rules)
    return op(26, idb, label, initial, flags, extra, handle=handle) + b"".join(rules)
def rule(kind, *rest, msg=0): return bytes([kind, msg]) + bytes(rest)
def rule_flags(count, stride_mode=0, null_when_empty=False):
    # flags % 6 = rule count; (flags >> 3) % 16 = stride (0-10 sizeof, 11-12 +8, 13 +64, 14 too small, 15 unaligned);
    # bit 6 with no rules: pass NULL
    return next(f for f in range(256) if f % 6 == count and ((f >> 3) % 16 <= 10 if stride_mode == 0 else (f >> 3) % 16 == stride_mode)
                and (count > 0 or bool(f & 0x40) == null_when_empty))
R_REQUIRED, R_EMAIL, R_PHONE, R_MIN, R_MAX, R_REGEX, R_MATCHES, R_CUSTOM, R_BADKIND = 0, 1, 2, 3, 4, 5, 6, 7, 9
# FW_RULE_ASYNC: kind byte % 10 == 9 and (byte >> 4) % 6 == 5; 0x59 names it "\u00e9" with a huge debounce,
# 0xBD names it "f" * 100 with a negative length (the default 500 ms) and decoy validator members.
R_ASYNC, R_ASYNC_DEFAULT = 0x59, 0xBD
def read_limits(mask=0, handle=0): return op(27, mask, handle=handle)
# Opcodes 29-34: asynchronous rules. name: pickOptional over idPool + [None] (3 "email", 7 empty, 8 bad UTF-8,
# 15 NULL); debounce byte % 4 * 100 ms; times are byte * 10 ms.
def add_async(name=3, fid=0, msg=0, debounce=0, handle=0): return op(29, fid, msg, name, debounce, handle=handle)
def tick(now, handle=0): return op(30, now, handle=handle)
# size: 0 sizeof, 5 +8, 6 too small, 7 unaligned, 0xFF NULL; buf % 5: 0 NULL/0, 1 NULL+5, 2 (buf >> 3) bytes,
# 3-4 512 bytes; buf 0xFF: NULL out_found.
def take(now, size=0, buf=3, handle=0): return op(31, now, size, buf, handle=handle)
# choice % 4: 0-1 a request handed out (choice >> 2 picks which), 2 one resolved before, 3 garbage id;
# verdict byte % 8: 0-5 valid/invalid/error, 6-7 not a verdict; bit 7: NULL out_stale.
def resolve(choice=0, verdict=0, msg=0, handle=0): return op(32, choice, verdict, msg, handle=handle)
def submit(g=1, handle=0): return op(33, g, handle=handle)    # g % 4 == 0: a group (idPool[g >> 2]); 0xFF: NULL out
def next_due(nulls=0, handle=0): return op(34, nulls, handle=handle)  # nulls % 8: 1 NULL due, 2 NULL scheduled
# Opcode 35: the time bound. Even choice byte: fw_form_set_time_limit(int32 % 20001 µs); odd: fw_form_time_limit
# read back (0xFF: NULL out).
def set_time_limit(micros, handle=0): return bytes([35, handle, 0]) + struct.pack("<I", micros)
def read_time_limit(choice=1, handle=0): return op(35, choice, handle=handle)
def index_event(kind, fid=0, rand_index=None, value=None, handle=0):
    # kind: 0 focus_at, 1 blur_at, 2 set_value_at, 3 touch_at; rand_index: a pickIndex byte instead of the looked-up index
    lookup = kind | (0x30 if rand_index is not None else 0)
    rest = bytes([fid, lookup]) + (bytes([rand_index]) if rand_index is not None else b"") + (bytes([1 if value is None else value]) if kind == 2 else b"")
    return bytes([28, handle]) + rest


def sequence(steps, verdicts=b""):
    body = b"".join(steps)
    # The harness splits at 3/4 of the length: pad the verdict part so the split lands after the steps.
    tail = verdicts or b"\x00\x01\x02\x03\x07\x08\x05\x06\x09\x04"
    while len(body) < 3 * len(tail):
        tail = tail[:-1] if len(tail) > 1 else tail
        if len(body) >= 3 * len(tail):
            break
        body += b"\x13\x00\x00\x00"  # harmless count query as filler
    total = len(body) + len(tail)
    split = total // 4 * 3
    if split < len(body):
        tail = tail + b"\x00" * (4 * (len(body) - split))
    return body + tail


def call_sequences():
    seeds = []
    # Field a (idPool[0]) then b (idPool[1]); fid 0 = first existing field, 2 = second.
    seeds.append(("registration", sequence([CREATE, add_field(0), add_field(2), required(0), email(0), min_len(3, 2), max_len(8, 2),
                                              focus(0), set_value(3, 0), blur(0), set_value(2, 2), validate(), string_query(1, 40)])))
    seeds.append(("confirm", sequence([CREATE, add_field(0), add_field(2), matches(0, 2), set_value(1, 0), set_value(2, 2), blur(2),
                                         string_query(2, 5, 0), set_value(1, 2), TOUCH_ALL, RESET])))
    seeds.append(("custom", sequence([CREATE, add_field(0, 15, 1), custom(0), set_value(2), set_value(3), blur(), validate(), FREE],
                                     b"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a")))
    seeds.append(("reenter", sequence([CREATE, add_field(0, 15, 2), custom(0), focus(), set_value(1), touch(), TOUCH_ALL, FREE],
                                      b"\x07\x07\x07\x08\x07\x07")))
    seeds.append(("redos", sequence([CREATE, add_field(0), regex(1), set_value(10), limits(1000, 10, 10), set_value(10),
                                       query(4), limits(0, 1, 1), string_query(1, 12)])))
    seeds.append(("patterns", sequence([CREATE, add_field(0)] + [regex(p) for p in range(16)] + [set_value(v) for v in range(0, 16, 3)])))
    seeds.append(("canonical", sequence([CREATE, add_field(10), add_field(12), set_value(5, 0), string_query(0, 3), string_query(4, 2, 0, 1)])))
    seeds.append(("badids", sequence([CREATE, add_field(14), add_field(16), add_field(18), add_field(20), add_field(28), add_field(26)])))
    seeds.append(("handles", sequence([CREATE, CREATE, op(1, handle=1), op(12, 0, 1, handle=6), op(1, handle=7),
                                        bytes([2, 8]) + b"\x10\x32\x54\x76\x98\xba\xdc\xfe" + b"\x00\x0f\x10", count(0x5A)])))
    seeds.append(("buffers", sequence([CREATE, add_field(0, 15, 13)] + [string_query(w, s, m) for w in range(6) for s, m in
                                                                          ((0, 0), (0, 1), (1, 0), (3, 2), (39, 0), (5, 1))])))
    seeds.append(("lengths", sequence([CREATE, add_field(0), min_len(2), max_len(10), max_len(3), set_value(2), blur(),
                                         set_value(13), min_len(0xC0) + b"\xff\xff\xff\x7f"])))
    seeds.append(("queries", sequence([CREATE, add_field(0), focus(), query(0), query(1), query(2), query(3), query(4), query(0x80),
                                         count(0, 0), count(0, 1), validate(0x5A), op(0, 0, 0x5A)])))
    seeds.append(("manyforms", sequence([CREATE, CREATE, CREATE, CREATE, add_field(0), op(2, 0, 15, 16, handle=10),
                                           op(1, handle=10), op(1, handle=20), FREE, FREE])))
    seeds.append(("focusmove", sequence([CREATE, add_field(0), add_field(2), add_field(4), required(0), focus(0), focus(2), focus(4),
                                           set_value(0, 4), blur(4), RESET, validate()])))
    seeds.append(("empty", b""))
    # 15-: the snapshot / index / atomic-rules functions.
    seeds.append(("snapshots", sequence([CREATE, add_field(0), add_field(2), required(0), min_len(3, 0), focus(0), set_value(1, 0),
                                           blur(0), set_value(11, 2), touch(2)]
                                          + [snap(0, 0, b, 5) for b in range(12)] + [snap_at(2, 0, b, 40) for b in (0, 3, 5, 7, 8)]
                                          + [snap(0, s, 8) for s in (9, 10, 11, 12, 13, 14, 15, 0x1E)]
                                          + [snap_at(i) for i in (5, 6, 0x86, 0xF7)]
                                          + [snaps(0, c, 0, b, 9) for c, b in ((7, 8), (0, 0), (4, 8), (5, 8), (6, 8), (7, 3), (7, 7), (7, 11))]
                                          + [snaps(f) for f in (3, 0x0C, 0x10, 0xE0)] + [snaps(0, 7, s) for s in (9, 11, 13)])))
    seeds.append(("update", sequence([CREATE, add_field(0), add_field(2), required(0), max_len(5, 0), matches(0, 2), focus(0),
                                        update(2, 0), update(10, 0, 0, 7), update(0, 0, 0, 0), update_at(11, 2, 0, 3),
                                        update_at(1, 0, 9, 8), update(8, 0), update_at(3, 7), update(1, 0, 11), update(1, 0, 0, 1),
                                        update(1, 0, 0, 0xFF), blur(0), update_at(0, 0, 0, 8), update_at(2, 2, 13, 2), TOUCH_ALL,
                                        snaps(0, 7, 0, 8)])))
    seeds.append(("withrules", sequence([CREATE, add_field(0, 15, 2),
                                           with_rules(2, [rule(R_REQUIRED), rule(R_MIN, 2), rule(R_MAX, 8), rule(R_EMAIL, msg=1)]),
                                           with_rules(4, [rule(R_REGEX, 0), rule(R_MATCHES, 0, 0), rule(R_CUSTOM, 0), rule(R_PHONE | 0x80)], initial=2),
                                           with_rules(6, [rule(R_REGEX, 4)]),                  # bad pattern: refused, nothing added
                                           with_rules(6, [rule(R_MIN, 5), rule(R_MAX, 3)]),    # contradicting lengths
                                           with_rules(6, [rule(R_BADKIND), rule(R_REQUIRED)]),
                                           with_rules(6, [rule(R_MATCHES, 0xDF)]),              # NULL text
                                           with_rules(6, [rule(R_MATCHES, 7)]),                 # matches itself
                                           with_rules(6, [rule(R_CUSTOM, 7)]),                  # NULL validator
                                           with_rules(6, [rule(R_REQUIRED), rule(R_REQUIRED)], extra=0xF1),  # size mismatch
                                           with_rules(6, [rule(R_REQUIRED)], flags=rule_flags(1, 14)),          # size too small
                                           with_rules(6, [rule(R_REQUIRED)], flags=rule_flags(1, 15)),          # unaligned size
                                           with_rules(6, [rule(R_REQUIRED)], flags=rule_flags(1, 13)),          # larger stride
                                           with_rules(6, [rule(R_REQUIRED)], extra=0xFF),                   # NULL array
                                           with_rules(8, [rule(R_CUSTOM, 8), rule(R_CUSTOM, 0)], initial=3),  # validators on the initial value
                                           with_rules(0, []), with_rules(10, [], flags=rule_flags(0, 0, True)),
                                           snaps(0, 7, 0, 8), set_value(2, 4), blur(4), snap(4), FREE],
                                          b"\x00\x01\x04\x02\x00\x07\x05\x00\x01\x03")))
    seeds.append(("indexops", sequence([CREATE, add_field(0), add_field(2), add_field(4), required(2), min_len(2, 4)]
                                         + [index_event(k, f) for k in range(4) for f in (0, 2, 4)]
                                         + [index_event(2, 4, value=v) for v in (0, 1, 8)]
                                         + [index_event(k, 0, rand_index=i) for k in range(4) for i in (5, 6, 0x86, 0x47)]
                                         + [index_event(0, 0xFF), bytes([28, 0, 0, 0xFF, 0])]
                                         + [snaps(0, 7, 0, 8)])))
    seeds.append(("limits", sequence([CREATE, add_field(0), regex(1), read_limits(), limits(1000, 10, 10), read_limits(),
                                        limits(0, 5, 5), read_limits(), read_limits(5), read_limits(7), set_value(10), snap(0),
                                        read_limits(handle=7), read_limits(handle=6)])))
    seeds.append(("stale", sequence([CREATE, add_field(0), CREATE, op(1, handle=10), CREATE, snap(0, handle=6), snap_at(0, handle=6),
                                       snaps(handle=6), update(1, handle=6), update_at(1, handle=6), read_limits(handle=6),
                                       index_event(0, handle=6, rand_index=5), with_rules(0, [rule(R_REQUIRED)], handle=6),
                                       bytes([22, 18, 0]) + bytes([0, 8, 0, 0]), bytes([27, 38, 1, 0]), bytes([27, 58, 0, 0]),
                                       bytes([24, 78, 1, 0, 7, 0, 8, 0]), FREE, snap(0, handle=6), snaps(handle=6)])))
    # 21-: asynchronous rules.
    seeds.append(("async", sequence([CREATE, add_field(0), add_field(2), required(0), add_async(3, 0, 0, 1),
                                       with_rules(4, [rule(R_REQUIRED), rule(R_ASYNC_DEFAULT)]), add_async(7), add_async(15),
                                       add_async(8), focus(0), tick(10), set_value(2, 0), next_due(), take(15), take(20, 0, 0),
                                       take(20, 0, 82), take(20), set_value(3, 0), submit(), next_due(), take(20),
                                       resolve(0, 1, 1), resolve(0, 1, 1), resolve(2), resolve(3), resolve(7), resolve(0, 6),
                                       set_value(2, 4), take(70), take(71), RESET, resolve(0), next_due(1), next_due(2),
                                       submit(0), submit(0xFF), take(80, 6), take(80, 7), take(80, 0xFF), take(80, 0, 0xFF),
                                       take(80, 0, 1), take(80, 5), custom(0, 2), set_value(1, 2), blur(2), set_value(11, 0),
                                       submit(), take(90), resolve(0, 2), next_due(), tick(5), next_due(), FREE],
                                      b"\x07\x00\x07\x01")))
    # 22-: the time bound on matches (a catastrophic pattern cut short by time, not steps).
    seeds.append(("timelimit", sequence([CREATE, add_field(0), regex(1), read_time_limit(), set_time_limit(0), read_time_limit(),
                                           set_time_limit(200), read_time_limit(), set_value(10), snap(0), set_time_limit(20000),
                                           set_value(13), query(4), set_time_limit(5000), read_time_limit(0xFF),
                                           read_time_limit(handle=7), set_time_limit(1, handle=6), FREE])))
    return seeds


# ---- BatchColumns: form, threads, record_count, column_count, outputs, columns, sample ----
# (format at the top of Fuzz/BatchColumns/BatchColumnsFuzzer.swift)

def batch_column(flags, more, data, lengths=b"", start=0, raw=None, bitmap=b""):
    offsets = bytes(raw) if raw is not None else bytes([start]) + bytes(lengths)
    return bytes([flags, more, len(data)]) + data + offsets + bitmap


def batch_seed(form, threads, records, columns, outputs=0, sample=0):
    return form + bytes([threads, records, len(columns), outputs]) + b"".join(columns) + bytes([sample])


def batch_columns():
    seeds = []
    reg = b"\x00"  # the registration spec, default limits
    names = [b"Ada", b"", b"Grace Hopper"]
    emails = [b"ada@example.com", b"ada@", b""]
    users = [b"ada_l", b"AB", b"a_very_long_username"]
    passwords = [b"Secret123", b"short", b"Secret123"]
    confirms = [b"Secret123", b"Secret123", b"Secret124"]

    def col(flags, more, values, bitmap=b""):
        return batch_column(flags, more, b"".join(values), bytes(len(v) for v in values), bitmap=bitmap)

    fields = [names, emails, users, passwords, confirms]
    seeds.append(("registration-by-position", batch_seed(reg, 1, 3, [col(0, 0, f) for f in fields])))
    seeds.append(("registration-by-id-int64", batch_seed(reg, 2, 3, [col(3 | 8, (4 - i) + 10, fields[4 - i])
                                                                   for i in range(5)], sample=2)))
    seeds.append(("registration-nulls", batch_seed(reg, 0, 3, [col(0x80, 0, f, bitmap=b"\x05") for f in fields])))
    seeds.append(("registration-missing-columns", batch_seed(reg, 1, 3, [col(3, 3, passwords), col(3, 1, emails)])))
    seeds.append(("registration-slice", batch_seed(reg, 1, 2, [batch_column(3, 0, b"\xff\xffAdaBob", b"\x03\x03", start=2)])))
    seeds.append(("registration-lying-offsets", batch_seed(reg, 1, 3, [batch_column(0x20, 0, b"abcdef", raw=[0, 4, 2, 6])])))
    seeds.append(("registration-negative", batch_seed(reg, 1, 2, [batch_column(0x20, 0, b"abcdef", raw=[0xFF, 2, 3])])))
    seeds.append(("registration-split-utf8", batch_seed(reg, 1, 2, [batch_column(3, 1, b"ab\xc3\xa9cd", b"\x03\x03")])))
    seeds.append(("registration-bad-utf8-null", batch_seed(reg, 1, 2, [col(0x80 | 3, 1, [b"\xff\xfe", b"a@b.co"], bitmap=b"\x02")])))
    seeds.append(("registration-unknown-id", batch_seed(reg, 1, 1, [batch_column(6, 0, b"x", b"\x01")])))
    seeds.append(("registration-bad-id", batch_seed(reg, 1, 1, [batch_column(7, 0, b"x", b"\x01")])))
    seeds.append(("registration-offset-size-3", batch_seed(reg, 1, 1, [batch_column(0, 0xF3, b"x", b"\x01")])))
    seeds.append(("registration-misaligned", batch_seed(reg, 1, 1, [batch_column(0, 0x07, b"x", b"\x01")])))
    seeds.append(("registration-null-data", batch_seed(reg, 1, 1, [batch_column(0x10, 0x0C, b"", b"\x00")])))
    seeds.append(("registration-null-offsets", batch_seed(reg, 1, 2, [batch_column(0x40, 0, b"ab", b"")])))
    seeds.append(("registration-zero-records", batch_seed(reg, 0, 0, [batch_column(0x40 | 0x10, 0, b"")])))
    seeds.append(("registration-twice", batch_seed(reg, 1, 1, [col(3, 1, [b"a@b.co"]), col(0, 0, [b"a@b.co"])])))
    seeds.append(("registration-no-outputs", batch_seed(reg, 3, 3, [col(0, 0, f) for f in fields], outputs=0x8F)))
    # A small form: f0 [required, custom (own words)], f1 [regex (a+)+b under tight limits],
    # f2 [matches f0 with a message, max_length 5]; initial value on f1.
    small = bytes([0x03, 2])                               # a small form (odd) with limits (bit 1); 3 fields
    small += bytes([0x00, 2, 0, 0, 7, 0])                  # f0: no initial; required, custom without message
    small += bytes([0x80 | 5, 1, 5, 2])                    # f1: initial "x@y.co"... one rule: regex patterns[2]
    small += bytes([0x00, 2, 0x86, 0, 4, 5])               # f2: matches f0 (with message), max_length 5
    small += bytes([30, 20])                               # limits
    values0 = [b"abc", b"xyz", b""]
    values1 = [b"aaaaaaaaaaaaaaaaaaaaaaaaaaacb", b"aab", b""]
    values2 = [b"abc", b"abd", b"toolongvalue"]
    seeds.append(("small-custom-limits-matches", batch_seed(small, 0, 3, [col(0, 0, values0), col(0, 0, values1),
                                                                            col(0, 0, values2)], sample=1)))
    return seeds


# ---- ArrowStructs: form, threads, outputs, struct, children, samples ----
# (format at the top of Fuzz/ArrowStructs/ArrowStructsFuzzer.swift)

def arrow_utf8(values, raw=None, mode=0):
    """A utf8 / large_utf8 layout's bytes: data, mode byte, then offsets (honest lengths or raw)."""
    data = b"".join(values)
    if raw is not None:
        return bytes([len(data)]) + data + bytes([mode | 1]) + bytes(raw)
    return bytes([len(data)]) + data + bytes([mode]) + bytes(len(v) for v in values)


def arrow_child(kind, name, layout, body, bitmap=b"", lie=None):
    out = bytes([kind, name, layout])
    if lie is not None:
        out += bytes([lie])
    return out + bitmap + body


def arrow_view(values, buffers=()):
    """string_view: variadic buffers, size mode 0 (honest), then one view per value: (value) inline,
    or (length, index, offset) into a buffer."""
    out = bytes([len(buffers)]) + b"".join(bytes([len(b)]) + b for b in buffers) + b"\x00"
    for v in values:
        out += bytes([len(v)]) + v if isinstance(v, bytes) else bytes(v)
    return out


def arrow_dictionary(indices, entries, large=False, length=None):
    n = len(entries) if length is None else length
    return bytes(i & 0xFF for i in indices) + bytes([1 if large else 0, n, 0]) + arrow_utf8(entries)


def arrow_seed(form, threads, length, children, offset=0, s1=0, bitmap=b"", outputs=0, samples=b"\x00\x01", lie=None):
    out = form + bytes([threads, outputs, length, offset | s1, len(children)])
    if lie is not None:
        out += bytes([lie])
    return out + bitmap + b"".join(children) + samples


def arrow_structs():
    seeds = []
    reg = b"\x00"
    names = [b"Ada", b"", b"Grace Hopper"]
    emails = [b"ada@example.com", b"ada@", b"x@y.co"]
    users = [b"ada_l", b"AB", b"a_very_long_username"]
    passwords = [b"Secret123", b"short", b"Secret123"]
    confirms = [b"Secret123", b"Secret123", b"Secret124"]
    fields = [names, emails, users, passwords, confirms]
    utf8 = [arrow_child(0, 0, 0, arrow_utf8(f)) for f in fields]
    seeds.append(("registration-utf8", arrow_seed(reg, 1, 3, utf8)))
    seeds.append(("registration-large-utf8", arrow_seed(reg, 2, 3, [arrow_child(4, 0, 0, arrow_utf8(f)) for f in fields])))
    # Child nulls (null_count honest, bitmap 0b101) and struct nulls (bitmap 0b011, honest count).
    seeds.append(("registration-nulls", arrow_seed(reg, 0, 3, [arrow_child(0, 0, 0x80 | 0x40, arrow_utf8(f), bitmap=b"\x05")
                                                            for f in fields], s1=0x10 | 0x08, bitmap=b"\x03")))
    # A slice: struct offset 1, child offset 1: two records before the first (not UTF-8).
    seeds.append(("registration-slice", arrow_seed(reg, 1, 2, [arrow_child(0, 1 << 3 | 4, 1, arrow_utf8([b"\xff", b"\xfe", b"ada@x.io", b"bad"]))], offset=1)))
    # string_view: inline values and one 15-byte value in a variadic buffer.
    view = arrow_view([b"Ada", b"", (15, 0, 0)], buffers=[b"ada@example.com"])
    seeds.append(("registration-string-view", arrow_seed(reg, 1, 3, [arrow_child(6, 0, 0, arrow_view([b"Ada", b"Bob", b""])),
                                                                   arrow_child(6, 0, 0, view)])))
    # Dictionaries: every index type over ["ada@", "ada@example.com", "x@y.co"].
    for t, fmt in enumerate("csilCSIL"):
        child = arrow_child(9 | (t << 4), 1 << 3 | 4, 0, arrow_dictionary([0, 1, 2], [b"ada@", b"ada@example.com", b"x@y.co"], large=t % 2 == 1))
        seeds.append(("registration-dictionary-" + ("upper-" if fmt.isupper() else "") + fmt.lower(), arrow_seed(reg, 1, 3, [child])))
    seeds.append(("registration-dictionary-out-of-range", arrow_seed(reg, 1, 2, [arrow_child(9 | (2 << 4), 0, 0, arrow_dictionary([0, 3], [b"a", b"b", b"c"]))])))
    seeds.append(("registration-lying-offsets", arrow_seed(reg, 1, 3, [arrow_child(0, 0, 0, arrow_utf8([b"abcdef"], raw=[0, 4, 2, 6]))])))
    seeds.append(("registration-negative-offset", arrow_seed(reg, 1, 2, [arrow_child(0, 0, 0, arrow_utf8([b"abc"], raw=[0xFF, 2, 3]))])))
    seeds.append(("registration-bad-utf8", arrow_seed(reg, 1, 1, [arrow_child(0, 0, 0, arrow_utf8([b"\xc3("]))])))
    seeds.append(("registration-unknown-and-unnamed", arrow_seed(reg, 1, 1, [arrow_child(13, 5, 0, b""), arrow_child(14, 6, 0, arrow_utf8([b"x"])),
                                                                           arrow_child(0, 0, 0, arrow_utf8([b"y"]))])))
    seeds.append(("registration-int-column", arrow_seed(reg, 1, 1, [arrow_child(13, 0, 0, b"")])))
    seeds.append(("registration-bad-name", arrow_seed(reg, 1, 1, [arrow_child(0, 0x87, 0, arrow_utf8([b"x"]))])))
    seeds.append(("registration-twice", arrow_seed(reg, 1, 1, [arrow_child(0, 4, 0, arrow_utf8([b"x"])), arrow_child(0, 4, 0, arrow_utf8([b"y"]))])))
    seeds.append(("registration-short-child", arrow_seed(reg, 1, 2, [arrow_child(0, 0, 6 << 2, arrow_utf8([b"x"]))])))
    seeds.append(("registration-n-buffers", arrow_seed(reg, 1, 1, [arrow_child(0x80, 0, 0, arrow_utf8([b"x"]), lie=0)])))
    seeds.append(("registration-null-child", arrow_seed(reg, 1, 1, [arrow_child(0x80, 0, 0, arrow_utf8([b"x"]), lie=2)])))
    seeds.append(("registration-null-count-lie", arrow_seed(reg, 1, 1, [arrow_child(0, 0, 3 << 5, arrow_utf8([b"x"]))])))
    seeds.append(("registration-struct-lies", arrow_seed(reg, 1, 1, [arrow_child(0, 0, 0, arrow_utf8([b"x"]))], s1=7 << 5, lie=1)))
    seeds.append(("registration-no-outputs", arrow_seed(reg, 3, 3, utf8, outputs=0x8F)))
    # The small form of the BatchColumns seeds (custom rule, a catastrophic regex under tight limits, matches).
    small = bytes([0x03, 2]) + bytes([0x00, 2, 0, 0, 7, 0]) + bytes([0x80 | 5, 1, 5, 2]) + bytes([0x00, 2, 0x86, 0, 4, 5]) + bytes([30, 20])
    values = [[b"abc", b"xyz", b""], [b"aaaaaaaaaaaaaaaaaaaaaaaaaaacb", b"aab", b""], [b"abc", b"abd", b"toolongvalue"]]
    seeds.append(("small-custom-limits-matches", arrow_seed(small, 0, 3, [arrow_child(0, 0, 0, arrow_utf8(v)) for v in values])))
    return seeds


# ---- AsyncSequences: a header (fields, their rules), then operations ----
# Header: field count (b % 3 + 1); per field: b (initial = valuePool[b % 10], 0x10 required, 0x80 two
# async rules), lengths (0x08: min = b % 4, 0x80: max = 3 + (b >> 4) % 8), then per async rule rb
# (debounce = [0, 0, 10, 100, 500, 1000, UINT32_MAX][rb % 7], 0x20 own message).
# valuePool: "", a, ab, abc, adam, adam_, é, e+U+0301, "hello world", 20 x.
def a_set(field, value, by_index=0): return bytes([0, field << 1 | by_index, value])
def a_tick(b): return bytes([1, b])                  # b & 0x80: back in time (ignored); else + b * 7 ms
def a_take(b, buf=3): return bytes([2, b, buf])      # now = clock + b * 11; buf % 8: 0 size query, 1 too small, 2 exact
def a_resolve(choice, verdict=0, msg=0): return bytes([3, choice, msg << 3 | verdict])  # verdict % 8: 0-2, 6 = 3, 7 = -1
A_SUBMIT, A_RESET = bytes([4]), bytes([5])
def a_remove(b): return bytes([6, b])
def a_add_rule(b): return bytes([7, b])


def async_sequences():
    one = bytes([0, 0x00, 0x00, 0x04])                                   # f0: "" optional, one rule, 500 ms
    two = bytes([1, 0x14, 0x8B, 0x24, 0x80 | 0x10 | 5, 0x09, 0x03, 0x25])  # f0 "adam" required, max 3+8; f1 two rules
    seeds = [
        ("username", one + a_tick(143) + a_set(0, 4) + a_tick(11) + a_set(0, 5) + a_take(60) + a_resolve(2) + A_SUBMIT),
        ("stale", one + a_set(0, 4) + a_take(50) + a_set(0, 5) + a_resolve(3, 0) + a_resolve(2, 1) + a_take(50) + a_resolve(2, 1, 1)),
        ("submit-flushes", two + a_set(1, 8) + A_SUBMIT + a_take(0) + a_take(0) + a_resolve(2, 2, 3) + A_SUBMIT + a_resolve(4, 1)),
        ("buffers", one + a_set(0, 6) + a_take(50, 0) + a_take(50, 1) + a_take(50, 2) + a_take(50, 3)),
        ("reset-remove", two + a_set(0, 2) + a_set(1, 3) + a_take(100) + A_RESET + a_resolve(4) + a_set(1, 9, 1) + a_remove(0)
         + a_take(100) + a_resolve(2, 1)),
        ("verdicts", one + a_set(0, 3) + a_take(50) + a_resolve(2, 6) + a_resolve(2, 7) + a_resolve(2, 1, 4) + a_resolve(2, 2, 2)
         + a_resolve(0) + a_resolve(1)),
        ("debounce-replaced", two + a_tick(10) + a_set(1, 1) + a_tick(1) + a_set(1, 2) + a_tick(200) + a_take(0) + a_take(0)
         + a_add_rule(1) + a_set(1, 3) + a_take(255) + a_take(255) + a_take(255)),
        ("clock-back", one + a_tick(100) + a_tick(0x85) + a_set(0, 4) + a_take(0) + a_tick(0x80 | 20) + a_take(46)),
    ]
    return seeds


if __name__ == "__main__":
    import sys
    # `make_seeds.py CallSequences` rewrites only that corpus's NN-name seeds. (TextInputs/corpus also
    # holds a hand-kept regression seed named 34-pcre2-offset-past-end, which a full run would drop.)
    generators = {"TextInputs": text_inputs, "CallSequences": call_sequences, "BatchColumns": batch_columns,
                  "ArrowStructs": arrow_structs, "AsyncSequences": async_sequences}
    names = sys.argv[1:] or list(generators)
    for name in names:
        write(os.path.join(HERE, name, "corpus"), generators[name]())
        print(name, len(os.listdir(os.path.join(HERE, name, "corpus"))), "seeds")
