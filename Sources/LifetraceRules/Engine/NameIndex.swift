import LifetraceAnalysis
import LifetraceFormat

/// The name patterns of every rule, compiled once, and which of them each name of a trace
/// matches: one index per monitor, shared by all its rules.
///
/// A name is matched once per trace and group, not once per rule: exact names are found by a hash
/// lookup on their UTF-8 bytes. Each glob is keyed by the longest literal piece a matching name
/// must hold (its start, its end or a piece between two `*`s; the first ``keyLimit`` bytes of it),
/// and one Aho-Corasick pass over the name (``PieceFinder``) finds which keys it holds: only the
/// globs whose key occurs in the name are tried, each in time linear in the name
/// (``NamePattern``); a glob without a literal byte (`*`) is always tried, and matches. So a glob
/// whose key the name does not hold costs it nothing. The answer is an interned, sorted list of
/// pattern ids, remembered per symbol.
///
/// Memory is bounded whatever the trace holds: at most ``symbolLimit`` symbols per group are
/// remembered, and the interned lists hold at most ``storageLimit`` ids together; past either
/// bound an answer is worked out again each time it is asked.
struct NameIndex {
    /// What a name is the name of: the four ``NamedKind``s, and scenes.
    enum Group: Int, CaseIterable {
        case callback, signpost, mark, backgroundTask, scene
    }

    /// The most symbols whose answers are remembered, per group.
    static let symbolLimit = 1 << 20
    /// The most pattern ids the remembered answers hold together.
    static let storageLimit = 1 << 20
    /// The most bytes of a glob's key: a prefix of a piece a name must hold is one it must hold
    /// too, and the automaton stays small whatever the globs' lengths.
    static let keyLimit = 64

    /// The bounds of this index (the limits above, smaller in tests of what lies past them).
    private let rememberedSymbols: Int
    private let rememberedIDs: Int

    private struct Glob {
        var id: Int32
        var pattern: NamePattern
    }

    /// Per group: exact names, by their bytes, to their pattern id.
    private var exact: [[[UInt8]: Int32]]
    /// Per group: the globs' keys, the globs by their key's id, and the globs without a key.
    private var keys: [PieceFinder]
    private var keyed: [[[Glob]]]
    private var unkeyed: [[Glob]]
    /// Per group: the pattern ids given so far, by the pattern's bytes.
    private var ids: [[NamePattern: Int32]]
    /// The number of patterns.
    private(set) var count: Int32 = 0
    /// How many times a glob was tried against a name (what the keys save is seen here).
    private(set) var globsTried = 0
    /// Per group, per symbol: the index of its answer in ``answers`` plus one (0: not asked yet).
    private var known: [[UInt32]]
    /// The interned answers, and where each is.
    private var answers: [PatternMatches] = [PatternMatches([])]
    private var answerIndex: [[Int32]: UInt32] = [[]: 0]
    private var stored = 0

    init(symbolLimit: Int = NameIndex.symbolLimit, storageLimit: Int = NameIndex.storageLimit) {
        rememberedSymbols = symbolLimit
        rememberedIDs = storageLimit
        let groups = Group.allCases.count
        exact = Array(repeating: [:], count: groups)
        keys = Array(repeating: PieceFinder(), count: groups)
        keyed = Array(repeating: [], count: groups)
        unkeyed = Array(repeating: [], count: groups)
        ids = Array(repeating: [:], count: groups)
        known = Array(repeating: [], count: groups)
    }

    /// The id of `pattern` among the names of `group`, added when new.
    mutating func id(_ pattern: NamePattern, in group: Group) -> Int32 {
        if let id = ids[group.rawValue][pattern] { return id }
        let id = count
        count += 1
        ids[group.rawValue][pattern] = id
        if pattern.isGlob {
            let key = pattern.requiredPiece(limit: Self.keyLimit)
            if key.isEmpty {
                unkeyed[group.rawValue].append(Glob(id: id, pattern: pattern))
            } else {
                let keyID = Int(keys[group.rawValue].insert(key))
                if keyID == keyed[group.rawValue].count { keyed[group.rawValue].append([]) }
                keyed[group.rawValue][keyID].append(Glob(id: id, pattern: pattern))
            }
        } else {
            exact[group.rawValue][Array(pattern.text.utf8)] = id
        }
        return id
    }

    /// The patterns of `group` that `symbol` matches, and the answer's number (nil when it could
    /// not be remembered).
    mutating func matches(_ symbol: Symbol, in group: Group, symbols: SymbolTable) -> (PatternMatches, answer: UInt32?) {
        let slot = Int(symbol.rawValue)
        if slot < known[group.rawValue].count, known[group.rawValue][slot] != 0 {
            let answer = known[group.rawValue][slot] - 1
            return (answers[Int(answer)], answer)
        }
        guard let text = symbols.string(symbol) else { return (answers[0], 0) }
        let bytes = Array(text.utf8)
        var found: [Int32] = []
        if let id = exact[group.rawValue][bytes] { found.append(id) }
        bytes.withUnsafeBufferPointer { buffer in
            var tried = unkeyed[group.rawValue].count
            for glob in unkeyed[group.rawValue] where glob.pattern.matches(buffer) { found.append(glob.id) }
            let keyed = self.keyed[group.rawValue]
            keys[group.rawValue].forEachKey(in: buffer) { key in
                tried += keyed[Int(key)].count
                for glob in keyed[Int(key)] where glob.pattern.matches(buffer) { found.append(glob.id) }
            }
            globsTried += tried
        }
        found.sort()
        var answer = answerIndex[found]
        if answer == nil, stored + found.count <= rememberedIDs {
            answer = UInt32(answers.count)
            answers.append(PatternMatches(found))
            answerIndex[found] = answer
            stored += found.count
        }
        guard let answer else { return (PatternMatches(found), nil) }
        if slot < rememberedSymbols {
            if slot >= known[group.rawValue].count {
                // Grown geometrically, but never past the limit.
                let size = min(rememberedSymbols, max(slot + 1, known[group.rawValue].count * 2))
                known[group.rawValue] += [UInt32](repeating: 0, count: size - known[group.rawValue].count)
            }
            known[group.rawValue][slot] = answer + 1
        }
        return (answers[Int(answer)], answer)
    }
}

/// The pattern ids a name matches, sorted.
struct PatternMatches {
    private let ids: [Int32]

    init(_ ids: [Int32]) { self.ids = ids }

    static let none = PatternMatches([])

    var isEmpty: Bool { ids.isEmpty }

    /// The ids, sorted.
    var all: [Int32] { ids }

    /// Whether pattern `id` is among them (binary search).
    func contains(_ id: Int32) -> Bool {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id
    }
}

extension NameIndex.Group {
    /// The group of the names of `kind`'s occurrences; nil for kinds without names.
    init?(_ kind: OccurrenceKind) {
        switch kind {
        case .callback, .callbackEnd: self = .callback
        case .signpost, .signpostEnd: self = .signpost
        case .mark: self = .mark
        case .bgtaskBegin, .bgtaskEnd, .bgtaskExpire: self = .backgroundTask
        case .frame, .firstFrame, .launch, .exit, .state, .stall: return nil
        }
    }

    /// The group of `kind`'s names.
    init(_ kind: NamedKind) {
        switch kind {
        case .callback: self = .callback
        case .signpost: self = .signpost
        case .mark: self = .mark
        case .backgroundTask: self = .backgroundTask
        }
    }
}
