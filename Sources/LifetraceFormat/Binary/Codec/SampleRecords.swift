/// The records of stack samples and loaded images (docs/FORMAT.md, "Stack samples"): `image`
/// (0x10), `stack` (0x11) and `sample` (0x12), always length-delimited so that a reader that does
/// not know them skips them as the format promises.
struct SampleSink {
    let stacks: ChunkStacks
    let slot: Int

    /// Decodes the body of an image, stack or sample record (thread already read); returns why
    /// it is corrupt, or nil. A sample waits for its timestamp (``stamp(_:)``).
    func decode(type: UInt8, thread: UInt64, body: inout ByteCursor) -> StaticString? {
        switch type {
        case EventRecord.image:
            guard let length = body.varint(), length <= UInt64(EventRecord.maxImagePathLength), length <= UInt64(body.remaining) else {
                return "an image path is longer than 4096 bytes or than its record"
            }
            guard let path = String(validUTF8: UnsafeBufferPointer(start: body.position, count: Int(length))) else {
                return "an image path is not UTF-8"
            }
            _ = body.skip(length)
            guard let idLength = body.varint(), idLength <= UInt64(EventRecord.maxBuildIDLength), idLength <= UInt64(body.remaining) else {
                return "an image build id is longer than 64 bytes or than its record"
            }
            let buildID = hexString(UnsafeBufferPointer(start: body.position, count: Int(idLength)))
            _ = body.skip(idLength)
            guard let base = body.varint(), let size = body.varint() else { return "an image record ends early" }
            guard LoadedImage.fitsAddressSpace(base: base, size: size) else { return "an image ends past the 64-bit address space" }
            stacks.pendingImage = LoadedImage(timestamp: 0, path: path, buildID: buildID, base: base, size: size)
            return nil
        case EventRecord.symbol:
            guard let address = body.varint() else { return "a symbol record ends early" }
            var strings: [String] = []
            for _ in 0..<2 {
                guard let length = body.varint(), length <= 4096, length <= UInt64(body.remaining),
                    let text = String(validUTF8: UnsafeBufferPointer(start: body.position, count: Int(length)))
                else { return "a symbol's name or file is longer than 4096 bytes, than its record, or not UTF-8" }
                _ = body.skip(length)
                strings.append(text)
            }
            guard let line = body.varint(), line <= UInt64(Int32.max) else { return "a symbol's line is out of range" }
            stacks.pending = nil
            stacks.pendingImage = nil
            stacks.collected.addSymbol(FrameSymbol(function: strings[0], file: strings[1], line: Int(line)), for: address)
            return nil
        case EventRecord.stack:
            guard let parent = body.varint(), let count = body.varint() else { return "a stack record ends early" }
            guard count >= 1, count <= UInt64(SampledStacks.maxDepth) else { return "a stack record holds no frame or more than 1024" }
            // Each frame takes a byte at least: a count the body cannot hold is refused before
            // anything is sized from it.
            guard count <= UInt64(body.remaining) else { return "a stack record holds fewer frames than it says" }
            var frames: [UInt64] = []
            frames.reserveCapacity(Int(count))
            guard var address = body.varint() else { return "a stack record ends early" }
            frames.append(address)
            for _ in 1..<count {
                guard let delta = body.signed() else { return "a stack record ends early" }
                address = address &+ UInt64(bitPattern: delta)
                frames.append(address)
            }
            stacks.pendingImage = nil
            stacks.pending = nil
            return stacks.define(slot: slot, parent: parent, frames: frames)
        default:
            guard let index = body.varint(), let stack = stacks.stack(slot: slot, index: index) else {
                return "a sample's stack is not a stack defined before it in the chunk"
            }
            stacks.pending = (ThreadID(rawValue: thread), stack)
            return nil
        }
    }

