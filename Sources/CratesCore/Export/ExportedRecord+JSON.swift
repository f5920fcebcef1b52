import Foundation

extension ExportedRecord {
    /// The record as one JSON object: everything crates knows about the copy. Every key is
    /// always there (null when crates knows nothing), so a script sees one shape:
    ///
    /// `id`, `gtin`, `state` (a `LookupState`), `section`, `addedAt` (ISO 8601, UTC),
    /// `addMethod` (an `AddMethod`), `note`, `location` (null, or the place the copy is in:
    /// `id`, `name`, `path` — "Living Room › Shelf 2 › Crate A3" — and `code`, its label's
    /// 13 digits), `lookupAttempts`, `lookupError`,
    /// `retryAt`, `skipReason`, `updatedAt`, `candidates` (the pressings to choose from when
    /// ambiguous: `id`, `artist`, `title`, `label`, `catno`, `formats`, `year`, `country`,
    /// `thumbURL`, `coverURL`), `release` (null, or `id`, `artist`, `title`, `genres`, `styles`, `formats`,
    /// `year`, `country`, `labels` [{`name`, `catno`}], `url`, `thumbURL`, and with
    /// `includeDiscogs` `discogs`: the release as Discogs sent it), `collector` (the
    /// collector's own values, which win over the release's: `artist`, `title`, `genre`,
    /// `year`, `format`, `label`, `catno`, `country`, each null where Discogs' value stands),
    /// `mediaCondition` and `sleeveCondition` (Discogs' exact grade texts, or null), `rating`
    /// (0, not rated, to 5), `discogsCollection` (null, or the Discogs instance the copy is
    /// synced with: `instanceID`, `folderID`, `folder`, `removedOnDiscogs`), `purchase` (null,
    /// or what was paid: `price`, `currency`, `date`, `from`), `loan` (null, or `to`, `since`,
    /// `returned`), and, when the
    /// history was read, `history` [{`at`, `kind`, `message`}]. `gtin` is null for a record
    /// without a barcode (one entered by hand, found by search, or pulled from Discogs).
    /// `catalogueEdition` (YYYY-MM-DD, or null): the date of the local catalogue's dump the
    /// record was matched from, or, while it waits for Discogs, the one that did not know it.
    public struct JSONObject: Encodable {
        public var entry: ExportedRecord
        public var includeDiscogs: Bool
        /// Set by `jsonLine`: Discogs' JSON is written as this string, which `jsonLine` then
        /// replaces with the JSON text itself (see there).
        var discogsPlaceholder: String?

        public init(_ entry: ExportedRecord, includeDiscogs: Bool) {
            self.entry = entry
            self.includeDiscogs = includeDiscogs
        }

        enum Key: String, CodingKey {
            case id, gtin, state, section, addedAt, addMethod, note, location, lookupAttempts, lookupError
            case retryAt, skipReason, updatedAt, candidates, release, history, collector
            case mediaCondition, sleeveCondition, rating, discogsCollection, pinnedReleaseID, catalogueEdition
            case purchase, loan
        }

        public func encode(to encoder: any Encoder) throws {
            let record = entry.record
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(record.id, forKey: .id)
            try c.encode(record.gtin?.canonical, forKey: .gtin)
            try c.encode(record.lookupState.rawValue, forKey: .state)
            try c.encode(entry.section, forKey: .section)
            try c.encode(UTCTimestamp.format(record.addedAt, .iso8601), forKey: .addedAt)
            try c.encode(record.addMethod.rawValue, forKey: .addMethod)
            try c.encode(record.note, forKey: .note)
            if includeDiscogs { try c.encode(entry.pinnedReleaseID, forKey: .pinnedReleaseID) }
            try c.encode(record.location.map(LocationJSON.init), forKey: .location)
            try c.encode(record.lookupAttempts, forKey: .lookupAttempts)
            try c.encode(record.lookupError, forKey: .lookupError)
            try c.encode(record.retryAt.map { UTCTimestamp.format($0, .iso8601) }, forKey: .retryAt)
            try c.encode(record.skipReason, forKey: .skipReason)
            try c.encode(UTCTimestamp.format(record.updatedAt, .iso8601), forKey: .updatedAt)
            try c.encode(record.candidates.map(CandidateJSON.init), forKey: .candidates)
            try c.encode(record.catalogueEdition?.description, forKey: .catalogueEdition)
            try c.encode(
                entry.release.map {
                    ReleaseJSON(release: $0, includeDiscogs: includeDiscogs, placeholder: discogsPlaceholder, fetchedAt: entry.releaseFetchedAt)
                },
                forKey: .release)
            try c.encode(CollectorJSON(record.collector), forKey: .collector)
            try c.encode(record.grading.media?.rawValue, forKey: .mediaCondition)
            try c.encode(record.grading.sleeve?.rawValue, forKey: .sleeveCondition)
            try c.encode(record.grading.rating.value, forKey: .rating)
            try c.encode(entry.discogs.map(CollectionLinkJSON.init), forKey: .discogsCollection)
            try c.encode(record.purchase.isEmpty ? nil : PurchaseJSON(record.purchase), forKey: .purchase)
            try c.encode(record.loan.map(LoanJSON.init), forKey: .loan)
            if let history = entry.history {
                try c.encode(history.map(EventJSON.init), forKey: .history)
            }
        }
    }

