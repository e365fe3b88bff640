/// A signpost's message, written as `OSSignposter`'s are: `"loaded \(count) notes"`, with
/// `privacy: .public` for values Instruments may show (the others are private, as in `os_log`).
/// It goes to Instruments only; the trace does not hold messages.
public struct LifetraceSignpostMessage: ExpressibleByStringInterpolation, Sendable {
    /// The message's text.
    public var text: String
    /// Whether every interpolated value was marked public.
    public var isPublic: Bool

    /// A message with no interpolation.
    public init(stringLiteral value: String) {
        text = value
        isPublic = true
    }

    /// A message with interpolations.
    public init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
        isPublic = stringInterpolation.isPublic
    }

    /// A value's privacy in a message.
    public enum Privacy: Sendable {
        /// Shown in Instruments and logs.
        case `public`
        /// Redacted outside a debugging session.
        case `private`
        /// As `os_log` decides: numbers public, strings and objects private.
        case auto
    }

    /// The interpolation of a message.
    public struct Interpolation: StringInterpolationProtocol, Sendable {
        var text = ""
        var isPublic = true

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity)
        }

        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// A value, private unless it is a number (as `os_log`'s `.auto`).
        public mutating func appendInterpolation<Value>(_ value: Value, privacy: Privacy = .auto) {
            text += "\(value)"
            switch privacy {
            case .public: break
            case .private: isPublic = false
            case .auto: if !(value is any Numeric) { isPublic = false }
            }
        }
    }
}
