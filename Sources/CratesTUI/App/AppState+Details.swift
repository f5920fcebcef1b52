import CratesCore

/// Keys in a record's details.
extension AppState {
    mutating func detailsKey(_ key: Key, _ state: DetailsState) -> [AppCommand] {
        if let picker = state.picker { return gradePickerKey(key, picker, state) }
        guard let action = KeyMap.action(for: key, in: .details) else { return [] }
        var state = state
        // Kept within the lines: past their end, k would first have to walk back over nothing.
        let last = state.details.map { detailsLayout($0).lastScroll } ?? 0
        let scrolled = { (to: Int) in min(last, max(0, to)) }
        switch action {
        case .moveDown: state.scroll = scrolled(state.scroll + 1)
        case .moveUp: state.scroll = scrolled(state.scroll - 1)
        case .pageDown: state.scroll = scrolled(state.scroll + listHeight - 1)
        case .pageUp: state.scroll = scrolled(state.scroll - (listHeight - 1))
        case .top: state.scroll = 0
        case .bottom: state.scroll = last
        case .back, .quit:
            mode = .list
            return drainQueuedScans()
        case .delete:
            let label = state.details.map(\.displayTitle) ?? "this record"
            confirmDelete = ConfirmDelete(ids: [state.recordID], label: label)
            return []
        case .openInBrowser:
            guard let url = state.details?.release?.url else {
                say("No Discogs page yet: the record is not matched", isError: true)
                return []
            }
            return [.session(.openURL(url))]
        case .retry:
            if state.details?.record.lookupState == .handEntered {
                say("Entered by hand: never looked up (s searches Discogs to link it)")
                return []
            }
            say(retrySaid(state.details?.record.subject ?? "the record"))
            return [.session(.retry(state.recordID)), .session(.loadDetails(state.recordID))]
        case .open:
            if let details = state.details, details.record.lookupState == .ambiguous {
                mode = .picker(PickerState(
                    recordID: details.record.id, subject: details.record.subject, candidates: details.record.candidates,
                    loading: false, back: .details(details.record.id)))
                return []
            }
        case .search:
            // For this record, whatever its state: a wrong match is set right this way too.
            return openForm(.search(recordID: state.recordID), details: state.details, back: .details(state.recordID))
        case .edit:
            return openForm(.edit(recordID: state.recordID), details: state.details, back: .details(state.recordID))
        case .enterByHand: return enterByHand(from: state)
        case .help: mode = .help(scroll: 0)
            return []
        case .redraw: return [.redraw]
        case .mediaGrade, .sleeveGrade, .rate:
            openGradePicker(action, state)
            return []
        case .conflicts:
            return openConflicts()
        case .covers: toggleCovers()
        default: break
        }
        mode = .details(state)
        return []
    }
}
