// What simdjson 3.0.1's On-Demand API says about a bad JSONL line: the error code, and the byte offset
// that document::current_location() points at (it has no line/column or message of its own; a caller
// could count lines and columns up to that pointer). Walks each record the way simdjson_lines.cpp does.
//   g++ -O2 -march=native -std=c++17 bench/json/simdjson_errors.cpp -lsimdjson -o .build/json/simdjson_errors
#include <simdjson.h>

#include <cstdio>
#include <string>
#include <string_view>

using namespace simdjson;

int main() {
    const char *lines[] = {
        R"({"name": "Ada", "email": "ada@example.com",})",
        R"({"name": "Ada" "email": "ada@example.com"})",
        R"({"name": "Ada", "age": 012})",
        R"({"name": "Ada", "password": ["x"]})",
        "{\"name\": \"Ad\xff\"}",
        R"({"name": "\ud800"})",
        R"({"name": "Ada"} x)",
        R"({"name": "Ada", "email": "ada@example.com")",
    };
    ondemand::parser parser;
    for (const char *text : lines) {
        padded_string json(std::string_view{text});
        ondemand::document doc;
        error_code error = parser.iterate(json).get(doc);
        bool iterated = !error;  // current_location() on a document that never started crashes
        if (!error) {
            ondemand::object object;
            error = doc.get_object().get(object);
            if (!error) {
                for (auto field : object) {
                    std::string_view key, value;
                    if ((error = field.unescaped_key().get(key))) break;
                    if ((error = field.value().get_string().get(value))) break;
                }
            }
        }
        const char *where = nullptr;
        long offset = -1;
        if (iterated && !doc.current_location().get(where)) offset = where - json.data();
        std::printf("%-50s -> %s; current_location offset %ld\n", text, error ? error_message(error) : "accepted", offset);
    }
    return 0;
}
