import LifetraceFormat

/// An export's output file: a ``StagedOutputFile`` (renamed into place by ``commit()``, so a
/// failed export leaves no half-written file; devices written in place; `-` is standard output)
/// whose errors are ``ExportError``s.
///
/// Memory stays bounded by the buffer whatever the size of the export.
public final class ExportOutputFile {
    private let file: StagedOutputFile

    /// The output's path as the user named it.
    public var path: String { file.name }
    /// How many bytes were written out or are buffered.
    public var byteCount: Int64 { file.byteCount }

    /// Creates `path` through a temporary file beside it; `-` writes to standard output.
    public init(path: String) throws(ExportError) {
        do { file = try StagedOutputFile(path: path) } catch { throw ExportError(output: path, error.message) }
    }

    /// Appends bytes, writing the buffer out when it is full.
    public func write(_ bytes: [UInt8]) throws(ExportError) {
        do { try file.write(bytes) } catch { throw ExportError(output: path, error.message) }
    }

    /// Appends bytes, writing the buffer out when it is full.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(ExportError) {
        do { try file.write(bytes) } catch { throw ExportError(output: path, error.message) }
    }

    /// Appends a string's UTF-8.
    public func write(_ string: String) throws(ExportError) {
        do { try file.write(string) } catch { throw ExportError(output: path, error.message) }
    }

    /// Writes out what is buffered.
    public func flush() throws(ExportError) {
        do { try file.flush() } catch { throw ExportError(output: path, error.message) }
    }

    /// Flushes, and for a file, moves it into place under its final name.
    public func commit() throws(ExportError) {
        do { try file.commit() } catch { throw ExportError(output: path, error.message) }
    }
}
