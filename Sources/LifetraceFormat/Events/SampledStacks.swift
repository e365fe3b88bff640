/// An executable or shared library mapped into the recorded process: what a sampled address is
/// resolved against (`image` records, docs/FORMAT.md).
public struct LoadedImage: Hashable, Sendable {
    /// When the recorder saw the image loaded, nanoseconds on the trace's clock.
    public var timestamp: Int64
    /// The image's file path as the loader reported it.
    public var path: String
    /// The GNU build id (Linux) or LC_UUID (Apple) in lower-case hexadecimal; empty when unknown.
    public var buildID: String
    /// The address the image's first byte is mapped at (its load bias plus its lowest address).
    public var base: UInt64
    /// The bytes mapped from ``base``: an address in `base ..< base + size` lies in the image.
    public var size: UInt64

    /// Creates an image.
    public init(timestamp: Int64, path: String, buildID: String, base: UInt64, size: UInt64) {
        self.timestamp = timestamp
        self.path = path
        self.buildID = buildID
        self.base = base
        self.size = size
    }

    /// Whether `address` lies in the image.
    public func contains(_ address: UInt64) -> Bool { address >= base && address - base < size }

    /// Whether an image of `size` bytes at `base` ends within the 64-bit address space: `base +
    /// size` at most 2^64 (an image may end exactly at 2^64, its last byte at 2^64 - 1).
    public static func fitsAddressSpace(base: UInt64, size: UInt64) -> Bool {
        let (end, overflow) = base.addingReportingOverflow(size)
        return !overflow || end == 0
    }

    /// `size`, cut so that the image ends at 2^64 at most: what a writer records of a mapping
    /// said to reach further.
    public static func sizeWithinAddressSpace(base: UInt64, size: UInt64) -> UInt64 {
        base == 0 ? size : min(size, 0 &- base)
    }

    /// The address just past the image, `base + size`, or 2^64 - 1 when that is 2^64 (for
    /// formats whose end is a 64-bit number).
    public var clampedEnd: UInt64 {
        let (end, overflow) = base.addingReportingOverflow(size)
        return overflow ? UInt64.max : end
    }

    /// The image's file name, the last component of its path.
    public var fileName: String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

/// What a symbolizer said of an address (`symbol` records, docs/FORMAT.md): its function
/// (demangled), and its source file and line when the debug information has them.
public struct FrameSymbol: Hashable, Sendable {
    /// The function's name.
    public var function: String
    /// The source file's name (its last path component), or empty.
    public var file: String
    /// The line, or 0 when unknown.
    public var line: Int

    /// Creates a symbol.
    public init(function: String, file: String = "", line: Int = 0) {
        self.function = function
        self.file = file
        self.line = line
    }

    /// `File.swift:12`, `File.swift`, or nil without a file.
    public var location: String? {
        guard !file.isEmpty else { return nil }
        return line > 0 ? "\(file):\(line)" : file
    }
}

/// One stack of a thread, taken at an instant (`sample` records, docs/FORMAT.md).
public struct StackSample: Hashable, Sendable {
    /// When the stack was taken, nanoseconds on the trace's clock.
    public var timestamp: Int64
    /// The thread whose stack it is.
    public var thread: ThreadID
    /// The stack's index in ``SampledStacks/stacks``.
    public var stack: Int

