/// The order of app versions as people count them: numbers compare as numbers, so
/// 1.2 < 1.9 < 1.10 < 2.0, and 1.10-beta < 1.10-rc by their words; a version that is a prefix
/// of another comes first (1.2 < 1.2.1). Builds without a version come last.
public enum VersionOrder {
    /// Whether `lhs` comes before `rhs`.
    public static func precedes(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, _): return false
        case (_, nil): return true
        case (let lhs?, let rhs?):
            let left = parts(lhs)
            let right = parts(rhs)
            for (a, b) in zip(left, right) where a != b {
                switch (a, b) {
                case (.number(let x), .number(let y)): return x.count != y.count ? x.count < y.count : x < y
                case (.number, .word): return true
                case (.word, .number): return false
                case (.word(let x), .word(let y)): return x < y
                }
            }
            return left.count != right.count ? left.count < right.count : lhs < rhs
        }
    }

    private enum Part: Equatable {
        /// Digits, leading zeros dropped (so that their count orders them first).
        case number(String)
        /// Anything else but the separators.
        case word(String)
    }

    /// The runs of digits and of other characters, separators (`.`, `-`, `_`, `+`, space) dropped.
    private static func parts(_ version: String) -> [Part] {
        var parts: [Part] = []
        var current = ""
        var digits = false
        func flush() {
            guard !current.isEmpty else { return }
            if digits {
                let trimmed = String(current.drop { $0 == "0" })
                parts.append(.number(trimmed))
            } else {
                parts.append(.word(current))
            }
            current = ""
        }
        for character in version {
            if ".-_+ ".contains(character) {
                flush()
                continue
            }
            let isDigit = character.isASCII && character.isNumber
            if isDigit != digits { flush() }
            digits = isDigit
            current.append(character)
        }
        flush()
        return parts
    }
}
