import LifetraceFormat

// The libFuzzer target: `swift build -c release --sanitize=fuzzer --product LifetraceFuzz` links
// libFuzzer, which provides `main` and calls this function (see docs/FUZZING.md). Built without
// the sanitizer, the file has no top-level code and the program does nothing.

/// The libFuzzer entry point: the first byte chooses the reader, the rest is its input.
///
/// Even first bytes feed the binary trace reader, odd ones the JSONL reader. Both must return or
/// throw a `TraceError` for every input: no crash, no hang, no unbounded allocation.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if data[0] & 1 == 0 {
        readAll { () throws(TraceError) in
            var reader = try BinaryTraceReader(bytes: bytes, name: "fuzz.ltrace")
            while try reader.next() != nil {}
            _ = reader.issues
        }
    } else {
        readAll { () throws(TraceError) in
            var reader = try JSONLTraceReader(bytes: bytes, name: "fuzz.jsonl")
            while try reader.next() != nil {}
        }
    }
    return 0
}

/// Runs `body`, accepting a thrown `TraceError` as a correct answer to bad input.
private func readAll(_ body: () throws(TraceError) -> Void) {
    do {
        try body()
    } catch {
        _ = error.description
    }
}
