import CratesCore

extension AppState {
    /// Draws the whole UI into a new frame of the current size.
    public func render() -> Screen {
        var screen = Screen(width: width, height: height)
        guard width >= 10, height >= 4 else {
            screen.put("crates", row: 0, column: 0, style: .title)
            if height > 1 { screen.put("too small", row: 1, column: 0) }
            return screen
        }
        renderTitle(into: &screen)
        switch mode {
        case .list:
            renderList(into: &screen)
            if let grading = listGrading { renderGradePicker(grading.picker, into: &screen) }
        case .details(let state): renderDetails(state, into: &screen)
        case .picker(let state): renderPicker(state, into: &screen)
        case .help(let scroll): renderHelp(scroll: scroll, into: &screen)
        case .form(let form): renderForm(form, into: &screen)
        case .needs: renderNeeds(into: &screen)
        case .locations(let state): renderLocations(state, into: &screen)
        case .statistics(let state): renderStatistics(state, into: &screen)
        case .signIn(let state): renderSignIn(state, into: &screen)
        case .conflicts(let state): renderConflicts(state, into: &screen)
        case .fair(let state): renderFair(state, into: &screen)
        case .verdict(let state): renderVerdict(state, into: &screen)
        case .wantlist(let state): renderWantlist(state, into: &screen)
        case .loans(let state): renderLoans(state, into: &screen)
        case .refusals(let scroll): renderRefusals(scroll: scroll, into: &screen)
        }
        renderStatus(into: &screen)
        renderBottomLine(into: &screen)
        return screen
    }

    func renderTitle(into screen: inout Screen) {
        screen.fill(row: 0, style: .status)
        let title: String
        switch mode {
        case .list:
            // The order's name, unless it would leave no room for the keys' hint.
            let sorted = " crates\(placeTitle)\(facetTitle) · by \(orderText)"
            title = filter.isEmpty ? (DisplayWidth.of(sorted) + 30 <= width ? sorted : " crates" + placeTitle + facetTitle) : " crates\(placeTitle)\(facetTitle) · by \(orderText) · filter \"\(filter)\": \(list.filter == filter ? (list.filterError == nil ? "\(list.rowCount.grouped) found" : "not a query") : "searching…")"
        case .details(let state):
            // Which lines show, when they do not all fit (a long tracklist, credits, notes).
            if let details = state.details, case let layout = detailsLayout(details), layout.lastScroll > 0 {
                let first = min(state.scroll, layout.lastScroll)
                title = " crates · details \(first + 1)–\(first + layout.visible) of \(layout.lines.count)"
            } else {
                title = " crates · details"
            }
        case .picker: title = " crates · choose a pressing"
        case .help(let scroll):
            // Which lines show, when they do not all fit: the keys of the later views (places,
            // statistics) are below the first screen of a terminal of 24 lines.
            let count = HelpText.lines(width: width).count
            let first = min(scroll, helpLastScroll)
            title = count <= listHeight ? " crates · keys" : " crates · keys \(first + 1)–\(min(count, first + listHeight)) of \(count)"
        case .form(let form):
            switch form.purpose {
            case .search: title = " crates · search Discogs"
            case .handEntry: title = " crates · enter by hand"
            case .edit: title = " crates · edit"
            }
        case .needs: title = " crates · needs a person"
        case .locations(let state):
            title = state.moving.map { " crates · move \($0.count == 1 ? "1 record" : "\($0.count.grouped) records") to: choose a place (Enter)" }
                ?? " crates · places"
        case .statistics: title = " crates · statistics"
        case .signIn: title = " crates · sign in to Discogs"
        case .conflicts: title = " crates · conflicts with Discogs"
        case .fair: title = " crates · the fair's list"
        case .verdict: title = " crates · verdict"
        case .wantlist: title = " crates · wantlist"
        case .loans: title = " crates · loans"
        case .refusals: title = " crates · scans refused this session (\(refusals.count))"
        }
        var end = screen.put(title, row: 0, column: 0, style: .statusAccent)
        if checkMode {
            // Said plainly while it is on, whatever the view: scans add nothing.
            end = screen.put(" CHECK — scans add nothing ", row: 0, column: end + 1, style: .checkBanner)
        }
        // The tags and tag by scan, whatever the view: the actions of the list take them.
        // The wantlist's tags are its own (releases, not copies).
        var tagged = tags.count
        if case .wantlist(let state) = mode { tagged = state.tags.count }
        if tagged > 0 || tagByScan {
            let said = [tagged == 0 ? nil : "\(tagged.grouped) tagged", tagByScan ? "tag by scan" : nil].compactMap { $0 }
            end = screen.put(" " + said.joined(separator: " · ") + " ", row: 0, column: end + 1, style: .header)
        }
        // The longest hint that fits.
        let hints: [String]
        switch mode {
        case .list: hints = ["?:help a:add s:search /:filter q:quit ", "?:help a:add /:filter q:quit "]
        case .form: hints = ["Tab:next field Enter:send Esc:cancel ", "Esc:cancel "]
        case .signIn: hints = ["Enter:check Esc:cancel ", "Esc:cancel "]
        case .picker: hints = ["Esc:back F1:help "]
        case .help(let scroll) where scroll < helpLastScroll: hints = ["j Space:more Esc:back ", "Esc:back "]
        case .details(let state) where state.picker == nil && state.scroll < (state.details.map { detailsLayout($0).lastScroll } ?? 0):
            hints = ["j Space:more Esc:back ", "Esc:back "]
        default: hints = ["Esc:back ?:help "]
        }
        if let hint = hints.first(where: { end + DisplayWidth.of($0) + 1 <= width }) {
            screen.put(hint, row: 0, column: width - DisplayWidth.of(hint), style: .status)
        }
    }

