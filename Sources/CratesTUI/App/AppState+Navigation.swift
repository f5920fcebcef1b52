import CratesCore
extension AppState {
    /// The record under the selection, when the selection is on a record row that is loaded.
    public var selectedItem: CollectionRow? {
        guard case .row(let row, _) = list.line(selectedLine) else { return nil }
        return list.item(row: row)
    }

    /// Takes a new answer from the store and puts the selection back on the record it was
    /// on: that record may have moved (a lookup gave it a genre), or gone (deleted, filtered
    /// out), in which case the selection stays at the same position.
    mutating func apply(_ model: CollectionWindow) {
        // An answer to a filter or a place since changed.
        guard model.filter == filter, model.location == location?.id, model.order == order, model.descending == descending,
              model.flat == flat, model.facet == facet
        else { return }
        list = model
        received = true
        if let asked = sentQuery, asked.window.offset == model.offset { sentQuery = nil }
        let wanted = selectWhenSeen ?? selectedRecord
        if let wanted, let row = model.focus == wanted ? model.focusRow : model.row(of: wanted),
           let line = model.lineIndex(ofRow: row) {
            if selectWhenSeen == wanted { selectWhenSeen = nil }
            selectedLine = line
        } else {
            selectedLine = min(selectedLine, max(0, list.lineCount - 1))
            moveSelection(toRowFrom: selectedLine, forward: true)
            if rowLine(selectedLine) == nil { moveSelection(toRowFrom: selectedLine, forward: false) }
        }
        if let item = selectedItem { selectedRecord = item.recordID }
        // A record to select once seen (a scan just added) stays the focus asked for: a
        // window that does not hold it yet (the observation's, asked before the add) must
        // not send the focus back to the row the selection was on.
        if let pending = selectWhenSeen { selectedRecord = pending }
        keepSelectionVisible()
    }

    /// The row shown on `line`, nil for a header.
    func rowLine(_ line: Int) -> Int? {
        if case .row(let row, _) = list.line(line) { return row }
        return nil
    }

    /// Moves by `delta` lines, skipping headers (they are not selectable).
    mutating func moveSelection(by delta: Int) {
        guard list.lineCount > 0 else { return }
        let target = max(0, min(list.lineCount - 1, selectedLine + delta))
        moveSelection(toRowFrom: target, forward: delta >= 0)
        if rowLine(selectedLine) == nil { moveSelection(toRowFrom: target, forward: delta < 0) }
    }

    /// Selects the first row line at or after (or before) `index`. Headers are one line
    /// between rows, so this looks at most one line further.
    mutating func moveSelection(toRowFrom index: Int, forward: Bool) {
        guard list.lineCount > 0 else {
            selectedLine = 0
            selectedRecord = nil
            return
        }
        var i = max(0, min(list.lineCount - 1, index))
        if rowLine(i) == nil { i += forward ? 1 : -1 }
        guard i >= 0, i < list.lineCount, rowLine(i) != nil else { return }
        selectedLine = i
        // Unknown until the window holding it arrives; then `apply` fills it in.
        selectedRecord = selectedItem?.recordID
        keepSelectionVisible()
    }

    /// Jumps to the first record of the next (or previous) section; backwards from inside a
    /// section goes to that section's first record first, as in tig and mutt.
    mutating func jumpSection(forward: Bool) {
        // A flat list has one section, all records: nothing to jump to, and saying so beats
        // a key that seems dead.
        guard !flat else {
            say("No genre sections in a flat list (F: sections again)")
            return
        }
        guard case .row(let row, let section) = list.line(selectedLine) else { return }
        let sections = list.sections
        if forward {
            guard section + 1 < sections.count else { return }
            selectLine(sections[section + 1].firstRow + section + 2)
        } else if row > sections[section].firstRow {
            selectLine(sections[section].firstRow + section + 1)
        } else if section > 0 {
            selectLine(sections[section - 1].firstRow + section)
        }
    }

    mutating func selectLine(_ line: Int) {
        selectedLine = line
        selectedRecord = selectedItem?.recordID
        keepSelectionVisible()
    }

    /// Scrolls so the selected line is on screen, with the section header above the first
    /// record shown when there is room.
    mutating func keepSelectionVisible() {
        let visible = listHeight
        if selectedLine < scrollTop {
            scrollTop = selectedLine
            if scrollTop > 0, case .header = list.line(scrollTop - 1) { scrollTop -= 1 }
        } else if selectedLine >= scrollTop + visible {
            scrollTop = selectedLine - visible + 1
        }
        scrollTop = max(0, min(scrollTop, max(0, list.lineCount - visible)))
        if selectedLine < scrollTop { scrollTop = selectedLine }
    }

    /// The rows on screen.
    var visibleRows: Range<Int> {
        var first: Int?
        var last: Int?
        for line in scrollTop..<min(list.lineCount, scrollTop + listHeight) {
            if let row = rowLine(line) {
                if first == nil { first = row }
                last = row
            }
        }
        guard let first, let last else { return 0..<0 }
        return first..<(last + 1)
    }

    /// What to ask the store for now: a new window when the screen shows rows not held (or
    /// the filter changed), and the selected record as the focus. Each is sent once.
    mutating func storeRequests() -> [AppCommand] {
        var commands: [AppCommand] = []
        let needed = visibleRows
        let answered = received && list.filter == filter && list.location == location?.id && list.order == order
            && list.descending == descending && list.flat == flat && list.facet == facet
        if !answered || !list.holds(rows: needed) {
            let offset = max(0, needed.lowerBound - windowMargin)
            let query = CollectionQuery(
                filter: filter, window: RowWindow(offset: offset, limit: needed.count + 2 * windowMargin + 1),
                focus: selectedRecord, location: location?.id, order: order, descending: descending, flat: flat, facet: facet)
            // Asked already and not answered yet: asking again would only queue more work.
            let pending = sentQuery.map {
                $0.filter == query.filter && $0.location == query.location && $0.order == query.order
                    && $0.descending == query.descending && $0.flat == query.flat && $0.facet == query.facet
                    && $0.window.offset <= offset && $0.window.offset + $0.window.limit >= offset + needed.count
            } ?? false
            if !pending {
                sentQuery = query
                sentFocus = .some(selectedRecord)
                commands.append(.session(.query(query)))
            }
        }
        if sentFocus != .some(selectedRecord) {
            sentFocus = .some(selectedRecord)
            commands.append(.session(.focus(selectedRecord)))
        }
        return commands
    }
}
