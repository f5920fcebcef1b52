import CratesCore
import Foundation

/// Check mode's screens: the fair's list (every code checked, newest first, each with its
/// verdict) and one code's verdict, its coloured line first, then each pressing with what
/// the collection, the wantlist and the price cache say of it.
extension AppState {
    static func style(of verdict: CheckVerdict) -> Style {
        switch verdict {
        case .owned: .verdictOwned
        case .otherPressing: .verdictOtherPressing
        case .wanted: .verdictWanted
        case .new: .verdictNew
        case .unknown: .verdictUnknown
        }
    }

    /// "OWNED", "checking…", "REFUSED".
    static func verdictWord(_ entry: FairEntry) -> (String, Style) {
        switch entry.outcome {
        case nil: ("CHECKING", .pending)
        case .refused?: ("REFUSED", .error)
        case .answered(let answer)?: (answer.verdict.shout, style(of: answer.verdict))
        }
    }

    /// What a line of the fair's list says after the verdict: the release (or how many
    /// pressings), or why the code is unknown or refused.
    static func fairSummary(_ entry: FairEntry) -> String {
        switch entry.outcome {
        case nil: return "checking…"
        case .refused(_, let reason)?: return reason
        case .answered(let answer)?:
            if answer.releases.count > 1 {
                return "\(answer.releases.first?.displayTitle ?? ""): \(answer.releases.count) pressings"
            }
            if let release = answer.releases.first {
                let place = answer.owned.first?.place.map { " · in \($0)" } ?? ""
                return release.displayTitle + (release.pressing.isEmpty ? "" : " (\(release.pressing))") + place
            }
            return answer.note ?? ""
        }
    }

    func renderFair(_ state: FairState, into screen: inout Screen) {
        let header = fair.isEmpty
            ? "The fair's list is empty: scan or type a code (Enter). Nothing is added."
            : "The fair's list: \(fair.count) checked, newest first · Enter: verdict · b: bought · w: want · f: leave check mode"
        screen.put(header, row: 1, column: 1, style: .dim, limit: width - 2)
        let visible = max(1, listHeight - 1)
        for row in 0..<visible {
            let index = state.scroll + row
            guard fair.indices.contains(index) else { break }
            let entry = fair[index]
            let y = 2 + row
            let selected = index == state.selected
            if selected { screen.fill(row: y, style: .selected) }
            let (word, style) = Self.verdictWord(entry)
            let end = screen.put(" " + TerminalText.fitted(word, to: 14) + " ", row: y, column: 1, style: selected ? .selected : style)
            let codeEnd = screen.put(" " + TerminalText.fitted(entry.code, to: 15), row: y, column: end, style: selected ? .selected : .dim)
            screen.put(
                "  " + ControlCharacters.cleaned(Self.fairSummary(entry)), row: y, column: codeEnd, style: selected ? .selected : .normal,
                limit: max(0, width - codeEnd - 1))
        }
    }

