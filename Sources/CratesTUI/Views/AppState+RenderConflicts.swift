import CratesCore

extension AppState {
    /// The conflicts view: a heading that counts them as `crates sync` does (one per field),
    /// the keys, the columns' names, then each copy with its fields side by side.
    func renderConflicts(_ state: ConflictsState, into screen: inout Screen) {
        guard let conflicts = state.conflicts else {
            screen.put("Loading…", row: 2, column: 2, style: .dim)
            return
        }
        guard !conflicts.isEmpty else {
            let text = [
                "No conflicts with Discogs.", "",
                "A value changed on one side only since the last sync is sent or taken",
                "by the next sync (S); one changed differently on both sides shows here.",
            ]
            for (i, line) in text.enumerated() where 2 + i < height - 2 {
                screen.put(line, row: 2 + i, column: 2, style: i == 0 ? .title : .dim)
            }
            return
        }
        let fields = conflicts.reduce(0) { $0 + $1.fields.count }
        let copies = conflicts.count == 1 ? "1 copy" : "\(conflicts.count) copies"
        screen.put(
            "\(fields == 1 ? "1 conflict" : "\(fields) conflicts") (\(copies)): changed on both sides since the last sync",
            row: 1, column: 1, style: .title)
        if let side = state.confirmAll {
            let what = side == .crates ? "Keep crates' values of every copy (sent to Discogs)" : "Take Discogs' values of every copy"
            screen.put("\(what)? (y/N)", row: 2, column: 1, style: .prompt)
        } else if state.settling {
            screen.put("Settling…", row: 2, column: 1, style: .pending)
        } else {
            screen.put("c: keep crates' · d: take Discogs' · C, D: for every copy · Enter: details", row: 2, column: 1, style: .dim)
        }
        let layout = ConflictLayout(width: width)
        let columns = layout.columns
        for (index, name) in ["field", "crates", "Discogs"].enumerated() {
            screen.put(name, row: 3, column: columns[index].start, style: .header, limit: columns[index].width)
        }
        let lines = layout.lines(conflicts)
        for (offset, line) in lines.dropFirst(state.scroll).prefix(conflictsHeight).enumerated() {
            let row = 4 + offset
            let selected = line.copy == state.selected
            if selected { screen.fill(row: row, style: .selected) }
            if line.isTitle {
                screen.put(line.cells.first ?? "", row: row, column: 2, style: selected ? .selected : .title, limit: width - 3)
                continue
            }
            for (index, cell) in line.cells.enumerated() {
                screen.put(cell, row: row, column: columns[index].start, style: selected ? .selected : (index == 0 ? .dim : .normal),
                           limit: columns[index].width)
            }
        }
    }
}
