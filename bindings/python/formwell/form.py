"""The :class:`Form` class.

The names that :mod:`formwell.form` has always offered stay importable from here: the field state
and its enums (:mod:`formwell.states`), the registries (:func:`register_validator`,
:func:`register_check`) and the async types (:class:`Request`, :class:`Verdict`, ...).
"""

from __future__ import annotations

import sys
import time
from ctypes import addressof, byref, c_bool, c_char_p, c_int32, c_size_t, c_uint32, c_uint64, create_string_buffer, sizeof
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Mapping, Optional, Set, Tuple, Union

from . import _async, _callbacks, _native, _registry, batch
from ._async import CheckError, Outcome, Request, Resolution, SubmitResult, Verdict
from ._native import FW_ERR_UNKNOWN_FIELD, FW_OK, check, lib, read_string
from ._registry import (  # noqa: F401  (re-exported)
    register_check,
    register_validator,
    registered_checks,
    registered_validators,
    unregister_check,
    unregister_validator,
)
from ._rule_base import encode, encode_optional
from ._rule_texts import RuleTexts
from .errors import InvalidArgumentError, InvalidHandleError, RequestClosedError
from .messages import locale_bytes
from .rules import AsyncCheck, AsyncRule, Rule, RuleSet, Validator
from .states import (  # noqa: F401  (Display, Phase, Tint, Validity, SpecSource, ERROR_MODES: re-exported)
    ERROR_MODES,
    MODES,
    Display,
    FieldState,
    MatchLimits,
    Mode,
    Normalizer,
    Phase,
    SpecSource,
    Tint,
    Validity,
    error_mode_value,
    field_state,
    group_name,
    mode_value,
    normalizer_values,
    spec_text,
)
from .states import restore_state as _restore_state  # noqa: F401  (FieldStates pickled as formwell.form._restore_state)

if TYPE_CHECKING:  # pragma: no cover
    from .arrow import TableCheckResult

__all__ = ["Form", "FieldState", "MatchLimits", "Phase", "Validity", "Display", "Mode", "Tint", "Normalizer", "live_forms",
           "register_validator", "unregister_validator", "registered_validators",
           "Request", "Verdict", "Resolution", "Outcome", "SubmitResult", "CheckError",
           "register_check", "unregister_check", "registered_checks"]


def _form_from_spec(spec_json: str) -> "Form":
    """Unpickling a :class:`Form`: its spec, custom rules resolved through the registry."""
    return Form.from_spec(spec_json)


# ---- snapshots: the hot path of state(), set() and states() ----

_SNAPSHOT_SIZE = sizeof(_native.fw_snapshot)
_SNAPSHOT_TEMPLATE = bytes(_native.fw_snapshot(_SNAPSHOT_SIZE))
_unpack = _native.SNAPSHOT.unpack_from
#: The text buffer a form starts with, and the largest one it keeps between calls (a bigger text
#: gets a buffer of its own for that one call).
_TEXT_SIZE = 256
_TEXT_KEEP = 64 * 1024

#: What one snapshot call needs: (snapshot struct, byref of it, the text buffer (a c_char array:
#: slicing it gives bytes, the cheapest way to a str), its size as a c_size_t, its size).
_Scratch = Tuple[Any, Any, Any, c_size_t, int]


def _scratch(text_size: int) -> _Scratch:
    snapshot = _native.fw_snapshot(_SNAPSHOT_SIZE)
    return snapshot, byref(snapshot), create_string_buffer(text_size), c_size_t(text_size), text_size


#: Where the texts' size is in what _native.SNAPSHOT unpacks (states() steps over each field's texts).
_TEXT_BYTES = _native.SNAPSHOT_MEMBERS.index("text_size")
_snapshot_at = _native.raw_snapshot_at
_update_at = _native.raw_update_at
_set_value_at = _native.raw_set_value_at
_field_index = lib.fw_form_field_index
_INFO_SIZE = sizeof(_native.fw_form_info)
_REQUEST_SIZE = sizeof(_native.fw_request)
_tick = lib.fw_form_tick
_monotonic = time.monotonic
_OUTCOMES = (Outcome.VALID, Outcome.INVALID, Outcome.PENDING)
assert [_native.FW_SUBMIT_VALID, _native.FW_SUBMIT_INVALID, _native.FW_SUBMIT_PENDING] == [0, 1, 2]
_FW_ERR_BUFFER_TOO_SMALL = _native.FW_ERR_BUFFER_TOO_SMALL


def live_forms() -> int:
    """The number of forms created and not yet closed in this process (``fw_form_live_count``)."""
    return int(lib.fw_form_live_count())


