import Foundation

extension ExportedRecord {
    /// A record of crates' full JSON export read back (`crates import` restoring an export):
    /// `line` is the line's bytes, whose `release.discogs` member is kept as its exact text.
    /// The place is read by its id only (the file's places section says the rest).
    public init(restoring node: JSONNode, line: ArraySlice<UInt8>) throws(CollectionBackup.ReadError) {
        typealias Failure = CollectionBackup.ReadError
        func text(_ node: JSONNode?, _ name: String) throws(Failure) -> String? {
            guard let node, !node.isNull else { return nil }
            guard let text = node.string else { throw Failure("\(name) is not a text") }
            return text
        }
        func date(_ node: JSONNode?, _ name: String) throws(Failure) -> Date? {
            guard let value = try text(node, name) else { return nil }
            guard let date = UTCTimestamp.parse(value) else { throw Failure("\(name) is not a date: \(value)") }
            return date
        }
        func number(_ node: JSONNode?, _ name: String) throws(Failure) -> Int? {
            guard let node, !node.isNull else { return nil }
            guard let value = node.int else { throw Failure("\(name) is not a whole number") }
            return value
        }
        func texts(_ node: JSONNode?, _ name: String) throws(Failure) -> [String] {
            guard let items = node?.array else { return [] }
            var result: [String] = []
            for item in items {
                guard let value = item.string else { throw Failure("\(name) holds a value that is not a text") }
                result.append(value)
            }
            return result
        }

        guard let id = node["id"]?.int64, id > 0 else { throw Failure("a record without its id") }
        let gtin: GTIN?
        if let canonical = try text(node["gtin"], "gtin") {
            guard let parsed = GTIN(canonical: canonical) else { throw Failure("record \(id): gtin \(canonical) is not a barcode") }
            gtin = parsed
        } else {
            gtin = nil
        }
        guard let stateText = try text(node["state"], "state"), let state = LookupState(rawValue: stateText) else {
            throw Failure("record \(id): no state crates knows")
        }
        guard let methodText = try text(node["addMethod"], "addMethod"), let method = AddMethod(rawValue: methodText) else {
            throw Failure("record \(id): no addMethod crates knows")
        }
        guard let addedAt = try date(node["addedAt"], "addedAt"), let updatedAt = try date(node["updatedAt"], "updatedAt") else {
            throw Failure("record \(id): addedAt or updatedAt missing")
        }
        // Absent from files written before it was exported: nil, as then.
        var edition: CatalogueEdition?
        if let shown = try text(node["catalogueEdition"], "catalogueEdition") {
            guard let parsed = CatalogueEdition(shown: shown) else {
                throw Failure("record \(id): catalogueEdition \(shown) is not a date (YYYY-MM-DD)")
            }
            edition = parsed
        }
        var location: Location?
        if let place = node["location"], !place.isNull {
            guard let placeID = place["id"]?.int64 else { throw Failure("record \(id): a location without its id") }
            location = Location(id: placeID, name: place["name"]?.string ?? "")
        }
        var candidates: [ReleaseCandidate] = []
        for candidate in node["candidates"]?.array ?? [] {
            guard let releaseID = candidate["id"]?.int else { throw Failure("record \(id): a candidate without its release id") }
            candidates.append(ReleaseCandidate(
                releaseID: releaseID, artist: try text(candidate["artist"], "artist") ?? "",
                title: try text(candidate["title"], "title") ?? "", country: try text(candidate["country"], "country"),
                year: try number(candidate["year"], "year"), formats: try texts(candidate["formats"], "formats"),
                label: try text(candidate["label"], "label"), catno: try text(candidate["catno"], "catno"),
                thumbURL: try text(candidate["thumbURL"], "thumbURL"), coverURL: try text(candidate["coverURL"], "coverURL")))
        }
        var collector = RecordFields()
        if let own = node["collector"] {
            for field in RecordField.allCases {
                if field == .year {
                    collector.year = try number(own["year"], "collector.year")
                } else {
                    collector.set(field, try text(own[field.rawValue], "collector.\(field.rawValue)"))
                }
            }
        }
        var grading = CopyGrading()
        if let media = try text(node["mediaCondition"], "mediaCondition") {
            guard let value = MediaCondition(rawValue: media) else { throw Failure("record \(id): media condition \(media)") }
            grading.media = value
        }
        if let sleeve = try text(node["sleeveCondition"], "sleeveCondition") {
            guard let value = SleeveCondition(rawValue: sleeve) else { throw Failure("record \(id): sleeve condition \(sleeve)") }
            grading.sleeve = value
        }
        grading.rating = Rating(clamping: try number(node["rating"], "rating") ?? 0)
        // What was paid and who has it: absent from files written before they were kept.
        var purchase = Purchase()
        if let paid = node["purchase"], !paid.isNull {
            if let price = paid["price"], !price.isNull {
                guard case .number(let text) = price, let amount = MoneyAmount.parse(text) else {
                    throw Failure("record \(id): purchase.price is not an amount")
                }
                purchase.price = amount
            }
            purchase.currency = try text(paid["currency"], "purchase.currency")
            purchase.date = try text(paid["date"], "purchase.date")
            purchase.from = try text(paid["from"], "purchase.from")
        }
        var loan: Loan?
        if let lent = node["loan"], !lent.isNull {
            guard let to = try text(lent["to"], "loan.to") else { throw Failure("record \(id): a loan without whom it is to") }
            loan = Loan(to: to, since: try text(lent["since"], "loan.since"), returned: try text(lent["returned"], "loan.returned"))
        }

        var release: Release?
        var fetchedAt: Date?
        if let object = node["release"], !object.isNull {
            guard let releaseID = object["id"]?.int, let artist = try text(object["artist"], "release.artist"),
                  let title = try text(object["title"], "release.title")
            else { throw Failure("record \(id): a release without its id, artist or title") }
            var labels: [Release.LabelCredit] = []
            for label in object["labels"]?.array ?? [] {
                guard let name = label["name"]?.string else { throw Failure("record \(id): a label without its name") }
                labels.append(Release.LabelCredit(name: name, catno: try text(label["catno"], "catno")))
            }
            // Discogs' JSON as it lies in the line (a text when the database held one that
            // was not JSON).
            var raw = "{}"
            if let discogs = object["discogs"] {
                if let string = discogs.string {
                    raw = string
                } else if case .object(_, let ranges) = object, let range = ranges["discogs"],
                          line.startIndex + range.upperBound <= line.endIndex
                {
                    // Ranges count from the start of the line the node was read from.
                    raw = String(decoding: line[(line.startIndex + range.lowerBound)..<(line.startIndex + range.upperBound)], as: UTF8.self)
                }
            }
            release = Release(
                id: releaseID, artist: artist, title: title, genres: try texts(object["genres"], "genres"),
                styles: try texts(object["styles"], "styles"), formats: try texts(object["formats"], "formats"),
                year: try number(object["year"], "year"), country: try text(object["country"], "country"), labels: labels,
                url: try text(object["url"], "url"), thumbURL: try text(object["thumbURL"], "thumbURL"), rawJSON: raw,
                hasFullDetails: object["hasFullDetails"]?.bool ?? true)
            fetchedAt = try date(object["fetchedAt"], "fetchedAt")
        }
        var history: [LookupEvent] = []
        for event in node["history"]?.array ?? [] {
            guard let at = try date(event["at"], "history.at"), let kindText = event["kind"]?.string,
                  let kind = LookupEvent.Kind(rawValue: kindText), let message = event["message"]?.string
            else { throw Failure("record \(id): a history entry crates cannot read") }
            history.append(LookupEvent(id: 0, recordID: id, at: at, kind: kind, message: message))
        }
        let record = CollectionRecord(
            id: id, gtin: gtin, addedAt: addedAt, addMethod: method, note: try text(node["note"], "note"), location: location,
            releaseID: release?.id, lookupState: state, lookupError: try text(node["lookupError"], "lookupError"),
            lookupAttempts: try number(node["lookupAttempts"], "lookupAttempts") ?? 0, retryAt: try date(node["retryAt"], "retryAt"),
            skipReason: try text(node["skipReason"], "skipReason"), candidates: candidates, updatedAt: updatedAt,
            collector: collector, grading: grading, catalogueEdition: edition, purchase: purchase, loan: loan)
        self.init(
            record: record, release: release, section: node["section"]?.string ?? "", history: history,
            pinnedReleaseID: try number(node["pinnedReleaseID"], "pinnedReleaseID"), releaseFetchedAt: fetchedAt)
    }
}
