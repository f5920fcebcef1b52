import CratesCore

extension AppState {
    /// The walk through the records that need a person: where it stands, the keys, and the
    /// record's details.
    func renderNeeds(into screen: inout Screen) {
        guard let walk else { return }
        if walk.loading {
            screen.put("Loading…", row: 2, column: 2, style: .dim)
            return
        }
        guard walk.current != nil else {
            let left = walk.left > 0 ? " (\(walk.left) left as they were)" : ""
            screen.put("Nothing more needs a person\(left).", row: 2, column: 2, style: .title)
            screen.put("Esc goes back to the collection.", row: 4, column: 2, style: .dim)
            return
        }
        let where_ = walk.position.map { "\($0.index) of \($0.count)" } ?? ""
        screen.put(
            "Needs a person: \(where_) · Enter: choose · s: search · m: by hand · x: leave it", row: 1, column: 1,
            style: .pending)
        guard let details = walk.details else {
            screen.put("Loading…", row: 3, column: 2, style: .dim)
            return
        }
        let labelWidth = 12
        for (offset, line) in details.lines.prefix(max(0, listHeight - 2)).enumerated() {
            let row = 3 + offset
            if line.label.isEmpty {
                screen.put(line.value, row: row, column: 1, style: line.style)
            } else {
                screen.put(line.label, row: row, column: 1, style: .dim, limit: labelWidth)
                screen.put(line.value, row: row, column: min(width - 1, labelWidth + 2), style: line.style)
            }
        }
    }
}
