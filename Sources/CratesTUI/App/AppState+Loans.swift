import CratesCore

/// The loans view (`B`): "who has my records?" Each copy out on loan, by borrower, with the
/// day it was lent and how long it has been out; Enter opens the copy, whose edit (`e`)
/// marks it returned.
extension AppState {
    public struct LoansState: Equatable, Sendable {
        public var listings: [LoanListing] = []
        public var loaded = false
        public var selected = 0
        public var scroll = 0
    }

    mutating func openLoans() -> [AppCommand] {
        mode = .loans(LoansState())
        return [.session(.loadLoans)]
    }

    mutating func applyLoans(_ listings: [LoanListing]) {
        guard case .loans(var state) = mode else { return }
        let selectedID = state.listings.indices.contains(state.selected) ? state.listings[state.selected].recordID : nil
        state.listings = listings
        state.loaded = true
        state.selected = selectedID.flatMap { id in listings.firstIndex { $0.recordID == id } }
            ?? min(state.selected, max(0, listings.count - 1))
        mode = .loans(state)
    }

    mutating func loansKey(_ key: Key, _ state: LoansState) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .loans) else {
            if case .character(let c) = key { say("\(c): no such key (? for help)") }
            return []
        }
        var state = state
        let last = max(0, state.listings.count - 1)
        let visible = loansHeight
        switch action {
        case .moveDown: state.selected = min(last, state.selected + 1)
        case .moveUp: state.selected = max(0, state.selected - 1)
        case .pageDown: state.selected = min(last, state.selected + visible)
        case .pageUp: state.selected = max(0, state.selected - visible)
        case .open:
            guard state.listings.indices.contains(state.selected) else { return [] }
            let id = state.listings[state.selected].recordID
            mode = .details(DetailsState(recordID: id, details: nil, scroll: 0))
            return [.session(.loadDetails(id))]
        default:
            if let common = viewCommonKey(action) { return common }
        }
        if state.selected < state.scroll { state.scroll = state.selected }
        if state.selected >= state.scroll + visible { state.scroll = state.selected - visible + 1 }
        mode = .loans(state)
        return []
    }

    /// Rows for copies, under the view's heading and its columns' names.
    var loansHeight: Int { max(1, listHeight - 2) }
}
