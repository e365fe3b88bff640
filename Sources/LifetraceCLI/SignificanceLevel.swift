import Foundation

/// The one place a significance level (`diff --alpha`, the configuration file's `alpha`) is
/// read: a number between 0 and 1, both excluded; anything else, a word or a number out of
/// range, is refused with the same reason.
enum SignificanceLevel {
    /// The level `text` stands for.
    static func value(_ text: String) throws(Invalid) -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value > 0, value < 1 else { throw Invalid() }
        return value
    }

    /// Reads `--alpha`'s value (`The value 'abc' is invalid for '--alpha <alpha>': it must be …`).
    static func argument(_ text: String) throws -> Double {
        try value(text)
    }

    /// Why a text is not a significance level.
    struct Invalid: Error, CustomStringConvertible {
        var description: String { "it must be a number between 0 and 1, such as 0.05" }
    }
}
