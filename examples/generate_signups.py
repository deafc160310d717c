#!/usr/bin/env python3
"""Writes examples/signups.jsonl and examples/signups.csv: registration records (for
examples/registration.json) with realistic mistakes, from a fixed seed so every run writes the same
files. About 80% are clean; the rest carry one or two of the mistakes people make on sign-up forms.

Usage: generate_signups.py [--count N] [--seed S] [--out-dir DIR]
"""
import argparse
import csv
import json
import pathlib
import random

FIRST = ["Ada", "Grace", "Alan", "Katherine", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances",
         "José", "Zoë", "Łukasz", "Søren", "Aiko", "Chidi", "Priya", "Mateus", "Olga", "Nguyễn"]
LAST = ["Lovelace", "Hopper", "Turing", "Johnson", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson",
        "Allen", "García", "Müller", "Kowalski", "Kierkegaard", "Tanaka", "Okafor", "Patel", "Silva"]
DOMAINS = ["example.com", "mail.example.org", "post.example.net", "uni.example.edu"]


def clean_record(rng):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    handle = f"{first}_{last}".lower()
    handle = "".join(c for c in handle if c.isascii() and (c.isalnum() or c == "_"))[:20] or "user"
    if len(handle) < 3:
        handle += "_01"
    password = rng.choice(["Correct", "Horse", "Battery", "Staple"]) + str(rng.randint(10, 9999)) + rng.choice(["!", "#", ""])
    return {
        "name": f"{first} {last}",
        "email": f"{handle.replace('_', '.')}@{rng.choice(DOMAINS)}",
        "username": handle,
        "password": password,
        "confirm": password,
    }


def mistakes(rng, record):
    """Each mistake edits the record the way a person would get it wrong."""
    def no_name(r): r["name"] = ""
    def email_no_at(r): r["email"] = r["email"].replace("@", "")
    def email_no_tld(r): r["email"] = r["email"].rsplit(".", 1)[0]
    def email_space(r): r["email"] = " " + r["email"]
    def email_missing(r): r["email"] = ""
    def username_caps(r): r["username"] = r["username"].capitalize()
    def username_short(r): r["username"] = r["username"][:2]
    def username_long(r): r["username"] = (r["username"] * 3)[:24]
    def username_dash(r): r["username"] = r["username"].replace("_", "-") if "_" in r["username"] else r["username"] + "-x"
    def password_short(r): r["password"] = r["confirm"] = "Ab1"
    def password_lower(r): r["password"] = r["confirm"] = r["password"].lower()
    def password_no_digit(r): r["password"] = r["confirm"] = "".join(c for c in r["password"] if not c.isdigit()) + "Xx"
    def confirm_typo(r): r["confirm"] = r["password"][:-1] + ("x" if r["password"][-1] != "x" else "y")
    def confirm_missing(r): r["confirm"] = ""
    options = [no_name, email_no_at, email_no_tld, email_space, email_missing, username_caps, username_short,
               username_long, username_dash, password_short, password_lower, password_no_digit, confirm_typo,
               confirm_missing]
    for mistake in rng.sample(options, rng.choice([1, 1, 1, 2])):
        mistake(record)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--out-dir", default=str(pathlib.Path(__file__).resolve().parent))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    records = []
    for _ in range(args.count):
        record = clean_record(rng)
        if rng.random() < 0.2:
            mistakes(rng, record)
        records.append(record)
    out = pathlib.Path(args.out_dir)
    with open(out / "signups.jsonl", "w", encoding="utf-8") as jsonl:
        for record in records:
            jsonl.write(json.dumps(record, ensure_ascii=False) + "\n")
    with open(out / "signups.csv", "w", encoding="utf-8", newline="") as table:
        writer = csv.DictWriter(table, fieldnames=["name", "email", "username", "password", "confirm"])
        writer.writeheader()
        writer.writerows(records)
    print(f"wrote {len(records)} records to {out}/signups.jsonl and signups.csv")


if __name__ == "__main__":
    main()