    /// Creates a sample.
    public init(timestamp: Int64, thread: ThreadID, stack: Int) {
        self.timestamp = timestamp
        self.thread = thread
        self.stack = stack
    }
}

/// The stack samples and loaded images of a trace, beside its events: readers collect them as
/// they read.
///
/// Stacks are kept as a tree of frames (a stack is its innermost node; each node is a frame and
/// its caller's node), so a stack shared by many samples, or a prefix shared by many stacks, is
/// stored once. Memory is bounded whatever a trace claims: at most ``maxImages`` images,
/// ``maxNodes`` frame nodes, ``maxSamples`` samples; what is beyond is counted (``lostSamples``,
/// ``lostImages``), not kept. A stack is at most ``maxDepth`` frames: a deeper one is a corrupt
/// record (docs/FORMAT.md, "Stack samples").
public struct SampledStacks: Sendable {
    /// The most frames of one stack.
    public static let maxDepth = 1024
    /// The most frame nodes kept (distinct stacks and prefixes): 2^18. A node costs 16 bytes and
    /// its entry in the index about 40 more at worst, so the tree stays under 16 MiB; a stuck
    /// main thread sampled every 10 ms for an hour, at 50 frames a stack, needs far fewer, as
    /// its stacks share their outer frames.
    public static let maxNodes = 1 << 18
    /// The most samples kept: 2^18 (24 bytes each, 6 MiB), over 40 minutes of samples at 10 ms.
    public static let maxSamples = 1 << 18
    /// The most frames that a trace's stack records walk in the frame tree, a lookup each: 2^25
    /// (a few seconds at most), as the stall pass walks 2^25 frames per trace at most. A stack record
    /// seen before costs no walk (``intern(_:under:)``); one past the budget is counted in
    /// ``lostStackRecords`` and its samples in ``lostSamples``, not kept. A recording's records
    /// walk far fewer: each distinct stack once, its outer frames shared.
    public static let maxWalkedFrames = 1 << 25
    /// The most images kept.
    public static let maxImages = 4096
    /// The most bytes of symbol text (functions and files) kept: 16 MiB. Each symbol record may
    /// name 8 KiB, so the count limit alone would let a small trace claim gigabytes.
    public static let maxSymbolBytes = 16 << 20

    /// One frame of the tree: its address, its caller's node (-1: outermost) and its depth.
    public struct Node: Hashable, Sendable {
        /// The frame's address (a return address, or the interrupted instruction innermost).
        public var address: UInt64
        /// The caller's node, -1 for an outermost frame.
        public var parent: Int32
        /// The number of frames from the outermost one to this one, this one included.
        public var depth: Int32
    }

    private struct Key: Hashable {
        var parent: Int32
        var address: UInt64
    }

    /// The images, in the order their records were read.
    public private(set) var images: [LoadedImage] = []
    /// The samples, in the order their records were read.
    public private(set) var samples: [StackSample] = []
    /// The frame nodes; a sample's ``StackSample/stack`` is the index of its innermost node.
    public private(set) var nodes: [Node] = []
    /// Samples read and not kept: beyond ``maxSamples``, or of a stack beyond ``maxNodes``.
    public private(set) var lostSamples = 0
    /// Images read and not kept, beyond ``maxImages``.
    public private(set) var lostImages = 0
    /// Symbols by address (`symbol` records written by `lifetrace symbolicate`), at most
    /// ``maxNodes``.
    public private(set) var symbols: [UInt64: FrameSymbol] = [:]
    /// Symbols read and not kept, beyond ``maxNodes`` symbols or ``maxSymbolBytes`` of their text.
    public private(set) var lostSymbols = 0
    /// Stack records past ``maxWalkedFrames`` and not kept.
    public private(set) var lostStackRecords = 0
    /// The frames stack records walked in the tree so far, one lookup each (a record found whole
    /// in the cache walks none): at most ``maxWalkedFrames``.
    public private(set) var walkedFrames = 0
    private var symbolBytes = 0
    private var children: [Key: Int32] = [:]
    private var recordCache = StackRecordCache()
    /// The table of ``images``, built on the first lookup after the last image was added; a
    /// new image gives the stacks a new, empty cache (a copy taken before keeps its own). None
    /// without images: a trace without samples allocates nothing for it.
    private var imageCache: ImageTableCache?

    /// No samples, no images.
    public init() {}

    /// Whether the trace has neither samples nor images.
    public var isEmpty: Bool { samples.isEmpty && images.isEmpty && lostSamples == 0 && lostImages == 0 && lostStackRecords == 0 }

