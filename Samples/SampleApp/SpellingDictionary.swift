import Foundation

/// The spelling dictionary the editor checks notes against: loaded from the notes' own words.
///
/// `--unmarked-heavy-launch` warms it on the main thread during launch, inside no signpost: the
/// slow work sits in a function nobody marked, and only the stack samples of the stall name it.
enum SpellingDictionary {
    /// Counts every word's letter pairs, over and over, until at least `minimumDuration` passed and
    /// the stall is no longer held (``StallHold``). Never inlined, so it has its own frame.
    @inline(never)
    static func warm(notes: [NoteStore.Note], minimumDuration: Duration) -> Int {
        let clock = ContinuousClock()
        let start = clock.now, hold = StallHold()
        var pairs = 0
        repeat {
            for note in notes {
                var previous: UInt8 = 0
                for byte in note.body.utf8 {
                    if previous != 0 && byte != 0x20 { pairs &+= Int(previous ^ byte) & 1 }
                    previous = byte
                }
            }
        } while clock.now - start < minimumDuration || hold.holds(since: start, now: clock.now)
        return pairs
    }
}
