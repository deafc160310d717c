# Generated from Sources/Formwell/Version.swift by scripts/gen_version.py: do not edit.
# Change the version there, then run `python3 scripts/gen_version.py`.
__version__ = "0.6.0"
