import CratesCore

/// A message longer than the screen is wide (a sync's summary: "Synced with Discogs
/// (DamIDhagor): 0 pulled, …, 1 conflict, …; 5 requests used. C shows the conflict…") is
/// wrapped over several bottom lines rather than cut at the edge, up to a third of the screen
/// (at most 6 lines); the list, and the status line above the message, make room for it.
extension AppState {
    /// The most lines a message takes.
    var messageLineLimit: Int { max(1, min(6, (height - 4) / 3)) }

    /// The bottom lines the message takes now: none while a prompt, a filter being typed or
    /// a question takes the bottom line; but a sync's question goes under its summary, which
    /// stays in sight while the person answers.
    var messageLines: [String] {
        guard let message, prompt == nil, !filterEditing, confirmDelete == nil else { return [] }
        if !questions.isEmpty, questionsAnswerable { return [] }
        var lines = TerminalText.wrapped(message.text, to: max(1, width - 1))
        let limit = messageLineLimit
        if lines.count > limit {
            lines = Array(lines.prefix(limit))
            lines[limit - 1] = TerminalText.truncated(lines[limit - 1] + " …", to: max(1, width - 1))
        }
        return lines
    }

    /// The rows of the message's lines (and a sync's question under them), at least one.
    var messageRows: Int { max(1, messageLines.count + (syncQuestion == nil ? 0 : 1)) }

    /// Rows under the status line: a refused scan's lines over the message's rows.
    var bottomRows: Int { refusalLines.count + messageRows }
}
