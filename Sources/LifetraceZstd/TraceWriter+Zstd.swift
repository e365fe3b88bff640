import LifetraceFormat

// The command-line side writes and recompresses traces with libzstd through these: the format
// module's writer takes its codec explicitly, so that code that does not link libzstd (the
// in-app recorder) names the codec it has. Reading a trace file is the inputs module's
// (`LifetraceRunner`, `TraceInputs.open(path:)`): this module is the codec alone.

extension TraceWriter {
    /// Creates (or truncates) the file at `path`, writes the header, and compresses chunks with
    /// libzstd at `options.compressionLevel`.
    public convenience init(path: String, metadata: TraceMetadata, options: Options = .init()) throws(TraceError) {
        try self.init(path: path, metadata: metadata, codec: ZstdCodec(), options: options)
    }

    /// Writes to an open file descriptor, compressing chunks with libzstd; `name` is used in errors.
    public convenience init(
        fileDescriptor: Int32, name: String, metadata: TraceMetadata, options: Options = .init()
    ) throws(TraceError) {
        try self.init(fileDescriptor: fileDescriptor, name: name, metadata: metadata, codec: ZstdCodec(), options: options)
    }
}
