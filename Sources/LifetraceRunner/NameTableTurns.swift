import Foundation
import LifetraceFormat

#if os(Linux)
/// glibc's `malloc_trim` (declared in `malloc.h`, which the Glibc module does not export).
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
#endif

/// Analyses run side by side (several traces, one per core) take turns holding a large name table.
///
/// A reader keeps every distinct name of its trace (``SymbolTable``), and a small binary trace can
/// hold a million of them: about 25 MB of table. One such trace is within the memory bound of
/// every command, but `diff` or `report` of two of them analysed at once, one per core, held two
/// tables (73 MB). So an analysis whose table grows past ``smallTableBytes`` waits, before it
/// reads on, until no other analysis holds a table past that size, and then holds the turn until
/// it ends. At most one table is large at a time: the memory of traces analysed side by side is
/// one large table plus at most ``smallTableBytes`` (and one chunk's new names) per core.
///
/// Deadlock-free: the analysis holding the turn never waits for anything (it only reads its own
/// trace), and gives the turn back when it ends, however it ends. An analysis of one trace alone
/// never takes a turn.
public final class NameTableTurns: @unchecked Sendable {
    /// The turns of this process.
    public static let shared = NameTableTurns()

    /// The size (bytes, ``SymbolTable/storedBytes``) past which an analysis side by side needs
    /// the turn: 1 MiB, about 40,000 short names. The reference workload's table holds a few
    /// dozen names, so ordinary traces never wait.
    public static let smallTableBytes = 1 << 20

    private let condition = NSCondition()
    private var held = false
    private var taken = 0

    /// A new set of turns (tests make their own; the commands use ``shared``).
    public init() {}

    /// How many turns were taken so far (how many analyses went past ``smallTableBytes``).
    public var turnsTaken: Int {
        condition.lock()
        defer { condition.unlock() }
        return taken
    }

    /// Waits until no other analysis holds the turn, then takes it.
    func take() {
        condition.lock()
        while held { condition.wait() }
        held = true
        taken += 1
        condition.unlock()
    }

    /// Gives the turn back.
    func give() {
        condition.lock()
        held = false
        condition.broadcast()
        condition.unlock()
    }
}

/// The turn of one analysis: taken once its table is large, given back when the analysis ends.
final class NameTableTurn {
    private let turns: NameTableTurns
    private var holding = false
    private var checkedCount = 0

    init(_ turns: NameTableTurns) { self.turns = turns }

    /// Takes the turn, waiting for it, when `source`'s table has grown past the small size.
    @inline(__always)
    func check<Source: TraceEventSource>(_ source: Source) {
        guard !holding, source.symbolCount != checkedCount else { return }
        checkedCount = source.symbolCount
        guard source.symbols.storedBytes > NameTableTurns.smallTableBytes else { return }
        turns.take()
        holding = true
    }

    /// Gives the turn back if it was taken, once the analysis's reader and table are freed: the
    /// heap's free memory is first handed back to the system (`malloc_trim`; glibc keeps a heap per
    /// thread, and the next large table may be built on another thread's), so that the next
    /// large table does not add to what this one left resident.
    func end() {
        guard holding else { return }
        #if os(Linux)
        _ = mallocTrim(0)
        #endif
        turns.give()
        holding = false
    }
}

/// A source whose analysis takes its turn (``NameTableTurns``) before it reads past a large table.
struct TurnTakingSource<Base: TraceEventSource>: TraceEventSource {
    var base: Base
    let turn: NameTableTurn

    var metadata: TraceMetadata { base.metadata }
    var symbols: SymbolTable { base.symbols }
    var symbolCount: Int { base.symbolCount }
    var issues: [TraceError] { base.issues }
    var sampledStacks: SampledStacks { base.sampledStacks }
    var chunkPositions: ChunkPositions? { base.chunkPositions }

    mutating func next() throws(TraceError) -> TraceEvent? {
        turn.check(base)
        return try base.next()
    }

    mutating func nextBatch(_ body: (UnsafeBufferPointer<TraceEvent>, SymbolTable) -> Void) throws(TraceError) -> Bool {
        turn.check(base)
        return try base.nextBatch(body)
    }
}
