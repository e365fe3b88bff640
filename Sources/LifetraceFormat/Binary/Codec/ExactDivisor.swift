/// Division by a fixed divisor for numbers it divides exactly, with multiplications only.
///
/// Writing a chunk divides every timestamp delta by the chunk's unit, and finding the unit tests
/// every delta for divisibility; a hardware division per event would cost more than encoding the
/// rest of the event. With `d = m << k` (`m` odd) and `inverse * m == 1` modulo 2^64, `n` is a
/// multiple of `d` exactly when its low `k` bits are zero and `(n >> k) * inverse` (wrapping) is at
/// most `UInt64.max / m`; that product is then the quotient (Granlund and Montgomery, 1994).
struct ExactDivisor {
    /// The divisor; 0 for ``onlyZero``.
    let divisor: UInt64
    private let shift: UInt64
    // The low `shift` bits, which a multiple of the divisor has clear.
    private let mask: UInt64
    private let inverse: UInt64
    private let limit: UInt64

    /// Prepares division by `divisor`, which must not be 0.
    init(_ divisor: UInt64) {
        precondition(divisor != 0)
        self.divisor = divisor
        let shift = divisor.trailingZeroBitCount
        self.shift = UInt64(shift)
        mask = (1 << shift) &- 1
        let odd = divisor >> shift
        // Newton's iteration doubles the correct low bits each step: 3, 6, 12, 24, 48, 96.
        var inverse = odd
        for _ in 0..<5 { inverse = inverse &* (2 &- odd &* inverse) }
        self.inverse = inverse
        limit = UInt64.max / odd
    }

    private init(divisor: UInt64, shift: UInt64, mask: UInt64, inverse: UInt64, limit: UInt64) {
        self.divisor = divisor
        self.shift = shift
        self.mask = mask
        self.inverse = inverse
        self.limit = limit
    }

    /// A divisor that ``divides(_:)`` only 0, as the greatest common divisor of no numbers yet
    /// would: the first nonzero number tested then fails the test. ``quotient(_:)`` is undefined.
    static let onlyZero = ExactDivisor(divisor: 0, shift: 0, mask: .max, inverse: 1, limit: .max)

    /// Whether `divisor` divides `value`.
    @inline(__always)
    func divides(_ value: UInt64) -> Bool {
        value & mask == 0 && (value &>> shift) &* inverse <= limit
    }

    /// `value / divisor`, for a `value` that ``divides(_:)`` accepts.
    @inline(__always)
    func quotient(_ value: UInt64) -> UInt64 {
        (value &>> shift) &* inverse
    }
}
