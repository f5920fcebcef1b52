/// The record's JSON line written by hand: byte for byte what `JSONObject` encodes with
/// `makeJSONEncoder()` (keys sorted by their UTF-8 bytes, "/" not escaped, Foundation's
/// string escapes), at a fraction of the cost: `export --json` of 1,000,000 records spent
/// three quarters of its time in JSONEncoder (issue 12, item 8). `JSONObject` stays the
/// reference the tests hold this to.
extension ExportedRecord {
    func handWrittenJSONLine(includeDiscogs: Bool) -> String {
        let record = record
        var object = JSONObjectText()
        object.add("id", String(record.id))
        object.add("gtin", JSONObjectText.string(record.gtin.canonical))
        object.add("state", JSONObjectText.string(record.lookupState.rawValue))
        object.add("section", JSONObjectText.string(section))
        object.add("addedAt", JSONObjectText.string(UTCTimestamp.format(record.addedAt, .iso8601)))
        object.add("addMethod", JSONObjectText.string(record.addMethod.rawValue))
        object.add("note", JSONObjectText.string(record.note))
        object.add("location", JSONObjectText.string(record.location))
        object.add("lookupAttempts", String(record.lookupAttempts))
        object.add("lookupError", JSONObjectText.string(record.lookupError))
        object.add("retryAt", JSONObjectText.string(record.retryAt.map { UTCTimestamp.format($0, .iso8601) }))
        object.add("skipReason", JSONObjectText.string(record.skipReason))
        object.add("updatedAt", JSONObjectText.string(UTCTimestamp.format(record.updatedAt, .iso8601)))
        object.add("candidates", JSONObjectText.array(record.candidates.map { candidate in
            var c = JSONObjectText()
            c.add("id", String(candidate.releaseID))
            c.add("artist", JSONObjectText.string(candidate.artist))
            c.add("title", JSONObjectText.string(candidate.title))
            c.add("label", JSONObjectText.string(candidate.label))
            c.add("catno", JSONObjectText.string(candidate.catno))
            c.add("formats", JSONObjectText.array(candidate.formats.map { JSONObjectText.string($0) }))
            c.add("year", candidate.year.map { String($0) } ?? "null")
            c.add("country", JSONObjectText.string(candidate.country))
            c.add("thumbURL", JSONObjectText.string(candidate.thumbURL))
            return c.text
        }))
        object.add("release", release.map { release in
            var r = JSONObjectText()
            r.add("id", String(release.id))
            r.add("artist", JSONObjectText.string(release.artist))
            r.add("title", JSONObjectText.string(release.title))
            r.add("genres", JSONObjectText.array(release.genres.map { JSONObjectText.string($0) }))
            r.add("styles", JSONObjectText.array(release.styles.map { JSONObjectText.string($0) }))
            r.add("formats", JSONObjectText.array(release.formats.map { JSONObjectText.string($0) }))
            r.add("year", release.year.map { String($0) } ?? "null")
            r.add("country", JSONObjectText.string(release.country))
            r.add("labels", JSONObjectText.array(release.labels.map { label in
                var l = JSONObjectText()
                l.add("name", JSONObjectText.string(label.name))
                l.add("catno", JSONObjectText.string(label.catno))
                return l.text
            }))
            r.add("url", JSONObjectText.string(release.url))
            r.add("thumbURL", JSONObjectText.string(release.thumbURL))
            if includeDiscogs {
                // As `jsonLine` does: checked and compacted text, else the text as a string.
                r.add("discogs", JSONText.compacted(release.rawJSON) ?? JSONObjectText.string(release.rawJSON))
            }
            return r.text
        } ?? "null")
        if let history {
            object.add("history", JSONObjectText.array(history.map { event in
                var e = JSONObjectText()
                e.add("at", JSONObjectText.string(UTCTimestamp.format(event.at, .iso8601)))
                e.add("kind", JSONObjectText.string(event.kind.rawValue))
                e.add("message", JSONObjectText.string(event.message))
                return e.text
            }))
        }
        return object.text
    }
}

/// One JSON object's members as text, written with sorted keys.
struct JSONObjectText {
    private var members: [(key: String, value: String)] = []

    /// A member whose value is already JSON text.
    mutating func add(_ key: String, _ value: String) {
        members.append((key, value))
    }

    /// `{"a":…,"b":…}`, keys in the order of their UTF-8 bytes, as JSONEncoder's
    /// `.sortedKeys` writes them.
    var text: String {
        let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var out = "{"
        for (index, member) in sorted.enumerated() {
            if index > 0 { out += "," }
            out += Self.string(member.key)
            out += ":"
            out += member.value
        }
        return out + "}"
    }

    static func array(_ values: [String]) -> String {
        "[" + values.joined(separator: ",") + "]"
    }

    static func string(_ text: String?) -> String {
        text.map(string) ?? "null"
    }

    /// A string as Foundation's JSONEncoder writes it with `.withoutEscapingSlashes`: quote
    /// and backslash escaped, \b \f \n \r \t by name, other control characters below U+0020
    /// as \u00XX (lowercase hex), everything else (DEL and non-ASCII included) as UTF-8.
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        var plainStart = text.utf8.startIndex
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            let escape: String?
            switch byte {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escape = nil
            }
            if let escape {
                out += text[plainStart..<index]
                out += escape
                plainStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        out += text[plainStart..<utf8.endIndex]
        return out + "\""
    }
}
