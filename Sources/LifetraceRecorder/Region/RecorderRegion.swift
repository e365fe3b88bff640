import Atomics
import CRecorderSignals
import LifetraceFormat

#if canImport(Glibc)
import Glibc
// The region has an `unlink()` of its own; this names the system call on either platform.
private let systemUnlink = Glibc.unlink
#elseif canImport(Darwin)
import Darwin
private let systemUnlink = Darwin.unlink
#endif

/// A mapped recorder region: the per-thread event rings and the symbol slots they refer to.
///
/// A region is created by whoever drains it (a standalone recorder maps anonymous memory; the
/// supervisor creates a file under `/dev/shm` and passes its path to the app in
/// ``RecorderRegion/environmentKey``) and attached by the recording process. Because the
/// supervisor keeps its own mapping, every record whose call returned survives a SIGKILL of the
/// app: the record's bytes and its ring's head are in shared pages, not in the dead process.
public final class RecorderRegion: @unchecked Sendable {
    /// The environment variable holding the path of the region the app must record into.
    public static let environmentKey = "LIFETRACE_REGION"

    /// The layout the region was created with.
    public let layout: RegionLayout
    /// The first byte of the mapping.
    let base: UnsafeMutableRawPointer
    /// The file backing the region, if any.
    public let path: String?
    /// The open descriptor of a sealed region (``createSealed(layout:)``), which a child process
    /// inherits to attach; nil for other regions.
    public let sharedDescriptor: Int32?

    private init(base: UnsafeMutableRawPointer, layout: RegionLayout, path: String?, sharedDescriptor: Int32? = nil) {
        self.base = base
        self.layout = layout
        self.path = path
        self.sharedDescriptor = sharedDescriptor
    }

    deinit {
        munmap(base, layout.byteCount)
        if let sharedDescriptor { close(sharedDescriptor) }
    }

