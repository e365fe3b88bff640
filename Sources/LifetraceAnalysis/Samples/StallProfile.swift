import LifetraceFormat

/// A frame as a report names it: its function, file and line when symbols are known, else its
/// image and offset (or bare address).
public struct FrameName: Hashable, Sendable {
    /// The function (demangled), or `image+0xoffset` / `0xaddress` without symbols.
    public var function: String
    /// The source file and line, when known.
    public var location: String?
    /// Whether the frame belongs to the app itself (not the C library, the loader or a runtime).
    public var isApp: Bool

    /// Creates a name.
    public init(function: String, location: String? = nil, isApp: Bool) {
        self.function = function
        self.location = location
        self.isApp = isApp
    }

    /// `function (file:line)`, or the function alone.
    public var description: String { location.map { "\(function) (\($0))" } ?? function }
}

/// What the stack samples of one stall say (docs/REPORTS.md, "Stack samples").
public struct StallProfile: Hashable, Sendable {
    /// A frame and the samples it was in.
    public struct Count: Hashable, Sendable {
        /// The frame.
        public var frame: FrameName
        /// The samples: innermost (self), or anywhere on the stack (total).
        public var samples: Int
    }

    /// The stall's start (ns on the trace's clock).
    public var start: Int64
    /// The stall's duration (ns).
    public var duration: Int64
    /// The main thread's samples taken during the stall.
    public var sampleCount: Int
    /// The hottest frames by self count (innermost frame of a sample), most first, at most 5.
    public var hottestSelf: [Count]
    /// The hottest frames by total count (anywhere on a sample's stack), most first, at most 5.
    public var hottestTotal: [Count]
    /// The most frequent stack, innermost frame first (at most 16 frames), and its samples.
    public var heaviestStack: [FrameName]
    /// The samples of ``heaviestStack``.
    public var heaviestCount: Int
    /// The app's own function the samples most often were in (each sample's innermost in-app
    /// frame, ``InAppImages``), and in how many; nil when no sample had an in-app frame.
    public var blame: Count?
    /// The innermost frame most of ``blame``'s samples were in, and in how many, when it is
    /// another function than the blamed one (the library code the app's function was running).
    public var blameLeaf: Count?
    /// The samples as a tree by function, for a flame graph (``FlameGraph``).
    public var flame = FlameGraph()
    /// The samples of the stall whose stacks were not walked (past
    /// ``StallSamplePass/stallFrameLimit`` frames, the rarest stacks): counted in ``sampleCount``,
    /// in no frame's count. 0 but for hostile traces.
    public var unwalkedSamples = 0

    /// The one-line blame: "19 of 36 stack samples in SearchIndex.init(notes:) (SearchIndex.swift:31),
    /// most in String.lowercased()".
    public var blameLine: String? {
        guard let blame else { return nil }
        let leaf = blameLeaf.map { ", most in \($0.frame.function)" } ?? ""
        return "\(blame.samples) of \(sampleCount) stack samples in \(blame.frame.description)" + leaf
    }

    /// What the blame adds to the message of a violation about the stall (``StallSamplePass/blames(_:)``):
    /// " Stack samples: 19 of 36 stack samples in …, most in …."; nil without an in-app frame.
    public var messageSentence: String? { blameLine.map { " Stack samples: \($0)." } }
}

/// Gives the stack samples of a trace to the stalls the analyzer found: a pass after the
/// analysis, keyed by each stall's interval, which reads nothing but the samples.
public enum StallSamplePass {
    /// The most entries of a profile's lists.
    public static let listLimit = 5
    /// The most frames of a heaviest stack shown.
    public static let stackLimit = 16

    /// The most frames walked for one stall, the most frequent stacks first: 65,536 (a stall of
    /// 60 s sampled every 10 ms, at 50 frames a stack, walks 30,000 if no two samples agree).
    public static let stallFrameLimit = 1 << 16
    /// The most samples and frames walked for all the stalls of a trace together: 2^25.
    public static let traceStepLimit = 1 << 25

    /// The profile of the main thread's samples in `start ... start + duration`, or nil when none
    /// was taken then. `names` names a frame (``TraceSymbolNames`` by default).
    public static func profile(
        start: Int64, duration: Int64, stacks: SampledStacks, names: @escaping (UInt64) -> FrameName
    ) -> StallProfile? {
        var walk = StallSampleWalk(stacks: stacks, names: names)
        return walk.profile(start: start, duration: duration)
    }

    /// The line outputs print when the pass's bounds left samples out, or nil.
    static func boundNote(stalls: Int) -> String? {
        guard stalls > 0 else { return nil }
        return "the stack samples of \(stalls) stall\(stalls == 1 ? " were" : "s were") walked only in part: the stall sample "
            + "pass walks at most \(stallFrameLimit) frames of a stall (the most frequent stacks first) and "
            + "\(traceStepLimit) samples and frames of a trace"
    }

