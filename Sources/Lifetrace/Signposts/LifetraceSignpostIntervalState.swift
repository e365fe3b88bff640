#if canImport(os)
import os
#endif

/// An interval begun by ``LifetraceSignposter/beginInterval(_:id:)``, as `OSSignpostIntervalState`
/// is `OSSignposter`'s; end it with ``LifetraceSignposter/endInterval(_:_:)``.
public final class LifetraceSignpostIntervalState: @unchecked Sendable {
    /// The interval's id.
    public let id: LifetraceSignpostID
    #if canImport(os)
    /// The `OSSignposter` interval's state.
    public let state: OSSignpostIntervalState

    init(id: LifetraceSignpostID, state: OSSignpostIntervalState) {
        self.id = id
        self.state = state
    }
    #else
    init(id: LifetraceSignpostID) {
        self.id = id
    }
    #endif
}
