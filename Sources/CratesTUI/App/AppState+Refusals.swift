import CratesCore

/// A scan refused before it reached the collection (a misread check digit, a shop's price
/// label). In a wedge burst the next scan follows at once, so a refusal said only in the
/// prompt would be overwritten before anyone read it: it rings the bell, stays in sight over
/// the bottom line until a person's key (the keys of the scans after it do not count), and
/// is kept for the session in the list `!` shows.
extension AppState {
    public struct Refusal: Equatable, Sendable {
        /// The code as scanned or typed (control characters taken out).
        public var code: String
        public var reason: String
        public var method: AddMethod

        /// "Refused 5029141777639: …", as the line over the prompt and the list say it.
        public var text: String { "Refused \(code): \(reason)" }
    }

    /// The most refusals a session keeps (the oldest go first).
    static let refusalLimit = 1000

    /// Keeps the refusal, shows it until a person's key, and rings the bell.
    mutating func noteRefusal(_ code: String, _ reason: String, method: AddMethod) -> [AppCommand] {
        let refusal = Refusal(code: TerminalText.truncated(ControlCharacters.cleaned(code), to: 40), reason: reason, method: method)
        refusals.append(refusal)
        if refusals.count > Self.refusalLimit { refusals.removeFirst(refusals.count - Self.refusalLimit) }
        refusalShown = refusal
        keepSelectionVisible()  // its lines take rows from the list
        return [.bell]
    }

    /// Whether `key` puts the refusal in sight away: any key a person presses, but not the
    /// keys of a scan (its characters and Enter in the prompt, a digit that opens it).
    func endsRefusalShown(_ key: Key) -> Bool {
        if prompt != nil {
            switch key {
            case .character, .enter: return false
            default: return true
            }
        }
        if case .character(let c) = key, c.isASCII, c.isNumber { return false }
        return true
    }

    /// The refusal in sight, wrapped to the screen's width (at most 3 lines), with the key
    /// that lists them all.
    var refusalLines: [String] {
        guard let refusalShown else { return [] }
        let more = refusals.count > 1 ? " (! lists the session's \(refusals.count))" : " (! lists the session's)"
        var lines = TerminalText.wrapped(refusalShown.text + more, to: max(1, width - 1))
        if lines.count > 3 {
            lines = Array(lines.prefix(3))
            lines[2] = TerminalText.truncated(lines[2] + " …", to: max(1, width - 1))
        }
        return lines
    }

    mutating func openRefusals() -> [AppCommand] {
        mode = .refusals(scroll: 0)
        return []
    }

    /// The lines of the refusals view: newest first, each wrapped.
    func refusalListLines() -> [String] {
        guard !refusals.isEmpty else { return ["No scan has been refused in this session."] }
        return refusals.reversed().flatMap { refusal in
            TerminalText.wrapped(refusal.text, to: max(1, width - 3)).enumerated().map { ($0.offset == 0 ? " " : "   ") + $0.element }
        }
    }

    mutating func refusalsKey(_ key: Key, _ scroll: Int) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .refusals) else { return [] }
        let last = max(0, refusalListLines().count - listHeight)
        let scrolled = { (to: Int) in Mode.refusals(scroll: min(last, max(0, to))) }
        switch action {
        case .moveDown: mode = scrolled(scroll + 1)
        case .moveUp: mode = scrolled(scroll - 1)
        case .pageDown: mode = scrolled(scroll + listHeight - 1)
        case .pageUp: mode = scrolled(scroll - (listHeight - 1))
        case .top: mode = scrolled(0)
        case .bottom: mode = scrolled(last)
        default: return viewCommonKey(action) ?? []
        }
        return []
    }

    func renderRefusals(scroll: Int, into screen: inout Screen) {
        let lines = refusalListLines()
        for (index, line) in lines.dropFirst(scroll).prefix(listHeight).enumerated() {
            screen.put(line, row: 1 + index, column: 0, style: refusals.isEmpty ? .dim : .normal)
        }
    }
}
