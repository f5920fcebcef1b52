import CratesCore

extension AppState {
    /// Where the details view draws a cover, when the terminal has room: beside the text
    /// (wide enough for both), else above it (tall enough); nil when neither fits.
    struct CoverBox: Equatable {
        var row: Int
        var column: Int
        var columns: Int
        var rows: Int
        var beside: Bool
    }

    /// The columns the details' text keeps beside a cover.
    static let detailsTextColumns = 46

    var detailsCoverBox: CoverBox? {
        guard coversOn, coverColours != nil else { return nil }
        // A cell is about twice as tall as wide: a square cover is twice as many columns as rows.
        var rows = min(12, listHeight - 1)
        while rows >= 4, width - 2 * rows - 3 < Self.detailsTextColumns { rows -= 1 }
        if rows >= 4 {
            return CoverBox(row: 1, column: width - 2 * rows - 1, columns: 2 * rows, rows: rows, beside: true)
        }
        // Above the text: a third of the height at most, so the text keeps most of it.
        rows = min(8, listHeight / 3, (width - 2) / 2)
        guard rows >= 4 else { return nil }
        return CoverBox(row: 1, column: 1, columns: 2 * rows, rows: rows, beside: false)
    }

    /// The cover requests the screen needs and has not asked for: the details' record's, or
    /// the thumbnails of the picker's page. The one the person looks at is asked last (the
    /// session fetches the latest asked first), and asked again when the person moves to it
    /// while it still waits in line, so that it goes first.
    mutating func coverRequests() -> [AppCommand] {
        guard let colours = coverColours, coversOn else { return [] }
        var wanted: [CoverRequest] = []
        if case .details(let state) = mode, let box = detailsCoverBox {
            wanted.append(CoverRequest(subject: .record(state.recordID), columns: box.columns, rows: box.rows, colours: colours))
        }
        wanted += pickerCoversWanted(colours)
        var commands: [AppCommand] = []
        for request in wanted where covers[request] == nil {
            covers[request] = .loading
            commands.append(.session(.cover(request)))
        }
        let focus = wanted.last
        if let focus, focus != coverFocus, covers[focus] == .loading, commands.last != .session(.cover(focus)) {
            commands.append(.session(.cover(focus)))
        }
        coverFocus = focus
        // Only the covers of the screen now are kept (each is drawn again quickly from the
        // cache on disk when needed again).
        if covers.count > 16 { covers = covers.filter { wanted.contains($0.key) } }
        return commands
    }

    mutating func applyCover(_ request: CoverRequest, _ cover: CoverState) {
        guard covers[request] != nil else { return }  // no longer on the screen
        // Not fetched (it fell out of the session's line): asked again when shown again.
        covers[request] = cover == .loading ? nil : cover
    }

    mutating func forgetCovers(of recordID: Int64) {
        covers = covers.filter { $0.key.subject != .record(recordID) }
    }

    mutating func toggleCovers() {
        guard coverColours != nil else {
            say("Covers need a terminal with colours")
            return
        }
        coversOn.toggle()
        say(coversOn ? "Covers shown (I hides them)" : "Covers hidden (I shows them)")
    }

    /// The details' record's cover as it stands, for the box it goes in.
    func detailsCover(_ state: DetailsState, _ box: CoverBox) -> CoverState {
        guard let colours = coverColours else { return .placeholder("") }
        let request = CoverRequest(subject: .record(state.recordID), columns: box.columns, rows: box.rows, colours: colours)
        return covers[request] ?? .loading
    }

    /// Draws a cover in its box: the cells, or a dim word where they will be (or why none).
    func renderCover(_ cover: CoverState, in box: CoverBox, into screen: inout Screen) {
        switch cover {
        case .art(let art):
            // Centred in the box when the image is narrower or shorter than it.
            let row = box.row + max(0, (box.rows - art.rows.count) / 2)
            let column = box.column + max(0, (box.columns - art.columns) / 2)
            screen.paint(art, row: row, column: column)
        case .loading:
            screen.put("cover…", row: box.row + box.rows / 2, column: box.column + max(0, (box.columns - 6) / 2), style: .dim)
        case .placeholder(let reason):
            let lines = TerminalText.wrapped(reason, to: max(1, box.columns - 2))
            let top = box.row + max(0, (box.rows - lines.count) / 2)
            for (i, line) in lines.prefix(box.rows).enumerated() {
                screen.put(line, row: top + i, column: box.column + 1, style: .dim, limit: box.columns - 1)
            }
        }
    }
}
