#if canImport(Glibc)
import Glibc
// `close` and `write` are also methods of the writer; these name the system calls.
private let systemClose = Glibc.close
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemClose = Darwin.close
private let systemWrite = Darwin.write
#endif

/// Writes a binary trace (format v1, `docs/FORMAT.md`).
///
/// Events are buffered in one chunk per stream. When any stream's chunk is full, and on
/// ``flush()`` and ``close()``, the pending chunks of all streams are compressed and written
/// together as one flush group, which readers merge by timestamp. Only ``close()`` writes the
/// end-of-trace record; a file without it reads as "not closed".
///
/// All events appended to one writer must take their symbols from the same ``SymbolTable``
/// (which may grow between calls). The writer stores each chunk's content in a zstd frame made
/// by the ``TraceCodec`` it is given: ``RawBlockCodec`` without libzstd, or `ZstdCodec`
/// (`LifetraceZstd`) to compress.
public final class TraceWriter {
    /// How the writer compresses and chunks.
    public struct Options: Sendable {
        /// The zstd compression level (1...19), for a codec that compresses.
        public var compressionLevel: Int
        /// The largest raw size of a chunk, 4 KiB ... 16 MiB; larger chunks compress better and
        /// take more memory to write and read.
        public var chunkSize: Int

        /// Creates options; the defaults are level 3 and 256 KiB chunks.
        public init(compressionLevel: Int = 3, chunkSize: Int = BinaryTraceFormat.defaultChunkSize) {
            self.compressionLevel = compressionLevel
            self.chunkSize = chunkSize
        }
    }

    private let name: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    // One encoder per stream, by stream code. Raw storage rather than an array: changing an
    // array element checks that the array is uniquely referenced, on every append.
    private let encoders: UnsafeMutableBufferPointer<ChunkEncoder>
    private let compressor: any ChunkCompressor
    private var compressed: [UInt8]
    private var records: [UInt8] = []
    // The per-event state: a writer is used from one thread at a time, so the dynamic
    // exclusivity checks of class properties would only cost time on every append.
    @exclusivity(unchecked) private var order = GroupOrder()
    // The latest run of events of one stream, not yet in `order`: most events continue it, and
    // counting them here costs no array access.
    @exclusivity(unchecked) private var runStream: UInt8 = 0
    @exclusivity(unchecked) private var runLength: UInt64 = 0
    private var output: [UInt8] = []
    private var flushGroup: UInt64 = 0
    private var chunkCount: UInt64 = 0
    // The events of the chunks written so far.
    private var eventCount: UInt64 = 0
    private var isClosed = false
    // The app chunk's stacks so far, for stack records: the local index of each stack defined
    // by its frames (``appendSample(timestamp:thread:frames:)``) or by the segment of a frame
    // tree it ends (``appendSample(_:of:)``), the indexes given, and the sequence of the chunk
    // they belong to.
    private var chunkStacks: [[UInt64]: UInt64] = [:]
    private var chunkSegments: [Int: UInt64] = [:]
    private var chunkStackCount: UInt64 = 0
    private var chunkStacksSequence: UInt64 = .max

    /// Whether ``close()`` marks the trace as missing data of the recorded run (`End_Flags` bit 0,
    /// `docs/FORMAT.md`): set by a recovery that had to skip damaged data, so that every reader
    /// reports the loss instead of a trace read whole.
    public var marksDataLost = false

    /// The number of events in the chunks written so far (all of them after ``close()``).
    public var writtenEventCount: UInt64 { eventCount }

