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
    /// The app's own function the samples most often were in (innermost app frame), and in how
    /// many; nil when no sample had an app frame.
    public var blame: Count?
    /// The samples as a tree by function, for a flame graph (``FlameGraph``).
    public var flame = FlameGraph()

    /// The one-line blame: "38 of 41 stack samples in SpellingDictionary.warm (File.swift:12)".
    public var blameLine: String? {
        guard let blame else { return nil }
        return "\(blame.samples) of \(sampleCount) stack samples in \(blame.frame.description)"
    }
}

/// Gives the stack samples of a trace to the stalls the analyzer found: a pass after the
/// analysis, keyed by each stall's interval, which reads nothing but the samples.
public enum StallSamplePass {
    /// The most entries of a profile's lists.
    public static let listLimit = 5
    /// The most frames of a heaviest stack shown.
    public static let stackLimit = 16

    /// The profile of the main thread's samples in `start ... start + duration`, or nil when none
    /// was taken then. `names` names a frame (``TraceSymbolNames`` by default).
    public static func profile(
        start: Int64, duration: Int64, stacks: SampledStacks, names: (UInt64) -> FrameName
    ) -> StallProfile? {
        let end = TraceTime.advanced(start, by: duration)
        var stackCounts: [Int: Int] = [:]
        var sampleCount = 0
        for sample in stacks.samples where sample.thread == .main && sample.timestamp >= start && sample.timestamp <= end {
            stackCounts[sample.stack, default: 0] += 1
            sampleCount += 1
        }
        guard sampleCount > 0 else { return nil }
        var selfCounts: [FrameName: Int] = [:]
        var totalCounts: [FrameName: Int] = [:]
        var blameCounts: [FrameName: Int] = [:]
        // Frames are counted by function: the addresses of one function are one frame, shown at
        // the line most of its samples were at (a line of 0, compiler-made code, is not one).
        var cache: [UInt64: FrameName] = [:]
        var lines: [String: [String: Int]] = [:]
        func name(_ address: UInt64) -> FrameName {
            if let known = cache[address] { return known }
            var named = names(address)
            if let location = named.location, location.contains(":") { lines[named.function, default: [:]][location, default: 0] += 0 }
            named.location = named.location.map { $0.split(separator: ":").first.map(String.init) ?? $0 }
            cache[address] = named
            return named
        }
        func weigh(_ address: UInt64, _ count: Int) {
            let named = names(address)
            if let location = named.location, location.contains(":") { lines[named.function, default: [:]][location, default: 0] += count }
        }
        func located(_ frame: FrameName) -> FrameName {
            guard let best = lines[frame.function]?.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) else {
                return frame
            }
            var frame = frame
            frame.location = best.key
            return frame
        }
        for (stack, count) in stackCounts {
            let addresses = stacks.frames(of: stack)
            for address in addresses { weigh(address, count) }
            let frames = addresses.map(name)
            guard let innermost = frames.last else { continue }
            selfCounts[innermost, default: 0] += count
            for frame in Set(frames) { totalCounts[frame, default: 0] += count }
            if let app = frames.last(where: \.isApp) { blameCounts[app, default: 0] += count }
        }
        func top(_ counts: [FrameName: Int]) -> [StallProfile.Count] {
            counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.function < $1.key.function }
                .prefix(listLimit).map { StallProfile.Count(frame: located($0.key), samples: $0.value) }
        }
        let heaviest = stackCounts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!
        return StallProfile(
            start: start, duration: duration, sampleCount: sampleCount, hottestSelf: top(selfCounts),
            hottestTotal: top(totalCounts),
            heaviestStack: Array(stacks.frames(of: heaviest.key).reversed().prefix(stackLimit).map { located(name($0)) }),
            heaviestCount: heaviest.value, blame: top(blameCounts).first,
            flame: FlameGraph.mainThread(start: start, duration: duration, stacks: stacks, names: names))
    }

    /// Adds the blame of each stall's samples to the `launch-stall` and `hang` violations of
    /// `analysis` that report it (a violation at the stall's start), and returns the profiles.
    @discardableResult
    public static func annotate(
        _ analysis: inout TraceAnalysis, stalls: [(start: Int64, duration: Int64)], stacks: SampledStacks,
        names: (UInt64) -> FrameName
    ) -> [StallProfile] {
        guard !stacks.samples.isEmpty else { return [] }
        var profiles: [Int64: StallProfile] = [:]
        var ordered: [StallProfile] = []
        for stall in stalls where profiles[stall.start] == nil {
            guard let profile = profile(start: stall.start, duration: stall.duration, stacks: stacks, names: names) else { continue }
            profiles[stall.start] = profile
            ordered.append(profile)
        }
        for index in analysis.violations.indices {
            let rule = analysis.violations[index].rule
            guard rule == .launchStall || rule == .hang,
                let profile = profiles[analysis.violations[index].timestamp], let line = profile.blameLine
            else { continue }
            analysis.violations[index].message += " Stack samples: \(line)."
        }
        return ordered
    }
}

/// Names frames from a trace's images: `image+0xoffset`, the app's own when its image is not
/// the C library, the loader or a runtime, with symbols when some are known.
public struct TraceSymbolNames: Sendable {
    /// The images and samples named.
    public let stacks: SampledStacks
    /// Function, file and line by address, from a symbolizer (``lifetrace symbolicate``).
    public let symbols: [UInt64: FrameSymbol]

    /// Names for `stacks`, with `symbols` where known.
    public init(stacks: SampledStacks, symbols: [UInt64: FrameSymbol] = [:]) {
        self.stacks = stacks
        self.symbols = symbols
    }

    /// The name of the frame at `address`.
    public func name(_ address: UInt64) -> FrameName {
        let image = stacks.image(containing: address)
        let isApp = image.map { !Self.isSystemImage($0.path) } ?? false
        if let symbol = symbols[address] {
            return FrameName(function: symbol.function, location: symbol.location, isApp: isApp)
        }
        return FrameName(function: stacks.describe(address), isApp: isApp)
    }

    /// Whether `path` is the C library, the dynamic loader, or a language runtime shipped with
    /// the system or the toolchain (Swift's, Foundation, Dispatch): never the app's own code.
    public static func isSystemImage(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasPrefix("ld-linux") || name.hasPrefix("libc.so") || name.hasPrefix("libm.so")
            || name.hasPrefix("libpthread") || name.hasPrefix("libstdc++") || name.hasPrefix("libgcc")
            || name.hasPrefix("libswift") || name.hasPrefix("libFoundation") || name.hasPrefix("lib_Foundation")
            || name.hasPrefix("libdispatch") || name.hasPrefix("libBlocksRuntime") || name.hasPrefix("libicu")
            || name.hasPrefix("linux-vdso") || name.hasPrefix("libz.so") || name.hasPrefix("libzstd")
        {
            return true
        }
        return path.hasPrefix("/usr/lib/swift/") || path.hasPrefix("/lib/") || path.hasPrefix("/usr/lib/x86_64-linux-gnu/")
            || path.hasPrefix("/usr/lib/aarch64-linux-gnu/") || path.hasPrefix("/lib64/") || path.contains("/usr/lib/swift/linux/")
    }
}
