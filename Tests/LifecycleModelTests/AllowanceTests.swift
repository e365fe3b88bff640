import Foundation
import LifecycleModel
import LifetraceFormat
import Testing

struct AllowanceTests {
    @Test("the table has a row per allowance, in case order, each with a source and what still fails")
    func table() {
        #expect(Allowance.table.count == Allowance.allCases.count)
        #expect(Set(Allowance.allCases.map(\.id)).count == Allowance.allCases.count)
        for allowance in Allowance.allCases {
            let entry = allowance.entry
            #expect(!entry.sources.isEmpty && !entry.stillViolation.isEmpty && !entry.appliesWhere.isEmpty, "\(entry.id)")
            #expect(!entry.textbookRules.isEmpty, "\(entry.id)")
        }
    }

    @Test("the os metadata reads as an iOS version; anything else is unknown")
    func osVersions() {
        #expect(OSVersion(iOSMetadata: "iOS 17.5.1") == OSVersion(17, 5, 1))
        #expect(OSVersion(iOSMetadata: "iOS 12") == OSVersion(12))
        #expect(OSVersion(iOSMetadata: "iPadOS 16.0 (20A362)") == OSVersion(16))
        for value in ["Linux 6.8", "iOS", "iOS 1.2.3.4", "iOS 99999999999999999999", "iOS 12.a", "iOS .1", ""] {
            #expect(OSVersion(iOSMetadata: value) == nil, "\(value)")
        }
    }

    @Test("an OS bug's allowance applies only on the versions its source names, never on an unknown OS")
    func osGated() {
        func applies(_ os: String?) -> Bool {
            var metadata = TraceMetadata()
            metadata["os"] = os
            return Allowance.applicable(to: PlatformFacts(metadata: metadata)).contains(.doubleActivation)
        }
        #expect(applies("iOS 11.0"))
        #expect(applies("iOS 12.1.4"))
        #expect(!applies("iOS 12.1.5"))
        #expect(!applies("iOS 10.3.3"))
        #expect(!applies("iOS 13.0"))
        #expect(!applies(nil))
        #expect(!applies("Linux"))
        #expect(Allowance.applicable(to: PlatformFacts()).contains(.quickMinimise))
    }

    @Test("backgroundModes and recordingStart are read from the metadata; bad values are unknown")
    func recordingFacts() {
        let facts = PlatformFacts(metadata: TraceMetadata([
            ("backgroundModes", "audio,fetch,processing"), ("recordingStart", "250000000"),
        ]))
        #expect(facts.backgroundModes == ["audio", "fetch", "processing"])
        #expect(facts.continuousBackgroundModes == ["audio"])
        #expect(facts.recordingStart == 250_000_000)
        let empty = PlatformFacts(metadata: TraceMetadata([("backgroundModes", ""), ("recordingStart", "soon")]))
        #expect(empty.backgroundModes == [])
        #expect(empty.recordingStart == nil)
        #expect(PlatformFacts(metadata: TraceMetadata()).backgroundModes == nil)
    }

    @Test("docs/LIFECYCLE.md lists every allowance of the table in its Real iOS section")
    func documented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/LIFECYCLE.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Real iOS").dropFirst().first)
        for allowance in Allowance.allCases {
            #expect(section.contains("`\(allowance.id)`"), "\(allowance.id)")
        }
    }
}
