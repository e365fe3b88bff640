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
///
/// Copies share their storage: the strings live in an append-only ``SymbolStorage`` and a table
/// is a reference to it plus the number of strings it sees. Copying a table (a reader handing a
/// snapshot to another thread, say) copies nothing; a copy that interns a new string while it is
/// the storage's newest view appends in place, and one that fell behind (another copy appended
/// since) first takes a private copy of its own strings. A snapshot is therefore never changed by
/// later interning, and a million names cost one table, not one per snapshot.
public struct SymbolTable: Sendable {
    @usableFromInline
    internal var storage: SymbolStorage
    /// The number of symbols, ``Symbol/none`` included.
    public private(set) var count: Int

    /// An empty table.
    public init() {
        storage = SymbolStorage()
        count = storage.count
    }

    /// The symbol for `string`, adding it if it is new. The empty string is a symbol of its own,
    /// distinct from ``Symbol/none``. Strings are told apart by their UTF-8 bytes, not by
    /// Swift's `String` equality: `cafe\u{301}` and `café` are canonically equivalent but two
    /// names, and each comes back out exactly as it went in.
    public mutating func intern(_ string: String) -> Symbol {
        if let symbol = storage.intern(string, seen: count) {
            count = Int(symbol.rawValue) >= count ? count + 1 : count
            return symbol
        }
        // Another copy appended since this one was taken: continue on a private copy.
        storage = storage.prefix(count)
        let symbol = storage.intern(string, seen: count)!
        count += 1
        return symbol
    }

    /// About how many bytes the table's storage holds (shared with its copies): what a reader
    /// of many distinct names costs, for callers that bound it (``TraceInputs`` analysing traces
    /// side by side).
    public var storedBytes: Int { storage.byteCount }

    /// The symbol for `string` if the table has it (the same bytes).
    public func lookup(_ string: String) -> Symbol? { storage.lookup(string, seen: count) }

    /// The string behind `symbol`; the empty string for ``Symbol/none``.
    @inlinable
    public subscript(symbol: Symbol) -> String {
        let index = Int(symbol.rawValue)
        precondition(index < count, "symbol out of range")
        return storage.string(at: index)
    }

    /// The string behind `symbol`, or nil for ``Symbol/none``.
    @inlinable
    public func string(_ symbol: Symbol) -> String? {
        symbol.isNone ? nil : self[symbol]
    }

    /// The known callback that `symbol` names, or nil for a custom name or ``Symbol/none``.
    @inlinable
    public func callback(_ symbol: Symbol) -> CallbackName? {
        let index = Int(symbol.rawValue)
        precondition(index < count, "symbol out of range")
        let code = storage.code(at: index)
        return code >= 2 ? CallbackName.fromSymbolCode(code) : nil
    }
}

/// A string as a key compared and hashed by its UTF-8 bytes: names are told apart by their
/// bytes, not by Swift's `String` equality (canonical equivalence), everywhere a name is kept.
public struct NameBytes: Hashable, Sendable {
    /// The string.
    public let string: String

    @inlinable
    public init(_ string: String) { self.string = string }

    @inlinable
    public static func == (lhs: NameBytes, rhs: NameBytes) -> Bool { lhs.string.utf8.elementsEqual(rhs.string.utf8) }

    @inlinable
    public func hash(into hasher: inout Hasher) {
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
