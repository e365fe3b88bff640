/// Opens a trace of either kind, telling binary from text by the first bytes.
///
/// A binary trace starts with a zstd skippable frame (magic `0x184D2A50`...`0x184D2A5F`, little
/// endian); a text trace starts with optional whitespace and `{`; an Instruments export (what
/// `xcrun xctrace export` writes) starts with optional whitespace and `<`, and is read by the
/// ``TraceConverter`` the caller gives. Anything else, an empty input included, is
/// ``TraceError/Kind/unknownInput``.
public enum TraceFile {
    /// The kinds of trace input.
    public enum Kind: Equatable, Sendable {
        /// The compressed binary form.
        case binary
        /// The JSONL text form.
        case jsonl
        /// An XML document, as `xcrun xctrace export` writes (docs/INSTRUMENTS.md).
        case instrumentsExport
    }

    /// How many bytes are read to tell the kind; JSONL may start with this much whitespace.
    static let sniffLength = 4096

    /// Opens the trace at `path`; `-` is standard input; a binary trace's chunks are read by
    /// `codec`; an Instruments export by `converter`. The file is opened once and never again, so
    /// standard input, pipes, FIFOs and process substitution (`<(...)`) read like files.
    public static func open(
        path: String, codec: some TraceCodec, binaryOptions: BinaryTraceReader.Options = .init(),
        converter: (any TraceConverter.Type)? = nil
    ) throws(TraceError) -> AnyTraceSource {
        let handle = try FileDescriptorHandle.open(path: path)
        let prefix = try readPrefix(handle, name: path)
        switch kind(of: prefix) {
        case .jsonl?:
            return AnyTraceSource(try JSONLTraceReader(handle: handle, name: path, prefix: prefix))
        case .binary?:
            // A regular file is opened afresh by the binary reader; anything else goes on after the prefix.
            if path == "-" || !handle.isRegularFile {
                return AnyTraceSource(try BinaryTraceReader(input: TraceInput(handle: handle, after: prefix, name: path), codec: codec, options: binaryOptions))
            }
            return AnyTraceSource(try BinaryTraceReader(path: path, codec: codec, options: binaryOptions))
        case .instrumentsExport?:
            guard let converter else {
                throw TraceError(.unknownInput, file: path, at: .line(1, column: 1), "an XML document: this reader does not read Instruments exports")
            }
            return AnyTraceSource(try converter.convert([TraceConverterInput(name: path, prefix: prefix, handle: handle)]))
        case nil:
            throw unknown(prefix, path: path)
        }
    }

    /// Opens the inputs at `paths` as one trace: one path as ``open(path:codec:binaryOptions:converter:)``
    /// does; several only when each is an input `converter` reads (the tables of one Instruments
    /// recording, each exported on its own), read together in order.
    public static func open(
        paths: [String], codec: some TraceCodec, binaryOptions: BinaryTraceReader.Options = .init(),
        converter: any TraceConverter.Type
    ) throws(TraceError) -> AnyTraceSource {
        if paths.count == 1 { return try open(path: paths[0], codec: codec, binaryOptions: binaryOptions, converter: converter) }
        var inputs: [TraceConverterInput] = []
        for path in paths {
            let handle = try FileDescriptorHandle.open(path: path)
            let prefix = try readPrefix(handle, name: path)
            guard kind(of: prefix) == .instrumentsExport else {
                throw TraceError(
                    .unknownInput, file: path, "not an Instruments export: only the XML tables of one recording are read together")
            }
            inputs.append(TraceConverterInput(name: path, prefix: prefix, handle: handle))
        }
        return AnyTraceSource(try converter.convert(inputs))
    }

    /// The kind of trace that starts with `prefix`, or nil when it is neither.
    public static func kind(of prefix: some Collection<UInt8>) -> Kind? {
        let bytes = Array(prefix.prefix(4))
        if bytes.count == 4 && bytes[0] & 0xF0 == 0x50 && bytes[1] == 0x2A && bytes[2] == 0x4D && bytes[3] == 0x18 {
            return .binary
        }
        // A UTF-8 byte order mark may start an XML document.
        let unmarked = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? prefix.dropFirst(3) : prefix.dropFirst(0)
        switch unmarked.first(where: { !JSONLObject.isWhitespace($0) }) {
        case UInt8(ascii: "{"): return .jsonl
        case UInt8(ascii: "<"): return .instrumentsExport
        default: return nil
        }
    }

    private static func unknown(_ prefix: [UInt8], path: String) -> TraceError {
        if prefix.count < sniffLength && prefix.allSatisfy(JSONLObject.isWhitespace) {
            return TraceError(.unknownInput, file: path, "empty input: not a trace")
        }
        return TraceError(
            .unknownInput, file: path, at: .byte(0, chunk: nil),
            "not a trace: neither a binary trace (zstd skippable frame), JSONL (a line starting with '{') nor an Instruments export (XML)")
    }

    /// Reads up to ``sniffLength`` bytes, stopping early once the kind is clear.
    static func readPrefix(_ handle: FileDescriptorHandle, name: String) throws(TraceError) -> [UInt8] {
        var prefix: [UInt8] = []
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: sniffLength, alignment: 1)
        defer { block.deallocate() }
        while prefix.count < sniffLength {
            let want = UnsafeMutableRawBufferPointer(rebasing: block[0..<(sniffLength - prefix.count)])
            let count = try handle.read(into: want, name: name)
            if count == 0 { break }
            prefix.append(contentsOf: want[0..<count])
            if prefix.count >= 4 && prefix.contains(where: { !JSONLObject.isWhitespace($0) }) { break }
        }
        return prefix
    }
}
