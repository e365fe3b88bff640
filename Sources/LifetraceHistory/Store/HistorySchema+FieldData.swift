import GRDB

extension HistorySchema {
    /// Field data from MetricKit (docs/HISTORY.md, "MetricKit"): each payload under the build it
    /// was added with, its histograms, exit counts, diagnostics with their call-stack trees, and
    /// every other field as it was given.
    static func registerFieldData(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-metrickit-field-data", foreignKeyChecks: .immediate) { db in
            // `fieldValue.value` is the value as given: text, an integer or a real (a boolean as
            // 0 or 1), or null.
            try db.execute(sql: """
                CREATE TABLE "fieldPayload" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "buildId" INTEGER NOT NULL REFERENCES "build"("id") ON DELETE CASCADE, "path" TEXT NOT NULL, "kind" TEXT NOT NULL, "begin" TEXT, "end" TEXT, "appVersion" TEXT, "buildNumber" TEXT, "device" TEXT, "os" TEXT, "architecture" TEXT, "region" TEXT, "fields" INTEGER NOT NULL, "notes" INTEGER NOT NULL, UNIQUE ("buildId", "path"));
                CREATE INDEX "fieldPayload_on_buildId" ON "fieldPayload"("buildId");
                CREATE TABLE "fieldHistogram" ("fieldPayloadId" INTEGER NOT NULL REFERENCES "fieldPayload"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "field" TEXT NOT NULL, "metric" TEXT, "unit" TEXT NOT NULL, "position" INTEGER NOT NULL, "bucketStart" DOUBLE NOT NULL, "bucketEnd" DOUBLE NOT NULL, "count" INTEGER NOT NULL);
                CREATE INDEX "fieldHistogram_on_fieldPayloadId" ON "fieldHistogram"("fieldPayloadId");
                CREATE INDEX "fieldHistogram_on_buildId" ON "fieldHistogram"("buildId");
                CREATE TABLE "fieldExit" ("fieldPayloadId" INTEGER NOT NULL REFERENCES "fieldPayload"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "context" TEXT NOT NULL, "reason" TEXT NOT NULL, "count" INTEGER NOT NULL);
                CREATE INDEX "fieldExit_on_fieldPayloadId" ON "fieldExit"("fieldPayloadId");
                CREATE INDEX "fieldExit_on_buildId" ON "fieldExit"("buildId");
                CREATE TABLE "fieldDiagnostic" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "fieldPayloadId" INTEGER NOT NULL REFERENCES "fieldPayload"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "kind" TEXT NOT NULL, "position" INTEGER NOT NULL, "version" TEXT, "duration" INTEGER, "appVersion" TEXT, "buildNumber" TEXT, "device" TEXT, "os" TEXT, "callStackPerThread" BOOLEAN, "blame" TEXT NOT NULL);
                CREATE INDEX "fieldDiagnostic_on_fieldPayloadId" ON "fieldDiagnostic"("fieldPayloadId");
                CREATE INDEX "fieldDiagnostic_on_buildId" ON "fieldDiagnostic"("buildId");
                CREATE TABLE "fieldValue" ("fieldPayloadId" INTEGER NOT NULL REFERENCES "fieldPayload"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "fieldDiagnosticId" INTEGER REFERENCES "fieldDiagnostic"("id") ON DELETE CASCADE, "field" TEXT NOT NULL, "value", "amount" DOUBLE, "unit" TEXT, "documented" BOOLEAN NOT NULL);
                CREATE INDEX "fieldValue_on_fieldPayloadId" ON "fieldValue"("fieldPayloadId");
                CREATE INDEX "fieldValue_on_buildId" ON "fieldValue"("buildId");
                CREATE INDEX "fieldValue_on_fieldDiagnosticId" ON "fieldValue"("fieldDiagnosticId");
                CREATE TABLE "fieldStack" ("fieldDiagnosticId" INTEGER NOT NULL REFERENCES "fieldDiagnostic"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "position" INTEGER NOT NULL, "threadAttributed" BOOLEAN);
                CREATE INDEX "fieldStack_on_fieldDiagnosticId" ON "fieldStack"("fieldDiagnosticId");
                CREATE INDEX "fieldStack_on_buildId" ON "fieldStack"("buildId");
                CREATE TABLE "fieldFrame" ("fieldDiagnosticId" INTEGER NOT NULL REFERENCES "fieldDiagnostic"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "position" INTEGER NOT NULL, "stack" INTEGER NOT NULL, "parent" INTEGER NOT NULL, "depth" INTEGER NOT NULL, "binaryUUID" TEXT, "binaryName" TEXT, "offset" INTEGER, "address" INTEGER, "sampleCount" INTEGER, "function" TEXT, "file" TEXT, "line" INTEGER);
                CREATE INDEX "fieldFrame_on_fieldDiagnosticId" ON "fieldFrame"("fieldDiagnosticId");
                CREATE INDEX "fieldFrame_on_buildId" ON "fieldFrame"("buildId");
                """)
        }
    }
}
