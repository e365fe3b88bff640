import LifetraceFormat

/// libFuzzer's entry point: reads the input as a binary trace to the end.
///
/// Only an unusable header may throw; everything after it (a cut, a corrupt chunk) must come back
/// as issues with a byte offset, and the reader must stop.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinary(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do throws(TraceError) {
        var reader = try BinaryTraceReader(bytes: bytes, name: "fuzz.ltrace")
        var count = 0
        while try reader.next() != nil {
            count += 1
            if count > 50_000_000 { fatalError("more events than the input can hold") }
        }
        for issue in reader.issues {
            guard case .byte(let offset, _) = issue.location, offset >= 0, offset <= Int64(size) else {
                fatalError("issue without a byte offset inside the input: \(issue)")
            }
        }
    } catch {
        return 0
    }
    return 0
}
