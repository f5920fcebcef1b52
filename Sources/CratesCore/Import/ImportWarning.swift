/// Something in an import file that was read, but may not have been meant: said with its
/// line, so the user can look. With `--strict` a warning refuses its row instead.
public struct ImportWarning: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// A quoted field opened on the warning's line runs over these later lines, which
        /// read as rows of their own: most likely a closing quote is missing and the rows
        /// were swallowed into the field (RFC 4180 §2.6 lets a quoted field hold line
        /// breaks, so the file is valid CSV either way).
        case quotedFieldSpansRows(rowLines: [Int])
    }

    /// The 1-based line the row starts on.
    public var line: Int
    public var kind: Kind

    public init(line: Int, kind: Kind) {
        self.line = line
        self.kind = kind
    }

    /// `2: a quoted field opened on this line runs over lines 3, 4 and 5, …`
    public var description: String {
        switch kind {
        case .quotedFieldSpansRows(let rows):
            "\(line): a quoted field opened on this line runs over \(Self.lines(rows)), which "
                + "\(rows.count == 1 ? "reads as a row" : "read as rows") of \(rows.count == 1 ? "its" : "their") own: "
                + "is a closing quote (\") missing? The row was read with \(rows.count == 1 ? "that line" : "those lines") in its field"
        }
    }

    /// The warning as a compiler-style message: `gtins.csv:2: warning: …`.
    public func message(file: String) -> String {
        let text = description
        guard let colon = text.firstIndex(of: ":") else { return "\(file):warning: \(text)" }
        return "\(file):\(text[..<colon]): warning:\(text[text.index(after: colon)...])"
    }

    /// "line 3", "lines 3 and 4", "lines 3, 4 and 5".
    static func lines(_ numbers: [Int]) -> String {
        let texts = numbers.map(String.init)
        guard let last = texts.last else { return "no line" }
        if texts.count == 1 { return "line \(last)" }
        return "lines " + texts.dropLast().joined(separator: ", ") + " and " + last
    }
}
