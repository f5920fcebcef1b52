import CratesCore

extension AppState {
    /// The sign-in form: who is signed in, the token field (masked: one dot a character, and
    /// how many, so that a paste shows it came whole) or OAuth's page and code field, the
    /// keys that apply, and why the last send did not sign in.
    func renderSignIn(_ state: SignInState, into screen: inout Screen) {
        screen.put("Sign in to Discogs", row: 1, column: 1, style: .title)
        var row = 3
        let last = height - 3
        let textWidth = max(1, width - 2)
        func paragraph(_ text: String, style: Style) {
            for line in TerminalText.wrapped(text, to: textWidth) where row < last {
                screen.put(line, row: row, column: 1, style: style)
                row += 1
            }
        }
        guard let account = state.account else {
            screen.put("Loading…", row: row, column: 2, style: .dim)
            return
        }
        if let username = account.username, let kind = account.kind {
            paragraph("Signed in to Discogs as \(username) (\(kind)).", style: .normal)
            paragraph("To switch accounts, sign in as the other one here; Ctrl-X signs out.", style: .dim)
        } else if account.isSignedIn, let kind = account.kind {
            paragraph("Signed in to Discogs with a \(kind).", style: .normal)
            paragraph("To switch accounts, sign in as the other one here; Ctrl-X signs out.", style: .dim)
        } else if let problem = account.problem {
            paragraph("The saved credentials cannot be used: \(problem)", style: .error)
        } else {
            paragraph("Not signed in to Discogs: lookups wait until you are.", style: .normal)
        }
        row += 1
        let labelWidth = 15
        var field: (label: String, shown: String)?
        switch state.route {
        case .token:
            paragraph(
                "Paste a personal access token: make one at https://www.discogs.com/settings/developers (\"Generate new token\").",
                style: .dim)
            let count = state.text.count
            let dots = String(repeating: "•", count: min(count, max(0, width - labelWidth - 22)))
            field = ("Token", count == 0 ? "" : "\(dots) (\(count == 1 ? "1 character" : "\(count) characters"))")
        case .oauth:
            if let page = state.page {
                paragraph(page.opened ? "Opened in your browser; if it is not there, open this page:" : "Open this page, sign in to Discogs and allow crates:", style: .dim)
                // The address whole, on lines of its own, never cut: it is copied from here.
                for line in TerminalText.wrapped(page.url, to: textWidth) where row < last {
                    screen.put(line, row: row, column: 1, style: .normal)
                    row += 1
                }
                paragraph("Then paste the code Discogs shows.", style: .dim)
                field = ("Code", state.text)
            }
        }
        if let field, row < last {
            row += 1
            screen.put(TerminalText.fitted(field.label, to: labelWidth - 1), row: row, column: 1, style: .prompt)
            let column = labelWidth + 1
            let end = screen.put(field.shown, row: row, column: column, style: .selected, limit: max(1, width - column - 1))
            if state.waiting == nil { screen.cursor = Screen.Position(row: row, column: min(end, width - 1)) }
            row += 2
        }
        if let waiting = state.waiting {
            paragraph(waiting, style: .pending)
        } else if let error = state.error {
            paragraph(error, style: .error)
        }
        row += 1
        var keys = state.editing ? ["Enter: check with Discogs and save"] : []
        if account.offersOAuth { keys.append(state.route == .token ? "Tab: OAuth in a browser" : "Tab: a token instead") }
        if account.isSignedIn { keys.append("Ctrl-X: sign out") }
        keys.append("Esc: cancel")
        paragraph(keys.joined(separator: " · "), style: .dim)
    }
}
