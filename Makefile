# Formwell build and test entry points. `make demo` and `make test` are the README's two commands.
SWIFT      ?= swift
ifeq ($(origin CC),default)
CC := gcc
endif
ifeq ($(origin CXX),default)
CXX := g++
endif
RELEASE    := .build/release
LIB        := $(RELEASE)/libformwell.so
RAW_HEADER := .build/formwell-raw.h
CBUILD     := .build/c
C_STRICT   := -std=c99 -Wall -Wextra -Wpedantic -Werror
CXX_STRICT := -std=c++17 -Wall -Wextra -Wpedantic -Werror
C_LINK     := -Iinclude -L$(RELEASE) -lformwell -Wl,-rpath,$(abspath $(RELEASE))
SWIFT_SRC  := $(shell find Sources -name '*.swift' -o -name '*.h' -o -name '*.modulemap') Package.swift scripts/exports.map

.PHONY: all setup lib header check-header demo test test-swift test-c clean
.DELETE_ON_ERROR:

all: lib

setup:
	@scripts/setup.sh

# The shared library: Swift runtime linked statically (no toolchain path in ldd), only fw_* exported.
lib: setup $(LIB)
$(LIB): $(SWIFT_SRC)
	$(SWIFT) build -c release --product formwell -Xswiftc -static-stdlib \
	    -Xlinker --version-script=$(abspath scripts/exports.map)
	@touch $@

# Regenerates include/formwell.h from the compiler's view of the @c declarations.
header: lib
	python3 scripts/gen_header.py

# Fails when the committed header differs from the generated one, or does not compile cleanly.
check-header: lib
	python3 scripts/gen_header.py --check
	@mkdir -p $(CBUILD)
	printf '#include "formwell.h"\nint main(void) { return fw_abi_version() == FW_ABI_VERSION ? 0 : 1; }\n' > $(CBUILD)/header_c.c
	$(CC) $(C_STRICT) -Iinclude -c $(CBUILD)/header_c.c -o $(CBUILD)/header_c.o
	cp $(CBUILD)/header_c.c $(CBUILD)/header_cxx.cpp
	$(CXX) $(CXX_STRICT) -Iinclude -c $(CBUILD)/header_cxx.cpp -o $(CBUILD)/header_cxx.o

$(CBUILD)/%: bindings/c/examples/%.c include/formwell.h $(LIB)
	@mkdir -p $(CBUILD)
	$(CC) $(C_STRICT) $< -o $@ $(C_LINK)

$(CBUILD)/%: bindings/c/tests/%.c bindings/c/tests/check.h include/formwell.h $(LIB)
	@mkdir -p $(CBUILD)
	$(CC) $(C_STRICT) $< -o $@ $(C_LINK)

# The main job: walk a registration form through focus, typing, blur and submit.
demo: lib $(CBUILD)/registration_walkthrough
	$(CBUILD)/registration_walkthrough

test-swift: setup
	$(SWIFT) test

test-c: lib $(CBUILD)/registration_test
	$(CBUILD)/registration_test

test: setup test-swift check-header test-c
	@echo "All tests passed."

clean:
	rm -rf .build