    /// The node of the stack `parent` (nil: none) extended by `frames` (outer to inner), interning
    /// what is new; nil when the node limit keeps it out, the stack would be deeper than
    /// ``maxDepth`` (check the depth first to tell the two apart), or the trace's stack records
    /// walked ``maxWalkedFrames`` frames of the tree already (the record is counted in
    /// ``lostStackRecords``).
    ///
    /// A stack record seen before (the same parent node and frames, as a trace that defines its
    /// stacks again in every chunk repeats them) is found by one hash of its frames' bytes, not
    /// walked again frame by frame (``StackRecordCache``).
    public mutating func intern(_ frames: [UInt64], under parent: Int? = nil) -> Int? {
        let key = StackRecordCache.Key(parent: Int32(parent ?? -1), frames: frames)
        let cacheable = StackRecordCache.holds(frames)
        if cacheable, let known = recordCache.node(of: key) { return Int(known) }
        guard walkedFrames + frames.count <= Self.maxWalkedFrames else {
            lostStackRecords += 1
            return nil
        }
        walkedFrames += frames.count
        let node = walk(frames, under: parent)
        if cacheable, let node { recordCache.insert(key, node: Int32(node)) }
        return node
    }

    /// ``intern(_:under:)`` frame by frame: a lookup per frame.
    private mutating func walk(_ frames: [UInt64], under parent: Int?) -> Int? {
        var current = Int32(parent ?? -1)
        var depth = parent.map { Int(nodes[$0].depth) } ?? 0
        for address in frames {
            depth += 1
            guard depth <= Self.maxDepth else { return nil }
            let key = Key(parent: current, address: address)
            if let known = children[key] {
                current = known
                continue
            }
            guard nodes.count < Self.maxNodes else { return nil }
            nodes.append(Node(address: address, parent: current, depth: Int32(depth)))
            current = Int32(nodes.count - 1)
            children[key] = current
        }
        return current < 0 ? nil : Int(current)
    }

    /// The frames of the stack whose innermost node is `stack`, outermost first.
    public func frames(of stack: Int) -> [UInt64] {
        var result: [UInt64] = []
        var node = stack
        while node >= 0 && node < nodes.count {
            result.append(nodes[node].address)
            node = Int(nodes[node].parent)
        }
        return result.reversed()
    }

    /// Adds a sample of stack `stack` (a node from ``intern(_:under:)``, or nil for a stack that
    /// was not kept: the sample is counted as lost).
    public mutating func addSample(timestamp: Int64, thread: ThreadID, stack: Int?) {
        guard let stack, stack >= 0, stack < nodes.count, samples.count < Self.maxSamples else {
            lostSamples += 1
            return
        }
        samples.append(StackSample(timestamp: timestamp, thread: thread, stack: stack))
    }

    /// Adds an image, or counts it beyond ``maxImages``.
    public mutating func addImage(_ image: LoadedImage) {
        guard images.count < Self.maxImages else {
            lostImages += 1
            return
        }
        images.append(image)
        imageCache = ImageTableCache()
    }

    /// Adds the symbol of `address`, unless ``maxNodes`` symbols or ``maxSymbolBytes`` of their
    /// text are kept already (it is then counted in ``lostSymbols``).
    public mutating func addSymbol(_ symbol: FrameSymbol, for address: UInt64) {
        let bytes = symbol.function.utf8.count + symbol.file.utf8.count
        let existing = symbols[address]
        let replaced = existing.map { $0.function.utf8.count + $0.file.utf8.count } ?? 0
        guard existing != nil || symbols.count < Self.maxNodes, symbolBytes - replaced + bytes <= Self.maxSymbolBytes else {
            lostSymbols += 1
            return
        }
        symbolBytes += bytes - replaced
        symbols[address] = symbol
    }

    /// The images as address ranges (``ImageTable``), built once after the last image was
    /// added: take it once to resolve many addresses.
    public var imageTable: ImageTable { imageCache?.table(of: images) ?? ImageTable([]) }