    // MARK: The list

    func renderList(into screen: inout Screen) {
        let top = 1
        if list.lineCount == 0 {
            guard received else { return }
            // A filter the store could not answer says why, wrapped to the width: the term
            // and what its field takes.
            let refused = list.filter == filter ? list.filterError : nil
            let text = !filter.isEmpty
                ? refused.map { TerminalText.wrapped($0, to: max(10, width - 4)) + ["", "Esc clears the filter."] }
                    ?? ["Nothing matches \"\(filter)\".", "", "Esc clears the filter."]
                : location.map { ["Nothing in \($0.name) yet.", "", "Scan a record to put it here;", "Esc shows every record."] }
                ?? ["No records yet.", "", "Scan a barcode (or type one and press Enter),", "or press a to add one."]
            for (i, line) in text.enumerated() where top + 1 + i < height - 2 {
                screen.put(line, row: top + 1 + i, column: 2, style: i == 0 ? .title : .dim)
            }
            return
        }
        let columns = RowColumns.fitting(width)
        for row in 0..<listHeight {
            let index = scrollTop + row
            guard let line = list.line(index) else { break }
            let y = top + row
            switch line {
            case .header(let s):
                let section = list.sections[s]
                let end = screen.put(" \(section.name) ", row: y, column: 0, style: .header)
                screen.put("(\(section.count.grouped))", row: y, column: end, style: .dim)
            case .row(let r, _):
                let selected = index == selectedLine
                let base: Style = selected ? .selected : .normal
                if selected { screen.fill(row: y, style: .selected) }
                if let item = list.item(row: r), tags.contains(item.recordID) {
                    screen.put("*", row: y, column: 0, style: selected ? .selected : .header)
                }
                guard let item = list.item(row: r) else {
                    // Not fetched yet: the store answers within a frame or two.
                    screen.put("…", row: y, column: 2, style: selected ? .selected : .dim)
                    continue
                }
                // A row with nothing for the columns yet (not looked up) takes the whole line.
                let values = columns.shown.map { $0.field.value(item) }
                let shown = values.contains { !$0.isEmpty } ? columns.shown : []
                let mainWidth = width - 2 - (shown.isEmpty ? 0 : columns.width)
                let (text, note, noteStyle) = item.rowText(lookupsRunning: discogs.looksUp)
                var col = screen.put(text, row: y, column: 2, style: base, limit: mainWidth)
                if let note, col + 2 < 2 + mainWidth {
                    col = screen.put("  " + note, row: y, column: col, style: selected ? .selected : noteStyle, limit: 2 + mainWidth - col)
                }
                var x = width - columns.width
                for column in shown {
                    x += 1
                    screen.put(
                        TerminalText.fitted(column.field.value(item), to: column.width), row: y, column: x,
                        style: selected ? .selected : .dim)
                    x += column.width
                }
            }
        }
    }

    /// The columns right of a row's "Artist — Title": what tells two pressings apart
    /// (two copies of Rumours, UK K 56344 and US BSK 3010), as many as the width allows.
    /// From 60 columns the format and year; from 80 the catalogue number too (most are 10
    /// characters or fewer: "K 56344", "IMSP 020"); from 100 the country, and wider format
    /// and catalogue number columns. "Artist — Title" keeps at least about 60% of the line.
    struct RowColumns {
        enum Field {
            case format, year, catno, country

            func value(_ row: CollectionRow) -> String {
                switch self {
                case .format: row.formats ?? ""
                case .year: row.year.map(String.init) ?? ""
                case .catno: row.catno ?? ""
                case .country: row.country ?? ""
                }
            }
        }

        var shown: [(field: Field, width: Int)]

        /// The columns' width with a space before each.
        var width: Int { shown.reduce(0) { $0 + $1.width + 1 } + (shown.isEmpty ? 0 : 1) }

        static func fitting(_ width: Int) -> RowColumns {
            switch width {
            case ..<60: RowColumns(shown: [])
            case ..<80: RowColumns(shown: [(.format, 12), (.year, 4)])
            case ..<100: RowColumns(shown: [(.format, 10), (.year, 4), (.catno, 10)])
            default: RowColumns(shown: [(.format, 16), (.year, 4), (.country, 10), (.catno, 14)])
            }
        }
    }

    // MARK: Status and bottom line

