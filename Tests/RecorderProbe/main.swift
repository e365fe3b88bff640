import Atomics
import Foundation
import LifetraceFormat
import LifetraceRecorder
import LifetraceZstd

#if canImport(Glibc)
import Glibc
#endif

// A process that records as fast as it reasonably can and, after every record call that
// returned, publishes how many calls returned, out of band: in a shared file mapping, which
// survives the process's SIGKILL. The crash-safety tests kill it at random points and check the
// trace against these counts.
//
// Usage: RecorderProbe COUNT-FILE THREADS [--standalone TRACE [--raw-blocks]] [--crash-after N]
// Under a supervisor (LIFETRACE_REGION set) it records into the supervisor's region; with
// --standalone it writes TRACE itself, flushing every 50 ms. With --crash-after, thread 0 writes
// through an invalid pointer (a real SIGSEGV) once it has recorded N events. With --raw-blocks the
// trace's chunks are raw zstd blocks, written without libzstd; without it, the probe gives its
// recorder the libzstd codec (which a process on Linux may link).

let arguments = CommandLine.arguments
guard arguments.count >= 3, let threads = Int(arguments[2]), threads > 0, threads <= 8 else {
    FileHandle.standardError.write(Data("usage: RecorderProbe COUNT-FILE THREADS [--standalone TRACE]\n".utf8))
    exit(2)
}
let options: RecorderOptions
// A pause after every `burst` records: fast enough to be killed mid-write, slow enough that the
// drainer keeps up even in a debug build on a loaded machine (the supervisor drains in the test
// process; a standalone recorder's writer thread competes with the probe's own threads).
let pause: UInt32
let burst: Int64
if arguments.count >= 5, arguments[3] == "--standalone" {
    var standalone = RecorderOptions(output: .file(arguments[4]), flushInterval: .milliseconds(50))
    if !arguments.contains("--raw-blocks") { standalone.codec = ZstdCodec() }
    options = standalone
    (pause, burst) = (1000, 16)
} else {
    options = RecorderOptions()
    (pause, burst) = (200, 64)
}
let crashAfter = arguments.firstIndex(of: "--crash-after").flatMap { index in
    index + 1 < arguments.count ? Int64(arguments[index + 1]) : nil
}
let recorder: Recorder
do {
    recorder = try Recorder.start(options)
} catch {
    FileHandle.standardError.write(Data("RecorderProbe: \(error)\n".utf8))
    exit(1)
}

let fd = open(arguments[1], O_RDWR | O_CREAT | O_TRUNC, 0o644)
guard fd >= 0, ftruncate(fd, 4096) == 0, let counts = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
    counts != MAP_FAILED
else {
    FileHandle.standardError.write(Data("RecorderProbe: cannot map \(arguments[1])\n".utf8))
    exit(1)
}

/// Thread `index` records signposts named `Probe<index>` with ids 1, 2, 3, ... and publishes
/// the last id whose record call returned.
@Sendable func work(_ index: Int) {
    let name = recorder.name("Probe\(index)")
    let published = UnsafeAtomic<UInt64>(
        at: (counts + index * 64).assumingMemoryBound(to: UInt64.AtomicRepresentation.self))
    var id: Int64 = 0
    while true {
        id += 1
        recorder.signpostBegin(name, id: id)
        published.store(UInt64(id), ordering: .releasing)
        if index == 0, let crashAfter, id >= crashAfter {
            // An address no mapping covers, computed at run time so that the store is not optimized out.
            UnsafeMutablePointer<Int>(bitPattern: 8 &* arguments.count)!.pointee = Int(id)
        }
        // Paced so a drainer keeps up: the test is about kills, not about a full ring.
        if id % burst == 0 { usleep(pause) }
    }
}

for index in 1..<threads {
    Thread { work(index) }.start()
}
work(0)
