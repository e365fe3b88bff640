/// An interned string (a callback, signpost, mark or task name, a scene, a launch reason).
///
/// A symbol is an index into the ``SymbolTable`` of the reader or builder that made it; events
/// carry symbols so that reading and analysing them allocates nothing per event.
public struct Symbol: RawRepresentable, Hashable, Sendable, Comparable {
    /// The index in the table; 0 is ``none``.
    public var rawValue: UInt32

    /// Creates a symbol from its index.
    @inlinable
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No string: the field is absent.
    public static let none = Symbol(rawValue: 0)

    /// Whether the field is absent.
    @inlinable
    public var isNone: Bool { rawValue == 0 }

    public static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The strings behind a trace's ``Symbol``s. Each distinct string is stored once.
public struct SymbolTable: Sendable {
    @usableFromInline
    internal var strings: [String] = [""]
    @usableFromInline
    internal var index: [NameBytes: Symbol] = [:]
    // Lazily filled: the known callback behind each symbol (0 = not yet looked up, 1 = custom).
    @usableFromInline
    internal var callbacks: [UInt8] = [1]

    /// An empty table.
    public init() {}

    /// The number of symbols, ``Symbol/none`` included.
    public var count: Int { strings.count }

    /// The symbol for `string`, adding it if it is new. The empty string is a symbol of its own,
    /// distinct from ``Symbol/none``. Strings are told apart by their UTF-8 bytes, not by
    /// Swift's `String` equality: `cafe\u{301}` and `café` are canonically equivalent but two
    /// names, and each comes back out exactly as it went in.
    @inlinable
    public mutating func intern(_ string: String) -> Symbol {
        if let symbol = index[NameBytes(string)] { return symbol }
        let symbol = Symbol(rawValue: UInt32(strings.count))
        strings.append(string)
        callbacks.append(CallbackName(bytesOf: string).map { $0.symbolCode } ?? 1)
        index[NameBytes(string)] = symbol
        return symbol
    }

    /// The symbol for `string` if the table has it (the same bytes).
    @inlinable
    public func lookup(_ string: String) -> Symbol? { index[NameBytes(string)] }

    /// The string behind `symbol`; the empty string for ``Symbol/none``.
    @inlinable
    public subscript(symbol: Symbol) -> String { strings[Int(symbol.rawValue)] }

    /// The string behind `symbol`, or nil for ``Symbol/none``.
    @inlinable
    public func string(_ symbol: Symbol) -> String? {
        symbol.isNone ? nil : strings[Int(symbol.rawValue)]
    }

    /// The known callback that `symbol` names, or nil for a custom name or ``Symbol/none``.
    @inlinable
    public func callback(_ symbol: Symbol) -> CallbackName? {
        let code = callbacks[Int(symbol.rawValue)]
        return code >= 2 ? CallbackName.fromSymbolCode(code) : nil
    }
}

/// A string as a key compared and hashed by its UTF-8 bytes.
@usableFromInline
struct NameBytes: Hashable, Sendable {
    @usableFromInline
    let string: String

    @inlinable
    init(_ string: String) { self.string = string }

    @inlinable
    static func == (lhs: NameBytes, rhs: NameBytes) -> Bool { lhs.string.utf8.elementsEqual(rhs.string.utf8) }

    @inlinable
    func hash(into hasher: inout Hasher) {
        var string = self.string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension CallbackName {
    /// The callback whose name is exactly the bytes of `string` (`CallbackName(rawValue:)`
    /// compares by canonical equivalence, which would take U+212A KELVIN SIGN for `K`).
    @inlinable
    init?(bytesOf string: String) {
        guard let callback = CallbackName(rawValue: string), callback.rawValue.utf8.elementsEqual(string.utf8) else { return nil }
        self = callback
    }

    @usableFromInline
    internal static let ordered: [CallbackName] = allCases

    @usableFromInline
    internal var symbolCode: UInt8 { UInt8(CallbackName.ordered.firstIndex(of: self)! + 2) }

    @usableFromInline
    internal static func fromSymbolCode(_ code: UInt8) -> CallbackName { ordered[Int(code) - 2] }
}