    /// Gives the record just decoded its timestamp and keeps it.
    func stamp(_ timestamp: Int64) {
        if let (thread, stack) = stacks.pending {
            stacks.collected.addSample(timestamp: timestamp, thread: thread, stack: stack)
        } else if var image = stacks.pendingImage {
            image.timestamp = timestamp
            stacks.collected.addImage(image)
        }
        stacks.pending = nil
        stacks.pendingImage = nil
    }
}

/// Lower-case hexadecimal of `bytes` (a build id as traces show it).
package func hexString(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var result: [UInt8] = []
    for byte in bytes {
        result.append(digits[Int(byte >> 4)])
        result.append(digits[Int(byte & 15)])
    }
    return String(decoding: result, as: UTF8.self)
}

/// The bytes of lower-case or upper-case hexadecimal `text`, or nil.
func hexBytes(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    func value(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        case 0x41...0x46: c - 0x41 + 10
        default: nil
        }
    }
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: utf8.count, by: 2) {
        guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
        bytes.append(high << 4 | low)
    }
    return bytes
}

/// Builds the bodies of image, stack and sample records (everything after the tag and length).
enum SampleRecordBody {
    /// An `image` record's body.
    static func image(_ image: LoadedImage) -> [UInt8] {
        var body: [UInt8] = []
        let path = Array(image.path.utf8.prefix(EventRecord.maxImagePathLength))
        Varint.append(UInt64(path.count), to: &body)
        body.append(contentsOf: path)
        let id = Array((hexBytes(image.buildID) ?? []).prefix(EventRecord.maxBuildIDLength))
        Varint.append(UInt64(id.count), to: &body)
        body.append(contentsOf: id)
        Varint.append(image.base, to: &body)
        Varint.append(LoadedImage.sizeWithinAddressSpace(base: image.base, size: image.size), to: &body)
        return body
    }

    /// A `stack` record's body: local stack `parent` (0 none) extended by `frames`, outer first.
    static func stack(parent: UInt64, frames: some Collection<UInt64>) -> [UInt8] {
        var body: [UInt8] = []
        Varint.append(parent, to: &body)
        Varint.append(UInt64(frames.count), to: &body)
        var previous: UInt64?
        for address in frames {
            if let previous {
                Varint.append(Varint.zigzag(Int64(bitPattern: address &- previous)), to: &body)
            } else {
                Varint.append(address, to: &body)
            }
            previous = address
        }
        return body
    }

    /// A `symbol` record's body.
    static func symbol(_ symbol: FrameSymbol, address: UInt64) -> [UInt8] {
        var body: [UInt8] = []
        Varint.append(address, to: &body)
        for text in [symbol.function, symbol.file] {
            let bytes = Array(text.utf8.prefix(4096))
            Varint.append(UInt64(bytes.count), to: &body)
            body.append(contentsOf: bytes)
        }
        Varint.append(UInt64(max(0, min(symbol.line, Int(Int32.max)))), to: &body)
        return body
    }

    /// A `sample` record's body (after the thread): its chunk-local stack.
    static func sample(stack: UInt64) -> [UInt8] {
        var body: [UInt8] = []
        Varint.append(stack, to: &body)
        return body
    }
}

extension TraceWriter {
    /// Writes everything `stacks` holds (its images, symbols and samples) into this trace: what a
    /// copy of a trace (a recovery, `lifetrace import`, `lifetrace symbolicate`) carries over
    /// besides the events. Each chunk defines only the frames its samples use, once each
    /// (``StackSegments``): the records grow with the samples and the frames they use, not with
    /// the samples times their depth.
    public func appendSampledStacks(_ stacks: SampledStacks) throws(TraceError) {
        for image in stacks.images { try appendImage(image) }
        let timestamp = stacks.images.first?.timestamp ?? stacks.samples.first?.timestamp ?? 0
        for (address, symbol) in stacks.symbols.sorted(by: { $0.key < $1.key }) {
            try appendSymbol(symbol, for: address, timestamp: timestamp)
        }
        guard !stacks.samples.isEmpty else { return }
        let segments = StackSegments(stacks)
        for sample in stacks.samples { try appendSample(sample, of: segments) }
    }
}
