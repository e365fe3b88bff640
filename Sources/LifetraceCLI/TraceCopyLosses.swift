import LifetraceFormat

/// What a command that copies a trace (`import`, `symbolicate`) left out of the copy, said on
/// standard error and marked in the copy (docs/CLI.md, "Copies of a trace"): the problems the
/// input's reader recovered from, and the stack samples, images and symbols past the reader's
/// limits (`SampledStacks`). A copy never loses data without a word.
struct TraceCopyLosses {
    /// The reader's problems, in the order it met them.
    let issues: [TraceError]
    /// What the reader's limits kept out, with the limits (``SampledStacks/lostRecords``).
    let lostRecords: String?

    init(issues: [TraceError], stacks: SampledStacks) {
        self.issues = issues
        lostRecords = stacks.lostRecords
    }

    /// Whether the copy misses data of its input (anything but an unclosed end, or records past
    /// a limit): it is then marked so (`End_Flags` bit 0), and `info` and `check` do not take it
    /// for whole.
    var losesData: Bool { issues.losesData || lostRecords != nil }

    /// The line naming `input` and what the limits kept out, if they kept anything out: data
    /// lost like a damaged input's (docs/CLI.md, "Damaged traces").
    func limitLine(input: String) -> String? {
        lostRecords.map { "\(input): \($0) were past the reader's limits and are not in the copy, which is marked as missing data" }
    }
}
