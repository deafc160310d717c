"""Formwell for Python: headless two-stage form validation, backed by libformwell (ctypes).

Importing this package loads ``libformwell.so`` (see :mod:`formwell._native` for the search order:
``$FORMWELL_LIBRARY``, the copy bundled in the package, then the system loader) and checks its ABI.

Quick start::

    from formwell import Form, Required, Email

    with Form() as form:
        form.add_field("email", [Required(), Email()], label="Email")
        form.focus("email")
        form["email"] = "ada@"          # lenient while typing
        form.blur("email")              # strict on blur
        print(form.state("email").error)   # 'Invalid email format'
        print(form.validate(), form.first_invalid)

Messages have stable codes and parameters, and come in other languages::

    form.state("email").code                     # 'email'
    Form(locale="fr")                            # French messages; formwell.locales() lists them
    formwell.check_value(MinLength(8), "abc")    # one value, no form: a ValueVerdict
"""

from ._native import ABI_VERSION, library_path, lib as _lib
from .errors import (
    BufferTooSmallError,
    BusyError,
    CallbackError,
    DuplicateFieldError,
    FormwellError,
    InternalError,
    InvalidArgumentError,
    InvalidHandleError,
    InvalidSpecError,
    InvalidUTF8Error,
    NullArgumentError,
    PatternError,
    RequestClosedError,
    UnknownFieldError,
    UnknownRequestError,
)
from ._async import CheckError, Outcome, Request, Resolution, SubmitResult, Verdict
from ._registry import (
    register_check,
    register_validator,
    registered_checks,
    registered_validators,
    unregister_check,
    unregister_validator,
)
from .states import Display, FieldState, MatchLimits, Mode, Normalizer, Phase, Tint, Validity
from .batch import CheckResult, Summary
from .form import Form, live_forms
from .messages import ValueVerdict, add_message_catalog, check_value, locales, message_catalog
from .rules import AsyncRule, Custom, Rule, RuleSet
from ._rule_classes import *  # noqa: F401,F403  (every catalogue rule: Required, Email, Url, Integer, ...)
from ._rule_kinds import CATALOG as RULE_CATALOG
from ._version import __version__ as __version__  # noqa: F401  (the "as" form: an explicit re-export)
from . import _limits as limits  # noqa: F401  (the size limits: FIELDS_PER_FORM, RULES_PER_FIELD, RULES_PER_SPEC)


def library_version() -> str:
    """The loaded library's version string (``fw_version()``), e.g. ``"0.2.0"``."""
    return str(_lib.fw_version().decode("utf-8"))


def abi_version() -> int:
    """The loaded library's ABI number (``fw_abi_version()``); equals :data:`ABI_VERSION`."""
    return int(_lib.fw_abi_version())


def check_table(form: Form, table: object, *, threads: int = 0) -> "CheckResult":
    """Checks every row of an Arrow table against ``form``, in place (``fw_form_check_arrow``):
    a ``pyarrow.Table`` / ``RecordBatch`` / ``RecordBatchReader``, or anything with
    ``__arrow_c_stream__`` / ``__arrow_c_array__`` (polars, pandas 2.2+, DuckDB). Returns a
    :class:`formwell.arrow.TableCheckResult` (a :class:`CheckResult`, with ``to_arrow()`` and
    ``summary()``). See :func:`formwell.arrow.check_table`; same as ``form.check_table(table)``."""
    return form.check_table(table, threads=threads)


def __getattr__(name: str) -> object:
    # formwell.arrow / formwell.dask / formwell.spark are imported on first use only: importing
    # formwell never imports pyarrow, polars, dask or pyspark.
    if name in ("arrow", "dask", "spark"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The public names, written out as one literal list (which type checkers such as mypy --strict read
# as the names re-exported): this module's own, then each submodule's public API except
# rules.Validator, rules.ValidatorResult and rules.AsyncCheck (the types of a custom or async rule's
# callable, for annotations: import them from formwell.rules) and errors.error_for_status (the
# helper _native raises with). tests/test_public_names.py checks that this list is exactly that.
__all__ = [
    "ABI_VERSION", "abi_version", "library_path", "library_version", "check_table", "RULE_CATALOG", "limits",
    # form
    "Form", "FieldState", "MatchLimits", "Phase", "Validity", "Display", "Mode", "Tint", "Normalizer", "live_forms",
    "register_validator", "unregister_validator", "registered_validators", "Request", "Verdict", "Resolution",
    "Outcome", "SubmitResult", "CheckError", "register_check", "unregister_check", "registered_checks",
    # batch
    "CheckResult", "Summary",
    # messages
    "ValueVerdict", "check_value", "locales", "message_catalog", "add_message_catalog",
    # rules (with every catalogue rule class of _rule_classes)
    "Rule", "RuleSet", "Required", "Email", "Phone", "MinLength", "MaxLength", "Regex", "Matches", "Url",
    "PasswordStrength", "HtmlEmail", "E164", "Integer", "Decimal", "OneOf", "NoneOf", "NotEqual", "RequiredIf",
    "RequiredWith", "RequiredWithout", "Uuid", "Ip", "Ipv4", "Ipv6", "Hostname", "Luhn", "Custom", "AsyncRule",
    # errors
    "FormwellError", "NullArgumentError", "InvalidHandleError", "UnknownFieldError", "DuplicateFieldError",
    "InvalidUTF8Error", "PatternError", "InvalidArgumentError", "CallbackError", "InternalError",
    "BufferTooSmallError", "BusyError", "InvalidSpecError", "UnknownRequestError", "RequestClosedError",
]
