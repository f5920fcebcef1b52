extension AppState {
    /// The record under the selection, if the selection is on a record.
    public var selectedItem: ListItem? {
        guard lines.indices.contains(selectedLine) else { return nil }
        return collection.item(lines[selectedLine])
    }

    /// Rebuilds the lines after the collection or the filter changed, keeping the selection on
    /// the same record (it may have moved to another section), or, when that record is gone, on
    /// the same position.
    mutating func relayout() {
        lines = collection.lines(filter: filter)
        let wanted = selectWhenSeen ?? selectedRecord
        if let wanted, let index = lineIndex(of: wanted) {
            if selectWhenSeen == wanted { selectWhenSeen = nil }
            selectedLine = index
        } else {
            selectedLine = min(selectedLine, max(0, lines.count - 1))
            moveSelection(toItemFrom: selectedLine, forward: true)
            if selectedItem == nil { moveSelection(toItemFrom: selectedLine, forward: false) }
        }
        selectedRecord = selectedItem?.recordID
        keepSelectionVisible()
    }

    func lineIndex(of recordID: Int64) -> Int? {
        lines.firstIndex { line in
            if case .item(let s, let i) = line { return collection.sections[s].items[i].recordID == recordID }
            return false
        }
    }

    /// Moves by `delta` lines, skipping headers (they are not selectable).
    mutating func moveSelection(by delta: Int) {
        guard !lines.isEmpty else { return }
        let target = max(0, min(lines.count - 1, selectedLine + delta))
        moveSelection(toItemFrom: target, forward: delta >= 0)
        if selectedItem == nil { moveSelection(toItemFrom: target, forward: delta < 0) }
        selectedRecord = selectedItem?.recordID
        keepSelectionVisible()
    }

    /// Selects the first record line at or after (or before) `index`; leaves the selection
    /// alone when there is none that way.
    mutating func moveSelection(toItemFrom index: Int, forward: Bool) {
        guard !lines.isEmpty else {
            selectedLine = 0
            return
        }
        var i = max(0, min(lines.count - 1, index))
        while lines.indices.contains(i) {
            if case .item = lines[i] {
                selectedLine = i
                selectedRecord = selectedItem?.recordID
                keepSelectionVisible()
                return
            }
            i += forward ? 1 : -1
        }
    }

    /// Jumps to the first record of the next (or previous) section; backwards from inside a
    /// section goes to that section's first record first, as in tig and mutt.
    mutating func jumpSection(forward: Bool) {
        guard !lines.isEmpty else { return }
        let currentSection: Int? = {
            if case .item(let s, _) = lines[selectedLine] { return s }
            return nil
        }()
        if forward {
            var i = selectedLine + 1
            while i < lines.count {
                if case .header(let s, _) = lines[i], s != currentSection { break }
                i += 1
            }
            if i < lines.count { moveSelection(toItemFrom: i, forward: true) }
        } else {
            var i = selectedLine - 1
            // The header of the current section.
            while i >= 0 {
                if case .header = lines[i] { break }
                i -= 1
            }
            if i >= 0, i + 1 != selectedLine {
                moveSelection(toItemFrom: i + 1, forward: true)
                return
            }
            i -= 1
            while i >= 0 {
                if case .header = lines[i] { break }
                i -= 1
            }
            if i >= 0 { moveSelection(toItemFrom: i + 1, forward: true) }
        }
    }

    /// Scrolls so the selected line is on screen, with the section header above the first
    /// record shown when there is room.
    mutating func keepSelectionVisible() {
        let visible = listHeight
        if selectedLine < scrollTop {
            scrollTop = selectedLine
            if scrollTop > 0, case .header = lines[scrollTop - 1] { scrollTop -= 1 }
        } else if selectedLine >= scrollTop + visible {
            scrollTop = selectedLine - visible + 1
        }
        scrollTop = max(0, min(scrollTop, max(0, lines.count - visible)))
        if selectedLine < scrollTop { scrollTop = selectedLine }
    }
}
