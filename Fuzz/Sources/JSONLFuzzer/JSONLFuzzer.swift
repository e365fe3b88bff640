import LifetraceFormat
import LifetraceOutput

/// libFuzzer's entry point: reads the input as a JSONL trace to the end or to its first error.
///
/// Every line that reads back is also written in canonical form and read again, which must give
/// the same event: the reader and the writer have to agree on whatever input the fuzzer finds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONL(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do throws(TraceError) {
        var reader = try JSONLTraceReader(bytes: bytes, name: "fuzz.jsonl")
        var count = 0
        while let event = try reader.next(), count < 10_000 {
            count += 1
            checkCanonicalLine(event, symbols: reader.symbols)
        }
    } catch {
        guard case .line(let line, let column) = error.location, line >= 1, column >= 1 else {
            fatalError("error without a line and column: \(error)")
        }
    }
    return 0
}

/// The canonical line for `event` must read back as the same event.
private func checkCanonicalLine(_ event: TraceEvent, symbols: SymbolTable) {
    let line = JSONLTraceWriter.line(for: event, symbols: symbols)
    do throws(TraceError) {
        var reader = try JSONLTraceReader(bytes: Array(line.utf8), name: "canonical.jsonl")
        guard let reread = try reader.next(), try reader.next() == nil,
            JSONLTraceWriter.line(for: reread, symbols: reader.symbols) == line
        else {
            fatalError("canonical line reads back differently: \(line)")
        }
    } catch {
        fatalError("canonical line does not read back: \(line): \(error)")
    }
}
