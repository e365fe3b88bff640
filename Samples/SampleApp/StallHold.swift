import Foundation
import LifetraceRecorder

/// Holds the sample app's unmarked heavy launch stall (`--unmarked-heavy-launch`) until the stack
/// samples a test reads are taken: a handshake with the stall sampler, so that what the test sees
/// does not depend on how loaded the machine is.
///
/// A stall of a fixed length gave the sampler thread of a loaded machine too few turns to sample
/// it. Held, the stall goes on past its minimum until the stall sampler, when one runs, has taken
/// during it ``extraSamples`` more than twice the samples it had taken before it, so that most
/// samples of the busy interval are in it; or, with ``releaseKey`` naming a file, until that file
/// exists (a test that kills the app inside the stall never makes it). ``hangGuard`` ends it
/// anyway: broken sampling then shows as too few samples, not as a hung app.
struct StallHold {
    /// How many more samples the stall takes than twice those the busy interval had before it.
    static let extraSamples = 20
    /// The longest a stall is held.
    static let hangGuard: Duration = .seconds(20)
    /// The environment variable naming the file whose existence releases the stall.
    static let releaseKey = "SAMPLE_APP_STALL_RELEASE"

    private let sampler: StallSampler?
    private let before: Int
    private let releasePath: String?

    /// A hold for a stall that begins now.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        sampler = StallSampler.current
        before = sampler?.sampleCount ?? 0
        releasePath = environment[Self.releaseKey]
    }

    /// Whether the stall that began at `start` is still held at `now`.
    func holds(since start: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Bool {
        guard now - start < Self.hangGuard else { return false }
        if let releasePath { return !FileManager.default.fileExists(atPath: releasePath) }
        guard let sampler else { return false }
        return sampler.sampleCount - before < 2 * before + Self.extraSamples
    }
}
