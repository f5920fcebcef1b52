import Foundation

/// A want as `crates want` prints it: for a person, for a pipe (tab-separated, `columns`),
/// and as JSON; every field from outside made printable.
extension WantEntry {
    /// The tab-separated line's columns, in order.
    public static let columns = [
        "release_id", "artist", "title", "label", "catno", "format", "country", "year", "notes", "rating", "added", "lowest",
        "currency", "for_sale", "price_date",
    ]

    /// "Artist — Title (Harvest SHVL 804 · Vinyl, LP · UK 1973)".
    public var described: String {
        ControlCharacters.cleaned(displayTitle + (pressing.isEmpty ? "" : " (\(pressing))"))
    }

    /// One line for a person: the release, its id, the rating, the notes, when added, and
    /// the lowest price with its age.
    public func readable(price: PriceFigure?, now: Date) -> String {
        var parts = [described, "r\(releaseID)"]
        if rating.isRated { parts.append(rating.stars) }
        if let notes, !notes.isEmpty { parts.append("“\(ControlCharacters.cleaned(notes))”") }
        parts.append("added \(UTCTimestamp.format(addedAt, .iso8601).prefix(10))")
        parts.append(price.map { $0.text(now: now) } ?? "price not asked yet")
        return parts.joined(separator: "  ")
    }

    /// The tab-separated line of `columns`.
    public func line(price: PriceFigure?) -> String {
        TabSeparatedText.line([
            String(releaseID), artist, title, label ?? "", catno ?? "", format ?? "", country ?? "",
            year.map(String.init) ?? "", notes ?? "", String(rating.value), UTCTimestamp.format(addedAt, .iso8601),
            price?.lowest.map { String(format: "%.2f", $0) } ?? "", price?.currency ?? "", price?.forSale.map(String.init) ?? "",
            price.map { String(UTCTimestamp.format($0.asOf, .iso8601).prefix(10)) } ?? "",
        ])
    }

    /// One JSON object, on one line.
    public func json(price: PriceFigure?) -> String {
        let q = { (text: String?) in text.map(JSONStringLiteral.quoted) ?? "null" }
        return "{\"release\":\(releaseID),\"artist\":\(q(artist)),\"title\":\(q(title)),\"country\":\(q(country)),"
            + "\"year\":\(year.map(String.init) ?? "null"),\"label\":\(q(label)),\"catno\":\(q(catno)),"
            + "\"format\":\(q(format)),\"master\":\(masterID.map(String.init) ?? "null"),\"notes\":\(q(notes)),"
            + "\"rating\":\(rating.value),\"added\":\(q(UTCTimestamp.format(addedAt, .iso8601))),"
            + "\"price\":\(CheckAnswer.priceJSON(price))}"
    }
}
