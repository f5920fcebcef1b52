import CratesCore
import Foundation

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
        // An edit's fields outnumber a small screen's rows: they scroll with the cursor,
        // leaving room below for the hints and a refusal of two lines.
        let room = max(3, height - 11)
        let first = min(max(0, form.focused - room + 1), max(0, form.fields.count - room))
        let shown = form.fields.indices.dropFirst(first).prefix(room)
        for index in shown {
            let field = form.fields[index]
            let row = 3 + index - first
            let focused = index == form.focused
            let marker = editing && field.isCollectors ? "*" : " "
            screen.put(TerminalText.fitted(field.key.label, to: labelWidth - 2) + marker, row: row, column: 1, style: focused ? .prompt : .dim)
            let column = labelWidth + 1
            let end = screen.put(field.text, row: row, column: column, style: focused ? .selected : .normal, limit: max(1, width - column - 1))
            if focused { screen.cursor = Screen.Position(row: row, column: min(end, width - 1)) }
        }
        var row = 4 + shown.count
        if editing, row < height - 3 {
            let personal = form.fields.indices.contains(form.focused) && form.fields[form.focused].key.isPersonal
            let hint = personal
                ? "paid, bought, lent: kept here only (Discogs' collection has no such fields)"
                : "* your own value (empty it to give it back to Discogs)"
            screen.put(hint, row: row, column: 1, style: .dim, limit: max(1, width - 2))
            row += 1
        }
        if row < height - 3 {
            screen.put("Tab: next field · Enter: \(form.submitLabel) · Esc: cancel", row: row, column: 1, style: .dim)
            row += 1
        }
        if let genres = genresLine(form), row < height - 3 {
            screen.put(genres.text, row: row, column: 1, style: genres.style, limit: max(1, width - 2))
            row += 1
        }
        if let error = form.error, row < height - 2 {
            // Wrapped, not cut: what the field takes comes at the end of the message.
            row += 1
            for line in TerminalText.wrapped(error, to: max(1, width - 2)) where row < height - 1 - bottomRows {
                screen.put(line, row: row, column: 1, style: .error)
                row += 1
            }
        }
        if let preview = form.preview, form.error == nil { renderPreview(preview, from: row + 1, into: &screen) }
    }

    /// Under a focused genre field: the genres offered for what is typed ("Genres: Folk,
    /// World, & Country (Tab) · Pop"), or that what is typed makes a new section; nil for
    /// another field.
    private func genresLine(_ form: FormState) -> (text: String, style: Style)? {
        guard form.fields.indices.contains(form.focused), form.fields[form.focused].key == .genre else { return nil }
        let typed = form.fields[form.focused].text.trimmingCharacters(in: .whitespaces)
        let offered = form.genreSuggestions
        guard !offered.isEmpty else {
            return typed.isEmpty ? nil : ("“\(typed)” makes a new section: no genre you have, nor Discogs', begins so", .dim)
        }
        // The one Tab takes is marked where it is, before the line is cut at the width.
        var names = offered
        if form.genreCompletion != nil { names[0] += " (Tab)" }
        return ("Genres: " + names.joined(separator: " · "), .pending)
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
