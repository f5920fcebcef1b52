/// What a cell means, not how it looks: the terminal decides colours (or none, with NO_COLOR).
public enum Style: UInt8, Sendable, CaseIterable {
    case normal, header, selected, dim, status, statusAccent, error, pending, prompt, title
    /// A check's verdict line, each in a colour of its own, read at arm's length.
    case verdictOwned, verdictOtherPressing, verdictWanted, verdictNew, verdictUnknown
    /// The title bar in check mode: scans add nothing.
    case checkBanner
}
