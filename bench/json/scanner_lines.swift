// Throughput of JSONRecordScanner over a JSONL file: lines per second, best of several passes.
// Built with the library's JSON sources as one module (see bench/json/README.md):
//   swiftc -O -parse-as-library bench/json/scanner_lines.swift Sources/Formwell/JSON/*.swift -o .build/json/scanner_lines
// The per-member work mirrors simdjson_lines.cpp: the five string fields' bytes are summed in length.
#if canImport(Glibc)
import Glibc
#endif

@main
struct ScannerLines {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let file = fopen(arguments[1], "rb") else {
            print("usage: scanner_lines FILE.jsonl [PASSES]")
            exit(2)
        }
        let passes = arguments.count >= 3 ? Int(arguments[2]) ?? 5 : 5
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 1 << 16, file) }
            if count <= 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        fclose(file)

        var scanner = JSONRecordScanner()
        var best = Double.infinity
        var lines = 0
        var checksum = 0
        for _ in 0..<passes {
            lines = 0
            checksum = 0
            var start = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            try data.withUnsafeBufferPointer { buffer in
                var lineStart = 0
                var index = 0
                while index <= buffer.count {
                    if index == buffer.count || buffer[index] == UInt8(ascii: "\n") {
                        if index > lineStart {
                            try scanner.scan(UnsafeBufferPointer(rebasing: buffer[lineStart..<index])) { member in
                                if member.kind == .string { checksum &+= member.value.count }
                            }
                            lines += 1
                        }
                        lineStart = index + 1
                    }
                    index += 1
                }
            }
            var stop = timespec()
            clock_gettime(CLOCK_MONOTONIC, &stop)
            let seconds = Double(stop.tv_sec - start.tv_sec) + Double(stop.tv_nsec - start.tv_nsec) / 1e9
            best = min(best, seconds)
        }
        let rate = Double(lines) / best
        print("JSONRecordScanner: \(lines) lines, best of \(passes): \(String(format3: best)) s, \(Int(rate)) lines/s, \(String(format3: Double(data.count) / best / 1e6)) MB/s (checksum \(checksum))")
    }
}

extension String {
    init(format3 value: Double) {
        let scaled = Int((value * 1000).rounded())
        let fraction = String(scaled % 1000)
        self = "\(scaled / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