    /// Adds the blame of each stall's samples to the `launch-stall` and `hang` violations of
    /// `analysis` that report it (a violation at the stall's start), and returns the profiles.
    @discardableResult
    public static func annotate(
        _ analysis: inout TraceAnalysis, stalls: [(start: Int64, duration: Int64)], stacks: SampledStacks,
        names: @escaping (UInt64) -> FrameName
    ) -> [StallProfile] {
        guard !stacks.samples.isEmpty else { return [] }
        var profiles: [Int64: StallProfile] = [:]
        var ordered: [StallProfile] = []
        var walk = StallSampleWalk(stacks: stacks, names: names)
        for stall in stalls where profiles[stall.start] == nil {
            guard let profile = walk.profile(start: stall.start, duration: stall.duration) else { continue }
            profiles[stall.start] = profile
            ordered.append(profile)
        }
        if let note = boundNote(stalls: walk.boundedStalls) { analysis.capped.addStackSampleNote(note) }
        for index in analysis.violations.indices { blame(&analysis.violations[index], profiles: profiles) }
        return ordered
    }

    /// Whether the stack samples' blame is added to the messages of `rule`'s violations: the
    /// rules about a stall, whose violation is at the stall's start.
    public static func blames(_ rule: Rule) -> Bool { rule == Rule(.launchStall) || rule == Rule(.hang) }

    /// Adds the blame of the stall `violation` is about (its profile in `profiles`, by the
    /// stall's start) to its message, when its rule is one ``blames(_:)``: the one place every
    /// output's messages get it (`check` through ``annotate(_:stalls:stacks:names:)``, the
    /// exports through ``HeldStallEvidence``).
    public static func blame(_ violation: inout Violation, profiles: [Int64: StallProfile]) {
        guard blames(violation.rule), let sentence = profiles[violation.timestamp]?.messageSentence else { return }
        violation.message += sentence
    }
}

/// Names frames from a trace's images: `image+0xoffset`, with symbols when some are known, and
/// whether each is the app's own code (``InAppImages``).
public struct TraceSymbolNames: Sendable {
    /// The images and samples named.
    public let stacks: SampledStacks
    /// Function, file and line by address, from a symbolizer (``lifetrace symbolicate``).
    public let symbols: [UInt64: FrameSymbol]
    /// Which images hold the app's own code.
    public let inApp: InAppImages
    /// What the resolver could not do, for the outputs' notes (``StackSymbolResolver/resolve(_:)``).
    public internal(set) var notes: [String] = []

    /// The name a symbolizer gives a frame in a linker stub (a procedure linkage table entry): a
    /// trampoline into another library, never the app's own function even in the app's image.
    public static let linkerStub = "<linker stub into another library>"

    /// The file the debug information gives code the compiler made rather than the app's source
    /// (a protocol witness, a thunk, a specialization's glue): never the app's own function, even
    /// in the app's image, so that a stall is blamed on the source that called it.
    public static let compilerGenerated = "<compiler-generated>"

    /// The images as address ranges, built once for every name.
    private let images: ImageTable
    /// Whether each image (by index) is in-app, decided once.
    private let imageInApp: [Bool]

    /// Names for `stacks`, with `symbols` where known; `inApp` decides which images are the app's.
    public init(stacks: SampledStacks, symbols: [UInt64: FrameSymbol] = [:], inApp: InAppImages = InAppImages()) {
        self.stacks = stacks
        self.symbols = symbols
        self.inApp = inApp
        images = stacks.imageTable
        imageInApp = stacks.images.map { inApp.isInApp($0.path) }
    }

    /// The image holding `address`, if any (``SampledStacks/image(containing:)``).
    public func image(containing address: UInt64) -> LoadedImage? {
        images.index(containing: address).map { stacks.images[$0] }
    }

    /// The name of the frame at `address`.
    public func name(_ address: UInt64) -> FrameName {
        let index = images.index(containing: address)
        let isApp = index.map { imageInApp[$0] } ?? false
        if let symbol = symbols[address] {
            let madeByTools = symbol.function == Self.linkerStub || symbol.file == Self.compilerGenerated
            return FrameName(function: symbol.function, location: symbol.location, isApp: isApp && !madeByTools)
        }
        return FrameName(function: SampledStacks.describe(address, in: index.map { stacks.images[$0] }), isApp: isApp)
    }

    /// Whether `path` is the system's (``InAppImages/isSystemImage(_:)``).
    public static func isSystemImage(_ path: String) -> Bool { InAppImages.isSystemImage(path) }
}
