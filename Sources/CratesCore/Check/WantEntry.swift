import Foundation

/// A release on the collector's wantlist (kept as one with Discogs' wantlist): the release
/// as shown, and the collector's notes and rating for it.
public struct WantEntry: Hashable, Sendable, Identifiable {
    public var releaseID: Int
    public var artist: String
    public var title: String
    public var year: Int?
    public var country: String?
    public var format: String?
    public var label: String?
    public var catno: String?
    public var masterID: Int?
    public var notes: String?
    public var rating: Rating
    public var addedAt: Date

    public var id: Int { releaseID }

    public init(
        releaseID: Int, artist: String, title: String, year: Int? = nil, country: String? = nil, format: String? = nil,
        label: String? = nil, catno: String? = nil, masterID: Int? = nil, notes: String? = nil, rating: Rating = .unrated,
        addedAt: Date
    ) {
        self.releaseID = releaseID
        self.artist = artist
        self.title = title
        self.year = year
        self.country = country
        self.format = format
        self.label = label
        self.catno = catno
        self.masterID = masterID
        self.notes = notes
        self.rating = rating
        self.addedAt = addedAt
    }

    /// The release's values as a wantlist keeps them, from a release crates knows.
    public init(release: Release, notes: String? = nil, rating: Rating = .unrated, addedAt: Date) {
        let catnos = release.labels.compactMap(\.catno)
        self.init(
            releaseID: release.id, artist: release.artist, title: release.title, year: release.year, country: release.country,
            format: release.formats.isEmpty ? nil : release.formats.joined(separator: " + "),
            label: release.labels.isEmpty ? nil : release.labels.map(\.name).joined(separator: ", "),
            catno: catnos.isEmpty ? nil : catnos.joined(separator: ", "), masterID: release.masterID, notes: notes,
            rating: rating, addedAt: addedAt)
    }

    /// "Artist — Title".
    public var displayTitle: String {
        artist.isEmpty ? title : "\(artist) — \(title)"
    }

    /// "Harvest SHVL 804 · Vinyl, LP · UK 1973": what tells the pressing apart.
    public var pressing: String {
        CheckedRelease.pressing(label: label, catno: catno, format: format, country: country, year: year)
    }
}
