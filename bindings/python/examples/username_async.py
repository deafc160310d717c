"""A username whose availability a (pretend) server checks, with asyncio: seed 03's "async check,
e.g. unique username", debounced, without races.

- The field has ``Required()``, ``MinLength(3)`` and ``AsyncRule("username_available", check,
  debounce=0.2)``. The check is an ``async def`` that asks the server; it runs only for a value
  that passes the synchronous rules, once the user has stopped typing for 0.2 s.
- The user types "ada", pauses (its check starts: the server is slow to answer that one), then
  types "adam" and "adam_" quickly: "adam" is typed over before its debounce ends, so it is never
  sent; "adam_" is checked and answered at once.
- The late answer for "ada" ("taken") arrives after the one for "adam_" ("free"): the library
  drops it as stale (the value it was for is gone), so the field stays valid. No sequence numbers
  or cancellation in the app: the request id does it.
- The keystroke handler starts ``form.settle()`` when none is running; it takes due checks, runs
  them as tasks of the event loop, sleeps until the next one falls due, and returns when nothing is
  pending and every check it started has answered.
- Finally a submit right after typing: ``await form.validate_async()`` does not wait out the
  debounce, and answers the final verdict.

Run from the repository root after `make lib`:
    FORMWELL_LIBRARY=.build/release/libformwell.so python3 bindings/python/examples/username_async.py
or, after `pip install ./bindings/python`:
    python3 bindings/python/examples/username_async.py
"""

import asyncio
import os
import sys
from typing import List, Optional

try:
    import formwell
except ImportError:  # not installed: use the source tree next to this example
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import formwell

from formwell import AsyncRule, Form, MinLength, Required

#: What the "server" already has, and how long it takes to answer for a name (seconds).
TAKEN = {"ada", "adam"}
SLOW = {"ada": 1.0}
#: Every name the server was asked about, in order.
CALLS: List[str] = []


async def username_available(value: str) -> Optional[str]:
    """The async check: None (valid) when the name is free, else the message to show."""
    CALLS.append(value)
    late = value in SLOW
    print(f"   server: checking {value!r}" + (" (slow)" if late else ""))
    await asyncio.sleep(SLOW.get(value, 0.05))
    taken = value in TAKEN
    print(f"   server: {value!r} is {'taken' if taken else 'free'}" + (" (answer arrives late)" if late else ""))
    return "That username is taken" if taken else None


def show(what: str, form: Form) -> None:
    state = form.state("username")
    shown = state.validity.name.lower() + (f": {state.message}" if state.message else "")
    print(f"{what:<16} username {state.value!r}: {shown}")


class View:
    """What a UI's keystroke handler does: set the value, redraw, make sure a settle runs."""

    def __init__(self, form: Form) -> None:
        self.form = form
        self.settling: Optional["asyncio.Task[None]"] = None

    def keystroke(self, value: str) -> None:
        self.form["username"] = value
        show(f"typed {value!r}", self.form)
        if self.settling is None or self.settling.done():
            self.settling = asyncio.ensure_future(self.form.settle())


async def main() -> None:
    with Form() as form:
        form.add_field("username", [Required(), MinLength(3),
                                    AsyncRule("username_available", username_available, debounce=0.2)],
                       label="Username")
        view = View(form)
        form.focus("username")
        print("-- typing (a check waits for 0.2 s without typing)")
        view.keystroke("ada")
        await asyncio.sleep(0.3)  # a pause: "ada" is being checked
        view.keystroke("adam")
        await asyncio.sleep(0.05)
        view.keystroke("adam_")  # "adam" typed over before its debounce ended: never sent
        assert view.settling is not None
        await view.settling
        show("settled", form)
        print(f"   stale results dropped: {form.stale_results}; server calls: {CALLS}")
        form.blur("username")

        print("-- submit right after typing (no debounce wait)")
        form.focus("username")
        view.keystroke("adam")
        valid = await form.validate_async()
        show("submitted", form)
        print(f"   valid={valid}; announce: {form.announcement!r}; server calls: {CALLS}")
        await view.settling  # the keystroke's settle has nothing left to do either


if __name__ == "__main__":
    asyncio.run(main())
