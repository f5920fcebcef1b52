/// The one-barcode-per-line format.
struct LineFormat {
    var entries: [ImportEntry] = []
    var refusals: [ImportRefusal] = []

    /// The line without its `#` comment (from a `#` at the start or after a space) and
    /// without surrounding whitespace. No barcode form contains a `#`, so nothing is lost.
    static func stripComment(_ text: String) -> Substring {
        var end = text.endIndex
        var previousIsSpace = true
        for index in text.indices {
            let character = text[index]
            if character == "#", previousIsSpace {
                end = index
                break
            }
            previousIsSpace = character.isWhitespace
        }
        return text[..<end].trimmingWhitespace()
    }

    mutating func read(line: Int, text: String) {
        let content = Self.stripComment(text)
        guard !content.isEmpty else { return }
        if let releaseID = Self.releaseReference(content) {
            if let entry = ImportEntry(line: line, gtin: nil, releaseID: releaseID) { entries.append(entry) }
            return
        }
        switch ImportValidation.barcode(String(content)) {
        case .success(let gtin):
            if let entry = ImportEntry(line: line, gtin: gtin) { entries.append(entry) }
        case .failure(let reason):
            refusals.append(ImportRefusal(line: line, input: String(content), reason: reason))
        }
    }

    /// A Discogs release written as `r249504`, `[r249504]` or a release URL (what the TUI's
    /// add prompt takes), never a bare number (digits are a barcode).
    static func releaseReference(_ text: Substring) -> Int? {
        guard let first = text.first, first == "r" || first == "R" || first == "[" || text.contains("discogs.com/") else {
            return nil
        }
        return ReleaseReference.parse(String(text))
    }
}

/// Checks shared by both formats.
enum ImportValidation {
    /// The GTIN of a barcode text, or why it cannot be imported: unreadable, or not a record.
    static func barcode(_ text: String) -> Result<GTIN, ImportRefusal.Reason> {
        do {
            let gtin = try GTIN.parse(text).gtin
            if let reason = gtin.notARecordReason { return .failure(.notARecord(gtin, reason: reason)) }
            return .success(gtin)
        } catch {
            return .failure(.barcode(error))
        }
    }

    /// A Discogs release number: 1 to 12 ASCII digits, not zero.
    static func releaseID(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 12, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let id = Int(text), id > 0
        else { return nil }
        return id
    }

    /// A note as kept: line breaks as LF (a CRLF or a lone CR from a spreadsheet becomes
    /// one), other control characters but tabs removed (a file is untrusted text that may
    /// reach a terminal), surrounding whitespace trimmed; nil when empty.
    static func note(_ text: String) -> String? {
        var kept = String.UnicodeScalarView()
        var previousCR = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            defer { previousCR = v == 0x0D }
            if v == 0x0D { kept.append("\n"); continue }
            if v == 0x0A { if !previousCR { kept.append(scalar) }; continue }
            if v == 0x09 { kept.append(scalar); continue }
            if v < 0x20 || (0x7F...0x9F).contains(v) { continue }
            kept.append(scalar)
        }
        let trimmed = String(kept).trimmingWhitespace()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}

extension StringProtocol {
    /// Without leading and trailing whitespace (Unicode's, which includes the no-break space).
    func trimmingWhitespace() -> SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, self[start].isWhitespace { start = index(after: start) }
        while end > start, self[index(before: end)].isWhitespace { end = index(before: end) }
        return self[start..<end]
    }
}
