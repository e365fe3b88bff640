import LifetraceFormat
import LifetraceRunner
import LifetraceZstd

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
        // Stack samples: kept within the reader's bounds, every sample's stack a node it holds,
        // no stack deeper than the limit.
        let stacks = reader.sampledStacks
        guard stacks.images.count <= SampledStacks.maxImages, stacks.nodes.count <= SampledStacks.maxNodes,
            stacks.samples.count <= SampledStacks.maxSamples, stacks.symbols.count <= SampledStacks.maxNodes
        else { fatalError("stack samples past the reader's limits") }
        for sample in stacks.samples {
            guard sample.stack >= 0, sample.stack < stacks.nodes.count,
                Int(stacks.nodes[sample.stack].depth) <= SampledStacks.maxDepth
            else { fatalError("a sample of a stack the reader does not hold: \(sample)") }
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