    /// A new region that the process it is shared with cannot shrink, for a supervisor: on Linux
    /// a memfd sealed against shrinking and growing. The other process truncating the file (by
    /// accident or on purpose) fails with EPERM, so the supervisor's reads never fault with
    /// SIGBUS, and there is no file in any directory to leave behind. The child attaches through
    /// ``sharedDescriptor`` (inherited, then opened as `/proc/self/fd/N`). Returns nil where the
    /// system has no sealed memfd (the caller falls back to ``create(path:layout:)``).
    public static func createSealed(layout: RegionLayout) throws(RecorderError) -> RecorderRegion? {
        let size = layout.byteCount
        let fd = lifetrace_sealed_region_fd(UInt64(size))
        guard fd >= 0 else {
            if errno == ENOSYS || errno == EINVAL { return nil }
            throw RecorderError(.mapFailed, path: nil, errno: errno)
        }
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            let saved = errno
            close(fd)
            throw RecorderError(.mapFailed, path: nil, errno: saved)
        }
        let region = RecorderRegion(base: base, layout: layout, path: nil, sharedDescriptor: fd)
        region.writeHeader()
        region.setProducerPID(getpid())
        return region
    }

    /// A new region in anonymous memory, for a recorder that drains itself.
    public static func anonymous(layout: RegionLayout) throws(RecorderError) -> RecorderRegion {
        let size = layout.byteCount
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0),
            base != MAP_FAILED
        else { throw RecorderError(.mapFailed, path: nil, errno: errno) }
        let region = RecorderRegion(base: base, layout: layout, path: nil)
        region.writeHeader()
        return region
    }

    /// A new region in a new file at `path` (normally under `/dev/shm`), for a supervisor.
    ///
    /// The file appears at `path` only with its header written (it is prepared under a temporary
    /// name and linked into place), so whoever finds it, even after a kill, finds a region;
    /// creating it fails if `path` exists.
    public static func create(path: String, layout: RegionLayout) throws(RecorderError) -> RecorderRegion {
        let staging = "\(path).creating-\(getpid())"
        // A file left at the staging name by a killed process of the same id goes first; a new
        // one is then created exclusively, through no link planted there.
        _ = systemUnlink(staging)
        let fd = open(staging, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RecorderError(.openFailed, path: path, errno: errno) }
        defer {
            close(fd)
            _ = systemUnlink(staging)
        }
        let size = layout.byteCount
        guard ftruncate(fd, off_t(size)) == 0 else { throw RecorderError(.mapFailed, path: path, errno: errno) }
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            throw RecorderError(.mapFailed, path: path, errno: errno)
        }
        let region = RecorderRegion(base: base, layout: layout, path: path)
        region.writeHeader()
        region.setProducerPID(getpid())
        guard link(staging, path) == 0 else { throw RecorderError(.openFailed, path: path, errno: errno) }
        return region
    }

    /// Maps the existing region at `path`, checking its header against its limits and the file's
    /// size. Without `followingSymlinks` a symbolic link at `path` is refused rather than followed
    /// (a leftover region found in a directory is not trusted to be one).
    public static func attach(path: String, followingSymlinks: Bool = true) throws(RecorderError) -> RecorderRegion {
        let fd = open(path, O_RDWR | O_CLOEXEC | (followingSymlinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { throw RecorderError(.openFailed, path: path, errno: errno) }
        defer { close(fd) }
        // The size by seeking: `struct stat` is ambiguous between the C modules Foundation pulls in.
        let end = lseek(fd, 0, SEEK_END)
        guard end >= off_t(RegionLayout.headerSize) else {
            throw RecorderError(.badRegion, path: path, errno: 0, detail: "the file holds \(max(0, end)) bytes, less than a region's \(RegionLayout.headerSize)-byte header")
        }
        let fileSize = Int(end)
        guard let base = mmap(nil, fileSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            throw RecorderError(.mapFailed, path: path, errno: errno)
        }
        // The header is the other process's word: every field is checked against the limits a
        // layout can have, and the layout against the file's real size, before anything is built
        // from it (a layout outside its limits would trap, one past the file would fault).
        let layout: RegionLayout
        do throws(RegionLayout.HeaderProblem) {
            layout = try RegionLayout(header: UnsafeRawPointer(base), fileSize: fileSize)
        } catch {
            munmap(base, fileSize)
            throw RecorderError(.badRegion, path: path, errno: 0, detail: error.description)
        }
        return RecorderRegion(base: base, layout: layout, path: path)
    }

    /// Removes the region's file; mappings stay valid until they are released.
    public func unlink() {
        if let path { _ = systemUnlink(path) }
    }

    private func writeHeader() {
        base.storeBytes(of: RegionField.magicValue, toByteOffset: RegionField.magic, as: UInt64.self)
        base.storeBytes(of: RegionField.versionValue, toByteOffset: RegionField.version, as: UInt32.self)
        base.storeBytes(of: UInt32(layout.ringCount), toByteOffset: RegionField.ringCount, as: UInt32.self)
        base.storeBytes(of: UInt32(layout.ringCapacity), toByteOffset: RegionField.ringCapacity, as: UInt32.self)
        base.storeBytes(of: UInt32(layout.symbolCapacity), toByteOffset: RegionField.symbolCapacity, as: UInt32.self)
    }

    // MARK: Atomic fields

    /// The 64-bit atomic word at `offset` from the start of the region.
    @inline(__always)
    func atomic(at offset: Int) -> UnsafeAtomic<UInt64> {
        UnsafeAtomic(at: (base + offset).assumingMemoryBound(to: UInt64.AtomicRepresentation.self))
    }

    /// The atomic word of field `field` in the header of ring `ring`.
    @inline(__always)
    func ringAtomic(_ ring: Int, _ field: Int) -> UnsafeAtomic<UInt64> {
        atomic(at: layout.ringHeaderOffset(ring) + field)
    }

    /// Events dropped because every ring was owned by another thread.
    public var droppedWithoutRing: UInt64 {
        atomic(at: RegionField.droppedWithoutRing).load(ordering: .relaxed)
    }

    /// The process id of the last process that attached to record, or 0.
    public var producerPID: Int32 {
        Int32(truncatingIfNeeded: atomic(at: RegionField.producerPID).load(ordering: .acquiring))
    }

    func setProducerPID(_ pid: Int32) {
        atomic(at: RegionField.producerPID).store(UInt64(UInt32(bitPattern: pid)), ordering: .releasing)
    }

    // MARK: Symbols

    /// Writes `name` into a new symbol slot and returns its id (1-based), or 0 if the region's
    /// symbol slots are all used. Callers serialise calls; the slot is published with release
    /// ordering so that a drainer seeing the id in an event reads the whole name.
    func writeSymbol(_ name: String) -> UInt32 {
        let id = Int(atomic(at: RegionField.nextSymbol).loadThenWrappingIncrement(ordering: .relaxed)) + 1
        guard id <= layout.symbolCapacity else { return 0 }
        let slot = base + layout.symbolOffset(id)
        var bytes = Array(name.utf8)
        if bytes.count > RegionLayout.maxNameBytes {
            var cut = RegionLayout.maxNameBytes
            while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            bytes.removeSubrange(cut...)
        }
        bytes.withUnsafeBytes { (slot + 8).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        atomic(at: layout.symbolOffset(id)).store(UInt64(bytes.count + 1), ordering: .releasing)
        return UInt32(id)
    }

    /// The name of symbol `id`, or nil if it was never written or is not UTF-8 (a name is never
    /// repaired into another one).
    public func symbol(_ id: UInt32) -> String? {
        guard id > 0, Int(id) <= layout.symbolCapacity else { return nil }
        let committed = atomic(at: layout.symbolOffset(Int(id))).load(ordering: .acquiring)
        guard committed > 0, committed <= UInt64(RegionLayout.maxNameBytes + 1) else { return nil }
        let start = base + layout.symbolOffset(Int(id)) + 8
        let bytes = UnsafeRawBufferPointer(start: start, count: Int(committed - 1))
        return String(validUTF8: bytes)
    }
}
