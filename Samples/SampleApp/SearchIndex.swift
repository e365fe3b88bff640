import Foundation

/// A full-text index of the notes: the work that belongs off the main thread at launch.
struct SearchIndex: Sendable {
    private(set) var postings: [String: [Int]] = [:]

    /// Builds the index, re-indexing (as a real app would for every language and field) until
    /// at least `minimumDuration` passed, so the stall it causes is the same on any machine, and,
    /// `held`, until the stall is no longer held (``StallHold``). Never inlined, so it has its
    /// own frame.
    @inline(never)
    init(notes: [NoteStore.Note], minimumDuration: Duration, held: Bool = false) {
        let clock = ContinuousClock()
        let start = clock.now, hold = held ? StallHold() : nil
        repeat {
            var postings: [String: [Int]] = [:]
            for note in notes {
                for word in note.body.split(separator: " ") { postings[word.lowercased(), default: []].append(note.id) }
            }
            self.postings = postings
        } while clock.now - start < minimumDuration || hold?.holds(since: start, now: clock.now) == true
    }
}