    /// The record as one line of JSON (keys sorted, slashes unescaped): what `JSONObject`
    /// encodes with `makeJSONEncoder()`, written by hand (see `handWrittenJSONLine`; the
    /// encoder is no longer used, and kept in the signature for the callers).
    ///
    /// Discogs' JSON goes in as text: checked and compacted by `JSONText` (a byte scan).
    /// Decoding it into values and encoding them again gives the same JSON but took a
    /// thousand times longer (minutes for 100,000 records), and would round numbers through
    /// `Double`. JSON text that does not check (a damaged database) is written as a string
    /// instead.
    public func jsonLine(includeDiscogs: Bool, encoder: JSONEncoder) throws -> String {
        handWrittenJSONLine(includeDiscogs: includeDiscogs)
    }

    /// `jsonLine` through JSONEncoder: the reference the hand-written line is tested against.
    public func encodedJSONLine(includeDiscogs: Bool, encoder: JSONEncoder) throws -> String {
        var object = JSONObject(self, includeDiscogs: includeDiscogs)
        let raw = includeDiscogs ? release.flatMap { JSONText.compacted($0.rawJSON) } : nil
        if raw != nil { object.discogsPlaceholder = Self.discogsPlaceholder }
        var line = String(decoding: try encoder.encode(object), as: UTF8.self)
        if let raw, let range = line.range(of: "\"\(Self.discogsPlaceholder)\"") {
            line.replaceSubrange(range, with: raw)
        }
        return line
    }

    /// Random for each run, so that no text in a record can be mistaken for it.
    static let discogsPlaceholder = "crates-discogs-json-\(UUID().uuidString)"

    /// The encoder `jsonLine` expects: sorted keys, one line, "/" not escaped.
    public static func makeJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

private struct ReleaseJSON: Encodable {
    let release: Release
    let includeDiscogs: Bool
    let placeholder: String?
    let fetchedAt: Date?

    enum Key: String, CodingKey {
        case id, artist, title, genres, styles, formats, year, country, labels, url, thumbURL, discogs, fetchedAt, hasFullDetails
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(release.id, forKey: .id)
        try c.encode(release.artist, forKey: .artist)
        try c.encode(release.title, forKey: .title)
        try c.encode(release.genres, forKey: .genres)
        try c.encode(release.styles, forKey: .styles)
        try c.encode(release.formats, forKey: .formats)
        try c.encode(release.year, forKey: .year)
        try c.encode(release.country, forKey: .country)
        try c.encode(release.labels.map(LabelJSON.init), forKey: .labels)
        try c.encode(release.url, forKey: .url)
        try c.encode(release.thumbURL, forKey: .thumbURL)
        if includeDiscogs {
            try c.encode(fetchedAt.map { UTCTimestamp.format($0, .iso8601) }, forKey: .fetchedAt)
            try c.encode(release.hasFullDetails, forKey: .hasFullDetails)
        }
        if includeDiscogs, let placeholder {
            try c.encode(placeholder, forKey: .discogs)
        } else if includeDiscogs {
            // Passed through as a JSON value when it is JSON (it always was once: it is the
            // body the release was decoded from); kept as text otherwise, never dropped. The
            // same check as `jsonLine`'s (JSONDecoder alone lets a trailing comma through).
            if JSONText.compacted(release.rawJSON) != nil,
               let value = try? JSONDecoder().decode(JSONValue.self, from: Data(release.rawJSON.utf8)) {
                try c.encode(value, forKey: .discogs)
            } else {
                try c.encode(release.rawJSON, forKey: .discogs)
            }
        }
    }
}

/// Every field always there, null where the collector has no value of their own.
private struct CollectorJSON: Encodable {
    let fields: RecordFields

