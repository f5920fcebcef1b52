import CratesCore

extension AppState {
    /// `N`: the walk through every record that needs a person, oldest first.
    mutating func openNeeds() -> [AppCommand] {
        walk = NeedsWalk()
        mode = .needs
        return [.session(.loadNeedsPerson)]
    }

    /// The list came: the walk goes on with the first record after the one handled last.
    mutating func applyNeeds(_ ids: [Int64]) -> [AppCommand] {
        guard var walk else { return [] }
        walk.ids = ids
        walk.loading = false
        walk.current = ids.first { $0 > walk.after }
        walk.details = nil
        self.walk = walk
        return walk.current.map { [.session(.loadDetails($0))] } ?? []
    }

    /// A record's details came: the walk's current record shows them.
    mutating func applyNeedsDetails(_ details: RecordDetails) {
        guard var walk, walk.current == details.record.id else { return }
        walk.details = details
        self.walk = walk
    }

    mutating func needsKey(_ key: Key) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .needs) else {
            if case .character(let c) = key { say("\(c): no such key here (? for help)") }
            return []
        }
        guard var walk else { return [] }
        let details = walk.details
        switch action {
        case .back, .quit:
            self.walk = nil
            mode = .list
            return drainQueuedScans()
        case .leave:
            guard let current = walk.current else { return [] }
            walk.after = current
            walk.left += 1
            walk.current = walk.ids.first { $0 > current }
            walk.details = nil
            self.walk = walk
            return walk.current.map { [.session(.loadDetails($0))] } ?? []
        case .open:
            guard let details else { return [] }
            let record = details.record
            if record.lookupState == .ambiguous, !record.candidates.isEmpty {
                mode = .picker(PickerState(
                    recordID: record.id, subject: record.subject, candidates: record.candidates, loading: false, back: .needs))
                return []
            }
            // Nothing to choose from: search for it.
            return openForm(.search(recordID: record.id), details: details, back: .needs)
        case .search:
            guard let details else { return [] }
            return openForm(.search(recordID: details.record.id), details: details, back: .needs)
        case .enterByHand:
            guard let details else { return [] }
            return openForm(.handEntry(recordID: details.record.id), details: details, back: .needs)
        case .edit:
            guard let details else { return [] }
            return openForm(.edit(recordID: details.record.id), details: details, back: .needs)
        case .retry:
            guard let current = walk.current else { return [] }
            say(retrySaid(details?.record.subject ?? "the record"))
            walk.after = current
            walk.loading = true
            self.walk = walk
            return [.session(.retry(current)), .session(.loadNeedsPerson)]
        case .help:
            mode = .help(scroll: 0)
        case .redraw:
            return [.redraw]
        default:
            break
        }
        return []
    }
}
