# Formwell build, install, packaging and test entry points. `make demo` and `make test` are the
# README's commands; `make dist` builds the release artifacts into dist/ (docs/install.md).
ifeq ($(origin CC),default)
CC := gcc
endif
ifeq ($(origin CXX),default)
CXX := g++
endif
SWIFT      ?= swift
PREFIX     ?= /usr/local
DESTDIR    ?=
PYTHON3    ?= python3

# The version lives in one place, the engine's Sources/Formwell/Version.swift.
VERSION    := $(shell sed -n 's/.*formwellVersion: StaticString = "\([0-9.]*\)".*/\1/p' Sources/Formwell/Version.swift)
MAJOR      := $(firstword $(subst ., ,$(VERSION)))
SONAME     := libformwell.so.$(MAJOR)

RELEASE    := .build/release
LIB        := $(RELEASE)/libformwell.so
CBUILD     := .build/c
C_STRICT   := -std=c99 -Wall -Wextra -Wpedantic -Werror
CXX_STRICT := -std=c++17 -Wall -Wextra -Wpedantic -Werror
C_LINK     := -Iinclude -L$(RELEASE) -lformwell -Wl,-rpath,$(abspath $(RELEASE)) -pthread
ENGINE_SRC := $(shell find Sources/Formwell Sources/CPCRE2 -type f) Package.swift Makefile
SWIFT_SRC  := $(ENGINE_SRC) $(shell find Sources/FormwellC Sources/CFormwellTypes Sources/CFormwellAtomics -type f) scripts/exports.map
CLI_SRC    := $(ENGINE_SRC) $(shell find Sources/FormwellTool Sources/CFormwellToolCompat -type f)
CLI        := .build/bin/formwell
MAN_DIR    := .build/man
DIST       := dist
# The project's own Python environment (PEP 668: nothing goes into the system Python or the
# caller's active one): the test packages (.ci/requirements.txt) and the packaging tools
# (.ci/requirements-dist.txt), each installed once per change of its list.
VENV       := .venv
VENV_PY    := $(VENV)/bin/python
VENV_TEST  := $(VENV)/.test-packages
VENV_DIST  := $(VENV)/.dist-packages
PIP_QUIET  := --quiet --disable-pip-version-check
C_TESTS    := registration_test snapshot_test hostile_test lifetime_test batch_test arrow_test form_behaviour_test async_test rules_test normalization_test messages_test
# Built and run by test-c only: their time bounds (the fork test's per-child alarm among them) do not
# hold under valgrind.
C_TIMED_TESTS := construction_test fork_test
EXAMPLES   := $(basename $(notdir $(wildcard bindings/c/examples/*.c)))



.PHONY: all setup setup-test venv man dist test-man test-dist lib cli header check-header rules check-rules demo walkthrough tui test-tui install uninstall test-python test-lua test-cli bench bench-ir bench-python-ir \
        fuzz test-fuzz test-tsan \
        test test-swift test-c test-c-asan test-c-valgrind test-install test-symbols coverage clean
.DELETE_ON_ERROR:

all: lib

# Provisioning is its own step: build targets never run the installer.
# setup: the Swift toolchain check and the build's Debian packages; setup-test: the tests' too.
setup:
	@scripts/setup.sh

setup-test:
	@scripts/setup.sh --test

$(VENV)/.created:
	$(PYTHON3) -m venv $(VENV)
	@touch $@

$(VENV_TEST): .ci/requirements.txt $(VENV)/.created
	$(VENV_PY) -m pip install $(PIP_QUIET) -r .ci/requirements.txt
	@touch $@

$(VENV_DIST): .ci/requirements-dist.txt $(VENV)/.created
	$(VENV_PY) -m pip install $(PIP_QUIET) -r .ci/requirements-dist.txt
	@touch $@

venv: $(VENV_TEST) $(VENV_DIST)

# The shared library: Swift runtime linked statically (no toolchain path in ldd), only fw_* exported
# (scripts/exports.map), soname libformwell.so.MAJOR. Linked with the toolchain's lld: gold left the
# localized engine symbols behind in .dynsym (as LOCAL entries), lld drops them. Debug info is left
# out (--strip-debug); the symbol table stays, so perf and callgrind still name functions.
# Cross-module optimisation lets the engine's internal functions inline into the C-ABI layer
# (fewer instructions per fw_field_update_at, for a slightly larger library).
lib: $(LIB)
$(LIB): $(SWIFT_SRC)
	$(SWIFT) build -c release --product formwell -Xswiftc -static-stdlib -Xswiftc -use-ld=lld -Xswiftc -cross-module-optimization \
	    -Xlinker --version-script=$(abspath scripts/exports.map) -Xlinker -soname=$(SONAME) -Xlinker --strip-debug
	ln -sf libformwell.so $(RELEASE)/$(SONAME)
	@touch $@

# Regenerates include/formwell.h from the compiler's view of the @c declarations.
header: lib
	python3 scripts/gen_header.py

# The rule-kind declarations generated from the library's rule catalogue (the C enum's Swift source
# and the Python rule classes), the size limits' (Sources/Formwell/Form/FormLimits.swift), and the message catalogues embedded from their JSON files
# (Sources/Formwell/Messages/Catalogues); the header follows. check-rules fails when any is stale.
rules:
	python3 scripts/gen_messages.py
	python3 scripts/gen_limits.py
	$(MAKE) lib
	python3 scripts/gen_rules.py
	python3 scripts/gen_version.py
	$(MAKE) header

check-rules: lib
	python3 scripts/gen_messages.py --check
	python3 scripts/gen_rules.py --check
	python3 scripts/gen_version.py --check
	python3 scripts/gen_limits.py --check

# Fails when the committed header differs from the generated one, or does not compile cleanly.
check-header: lib
	python3 scripts/gen_header.py --check
	@mkdir -p $(CBUILD)
	printf '#include "formwell.h"\nint main(void) { return fw_abi_version() == FW_ABI_VERSION ? 0 : 1; }\n' > $(CBUILD)/header_c.c
	$(CC) $(C_STRICT) -Iinclude -c $(CBUILD)/header_c.c -o $(CBUILD)/header_c.o
	cp $(CBUILD)/header_c.c $(CBUILD)/header_cxx.cpp
	$(CXX) $(CXX_STRICT) -Iinclude -c $(CBUILD)/header_cxx.cpp -o $(CBUILD)/header_cxx.o
	$(CC) $(C_STRICT) -include stdint.h -include stddef.h -include stdbool.h -fsyntax-only -x c include/formwell_ffi.h

$(CBUILD)/%: bindings/c/examples/%.c include/formwell.h $(LIB)
	@mkdir -p $(CBUILD)
	$(CC) $(C_STRICT) $< -o $@ $(C_LINK)

$(CBUILD)/%: bindings/c/tests/%.c bindings/c/tests/check.h bindings/c/tests/seed_rules.h bindings/c/tests/generated_records.h include/formwell.h $(LIB)
	@mkdir -p $(CBUILD)
	$(CC) $(C_STRICT) $< -o $@ $(C_LINK)

# The conformance runner parses the vectors with libjansson (a test-only dependency).
$(CBUILD)/conformance_runner: bindings/c/tests/conformance_runner.c include/formwell.h $(LIB)
	@mkdir -p $(CBUILD)
	$(CC) $(C_STRICT) $< -o $@ $(C_LINK) -ljansson

$(CBUILD)/asan/%: bindings/c/tests/%.c bindings/c/tests/check.h bindings/c/tests/seed_rules.h bindings/c/tests/generated_records.h include/formwell.h $(LIB)
	@mkdir -p $(CBUILD)/asan
	$(CC) $(C_STRICT) -g -fsanitize=address,undefined -fno-sanitize-recover=all $< -o $@ $(C_LINK)

# The `formwell` command-line tool.
cli: $(CLI)
$(CLI): $(CLI_SRC)
	$(SWIFT) build -c release --product formwell-tool -Xswiftc -static-stdlib
	@mkdir -p $(dir $@)
	cp $(RELEASE)/formwell-tool $@

# The main job: check the generated sign-ups against the registration form. Exit status 1 means
# "some records are invalid", which is what this data is for; 2 (a usage or spec error) fails.
demo: setup cli
	$(CLI) check examples/registration.json examples/signups.jsonl; test $$? -le 1

# The C walkthrough: a registration form through focus, typing, blur and submit, state by state.
walkthrough: lib $(CBUILD)/registration_walkthrough
	$(CBUILD)/registration_walkthrough

# Seed 03's sign-up form in the terminal (plain ANSI sequences and termios, the C ABI only).
tui: lib $(CBUILD)/signup_tui
	$(CBUILD)/signup_tui

# `make install` puts the library (soname link and development link), the headers, the pkg-config
# file, the CLI, the man pages and the LuaJIT module under PREFIX; `make uninstall` removes exactly
# INSTALLED. A system prefix (/usr, /usr/local) with no DESTDIR gets ldconfig run after both.
LUA_DIR    := share/lua/5.1
INSTALLED  := lib/libformwell.so.$(VERSION) lib/$(SONAME) lib/libformwell.so lib/pkgconfig/formwell.pc \
              include/formwell.h include/formwell_ffi.h bin/formwell share/man/man1/formwell.1 \
              share/man/man3/formwell.3 $(LUA_DIR)/formwell.lua $(LUA_DIR)/formwell_json.lua \
              $(LUA_DIR)/formwell_ffi.h
RUN_LDCONFIG = if [ -z "$(DESTDIR)" ] && { [ "$(PREFIX)" = /usr/local ] || [ "$(PREFIX)" = /usr ]; }; then ldconfig; fi

install: lib cli man
	install -d $(addprefix $(DESTDIR)$(PREFIX)/,lib/pkgconfig include bin share/man/man1 share/man/man3 $(LUA_DIR))
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/libformwell.so.$(VERSION)
	ln -sf libformwell.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libformwell.so
	install -m 644 include/formwell.h include/formwell_ffi.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$${prefix}/lib|' -e 's|@VERSION@|$(VERSION)|' bindings/c/formwell.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/formwell.pc
	chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/formwell.pc
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/formwell
	install -m 644 $(MAN_DIR)/formwell.1 $(DESTDIR)$(PREFIX)/share/man/man1/formwell.1
	install -m 644 $(MAN_DIR)/formwell.3 $(DESTDIR)$(PREFIX)/share/man/man3/formwell.3
	install -m 644 bindings/lua/formwell.lua bindings/lua/formwell_json.lua include/formwell_ffi.h $(DESTDIR)$(PREFIX)/$(LUA_DIR)/
	@$(RUN_LDCONFIG)

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))
	@$(RUN_LDCONFIG)

test-swift:
	$(SWIFT) test

# After the tests, the asynchronous-rule example (a worker thread answering late; it checks its own ending).
test-c: lib $(addprefix $(CBUILD)/,$(C_TESTS) $(C_TIMED_TESTS)) $(CBUILD)/conformance_runner $(CBUILD)/username_async
	@for t in $(C_TESTS) $(C_TIMED_TESTS); do $(CBUILD)/$$t || exit 1; done
	$(CBUILD)/conformance_runner Tests/Conformance/*.json
	$(CBUILD)/username_async

# The terminal sign-up form typed into inside a private tmux server at 80x24 (Tests/TUI); the screens
# it captures go to $(CBUILD)/tui_captures.txt (the pictures in docs/terminal-form.md).
test-tui: lib $(CBUILD)/signup_tui $(VENV_TEST)
	SIGNUP_TUI=$(abspath $(CBUILD))/signup_tui SIGNUP_TUI_CAPTURES=$(abspath $(CBUILD))/tui_captures.txt \
	    $(VENV_PY) -m pytest Tests/TUI -q -p no:cacheprovider

# The C tests built with AddressSanitizer and UBSan (the library itself is not instrumented).
test-c-asan: lib $(addprefix $(CBUILD)/asan/,$(C_TESTS))
	@for t in $(C_TESTS); do ASAN_OPTIONS=detect_leaks=1 \
	    $(CBUILD)/asan/$$t || exit 1; done

# The C tests under valgrind's memcheck: any error or definite leak fails.
test-c-valgrind: lib $(addprefix $(CBUILD)/,$(C_TESTS))
	@for t in $(C_TESTS); do valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite --show-possibly-lost=no \
	    $(CBUILD)/$$t || exit 1; done

# Installs into a temporary prefix and builds every example with pkg-config only, as C and C++.
test-install: lib
	scripts/test_install.sh

test-symbols: lib
	scripts/check_symbols.sh $(LIB)

# The Python package, installed into .venv with the library and the CLI bundled, then its test suite.
test-python: lib cli $(VENV_TEST)
	$(VENV_PY) -m pip install $(PIP_QUIET) --force-reinstall --no-deps ./bindings/python
	cd bindings/python && FORMWELL_CLI=$(abspath $(CLI)) $(abspath $(VENV_PY)) -m pytest tests -q

# The LuaJIT binding (Debian's luajit, through its ffi): unit tests, then every conformance vector.
test-lua: lib
	FORMWELL_LIBRARY=$(abspath $(LIB)) luajit bindings/lua/tests/binding_test.lua
	FORMWELL_LIBRARY=$(abspath $(LIB)) luajit bindings/lua/tests/conformance.lua Tests/Conformance/*.json

# libFuzzer harnesses (Fuzz/): bounded in the test command, open-ended with `make fuzz`.
test-fuzz:
	scripts/fuzz.sh run-bounded 45

fuzz:
	scripts/fuzz.sh run

# ThreadSanitizer stress: 8 threads on shared and private forms, re-entrant validators.
test-tsan:
	scripts/tsan_stress.sh

# The command-line tool end to end, including the conformance vectors' records.
test-cli: cli $(VENV_TEST)
	FORMWELL_CLI=$(abspath $(CLI)) $(VENV_PY) -m pytest Tests/CLI -q -p no:cacheprovider

test: setup-test venv test-swift check-rules check-header test-c test-tui test-c-asan test-c-valgrind test-symbols test-install test-python test-lua test-cli test-man test-dist test-tsan test-fuzz
	@echo "All tests passed."

# The man pages, generated: formwell(1) from the CLI's own --help, formwell(3) from the header.
man: $(MAN_DIR)/formwell.1 $(MAN_DIR)/formwell.3
$(MAN_DIR)/formwell.1 $(MAN_DIR)/formwell.3 &: $(CLI) include/formwell.h scripts/gen_man.py
	python3 scripts/gen_man.py --cli $(CLI) --header include/formwell.h --version $(VERSION) --out $(MAN_DIR)

test-man: cli $(VENV_TEST)
	FORMWELL_CLI=$(abspath $(CLI)) $(VENV_PY) -m pytest Tests/Man -q -p no:cacheprovider

# The release artifacts in dist/ (docs/install.md): the wheel and the sdist, the Debian packages and
# the relocatable tarball, each made from the same build of the library, the CLI and the man pages.
dist: lib cli man $(VENV_DIST)
	rm -rf $(DIST) && mkdir -p $(DIST)
	VERSION=$(VERSION) SONAME=$(SONAME) LIB=$(LIB) CLI=$(CLI) MAN_DIR=$(MAN_DIR) DIST=$(DIST) PYTHON=$(abspath $(VENV_PY)) \
	    scripts/dist/build.sh

# Every artifact installed as its users install it, with no Swift and nothing of the repository on
# PATH, PYTHONPATH, LD_LIBRARY_PATH or PKG_CONFIG_PATH (scripts/dist/test_*.sh).
test-dist: dist
	scripts/dist/test_docs.sh
	VERSION=$(VERSION) CLI=$(CLI) scripts/dist/test_wheel.sh
	VERSION=$(VERSION) CLI=$(CLI) scripts/dist/test_tarball.sh
	VERSION=$(VERSION) CLI=$(CLI) scripts/dist/test_deb.sh

# Source-based coverage of Sources/ (instrumented builds in .build/coverage, never .build/release):
# the Swift, C, conformance, Python and CLI suites; per-folder table, HTML in .build/coverage/html.
coverage: $(VENV_TEST)
	SWIFT=$(SWIFT) SONAME=$(SONAME) CC=$(CC) PYTHON=$(abspath $(VENV_PY)) scripts/coverage.sh

# Benchmarks print ratios against a baseline measured in the same run; they are not pass/fail tests
# (bench/README.md): every program runs, then the Markdown summary; the status is non-zero only
# when a sanity check failed (e.g. Formwell's verdicts disagree with PCRE2's matches).
bench: lib $(VENV_TEST)
	@mkdir -p $(CBUILD)
	$(CC) -O2 -std=c99 -Wall -Wextra bench/keystroke_bench.c -o $(CBUILD)/keystroke_bench $(C_LINK) $$(pkg-config --cflags --libs libpcre2-8)
	$(CC) -O2 -std=c99 -Wall -Wextra bench/threads_bench.c -o $(CBUILD)/threads_bench $(C_LINK) $$(pkg-config --cflags --libs libpcre2-8)
	$(CC) -O2 -std=c99 -Wall -Wextra bench/batch_bench.c -o $(CBUILD)/batch_bench $(C_LINK) $$(pkg-config --cflags --libs libpcre2-8)
	$(CC) -O2 -std=c99 -Wall -Wextra bench/redos_bench.c -o $(CBUILD)/redos_bench $(C_LINK) $$(pkg-config --cflags --libs libpcre2-8) -ljansson
	$(CC) -O2 -std=c99 -Wall -Wextra bench/redos_agreement.c -o $(CBUILD)/redos_agreement $(C_LINK) $$(pkg-config --cflags --libs libpcre2-8) -ljansson
	$(CC) -O2 -std=c99 -Wall -Wextra -shared -fPIC bench/lua_bench_c.c -o $(CBUILD)/liblua_bench_c.so $(C_LINK) $$(pkg-config --cflags --libs libpcre2-8)
	@rm -f $(CBUILD)/bench_rows.tsv; status=0; \
	export BENCH_ROWS=$(abspath $(CBUILD))/bench_rows.tsv; \
	$(CBUILD)/keystroke_bench || status=1; \
	$(CBUILD)/threads_bench || status=1; \
	$(CBUILD)/batch_bench || status=1; \
	$(CBUILD)/redos_bench Tests/Corpora/redos_patterns.json || status=1; \
	$(CBUILD)/redos_agreement Tests/Corpora/redos_patterns.json || status=1; \
	FORMWELL_LIBRARY=$(abspath $(LIB)) PYTHONPATH=$(abspath bindings/python) $(VENV_PY) bench/python_bench.py || status=1; \
	FORMWELL_LIBRARY=$(abspath $(LIB)) luajit bench/lua_bench.lua $(abspath $(CBUILD))/liblua_bench_c.so || status=1; \
	$(MAKE) --no-print-directory cli || status=1; \
	FORMWELL_LIBRARY=$(abspath $(LIB)) PYTHONPATH=$(abspath bindings/python) $(VENV_PY) bench/bulk_python.py || status=1; \
	FORMWELL_LIBRARY=$(abspath $(LIB)) PYTHONPATH=$(abspath bindings/python) $(VENV_PY) bench/table_bench.py || status=1; \
	$(VENV_PY) bench/summary.py $$BENCH_ROWS --readme bench/README.md; \
	exit $$status

# Rows 1a, 2a and 3 counted in instructions (callgrind) instead of timed: the same figure on every
# run, for comparing two builds on a noisy machine (bench/keystroke_ir.sh). Not the targets' measure.
bench-ir: lib
	@mkdir -p $(CBUILD)
	$(CC) -O2 -std=c99 -Wall -Wextra bench/keystroke_ir.c -o $(CBUILD)/keystroke_ir $(C_LINK) $$(pkg-config --cflags --libs libpcre2-8)
	bench/keystroke_ir.sh $(CBUILD)/keystroke_ir

# Rows 6a and 6a2 (and two fuller state reads) counted in instructions, Python and library
# together (bench/python_ir.sh; about 3 minutes). Not the targets' measure either.
bench-python-ir: lib $(VENV_TEST)
	PATH=$(abspath $(VENV))/bin:$$PATH FORMWELL_LIBRARY=$(abspath $(LIB)) PYTHONPATH=$(abspath bindings/python) bench/python_ir.sh

clean:
	rm -rf .build $(DIST)
