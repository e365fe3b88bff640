import Foundation
import LifetraceFormat

/// The thread an observation is made on, as the trace names threads: the main thread is
/// ``ThreadID/main``; every other thread gets a number of its own the first time it reports
/// something, as the recorder numbers the threads that record (a thread's ring is claimed at its
/// first event). ``RecorderDestination`` lets the recorder stamp the thread itself, so these
/// numbers matter to the destinations that take the input's thread as given (the tests' traces).
enum CallingThread {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var numbered: UInt64 = 0
    private static let key = "org.lifetrace.thread-number"

    /// The calling thread.
    static var id: ThreadID {
        if Thread.isMainThread { return .main }
        let dictionary = Thread.current.threadDictionary
        if let number = dictionary[key] as? UInt64 { return .numbered(number) }
        let number = lock.withLock { numbered += 1; return numbered }
        dictionary[key] = number
        return .numbered(number)
    }
}
