"""Asynchronous rules on the Python side: the request/resolve types, and the check tasks and
wake-ups behind :meth:`formwell.Form.settle` and :meth:`formwell.Form.validate_async` (whose loop
is the form's).

The library runs no thread and reads no clock. A value change that passes every synchronous rule
makes it record a request per asynchronous rule, due after the rule's debounce on the host's clock;
the host takes due requests (:meth:`Form.next_request`), checks them however it likes and resolves
them by id (:meth:`Form.resolve`). A result for a request whose value has changed since is dropped
as stale by the library, whatever order results arrive in. :meth:`Form.settle` is that host loop
on the running asyncio event loop.
"""

from __future__ import annotations

import enum
import inspect
import logging
import time
from typing import TYPE_CHECKING, Any, Callable, List, NamedTuple, Optional, Set, Tuple

# asyncio is imported where it is used: it imports subprocess, which importing formwell must not.

from ._native import FW_ASYNC_ERROR, FW_ASYNC_INVALID, FW_ASYNC_VALID
from ._registry import checks, register_check, registered_checks, unregister_check  # noqa: F401  (re-exported)
from .errors import InvalidArgumentError, UnknownRequestError
from .rules import AsyncCheck

if TYPE_CHECKING:  # pragma: no cover
    import asyncio

logger = logging.getLogger("formwell")

_UINT64_MAX = 2**64 - 1


class Request(NamedTuple):
    """One asynchronous check the form asks the host to make (:meth:`formwell.Form.next_request`):
    the rule named ``rule`` on field ``field``'s exact ``value``. Resolve it by ``id``
    (:meth:`formwell.Form.resolve` takes the request or its id)."""

    #: Unique in the form: the first request is 1, then one more per request created.
    id: int
    #: The field id.
    field: str
    #: The field's index in registration order when the request was handed out.
    index: int
    #: The exact value to check.
    value: str
    #: The asynchronous rule's name.
    rule: str
    #: The host time (ms) from which it was due: when the value was set plus the debounce (or the
    #: time of a submit that flushed it).
    due: int


class SecretRequest(Request):
    """A :class:`Request` for a secret field: the same tuple, printed with its value masked."""

    __slots__ = ()

    def __repr__(self) -> str:
        return (f"Request(id={self.id!r}, field={self.field!r}, index={self.index!r}, value='***', "
                f"rule={self.rule!r}, due={self.due!r})")


class Verdict(str, enum.Enum):
    """What the host found (``fw_async_verdict``). A ``str`` enum: ``Verdict.ERROR == "error"``."""

    #: The value passes.
    VALID = "valid"
    #: The value fails (with the host's message, unless the rule has its own).
    INVALID = "invalid"
    #: The check could not be made (network down, ...): the field reads invalid with the host's
    #: message, else "Could not check this value", until its value changes.
    ERROR = "error"

    def __str__(self) -> str:
        return str(self.value)


class Resolution(str, enum.Enum):
    """What became of a result (:meth:`formwell.Form.resolve`). A ``str`` enum:
    ``Resolution.APPLIED == "applied"``."""

    #: It was the field's current request: its verdict is now the field's.
    APPLIED = "applied"
    #: The field's value changed (or the form was reset, or the field removed) since the request
    #: was handed out: the result was dropped and counted in :attr:`formwell.Form.stale_results`.
    STALE = "stale"

    def __str__(self) -> str:
        return str(self.value)


class Outcome(str, enum.Enum):
    """How a submit ends when asynchronous checks may still run (``fw_submit_outcome``). A ``str``
    enum: ``Outcome.PENDING == "pending"``."""

    VALID = "valid"
    #: A field taking part fails now.
    INVALID = "invalid"
    #: No field fails, but some wait for an asynchronous check.
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)


class SubmitResult(NamedTuple):
    """What :meth:`formwell.Form.submit` answers: the :class:`Outcome` and, when it is
    ``PENDING``, the ids of the fields taking part that wait for a check (registration order).
    True (``bool(result)``) only when the outcome is ``VALID``."""

    outcome: Outcome
    pending_fields: List[str]

    @property
    def valid(self) -> bool:
        return self.outcome is Outcome.VALID

    @property
    def invalid(self) -> bool:
        return self.outcome is Outcome.INVALID

    @property
    def pending(self) -> bool:
        return self.outcome is Outcome.PENDING

    def __bool__(self) -> bool:
        return self.outcome is Outcome.VALID