    func renderVerdict(_ state: VerdictState, into screen: inout Screen) {
        guard let entry = fairEntry(state.serial) else { return }
        let (word, style) = Self.verdictWord(entry)
        // The verdict first, three lines of its colour, spaced out: read at arm's length.
        let spaced = word.map(String.init).joined(separator: " ")
        for row in 1...3 where row < height - 1 - bottomRows { screen.fill(row: row, style: style) }
        let column = max(1, (width - DisplayWidth.of(spaced)) / 2)
        screen.put(spaced, row: 2, column: column, style: style)
        screen.put(" " + entry.code, row: 1, column: 0, style: style, limit: width)
        var y = 5
        let bottom = height - 1 - bottomRows
        func line(_ text: String, indent: Int = 1, style: Style = .normal) {
            guard y < bottom else { return }
            screen.put(ControlCharacters.cleaned(text), row: y, column: indent, style: style, limit: max(0, width - indent - 1))
            y += 1
        }
        guard let outcome = entry.outcome else {
            line("Checking \(entry.code)…", style: .dim)
            return
        }
        let answer: CheckAnswer
        switch outcome {
        case .refused(_, let reason):
            line(reason, style: .error)
            line("Nothing was looked up.", style: .dim)
            return
        case .answered(let a): answer = a
        }
        if let note = answer.note { line(note, style: answer.verdict == .unknown ? .error : .dim) }
        if answer.unreachable, answer.verdict == .unknown { line("r looks it up again once Discogs can be reached.", style: .dim) }
        let releases = shownReleases(of: entry, state)
        if answer.releases.count > 1 {
            let narrowed = state.filter.isEmpty ? "" : " (narrowed by \"\(state.filter)\": \(releases.count))"
            line("\(answer.releases.count) pressings share this barcode\(narrowed): j/k choose, / narrows", style: .pending)
        }
        if state.filterEditing { line("/" + state.filter, style: .prompt) }
        for (index, release) in releases.enumerated() {
            let chosen = index == state.selected && releases.count > 1
            if y < bottom, releases.count > 1 {
                let tag = " " + TerminalText.fitted(release.verdict.shout, to: 14) + " "
                let end = screen.put(tag, row: y, column: 1, style: Self.style(of: release.verdict))
                screen.put(
                    " " + ControlCharacters.cleaned("\(release.pressing)  r\(release.id)"), row: y, column: end,
                    style: chosen ? .selected : .normal, limit: max(0, width - end - 1))
                y += 1
            }
            guard releases.count == 1 || index == state.selected else { continue }
            line(release.displayTitle + "  r\(release.id)", indent: 2, style: .title)
            if !release.pressing.isEmpty { line(release.pressing, indent: 4) }
            if let owned = answer.ownedSummary(of: release.id) { line("Owned: " + owned, indent: 4, style: .normal) }
            for other in answer.otherPressings where other.of == release.id {
                let differs = other.differences.isEmpty ? "" : " (\(other.differences.joined(separator: "; ")))"
                line("Another pressing owned: \(other.copy.summary) r\(other.copy.releaseID.map(String.init) ?? "?")\(differs)", indent: 4)
            }
            for want in answer.wanted where want.releaseID == release.id {
                var text = "On your wantlist"
                if want.rating.isRated { text += " " + want.rating.stars }
                if let notes = want.notes, !notes.isEmpty { text += ": " + notes }
                line(text, indent: 4)
            }
            line("Price: " + (release.price.map { $0.text(now: Date()) } ?? "not asked yet (p asks Discogs)"), indent: 4, style: .dim)
        }
        if answer.releases.isEmpty, let owned = answer.ownedSummary(of: nil) { line("Owned: " + owned, indent: 2) }
        line("")
        line("b: bought (add it) · w: want · x: off the wantlist · p: price · Esc: the fair's list", style: .dim)
    }

    func renderWantlist(_ state: WantlistState, into screen: inout Screen) {
        guard state.loaded else {
            screen.put("Loading…", row: 2, column: 2, style: .dim)
            return
        }
        guard !state.entries.isEmpty else {
            screen.put("The wantlist is empty.", row: 2, column: 2, style: .title)
            screen.put("Scan or type a code here to want it; S syncs it with your Discogs wantlist.", row: 4, column: 2, style: .dim)
            return
        }
        // What most needs saying first: a line cut at 80 columns loses the last hints, and
        // `?` lists every key.
        screen.put(
            "\(state.entries.count) wanted, \(wantOrder.described(reversed: wantReversed)) · scan to want · x: off the list · +/-: rating · p: prices · O R: order",
            row: 1, column: 1, style: .dim, limit: width - 2)
        let visible = max(1, listHeight - 1)
        let now = Date()
        for row in 0..<visible {
            let index = state.scroll + row
            guard state.entries.indices.contains(index) else { break }
            let listing = state.entries[index]
            let want = listing.want
            let y = 2 + row
            let selected = index == state.selected
            if selected { screen.fill(row: y, style: .selected) }
            if state.tags.contains(listing.id) { screen.put("*", row: y, column: 0, style: selected ? .selected : .header) }
            var text = want.displayTitle
            if !want.pressing.isEmpty { text += " (\(want.pressing))" }
            if want.rating.isRated { text += "  " + want.rating.stars }
            if let notes = want.notes, !notes.isEmpty { text += "  “\(notes)”" }
            let price = listing.price.map { $0.text(now: now) } ?? ""
            let priceWidth = min(DisplayWidth.of(price), width / 3)
            screen.put(ControlCharacters.cleaned(text), row: y, column: 2, style: selected ? .selected : .normal, limit: max(0, width - priceWidth - 5))
            if !price.isEmpty {
                screen.put(price, row: y, column: width - priceWidth - 1, style: selected ? .selected : .dim, limit: priceWidth)
            }
        }
    }
}
