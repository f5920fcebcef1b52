import CratesCore

extension AppState {
    func renderDetails(_ state: DetailsState, into screen: inout Screen) {
        guard let details = state.details else {
            screen.put("Loading…", row: 2, column: 2, style: .dim)
            return
        }
        let lines = details.lines
        let visible = listHeight
        let scroll = max(0, min(state.scroll, lines.count - visible))
        let labelWidth = 12
        for (offset, line) in lines.dropFirst(scroll).prefix(visible).enumerated() {
            let row = 1 + offset
            if line.label.isEmpty {
                screen.put(line.value, row: row, column: 1, style: line.style)
            } else {
                screen.put(line.label, row: row, column: 1, style: .dim, limit: labelWidth)
                let column = min(width - 1, labelWidth + 2)
                screen.put(line.value, row: row, column: column, style: line.style)
                if line.label == "Discogs", let url = details.release?.url, width > column {
                    screen.hyperlink = Screen.Hyperlink(url: url, row: row, column: column, text: TerminalText.truncated(url, to: width - column))
                }
            }
        }
    }

    func renderPicker(_ state: PickerState, into screen: inout Screen) {
        screen.put("\(state.candidates.count) pressings share \(state.gtin): choose one (Enter), o opens it", row: 1, column: 1, style: .title)
        if state.loading {
            screen.put("Loading…", row: 3, column: 2, style: .dim)
            return
        }
        // Two rows a candidate: "Artist — Title", then country · year · format · label · catno.
        let perPage = max(1, (listHeight - 2) / 2)
        let first = max(0, min(state.selected - perPage + 1, state.candidates.count - perPage)) > 0
            ? max(0, state.selected - perPage + 1) : 0
        for (offset, candidate) in state.candidates.dropFirst(first).prefix(perPage).enumerated() {
            let index = first + offset
            let row = 3 + offset * 2
            let selected = index == state.selected
            if selected {
                screen.fill(row: row, style: .selected)
                screen.fill(row: row + 1, style: .selected)
            }
            screen.put("\(index + 1). \(candidate.displayTitle)", row: row, column: 1, style: selected ? .selected : .normal)
            let facts = [candidate.country, candidate.year.map(String.init), candidate.formats.joined(separator: ", "), candidate.label, candidate.catno]
                .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
            screen.put("   " + facts, row: row + 1, column: 1, style: selected ? .selected : .dim)
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

/// The help screen, generated from `KeyMap.bindings`.
enum HelpText {
    struct Line {
        var text: String
        var isHeading: Bool
    }

    static func lines(width: Int) -> [Line] {
        var lines: [Line] = []
        lines.append(Line(text: "Scanning: type or scan digits and Enter in the list; no key needed first.", isHeading: false))
        for context in KeyContext.allCases {
            lines.append(Line(text: "", isHeading: false))
            lines.append(Line(text: context.rawValue, isHeading: true))
            for binding in KeyMap.bindings where binding.contexts.contains(context) {
                let keys = binding.keys.map(\.label).joined(separator: " ")
                lines.append(Line(text: "  " + TerminalText.fitted(keys, to: 18) + " " + binding.help, isHeading: false))
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
    }

    /// Every field the store has, in reading order.
    var lines: [Line] {
        var lines: [Line] = []
        let release = self.release
        let heading = release?.displayTitle ?? record.gtin.canonical
        lines.append(Line(label: "", value: heading, style: .title))
        lines.append(Line(label: "", value: ""))
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { lines.append(Line(label: label, value: value)) }
        }
        if let release {
            add("Artist", release.artist)
            add("Title", release.title)
            add("Genres", release.genres.joined(separator: ", "))
            add("Styles", release.styles.joined(separator: ", "))
            add("Formats", release.formats.joined(separator: "; "))
            add("Year", release.year.map(String.init))
            add("Country", release.country)
            for (i, label) in release.labels.enumerated() {
                add(i == 0 ? "Labels" : "", label.catno.map { "\(label.name) – \($0)" } ?? label.name)
            }
            if !release.hasFullDetails {
                // Matched from its barcode search result; the session fetches the rest now.
                add("Details", "from the barcode search; the full release (tracklist, notes) is on its way from Discogs")
            }
        }
        add("Barcode", "\(record.gtin.canonical) (\(BarcodeDescription.of(record.gtin)))")
        let detail = record.lookupError ?? record.skipReason
        add("Lookup", detail.map { "\(record.lookupState.label): \($0)" } ?? record.lookupState.label)
        if record.lookupState == .failed, let retry = record.retryAt {
            add("Retry", "not before \(DateText.short(retry))")
        }
        add("Discogs", release?.url)
        add("Added", "\(DateText.short(record.addedAt)), \(record.addMethod.label)")
        add("Location", record.location)
        add("Note", record.note)
        if record.lookupState == .ambiguous, !record.candidates.isEmpty {
            lines.append(Line(label: "", value: ""))
            lines.append(Line(label: "", value: "\(record.candidates.count) pressings share this barcode: Enter to choose", style: .pending))
        }
        if !history.isEmpty {
            lines.append(Line(label: "", value: ""))
            lines.append(Line(label: "", value: "Lookup history", style: .header))
            for event in history { lines.append(Line(label: "", value: "\(DateText.short(event.at))  \(event.message)")) }
        }
        return lines.map { Line(label: ControlCharacters.cleaned($0.label), value: ControlCharacters.cleaned($0.value), style: $0.style) }
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
        }
    }
}
