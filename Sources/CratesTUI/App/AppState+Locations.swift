import CratesCore

/// Places in the collection UI: the current place (set by scanning a place's
/// label, or by choosing it in the tree), the tree view (`L`), and leaving the place (Esc
/// in the list once the filter is clear).
extension AppState {
    /// The tree view's state.
    public struct LocationsState: Equatable, Sendable {
        /// Nil until the session's answer arrives.
        public var tree: LocationTree?
        /// The selected place's index in `tree.nodes`.
        public var selected: Int
        public var scroll: Int
        /// Opened to move these records (`p` in the list): Enter moves them to the place
        /// chosen, and the list comes back. Nil: the tree as a view.
        public var moving: [Int64]? = nil
    }

    mutating func handleLocationEvent(_ event: SessionEvent) -> [AppCommand] {
        switch event {
        case .location(let place):
            guard place != location else { return [] }
            enterLocation(place)
            if case .locations = mode { mode = .list }
        case .locations(let tree):
            guard case .locations(var state) = mode else { return [] }
            state.tree = tree
            if let current = location, let index = tree.nodes.firstIndex(where: { $0.id == current.id }) {
                state.selected = index
            }
            mode = .locations(state)
            keepTreeSelectionVisible()
        case .moved(let count, let to, let token):
            pushUndo(Undo(token: token, count: count))
            let place = to.map { "to \($0.name)" } ?? "out of its place"
            say(count == 1 ? "Moved \(place): u to undo" : "Moved \(count) records \(place): u to undo")
        case .select(let id):
            // As for an added record: selected once the list shows it.
            selectWhenSeen = id
            selectedRecord = id
            sentQuery = nil
            received = false
            say("Selected record \(id) (its copy label)")
        default:
            break
        }
        return []
    }

    /// Shows `place` (nil: the whole collection): the list is asked for again.
    mutating func enterLocation(_ place: Location?) {
        location = place
        sentQuery = nil
        received = false
        selectedLine = 0
        scrollTop = 0
        if let place {
            say("→ \(place.display): what you scan now goes here (Esc: every record)")
        } else {
            say("Every record")
        }
    }

    mutating func leaveLocation() -> [AppCommand] {
        enterLocation(nil)
        return [.session(.setLocation(nil))]
    }

    mutating func openLocations() -> [AppCommand] {
        mode = .locations(LocationsState(tree: nil, selected: 0, scroll: 0))
        return [.session(.loadLocations)]
    }

    mutating func locationsKey(_ key: Key, _ state: LocationsState) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .locations) else { return [] }
        var state = state
        let last = max(0, (state.tree?.nodes.count ?? 0) - 1)
        switch action {
        case .moveDown: state.selected = min(last, state.selected + 1)
        case .moveUp: state.selected = max(0, state.selected - 1)
        case .pageDown: state.selected = min(last, state.selected + listHeight - 1)
        case .pageUp: state.selected = max(0, state.selected - (listHeight - 1))
        case .top: state.selected = 0
        case .bottom: state.selected = last
        case .open:
            guard let tree = state.tree, tree.nodes.indices.contains(state.selected),
                  let place = tree.location(tree.nodes[state.selected].id) else { return [] }
            mode = .list
            if let ids = state.moving {
                say(ids.count == 1 ? "Moving 1 record to \(place.name)…" : "Moving \(ids.count) records to \(place.name)…")
                return [.session(.move(ids, to: place.id))] + drainQueuedScans()
            }
            if place != location { enterLocation(place) }
            return [.session(.setLocation(place.id))] + drainQueuedScans()
        default:
            if let commands = viewCommonKey(action) { return commands }
        }
        mode = .locations(state)
        keepTreeSelectionVisible()
        return []
    }

    /// Scrolls the tree so that its selection is on screen.
    mutating func keepTreeSelectionVisible() {
        guard case .locations(var state) = mode else { return }
        let visible = max(1, listHeight - 1)
        if state.selected < state.scroll { state.scroll = state.selected }
        if state.selected >= state.scroll + visible { state.scroll = state.selected - visible + 1 }
        mode = .locations(state)
    }
}