    init(_ fields: RecordFields) { self.fields = fields }

    enum Key: String, CodingKey { case artist, title, genre, year, format, label, catno, country }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(fields.artist, forKey: .artist)
        try c.encode(fields.title, forKey: .title)
        try c.encode(fields.genre, forKey: .genre)
        try c.encode(fields.year, forKey: .year)
        try c.encode(fields.format, forKey: .format)
        try c.encode(fields.label, forKey: .label)
        try c.encode(fields.catno, forKey: .catno)
        try c.encode(fields.country, forKey: .country)
    }
}

/// What was paid (`price` a number, `currency` its code, `date` YYYY-MM-DD, `from` the
/// shop or seller), each null where unknown.
private struct PurchaseJSON: Encodable {
    let purchase: Purchase

    init(_ purchase: Purchase) { self.purchase = purchase }

    enum Key: String, CodingKey { case price, currency, date, from }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(purchase.price, forKey: .price)
        try c.encode(purchase.currency, forKey: .currency)
        try c.encode(purchase.date, forKey: .date)
        try c.encode(purchase.from, forKey: .from)
    }
}

/// A loan: `to` whom, `since` and `returned` (YYYY-MM-DD; `returned` null while out).
private struct LoanJSON: Encodable {
    let loan: Loan

    init(_ loan: Loan) { self.loan = loan }

    enum Key: String, CodingKey { case to, since, returned }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(loan.to, forKey: .to)
        try c.encode(loan.since, forKey: .since)
        try c.encode(loan.returned, forKey: .returned)
    }
}

/// A record's place: the same members as `crates location list --json` names it by.
private struct LocationJSON: Encodable {
    let location: Location

    init(_ location: Location) { self.location = location }

    enum Key: String, CodingKey { case id, name, path, code }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(location.id, forKey: .id)
        try c.encode(location.name, forKey: .name)
        try c.encode(location.pathText, forKey: .path)
        try c.encode(location.code?.digits, forKey: .code)
    }
}

private struct LabelJSON: Encodable {
    let name: String
    let catno: String?

    init(_ label: Release.LabelCredit) {
        name = label.name
        catno = label.catno
    }

    enum Key: String, CodingKey { case name, catno }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        try c.encode(catno, forKey: .catno)
    }
}

private struct CandidateJSON: Encodable {
    let candidate: ReleaseCandidate

    init(_ candidate: ReleaseCandidate) { self.candidate = candidate }

    enum Key: String, CodingKey { case id, artist, title, label, catno, formats, year, country, thumbURL, coverURL }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(candidate.releaseID, forKey: .id)
        try c.encode(candidate.artist, forKey: .artist)
        try c.encode(candidate.title, forKey: .title)
        try c.encode(candidate.label, forKey: .label)
        try c.encode(candidate.catno, forKey: .catno)
        try c.encode(candidate.formats, forKey: .formats)
        try c.encode(candidate.year, forKey: .year)
        try c.encode(candidate.country, forKey: .country)
        try c.encode(candidate.thumbURL, forKey: .thumbURL)
        try c.encode(candidate.coverURL, forKey: .coverURL)
    }
}

private struct EventJSON: Encodable {
    let event: LookupEvent

    init(_ event: LookupEvent) { self.event = event }

    enum Key: String, CodingKey { case at, kind, message }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(UTCTimestamp.format(event.at, .iso8601), forKey: .at)
        try c.encode(event.kind.rawValue, forKey: .kind)
        try c.encode(event.message, forKey: .message)
    }
}

private struct CollectionLinkJSON: Encodable {
    let link: DiscogsCopyLink

    init(_ link: DiscogsCopyLink) { self.link = link }

    enum Key: String, CodingKey { case instanceID, folderID, folder, removedOnDiscogs }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(link.instanceID, forKey: .instanceID)
        try c.encode(link.folderID, forKey: .folderID)
        try c.encode(link.folderName, forKey: .folder)
        try c.encode(link.removedOnDiscogs, forKey: .removedOnDiscogs)
    }
}
