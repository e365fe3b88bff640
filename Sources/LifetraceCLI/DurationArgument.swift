import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// A duration given on the command line (`250ms`, `1.5s`, `2m`, `1 min 30 s`), read once, as it
/// is parsed, in the grammar scenario, rule, budget and configuration files use too
/// (``DurationParser``).
struct DurationArgument: ExpressibleByArgument, CustomStringConvertible, Sendable {
    /// The duration in nanoseconds.
    let nanoseconds: Int64
    /// The text as given, shown as the default in the help.
    let text: String

    /// The duration `text` stands for.
    init(parsing text: String) throws(DurationError) {
        nanoseconds = try DurationParser.nanoseconds(text)
        self.text = text
    }

    init?(argument: String) {
        guard let parsed = try? Self(parsing: argument) else { return nil }
        self = parsed
    }

    var defaultValueDescription: String { text }

    var description: String { text }

    /// Reads an option's value; its error names what is wrong, after the parser's own words
    /// (`The value '2x' is invalid for '--stall-threshold <stall-threshold>': it has no unit …`).
    static func parse(_ text: String) throws -> DurationArgument {
        do throws(DurationError) {
            return try DurationArgument(parsing: text)
        } catch {
            throw Invalid(description: error.explanation)
        }
    }

    /// Reads a moment, as every command prints it (`+1.500 s`, `-0.003 s`) or as a duration
    /// since the trace's first event (`1.5s`) (``TraceClock/sinceStart(parsing:)``).
    static func parseMoment(_ text: String) throws -> DurationArgument {
        do throws(DurationError) {
            return DurationArgument(nanoseconds: try TraceClock.sinceStart(parsing: text), text: text)
        } catch {
            throw Invalid(description: error.explanation)
        }
    }

    /// Reads a threshold or limit (`--stall-threshold`, `--hang-threshold`, `--launch-watchdog`,
    /// `--background-limit`, `--background-callback-limit`, and the same keys of the configuration
    /// file): a duration longer than zero, at most the 2^60 ns any duration can be
    /// (``Threshold``).
    static func parseThreshold(_ text: String) throws -> DurationArgument {
        do throws(Threshold.Invalid) {
            return DurationArgument(nanoseconds: try Threshold.nanoseconds(text), text: text)
        } catch {
            throw Invalid(description: error.explanation)
        }
    }

    private init(nanoseconds: Int64, text: String) {
        self.nanoseconds = nanoseconds
        self.text = text
    }

    /// Why a value is not a duration.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }
}
