#!/usr/bin/env python3
"""python_ir: one loop of rows 6a and 6a2 (and two fuller reads), for bench/python_ir.sh to count
under callgrind: ``python_ir.py ROW N`` runs ROW's body on N of python_bench's generated e-mails.

Rows (each per value):
  base    ``re.fullmatch(p, v)`` plus one trivial ctypes call: row 6a's baseline
  6a      ``form[id] = v`` then ``form.state(id).validity``
  6a2     ``form.set(id, v).validity``
  view    ``form.set(id, v)``, then the seven members a view redraws a field from
  full    ``form.set(id, v)``, then every member of the state (as ``dataclasses.asdict`` would)
The field is a focused ``[email]`` field, as in row 6a. Instructions are not time; they are the
same on every run, so two versions of the package compare on a noisy machine.
"""

import ctypes
import dataclasses
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import formwell  # noqa: E402
from formwell import Email, FieldState, Form, Validity  # noqa: E402
from python_bench import EMAIL, make_emails  # noqa: E402

VALUES = make_emails(1000, 12345)
MEMBERS = [member.name for member in dataclasses.fields(FieldState)]


def main() -> None:
    row, count = sys.argv[1], int(sys.argv[2])
    form = Form()
    form.add_field("email", [Email()])
    form.focus("email")
    lib = ctypes.CDLL(formwell.library_path)
    lib.fw_abi_version.restype = ctypes.c_int32
    lib.fw_abi_version.argtypes = []
    valid = Validity.VALID

    def base(value: str) -> object:
        lib.fw_abi_version()
        return re.fullmatch(EMAIL, value)

    def keystroke(value: str) -> object:
        form["email"] = value
        return form.state("email").validity is valid

    def set_method(value: str) -> object:
        return form.set("email", value).validity is valid

    def view(value: str) -> object:
        s = form.set("email", value)
        return (s.validity, s.display, s.display_message, s.tint, s.label_raised, s.emphasized, s.message)

    def full(value: str) -> object:
        state = form.set("email", value)
        return [getattr(state, name) for name in MEMBERS]

    body = {"base": base, "6a": keystroke, "6a2": set_method, "view": view, "full": full}[row]
    for index in range(count):
        body(VALUES[index % 1000])


if __name__ == "__main__":
    main()
