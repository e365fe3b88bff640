import Foundation
import LifetraceFormat
import LifetraceRecorder
import LifetraceRunner
import LifetraceZstd
import PipelineHarness

/// libFuzzer's entry point: an input as a recorder region and the trace beside it, drained as
/// `lifetrace record` drains a live app's region, then sealed by `lifetrace recover`, and the
/// sealed trace through the analyzer and every format (docs/FUZZING.md, `RegionFuzzer`).
///
/// The input, little-endian: a flags byte (bit 0: the header's sizes as given, unchecked; bit 1:
/// no trace file; bit 2: the committed length is the trace's size), `ringCount`, `ringCapacity`
/// and `symbolCapacity` (u32 each; without bit 0 they are brought into a small valid layout), the
/// committed length (i64), the exit fact's kind (u8) , value, timestamp and the launch timestamp
/// (i64 each), the length of the region's body (u16) and the body (ring headers, slots, symbols,
/// from byte 4096 of the region), then the trace file's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegion(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(UnsafeBufferPointer(start: data, count: size))
    let flags = input.byte()
    var rings = input.u32(), capacity = input.u32(), symbols = input.u32()
    var committed = Int64(bitPattern: input.u64())
    let exitKind = UInt64(input.byte() % 4)
    let exitValue = input.u64(), exitTimestamp = input.u64(), launchTimestamp = input.u64()
    let body = input.take(Int(input.u16()))
    let trace = input.rest()

    let raw = flags & 1 != 0
    if !raw {
        rings = 1 + rings % 4
        capacity = 1 << (capacity % 7)
        symbols = 1 + symbols % 16
    }
    if flags & 4 != 0 { committed = Int64(trace.count) }
    var region = [UInt8](repeating: 0, count: 4096)
    func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { region.replaceSubrange(offset..<(offset + $0.count), with: $0) }
    }
    put(UInt64(0x314E_4752_4352_544C), at: 0)
    put(UInt32(1), at: 8)
    put(rings, at: 12)
    put(capacity, at: 16)
    put(symbols, at: 20)
    put(exitValue, at: 64)
    put(exitTimestamp, at: 72)
    put(exitKind, at: 56)
    put(launchTimestamp, at: 88)
    put(UInt64(bitPattern: committed), at: 96)
    region += body
    if !raw {
        let needed = RegionLayout(ringCount: Int(rings), ringCapacity: Int(capacity), symbolCapacity: Int(symbols)).byteCount
        if region.count > needed { region.removeLast(region.count - needed) }
        region += [UInt8](repeating: 0, count: needed - region.count)
    }

    let tracePath = RegionHarness.directory + "/t.ltrace"
    let regionPath = TraceRecovery.regionPath(forTrace: tracePath)
    RegionHarness.clear()
    guard FileManager.default.createFile(atPath: regionPath, contents: Data(region)),
        flags & 2 != 0 || FileManager.default.createFile(atPath: tracePath, contents: Data(trace))
    else { fatalError("cannot write the fuzz input to \(RegionHarness.directory)") }

    RegionHarness.drainLive(regionPath)
    RegionHarness.recoverAndCheck(tracePath)
    return 0
}

/// Reads the fields of an input, zero past its end.
struct FuzzInput {
    var bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + count)
        defer { position = end }
        return Array(bytes[position..<end])
    }

    mutating func byte() -> UInt8 { take(1).first ?? 0 }
    mutating func u16() -> UInt16 { UInt16(littleEndian: integer(2)) }
    mutating func u32() -> UInt32 { UInt32(littleEndian: integer(4)) }
    mutating func u64() -> UInt64 { UInt64(littleEndian: integer(8)) }
    mutating func rest() -> [UInt8] { take(bytes.count) }

    private mutating func integer<T: FixedWidthInteger>(_ count: Int) -> T {
        take(count).enumerated().reduce(T.zero) { $0 | T($1.element) << (8 * $1.offset) }
    }
}

enum RegionHarness {
    /// A directory of this process's own.
    static let directory: String = {
        let path = NSTemporaryDirectory() + "lifetrace-region-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func clear() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// Drains the region as `lifetrace record` drains a live app's: every event written must be
    /// one a trace can hold, and the trace written must read back whole.
    static func drainLive(_ regionPath: String) {
        guard let region = try? RecorderRegion.attach(path: regionPath, followingSymlinks: false) else { return }
        let pump = AppStreamPump(region: region, defersCommit: true, rejectsFutureTimestamps: true)
        let output = directory + "/live.ltrace"
        do throws(TraceError) {
            let writer = try TraceWriter(path: output, metadata: TraceMetadata([("recorder", "fuzz")]))
            var symbols = SymbolTable()
            let written = try pump.pump(into: writer, symbols: &symbols)
            try writer.close()
            var reader = try BinaryTraceReader(path: output)
            var count = 0
            while let event = try reader.next() {
                if case .dropped(let lost) = event.payload, lost < 0 { fatalError("a negative dropped count") }
                count += 1
            }
            guard count == written, reader.issues.isEmpty else {
                fatalError("the drained trace reads back \(count) events of \(written), issues \(reader.issues)")
            }
        } catch {
            fatalError("the drained events could not be written or read back: \(error)")
        }
        try? FileManager.default.removeItem(atPath: output)
    }

    /// Recovers as `lifetrace recover` does: a sealed trace reads back closed, with a `dataLost`
    /// issue exactly when the recovery reported a loss, and nothing is left beside it.
    static func recoverAndCheck(_ tracePath: String) {
        let outcome: TraceRecovery.Outcome
        do throws(RecoveryError) {
            outcome = try TraceRecovery.recover(tracePath: tracePath, codec: ZstdCodec())
        } catch {
            guard error.kind != .processAlive else { fatalError("a region without a process taken for a live one") }
            return
        }
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(".") }
        guard left.isEmpty else { fatalError("recover left \(left) behind") }
        guard case .sealed(_, _, _, let losses) = outcome else { return }
        do throws(TraceError) {
            var reader = try BinaryTraceReader(path: tracePath)
            while try reader.next() != nil {}
            let lost = reader.issues.contains { $0.kind == .dataLost }
            guard reader.summary.isClosed, lost == !losses.isEmpty, reader.issues.allSatisfy({ $0.kind == .dataLost }) else {
                fatalError("sealed trace: losses \(losses), closed \(reader.summary.isClosed), issues \(reader.issues)")
            }
        } catch {
            fatalError("the sealed trace does not read: \(error)")
        }
        PipelineHarness.analyzeAndRender(tracePath)
    }
}
