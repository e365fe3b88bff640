import Foundation
import Testing

/// What an app links: the recorder's dependency closure, read from the package description.
struct ModuleBoundaryTests {
    /// The package's targets and the targets each depends on, from `swift package describe`.
    static func targetDependencies() throws -> [String: [String]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("describe-\(UUID().uuidString).json")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let swift = Process()
        swift.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Describing loads only the manifest. A scratch path of its own keeps it from waiting for
        // the lock that the running `swift test` holds on `.build`; nothing is written there.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        swift.arguments = [
            "swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "describe", "--type", "json",
        ]
        swift.standardOutput = try FileHandle(forWritingTo: output)
        try swift.run()
        swift.waitUntilExit()
        try #require(swift.terminationStatus == 0)
        struct Description: Decodable {
            struct Target: Decodable {
                var name: String
                var target_dependencies: [String]?
            }
            var targets: [Target]
        }
        let description = try JSONDecoder().decode(Description.self, from: Data(contentsOf: output))
        return Dictionary(uniqueKeysWithValues: description.targets.map { ($0.name, $0.target_dependencies ?? []) })
    }

    static func closure(of target: String, in dependencies: [String: [String]]) -> Set<String> {
        var seen: Set<String> = []
        var pending = [target]
        while let next = pending.popLast() {
            for dependency in dependencies[next] ?? [] where seen.insert(dependency).inserted {
                pending.append(dependency)
            }
        }
        return seen
    }

    @Test("the recorder and the format module it links have no libzstd in their dependency closure")
    func recorderLinksNoLibzstd() throws {
        let dependencies = try Self.targetDependencies()
        let recorder = Self.closure(of: "LifetraceRecorder", in: dependencies)
        #expect(recorder.contains("LifetraceFormat"))
        #expect(!recorder.contains("CZstd"))
        #expect(!recorder.contains("LifetraceZstd"))
        #expect(!Self.closure(of: "LifetraceFormat", in: dependencies).contains("CZstd"))
        // Nor the library an iOS app adds (`Lifetrace`).
        #expect(!Self.closure(of: "Lifetrace", in: dependencies).contains("CZstd"))
        // The analysis side does read compressed traces.
        #expect(Self.closure(of: "LifetraceCLI", in: dependencies).contains("CZstd"))
        // Nothing but the codec module imports the C library directly.
        let importers = dependencies.filter { $0.value.contains("CZstd") }.map(\.key)
        #expect(importers == ["LifetraceZstd"])
    }

    @Test("the library an iOS app adds is the recorder, the format and the adapter: no output kit, analysis or reports")
    func appLinksOnlyTheRecordingSide() throws {
        let dependencies = try Self.targetDependencies()
        let app = Self.closure(of: "Lifetrace", in: dependencies)
        #expect(app.isSuperset(of: ["LifetraceRecorder", "LifetraceFormat", "CRecorderSignals", "CCRC32C"]))
        for module in ["LifetraceOutput", "LifetraceAnalysis", "LifetraceReports", "LifetraceRunner", "LifetraceSupervisor", "LifecycleModel"] {
            #expect(!app.contains(module), "the Lifetrace product links \(module)")
        }
        // The command-line side does link the output kit.
        #expect(Self.closure(of: "LifetraceCLI", in: dependencies).contains("LifetraceOutput"))
    }
}
