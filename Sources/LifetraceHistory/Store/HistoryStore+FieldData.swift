import GRDB
import LifetraceFormat

extension HistoryStore {
    /// Writes one MetricKit payload and all it holds under the build with row id `build`.
    static func insert(_ payload: MetricKitPayload, build: Int64, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO fieldPayload (buildId, path, kind, begin, "end", appVersion, buildNumber, device, os, architecture, region,
                    fields, notes)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                build, payload.path, payload.kind.rawValue, payload.begin, payload.end, payload.appVersion, payload.buildNumber,
                payload.device, payload.os, payload.architecture, payload.region, payload.fieldCount, payload.notes.count,
            ])
        let payloadRow = db.lastInsertedRowID
        let bucketInsert = try db.cachedStatement(
            sql: """
                INSERT INTO fieldHistogram (fieldPayloadId, buildId, field, metric, unit, position, bucketStart, bucketEnd, count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for histogram in payload.histograms {
            for (position, bucket) in histogram.buckets.enumerated() {
                try bucketInsert.execute(arguments: [
                    payloadRow, build, histogram.field, histogram.metric, histogram.unit, position, bucket.start, bucket.end, bucket.count,
                ])
            }
        }
        let exitInsert = try db.cachedStatement(
            sql: "INSERT INTO fieldExit (fieldPayloadId, buildId, context, reason, count) VALUES (?, ?, ?, ?, ?)")
        for exit in payload.exits {
            try exitInsert.execute(arguments: [payloadRow, build, exit.context, exit.reason, exit.count])
        }
        var diagnosticRows: [Int64] = []
        let stackInsert = try db.cachedStatement(
            sql: "INSERT INTO fieldStack (fieldDiagnosticId, buildId, position, threadAttributed) VALUES (?, ?, ?, ?)")
        let frameInsert = try db.cachedStatement(
            sql: """
                INSERT INTO fieldFrame (fieldDiagnosticId, buildId, position, stack, parent, depth, binaryUUID, binaryName, offset, address,
                    sampleCount, function, file, line)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for diagnostic in payload.diagnostics {
            try db.execute(
                sql: """
                    INSERT INTO fieldDiagnostic (fieldPayloadId, buildId, kind, position, version, duration, appVersion, buildNumber, device,
                        os, callStackPerThread, blame)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    payloadRow, build, diagnostic.kind, diagnostic.position, diagnostic.version, diagnostic.duration, diagnostic.appVersion,
                    diagnostic.buildNumber, diagnostic.device, diagnostic.os, diagnostic.callStackPerThread, diagnostic.blame,
                ])
            let diagnosticRow = db.lastInsertedRowID
            diagnosticRows.append(diagnosticRow)
            for (position, attributed) in diagnostic.stacks.enumerated() {
                try stackInsert.execute(arguments: [diagnosticRow, build, position, attributed])
            }
            for (position, frame) in diagnostic.frames.enumerated() {
                // SQLite's integers are signed 64-bit: an address past 2^63 is kept as its bits.
                try frameInsert.execute(arguments: [
                    diagnosticRow, build, position, frame.stack, frame.parent, frame.depth, frame.binaryUUID, frame.binaryName,
                    frame.offsetIntoBinaryTextSegment.map { Int64(bitPattern: $0) }, frame.address.map { Int64(bitPattern: $0) },
                    frame.sampleCount, frame.symbol?.function, frame.symbol.map(\.file), frame.symbol.map(\.line),
                ])
            }
        }
        let valueInsert = try db.cachedStatement(
            sql: """
                INSERT INTO fieldValue (fieldPayloadId, buildId, fieldDiagnosticId, field, value, amount, unit, documented)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for value in payload.values {
            let stored: DatabaseValue = switch value.value {
            case .text(let text): text.databaseValue
            case .integer(let number): number.databaseValue
            case .real(let number): number.databaseValue
            case .null: .null
            }
            try valueInsert.execute(arguments: [
                payloadRow, build, value.diagnostic.map { diagnosticRows[$0] }, value.field, stored, value.amount, value.unit,
                value.documented,
            ])
        }
    }
}
