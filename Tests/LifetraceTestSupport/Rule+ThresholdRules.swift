import LifetraceAnalysis

/// The threshold rules by name, for tests (`Rule.hang`). The sources spell them `Rule(.hang)`, so
/// that a new threshold rule is named only in the files of its recipe (CONTRIBUTING.md).
extension Rule {
    package static var launchWatchdog: Rule { Rule(.launchWatchdog) }
    package static var launchStall: Rule { Rule(.launchStall) }
    package static var backgroundTime: Rule { Rule(.backgroundTime) }
    package static var unexpectedExit: Rule { Rule(.unexpectedExit) }
    package static var hang: Rule { Rule(.hang) }
    package static var backgroundCallback: Rule { Rule(.backgroundCallback) }
}
