import Foundation

/// One release a check found for a code (several when pressings share a barcode), with
/// where the collector stands with it.
public struct CheckedRelease: Hashable, Sendable {
    public var id: Int
    public var artist: String
    public var title: String
    public var country: String?
    public var year: Int?
    public var label: String?
    public var catno: String?
    public var format: String?
    public var master: Int?
    public var source: AnswerSource
    public var verdict: CheckVerdict
    /// The price cache's figure for it; nil when never asked.
    public var price: PriceFigure?

    public init(
        id: Int, artist: String, title: String, country: String? = nil, year: Int? = nil, label: String? = nil,
        catno: String? = nil, format: String? = nil, master: Int? = nil, source: AnswerSource = .catalogue,
        verdict: CheckVerdict = .new, price: PriceFigure? = nil
    ) {
        self.id = id
        self.artist = artist
        self.title = title
        self.country = country
        self.year = year
        self.label = label
        self.catno = catno
        self.format = format
        self.master = master
        self.source = source
        self.verdict = verdict
        self.price = price
    }

    public init(_ release: Release, source: AnswerSource) {
        let catnos = release.labels.compactMap(\.catno).filter { !$0.isEmpty }
        self.init(
            id: release.id, artist: release.artist, title: release.title, country: release.country, year: release.year,
            label: release.labels.isEmpty ? nil : release.labels.map(\.name).joined(separator: ", "),
            catno: catnos.isEmpty ? nil : catnos.joined(separator: ", "),
            format: release.formats.isEmpty ? nil : release.formats.joined(separator: " + "), master: release.masterID,
            source: source)
    }

    /// "Artist — Title".
    public var displayTitle: String { artist.isEmpty ? title : "\(artist) — \(title)" }

    /// "Harvest SHVL 804 · Vinyl, LP · UK 1973".
    public var pressing: String { Self.pressing(label: label, catno: catno, format: format, country: country, year: year) }

    /// What tells a pressing apart, in one line: label and catalogue number, format,
    /// country and year; the parts not known left out.
    public static func pressing(label: String?, catno: String?, format: String?, country: String?, year: Int?) -> String {
        var parts: [String] = []
        let labelPart = [label, catno].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " ")
        if !labelPart.isEmpty { parts.append(labelPart) }
        if let format, !format.isEmpty { parts.append(format) }
        let place = [country, year.map(String.init)].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " ")
        if !place.isEmpty { parts.append(place) }
        return parts.joined(separator: " · ")
    }

    /// How another pressing differs from this one, field by field: "country UK, not US",
    /// "year 1979, not 1973"… (empty when nothing shown tells them apart).
    public func differences(from copy: OwnedCopy) -> [String] {
        var differences: [String] = []
        func compare(_ name: String, _ theirs: String?, _ ours: String?) {
            let theirs = theirs ?? "", ours = ours ?? ""
            guard theirs.lowercased() != ours.lowercased(), !(theirs.isEmpty && ours.isEmpty) else { return }
            differences.append("\(name) \(theirs.isEmpty ? "unknown" : theirs), not \(ours.isEmpty ? "unknown" : ours)")
        }
        compare("label", copy.label, label)
        compare("catno", copy.catno, catno)
        compare("format", copy.format, format)
        compare("country", copy.country, country)
        compare("year", copy.year.map(String.init), year.map(String.init))
        return differences
    }
}

/// A copy of another pressing of a checked release's master: the copy, which checked
/// release it is another pressing of, and how the two differ.
public struct OtherPressing: Hashable, Sendable {
    public var copy: OwnedCopy
    /// The checked release it is another pressing of.
    public var of: Int
    public var master: Int
    public var differences: [String]

    public init(copy: OwnedCopy, of: Int, master: Int, differences: [String]) {
        self.copy = copy
        self.of = of
        self.master = master
        self.differences = differences
    }
}
