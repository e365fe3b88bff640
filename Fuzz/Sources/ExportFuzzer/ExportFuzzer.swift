import PipelineHarness

/// libFuzzer's entry point: an input as a trace file through import, the analyzer and every
/// export: Perfetto, the Trace Event Format and CTF (docs/FUZZING.md).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExports(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let path = PipelineHarness.stage(data, size) else { return 0 }
    PipelineHarness.importAndReread(path)
    PipelineHarness.exportAll(path)
    return 0
}
