import LifetraceAnalysis
import LifetraceFormat

extension MetricKitPayload {
    /// Names the diagnostics' frames with `resolver` (the analysis's symbolication: `--symbols`
    /// dSYM files matched by the binary's UUID, docs/REPORTS.md "Symbols of Apple images"), and
    /// sets each diagnostic's blame. The call-stack trees become one set of stack samples: an
    /// image per binary UUID, at an address of its own, and a frame at that address plus the
    /// frame's `offsetIntoBinaryTextSegment` (the offset from the image's load address, where
    /// its `__TEXT` segment starts). A frame with no subframes is where samples landed (the
    /// instruction itself); the others are return addresses. Returns the resolver's notes.
    public mutating func symbolicate(with resolver: (any StackSymbolResolver)?) throws -> [String] {
        var stacks = SampledStacks()
        var images: [String: (index: Int, size: UInt64)] = [:]
        for diagnostic in diagnostics {
            for frame in diagnostic.frames {
                guard let uuid = frame.binaryUUID.map(Self.uuidKey), let offset = frame.offsetIntoBinaryTextSegment,
                    offset < Self.imageSpan
                else { continue }
                let known = images[uuid]
                images[uuid] = (known?.index ?? images.count, max(known?.size ?? 0, offset + 1))
            }
        }
        var names: [String: String] = [:]
        for diagnostic in diagnostics {
            for frame in diagnostic.frames { if let uuid = frame.binaryUUID.map(Self.uuidKey) { names[uuid] = names[uuid] ?? frame.binaryName } }
        }
        for (uuid, image) in images.sorted(by: { $0.value.index < $1.value.index }) {
            stacks.addImage(LoadedImage(timestamp: 0, path: names[uuid] ?? uuid, buildID: uuid, base: Self.base(image.index), size: image.size))
        }
        // Each frame's node, and its address (nil: not in an image).
        var addresses: [[UInt64?]] = []
        for diagnostic in diagnostics {
            var nodes: [Int?] = []
            var frameAddresses: [UInt64?] = []
            var hasChildren = [Bool](repeating: false, count: diagnostic.frames.count)
            for frame in diagnostic.frames where frame.parent >= 0 { hasChildren[frame.parent] = true }
            for (index, frame) in diagnostic.frames.enumerated() {
                var address: UInt64?
                if let uuid = frame.binaryUUID.map(Self.uuidKey), let image = images[uuid], let offset = frame.offsetIntoBinaryTextSegment,
                    offset < Self.imageSpan
                {
                    address = Self.base(image.index) + offset
                }
                let parentNode = frame.parent >= 0 ? nodes[frame.parent] : nil
                var node: Int?
                if let address, frame.parent < 0 || parentNode != nil {
                    node = stacks.intern([address], under: parentNode)
                }
                nodes.append(node)
                frameAddresses.append(address)
                if !hasChildren[index], let node { stacks.addSample(timestamp: 0, thread: .main, stack: node) }
            }
            addresses.append(frameAddresses)
        }
        guard let resolver, !images.isEmpty else {
            for index in diagnostics.indices { diagnostics[index].blame = Self.blame(diagnostics[index]) }
            return []
        }
        let (symbols, notes) = try resolver.resolve(stacks)
        for index in diagnostics.indices {
            for frame in diagnostics[index].frames.indices {
                if let address = addresses[index][frame] { diagnostics[index].frames[frame].symbol = symbols[address] }
            }
            diagnostics[index].blame = Self.blame(diagnostics[index])
        }
        return notes
    }

    /// Each image's addresses: 64 GiB apart, above the first, so that none overlaps another.
    private static let imageSpan: UInt64 = 1 << 36
    private static func base(_ index: Int) -> UInt64 { UInt64(index + 1) << 36 }

    /// A UUID as Mach-O files' `LC_UUID` is compared: hex digits, lower case, no dashes.
    static func uuidKey(_ text: String) -> String {
        String(text.lowercased().filter(\.isHexDigit))
    }

    /// The innermost frames of the heaviest path (from the first root of the stack the
    /// diagnostic is attributed to, the subframe with the most samples at each step), outermost
    /// first: `main > busy`, as a stall's blame reads. A frame not named is its binary and offset.
    static func blame(_ diagnostic: Diagnostic) -> String {
        let frames = diagnostic.frames
        guard !frames.isEmpty else { return "" }
        let attributed = diagnostic.stacks.firstIndex { $0 == true } ?? frames[0].stack
        var children = [[Int]](repeating: [], count: frames.count)
        for (index, frame) in frames.enumerated() where frame.parent >= 0 { children[frame.parent].append(index) }
        guard var current = frames.indices.first(where: { frames[$0].parent < 0 && frames[$0].stack == attributed }) else { return "" }
        var path = [current]
        while let next = children[current].max(by: { (frames[$0].sampleCount ?? 0) < (frames[$1].sampleCount ?? 0) }) {
            path.append(next)
            current = next
        }
        return path.suffix(blameFrames).map { index in
            let frame = frames[index]
            if let symbol = frame.symbol { return symbol.function }
            let offset = frame.offsetIntoBinaryTextSegment.map { " + \($0)" } ?? ""
            return (frame.binaryName ?? frame.binaryUUID ?? "?") + offset
        }.joined(separator: " > ")
    }

    /// How many frames of the heaviest path a blame names.
    static let blameFrames = 4
}
