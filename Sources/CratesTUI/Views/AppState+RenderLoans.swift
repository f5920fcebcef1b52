import CratesCore
import Foundation

extension AppState {
    /// The loans: a heading that counts them, then one line per copy out: to whom, since
    /// when, how long, which record.
    func renderLoans(_ state: LoansState, into screen: inout Screen) {
        guard state.loaded else {
            screen.put("Loading…", row: 2, column: 2, style: .dim)
            return
        }
        guard !state.listings.isEmpty else {
            screen.put("Nothing is out on loan.", row: 2, column: 2, style: .title)
            screen.put("e in a record's details lends it (Lent to, Lent on); crates edit ID --lent-to NAME does too.", row: 4, column: 2, style: .dim, limit: max(1, width - 3))
            return
        }
        let people = Set(state.listings.map { TextFolding.fold($0.loan.to) }).count
        let copies = state.listings.count == 1 ? "1 copy" : "\(state.listings.count) copies"
        let heading = "\(copies) out with \(people == 1 ? "1 person" : "\(people) people") · Enter: the copy (e there marks it returned)"
        screen.put(heading, row: 1, column: 1, style: .dim, limit: max(1, width - 2))
        // The borrower's column as wide as the longest name, within a third of the screen.
        let names = state.listings.map { ControlCharacters.cleaned($0.loan.to) }
        let nameWidth = min(max(7, names.map(DisplayWidth.of).max() ?? 0), max(7, width / 3))
        let columns = (since: 2 + nameWidth + 2, out: 2 + nameWidth + 2 + 12, record: 2 + nameWidth + 2 + 12 + 10)
        screen.put("Lent to", row: 2, column: 2, style: .dim)
        screen.put("Since", row: 2, column: columns.since, style: .dim)
        screen.put("Out", row: 2, column: columns.out, style: .dim)
        screen.put("Record", row: 2, column: columns.record, style: .dim)
        let today = DayText.today()
        for row in 0..<loansHeight {
            let index = state.scroll + row
            guard state.listings.indices.contains(index) else { break }
            let listing = state.listings[index]
            let y = 3 + row
            let selected = index == state.selected
            let style: Style = selected ? .selected : .normal
            if selected { screen.fill(row: y, style: .selected) }
            screen.put(names[index], row: y, column: 2, style: style, limit: nameWidth)
            screen.put(listing.loan.since ?? "–", row: y, column: columns.since, style: style)
            screen.put(listing.timeOut(today: today) ?? "", row: y, column: columns.out, style: selected ? .selected : .dim)
            screen.put(ControlCharacters.cleaned(listing.title), row: y, column: columns.record, style: style, limit: max(1, width - columns.record - 1))
        }
    }
}