class CheckError(Exception):
    """Raised by an asynchronous check that could not answer, to give the error verdict a message
    of its own: ``raise CheckError("The server is unreachable, try again")``. (Any other exception
    gives the library's "Could not check this value" and is logged on the ``formwell`` logger.)"""

    def __init__(self, message: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message


_VERDICTS = {Verdict.VALID: FW_ASYNC_VALID, Verdict.INVALID: FW_ASYNC_INVALID, Verdict.ERROR: FW_ASYNC_ERROR}


def verdict_code(verdict: Any) -> int:
    """The fw_async_verdict of ``True`` / ``False`` / a :class:`Verdict` / its name."""
    if verdict is True:
        return FW_ASYNC_VALID
    if verdict is False:
        return FW_ASYNC_INVALID
    if isinstance(verdict, str):
        try:
            return _VERDICTS[Verdict(verdict)]
        except ValueError:
            pass
        raise InvalidArgumentError(f"unknown verdict {verdict!r} (expected valid, invalid or error)", 7)
    raise TypeError(f"a verdict is True, False or a formwell.Verdict, not {type(verdict).__name__}")


def request_id(request: Any) -> int:
    """The id of a :class:`Request`, or an int id as given (0 ... 2**64 - 1)."""
    rid = request.id if isinstance(request, Request) else request
    if isinstance(rid, bool) or not isinstance(rid, int):
        raise TypeError(f"a request is a formwell.Request or its id (int), not {type(request).__name__}")
    if not 0 <= rid <= _UINT64_MAX:
        raise UnknownRequestError(f"request id {rid} was never issued (ids are 1 ... 2**64 - 1)", 13)
    return rid


def check_ms(now_ms: Any, what: str = "now_ms") -> int:
    """A host time in whole milliseconds (0 ... 2**64 - 1)."""
    if isinstance(now_ms, bool) or not isinstance(now_ms, int):
        raise TypeError(f"{what} must be an int (milliseconds), not {type(now_ms).__name__}")
    if not 0 <= now_ms <= _UINT64_MAX:
        raise InvalidArgumentError(f"{what} {now_ms} is out of range (0 ... 2**64 - 1)", 7)
    return now_ms


def monotonic_ms() -> int:
    """The default clock of a form: ``time.monotonic()`` in whole milliseconds (asyncio's
    ``loop.time()`` reads the same clock)."""
    return int(time.monotonic() * 1000)


# ---- checks by name: the process registry (see formwell._registry) ----

#: The names a spec's ``async`` rules use.
async_rule_names = checks.names_in


# ---- running checks on an event loop (the loop itself: Form.settle) ----

#: What a check task hands its verdict to: ``answer(request, verdict, message)`` applies it to the
#: form (:meth:`formwell.Form.resolve`), answering the resolution, or None when it was not applied.
Answer = Callable[[Request, Verdict, Optional[str]], Optional[Resolution]]


def result_verdict(result: Any) -> Tuple[Verdict, Optional[str]]:
    """A check's return value as a verdict and its message."""
    if result is None or result is True:
        return Verdict.VALID, None
    if result is False:
        return Verdict.INVALID, None
    if isinstance(result, str):
        return Verdict.INVALID, result
    raise TypeError(
        "an async check must return None or True (valid), or a message str or False (invalid), "
        f"not {type(result).__name__}"
    )


async def run_check(request: Request, check: AsyncCheck, answer: Answer) -> Optional[Resolution]:
    """Runs one check and hands its verdict to ``answer`` (the body of each check task): the
    library drops it as stale if the value changed meanwhile."""
    try:
        result = check(request.value)
        if inspect.isawaitable(result):
            result = await result
        verdict, message = result_verdict(result)
    except CheckError as error:
        verdict, message = Verdict.ERROR, error.message
    except Exception:  # noqa: BLE001 - the check could not answer: an error verdict
        logger.warning("formwell: the async check %r raised on request %d of field %r", request.rule,
                       request.id, request.field, exc_info=True)
        verdict, message = Verdict.ERROR, None
    return answer(request, verdict, message)


class Driver:
    """A form's asyncio state: the check tasks it runs (one per request handed out by
    :meth:`Form.settle`), and the futures of the settle loops waiting for something to happen
    (a check answering, a value change, a resolve from another thread, a submit)."""

    __slots__ = ("tasks", "waiters")

    def __init__(self) -> None:
        self.tasks: Set["asyncio.Task[Any]"] = set()
        self.waiters: List[Tuple[asyncio.AbstractEventLoop, "asyncio.Future[None]"]] = []

    def wake(self) -> None:
        """Wakes every waiting settle loop (from any thread)."""
        for loop, future in list(self.waiters):
            try:
                loop.call_soon_threadsafe(_set_done, future)
            except RuntimeError:  # the loop is closed
                pass

    def start(self, request: Request, check: AsyncCheck, answer: Answer, loop: asyncio.AbstractEventLoop) -> None:
        """Runs ``check`` on ``request`` as a task of ``loop``, its verdict handed to ``answer``."""
        task = loop.create_task(run_check(request, check, answer), name=f"formwell check {request.id} ({request.rule})")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def running(self, loop: asyncio.AbstractEventLoop) -> List["asyncio.Task[Any]"]:
        return [task for task in self.tasks if not task.done() and task.get_loop() is loop]

    def cancel(self) -> None:
        """Cancels every check task (the form is closing)."""
        for task in list(self.tasks):
            try:
                task.get_loop().call_soon_threadsafe(task.cancel)
            except RuntimeError:  # the loop is closed
                pass


def _set_done(future: "asyncio.Future[None]") -> None:
    if not future.done():
        future.set_result(None)


# ---- the form's host loop, called as functions ----


async def settle(form: Any) -> None:
    """``await form.settle()`` (see :meth:`formwell.Form.settle`)."""
    await form.settle()


async def validate_async(form: Any, group: Optional[str] = None) -> bool:
    """``await form.validate_async(group)`` (see :meth:`formwell.Form.validate_async`)."""
    return bool(await form.validate_async(group))
