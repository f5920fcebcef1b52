import CratesCore

/// The conflicts view (`C`): each copy whose values were changed differently in crates and on
/// Discogs since the last sync, both values side by side; `c` keeps crates' (sent to Discogs
/// at once), `d` takes Discogs', `C` and `D` do it for every copy after a y/N. The choice is
/// the session's (the sync's outbox and store), which answers with the conflicts left.
///
/// No undo: keeping crates' writes to Discogs at once, so undoing it would be another write
/// there, i.e. the other choice; and the values are plain to see before the key is pressed.
extension AppState {
    public struct ConflictsState: Equatable, Sendable {
        /// Nil until the session's answer arrives.
        public var conflicts: [SyncCopyConflict]?
        /// The selected copy, and the first line shown.
        public var selected: Int = 0
        public var scroll: Int = 0
        /// "… for every copy? (y/N)" waiting: the side asked for.
        public var confirmAll: SyncPreference?
        /// A choice sent, not answered yet.
        public var settling = false
    }

    mutating func openConflicts() -> [AppCommand] {
        mode = .conflicts(ConflictsState())
        return [.session(.loadSyncConflicts)]
    }

    /// The conflicts from the session: the selection stays on its copy, else on the copy
    /// now at its place.
    mutating func applyConflicts(_ conflicts: [SyncCopyConflict]) {
        guard case .conflicts(var state) = mode else { return }
        let selectedID = state.conflicts.flatMap { $0.indices.contains(state.selected) ? $0[state.selected].recordID : nil }
        state.conflicts = conflicts
        state.settling = false
        state.selected = conflicts.firstIndex { $0.recordID == selectedID } ?? min(state.selected, max(0, conflicts.count - 1))
        mode = .conflicts(state)
        keepConflictVisible()
    }

    mutating func conflictsKey(_ key: Key, _ state: ConflictsState) -> [AppCommand] {
        var state = state
        let conflicts = state.conflicts ?? []
        if let side = state.confirmAll {
            state.confirmAll = nil
            mode = .conflicts(state)
            guard key == .character("y") || key == .character("Y"), !conflicts.isEmpty else {
                say("Nothing chosen: the conflicts stay")
                return []
            }
            return settle(conflicts.map(\.recordID), toward: side, &state)
        }
        guard let action = KeyMap.action(for: key, in: .conflicts) else {
            if case .character(let c) = key { say("\(c): no such key here (? for help)") }
            return []
        }
        let last = max(0, conflicts.count - 1)
        switch action {
        case .moveDown: state.selected = min(last, state.selected + 1)
        case .moveUp: state.selected = max(0, state.selected - 1)
        case .pageDown: state.selected = min(last, state.selected + max(1, listHeight / 3))
        case .pageUp: state.selected = max(0, state.selected - max(1, listHeight / 3))
        case .top: state.selected = 0
        case .bottom: state.selected = last
        case .keepCrates, .takeDiscogs:
            guard conflicts.indices.contains(state.selected) else { return [] }
            return settle([conflicts[state.selected].recordID], toward: action == .keepCrates ? .crates : .discogs, &state)
        case .keepCratesForAll, .takeDiscogsForAll:
            guard !conflicts.isEmpty else { return [] }
            state.confirmAll = action == .keepCratesForAll ? .crates : .discogs
        case .open:
            guard conflicts.indices.contains(state.selected) else { return [] }
            let id = conflicts[state.selected].recordID
            mode = .details(DetailsState(recordID: id, details: nil, scroll: 0))
            return [.session(.loadDetails(id))]
        default:
            if let commands = viewCommonKey(action) { return commands }
        }
        mode = .conflicts(state)
        keepConflictVisible()
        return []
    }

    private mutating func settle(_ recordIDs: [Int64], toward side: SyncPreference, _ state: inout ConflictsState) -> [AppCommand] {
        state.settling = true
        mode = .conflicts(state)
        let copies = recordIDs.count == 1 ? "this copy" : "\(recordIDs.count) copies"
        say(side == .crates ? "Sending crates' values of \(copies) to Discogs…" : "Taking Discogs' values of \(copies)…")
        return [.session(.settleConflicts(recordIDs: recordIDs, toward: side))]
    }

    /// The lines of the view below its heading: per copy, its title, then one line per field
    /// in conflict (`ConflictLayout`), wrapped to the width.
    func conflictLines(_ conflicts: [SyncCopyConflict]) -> [ConflictLayout.Line] {
        ConflictLayout(width: width).lines(conflicts)
    }

    /// Rows under the view's heading (its two lines and the columns' names).
    var conflictsHeight: Int { max(1, listHeight - 3) }

    /// Scrolls so that the selected copy's lines are on screen (its title first).
    mutating func keepConflictVisible() {
        guard case .conflicts(var state) = mode, let conflicts = state.conflicts else { return }
        let lines = conflictLines(conflicts)
        guard let first = lines.firstIndex(where: { $0.copy == state.selected }) else {
            state.scroll = 0
            mode = .conflicts(state)
            return
        }
        let end = (lines.lastIndex { $0.copy == state.selected } ?? first) + 1
        if end > state.scroll + conflictsHeight { state.scroll = end - conflictsHeight }
        if first < state.scroll { state.scroll = first }
        state.scroll = max(0, min(state.scroll, lines.count - conflictsHeight))
        mode = .conflicts(state)
    }
}

/// How the conflicts view lays a copy out: its title, then per field the field's name,
/// crates' value and Discogs' value in three columns, a long value (a note) wrapped within
/// its column.
struct ConflictLayout {
    struct Line: Equatable {
        /// The index of the copy the line belongs to.
        var copy: Int
        var isTitle: Bool
        /// A title's text; a field's three cells.
        var cells: [String]
    }

    var width: Int

    /// The columns' starts and widths: the field's name, crates', Discogs'.
    var columns: [(start: Int, width: Int)] {
        let name = 18
        let value = max(4, (width - 4 - name - 2) / 2)
        return [(4, name), (4 + name + 1, value), (4 + name + 1 + value + 1, value)]
    }

    func lines(_ conflicts: [SyncCopyConflict]) -> [Line] {
        var lines: [Line] = []
        for (index, conflict) in conflicts.enumerated() {
            lines.append(Line(copy: index, isTitle: true, cells: [ControlCharacters.cleaned(conflict.title)]))
            for field in conflict.fields {
                let cells = [
                    [field.field.label], TerminalText.wrapped(field.field.shown(field.crates), to: columns[1].width),
                    TerminalText.wrapped(field.field.shown(field.discogs), to: columns[2].width),
                ]
                let count = cells.map(\.count).max() ?? 1
                for row in 0..<count {
                    lines.append(Line(copy: index, isTitle: false, cells: cells.map { row < $0.count ? $0[row] : "" }))
                }
            }
        }
        return lines
    }
}
