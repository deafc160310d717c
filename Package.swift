// swift-tools-version:6.0
import PackageDescription

// Formwell: a headless form-validation engine (`Formwell`, pure Swift) exposed to C and every FFI
// through `libformwell.so` (`FormwellC`, the thin C-ABI layer). PCRE2 backs every regular expression.
let package = Package(
    name: "Formwell",
    products: [
        // The engine, for Swift programs that link it natively.
        .library(name: "Formwell", targets: ["Formwell"]),
        // The C ABI: libformwell.so. Build it with `make lib` (static Swift runtime, version script).
        .library(name: "formwell", type: .dynamic, targets: ["FormwellC"]),
        // The `formwell` command-line tool (`make cli` installs it as .build/bin/formwell; a product
        // cannot share the library's name).
        .executable(name: "formwell-tool", targets: ["FormwellTool"]),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        // The ABI's structs and callback typedefs (header only): Swift and C share their layout.
        .systemLibrary(name: "CFormwellTypes"),
        // The C layer's atomic loads and stores on raw memory (the handle table's slot generations)
        // and its thread-local slot.
        .systemLibrary(name: "CFormwellAtomics"),
        // The engine depends on PCRE2 only (CPCRE2's shim.h also holds the thread-local slot of its
        // match data). Messages/Catalogues/*.json are the message catalogues' source:
        // scripts/gen_messages.py embeds them (Messages/EmbeddedCatalogues.swift), so the library
        // reads no file at run time.
        .target(name: "Formwell", dependencies: ["CPCRE2"], exclude: ["Messages/Catalogues"]),
        // The C ABI over the engine: argument checks, the handle table, the snapshot writer
        // (Snapshot/), the C enums and their mapping to the engine's.
        .target(
            name: "FormwellC",
            dependencies: ["Formwell", "CFormwellTypes", "CFormwellAtomics"],
            // The compiler writes the raw C declarations of every `@c` function here on each build;
            // scripts/gen_header.py turns them into include/formwell.h.
            // Exclusivity is enforced statically; the dynamic check (a thread-local access set touched
            // on every class or global access) costs a large share of a trivial call. Nothing here
            // accesses state that static checking cannot see.
            swiftSettings: [.unsafeFlags(["-emit-clang-header-path", ".build/formwell-raw.h",
                                          "-enforce-exclusivity=unchecked"])]
        ),
        // The CLI's own definitions of C library symbols that would raise its glibc floor
        // (hypotf.c says which and why).
        .target(name: "CFormwellToolCompat"),
        .executableTarget(name: "FormwellTool", dependencies: ["Formwell", "CFormwellToolCompat"]),
        .testTarget(name: "FormwellTests", dependencies: ["Formwell"]),
    ]
)
