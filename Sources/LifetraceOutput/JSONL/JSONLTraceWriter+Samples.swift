import LifetraceFormat

extension JSONLTraceWriter {
    /// Writes the images, symbols and samples of `stacks` in their canonical text form
    /// (docs/JSONL.md, "Stack samples"): the images in the order read, the symbols by address,
    /// then the samples in the order read, each distinct stack defined by a `stack` line (ids 1,
    /// 2, ... , all its frames) just before the first sample of it.
    public func appendSampledStacks(_ stacks: SampledStacks) throws(TraceError) {
        var line: [UInt8] = []
        for image in stacks.images {
            line.removeAll(keepingCapacity: true)
            Self.encode(image, into: &line)
            try output.write(line)
        }
        for (address, symbol) in stacks.symbols.sorted(by: { $0.key < $1.key }) {
            line.removeAll(keepingCapacity: true)
            Self.encode(symbol, address: address, into: &line)
            try output.write(line)
        }
        var ids: [Int: Int] = [:]
        for sample in stacks.samples {
            let id: Int
            if let known = ids[sample.stack] {
                id = known
            } else {
                id = ids.count + 1
                ids[sample.stack] = id
                line.removeAll(keepingCapacity: true)
                Self.encodeStack(id: id, frames: stacks.frames(of: sample.stack), into: &line)
                try output.write(line)
            }
            line.removeAll(keepingCapacity: true)
            Self.encode(sample, stack: id, into: &line)
            try output.write(line)
        }
    }

    /// Appends the canonical `image` line, with its line break, to `bytes`.
    static func encode(_ image: LoadedImage, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"ts":"#.utf8)
        bytes.append(contentsOf: String(image.timestamp).utf8)
        bytes.append(contentsOf: #","type":"image","path":"#.utf8)
        JSONOutput.appendString(image.path, lineSeparators: false, to: &bytes)
        if !image.buildID.isEmpty {
            bytes.append(contentsOf: #","buildId":"#.utf8)
            JSONOutput.appendString(image.buildID, lineSeparators: false, to: &bytes)
        }
        bytes.append(contentsOf: #","base":"#.utf8)
        appendAddress(image.base, to: &bytes)
        bytes.append(contentsOf: #","size":"#.utf8)
        appendAddress(image.size, to: &bytes)
        bytes.append(contentsOf: "}\n".utf8)
    }

    /// Appends the canonical `symbol` line of `address`, with its line break, to `bytes`.
    static func encode(_ symbol: FrameSymbol, address: UInt64, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"type":"symbol","address":"#.utf8)
        appendAddress(address, to: &bytes)
        bytes.append(contentsOf: #","function":"#.utf8)
        JSONOutput.appendString(symbol.function, lineSeparators: false, to: &bytes)
        if !symbol.file.isEmpty {
            bytes.append(contentsOf: #","file":"#.utf8)
            JSONOutput.appendString(symbol.file, lineSeparators: false, to: &bytes)
        }
        if symbol.line > 0 {
            bytes.append(contentsOf: #","line":"#.utf8)
            bytes.append(contentsOf: String(symbol.line).utf8)
        }
        bytes.append(contentsOf: "}\n".utf8)
    }

    /// Appends the canonical `stack` line defining stack `id` as `frames` (outermost first).
    static func encodeStack(id: Int, frames: [UInt64], into bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"type":"stack","id":"#.utf8)
        bytes.append(contentsOf: String(id).utf8)
        bytes.append(contentsOf: #","frames":["#.utf8)
        for (index, address) in frames.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendAddress(address, to: &bytes)
        }
        bytes.append(contentsOf: "]}\n".utf8)
    }

    /// Appends the canonical `sample` line of `sample`, whose stack is `stack` in the text form.
    static func encode(_ sample: StackSample, stack: Int, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"ts":"#.utf8)
        bytes.append(contentsOf: String(sample.timestamp).utf8)
        bytes.append(contentsOf: #","type":"sample""#.utf8)
        if let number = sample.thread.number {
            bytes.append(contentsOf: #","thread":"#.utf8)
            bytes.append(contentsOf: String(number).utf8)
        }
        bytes.append(contentsOf: #","stack":"#.utf8)
        bytes.append(contentsOf: String(stack).utf8)
        bytes.append(contentsOf: "}\n".utf8)
    }

    /// Appends `"0x…"`: lower-case hexadecimal without leading zeros.
    static func appendAddress(_ address: UInt64, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #""0x"#.utf8)
        bytes.append(contentsOf: String(address, radix: 16).utf8)
        bytes.append(UInt8(ascii: "\""))
    }
}
