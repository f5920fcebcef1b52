import CratesCore

extension AppState {
    func renderDetails(_ state: DetailsState, into screen: inout Screen) {
        // The cover beside the text (or above it), drawn as soon as it comes: the details
        // never wait for it.
        let box = detailsCoverBox
        if let box { renderCover(detailsCover(state, box), in: box, into: &screen) }
        let right = box.map { $0.beside ? $0.column - 1 : width } ?? width
        let top = box.map { $0.beside ? 1 : $0.row + $0.rows + 1 } ?? 1
        guard let details = state.details else {
            screen.put("Loading…", row: top + 1, column: 2, style: .dim, limit: right - 2)
            return
        }
        let labelWidth = DetailsLayout.labelWidth
        let layout = detailsLayout(details)
        let lines = layout.lines
        let scroll = max(0, min(state.scroll, layout.lastScroll))
        for (offset, shown) in lines.dropFirst(scroll).prefix(layout.visible).enumerated() {
            let row = top + offset
            let line = shown.line
            if line.label.isEmpty && !line.indented {
                screen.put(shown.text, row: row, column: 1, style: line.style, limit: right - 1)
            } else {
                if shown.first { screen.put(line.label, row: row, column: 1, style: .dim, limit: labelWidth) }
                let column = min(right - 1, labelWidth + 2)
                screen.put(shown.text, row: row, column: column, style: line.style, limit: right - column)
                if shown.first, line.label == "Discogs", let url = details.release?.url, right > column {
                    screen.hyperlink = Screen.Hyperlink(url: url, row: row, column: column, text: TerminalText.truncated(url, to: right - column))
                }
            }
        }
        if let picker = state.picker { renderGradePicker(picker, into: &screen) }
    }

    /// The details' lines as drawn beside (or under) the cover, and how many show at once.
    func detailsLayout(_ details: RecordDetails) -> DetailsLayout {
        let box = detailsCoverBox
        let right = box.map { $0.beside ? $0.column - 1 : width } ?? width
        let top = box.map { $0.beside ? 1 : $0.row + $0.rows + 1 } ?? 1
        // Long values wrap onto the lines below (under the value, not the label), so a long
        // title or note is read whole; the Discogs address stays one line (it is a link).
        var lines: [DetailsLayout.Row] = []
        var shownLines = details.lines
        // How many copies of this release the collection holds, and the wantlist, under the
        // title (the marks the session read for it).
        if let id = details.release?.id, let mark = releaseMarks[id] {
            var extra: [RecordDetails.Line] = []
            if mark.copies > 1 {
                let place = mark.place.map { "; the first in \($0)" } ?? ""
                extra.append(RecordDetails.Line(label: "Copies", value: "\(mark.copies) of this release\(place)", style: .pending))
            }
            if mark.wanted { extra.append(RecordDetails.Line(label: "Wantlist", value: "this release is on your wantlist", style: .pending)) }
            shownLines.insert(contentsOf: extra, at: min(2, shownLines.count))
        }
        for line in shownLines {
            let column = line.label.isEmpty && !line.indented ? 1 : min(right - 1, DetailsLayout.labelWidth + 2)
            let parts = line.label == "Discogs" ? [line.value] : TerminalText.wrapped(line.value, to: max(1, right - column - 1))
            for (index, part) in parts.enumerated() { lines.append(.init(line: line, text: part, first: index == 0)) }
        }
        return DetailsLayout(lines: lines, visible: max(1, listHeight - (top - 1)))
    }

