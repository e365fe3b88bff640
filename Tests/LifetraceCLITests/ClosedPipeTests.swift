import Foundation
import LifetraceTestSupport
import Testing

/// Every command whose standard output is a pipe its reader has closed (`check DIR | head -1`)
/// stops quietly with exit status 7 (docs/CLI.md), never dies of SIGPIPE, and leaves no file
/// half made.
@Suite struct ClosedPipeTests {
    static let root = UsageMessagesTests.root

    /// How a run ended: its exit status, or the signal that killed it, and its standard error.
    struct Ending: Equatable, CustomStringConvertible {
        var status: Int32?
        var signal: Int32?
        var error: String
        var description: String { "status \(status.map(String.init) ?? "-"), signal \(signal.map(String.init) ?? "-"): \(error)" }
    }

    /// Runs `lifetrace arguments` with its standard output a pipe whose reading end is closed
    /// before it starts, with SIGPIPE's default action (as a shell gives it), whatever this
    /// process does with the signal.
    static func runIntoClosedPipe(_ arguments: [String], in directory: String? = nil) throws -> Ending {
        var pipeEnds: [Int32] = [-1, -1]
        #expect(pipe(&pipeEnds) == 0)
        close(pipeEnds[0])
        let errorPath = NSTemporaryDirectory() + "lifetrace-closed-pipe-\(UUID().uuidString)"
        defer { unlink(errorPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var nothing = sigset_t()
        sigemptyset(&nothing)
        posix_spawnattr_setsigmask(&attributes, &nothing)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let command = ["/usr/bin/env"] + (directory.map { ["-C", $0] } ?? []) + [LifetraceCommand.path] + arguments
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, environ)
        close(pipeEnds[1])
        try #require(spawned == 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        let signal = status & 0x7F
        return signal == 0 ? Ending(status: (status >> 8) & 0xFF, error: error) : Ending(signal: signal, error: error)
    }

    static let commands: [[String]] = [
        ["--version"],
        ["--help"],
        ["check", "--no-config", root + "/Samples/traces"],
        ["check", "--no-config", "--format", "json", root + "/Samples/traces"],
        ["check", "--no-config", "--format", "sarif", root + "/Samples/traces"],
        ["dump", "--format", "text", root + "/Samples/runs/cold-launch-scenes.jsonl"],
        ["dump", "--format", "jsonl", root + "/Samples/runs/cold-launch-scenes.jsonl"],
        ["info", root + "/Samples/runs/cold-launch-scenes.jsonl"],
        ["report", "--no-config", root + "/Samples/runs/cold-launch-scenes.jsonl"],
        ["replay", "--no-config", root + "/Samples/runs/cold-launch-scenes.jsonl"],
        ["export", "--no-config", "--format", "chrome-json", root + "/Samples/runs/cold-launch-scenes.jsonl", "-o", "-"],
        ["diff", "--no-config", root + "/Samples/launches/baseline", "--", root + "/Samples/launches/candidate"],
        ["synth", "--events", "2000", "--seed", "1", "--format", "jsonl", "-o", "-"],
        ["check", "--list-rules"],
        ["check", "--no-config", "--format", "github", root + "/Samples/traces"],
        ["report", "--no-config", "--format", "html", "-o", "-", root + "/Samples/runs"],
    ]

    @Test("a command writing into a closed pipe exits 7 quietly, never killed by SIGPIPE, and leaves no file behind", arguments: commands)
    func closedPipe(_ arguments: [String]) throws {
        let directory = try ScratchDirectory.make("closed-pipe")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ending = try Self.runIntoClosedPipe(arguments, in: directory)
        #expect(ending == Ending(status: 7, error: ""), "\(arguments): \(ending)")
        // Nothing staged, half written or made beside the output is left in the working directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }
}
