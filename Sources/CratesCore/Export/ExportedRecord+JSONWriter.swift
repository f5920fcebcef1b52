/// The record's JSON line written by hand: byte for byte what `JSONObject` encodes with
/// `makeJSONEncoder()` (keys sorted by their UTF-8 bytes, "/" not escaped, Foundation's
/// string escapes), at a fraction of the cost: `export --json` of 1,000,000 records spent
/// most of its time in JSONEncoder. The members are written straight
/// into one string, in the order `.sortedKeys` gives them (fixed keys, so a fixed order);
/// `JSONObject` stays the reference the tests hold this to, byte for byte.
extension ExportedRecord {
    func handWrittenJSONLine(includeDiscogs: Bool) -> String {
        var bytes: [UInt8] = []
        appendJSONLine(includeDiscogs: includeDiscogs, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the record's JSON line (no newline) to `bytes`: `export --json` writes its
    /// pages as bytes, never as a String grown a member at a time (a third of its time).
    public func appendJSONLine(includeDiscogs: Bool, to bytes: inout [UInt8]) {
        var out = JSONLineBuilder(bytes: bytes)
        bytes = []
        writeJSONLine(includeDiscogs: includeDiscogs, into: &out)
        bytes = out.bytes
    }

    private func writeJSONLine(includeDiscogs: Bool, into out: inout JSONLineBuilder) {
        let record = record
        out.open()
        out.member("addMethod") { $0.string(record.addMethod.rawValue) }
        out.member("addedAt") { $0.string(UTCTimestamp.format(record.addedAt, .iso8601)) }
        out.member("candidates") { out in
            out.array(record.candidates) { out, candidate in
                out.open()
                out.member("artist") { $0.string(candidate.artist) }
                out.member("catno") { $0.string(candidate.catno) }
                out.member("country") { $0.string(candidate.country) }
                out.member("coverURL") { $0.string(candidate.coverURL) }
                out.member("formats") { out in out.array(candidate.formats) { $0.string($1) } }
                out.member("id") { $0.raw(String(candidate.releaseID)) }
                out.member("label") { $0.string(candidate.label) }
                out.member("thumbURL") { $0.string(candidate.thumbURL) }
                out.member("title") { $0.string(candidate.title) }
                out.member("year") { $0.raw(candidate.year.map { String($0) } ?? "null") }
                out.close()
            }
        }
        out.member("catalogueEdition") { $0.string(record.catalogueEdition?.description) }
        out.member("collector") { out in
            let fields = record.collector
            out.open()
            out.member("artist") { $0.string(fields.artist) }
            out.member("catno") { $0.string(fields.catno) }
            out.member("country") { $0.string(fields.country) }
            out.member("format") { $0.string(fields.format) }
            out.member("genre") { $0.string(fields.genre) }
            out.member("label") { $0.string(fields.label) }
            out.member("title") { $0.string(fields.title) }
            out.member("year") { $0.raw(fields.year.map { String($0) } ?? "null") }
            out.close()
        }
        out.member("discogsCollection") { out in
            guard let link = discogs else { return out.raw("null") }
            out.open()
            out.member("folder") { $0.string(link.folderName) }
            out.member("folderID") { $0.raw(String(link.folderID)) }
            out.member("instanceID") { $0.raw(String(link.instanceID)) }
            out.member("removedOnDiscogs") { $0.raw(link.removedOnDiscogs ? "true" : "false") }
            out.close()
        }
        out.member("gtin") { $0.string(record.gtin?.canonical) }
        if let history {
            out.member("history") { out in
                out.array(history) { out, event in
                    out.open()
                    out.member("at") { $0.string(UTCTimestamp.format(event.at, .iso8601)) }
                    out.member("kind") { $0.string(event.kind.rawValue) }
                    out.member("message") { $0.string(event.message) }
                    out.close()
                }
            }
        }
        out.member("id") { $0.raw(String(record.id)) }
        out.member("location") { out in
            guard let location = record.location else { return out.raw("null") }
            out.open()
            out.member("code") { $0.string(location.code?.digits) }
            out.member("id") { $0.raw(String(location.id)) }
            out.member("name") { $0.string(location.name) }
            out.member("path") { $0.string(location.pathText) }
            out.close()
        }
        out.member("lookupAttempts") { $0.raw(String(record.lookupAttempts)) }
        out.member("lookupError") { $0.string(record.lookupError) }
        out.member("mediaCondition") { $0.string(record.grading.media?.rawValue) }
        out.member("note") { $0.string(record.note) }
        if includeDiscogs { out.member("pinnedReleaseID") { $0.raw(pinnedReleaseID.map { String($0) } ?? "null") } }
        out.member("rating") { $0.raw(String(record.grading.rating.value)) }
        out.member("release") { out in
            guard let release else { return out.raw("null") }
            out.open()
            out.member("artist") { $0.string(release.artist) }
            out.member("country") { $0.string(release.country) }
            if includeDiscogs {
                // As `encodedJSONLine`: checked and compacted text, else the text as a string.
                out.member("discogs") { out in
                    if let compact = JSONText.compacted(release.rawJSON) { out.raw(compact) } else { out.string(release.rawJSON) }
                }
            }
            if includeDiscogs {
                out.member("fetchedAt") { $0.string(releaseFetchedAt.map { UTCTimestamp.format($0, .iso8601) }) }
            }
            out.member("formats") { out in out.array(release.formats) { $0.string($1) } }
            out.member("genres") { out in out.array(release.genres) { $0.string($1) } }
            if includeDiscogs { out.member("hasFullDetails") { $0.raw(release.hasFullDetails ? "true" : "false") } }
            out.member("id") { $0.raw(String(release.id)) }
            out.member("labels") { out in
                out.array(release.labels) { out, label in
                    out.open()
                    out.member("catno") { $0.string(label.catno) }
                    out.member("name") { $0.string(label.name) }
                    out.close()
                }
            }
            out.member("styles") { out in out.array(release.styles) { $0.string($1) } }
            out.member("thumbURL") { $0.string(release.thumbURL) }
            out.member("title") { $0.string(release.title) }
            out.member("url") { $0.string(release.url) }
            out.member("year") { $0.raw(release.year.map { String($0) } ?? "null") }
            out.close()
        }
        out.member("retryAt") { $0.string(record.retryAt.map { UTCTimestamp.format($0, .iso8601) }) }
        out.member("section") { $0.string(section) }
        out.member("skipReason") { $0.string(record.skipReason) }
        out.member("sleeveCondition") { $0.string(record.grading.sleeve?.rawValue) }
        out.member("state") { $0.string(record.lookupState.rawValue) }
        out.member("updatedAt") { $0.string(UTCTimestamp.format(record.updatedAt, .iso8601)) }
        out.close()
    }
}

/// JSON text appended as UTF-8 bytes. Members must come in their sorted order (the caller
/// knows its keys).
struct JSONLineBuilder {
    private(set) var bytes: [UInt8]
    /// Whether the object or array being written has had a value yet (for the commas).
    private var started: [Bool] = []

    /// Appends to `bytes` (given away: keep no other reference, so that it grows in place).
    init(bytes: [UInt8] = []) {
        self.bytes = bytes
        // Grown by doubling: reserving exactly 1 KB more for each line would copy a page's
        // bytes again for every line written into it.
        if self.bytes.capacity - self.bytes.count < 1024 {
            self.bytes.reserveCapacity(Swift.max(self.bytes.count * 2, self.bytes.count + 1024))
        }
        started.reserveCapacity(4)
    }

    mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        started.append(false)
    }

    mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        started.removeLast()
    }

    /// `"key":` and the value `value` writes.
    mutating func member(_ key: StaticString, _ value: (inout JSONLineBuilder) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        value(&self)
    }

    /// `"key":` for a key known only at run time (escaped as any string), and its value.
    mutating func member(named key: String, _ value: (inout JSONLineBuilder) -> Void) {
        separate()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        value(&self)
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout JSONLineBuilder, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        started.append(false)
        for element in elements {
            separate()
            write(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
        started.removeLast()
    }

    /// Text that is JSON already (a number, `null`, compacted JSON).
    mutating func raw(_ json: String) {
        bytes.append(contentsOf: json.utf8)
    }

    mutating func string(_ value: String?) {
        guard let value else { return raw("null") }
        string(value)
    }

    /// A string as Foundation's JSONEncoder writes it (`JSONStringLiteral`).
    mutating func string(_ value: String) {
        JSONStringLiteral.append(value, to: &bytes)
    }

    private mutating func separate() {
        guard let last = started.indices.last else { return }
        if started[last] { bytes.append(UInt8(ascii: ",")) } else { started[last] = true }
    }
}