    func renderPicker(_ state: PickerState, into screen: inout Screen) {
        let shown = state.shown
        let header: String
        if state.search != nil {
            let cost = state.requests == 1 ? "1 request" : "\(state.requests) requests"
            let verb = state.recordID == nil ? "Enter adds" : "Enter chooses"
            header = state.loading
                ? "Searching Discogs for \(state.subject)…"
                : "\(state.candidates.count) found for \(state.subject) (\(cost)): type to narrow, \(verb)"
        } else {
            header = "\(state.candidates.count) pressings share \(state.subject): type to narrow, Enter chooses"
        }
        screen.put(header, row: 1, column: 1, style: .title)
        if state.loading {
            screen.put(state.search != nil ? "Waiting for Discogs…" : "Loading…", row: 3, column: 2, style: .dim)
            return
        }
        if !state.filter.isEmpty {
            let end = screen.put("Narrow: ", row: 2, column: 1, style: .dim)
            let textEnd = screen.put(state.filter, row: 2, column: end, style: .prompt)
            screen.put("  \(shown.count) of \(state.candidates.count)", row: 2, column: textEnd, style: .dim)
        }
        if shown.isEmpty {
            screen.put("No pressing matches \"\(state.filter)\": Backspace to widen, Esc to clear", row: 3, column: 2, style: .dim)
            return
        }
        // "Artist — Title", then country · year · format · label · catno; with thumbnails,
        // beside each pressing's cover (`pickerLayout`).
        let layout = pickerLayout
        let colours = coverColours
        let left = layout.thumbnails ? Self.pickerTextLeft : 1
        let page = pickerPage(state, layout)
        for index in page {
            let candidate = shown[index]
            let row = 3 + (index - page.lowerBound) * layout.block
            let selected = index == state.selected
            let textRows = layout.thumbnails ? Self.pickerThumbRows : 2
            if selected {
                for offset in 0..<textRows { screen.fill(row: row + offset, style: .selected) }
            }
            let titleEnd = screen.put("\(index + 1). \(candidate.displayTitle)", row: row, column: left, style: selected ? .selected : .normal)
            // Owned (how many, where the first is) or wanted: said beside the pressing.
            if let mark = releaseMarks[candidate.releaseID]?.text {
                screen.put("  [\(mark)]", row: row, column: titleEnd, style: selected ? .selected : .pending, limit: max(0, width - titleEnd - 1))
            }
            // What tells pressings apart first (what the narrowing reads: country, year, label,
            // catalogue number); the formats, long and often the same for all, last, where an
            // edge cuts them.
            let facts = [candidate.country, candidate.year.map(String.init), candidate.label, candidate.catno, candidate.formats.joined(separator: ", ")]
                .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
            screen.put("   " + facts, row: row + 1, column: left, style: selected ? .selected : .dim)
            guard layout.thumbnails, let colours else { continue }
            let cover = covers[pickerCoverRequest(candidate, colours)] ?? .loading
            renderPickerThumbnail(cover, row: row, column: 1, into: &screen)
            if selected, case .placeholder(let reason) = cover, !reason.isEmpty {
                screen.put("   cover: " + reason, row: row + 2, column: left, style: .selected)
            }
        }
    }

    func renderHelp(scroll: Int, into screen: inout Screen) {
        let lines = HelpText.lines(width: width)
        let visible = listHeight
        let scroll = max(0, min(scroll, lines.count - visible))
        for (offset, line) in lines.dropFirst(scroll).prefix(visible).enumerated() {
            screen.put(line.text, row: 1 + offset, column: 1, style: line.isHeading ? .header : .normal)
        }
    }
}

/// A record's details in screen lines: long values wrapped, and the window they scroll in.
struct DetailsLayout {
    struct Row {
        var line: RecordDetails.Line
        var text: String
        /// The value's first line (its label is drawn beside it).
        var first: Bool
    }

    static let labelWidth = 12

    var lines: [Row]
    /// Lines shown at once.
    var visible: Int

    /// The scroll that puts the last line at the foot (0 when all fit).
    var lastScroll: Int { max(0, lines.count - visible) }
}

/// The help screen, generated from `KeyMap.bindings`.
enum HelpText {
    struct Line {
        var text: String
        var isHeading: Bool
    }

