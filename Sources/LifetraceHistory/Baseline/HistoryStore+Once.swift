extension HistoryStore {
    /// The stored build whose id is `buildID`, or nil.
    public func build(id buildID: String) throws(HistoryStoreError) -> StoredBuild? {
        try builds().first { $0.record.buildID == buildID }
    }

    /// Adds `runs` under `build` as ``add(_:runs:)`` does, unless the build has every one of them
    /// already (the same CI job run again): then nothing is written and the result is false. A
    /// build that has some of the runs and not others refuses the add, as ``add(_:runs:)`` does.
    public func addOnce(_ build: BuildRecord, runs: [HistoryRun]) throws(HistoryStoreError) -> Bool {
        do {
            try add(build, runs: runs)
            return true
        } catch {
            guard case .duplicateRun = error.kind, let stored = try self.build(id: build.buildID) else { throw error }
            let kept = Set(try self.runs(ofBuild: stored.row).map(\.path))
            guard runs.allSatisfy({ kept.contains($0.path) }) else { throw error }
            return false
        }
    }
}
