import Foundation

/// The sample's database: notes in a file, one per line, written atomically (write, sync, rename).
final class NoteStore: @unchecked Sendable {
    /// A note.
    struct Note: Sendable {
        var id: Int
        var title: String
        var body: String
    }

    private(set) var notes: [Note]
    private let directory: URL
    private let lock = NSLock()

    private init(directory: URL, notes: [Note]) {
        self.directory = directory
        self.notes = notes
    }

    private static let fileName = "notes.db"

    /// Opens the database in `directory`, creating it with sample notes the first time.
    static func open(directory: URL) throws -> NoteStore {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(fileName)
        if !FileManager.default.fileExists(atPath: file.path) {
            let seed = (1...500).map { Note(id: $0, title: "Note \($0)", body: NoteStore.sampleBody($0)) }
            try write(seed, to: file)
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        let notes = text.split(separator: "\n").compactMap { line -> Note? in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let id = Int(fields[0]) else { return nil }
            return Note(id: id, title: String(fields[1]), body: String(fields[2]))
        }
        return NoteStore(directory: directory, notes: notes)
    }

    /// Saves which notes were on screen, so the app comes back where the user left it.
    func saveState(visibleTitles: [String]) throws {
        try lock.withLock {
            let file = directory.appendingPathComponent("state.txt")
            let temporary = directory.appendingPathComponent("state.txt.tmp")
            try Data(visibleTitles.joined(separator: "\n").utf8).write(to: temporary)
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.synchronize()
            try handle.close()
            _ = try FileManager.default.replaceItemAt(file, withItemAt: temporary)
        }
    }

    private static func write(_ notes: [Note], to file: URL) throws {
        let text = notes.map { "\($0.id)\t\($0.title)\t\($0.body)" }.joined(separator: "\n")
        try Data(text.utf8).write(to: file, options: .atomic)
    }

    private static func sampleBody(_ seed: Int) -> String {
        let words = ["launch", "scene", "background", "suspend", "memory", "frame", "delegate", "thread"]
        return (0..<24).map { words[($0 * 7 + seed) % words.count] }.joined(separator: " ")
    }
}