    /// The help in lines that fit `width` (drawn from column 1): a text too long for a line
    /// goes on under itself, never cut, so that a narrow terminal shows every word.
    static func lines(width: Int) -> [Line] {
        // Column 1 to the one before the last; at least 24 columns, below which a line would
        // hold a word or two (a terminal that narrow cuts the lines instead).
        let room = max(24, width - 2)
        var lines: [Line] = []
        func add(_ text: String, indent: Int, first: String? = nil) {
            let wrapped = TerminalText.wrapped(text, to: room - indent)
            for (index, piece) in wrapped.enumerated() {
                let lead = index == 0 ? (first ?? String(repeating: " ", count: indent)) : String(repeating: " ", count: indent)
                lines.append(Line(text: lead + piece, isHeading: false))
            }
        }
        add("Scanning: type or scan digits and Enter in the list; no key needed first.", indent: 0)
        for context in KeyContext.allCases {
            lines.append(Line(text: "", isHeading: false))
            lines.append(Line(text: context.rawValue, isHeading: true))
            if let note = context.note { add(note, indent: 2) }
            for binding in KeyMap.bindings where binding.contexts.contains(context) {
                let keys = binding.keys.map(\.label).joined(separator: " ")
                add(binding.help, indent: 21, first: "  " + TerminalText.fitted(keys, to: 18) + " ")
            }
        }
        return lines
    }
}

extension RecordDetails {
    struct Line {
        var label: String
        var value: String
        var style: Style = .normal
        /// A line of its own under the value column (no label): the Discogs value of the
        /// field above.
        var indented = false
    }

    /// Every field the store has, in reading order. The collector's own values are shown,
    /// marked "yours" (with Discogs' value beside when it differs).
    var lines: [Line] {
        var lines: [Line] = []
        let release = self.release
        let collector = record.collector
        lines.append(Line(label: "", value: displayTitle, style: .title))
        lines.append(Line(label: "", value: ""))
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { lines.append(Line(label: label, value: value)) }
        }
        let discogs = release.map(RecordFields.init(release:)) ?? .none
        /// The collector's value of `field`, marked, or nil when Discogs' value stands.
        func own(_ field: RecordField) -> String? {
            guard let value = collector[field] else { return nil }
            guard let theirs = discogs[field], theirs != value else { return "\(value)  (yours)" }
            return "\(value)  (yours; Discogs: \(theirs))"
        }
        add("Artist", own(.artist) ?? release?.artist)
        add("Title", own(.title) ?? release?.title)
        add("Genres", own(.genre) ?? release?.genres.joined(separator: ", "))
        add("Styles", release?.styles.joined(separator: ", "))
        add("Formats", own(.format) ?? release?.formats.joined(separator: "; "))
        add("Year", own(.year) ?? release?.year.map(String.init))
        add("Country", own(.country) ?? release?.country)
        if collector.label != nil || collector.catno != nil || release == nil {
            add("Label", own(.label) ?? discogs.label)
            add("Catalogue", own(.catno) ?? discogs.catno)
        } else if let release {
            for (i, label) in release.labels.enumerated() {
                add(i == 0 ? "Labels" : "", label.catno.map { "\(label.name) – \($0)" } ?? label.name)
            }
            if !release.hasFullDetails {
                // Matched from its barcode search result, or from the local catalogue; the
                // session fetches the rest now.
                let from = record.lookupState == .matched ? record.catalogueEdition?.source : nil
                add("Details", "\(from ?? "from the barcode search"); the full release (tracklist, notes) is on its way from Discogs")
            }
        }
        add("Barcode", record.gtin.map { "\($0.printedForm) (\(BarcodeDescription.of($0)))" } ?? "none")
        // A record waiting for Discogs says which catalogue did not know it.
        let waiting = [.pending, .lookingUp].contains(record.lookupState) ? record.catalogueEdition?.waitingForDiscogs : nil
        let detail = record.lookupError ?? record.skipReason ?? waiting
        add("Lookup", detail.map { "\(record.lookupState.label): \($0)" } ?? record.lookupState.label)
        if record.lookupState == .notFound {
            // What a collector can do next, as the walk through `N` offers it.
            add("Next", "s: search Discogs by artist or title · m: enter it by hand")
        }
        if record.lookupState == .matched, let edition = record.catalogueEdition {
            // How it was matched, which the full details fetched later do not change.
            add("Matched", edition.source)
        }
        if record.lookupState == .failed, let retry = record.retryAt {
            add("Retry", "not before \(DateText.short(retry))")
        }
        add("Discogs", release?.url)
        add("Added", "\(DateText.short(record.addedAt)), \(record.addMethod.label)")
        add("Location", record.location?.display)
        add("Copy label", LabelCode(kind: .copy, id: Int(record.id))?.digits)
        // Under each value the Discogs copy holds otherwise: "Discogs: ★★ (yours ★★★★)".
        let differences = self.discogs?.differences(from: SyncedValues(grading: record.grading, note: record.note)) ?? []
        func discogsValue(_ field: SyncField) {
            guard let difference = differences.first(where: { $0.field == field }) else { return }
            let next = difference.isConflict ? "a conflict: C chooses" : "the next sync (S) sends yours"
            lines.append(Line(label: "", value: "\(difference.text) · \(next)", style: difference.isConflict ? .pending : .dim, indented: true))
        }
        add("Note", record.note)
        discogsValue(.notes)
        // The key that changes a value is said as a key, apart from the value: a bare "(M)"
        // after a grade read as the grade "Mint (M)".
        add("Media", (record.grading.media?.rawValue ?? "not graded") + "  · M to change")
        discogsValue(.media)
        add("Sleeve", (record.grading.sleeve?.rawValue ?? "not graded") + "  · V to change")
        discogsValue(.sleeve)
        add("Rating", record.grading.rating.stars + "  · * to change")
        discogsValue(.rating)
        add("Collection", collectionText)
        add("Value", value.flatMap { $0.figure.detailsText(currency: $0.currency) })
        if record.lookupState == .ambiguous, !record.candidates.isEmpty {
            lines.append(Line(label: "", value: ""))
            let what = record.gtin == nil ? "pressings fit" : "pressings share this barcode"
            lines.append(Line(label: "", value: "\(record.candidates.count) \(what): Enter to choose", style: .pending))
        }
        if !history.isEmpty {
            lines.append(Line(label: "", value: ""))
            lines.append(Line(label: "", value: "Lookup history", style: .header))
            for event in history { lines.append(Line(label: "", value: "\(DateText.short(event.at))  \(event.message)")) }
        }
        return lines.map {
            Line(label: ControlCharacters.cleaned($0.label), value: ControlCharacters.cleaned($0.value), style: $0.style, indented: $0.indented)
        }
    }
}