class Form:
    """A form: fields, their rules, and their two-stage validation state.

    Every method may raise a :class:`formwell.FormwellError` subclass mapped from the library's
    result code; an unknown field id raises :class:`formwell.UnknownFieldError` (a ``KeyError``).
    Strings must not contain NUL characters (``ValueError``) or lone surrogates
    (``UnicodeEncodeError``).

    A form owns a library handle: release it with :meth:`close` or a ``with`` block (``__del__``
    also releases it, except while the interpreter shuts down, when the process reclaims it).
    One form may be used from several threads (the library serializes calls on it); custom
    validators run on the thread that triggered them.

    Fields are named by id, but the library is called by index: each form remembers the index of
    every id it was given (an index only changes when an earlier field is removed, and
    :meth:`remove_field` forgets them all), and reuses its snapshot structs and text buffers for
    :meth:`state` and :meth:`set` (one per concurrent caller: a thread never uses a buffer another
    thread, or a validator further up its own stack, is using). :meth:`remove_field` must not run
    while another thread uses the same form: a call that had already looked up an index could
    reach the field that moved into its place.

    ``Form(mode="on_blur", errors="all")``: the form's validation :class:`Mode` (default
    ``"two_stage"``; each field may have its own, ``add_field(..., mode=...)``) and error mode
    (``"first"``, the default, or ``"all"``). Both are keyword-only and can be changed later
    (:attr:`mode`, :attr:`errors`).

    ``Form(locale="fr")``: the message catalogue the form's messages and hints are worded from
    (default English; see :attr:`locale`).

    ``Form(clock=...)``: the host clock of asynchronous rules (:class:`formwell.AsyncRule`), a
    callable answering milliseconds (an int, monotonic); the default reads ``time.monotonic()``,
    the clock of asyncio's event loop. The library itself never reads a clock: a form with async
    rules tells it this clock's time before every value change and submit, so debounces run on it.
    Give a fake clock in tests (:attr:`clock` can also be set later).

    Example::

        with Form() as form:
            form.add_field("email", [Required(), Email()])
            form.focus("email")
            form["email"] = "ada@example"
            form.blur("email")
            form.state("email").display_message   # 'Invalid email format'
    """

    # Bound once so __del__ needs no module globals (they may be gone at interpreter shutdown), and
    # so the C function pointers of custom rules outlive every form that may call them.
    _free_fn = staticmethod(lib.fw_form_free)
    _is_finalizing = staticmethod(sys.is_finalizing)
    _callback_keepalive = (_callbacks.VALIDATE_FN, _callbacks.DESTROY_FN)

    _handle: Optional[Any] = None
    #: Whether the form has asynchronous rules: only then do value changes tell the library the time.
    _has_async = False
    _driver: Optional["_async.Driver"] = None

    def __init__(self, *, mode: Union["Mode", str, None] = None, errors: Optional[str] = None,
                 clock: Optional[Any] = None, locale: Optional[str] = None) -> None:
        if clock is not None and not callable(clock):
            raise TypeError(f"clock must be a callable answering milliseconds, not {type(clock).__name__}")
        mode_code = None if mode is None else mode_value(mode)
        error_value = None if errors is None else error_mode_value(errors)
        locale_b = None if locale is None else locale_bytes(locale)
        handle = _native.FormHandle()
        check(lib.fw_form_create(byref(handle)))
        try:
            if mode_code is not None:
                check(lib.fw_form_set_mode(handle, mode_code))
            if error_value is not None:
                check(lib.fw_form_set_error_mode(handle, error_value))
            if locale_b is not None:
                check(lib.fw_form_set_locale(handle, locale_b))
        except BaseException:
            lib.fw_form_free(handle)
            raise
        #: field id (as the caller spelled it) -> its index as a c_size_t (passed to the untyped
        #: twins as is); only ids the library knows are cached. remove_field replaces the cache.
        self._indices: Dict[str, c_size_t] = {}
        #: ids in registration order, as far as they were read (see _ids_upto).
        self._ids: List[str] = []
        #: idle scratch buffers for state() and set(). A call pops one (list.pop and append are
        #: atomic), so threads, and validators calling back up the same thread's stack, never share
        #: one; a call that finds the pool empty makes a new one and leaves it in the pool.
        self._pool: List[_Scratch] = [_scratch(_TEXT_SIZE)]
        #: the text buffer size new scratch buffers get (grows with the texts seen, to _TEXT_KEEP).
        self._text_size = _TEXT_SIZE
        #: (capacity, text size) that the last states() call needed.
        self._states_sizes = (8, 1024)
        #: field id -> initial value, of the fields added through this object (add_field,
        #: load_spec): what check_many gives a record that lacks the key.
        self._initials: Dict[str, str] = {}
        #: Ids of secret fields (their requests print masked).
        self._secrets: set = set()
        #: the rules' fixed messages, failure codes and parameters, for batch results.
        self._rule_texts = RuleTexts()
        #: the host clock of async rules (milliseconds).
        self._clock: Any = _async.monotonic_ms if clock is None else clock
        #: async rule name -> its check, bound to this form (AsyncRule(check=), checks=, define_check).
        self._checks: Dict[str, AsyncCheck] = {}
        #: the names of the async rules added through this object.
        self._async_names: Dict[str, None] = {}
        self._handle = handle

    # ---- lifetime ----

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle is None

    def close(self) -> None:
        """Frees the form and its custom rules. Further calls raise InvalidHandleError.
        Closing twice is a no-op. Asynchronous checks still running (:meth:`settle`) are
        cancelled."""
        handle = self._handle
        if handle is None:
            return
        # Freed first: from inside one of this form's validators the library refuses (BusyError),
        # and the form then stays open and usable rather than closed in name only.
        check(self._free_fn(handle))
        self._handle = None
        driver = self._driver
        if driver is not None:
            driver.cancel()
            driver.wake()  # a settle loop waiting on this form fails (InvalidHandleError)

    def __enter__(self) -> "Form":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        handle = self._handle
        if handle is None:
            return
        self._handle = None
        try:
            if not self._is_finalizing():
                self._free_fn(handle)
        except BaseException:  # pragma: no cover - never raise from a finalizer
            pass

    @property
    def _h(self) -> Any:
        handle = self._handle
        if handle is None:
            raise InvalidHandleError("the form is closed", 2)
        return handle

    def __repr__(self) -> str:
        if self._handle is None:
            return "<formwell.Form closed>"
        return f"<formwell.Form fields={self.field_ids!r}>"

    # ---- field indices ----

    def _index(self, field_id: str) -> int:
        """The index of ``field_id`` (cached; fw_form_field_index the first time)."""
        try:
            return self._indices[field_id].value
        except (KeyError, TypeError):
            return self._index_of(field_id).value

    def _index_of(self, field_id: str) -> c_size_t:
        handle = self._h
        fid = encode(field_id, "field id")
        index = c_size_t(0)
        check(_field_index(handle, fid, byref(index)))
        if field_id.__class__ is str:  # a str subclass may hash or compare differently
            self._indices[field_id] = index
        return index

    def _ids_upto(self, count: int) -> List[str]:
        """The registered ids of the first ``count`` fields (read once each, then cached)."""
        ids = self._ids
        if len(ids) < count:
            handle = self._h
            ids = list(ids)
            for index in range(len(ids), count):
                field_id = read_string(
                    lambda buf, size, length: lib.fw_form_field_id(handle, index, buf, size, length)
                )
                ids.append(field_id)
                self._indices.setdefault(field_id, c_size_t(index))
            self._ids = ids  # one assignment: a concurrent reader sees the old or the new list
        return ids

    # ---- registration ----

    def add_field(
        self,
        field_id: str,
        rules: Iterable[Rule] = (),
        label: Optional[str] = None,
        initial: Optional[str] = None,
        *,
        mode: Union["Mode", str, None] = None,
        groups: Iterable[str] = (),
        normalize: Iterable[Union[Normalizer, str]] = (),
        secret: bool = False,
    ) -> None:
        """Adds a field with its rules (run in order, the first failure wins, or every failure is
        listed in a form with ``errors="all"``).

        Args:
            field_id: non-empty, unique in the form.
            rules: rule objects (:class:`formwell.Required`, :class:`formwell.Email`, ...).
            label: how messages of other fields, the announcement and :attr:`FieldState.label`
                name this one (default: the id).
            initial: the value now and after :meth:`reset` (default: empty).
            mode: the field's own :class:`Mode` (or its name); ``None`` (the default) follows the
                form's mode, also when that changes later.
            groups: names of the validation groups the field belongs to (non-empty strings), for
                ``validate(group=...)``, ``touch_all(group=...)``, :meth:`is_valid_in` and
                :meth:`first_invalid_in`.
            normalize: :class:`Normalizer` members (or names) run in this order on every value
                before the rules, e.g. ``[Normalizer.TRIM, Normalizer.LOWERCASE]``.
            secret: a password or token field: ``repr()`` of its state masks its values and
                :meth:`export_spec` leaves out its initial value.

        :class:`formwell.AsyncRule` rules run after the synchronous ones, wherever they are in the
        list; the form keeps each one's ``check`` under its name (one check per name in a form:
        another check under a name already bound raises :class:`formwell.InvalidArgumentError`).

        All or nothing: when a rule is refused (a bad pattern, a bad length, an unknown
        :class:`formwell.Matches` target, a :class:`formwell.Custom` validator raising on the
        initial value), or the mode or a group name is not one, the exception propagates and the
        form is exactly as it was, the field not added.
        """
        handle = self._h
        fid = encode(field_id, "field id")
        label_b = encode_optional(label, "label")
        initial_b = encode_optional(initial, "initial")
        mode_code = None if mode is None else mode_value(mode)
        if isinstance(groups, str):
            raise TypeError("groups must be a list of group names, not a str")
        groups = list(groups)
        group_names = [group_name(group) for group in groups]
        normalizer_codes = normalizer_values(normalize)
        if not isinstance(secret, bool):
            raise TypeError(f"secret must be a bool, not {type(secret).__name__}")
        rule_list = list(rules)
        for rule in rule_list:
            if not isinstance(rule, Rule):
                raise TypeError(f"rules must be formwell rule objects, not {type(rule).__name__}")
        async_rules = [rule for rule in rule_list if isinstance(rule, AsyncRule)]
        checks = self._new_checks((rule.name, rule.check) for rule in async_rules if rule.check is not None)
        # A RuleSet is defined on the form first (replacing a set of that name for later uses).
        for rule in rule_list:
            if isinstance(rule, RuleSet):
                check(rule.define_on(handle))
        structs: List[Any] = []
        status = -1
        try:
            for rule in rule_list:
                structs.append(rule.c_rule())  # a Custom registers its context here
            array = (_native.fw_rule * len(structs))(*structs) if structs else None
            status = lib.fw_form_add_field_with_rules(handle, fid, label_b, initial_b, array, len(structs))
        finally:
            if status != FW_OK:  # refused (or never made): the library kept no context
                for struct in structs:
                    if struct.kind == _native.FW_RULE_CUSTOM:
                        _callbacks.release_context(struct.context)
        check(status)
        try:
            if mode_code is not None:
                check(lib.fw_field_set_mode(handle, fid, mode_code))
            for group in group_names:
                check(lib.fw_field_add_group(handle, fid, group))
            if normalizer_codes:
                check(lib.fw_field_set_normalizers(handle, fid, (c_int32 * len(normalizer_codes))(*normalizer_codes),
                                                   len(normalizer_codes)))
            if secret:
                check(lib.fw_field_set_secret(handle, fid, True))
        except BaseException:  # not expected (both were checked above): take the field back out
            lib.fw_form_remove_field(handle, fid)
            raise
        self._initials[field_id] = initial or ""
        if secret:
            self._secrets.add(field_id)
        if async_rules:
            self._enable_async([rule.name for rule in async_rules], checks)

    def _new_checks(self, pairs: Iterable[Tuple[str, AsyncCheck]]) -> Dict[str, AsyncCheck]:
        """Checks to bind by name, refused when a name is already bound to another one."""
        checks: Dict[str, AsyncCheck] = {}
        for name, function in pairs:
            bound = checks.get(name, self._checks.get(name))
            if bound is not None and bound != function:
                raise InvalidArgumentError(f"the async rule name {name!r} already has another check in this form",
                                           _native.FW_ERR_INVALID_ARGUMENT)
            checks[name] = function
        return checks

    def _enable_async(self, names: Iterable[str], checks: Mapping[str, AsyncCheck]) -> None:
        """After async rules were added: value changes tell the library the time from now on."""
        for name in names:
            self._async_names[name] = None
        self._checks.update(checks)
        if self._driver is None:
            self._driver = _async.Driver()
        self._has_async = True

    # ---- specs ----

    @classmethod
    def from_spec(cls, spec: SpecSource, validators: Optional[Mapping[str, Validator]] = None,
                  checks: Optional[Mapping[str, AsyncCheck]] = None, *, clock: Optional[Any] = None) -> "Form":
        """A form built from a JSON form spec (``{"formwell": 1, "fields": [...]}``).

        ``spec`` is a dict, JSON text (a ``str`` starting with ``{``), or the path of a JSON file
        (``str`` or ``os.PathLike``). ``validators`` maps the names that ``custom`` rules use to
        callables with :class:`Custom`'s contract; ``checks`` maps the names that ``async`` rules
        use (``{"rule": "async", "name": ..., "debounce_ms": 500}``) to checks with
        :class:`formwell.AsyncRule`'s contract. A name missing from either comes from the process
        registry (:func:`register_validator`, :func:`formwell.register_check`); an async rule may
        also have no check at all (the host answers its requests itself). ``clock``: as
        ``Form(clock=...)``. A bad spec raises :class:`formwell.InvalidSpecError`, whose detail
        names the JSON path and the problem (and ``.offset`` the position in a rejected pattern).
        """
        form = cls(clock=clock)
        try:
            form.load_spec(spec, validators, checks)
        except BaseException:
            form.close()
            raise
        return form

    def define_validator(self, name: str, validate: Validator) -> None:
        """Makes ``validate`` available to specs loaded later as ``{"rule": "custom", "name": name}``."""
        check(_callbacks.define_validator(self._h, encode(name, "validator name"), validate))

    def define_check(self, name: str, check: AsyncCheck) -> None:
        """Binds ``check`` (:class:`formwell.AsyncRule`'s contract) to the async rules named ``name``
        in this form, those added already and those added later (``{"rule": "async", "name": name}``
        in a spec, ``AsyncRule(name)`` without a check). Replaces the check bound to that name."""
        encode(name, "check name")
        if not name:
            raise InvalidArgumentError("a check name must not be empty", _native.FW_ERR_INVALID_ARGUMENT)
        if not callable(check):
            raise TypeError(f"a check must be callable, not {type(check).__name__}")
        self._h
        self._checks[name] = check

    def load_spec(self, spec: SpecSource, validators: Optional[Mapping[str, Validator]] = None,
                  checks: Optional[Mapping[str, AsyncCheck]] = None) -> None:
        """Adds a spec's fields and rules to this form, all or nothing (see :meth:`from_spec`)."""
        import json

        text = spec_text(spec)
        try:
            parsed = spec if isinstance(spec, Mapping) else json.loads(text)
        except ValueError:
            parsed = None  # not JSON: the library says where
        given = dict(validators or {})
        for name in _registry.validators.names_in(parsed):
            registered = _registry.validators.get(name)
            if name not in given and registered is not None:
                given[name] = registered
        async_names = _registry.checks.names_in(parsed)
        bound: Dict[str, AsyncCheck] = {}
        for name, function in dict(checks or {}).items():
            if not callable(function):
                raise TypeError(f"the check {name!r} must be callable, not {type(function).__name__}")
            bound[name] = function
        for name in async_names:
            registered_check = _registry.checks.get(name)
            if name not in bound and name not in self._checks and registered_check is not None:
                bound[name] = registered_check
        for name, validate in given.items():
            self.define_validator(name, validate)
        check(lib.fw_form_load_spec(self._h, encode(text, "spec")))
        if "locale" in parsed:  # type: ignore[operator]
            self._locale_changed()
        fields = parsed.get("fields") or []  # type: ignore[union-attr]
        for field in fields:  # accepted by the library, so well-formed
            self._initials[field["id"]] = field.get("initial") or ""
            if field.get("secret"):
                self._secrets.add(field["id"])
        if async_names or bound:
            self._checks.update(bound)
            if async_names:
                self._enable_async(async_names, {})

    # ---- many records at once ----

    def check_many(self, data: "batch.Records", *, threads: int = 0) -> "batch.CheckResult":
        """Checks many records at once, each as a submit (:meth:`validate`) of a fresh form holding
        that record's values, in one library call (``fw_form_check_batch``): the rules run in the
        library, on ``threads`` threads (0: every processor; 1: the calling thread; a form with a
        :class:`formwell.Custom` rule always runs on the calling thread). The form's own values,
        phases and touched flags are not changed.

        ``data`` is either

        - records: an iterable of dicts ``{field_id: value}``. A missing key stands for the
          field's initial value (``""`` unless ``add_field(initial=...)`` or the spec set one);
          ``None`` stands for ``""``; keys that are not fields are ignored; or
        - columns: a dict ``{field_id: [value, ...]}``, every list as long (else ``ValueError``);
          a field without a column holds its initial value; a key that is not a field raises
          :class:`formwell.UnknownFieldError` (a ``KeyError``), as ``form[key]`` does.

        Values are ``str`` or ``None``; anything else raises ``TypeError`` naming the record and
        the field. Returns a :class:`formwell.CheckResult` (verdicts, and the messages a submit of
        each record would show).
        """
        return batch.check_many(self._batch_view(), data, threads)

    def check_table(self, table: Any, *, threads: int = 0) -> "TableCheckResult":
        """Checks every row of an Arrow table as :meth:`check_many` checks a record, reading the
        string columns in place through the Arrow C Data Interface (``fw_form_check_arrow``): a
        ``pyarrow.Table`` / ``RecordBatch`` / ``RecordBatchReader``, or anything with
        ``__arrow_c_stream__`` / ``__arrow_c_array__`` (polars, pandas, DuckDB). See
        :func:`formwell.check_table`."""
        from .arrow import check_view

        return check_view(self._batch_view(), table, threads)

    def _batch_view(self) -> batch.FormView:
        """What a check of many records needs of this form (a result keeps it, and the form)."""
        return batch.FormView(self._live_handle, self.field_ids, self._index, self._initials, self._rule_texts)

    def _live_handle(self) -> Any:
        return self._h

    # ---- pickling: a form travels as its spec ----

    def __reduce__(self) -> Any:
        """A form pickles as its spec (:meth:`to_spec_json`): unpickling loads it into a new form,
        resolving ``custom`` rules by name through :func:`register_validator` in the receiving
        process. Only the definition travels (values, phases and touched flags do not, nor does a
        secret field's initial value); a form with an anonymous :class:`formwell.Custom` rule
        cannot be pickled (``pickle.PicklingError``)."""
        try:
            spec = self.to_spec_json()
        except InvalidArgumentError as error:
            import pickle

            raise pickle.PicklingError(f"this form cannot travel as a spec: {error}") from error
        return (_form_from_spec, (spec,))

    def _locale_changed(self) -> None:
        """The form speaks another catalogue: the messages read in the old one are forgotten."""
        self._rule_texts.locale_changed()

    def to_spec(self) -> Dict[str, Any]:
        """This form's definition (fields, labels, initial values, rules) as a spec dict.
        Raises :class:`formwell.InvalidArgumentError` if a rule is an anonymous :class:`Custom`."""
        import json  # only specs need it: not imported with the package

        return json.loads(self.to_spec_json())

    def to_spec_json(self) -> str:
        """The spec as the library writes it: pretty-printed, keys sorted, stable across a reload."""
        handle = self._h
        return read_string(lambda buf, size, length: lib.fw_form_export_spec(handle, buf, size, length))

    # ---- events ----

    def set_value(self, field_id: str, value: str) -> None:
        """Sets the value (typing or programmatic): lenient stage if the field is focused, else
        strict. Fields with a :class:`formwell.Matches` rule naming this field are re-checked.
        ``form[field_id] = value`` is the same call; :meth:`set` also returns the new state."""
        if value.__class__ is str and "\0" not in value:
            data = value.encode()
        else:
            data = encode(value, "value")
        try:
            index = self._indices[field_id]
        except (KeyError, TypeError):
            index = self._index_of(field_id)
        handle = self._handle
        if handle is None:
            handle = self._h  # raises InvalidHandleError
        if self._has_async:  # the library dates the change (a debounce starts) with the time told
            self._tick_now(handle)
        status = _set_value_at(handle, index, data)
        if status:
            # A validator that raised made the call fail (FW_ERR_CALLBACK); its exception is
            # re-raised from here.
            _native.raise_for_status(status)
        if self._has_async:
            self._driver.wake()  # type: ignore[union-attr]

    __setitem__ = set_value

    def set(self, field_id: str, value: str) -> FieldState:
        """Sets the value as :meth:`set_value` does and returns the field's new state, in one
        library call (``fw_field_update_at``): a keystroke and the redraw it needs.

        If setting the value fails (a validator raised, the field is unknown, ...) the form is
        unchanged and the exception propagates.
        """
        if value.__class__ is str and "\0" not in value:
            data = value.encode()
        else:
            data = encode(value, "value")
        try:
            index = self._indices[field_id]
        except (KeyError, TypeError):
            index = self._index_of(field_id)
        handle = self._handle
        if handle is None:
            handle = self._h  # raises InvalidHandleError
        if self._has_async:
            self._tick_now(handle)
            self._driver.wake()  # type: ignore[union-attr]
        pool = self._pool
        try:
            scratch = pool.pop()
        except IndexError:
            scratch = _scratch(self._text_size)
        if scratch[4] <= len(data) + 2:  # cannot hold the value: no need to try
            pool.append(scratch)
            return self._set_long(field_id, index, data)
        snapshot, ref, buf, size, _ = scratch
        status = _update_at(handle, index, data, ref, buf, size)
        if status:
            if status == _FW_ERR_BUFFER_TOO_SMALL:
                # The value was set; only its texts did not fit: read them with a bigger buffer
                # (this one is dropped).
                return self._read_state(field_id, index, snapshot.text_size)
            snapshot.size = _SNAPSHOT_SIZE  # a failed call leaves the members unspecified
            pool.append(scratch)
            _native.raise_for_status(status)
        state = field_state(field_id, _unpack(snapshot), buf, 0)
        pool.append(scratch)
        return state

    def _set_long(self, field_id: str, index: c_size_t, data: bytes) -> FieldState:
        """set() of a value too long for the form's buffers: a buffer of its own (kept for later
        calls only up to _TEXT_KEEP bytes)."""
        scratch = self._grow(len(data) + _TEXT_SIZE)
        snapshot, ref, buf, size, allocated = scratch
        status = _update_at(self._h, index, data, ref, buf, size)
        if status == _FW_ERR_BUFFER_TOO_SMALL:  # the value was set; its messages did not fit
            return self._read_state(field_id, index, snapshot.text_size)
        if status:
            _native.raise_for_status(status)
        if allocated <= _TEXT_KEEP:
            self._pool.append(scratch)
        return field_state(field_id, _unpack(snapshot), buf, 0)

    def focus(self, field_id: str) -> None:
        """The field gains focus (lenient stage); the field that had focus is blurred first."""
        index = self._index(field_id)
        check(lib.fw_field_focus_at(self._h, index))

    def blur(self, field_id: str) -> None:
        """The field loses focus (strict stage) and counts as touched."""
        index = self._index(field_id)
        check(lib.fw_field_blur_at(self._h, index))

    def touch(self, field_id: str) -> None:
        """Marks the field touched and runs its rules."""
        index = self._index(field_id)
        check(lib.fw_field_touch_at(self._h, index))

    def touch_all(self, group: Optional[str] = None) -> None:
        """Marks every field touched and runs every rule; with ``group``, only that group's fields
        (:class:`formwell.InvalidArgumentError` when no field belongs to it)."""
        if group is None:
            check(lib.fw_form_touch_all(self._h))
        else:
            check(lib.fw_form_touch_all_group(self._h, group_name(group)))

    def validate(self, group: Optional[str] = None) -> bool:
        """Submit: touches every field, applies the strict stage, returns whether all are valid.
        A focused field keeps its focus. Counts in :attr:`submit_count` and sets
        :attr:`submit_failed`.

        With ``group`` (a wizard step): only that group's fields are touched and judged, and the
        answer is theirs; :attr:`submit_count` and :attr:`submit_failed` are left alone (an
        ``on_submit`` field of the group shows its state from then on, as after a whole validate).
        :class:`formwell.InvalidArgumentError` when no field belongs to the group.

        With :class:`formwell.AsyncRule` rules, debounced checks of the fields taking part fall
        due at once, and the answer is false while a field is pending: :meth:`submit` tells
        pending from invalid, :meth:`validate_async` waits for the checks."""
        valid = c_bool(False)
        if self._has_async:
            self._tick_now(self._h)
        if group is None:
            check(lib.fw_form_validate(self._h, byref(valid)))
        else:
            check(lib.fw_form_validate_group(self._h, group_name(group), byref(valid)))
        if self._has_async:
            self._driver.wake()  # type: ignore[union-attr]
        return bool(valid.value)

    # ---- asynchronous rules: the host's clock, requests and results ----

    @property
    def clock(self) -> Any:
        """The host clock of asynchronous rules: a callable answering milliseconds (see
        ``Form(clock=...)``). Settable; ``None`` puts the default (``time.monotonic()``) back."""
        return self._clock

    @clock.setter
    def clock(self, clock: Optional[Any]) -> None:
        if clock is not None and not callable(clock):
            raise TypeError(f"clock must be a callable answering milliseconds, not {type(clock).__name__}")
        self._clock = _async.monotonic_ms if clock is None else clock

    def _now(self) -> int:
        return _async.check_ms(int(self._clock()), "the clock's time")

    def _now_exact(self) -> float:
        """The clock's time, unrounded when it is the default clock (for sleeping until a due time)."""
        if self._clock is _async.monotonic_ms:
            return _monotonic() * 1000
        return float(self._clock())

    def _tick_now(self, handle: Any) -> None:
        check(_tick(handle, self._now()))

    def tick(self, now_ms: Optional[int] = None) -> None:
        """Tells the library the host's time (milliseconds, monotonic; ``None``: the form's
        :attr:`clock`). A time before the last one told is ignored; value changes are dated with
        the last time told. A form with async rules does this itself before every value change and
        submit."""
        check(lib.fw_form_tick(self._h, self._now() if now_ms is None else _async.check_ms(now_ms)))
        if self._driver is not None:
            self._driver.wake()

    def next_request(self, now_ms: Optional[int] = None) -> Optional[Request]:
        """Ticks to ``now_ms`` (``None``: the :attr:`clock`'s time) and hands out the request that
        fell due first (the lowest id among equal due times), as a :class:`formwell.Request`, or
        ``None`` when none is due. A request is handed out once: check ``request.value`` by the
        rule ``request.rule``, then :meth:`resolve` it, from any thread."""
        handle = self._h
        now = self._now() if now_ms is None else _async.check_ms(now_ms)
        request = _native.fw_request(_REQUEST_SIZE)
        found = c_bool(False)
        size = 256
        for _ in range(8):
            buf = create_string_buffer(size)
            status = lib.fw_form_next_request(handle, now, byref(request), buf, size, byref(found))
            if status != _FW_ERR_BUFFER_TOO_SMALL:
                break
            size = max(request.text_size, size + 1)  # nothing was handed out: again, bigger
        check(status)
        if not found.value:
            return None
        base = addressof(buf)
        raw = buf.raw
        texts = []
        for pointer, length in ((request.field_id, request.field_id_length), (request.value, request.value_length),
                                (request.rule, request.rule_length)):
            start = pointer - base
            texts.append(raw[start:start + length].decode("utf-8"))
        kind = _async.SecretRequest if texts[0] in self._secrets else Request
        return kind(int(request.id), texts[0], int(request.field_index), texts[1], texts[2], int(request.due))

    def due_requests(self, now_ms: Optional[int] = None) -> List[Request]:
        """Every request due at ``now_ms`` (``None``: the :attr:`clock`'s time), handed out at once,
        in the order :meth:`next_request` gives them."""
        now = self._now() if now_ms is None else _async.check_ms(now_ms)
        requests = []
        while True:
            request = self.next_request(now)
            if request is None:
                return requests
            requests.append(request)

    def resolve(self, request: Union[Request, int], verdict: Union[bool, Verdict, str],
                message: Optional[str] = None) -> Resolution:
        """Applies the host's answer to a request (a :class:`formwell.Request` or its id).

        ``verdict``: ``True`` or ``Verdict.VALID`` (``"valid"``); ``False`` or ``Verdict.INVALID``
        (``"invalid"``), with ``message`` (``None``: the rule's ``message=``, else "Invalid
        value"; the rule's own message wins); ``Verdict.ERROR`` (``"error"``): the check could not
        be made, the field reads invalid with ``message`` or "Could not check this value".

        Answers :attr:`Resolution.APPLIED` (``"applied"``) when it was the field's current
        request, :attr:`Resolution.STALE` (``"stale"``) when the field's value changed (or the form
        was reset, or the field removed) since it was handed out: the result is dropped and
        counted in :attr:`stale_results`. Raises :class:`formwell.UnknownRequestError` for an id
        never issued, :class:`formwell.RequestClosedError` for one already resolved,
        :class:`formwell.InvalidArgumentError` for one not handed out yet; nothing changes then.
        Any thread may call it."""
        rid = _async.request_id(request)
        code = _async.verdict_code(verdict)
        message_b = encode_optional(message, "message")
        stale = c_bool(False)
        check(lib.fw_form_resolve(self._h, rid, code, message_b, byref(stale)))
        if self._driver is not None:
            self._driver.wake()
        return Resolution.STALE if stale.value else Resolution.APPLIED

    def submit(self, group: Optional[str] = None) -> SubmitResult:
        """Seed 03's submit with asynchronous rules: :meth:`validate` (whole form, or ``group``)
        whose debounced checks fall due at once (a submit does not wait out a debounce), answered
        as a :class:`formwell.SubmitResult`: ``Outcome.INVALID`` when a field taking part fails
        now, else ``Outcome.PENDING`` with the fields waiting for a check (take and resolve them,
        or ``await`` :meth:`validate_async`, then submit again), else ``Outcome.VALID``.
        :attr:`submit_failed` becomes true only for INVALID."""
        handle = self._h
        name = None if group is None else group_name(group)
        if self._has_async:
            self._tick_now(handle)
        outcome = c_int32(0)
        check(lib.fw_form_submit(handle, name, byref(outcome)))
        if self._driver is not None:
            self._driver.wake()
        result = _OUTCOMES[outcome.value]
        if result is not Outcome.PENDING:
            return SubmitResult(result, [])
        pending = self.pending_fields
        if name is not None:
            member = c_bool(False)
            kept = []
            for field_id in pending:
                check(lib.fw_field_in_group(handle, encode(field_id, "field id"), name, byref(member)))
                if member.value:
                    kept.append(field_id)
            pending = kept
        return SubmitResult(result, pending)

    @property
    def pending_fields(self) -> List[str]:
        """The ids (registration order) of the fields waiting for an async check (scheduled or
        running) for their value (``fw_form_pending_fields``), whatever their :class:`Mode` shows:
        typing into an ``on_blur`` field lists it here before its first blur, while its state
        still reads what it showed before."""
        indices = self._pending_indices()
        if not indices:
            return []
        ids = self._ids_upto(indices[-1] + 1)
        return [ids[index] for index in indices]

    def _pending_indices(self) -> List[int]:
        """The indices (registration order) of the pending fields, in one fw_form_pending_fields call
        (again, with more room, when another thread made more fields pending in between)."""
        handle = self._h
        count = c_size_t(0)
        capacity = 8
        for _ in range(8):
            indices = (c_size_t * capacity)()
            status = lib.fw_form_pending_fields(handle, indices, capacity, byref(count))
            if status != _FW_ERR_BUFFER_TOO_SMALL:
                break
            capacity = max(count.value, capacity * 2)
        check(status)
        return indices[:count.value]

    def _pending_count(self) -> int:
        """The number of fields whose live verdict is pending (fw_form_info's pending_count)."""
        return int(self._info().pending_count)

    @property
    def stale_results(self) -> int:
        """How many results :meth:`resolve` has dropped as stale since the form was created."""
        return int(self._info().stale_results)

    @property
    def clock_ms(self) -> int:
        """The host time (ms) the library was last told (:meth:`tick`, :meth:`next_request`, a
        value change of a form with async rules); 0 until then."""
        return int(self._info().now_ms)

    @property
    def next_due(self) -> Optional[int]:
        """The host time (ms) at which the next request not yet handed out falls due (it may have
        passed already: take it with :meth:`next_request`), or ``None`` when none is scheduled."""
        due, scheduled = c_uint64(0), c_bool(False)
        check(lib.fw_form_next_due_time(self._h, byref(due), byref(scheduled)))
        return int(due.value) if scheduled.value else None

    def _check_for(self, name: str) -> Optional[AsyncCheck]:
        """The check of the async rules named ``name``: the form's own, else the registry's."""
        found = self._checks.get(name)
        return found if found is not None else _registry.checks.get(name)

    async def settle(self) -> None:
        """Runs the asynchronous checks on the running asyncio event loop until nothing is pending.

        Takes every due request and runs its rule's check as a task of the loop; while requests
        wait out their debounce it sleeps until the next falls due (on the form's :attr:`clock`,
        which must follow real time: the default does); applies each result as it completes, so
        results that come back out of order are sorted out by the library (a result for a value
        changed since is dropped as stale: :attr:`stale_results`). Returns when no field is
        pending and every check it started has answered (superseded ones included). Value
        changes while it runs are followed (a keystroke handler may also start one
        ``asyncio.create_task(form.settle())`` per burst). Checks keep running if it is cancelled;
        :meth:`close` cancels them, and a settle running then returns.

        Raises ``LookupError`` (before taking anything) when an async rule of the form has no
        check (see :class:`formwell.AsyncRule`'s ``check``); requests handed out by
        :meth:`next_request` are the caller's to resolve, and settle waits for them."""
        self._require_checks()
        await self._settle(None)

    async def _settle(self, watch: Optional[Set[str]]) -> None:
        """The host loop of :meth:`settle`. ``watch`` (validate_async): stop as soon as none of
        these fields is pending, without waiting for other fields or for superseded checks."""
        import asyncio  # (not with the package: it imports subprocess)

        loop = asyncio.get_running_loop()
        driver = self._driver
        assert driver is not None  # (made by _require_checks)
        while True:
            if self.closed:  # close() cancelled the checks: nothing left to wait for
                return
            waiter = loop.create_future()
            entry = (loop, waiter)
            driver.waiters.append(entry)  # before looking: a wake from now on is not missed
            try:
                now = self._now()
                for request in self.due_requests(now):
                    check = self._check_for(request.rule)
                    if check is None:  # unregistered since settle began, or added behind the binding's back
                        _async.logger.error("formwell: no check for the async rule %r: request %d answered as an "
                                            "error", request.rule, request.id)
                        self.resolve(request.id, Verdict.ERROR)
                        continue
                    driver.start(request, check, self._answer, loop)
                running = driver.running(loop)
                pending = self._pending_count()
                due = self.next_due
                if watch is None:
                    if not pending and not running:
                        return
                elif not pending or not watch.intersection(self.pending_fields):
                    return
                timeout = None if due is None else max(0.0, (due - self._now_exact()) / 1000) + 0.001
                await asyncio.wait([waiter, *running], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            except InvalidHandleError:
                if self.closed:  # closed by another task or thread while this one looked
                    return
                raise
            finally:
                try:
                    driver.waiters.remove(entry)
                except ValueError:  # pragma: no cover
                    pass
                waiter.cancel()

    def _answer(self, request: Request, verdict: Verdict, message: Optional[str]) -> Optional[Resolution]:
        """Applies a check task's verdict (see _async.run_check): the resolution, or None when the
        form was closed first or the host resolved the request by hand meanwhile."""
        if self.closed:
            return None
        try:
            return self.resolve(request.id, verdict, message)
        except InvalidHandleError:  # closed meanwhile
            return None
        except RequestClosedError:  # the host resolved it by hand meanwhile: its answer stands
            _async.logger.info("formwell: request %d was resolved before its check answered", request.id)
            return None

    async def validate_async(self, group: Optional[str] = None) -> bool:
        """A submit that waits for the asynchronous checks: :meth:`submit` (debounced checks fall
        due at once); while it answers PENDING, runs the checks as :meth:`settle` does until none
        of the pending fields is pending any more, then submits again. Answers the final verdict
        (``True``: every field taking part is valid). Each submit counts as :meth:`validate` does
        (:attr:`submit_count`), so :attr:`submit_failed` and the :attr:`announcement` describe
        the final verdict."""
        self._require_checks()
        result = self.submit(group)
        while result.outcome is Outcome.PENDING:
            await self._settle(set(result.pending_fields))
            result = self.submit(group)
        return result.outcome is Outcome.VALID

    def _require_checks(self) -> None:
        self._h
        missing = [name for name in self._async_names if self._check_for(name) is None]
        if missing:
            raise LookupError(
                f"no check for the async rule(s) {', '.join(map(repr, missing))}: give AsyncRule(check=...), "
                "Form.from_spec(checks=...), form.define_check or formwell.register_check, or answer the "
                "requests with next_request / resolve")
        if self._driver is None:
            self._driver = _async.Driver()

    # ---- messages: the locale ----

    @property
    def locale(self) -> str:
        """The tag of the message catalogue the form's messages and hints are worded from
        (``"en"`` unless set). Settable with any tag a catalogue matches (``"fr"``, ``"fr-CA"``,
        ``"fr_FR"``: case-insensitive, ``_`` read as ``-``, subtags dropped until one matches; then
        this reads ``"fr"``): every field is judged again in the new language, its codes and
        parameters unchanged. An unknown locale raises :class:`formwell.InvalidArgumentError` and
        changes nothing. :func:`formwell.locales` lists the catalogues."""
        handle = self._h
        return read_string(lambda buf, size, length: lib.fw_form_locale(handle, buf, size, length))

    @locale.setter
    def locale(self, locale: str) -> None:
        check(lib.fw_form_set_locale(self._h, locale_bytes(locale)))
        self._locale_changed()

    # ---- modes ----

    @property
    def mode(self) -> "Mode":
        """The form's validation :class:`Mode` (fields without their own follow it). Settable, with
        a :class:`Mode` or its name; every field following it is re-judged."""
        return MODES[self._info().mode]

    @mode.setter
    def mode(self, mode: Union["Mode", str]) -> None:
        check(lib.fw_form_set_mode(self._h, mode_value(mode)))

    @property
    def errors(self) -> str:
        """The error mode, ``"first"`` (each field reports its first failing rule's message) or
        ``"all"`` (every failing rule's, :attr:`FieldState.errors`). Settable."""
        return ERROR_MODES[self._info().error_mode]

    @errors.setter
    def errors(self, errors: str) -> None:
        check(lib.fw_form_set_error_mode(self._h, error_mode_value(errors)))

    def set_normalizers(self, field_id: str, normalize: Iterable[Union[Normalizer, str]]) -> None:
        """Replaces the field's normalisers (``[]`` removes them). The value set last is normalised
        again and the field, and the fields whose :class:`formwell.Matches` rule names it, are
        re-judged; :attr:`FieldState.value` (what was set) stays."""
        values = normalizer_values(normalize)
        array = (c_int32 * len(values))(*values) if values else None
        check(lib.fw_field_set_normalizers(self._h, encode(field_id, "field id"), array, len(values)))

    def normalizers(self, field_id: str) -> List[Normalizer]:
        """The field's normalisers, in order."""
        handle, fid = self._h, encode(field_id, "field id")
        count = c_size_t(0)
        array = (c_int32 * 8)()
        check(lib.fw_field_normalizers(handle, fid, array, 8, byref(count)))
        members = list(Normalizer)
        return [members[array[index]] for index in range(count.value)]

    def set_secret(self, field_id: str, secret: bool = True) -> None:
        """Marks the field secret (or not): ``repr()`` of its state masks its values and
        :meth:`export_spec` leaves out its initial value."""
        if not isinstance(secret, bool):
            raise TypeError(f"secret must be a bool, not {type(secret).__name__}")
        check(lib.fw_field_set_secret(self._h, encode(field_id, "field id"), secret))
        if secret:
            self._secrets.add(field_id)
        else:
            self._secrets.discard(field_id)

    def set_mode(self, field_id: str, mode: Union["Mode", str, None]) -> None:
        """Gives the field its own validation :class:`Mode` (or its name); ``None`` makes it follow
        the form's mode again. :attr:`FieldState.mode` reads the mode in force."""
        value = _native.FW_MODE_FORM if mode is None else mode_value(mode)
        check(lib.fw_field_set_mode(self._h, encode(field_id, "field id"), value))

    # ---- groups ----

    def add_to_group(self, field_id: str, group: str) -> None:
        """Adds the field to a validation group (as ``add_field(..., groups=[...])`` does)."""
        check(lib.fw_field_add_group(self._h, encode(field_id, "field id"), group_name(group)))

    def is_valid_in(self, group: str) -> bool:
        """Whether every field of the group passes its strict rules on its current value (as
        :attr:`is_valid`, for one wizard step). :class:`formwell.InvalidArgumentError` when no field
        belongs to the group."""
        valid = c_bool(False)
        check(lib.fw_form_is_valid_group(self._h, group_name(group), byref(valid)))
        return bool(valid.value)

    def first_invalid_in(self, group: str) -> Optional[str]:
        """The id of the group's first field (registration order) failing its strict rules, or
        ``None`` (as :attr:`first_invalid`, for one group)."""
        handle, name = self._h, group_name(group)
        found = read_string(lambda buf, size, length: lib.fw_form_first_invalid_group(handle, name, buf, size, length))
        return found or None

    # ---- errors set from outside ----

    def set_error(self, field_id: str, message: str) -> None:
        """An error from outside (a server's "email already registered"): the field is invalid with
        ``message`` (non-empty), whatever its rules say and even when empty, until its value
        changes, :meth:`clear_error`, :meth:`clear_errors` or :meth:`reset`. It counts for
        :attr:`is_valid` and :attr:`first_invalid`, and shows as an error once the field is
        touched (:attr:`FieldState.external_error` is true, ``failing_rule`` ``None``)."""
        check(lib.fw_field_set_error(self._h, encode(field_id, "field id"), encode(message, "message")))

    def clear_error(self, field_id: str) -> None:
        """Removes the field's external error (:meth:`set_error`), if any."""
        check(lib.fw_field_clear_error(self._h, encode(field_id, "field id")))

    def clear_errors(self) -> None:
        """Removes every field's external error."""
        check(lib.fw_form_clear_errors(self._h))

    # ---- changing a live form ----

    def remove_field(self, field_id: str) -> None:
        """Removes the field. Refused (:class:`formwell.InvalidArgumentError`, nothing changes)
        while another field's :class:`formwell.Matches` rule names it: remove that field first.
        Later fields move down one index; if the field had focus, no field has. Its asynchronous
        requests are cancelled (results of handed-out ones come back stale). Not to be called
        while another thread uses the form (see the class documentation)."""
        handle = self._h
        check(lib.fw_form_remove_field(handle, encode(field_id, "field id")))
        # Every cached index from here on may be stale: start again (new objects, so a reader that
        # holds the old ones reads consistent, if outdated, data).
        self._indices = {}
        self._ids = []
        self._rule_texts.clear()
        initials = dict(self._initials)
        initials.pop(field_id, None)
        self._initials = initials
        self._secrets.discard(field_id)
        if self._has_async:  # its requests were cancelled
            self._driver.wake()  # type: ignore[union-attr]

    def reset(self, values: Optional[Mapping[str, str]] = None) -> None:
        """Every value back to its initial value; every field idle, untouched, not visited and
        unfocused; external errors cleared; :attr:`submit_count` 0 and :attr:`submit_failed` false;
        every asynchronous request cancelled (results of handed-out ones come back stale).

        ``values`` (``{field_id: value}``, seed 03's "save" of a profile edit) first makes those
        the fields' initial values, then resets. An unknown id raises
        :class:`formwell.UnknownFieldError` and changes nothing."""
        if values is None:
            check(lib.fw_form_reset(self._h))
            if self._has_async:  # every request was cancelled
                self._driver.wake()  # type: ignore[union-attr]
            return
        if not isinstance(values, Mapping):
            raise TypeError(f"values must be a mapping of field ids to values, not {type(values).__name__}")
        ids = [encode(field_id, "field id") for field_id in values]
        data = [encode(value, "value") for value in values.values()]
        count = len(ids)
        check(lib.fw_form_reset_values(self._h, (c_char_p * count)(*ids), (c_char_p * count)(*data), count))
        if self._has_async:
            self._driver.wake()  # type: ignore[union-attr]
        initials = dict(self._initials)
        initials.update(values)
        self._initials = initials

    # ---- form-level state ----

    def _info(self) -> Any:
        info = _native.fw_form_info(_INFO_SIZE)
        check(lib.fw_form_get_info(self._h, byref(info)))
        return info

    @property
    def focused(self) -> Optional[str]:
        """The id of the field that has focus (:meth:`focus`), or ``None`` when none has
        (``fw_form_focused_field``)."""
        handle = self._h
        index, focused = c_size_t(0), c_bool(False)
        check(lib.fw_form_focused_field(handle, byref(index), byref(focused)))
        if not focused.value:
            return None
        return self._ids_upto(index.value + 1)[index.value]

    @property
    def dirty(self) -> bool:
        """Whether any field's value differs from its initial value."""
        return bool(self._info().dirty)

    @property
    def dirty_fields(self) -> List[str]:
        """The ids of the dirty fields, in registration order (one consistent read, as
        :meth:`states`)."""
        return [state.id for state in self.states() if state.dirty]

    @property
    def submit_count(self) -> int:
        """Whole-form :meth:`validate` calls since the form was made or last reset (a group's
        validate does not count)."""
        return int(self._info().submit_count)

    @property
    def submit_failed(self) -> bool:
        """The last whole-form :meth:`validate` answered false (cleared by :meth:`reset`)."""
        return bool(self._info().submit_failed)

    @property
    def revision(self) -> int:
        """A counter that goes up with every event that changes a field's observable state (or
        the form's submit counters or modes): remember it after a redraw, then
        :meth:`changed_since` names the fields to redraw next time."""
        return int(self._info().revision)

    def changed_since(self, revision: int) -> List[str]:
        """The ids, in registration order, of the fields whose state changed after ``revision``
        (a value of :attr:`revision`); adding a field counts as a change of it."""
        if isinstance(revision, bool) or not isinstance(revision, int):
            raise TypeError(f"revision must be an int, not {type(revision).__name__}")
        if not 0 <= revision <= 0xFFFFFFFFFFFFFFFF:
            raise InvalidArgumentError(f"revision {revision} is out of range (0 ... 2**64 - 1)",
                                       _native.FW_ERR_INVALID_ARGUMENT)
        handle = self._h
        capacity = max(len(self), 1)
        count = c_size_t(0)
        for _ in range(8):
            indices = (c_size_t * capacity)()
            status = lib.fw_form_changed_since(handle, revision, indices, capacity, byref(count))
            if status != _FW_ERR_BUFFER_TOO_SMALL:
                break
            capacity = max(count.value, capacity + 1)  # a field was added meanwhile
        check(status)
        total = count.value
        ids = self._ids_upto(max(indices[:total], default=-1) + 1)
        return [ids[index] for index in indices[:total]]

    @property
    def announcement(self) -> str:
        """After a failed submit (:attr:`submit_failed`), the screen-reader announcement naming the
        fields that fail now by label: ``"2 fields need attention: Email, Password"``; else ``""``."""
        handle = self._h
        return read_string(lambda buf, size, length: lib.fw_form_announcement(handle, buf, size, length))

    @property
    def match_limits(self) -> MatchLimits:
        """The form's PCRE2 limits, read from the library (a new form has the library's defaults:
        1,000,000 match steps, depth 100,000, 16,384 KiB of heap)."""
        match, depth, heap = c_uint32(0), c_uint32(0), c_uint32(0)
        check(lib.fw_form_match_limits(self._h, byref(match), byref(depth), byref(heap)))
        return MatchLimits(match.value, depth.value, heap.value)

    def set_match_limits(
        self,
        match_limit: Optional[int] = None,
        depth_limit: Optional[int] = None,
        heap_limit_kib: Optional[int] = None,
    ) -> None:
        """Sets the PCRE2 limits of every pattern rule of the form (Email, Phone, Regex) and re-runs
        every field's rules under them; a limit left ``None`` keeps its current value (see
        :attr:`match_limits`). A value that hits a limit makes its field invalid with "This value
        is too complex to check" and :attr:`FieldState.limit_exceeded` true; never valid, never a
        hang. Each limit must be in 1 ... 2**32 - 1.

        ``form.set_match_limits(*Form().match_limits)`` puts the library's defaults back."""
        given = (("match_limit", match_limit), ("depth_limit", depth_limit), ("heap_limit_kib", heap_limit_kib))
        for name, limit in given:
            if limit is None:
                continue
            if isinstance(limit, bool) or not isinstance(limit, int):
                raise TypeError(f"{name} must be an int or None, not {type(limit).__name__}")
            if not 0 <= limit <= 0xFFFFFFFF:  # 0 is left to the library to refuse
                raise InvalidArgumentError(f"{name} {limit} is out of range (1 ... 4294967295)", 7)
        handle = self._h
        if None in (match_limit, depth_limit, heap_limit_kib):
            current = self.match_limits
            limits = [current[i] if limit is None else limit for i, (_, limit) in enumerate(given)]
        else:
            limits = [match_limit, depth_limit, heap_limit_kib]
        check(lib.fw_form_set_match_limits(handle, *limits))

    @property
    def time_limit(self) -> float:
        """The work budget of one match of a pattern rule for a value up to 1 MiB, in seconds of a
        deterministic cost model (fw_form_set_time_limit; longer values get proportionally more);
        0.005 by default. No clock is read: a verdict does not depend on the machine's load. A
        match cut short makes its field invalid with "This value is too complex to check", as the
        step limits do. Setting it re-runs every field's rules; it must be in 1 µs ... about 71
        minutes."""
        micros = c_uint32(0)
        check(lib.fw_form_time_limit(self._h, byref(micros)))
        return micros.value / 1_000_000

    @time_limit.setter
    def time_limit(self, seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"time_limit must be a number of seconds, not {type(seconds).__name__}")
        micros = round(seconds * 1_000_000)
        if not 1 <= micros <= 0xFFFFFFFF:
            raise InvalidArgumentError(f"time_limit {seconds!r} s is out of range (1e-06 ... 4294.967295)", 7)
        check(lib.fw_form_set_time_limit(self._h, micros))

    # ---- queries ----

    def state(self, field_id: str) -> FieldState:
        """A :class:`FieldState` of the field, read in one library call (``fw_field_snapshot_at``)."""
        try:
            index = self._indices[field_id]
        except (KeyError, TypeError):
            index = self._index_of(field_id)
        handle = self._handle
        if handle is None:
            handle = self._h  # raises InvalidHandleError
        pool = self._pool
        try:
            scratch = pool.pop()
        except IndexError:
            scratch = _scratch(self._text_size)
        snapshot, ref, data, size, _ = scratch
        status = _snapshot_at(handle, index, ref, data, size)
        if status:
            if status == _FW_ERR_BUFFER_TOO_SMALL:  # this buffer is dropped for a bigger one
                return self._read_state(field_id, index, snapshot.text_size)
            snapshot.size = _SNAPSHOT_SIZE  # a failed call leaves the members unspecified
            pool.append(scratch)
            _native.raise_for_status(status)
        state = field_state(field_id, _unpack(snapshot), data, 0)
        pool.append(scratch)
        return state

    def _grow(self, text_size: int) -> _Scratch:
        """A scratch buffer of at least ``text_size`` bytes; later ones get that size too (up to
        _TEXT_KEEP, so one huge value does not make every later buffer huge)."""
        if self._text_size < text_size <= _TEXT_KEEP:
            self._text_size = text_size
        return _scratch(max(text_size, self._text_size))

    def _read_state(self, field_id: str, index: c_size_t, text_size: int) -> FieldState:
        """state() once the library said the texts need ``text_size`` bytes: a bigger buffer,
        and again while the texts keep growing (another thread may be changing the value)."""
        handle = self._h
        for _ in range(8):
            scratch = self._grow(text_size)
            snapshot, ref, data, size, allocated = scratch
            status = _snapshot_at(handle, index, ref, data, size)
            if status == FW_OK:
                if allocated <= _TEXT_KEEP:
                    self._pool.append(scratch)
                return field_state(field_id, _unpack(snapshot), data, 0)
            if status != _FW_ERR_BUFFER_TOO_SMALL:
                break
            # The texts grew since the library gave their size: another thread is changing the
            # value. Twice the buffer, so a value that keeps growing cannot outrun the retries.
            text_size = max(snapshot.text_size, 2 * allocated)
        _native.raise_for_status(status)
        raise AssertionError("unreachable")  # pragma: no cover

    def states(self) -> List[FieldState]:
        """Every field's :class:`FieldState`, in registration order, read in one library call
        (``fw_form_snapshots``): one consistent moment, even while other threads change the form."""
        handle = self._h
        capacity, text_size = self._states_sizes
        count, needed = c_size_t(0), c_size_t(0)
        for _ in range(8):
            snapshots = (_native.fw_snapshot * capacity).from_buffer_copy(_SNAPSHOT_TEMPLATE * capacity)
            data = create_string_buffer(text_size)
            status = lib.fw_form_snapshots(handle, snapshots, capacity, byref(count), data, text_size, byref(needed))
            if status == FW_OK:
                break
            if status != _native.FW_ERR_BUFFER_TOO_SMALL:
                check(status)
            if count.value > capacity:
                capacity = count.value + 4
            else:
                text_size = max(needed.value, 2 * text_size)  # as in _read_state: outgrow a writer
        else:
            check(status)
        # Sizes for next time: the field count only grows; the texts may shrink again (a huge
        # value once should not make every later call allocate as much).
        self._states_sizes = (capacity, min(max(text_size, needed.value), 16 * _TEXT_KEEP))
        total = count.value
        ids = self._ids_upto(total)
        states = []
        start = 0  # the texts of one field after another's (see fw_form_snapshots)
        for index in range(total):
            members = _unpack(snapshots, index * _SNAPSHOT_SIZE)
            states.append(field_state(ids[index], members, data, start))
            start += members[_TEXT_BYTES]
        return states

    def value(self, field_id: str) -> str:
        """The field's current value."""
        return self.state(field_id).value

    def __getitem__(self, field_id: str) -> str:
        return self.state(field_id).value

    def __contains__(self, field_id: object) -> bool:
        if not isinstance(field_id, str) or "\0" in field_id:
            return False
        handle = self._h
        if field_id in self._indices:
            return True
        try:
            fid = field_id.encode("utf-8")
        except UnicodeEncodeError:
            return False
        index = c_size_t(0)
        status = _field_index(handle, fid, byref(index))
        if status == FW_ERR_UNKNOWN_FIELD:
            return False
        check(status)
        if field_id.__class__ is str:
            self._indices[field_id] = index
        return True

    def __bool__(self) -> bool:
        """A form is always true, even with no fields (``__len__`` counts fields)."""
        return True

    def __len__(self) -> int:
        """The number of fields."""
        count = c_size_t(0)
        check(lib.fw_form_field_count(self._h, byref(count)))
        return int(count.value)

    def __iter__(self) -> Iterator[str]:
        return iter(self.field_ids)

    @property
    def field_ids(self) -> List[str]:
        """Field ids in registration order."""
        count = len(self)
        return self._ids_upto(count)[:count]

    @property
    def values(self) -> Dict[str, str]:
        """Every field's current value for submission, in registration order: normalised
        (:attr:`FieldState.normalized_value`; what the rules judged). A new dict each time; one
        consistent read, as :meth:`states`."""
        return {state.id: state.normalized_value for state in self.states()}

    @property
    def is_valid(self) -> bool:
        """Whether every field passes its strict rules on its current value, touched or not (a
        submit button's enabled state). Runs no validator."""
        valid = c_bool(False)
        check(lib.fw_form_is_valid(self._h, byref(valid)))
        return bool(valid.value)

    @property
    def first_invalid(self) -> Optional[str]:
        """The id of the first field (registration order) failing its strict rules, or ``None``."""
        handle = self._h
        found = read_string(lambda buf, size, length: lib.fw_form_first_invalid(handle, buf, size, length))
        return found or None