    func renderStatus(into screen: inout Screen) {
        let row = height - 1 - bottomRows
        screen.fill(row: row, style: .status)
        // Each fact in a long and a short form, most important first.
        var parts: [(long: String, short: String)] = []
        // The current place first: it says where the next scan goes.
        if let location { parts.append(("→ \(location.display)", "→ \(location.name)")) }
        parts.append(
            ("\(list.totalRecords.grouped) \(list.totalRecords == 1 ? "record" : "records")", "\(list.totalRecords.grouped) rec"))
        if waiting > 0 { parts.append(("\(waiting.grouped) waiting", "\(waiting.grouped) wait")) }
        if let long = sync.text(secondsLeft: syncSecondsLeft), let short = sync.shortText { parts.append((long, short)) }
        parts.append((discogs.text, discogs.shortText))
        if camera != .noDaemon || cameraSeen, let long = camera.text, let short = camera.shortText { parts.append((long, short)) }
        // Too wide: the least important facts take their short forms first, so that on a
        // narrow terminal every fact still fits and the count stays readable longest.
        var forms = parts.map(\.long)
        var text = " " + forms.joined(separator: " · ")
        for index in parts.indices.reversed() where DisplayWidth.of(text) > width {
            forms[index] = parts[index].short
            text = " " + forms.joined(separator: " · ")
        }
        // Still too wide: the least important facts go, whole rather than cut mid-word.
        while DisplayWidth.of(text) > width, forms.count > 1 {
            forms.removeLast()
            text = " " + forms.joined(separator: " · ")
        }
        screen.put(text, row: row, column: 0, style: .status)
    }

    func renderBottomLine(into screen: inout Screen) {
        let row = height - 1
        // A refused scan over the rest, wrapped (`refusalLines`), until a person's key.
        for (index, line) in refusalLines.enumerated() {
            let at = row + 1 - bottomRows + index
            screen.fill(row: at, style: .normal)
            screen.put(line, row: at, column: 0, style: .error)
        }
        if let prompt {
            let label = "Add (barcode, r123 or release URL): "
            let labelEnd = screen.put(label, row: row, column: 0, style: .prompt)
            let textEnd = screen.put(prompt.text, row: row, column: labelEnd)
            // A refusal's reason is in the lines above (`refusalLines`), whole.
            if prompt.error == nil {
                screen.cursor = Screen.Position(row: row, column: min(textEnd, width - 1))
            }
            return
        }
        if filterEditing {
            let end = screen.put("/" + filter, row: row, column: 0, style: .prompt)
            screen.cursor = Screen.Position(row: row, column: min(end, width - 1))
            return
        }
        if let confirm = confirmDelete {
            screen.put("Delete \(confirm.label)? (y/N)", row: row, column: 0, style: .prompt)
            return
        }
        if let question = syncQuestion {
            // Under the sync's summary (`messageLines`), which stays in sight.
            for (index, line) in messageLines.enumerated() {
                screen.put(line, row: row + 1 - messageRows + index, column: 0, style: message?.isError == true ? .error : .normal)
            }
            screen.put("\(question.text) (y/N)", row: row, column: 0, style: .prompt)
            return
        }
        if let question = questions.first, questionsAnswerable {
            let more = questions.count > 1 ? "  (+\(questions.count - 1) more)" : ""
            screen.put("\(question.text) \(question.choices)\(more)", row: row, column: 0, style: .prompt)
            return
        }
        if let message {
            // Wrapped whole over the bottom lines (`messageLines`).
            for (index, line) in messageLines.enumerated() {
                screen.fill(row: row + 1 - messageRows + index, style: .normal)
                screen.put(line, row: row + 1 - messageRows + index, column: 0, style: message.isError ? .error : .normal)
            }
        }
    }
}

extension CollectionRow {
    /// The row's main text, and a short note after it for records that are not matched
    /// (the details view gives the whole story).
    /// `lookupsRunning`: whether this session looks records up now; if not, a waiting record
    /// says it waits rather than that it is being looked up.
    func rowText(lookupsRunning: Bool) -> (String, String?, Style) {
        switch lookupState {
        case .matched: return (displayTitle, nil, .normal)
        case .pending, .lookingUp:
            // The catalogue did not know it: said as everywhere else (`RecordStatusText`).
            if let edition = catalogueEdition { return (displayTitle, edition.waitingForDiscogs, .pending) }
            return (displayTitle, lookupsRunning ? "looking up…" : "waits for Discogs", .pending)
        case .notFound: return (displayTitle, "no match on Discogs", .dim)
        case .ambiguous: return (displayTitle, "\(candidateCount) pressings: press Enter to choose", .pending)
        case .failed:
            // A record the catalogue did not know, whose request to Discogs failed: it waits
            // for Discogs, as the README and the details say, rather than "lookup failed".
            if let edition = catalogueEdition { return (displayTitle, edition.waitingForDiscogs, .pending) }
            return (displayTitle, "lookup failed: will retry (Enter for details)", .error)
        case .skipped: return (displayTitle, "not looked up (Enter for why)", .dim)
        case .handEntered: return (displayTitle, "entered by hand", .dim)
        }
    }
}

extension Int {
    /// 12,345 — thousands grouped (`NumberText.grouped`).
    var grouped: String { NumberText.grouped(self) }
}
