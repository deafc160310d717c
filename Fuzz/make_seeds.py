#!/usr/bin/env python3
"""Writes the seed corpora Fuzz/TextInputs/corpus and Fuzz/CallSequences/corpus.

Deterministic; reads /work/shared/corpora (or $FORMWELL_CORPORA) when present, falling back to built-in
strings. Re-run after changing an input format:  python3 Fuzz/make_seeds.py
"""
import json
import os
import shutil
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
    if os.path.isdir(directory):
        shutil.rmtree(directory)
    os.makedirs(directory)
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
    return seeds


if __name__ == "__main__":
    write(os.path.join(HERE, "TextInputs", "corpus"), text_inputs())
    write(os.path.join(HERE, "CallSequences", "corpus"), call_sequences())
    for name in ("TextInputs", "CallSequences"):
        print(name, len(os.listdir(os.path.join(HERE, name, "corpus"))), "seeds")
