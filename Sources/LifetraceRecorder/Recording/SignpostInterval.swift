/// An interval started by ``Recorder/begin(_:id:)-(StaticString,_)``; ending it records the end.
public struct SignpostInterval: Sendable {
    // Unowned: a strong reference would cost a retain and a release per interval, and the
    // recorder outlives its intervals.
    private unowned(unsafe) let recorder: Recorder
    /// The interval's name.
    public let name: RecordedName
    /// The interval's id, if it has one.
    public let id: Int64?

    init(recorder: Recorder, name: RecordedName, id: Int64?) {
        self.recorder = recorder
        self.name = name
        self.id = id
    }

    /// Records the interval's end.
    @inline(__always)
    public func end() { recorder.signpostEnd(name, id: id) }
}
