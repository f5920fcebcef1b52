import CratesCore

/// The wantlist view (`w`): the releases the collector is looking for, with their notes,
/// rating and price; scan or type a code to want it; synced with the Discogs wantlist.
extension AppState {
    public struct WantlistState: Equatable, Sendable {
        /// The wantlist as shown, in the view's order (`wantOrder`).
        public var entries: [WantListing] = []
        /// The wantlist as the store gave it (by artist, then title), which `O` and `R`
        /// arrange again.
        var stored: [WantListing] = []
        public var loaded = false
        public var selected = 0
        public var scroll = 0
        /// The tagged releases (`t`, `T`; `U` clears): `x` and `+`/`-` take them all.
        public var tags: Set<Int> = []
    }

    mutating func openWantlist() -> [AppCommand] {
        mode = .wantlist(WantlistState())
        return [.session(.want(.load, recheck: nil))]
    }

    mutating func applyWantlist(_ entries: [WantListing]) {
        // The fair's verdicts follow the wantlist as it is now (a want added, taken off).
        let wanted = Dictionary(entries.map { ($0.id, $0.want) }, uniquingKeysWith: { a, _ in a })
        for index in fair.indices {
            guard case .answered(var answer)? = fair[index].outcome else { continue }
            answer.wanted = answer.releases.compactMap { wanted[$0.id] }
            answer.decide()
            fair[index].outcome = .answered(answer)
        }
        guard case .wantlist(var state) = mode else { return }
        let selectedID = state.entries.indices.contains(state.selected) ? state.entries[state.selected].id : nil
        state.stored = entries
        state.entries = wantOrder.arranged(entries, reversed: wantReversed)
        // Releases taken off (here, or by a sync) are tagged no longer.
        state.tags.formIntersection(entries.map(\.id))
        state.loaded = true
        state.selected = selectedID.flatMap { id in state.entries.firstIndex { $0.id == id } } ?? min(state.selected, max(0, entries.count - 1))
        mode = .wantlist(state)
    }

    mutating func wantlistKey(_ key: Key, _ state: WantlistState) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .wantlist) else {
            if case .character(let c) = key { say("\(c): no such key (? for help)") }
            return []
        }
        var state = state
        let count = state.entries.count
        let visible = max(1, listHeight - 1)
        let selected = state.entries.indices.contains(state.selected) ? state.entries[state.selected] : nil
        switch action {
        case .moveDown: state.selected = min(max(0, count - 1), state.selected + 1)
        case .moveUp: state.selected = max(0, state.selected - 1)
        case .pageDown: state.selected = min(max(0, count - 1), state.selected + visible)
        case .pageUp: state.selected = max(0, state.selected - visible)
        case .unwant where !state.tags.isEmpty:
            // Many at once, and no undo: asked first.
            let ids = state.tags.sorted()
            syncQuestion = SyncQuestion(
                text: "Take \(ids.count == 1 ? "1 tagged release" : "\(ids.count) tagged releases") off the wantlist?",
                yes: .want(.removeTagged(releaseIDs: ids), recheck: nil), declined: "Left on the wantlist")
        case .unwant:
            guard let selected else { return [] }
            return [.session(.want(.remove(releaseID: selected.id), recheck: nil))]
        case .rateUp, .rateDown:
            let taken = state.tags.isEmpty ? [selected].compactMap { $0 } : state.entries.filter { state.tags.contains($0.id) }
            return taken.map { entry in
                let rating = Rating(clamping: entry.want.rating.value + (action == .rateUp ? 1 : -1))
                return .session(.want(.rate(releaseID: entry.id, rating), recheck: nil))
            }
        case .tag:
            guard let selected else { return [] }
            if state.tags.remove(selected.id) == nil { state.tags.insert(selected.id) }
            state.selected = min(max(0, count - 1), state.selected + 1)
        case .tagShown:
            state.tags = Set(state.entries.map(\.id))
        case .untagAll:
            state.tags = []
        case .prices:
            return [.session(.want(.refreshPrices, recheck: nil))]
        case .sortOrder, .reverseOrder:
            if action == .sortOrder { wantOrder = wantOrder.next } else { wantReversed.toggle() }
            // Arranged again from the store's order, the selection kept.
            state.entries = wantOrder.arranged(state.stored, reversed: wantReversed)
            if let selected { state.selected = state.entries.firstIndex { $0.id == selected.id } ?? 0 }
            say("Wantlist \(wantOrder.described(reversed: wantReversed))")
        default:
            if let common = viewCommonKey(action) { return common }
        }
        if state.selected < state.scroll { state.scroll = state.selected }
        if state.selected >= state.scroll + visible { state.scroll = state.selected - visible + 1 }
        mode = .wantlist(state)
        return []
    }
}
