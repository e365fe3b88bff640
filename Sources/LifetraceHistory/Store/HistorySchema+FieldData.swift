import GRDB

extension HistorySchema {
    /// Field data from MetricKit (docs/HISTORY.md, "MetricKit"): each payload under the build it
    /// was added with, its histograms, exit counts, diagnostics with their call-stack trees, and
    /// every other field as it was given.
    static func registerFieldData(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-metrickit-field-data", foreignKeyChecks: .immediate) { db in
            try db.create(table: "fieldPayload") { table in
                table.autoIncrementedPrimaryKey("id")
                table.parent("build").notNull()
                table.column("path", .text).notNull()
                table.column("kind", .text).notNull()
                for name in ["begin", "end", "appVersion", "buildNumber", "device", "os", "architecture", "region"] {
                    table.column(name, .text)
                }
                table.column("fields", .integer).notNull()
                table.column("notes", .integer).notNull()
                table.uniqueKey(["buildId", "path"])
            }
            try db.create(table: "fieldHistogram") { table in
                table.owned(by: "fieldPayload")
                table.column("field", .text).notNull()
                table.column("metric", .text)
                table.column("unit", .text).notNull()
                table.column("position", .integer).notNull()
                table.column("bucketStart", .double).notNull()
                table.column("bucketEnd", .double).notNull()
                table.column("count", .integer).notNull()
            }
            try db.create(table: "fieldExit") { table in
                table.owned(by: "fieldPayload")
                table.column("context", .text).notNull()
                table.column("reason", .text).notNull()
                table.column("count", .integer).notNull()
            }
            try db.create(table: "fieldDiagnostic") { table in
                table.autoIncrementedPrimaryKey("id")
                table.owned(by: "fieldPayload")
                table.column("kind", .text).notNull()
                table.column("position", .integer).notNull()
                table.column("version", .text)
                table.column("duration", .integer)
                for name in ["appVersion", "buildNumber", "device", "os"] { table.column(name, .text) }
                table.column("callStackPerThread", .boolean)
                table.column("blame", .text).notNull()
            }
            try db.create(table: "fieldValue") { table in
                table.owned(by: "fieldPayload")
                table.parent("fieldDiagnostic")
                table.column("field", .text).notNull()
                // The value as given: text, an integer or a real (a boolean as 0 or 1), or null.
                table.column("value")
                table.column("amount", .double)
                table.column("unit", .text)
                table.column("documented", .boolean).notNull()
            }
            try db.create(table: "fieldStack") { table in
                table.owned(by: "fieldDiagnostic")
                table.column("position", .integer).notNull()
                table.column("threadAttributed", .boolean)
            }
            try db.create(table: "fieldFrame") { table in
                table.owned(by: "fieldDiagnostic")
                for name in ["position", "stack", "parent", "depth"] { table.column(name, .integer).notNull() }
                table.column("binaryUUID", .text)
                table.column("binaryName", .text)
                table.column("offset", .integer)
                table.column("address", .integer)
                table.column("sampleCount", .integer)
                table.column("function", .text)
                table.column("file", .text)
                table.column("line", .integer)
            }
        }
    }
}
