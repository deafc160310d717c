// Throughput of simdjson's On-Demand API over the same JSONL file as scanner_lines.swift, for the
// comparison in bench/json/README.md. Two ways: one `iterate` per line (what a line reader that reports
// errors per line does, like formwell check) and `iterate_many` over the whole file (simdjson's own
// JSONL path). Each record's members are walked, keys unescaped and the string values (the five fields
// of a sign-up) read with get_string; their lengths are summed so the work cannot be optimized away.
// Built with -march=native: On Demand's inline code is compiled for the kernel the flags allow (the
// library's own stage 1 picks one at run time); without it the inline part is the 'fallback' kernel.
//   g++ -O2 -march=native -std=c++17 bench/json/simdjson_lines.cpp -lsimdjson -o .build/json/simdjson_lines
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace simdjson;

static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: simdjson_lines FILE.jsonl [PASSES]\n");
        return 2;
    }
    int passes = argc >= 3 ? std::atoi(argv[2]) : 5;
    padded_string json;
    if (padded_string::load(argv[1]).get(json)) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    ondemand::parser parser;
    const char *data = json.data();
    size_t size = json.size();

    double best_lines = 1e9, best_many = 1e9;
    size_t lines = 0, docs = 0, checksum = 0, errors = 0;
    for (int pass = 0; pass < passes; pass++) {
        // One parse per line; the padding simdjson needs is the rest of the (padded) buffer.
        lines = 0; checksum = 0; errors = 0;
        auto start = std::chrono::steady_clock::now();
        size_t line_start = 0;
        for (size_t i = 0; i <= size; i++) {
            if (i == size || data[i] == '\n') {
                if (i > line_start) {
                    padded_string_view view(data + line_start, i - line_start, size + SIMDJSON_PADDING - line_start);
                    ondemand::document doc;
                    ondemand::object object;
                    bool ok = !parser.iterate(view).get(doc) && !doc.get_object().get(object);
                    if (ok) {
                        for (auto field : object) {
                            std::string_view key, value;
                            if (field.unescaped_key().get(key) || field.value().get_string().get(value)) { ok = false; break; }
                            checksum += value.size();
                        }
                    }
                    if (!ok) errors++;
                    lines++;
                }
                line_start = i + 1;
            }
        }
        double elapsed = seconds_since(start);
        if (elapsed < best_lines) best_lines = elapsed;

        // simdjson's document stream over the whole file.
        docs = 0;
        size_t checksum_many = 0;
        start = std::chrono::steady_clock::now();
        ondemand::document_stream stream;
        if (parser.iterate_many(json).get(stream)) { std::fprintf(stderr, "iterate_many failed\n"); return 1; }
        for (auto doc : stream) {
            ondemand::object object;
            if (doc.get_object().get(object)) { errors++; continue; }
            for (auto field : object) {
                std::string_view key, value;
                if (field.unescaped_key().get(key) || field.value().get_string().get(value)) { errors++; break; }
                checksum_many += value.size();
            }
            docs++;
        }
        elapsed = seconds_since(start);
        if (elapsed < best_many) best_many = elapsed;
        if (checksum_many != checksum) { std::fprintf(stderr, "checksums differ\n"); return 1; }
    }
    std::printf("simdjson %s (%s kernel), iterate per line: %zu lines, best of %d: %.3f s, %.0f lines/s, %.1f MB/s (checksum %zu, errors %zu)\n",
                SIMDJSON_STRINGIFY(SIMDJSON_VERSION), SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION), lines, passes, best_lines, lines / best_lines, size / best_lines / 1e6, checksum, errors);
    std::printf("simdjson %s, iterate_many:     %zu docs,  best of %d: %.3f s, %.0f lines/s, %.1f MB/s\n",
                SIMDJSON_STRINGIFY(SIMDJSON_VERSION), docs, passes, best_many, docs / best_many, size / best_many / 1e6);
    return 0;
}
