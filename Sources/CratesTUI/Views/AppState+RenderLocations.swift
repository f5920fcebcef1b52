import CratesCore

extension AppState {
    /// " in Crate A3: 12 records" for the title, when a place is current.
    var placeTitle: String {
        guard let location else { return "" }
        let count = list.location == location.id ? ": \(list.rowCount.grouped) \(list.rowCount == 1 ? "record" : "records")" : ""
        return " · in \(location.name)\(count)"
    }

    /// The tree: each place indented under the one it is in, with the copies in it and
    /// inside it; the current place marked with →.
    func renderLocations(_ state: LocationsState, into screen: inout Screen) {
        guard let tree = state.tree else {
            screen.put("Loading…", row: 2, column: 2, style: .dim)
            return
        }
        guard !tree.isEmpty else {
            let text = [
                "No places yet.", "",
                "`crates location add NAME [--in PARENT]` makes one, and",
                "`crates labels --all --layout a4-3x7 -o labels.pdf` prints their labels.",
                "Scanning a place's label makes it current: what you scan next goes in it.",
            ]
            for (i, line) in text.enumerated() where 2 + i < height - 2 {
                screen.put(line, row: 2 + i, column: 2, style: i == 0 ? .title : .dim)
            }
            return
        }
        screen.put("Place", row: 1, column: 4, style: .dim)
        // Counts right-aligned, one column from the edge.
        let countWidth = 8
        if width > countWidth + 10 { screen.put("records", row: 1, column: width - 1 - DisplayWidth.of("records"), style: .dim) }
        let visible = max(1, listHeight - 1)
        for (offset, node) in tree.nodes.dropFirst(state.scroll).prefix(visible).enumerated() {
            let index = state.scroll + offset
            let row = 2 + offset
            let selected = index == state.selected
            if selected { screen.fill(row: row, style: .selected) }
            let marker = node.id == location?.id ? "→ " : "  "
            let indent = String(repeating: "  ", count: min(tree.depth(of: node.id), 12))
            let nameWidth = max(1, width - countWidth - 4)
            screen.put(marker + indent + node.name, row: row, column: 2, style: selected ? .selected : .normal, limit: nameWidth)
            let count = tree.total(node.id).grouped
            if width > countWidth + 10 {
                screen.put(count, row: row, column: width - 1 - DisplayWidth.of(count), style: selected ? .selected : .dim)
            }
        }
    }
}
