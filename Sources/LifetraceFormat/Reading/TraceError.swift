/// A problem with a trace's input, and where it is.
///
/// Its ``description`` is the one line the command-line tool prints, for example
/// `run.jsonl:12:7: unknown field "nmae" for type "mark"` or
/// `run.ltrace: byte 4096 (chunk 3 of stream app): checksum mismatch`.
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Hashable, Sendable {
        /// The file could not be opened, read or written.
        case io
        /// The input is neither a binary trace, JSONL nor an Instruments export.
        case unknownInput
        /// A binary trace's magic number is wrong.
        case badMagic
        /// A binary trace's major version is newer than this reader.
        case unsupportedVersion
        /// A binary trace ends in the middle of a frame.
        case truncated
        /// A chunk's checksum, header or content is wrong.
        case corruptChunk
        /// A binary trace's chunk is compressed with libzstd and the reader has no libzstd (its
        /// codec reads raw blocks only): reading stops at that chunk.
        case needsLibzstd
        /// A declared length or size is larger than the limits allow.
        case limitExceeded
        /// A JSONL line is not valid JSON, or not an object.
        case syntax
        /// A JSONL `type` is not one of the event types.
        case unknownType
        /// A JSONL field is not known for its type.
        case unknownField
        /// A required JSONL field is missing.
        case missingField
        /// A field has a value of the wrong kind or out of range.
        case invalidValue
        /// The trace was closed by a writer that knew part of the recorded run is missing from it
        /// (a recovery that skipped damaged data: `End_Flags` bit 0 in `docs/FORMAT.md`).
        case dataLost
        /// A binary trace goes on after its end-of-trace record, which closes it: a frame of the
        /// trace's own kinds (a chunk, a second end record, a file header) or bytes that are no
        /// frame. They are not read (`docs/FORMAT.md`, "End-of-trace frame").
        case trailingData
    }

    /// Where in the input the problem is.
    public enum Location: Hashable, Sendable {
        /// Nowhere in particular (the file as a whole).
        case file
        /// A line and a column of a text input, both counted from 1.
        case line(Int, column: Int)
        /// A byte offset of a binary input, counted from 0; with the chunk when known.
        case byte(Int64, chunk: ChunkLocation?)
    }

    /// Identifies a chunk: its stream and sequence number.
    public struct ChunkLocation: Hashable, Sendable {
        /// The chunk's stream code.
        public var stream: UInt8
        /// The chunk's sequence number within its stream.
        public var sequence: UInt64
        /// Creates a chunk location.
        public init(stream: UInt8, sequence: UInt64) {
            self.stream = stream
            self.sequence = sequence
        }
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The input's path as the user named it (`-` for standard input).
    public var file: String
    /// Where in the input.
    public var location: Location
    /// What is wrong, for a person.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, file: String, at location: Location = .file, _ message: String) {
        self.kind = kind
        self.file = file
        self.location = location
        self.message = message
    }

    /// One line: file, location, message.
    public var description: String {
        if case .line = location { return "\(file):\(placedMessage)" }
        return "\(file): \(placedMessage)"
    }

    /// The line without the file: where in it, then what is wrong (`12:7: unknown field ...`,
    /// `byte 4096 (chunk 3 of stream app): checksum mismatch`), for outputs that name the file
    /// on their own.
    public var placedMessage: String {
        switch location {
        case .file:
            return message
        case .line(let line, let column):
            return "\(line):\(column): \(message)"
        case .byte(let offset, let chunk?):
            let stream = TraceStream(rawValue: chunk.stream)?.name ?? "#\(chunk.stream)"
            return "byte \(offset) (chunk \(chunk.sequence) of stream \(stream)): \(message)"
        case .byte(let offset, nil):
            return "byte \(offset): \(message)"
        }
    }
}