    /// The index in ``images`` of the image holding `address`, if any: of those that do, the
    /// last declared (docs/FORMAT.md, "Stack samples").
    public func imageIndex(containing address: UInt64) -> Int? {
        imageTable.index(containing: address)
    }

    /// The image holding `address`, if any (of those that do, the last declared).
    public func image(containing address: UInt64) -> LoadedImage? {
        imageIndex(containing: address).map { images[$0] }
    }

    /// The address as a reader shows it without symbols: `libfoo.so+0x1a2b`, or the bare
    /// address (`0x7f...`) when no image holds it.
    public func describe(_ address: UInt64) -> String {
        Self.describe(address, in: image(containing: address))
    }

    /// `address` as shown in `image` (nil: no image holds it): ``describe(_:)`` for a caller
    /// that looked the image up already.
    public static func describe(_ address: UInt64, in image: LoadedImage?) -> String {
        guard let image else { return "0x" + String(address, radix: 16) }
        return image.fileName + "+0x" + String(address - image.base, radix: 16)
    }

    /// One line saying what the limits kept out and naming the limits, or nil when nothing was:
    /// what `check` and `report` print under the trace's name, once.
    public var lossNote: String? {
        lostRecords.map { $0 + " were past the reader's limits and not kept; the stalls' stack samples count what was kept" }
    }
}

/// The ``ImageTable`` of a ``SampledStacks``' images once built, shared by its copies that have
/// the same images.
private final class ImageTableCache: Sendable {
    private let built = Locked<ImageTable?>(nil)

    func table(of images: [LoadedImage]) -> ImageTable {
        built.withLock { built in
            if let built { return built }
            let table = ImageTable(images)
            built = table
            return table
        }
    }
}

/// The stacks of the chunks being decoded: each decoder slot's chunk-local stack indexes (from
/// 1, in definition order) mapped to nodes of one ``SampledStacks``, shared by a reader's
/// decoders through this reference.
final class ChunkStacks {
    /// What the reader collected so far.
    var collected = SampledStacks()
    // Per decoder slot: the node of each local stack (-1: not kept) and its depth.
    private var local: [[(node: Int32, depth: Int32)]] = []
    /// The sample decoded and waiting for its timestamp.
    var pending: (thread: ThreadID, stack: Int?)?
    /// The image decoded and waiting for its timestamp.
    var pendingImage: LoadedImage?

    /// Starts a chunk in decoder slot `slot`.
    func reset(slot: Int) {
        while local.count <= slot { local.append([]) }
        local[slot].removeAll(keepingCapacity: true)
    }

    /// Defines the next local stack of `slot`: local stack `parent` (0 none) extended by
    /// `frames`. Returns a reason when the record is corrupt.
    func define(slot: Int, parent: UInt64, frames: [UInt64]) -> StaticString? {
        while local.count <= slot { local.append([]) }
        guard parent <= UInt64(local[slot].count) else {
            return "a stack's parent is not a stack defined before it (a cycle or a forward reference)"
        }
        let base = parent == 0 ? (node: Int32(-1), depth: Int32(0)) : local[slot][Int(parent) - 1]
        let depth = Int(base.depth) + frames.count
        guard depth <= SampledStacks.maxDepth else { return "a stack is deeper than 1024 frames" }
        var node: Int32 = -1
        if parent == 0 || base.node >= 0, let interned = collected.intern(frames, under: base.node < 0 ? nil : Int(base.node)) {
            node = Int32(interned)
        }
        local[slot].append((node, Int32(depth)))
        return nil
    }

    /// The node of local stack `index` of `slot`: nil when not defined; `.some(nil)` when
    /// defined but not kept.
    func stack(slot: Int, index: UInt64) -> Int?? {
        guard slot < local.count, index >= 1, index <= UInt64(local[slot].count) else { return nil }
        let node = local[slot][Int(index) - 1].node
        return .some(node < 0 ? nil : Int(node))
    }
}
