import CratesCore

extension AddQuestion {
    /// The keys that answer it, as the prompt shows them: "(y/N)", "(Y/n, c: another copy)".
    /// The UI's, beside its key map (`AppState.answer(to:key:)`): the question itself, in
    /// Core, knows its answers but not which keys a UI gives them.
    var choices: String {
        if case .moveHere = kind { return "(Y/n, c: another copy)" }
        return "(y/N)"
    }
}
