import Foundation
import GRDB
import LifetraceHistory
import LifetraceTestSupport
import Testing

/// A hang diagnostic's call stack symbolicated from a dSYM built here (``MachOFixture``),
/// matched by the binary's UUID the way device traces' Apple images are (`--symbols`).
@Suite struct MetricKitSymbolTests {
    /// The diagnostic fixture with the built binary's UUID, and `busy`'s line 4 as the hang's
    /// innermost frame (the fixture's `Work` frames at offset 16256).
    static func payload(for built: MachOFixture.Built, in directory: String) throws -> String {
        let uuid = built.uuid.uppercased()
        let dashed = [uuid.prefix(8), uuid.dropFirst(8).prefix(4), uuid.dropFirst(12).prefix(4), uuid.dropFirst(16).prefix(4), uuid.dropFirst(20)]
            .joined(separator: "-")
        var text = try String(contentsOfFile: MetricKitImportTests.diagnosticPayload, encoding: .utf8)
        text = text.replacingOccurrences(of: "4C4C44A6-5555-3144-A1D5-CC5ADFA55E48", with: dashed)
        text = text.replacingOccurrences(of: "\"offsetIntoBinaryTextSegment\" : 16256", with: "\"offsetIntoBinaryTextSegment\" : \(built.lineFour - built.text)")
        let file = directory + "/hang.json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func aHangsStackIsNamedFromTheDSYMWithTheBinarysUUID() throws {
        let directory = try ScratchDirectory.make("metrickit-symbols")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try MachOFixture.build(directory)
        let file = try Self.payload(for: built, in: directory)
        let store = directory + "/history.sqlite"
        let added = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", "1", "--symbols", built.dsym, file])
        #expect(added.status == 0, "\(added.error)")
        // dyld and libsystem_kernel have no symbol file here: named once, with their UUIDs.
        #expect(added.error.contains("could not be symbolicated: dyld (file missing, and no symbol file given has its UUID 3e4d22a10c313b8a9b6c7d0f5e2a9c11)"), "\(added.error)")
        let queue = try DatabaseQueue(path: store)
        try queue.read { db in
            let leaf = try Row.fetchOne(
                db,
                sql: """
                    SELECT function, file, line FROM fieldFrame JOIN fieldDiagnostic ON fieldDiagnostic.id = fieldDiagnosticId
                    WHERE kind = 'hang' AND offset = ?
                    """, arguments: [Int64(built.lineFour - built.text)])
            #expect(leaf?["function"] as String? == "busy")
            #expect(leaf?["file"] as String? == "Work.c")
            #expect(leaf?["line"] as Int? == 4)
            // The stall is blamed on the heaviest path: dyld, the app's caller, then busy.
            let blame = try String.fetchOne(db, sql: "SELECT blame FROM fieldDiagnostic WHERE kind = 'hang'")
            #expect(blame?.hasSuffix(" > busy") == true, "\(blame ?? "")")
            #expect(try Int.fetchOne(db, sql: "SELECT duration FROM fieldDiagnostic WHERE kind = 'hang'") == 2_500_000_000)
            // Every diagnostic's frame at busy's line is named: the hang's, and the CPU and disk-write exceptions'.
            let named = try Row.fetchAll(
                db, sql: "SELECT function, line FROM fieldFrame WHERE offset = ?", arguments: [Int64(built.lineFour - built.text)])
            #expect(named.count == 3)
            #expect(named.allSatisfy { $0["function"] as String? == "busy" && $0["line"] as Int? == 4 })
        }
    }

    @Test func withoutItsDSYMNoFrameIsNamed() throws {
        let directory = try ScratchDirectory.make("metrickit-nosymbols")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try MachOFixture.build(directory)
        let other = try MachOFixture.build(directory, name: "Other", extra: "int unused(void) { return 7; }\n")
        let file = try Self.payload(for: built, in: directory)
        let store = directory + "/history.sqlite"
        let added = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", "1", "--symbols", other.dsym, file])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.error.contains("no symbol file given has its UUID \(built.uuid)"), "\(added.error)")
        let queue = try DatabaseQueue(path: store)
        let named = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM fieldFrame WHERE function IS NOT NULL") }
        #expect(named == 0)
    }
}