extension RecordDetails {
    /// Where the copy stands with the Discogs collection: "on Discogs, in \"Vinyl\"",
    /// "removed on Discogs", "not on Discogs yet (S syncs)", and how many copies of its
    /// release Discogs has.
    var collectionText: String? {
        var parts: [String] = []
        if let link = discogs {
            parts.append(link.removedOnDiscogs ? "removed on Discogs" : "on Discogs, " + link.summary)
        } else if release != nil {
            parts.append("not on Discogs yet (S syncs)")
        }
        if discogsCopies > 1 || (discogsCopies == 1 && discogs == nil) {
            parts.append("\(discogsCopies == 1 ? "1 copy" : "\(discogsCopies) copies") of this release on Discogs")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

extension AddMethod {
    var label: String {
        switch self {
        case .typed: return "typed"
        case .wedge: return "scanned (keyboard scanner)"
        case .camera: return "scanned (camera)"
        case .import: return "imported"
        case .releaseID: return "added by Discogs release id"
        case .manual: return "entered by hand"
        case .search: return "found by search"
        case .discogs: return "pulled from your Discogs collection"
        }
    }
}

extension LookupState {
    var label: String {
        switch self {
        case .pending: return "waiting"
        case .lookingUp: return "looking up"
        case .matched: return "matched"
        case .ambiguous: return "several pressings"
        case .notFound: return "no match on Discogs"
        case .failed: return "failed"
        case .skipped: return "not looked up"
        case .handEntered: return "entered by hand: never looked up (s links it to Discogs)"
        }
    }
}
