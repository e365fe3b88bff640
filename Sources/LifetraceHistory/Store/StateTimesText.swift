import Foundation
import LifetraceReports

/// A lifetime's time in each state as the store keeps it: a JSON array of `[state, ns]` pairs,
/// in the order the analysis lists the states (the rows' `timeInStates`), so that the order
/// survives the store.
enum StateTimesText {
    /// The array's text.
    static func encode(_ times: [(state: String, duration: Int64)]) -> String {
        JSONValue.array(times.map { .array([.string($0.state), .int($0.duration)]) }).rendered()
    }

    /// The times of `text`, in its order; nil when it is not such an array.
    static func decode(_ text: String) -> [(state: String, duration: Int64)]? {
        guard let data = text.data(using: .utf8), let pairs = try? JSONSerialization.jsonObject(with: data) as? [[Any]]
        else { return nil }
        var times: [(state: String, duration: Int64)] = []
        for pair in pairs {
            guard pair.count == 2, let state = pair[0] as? String, let duration = pair[1] as? NSNumber else { return nil }
            times.append((state, duration.int64Value))
        }
        return times
    }
}