    /// Creates (or truncates) the file at `path` and writes the header; chunks are stored by `codec`.
    ///
    /// Nothing is written through a link planted at `path`: a symbolic link there is not
    /// followed (`O_NOFOLLOW`) and a regular file with other hard links is not truncated; both
    /// are refused with one line. A new file gets 0666 less the umask.
    public convenience init(
        path: String, metadata: TraceMetadata, codec: some TraceCodec, options: Options = .init()
    ) throws(TraceError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw TraceError(.io, file: path, "will not write a trace through a symbolic link; remove it or choose another path")
            }
            throw TraceError(.io, file: path, "cannot create: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let message = String(cString: strerror(errno))
            _ = systemClose(descriptor)
            throw TraceError(.io, file: path, "cannot create: \(message)")
        }
        if (info.st_mode & S_IFMT) == S_IFREG {
            guard info.st_nlink == 1 else {
                _ = systemClose(descriptor)
                throw TraceError(.io, file: path, "will not overwrite a file with \(info.st_nlink) hard links; remove it or choose another path")
            }
            guard ftruncate(descriptor, 0) == 0 else {
                let message = String(cString: strerror(errno))
                _ = systemClose(descriptor)
                throw TraceError(.io, file: path, "cannot truncate: \(message)")
            }
        }
        do {
            try self.init(descriptor: descriptor, owned: true, name: path, metadata: metadata, codec: codec, options: options)
        } catch {
            _ = systemClose(descriptor)
            throw error
        }
    }

    /// Writes to an open file descriptor, which stays open after ``close()``; chunks are stored by
    /// `codec`; `name` is used in errors.
    public convenience init(
        fileDescriptor: Int32, name: String, metadata: TraceMetadata, codec: some TraceCodec, options: Options = .init()
    ) throws(TraceError) {
        try self.init(descriptor: fileDescriptor, owned: false, name: name, metadata: metadata, codec: codec, options: options)
    }

    private init(
        descriptor: Int32, owned: Bool, name: String, metadata: TraceMetadata, codec: some TraceCodec, options: Options
    ) throws(TraceError) {
        guard (4096...BinaryTraceFormat.hardMaxChunkSize).contains(options.chunkSize) else {
            throw TraceError(.limitExceeded, file: name, "chunk size \(options.chunkSize) is outside 4096...\(BinaryTraceFormat.hardMaxChunkSize)")
        }
        guard (1...22).contains(options.compressionLevel) else {
            throw TraceError(.invalidValue, file: name, "compression level \(options.compressionLevel) is outside 1...22")
        }
        self.name = name
        self.descriptor = descriptor
        ownsDescriptor = owned
        encoders = .allocate(capacity: TraceStream.allCases.count)
        _ = encoders.initialize(from: TraceStream.allCases.map { ChunkEncoder(stream: $0, capacity: options.chunkSize) })
        do {
            compressor = try codec.makeCompressor(level: options.compressionLevel)
        } catch {
            throw TraceError(.io, file: name, "zstd: \(error)")
        }
        compressed = [UInt8](repeating: 0, count: compressor.bound(options.chunkSize))
        let header = FileHeader(maxChunkSize: UInt32(options.chunkSize), metadata: metadata)
        let encodedHeader = header.encoded()
        guard encodedHeader.count <= BinaryTraceFormat.maxHeaderSize else {
            throw TraceError(.limitExceeded, file: name, "metadata of \(encodedHeader.count) bytes exceeds the 1 MiB header limit")
        }
        try write(encodedHeader)
    }

    deinit {
        if ownsDescriptor && descriptor >= 0 { _ = systemClose(descriptor) }
        encoders.deinitialize().deallocate()
    }

    /// Adds `event`, whose symbols belong to `symbols`.
    public func append(_ event: TraceEvent, symbols: SymbolTable) throws(TraceError) {
        let stream = event.stream.rawValue
        guard case .added = encoders[Int(stream)].append(event, symbols: symbols) else {
            return try appendToNextGroup(event, symbols: symbols)
        }
        if stream == runStream { runLength &+= 1 } else { startRun(of: stream) }
    }

    /// The message of the error for an event that does not fit in a chunk; a copy of a trace
    /// gives it again at the event's place in the input (``AnyTraceSource/copyEvents(to:)``).
    public static let eventTooLarge = "an event with its strings does not fit in a chunk"

    // `append` for an event that does not fit in its stream's chunk. Kept out of `append`, which
    // would otherwise inline a second copy of the encoder's append and spill more registers.
    @inline(never)
    private func appendToNextGroup(_ event: TraceEvent, symbols: SymbolTable) throws(TraceError) {
        let stream = event.stream.rawValue
        if !encoders[Int(stream)].isEmpty {
            try flush()
            if case .added = encoders[Int(stream)].append(event, symbols: symbols) {
                startRun(of: stream)
                return
            }
        }
        try checkOpen()
        throw TraceError(.limitExceeded, file: name, Self.eventTooLarge)
    }

    /// Writes the pending chunks of all streams as one flush group.
    public func flush() throws(TraceError) {
        try checkOpen()
        guard encoders.contains(where: { !$0.isEmpty }) else { return }
        output.removeAll(keepingCapacity: true)
        endRun()
        let needsOrder = !order.isReproduced(byMerging: encoders.filter { !$0.isEmpty })
        for index in encoders.indices where !encoders[index].isEmpty {
            try appendChunk(of: index)
            eventCount += UInt64(encoders[index].eventCount)
            encoders[index].reset()
        }
        if needsOrder { output.append(contentsOf: order.encoded(flushGroup: flushGroup)) }
        order.reset()
        flushGroup += 1
        try write(output)
    }

    /// Flushes, writes the end-of-trace record and closes a file opened by path. Later calls do nothing.
    public func close() throws(TraceError) {
        if isClosed { return }
        try flush()
        let flags = marksDataLost ? TraceEnd.dataLost : 0
        try write(TraceEnd(chunkCount: chunkCount, eventCount: eventCount, flushGroupCount: flushGroup, flags: flags).encoded())
        isClosed = true
        if ownsDescriptor {
            let result = systemClose(descriptor)
            descriptor = -1
            if result != 0 { throw TraceError(.io, file: name, "cannot close: \(String(cString: strerror(errno)))") }
        }
    }

    /// Adds a stack sample of `thread` at `timestamp`: `frames` outermost first (the executing
    /// frame last), 1 ... ``SampledStacks/maxDepth`` of them; a stack already written in the
    /// chunk costs only its `sample` record (docs/FORMAT.md, "Stack samples").
    public func appendSample(timestamp: Int64, thread: ThreadID, frames: [UInt64]) throws(TraceError) {
        guard !frames.isEmpty, frames.count <= SampledStacks.maxDepth else {
            throw TraceError(.invalidValue, file: name, "a stack sample holds \(frames.count) frames, outside 1...\(SampledStacks.maxDepth)")
        }
        try checkOpen()
        for attempt in 0..<2 {
            startChunkStacks()
            var stack = chunkStacks[frames]
            if stack == nil {
                guard let defined = try appendStack(parent: 0, frames: frames, timestamp: timestamp, fresh: attempt == 1) else { continue }
                stack = defined
                chunkStacks[frames] = defined
            }
            let record = Self.sideRecord(EventRecord.sample, thread: thread, body: SampleRecordBody.sample(stack: stack!))
            if try appendSide(record, timestamp: timestamp, fresh: attempt == 1) { return }
        }
        throw TraceError(.limitExceeded, file: name, Self.eventTooLarge)
    }

    /// Adds `sample`, a stack of the tree that `segments` cuts: the chunk defines the segments of
    /// its stack that it does not hold yet, each under the one above it, so that frames shared by
    /// many stacks are written once a chunk (docs/FORMAT.md, "Stack samples").
    func appendSample(_ sample: StackSample, of segments: StackSegments) throws(TraceError) {
        try checkOpen()
        attempts: for attempt in 0..<2 {
            startChunkStacks()
            var stack = chunkSegments[sample.stack]
            if stack == nil {
                // The segments the chunk lacks, innermost first, up to one it holds (or the outermost).
                var missing: [Int] = []
                var segment = sample.stack
                while segment >= 0, chunkSegments[segment] == nil {
                    missing.append(segment)
                    segment = segments.parent(of: segment)
                }
                var parent = segment >= 0 ? chunkSegments[segment]! : 0
                for segment in missing.reversed() {
                    let frames = segments.frames(of: segment)
                    guard let defined = try appendStack(parent: parent, frames: frames, timestamp: sample.timestamp, fresh: attempt == 1) else {
                        continue attempts
                    }
                    chunkSegments[segment] = defined
                    parent = defined
                }
                stack = parent
            }
            let record = Self.sideRecord(EventRecord.sample, thread: sample.thread, body: SampleRecordBody.sample(stack: stack!))
            if try appendSide(record, timestamp: sample.timestamp, fresh: attempt == 1) { return }
        }
        throw TraceError(.limitExceeded, file: name, Self.eventTooLarge)
    }

    // Forgets the stacks of an earlier chunk when the app chunk is another one, or holds events.
    private func startChunkStacks() {
        let app = Int(TraceStream.app.rawValue)
        guard encoders[app].sequence != chunkStacksSequence || !encoders[app].holdsSideRecords else { return }
        forgetChunkStacks()
    }

    private func forgetChunkStacks() {
        chunkStacks.removeAll(keepingCapacity: true)
        chunkSegments.removeAll(keepingCapacity: true)
        chunkStackCount = 0
        chunkStacksSequence = encoders[Int(TraceStream.app.rawValue)].sequence
    }

    // Defines the chunk's next stack, local stack `parent` (0 none) extended by `frames`: its
    // local index, or nil when the chunk was full and was written (start again in the next).
    private func appendStack(parent: UInt64, frames: [UInt64], timestamp: Int64, fresh: Bool) throws(TraceError) -> UInt64? {
        let record = Self.sideRecord(EventRecord.stack, thread: .main, body: SampleRecordBody.stack(parent: parent, frames: frames))
        let sequence = encoders[Int(TraceStream.app.rawValue)].sequence
        guard try appendSide(record, timestamp: timestamp, fresh: fresh) else { return nil }
        // Adding the record may have written a chunk of events first: this one starts afresh.
        if encoders[Int(TraceStream.app.rawValue)].sequence != sequence { forgetChunkStacks() }
        chunkStackCount += 1
        return chunkStackCount
    }

    /// Adds a loaded image (docs/FORMAT.md, "Stack samples").
    public func appendImage(_ image: LoadedImage) throws(TraceError) {
        try checkOpen()
        let record = Self.sideRecord(EventRecord.image, thread: .main, body: SampleRecordBody.image(image))
        if try appendSide(record, timestamp: image.timestamp, fresh: false) { return }
        if try appendSide(record, timestamp: image.timestamp, fresh: true) { return }
        throw TraceError(.limitExceeded, file: name, Self.eventTooLarge)
    }

    /// Adds what a symbolizer said of `address` (docs/FORMAT.md, "Stack samples").
    public func appendSymbol(_ symbol: FrameSymbol, for address: UInt64, timestamp: Int64) throws(TraceError) {
        try checkOpen()
        let record = Self.sideRecord(EventRecord.symbol, thread: .main, body: SampleRecordBody.symbol(symbol, address: address))
        if try appendSide(record, timestamp: timestamp, fresh: false) { return }
        if try appendSide(record, timestamp: timestamp, fresh: true) { return }
        throw TraceError(.limitExceeded, file: name, Self.eventTooLarge)
    }

    // A delimited record of `type`: tag, body length, thread (when not main) and `body`.
    private static func sideRecord(_ type: UInt8, thread: ThreadID, body: [UInt8]) -> [UInt8] {
        var content: [UInt8] = []
        var tag = type | EventRecord.delimitedFlag
        if !thread.isMain {
            tag |= EventRecord.threadFlag
            Varint.append(thread.rawValue, to: &content)
        }
        content.append(contentsOf: body)
        var record: [UInt8] = [tag]
        Varint.append(UInt64(content.count), to: &record)
        record.append(contentsOf: content)
        return record
    }

    // Adds a side record to the app chunk, which must hold no event (the pending group is
    // flushed first if it does); false when it did not fit and the group was flushed (try again,
    // `fresh`: in an empty chunk, where not fitting is an error).
    private func appendSide(_ record: [UInt8], timestamp: Int64, fresh: Bool) throws(TraceError) -> Bool {
        let app = Int(TraceStream.app.rawValue)
        if !encoders[app].isEmpty && !encoders[app].holdsSideRecords { try flush() }
        switch encoders[app].appendSideRecord(record, timestamp: timestamp) {
        case .added:
            if TraceStream.app.rawValue == runStream { runLength &+= 1 } else { startRun(of: TraceStream.app.rawValue) }
            return true
        case .full:
            try flush()
            return false
        case .tooLarge:
            throw TraceError(.limitExceeded, file: name, Self.eventTooLarge)
        }
    }

    /// Adds a record as given to `stream`'s chunk: lets tests build files with records of types
    /// this version does not write.
    func appendRawRecord(_ record: [UInt8], delta: [UInt8], timestamp: Int64, stream: TraceStream) {
        encoders[Int(stream.rawValue)].appendRawRecord(record, delta: delta, timestamp: timestamp)
        if stream.rawValue == runStream { runLength += 1 } else { startRun(of: stream.rawValue) }
    }

    // Notes the first event of a run of `stream`'s events.
    @inline(never)
    private func startRun(of stream: UInt8) {
        endRun()
        runStream = stream
        runLength = 1
    }

    // Moves the latest run into `order`.
    private func endRun() {
        if runLength > 0 { order.record(runStream, count: runLength) }
        runLength = 0
    }

    private func appendChunk(of index: Int) throws(TraceError) {
        let unit = encoders[index].timestampUnit()
        let (rawSize, structureSize) = encoders[index].encode(into: &records)
        let encoder = encoders[index]
        let result: Result<Int, TraceCodecError> = records.withUnsafeBytes { records in
            compressed.withUnsafeMutableBytes { destination in
                Result { () throws(TraceCodecError) -> Int in
                    try compressor.compress(UnsafeRawBufferPointer(rebasing: records[0..<rawSize]), into: destination)
                }
            }
        }
        let frameSize: Int
        switch result {
        case .success(let size): frameSize = size
        case .failure(let error): throw TraceError(.io, file: name, "zstd: \(error)")
        }
        var header = ChunkHeader(
            stream: encoder.stream.rawValue, sequence: encoder.sequence, flushGroup: flushGroup,
            firstTimestamp: encoder.firstTimestamp, lastTimestamp: encoder.lastTimestamp,
            eventCount: UInt32(encoder.eventCount), rawSize: UInt32(rawSize), compressedSize: UInt32(frameSize),
            timestampUnit: unit, structureSize: UInt32(structureSize))
        var bytes = header.encoded()
        bytes.withUnsafeBytes { frame in
            compressed.withUnsafeBytes { zstd in
                header.checksum = ChunkHeader.checksum(
                    content: UnsafeRawBufferPointer(rebasing: frame[BinaryTraceFormat.frameHeaderSize...]),
                    frame: UnsafeRawBufferPointer(rebasing: zstd[0..<frameSize]))
            }
        }
        bytes.setLittleEndian(header.checksum, at: BinaryTraceFormat.frameHeaderSize)
        output.append(contentsOf: bytes)
        output.append(contentsOf: compressed[0..<frameSize])
        chunkCount += 1
    }

    private func checkOpen() throws(TraceError) {
        if isClosed { throw TraceError(.io, file: name, "the trace writer is closed") }
    }

    private func write(_ bytes: [UInt8]) throws(TraceError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 { throw TraceError(.io, file: name, "cannot write: \(String(cString: strerror(failure)))") }
    }
}
