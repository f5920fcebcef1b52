import CratesCore

extension AppState {
    /// A form: its title, one line per field ("Artist       Pink Floyd"), the focused one
    /// with the cursor, the collector's values of an edit marked, and why the last send was
    /// refused.
    func renderForm(_ form: FormState, into screen: inout Screen) {
        screen.put(form.title, row: 1, column: 1, style: .title)
        if form.loading {
            screen.put("Loading…", row: 3, column: 2, style: .dim)
            return
        }
        let labelWidth = 15
        let editing: Bool = if case .edit = form.purpose { true } else { false }
        for (index, field) in form.fields.enumerated() {
            let row = 3 + index
            guard row < height - 4 else { break }
            let focused = index == form.focused
            let marker = editing && field.isCollectors ? "*" : " "
            screen.put(TerminalText.fitted(field.key.label, to: labelWidth - 2) + marker, row: row, column: 1, style: focused ? .prompt : .dim)
            let column = labelWidth + 1
            let end = screen.put(field.text, row: row, column: column, style: focused ? .selected : .normal, limit: max(1, width - column - 1))
            if focused { screen.cursor = Screen.Position(row: row, column: min(end, width - 1)) }
        }
        var row = 4 + form.fields.count
        if editing, row < height - 3 {
            screen.put("* your own value (empty it to give it back to Discogs)", row: row, column: 1, style: .dim)
            row += 1
        }
        if row < height - 3 {
            screen.put("Tab: next field · Enter: \(form.submitLabel) · Esc: cancel", row: row, column: 1, style: .dim)
            row += 1
        }
        if let error = form.error, row < height - 2 {
            screen.put(error, row: row + 1, column: 1, style: .error)
            row += 2
        }
        if let preview = form.preview, form.error == nil { renderPreview(preview, from: row + 1, into: &screen) }
    }

    /// What the local catalogue has for the search as typed: how many, and the first few
    /// (Enter lists them all in the picker).
    private func renderPreview(_ preview: ReleaseSearchAnswer, from first: Int, into screen: inout Screen) {
        guard first < height - 2 else { return }
        let edition = preview.catalogue.map { "the catalogue of \($0)" } ?? "the catalogue"
        if preview.candidates.isEmpty {
            screen.put("Nothing in \(edition): Enter asks Discogs", row: first, column: 1, style: .dim)
            return
        }
        let count = preview.isComplete ? "\(preview.candidates.count)" : "\(preview.candidates.count)+"
        screen.put("\(count) in \(edition): Enter to choose", row: first, column: 1, style: .pending)
        var row = first + 1
        for candidate in preview.candidates {
            guard row < height - 2 else { break }
            let facts = [candidate.catno, candidate.year.map(String.init), candidate.country].compactMap { $0 }.joined(separator: ", ")
            let text = "\(candidate.artist) — \(candidate.title)" + (facts.isEmpty ? "" : "  (\(facts))")
            screen.put(ControlCharacters.cleaned(text), row: row, column: 3, style: .normal, limit: max(1, width - 4))
            row += 1
        }
    }
}
