import Foundation
import LifetraceFormat

/// Reading typed cells of a row: times, processes, threads, text.
extension XctraceRow {
    /// The cell of column `mnemonic`, or an error naming the row when it is missing or empty.
    func required(_ mnemonic: String, file: String) throws(TraceError) -> XctraceValue {
        guard let value = cell(mnemonic) else {
            throw error(.missingField, "this \(schema.name) row has no value for column \"\(mnemonic)\"", file: file)
        }
        return value
    }

    /// A time or a duration in nanoseconds (`start-time`, `event-time`, `duration`: unsigned
    /// integers), or an error when it is not one or passes ``TraceTime/limit``.
    func nanoseconds(_ value: XctraceValue, file: String) throws(TraceError) -> Int64 {
        guard let unsigned = value.unsigned else {
            throw error(.invalidValue, "<\(value.element)> \"\(value.text)\" is not a time in nanoseconds", file: file)
        }
        guard unsigned <= UInt64(TraceTime.limit) else {
            throw error(.invalidValue, "<\(value.element)> \(unsigned) ns is past the trace clock's range (2^60 ns)", file: file)
        }
        return Int64(unsigned)
    }

    /// The process ID of a `process` value, or of a `thread` value's process; nil when the value
    /// names none (no value, no `pid`, no text). A pid that is not an integer is an error at the
    /// row, never dropped: the rows of other processes are left out by it.
    func pid(of value: XctraceValue?, file: String) throws(TraceError) -> Int64? {
        guard let value else { return nil }
        if value.element == "thread" { return try pid(of: value.child("process"), file: file) }
        let given = value.child("pid") ?? value
        let text = given.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty && given.element != "pid" { return nil }
        guard let pid = Int64(text) else {
            throw error(.invalidValue, "<\(given.element)> \"\(text)\" is not a process ID (an integer)", file: file)
        }
        return pid
    }

    /// The process name in a `process` value's `fmt`, `MyApp (123)`, without its ID.
    static func processName(of value: XctraceValue?) -> String? {
        guard var name = value?.fmt, !name.isEmpty else { return nil }
        if name.hasSuffix(")"), let open = name.lastIndex(of: "(") {
            name = String(name[..<open]).trimmingCharacters(in: .whitespaces)
        }
        return name.isEmpty ? nil : name
    }

    /// The thread of a `thread` value: the main thread when Instruments calls it so, else its
    /// `tid`; the main thread when there is no value.
    static func thread(of value: XctraceValue?) -> ThreadID {
        guard let value else { return .main }
        if value.fmt?.hasPrefix("Main Thread") == true { return .main }
        guard let tid = value.child("tid")?.unsigned, tid <= ThreadID.maxNumber else { return .main }
        return .numbered(tid)
    }

    /// The value's text, or its `fmt` when the text is empty.
    static func text(of value: XctraceValue) -> String {
        value.text.isEmpty ? (value.fmt ?? "") : value.text
    }

    /// An error at this row.
    func error(_ kind: TraceError.Kind, _ message: String, file: String) -> TraceError {
        TraceError(kind, file: file, at: .line(line, column: column), message)
    }
}
