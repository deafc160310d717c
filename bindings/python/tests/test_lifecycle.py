"""Handles: close, context manager, __del__ (also at interpreter shutdown), leaks, threads, fork."""

import gc
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import pytest

import formwell
from formwell import Custom, Email, Form, InvalidHandleError, MinLength, Regex, Required, live_forms
from formwell.rules import live_custom_contexts

from conftest import PACKAGE_ROOT


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def churn(count):
    for i in range(count):
        form = Form()
        form.add_field("email", [Required(), Email(), Regex("[a-z@.]+")])
        form.add_field("name", [MinLength(2), Custom(lambda v: None if v != "x" else "no")])
        form["email"] = f"user{i}@example.com"
        form["name"] = "x"
        form.validate()
        form.close()


def test_ten_thousand_forms_no_growth():
    gc.collect()
    forms_before, contexts_before = live_forms(), live_custom_contexts()
    churn(1000)  # warm-up: caches, allocator pools
    gc.collect()
    rss_before = rss_bytes()
    churn(10_000)
    gc.collect()
    assert live_forms() == forms_before
    assert live_custom_contexts() == contexts_before
    growth = rss_bytes() - rss_before
    assert growth < 16 * 1024 * 1024, f"RSS grew by {growth / 1e6:.1f} MB over 10,000 forms"


def test_forms_dropped_without_close_are_freed_by_del():
    gc.collect()
    before = live_forms()
    for _ in range(500):
        form = Form()
        form.add_field("a", [Custom(lambda v: None)])
        form["a"] = "x"
    del form
    gc.collect()
    assert live_forms() == before


def test_cycles_are_collected():
    gc.collect()
    before = live_forms()
    form = Form()
    form.add_field("a", [Custom(lambda v: form.__class__ and None)])  # the rule refers to the form
    del form
    gc.collect()
    assert live_forms() == before


def test_context_manager_closes_even_on_error():
    before = live_forms()
    with pytest.raises(RuntimeError):
        with Form() as form:
            form.add_field("a")
            assert live_forms() == before + 1
            raise RuntimeError("boom")
    assert form.closed and live_forms() == before
    assert repr(form) == "<formwell.Form closed>"


def test_two_threads_each_with_its_own_form():
    errors = []
    results = {}
    barrier = threading.Barrier(2)

    def worker(name):
        try:
            barrier.wait()
            seen = []
            for i in range(300):
                with Form() as form:
                    form.add_field("email", [Required(), Email()])
                    form.add_field("pw", [Required(), MinLength(8), Custom(lambda v: None if any(c.isdigit() for c in v) else "needs a digit")])
                    form.focus("email")
                    form["email"] = f"{name}{i}@example"
                    bad = form.state("email").message
                    form["email"] = f"{name}{i}@example.com"
                    form.focus("pw")
                    form["pw"] = "password"
                    weak = form.state("pw").message
                    form["pw"] = f"password{i}"
                    ok = form.validate()
                    seen.append((bad, weak, ok, form.values["email"] == f"{name}{i}@example.com"))
            results[name] = seen
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in ("t1", "t2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for name in ("t1", "t2"):
        assert results[name] == [("Invalid email format", "needs a digit", True, True)] * 300


def _forked_child(idle, busy):
    """What a child forked in the test below checks; its exit code (10: some form was lost)."""
    signal.alarm(10)  # a hung child dies of SIGALRM, which the parent reports
    idle["email"] = "user@example.com"
    if not idle.validate():
        return 1
    with Form() as fresh:
        fresh.add_field("code", [Required(), Regex("[a-z]+[0-9]")])
        fresh["code"] = "abc1"
        if not fresh.validate():
            return 2
    lost = 0
    for form in busy:
        try:
            form["name"] = "ab"
            if not form.validate():
                return 3
        except InvalidHandleError as error:
            if "fork" not in str(error):
                return 4
            lost += 1
        form.close()  # a form lost to the fork counts as freed: closing it succeeds
    return 10 if lost else 0


def test_fork_while_other_threads_use_forms():
    """os.fork() (what multiprocessing's "fork" start method does) while two threads validate
    forms through a Python validator: every child finishes; a form no thread was using works in
    it, and each worker's form either works or, if its thread was inside it, is refused naming fork."""
    idle = Form()
    idle.add_field("email", [Required(), Email()])
    busy = []
    for _ in range(2):
        form = Form()
        form.add_field("name", [MinLength(2), Custom(lambda v: "no" if v == "x" else None)])
        busy.append(form)
    stop = threading.Event()
    errors = []

    def worker(form):
        try:
            i = 0
            while not stop.is_set():
                form["name"] = "ab" if i % 2 else "x"
                if form.validate() != (i % 2 == 1):
                    errors.append(i)
                i += 1
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(form,)) for form in busy]
    for t in threads:
        t.start()
    statuses = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # "multi-threaded, use of fork()"
            for _ in range(40):
                time.sleep(0.002)
                pid = os.fork()
                if pid == 0:
                    code = 1
                    try:
                        code = _forked_child(idle, busy)
                    finally:
                        os._exit(code)
                statuses.append(os.waitpid(pid, 0)[1])
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert [s for s in statuses if not (os.WIFEXITED(s) and os.WEXITSTATUS(s) in (0, 10))] == []
    assert not errors, errors[:3]
    idle["email"] = "user@example.com"
    assert idle.validate()
    for form in [idle] + busy:
        form.close()


def test_one_form_shared_by_two_threads_stays_consistent():
    with Form() as form:
        form.add_field("a", [MinLength(3)])
        form.add_field("b", [Custom(lambda v: None)])

        def hammer(field):
            for i in range(500):
                form[field] = str(i)

        threads = [threading.Thread(target=hammer, args=(f,)) for f in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert form.values == {"a": "499", "b": "499"}


def test_del_is_safe_at_interpreter_shutdown(tmp_path):
    script = textwrap.dedent("""
        import formwell
        from formwell import Form, Custom, Required

        keep = []
        for i in range(50):
            form = Form()
            form.add_field("a", [Required(), Custom(lambda v: None)])
            form["a"] = "x"
            keep.append(form)
        cycle = Form()
        cycle.add_field("a", [Custom(lambda v: (cycle, None)[1])])
        cycle["a"] = "x"
        class Holder:
            pass
        h = Holder(); h.self = h; h.form = Form()
        print("ok")
    """)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(formwell.__file__))]
                                        + [p for p in [env.get("PYTHONPATH")] if p])
    done = subprocess.run([sys.executable, "-X", "dev", "-c", script], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_signup_example_runs():
    example = os.path.join(PACKAGE_ROOT, "examples", "signup.py")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(formwell.__file__))
    done = subprocess.run([sys.executable, example], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "submit: accepted" in done.stdout
    assert "bad pattern: missing terminating ] for character class" in done.stdout
