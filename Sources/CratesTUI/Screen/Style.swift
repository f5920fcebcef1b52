/// What a cell means, not how it looks: the terminal decides colours (or none, with NO_COLOR).
public enum Style: UInt8, Sendable, CaseIterable {
    case normal, header, selected, dim, status, statusAccent, error, pending, prompt, title
}
