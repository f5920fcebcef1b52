import Foundation

extension CheckAnswer {
    /// One JSON object (a line of JSON Lines): `code`, `gtin`, `releases` (`id`, `artist`,
    /// `title`, `country`, `year`, `label`, `catno`, `format`, `master`, `source`, and the
    /// release's own `verdict`), `owned` (`id`, `release`, `place`, `media`, `sleeve`,
    /// `rating`, `added`), `otherPressings` (the copy's members, `of`, `master`,
    /// `differences`), `wanted` (`release`, `notes`, `rating`, `added`), `price` (per
    /// release id: `lowest`, `currency`, `forSale`, `asOf`, or null), `verdict` and `note`.
    public var json: String {
        var object: [String] = []
        func member(_ name: String, _ value: String) { object.append("\(JSONStringLiteral.quoted(name)):\(value)") }
        member("code", Self.string(code))
        member("gtin", Self.string(gtin?.canonical))
        member("releases", "[" + releases.map(Self.releaseJSON).joined(separator: ",") + "]")
        member("owned", "[" + owned.map { "{" + Self.copyMembers($0).joined(separator: ",") + "}" }.joined(separator: ",") + "]")
        member("otherPressings", "[" + otherPressings.map { other in
            var members = Self.copyMembers(other.copy)
            members.append("\"of\":\(other.of)")
            members.append("\"master\":\(other.master)")
            members.append("\"differences\":[" + other.differences.map { Self.string($0) }.joined(separator: ",") + "]")
            return "{" + members.joined(separator: ",") + "}"
        }.joined(separator: ",") + "]")
        member("wanted", "[" + wanted.map { want in
            "{\"release\":\(want.releaseID),\"notes\":\(Self.string(want.notes)),\"rating\":\(want.rating.value),"
                + "\"added\":\(Self.string(UTCTimestamp.format(want.addedAt, .iso8601)))}"
        }.joined(separator: ",") + "]")
        member("price", "{" + releases.map { "\(JSONStringLiteral.quoted(String($0.id))):\(Self.priceJSON($0.price))" }
            .joined(separator: ",") + "}")
        member("verdict", Self.string(verdict.rawValue))
        member("note", Self.string(note))
        return "{" + object.joined(separator: ",") + "}"
    }

    static func releaseJSON(_ release: CheckedRelease) -> String {
        "{\"id\":\(release.id),\"artist\":\(string(release.artist)),\"title\":\(string(release.title)),"
            + "\"country\":\(string(release.country)),\"year\":\(release.year.map(String.init) ?? "null"),"
            + "\"label\":\(string(release.label)),\"catno\":\(string(release.catno)),\"format\":\(string(release.format)),"
            + "\"master\":\(release.master.map(String.init) ?? "null"),\"source\":\(string(release.source.rawValue)),"
            + "\"verdict\":\(string(release.verdict.rawValue)),\"price\":\(priceJSON(release.price))}"
    }

    static func copyMembers(_ copy: OwnedCopy) -> [String] {
        [
            "\"id\":\(copy.id)", "\"release\":\(copy.releaseID.map(String.init) ?? "null")", "\"place\":\(string(copy.place))",
            "\"media\":\(string(copy.grading.media?.rawValue))", "\"sleeve\":\(string(copy.grading.sleeve?.rawValue))",
            "\"rating\":\(copy.grading.rating.value)", "\"added\":\(string(UTCTimestamp.format(copy.addedAt, .iso8601)))",
        ]
    }

    /// `{"lowest", "currency", "forSale", "asOf"}`, or null when never asked.
    public static func priceJSON(_ price: PriceFigure?) -> String {
        guard let price else { return "null" }
        let lowest = price.lowest.flatMap { $0.isFinite ? String(format: "%.2f", $0) : nil } ?? "null"
        return "{\"lowest\":\(lowest),\"currency\":\(string(price.currency.isEmpty ? nil : price.currency)),"
            + "\"forSale\":\(price.forSale.map(String.init) ?? "null"),\"asOf\":\(string(UTCTimestamp.format(price.asOf, .iso8601)))}"
    }

    static func string(_ text: String?) -> String { text.map(JSONStringLiteral.quoted) ?? "null" }
}
