import LifetraceFormat
import LifetraceOutput

/// The one place the range of a threshold or limit is decided, for the command line and the
/// configuration file alike: longer than zero (a zero threshold would count every instant of
/// main-thread work as a stall or hang, and a zero limit fail every launch and every background
/// stay), and at most the 2^60 ns the duration grammar reads (``DurationParser``).
enum Threshold {
    /// The nanoseconds `text` stands for, when it is a valid threshold.
    static func nanoseconds(_ text: String) throws(Invalid) -> Int64 {
        let value: Int64
        do throws(DurationError) {
            value = try DurationParser.nanoseconds(text)
        } catch {
            throw Invalid(text: text, explanation: error.explanation, description: error.description)
        }
        guard value > 0 else {
            let explanation = "a threshold or limit must be longer than zero"
            throw Invalid(text: text, explanation: explanation, description: "invalid duration \"\(text)\": \(explanation)")
        }
        return value
    }

    /// Why a text is not a threshold.
    struct Invalid: Error, Sendable {
        /// The text as given.
        let text: String
        /// What is wrong, for a message that shows the text already.
        let explanation: String
        /// One line: the text and what is wrong.
        let description: String
    }
}
