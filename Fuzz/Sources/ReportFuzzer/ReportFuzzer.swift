import PipelineHarness

/// libFuzzer's entry point: an input as a trace file through import, the analyzer and every
/// format of `check`, `report` and `diff` (docs/FUZZING.md).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReports(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let path = PipelineHarness.stage(data, size) else { return 0 }
    PipelineHarness.importAndReread(path)
    PipelineHarness.analyzeAndRender(path)
    return 0
}
