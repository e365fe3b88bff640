import Foundation
import LifetraceOutput

/// A lifetime's time in each state as the store keeps it: a JSON array of `[state, ns]` pairs,
/// in the order the analysis lists the states (the rows' `timeInStates`), so that the order
/// survives the store.
enum StateTimesText {
    /// The array's text, written straight as JSON (the text `JSONValue.rendered()` gives the same
    /// array, without building its tree: a build adds one per lifetime).
    static func encode(_ times: [(state: String, duration: Int64)]) -> String {
        var bytes: [UInt8] = []
        // A pair is about 25 bytes (`["background",12345678900]`): written without regrowing.
        bytes.reserveCapacity(2 + 32 * times.count)
        JSONOutput.write(to: &bytes) { json in
            json.array { json in
                for time in times {
                    json.separate()
                    json.array { pair in
                        pair.separate()
                        pair.value(time.state)
                        pair.separate()
                        pair.value(time.duration)
                    }
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
