import LifetraceFormat

/// Resolves sampled addresses to functions, files and lines for the stall sample pass. The
/// analysis does no I/O: what reads the images' files and runs the platform's tools is given to it
/// from outside (`--symbolicate`: LifetraceRunner's `Symbolizer`), through
/// ``AnalysisOptions/symbolication``.
public protocol StackSymbolResolver: Sendable {
    /// The symbols of the addresses of `stacks` it can resolve (others get none); throws when it
    /// cannot run at all.
    func symbols(for stacks: SampledStacks) throws -> [UInt64: FrameSymbol]

    /// The symbols, with notes for the outputs on what could not be resolved (an image's file
    /// missing or rebuilt since), each said once. By default ``symbols(for:)`` and no note.
    func resolve(_ stacks: SampledStacks) throws -> (symbols: [UInt64: FrameSymbol], notes: [String])
}

extension StackSymbolResolver {
    public func resolve(_ stacks: SampledStacks) throws -> (symbols: [UInt64: FrameSymbol], notes: [String]) {
        (try symbols(for: stacks), [])
    }
}

/// The resolver an analysis symbolicates stack samples with, as ``AnalysisOptions`` holds it:
/// two are equal when they are of the same type.
public struct StackSymbolication: Sendable, Hashable {
    /// The resolver.
    public let resolver: any StackSymbolResolver

    /// Symbolication with `resolver`.
    public init(_ resolver: any StackSymbolResolver) {
        self.resolver = resolver
    }

    public static func == (lhs: StackSymbolication, rhs: StackSymbolication) -> Bool {
        ObjectIdentifier(type(of: lhs.resolver)) == ObjectIdentifier(type(of: rhs.resolver))
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type(of: resolver))) }
}
