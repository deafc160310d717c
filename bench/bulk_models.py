"""bulk_models: pydantic v2 models with the rules of examples/registration.json, for bench/bulk_python.py
(row 8a) and bench/bulk_pydantic_check.py (row 8b).

``Registration``: the spec's rules in the spec's order, first failure wins, the spec's messages
(``PydanticCustomError`` carries the message as is), ``confirm == password`` in a
``model_validator(mode="after")`` as pydantic users write it. Missing keys are "" (the fields'
initial values), validated too (``validate_default``); extra keys are ignored (pydantic's default).

``RegistrationConstraints``: the same verdicts from pydantic's built-in constraints (``min_length``,
``max_length``, ``pattern``, run by pydantic-core in Rust), pydantic's own messages: the fastest way
pydantic has to say the same thing, for information (row 8a2).

Known differences from Formwell, by design of pydantic, not of this model:
- a ``model_validator(mode="after")`` only runs when every field passed, so a record with a failing
  field never shows "Passwords don't match" (Formwell judges every field: a submit shows it);
- lengths are code points (``len``), Formwell's are grapheme clusters; ``confirm == password`` is
  compared after NFC normalisation here, canonical equivalence in Formwell (the same on these data).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Dict

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

try:
    from typing import Annotated
except ImportError:  # pragma: no cover - Python < 3.9
    from typing_extensions import Annotated

__all__ = ["Registration", "RegistrationConstraints", "ValidationError", "errors_of"]

EMAIL = re.compile(r"[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,64}")
USERNAME = re.compile(r"^[a-z0-9_]+$")
UPPER = re.compile(r".*[A-Z].*")
DIGIT = re.compile(r".*[0-9].*")
SYMBOL = re.compile(r"[^A-Za-z0-9]")
REQUIRED = "This field is required"


def _fail(kind: str, message: str) -> PydanticCustomError:
    return PydanticCustomError(kind, message)


class Registration(BaseModel):
    """examples/registration.json, rule for rule, message for message."""

    model_config = ConfigDict(validate_default=True)

    name: str = ""
    email: str = ""
    username: str = ""
    password: str = ""
    confirm: str = ""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not value:
            raise _fail("required", "Name is required")
        return value

    @field_validator("email")
    @classmethod
    def _email(cls, value: str) -> str:
        if not value:
            raise _fail("required", REQUIRED)
        if not EMAIL.fullmatch(value):
            raise _fail("email", "Invalid email format")
        return value

    @field_validator("username")
    @classmethod
    def _username(cls, value: str) -> str:
        if not value:
            raise _fail("required", REQUIRED)
        if len(value) < 3:
            raise _fail("min_length", "At least 3 characters")
        if len(value) > 20:
            raise _fail("max_length", "20 characters maximum")
        if not USERNAME.fullmatch(value):
            raise _fail("regex", "Lowercase letters, numbers, and underscores only")
        return value

    @field_validator("password")
    @classmethod
    def _password(cls, value: str) -> str:
        if not value:
            raise _fail("required", REQUIRED)
        if len(value) < 8:
            raise _fail("min_length", "Must be at least 8 characters")
        # password_strength, seed 03's scale: 8+ characters, [A-Z], [0-9], [^A-Za-z0-9]; 3 points pass.
        score = (len(value) >= 8) + bool(UPPER.fullmatch(value)) + bool(DIGIT.fullmatch(value)) + bool(SYMBOL.search(value))
        if score < 3:
            raise _fail("password_strength", "Password too weak \u2014 add uppercase, numbers, or symbols")
        return value

    @field_validator("confirm")
    @classmethod
    def _confirm(cls, value: str) -> str:
        if not value:
            raise _fail("required", "Please confirm your password")
        return value

    @model_validator(mode="after")
    def _passwords_match(self) -> "Registration":
        if self.confirm != self.password and (
            unicodedata.normalize("NFC", self.confirm) != unicodedata.normalize("NFC", self.password)
        ):
            raise _fail("matches", "Passwords don't match")
        return self


_CLASSES = ("[A-Z]", "[0-9]", "[^A-Za-z0-9]")
STRENGTH_PAIRS = "^(?:" + "|".join(f".*{a}.*{b}.*" for a in _CLASSES for b in _CLASSES if a != b) + ")$"


class RegistrationConstraints(BaseModel):
    """The same verdicts from pydantic-core's built-in constraints (its own messages)."""

    model_config = ConfigDict(validate_default=True)

    name: Annotated[str, Field(min_length=1)] = ""
    email: Annotated[str, Field(min_length=1, pattern=r"^[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,64}$")] = ""
    username: Annotated[str, Field(min_length=3, max_length=20, pattern=r"^[a-z0-9_]+$")] = ""
    # min_length 8, then password_strength at 3 points: the length is one, so two of the three
    # classes (uppercase, digit, symbol) must occur; pydantic-core's regex has no lookaheads, so
    # every order of every pair.
    password: Annotated[str, Field(min_length=8, pattern=STRENGTH_PAIRS)] = ""
    confirm: Annotated[str, Field(min_length=1)] = ""

    @model_validator(mode="after")
    def _passwords_match(self) -> "RegistrationConstraints":
        if self.confirm != self.password and (
            unicodedata.normalize("NFC", self.confirm) != unicodedata.normalize("NFC", self.password)
        ):
            raise _fail("matches", "Passwords don't match")
        return self


def errors_of(error: ValidationError) -> Dict[str, Any]:
    """{field: message} of a ValidationError; the model validator's error (no location) is
    confirm's, where Formwell reports it."""
    found: Dict[str, Any] = {}
    for item in error.errors(include_url=False, include_context=False, include_input=False):
        location = item["loc"]
        found.setdefault(str(location[0]) if location else "confirm", item["msg"])
    return found
