/// The first screen: a list of note cells laid out for a 390-point-wide display.
struct FirstScreen: Sendable {
    /// A laid-out cell.
    struct Cell: Sendable {
        var title: String
        var preview: String
        var y: Double
        var height: Double
    }

    private(set) var cells: [Cell]

    init(notes: [NoteStore.Note]) {
        var y = 0.0
        cells = notes.prefix(40).map { note in
            let preview = String(note.body.prefix(80))
            // Two lines when the preview does not fit one line of about 45 characters.
            let height = preview.count > 45 ? 64.0 : 44.0
            defer { y += height }
            return Cell(title: note.title, preview: preview, y: y, height: height)
        }
    }

    /// The titles of the cells that fit on an 844-point-high screen.
    var visibleTitles: [String] { cells.filter { $0.y < 844 }.map(\.title) }

    /// Releases the cells' previews, rebuilt on demand.
    mutating func dropThumbnails() {
        for index in cells.indices { cells[index].preview = "" }
    }
}
