import CratesCore
import CratesDumpGenerator
import Foundation

/// A reproducible collection: genres as Discogs names them (commas and ampersands
/// included), titles and artists in Latin with diacritics and in CJK, valid GTINs.
struct SyntheticCollection {
    static let genres = [
        "Rock", "Electronic", "Pop", "Jazz", "Funk / Soul", "Classical", "Hip Hop",
        "Folk, World, & Country", "Reggae", "Latin", "Blues", "Stage & Screen", "Non-Music",
        "Children's", "Brass & Military",
    ]
    static let artists = [
        "Björk", "坂本龍一", "The Beatles", "Édith Piaf", "Prince", "Sigur Rós", "Motörhead",
        "Miles Davis", "Aphex Twin", "Nina Simone", "久石譲", "Ólafur Arnalds", "Can", "Portishead",
    ]
    static let words = [
        "Homogenic", "Debut", "Vespertine", "Thriller", "Blue", "Kind", "of", "Night", "Ágætis",
        "Byrjun", "戦場のメリークリスマス", "Ace", "Spades", "Tago", "Mago", "Dummy", "Selected",
        "Ambient", "Works", "Love", "Sexy", "Purple", "Rain", "Ænima", "Straße", "Noël",
    ]
    static let formats = ["CD, Album", "Vinyl, LP, Album", "2×Vinyl, LP", "Cassette", "CD, Single", "Vinyl, 7\", 45 RPM"]

    private var random: SplitMix
    private var nextGTIN: UInt64 = 0
    private var nextReleaseID = 1
    /// Roughly what Discogs sends for a release (a few kilobytes).
    private let rawPadding = String(repeating: "{\"name\": \"track\", \"duration\": \"4:01\"}, ", count: 70)

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    /// Seeded, so that runs are comparable.
    mutating func next() -> UInt64 { random.next() }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    /// A valid EAN-13 (prefix 50, the UK), a new one each call.
    mutating func gtin() -> GTIN {
        nextGTIN += 1
        let body = "50" + String(String(nextGTIN &* 7_919 % 10_000_000_000).reversed()).padding(toLength: 10, withPad: "0", startingAt: 0)
        let digits = body.compactMap(\.wholeNumberValue)
        // GS1 check digit: weights 3 and 1 alternating from the rightmost data digit.
        let sum = digits.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        let canonical = body + String((10 - sum % 10) % 10)
        guard let gtin = GTIN(canonical: canonical) else { fatalError("synthetic GTIN \(canonical) is invalid") }
        return gtin
    }

    mutating func release() -> Release {
        defer { nextReleaseID += 1 }
        let title = (0..<(1 + Int(next() % 3))).map { _ in pick(Self.words) }.joined(separator: " ")
        let genres = next() % 20 == 0 ? [] : [pick(Self.genres), pick(Self.genres)]
        return Release(
            id: nextReleaseID, artist: pick(Self.artists), title: title, genres: genres, styles: ["Experimental"],
            formats: [pick(Self.formats)], year: 1960 + Int(next() % 65), country: "UK",
            labels: [.init(name: "One Little Indian", catno: "TPLP \(nextReleaseID)")],
            url: "https://www.discogs.com/release/\(nextReleaseID)", thumbURL: nil,
            rawJSON: "{\"id\": \(nextReleaseID), \"tracklist\": [\(rawPadding)]}")
    }

    /// A new copy; when `matched`, with a release of its own (or, one time in four, a
    /// second copy of an earlier one's release).
    mutating func newRecord(matched: Bool, reuse earlier: Release? = nil) -> NewRecord {
        let release: Release? = matched ? (earlier.flatMap { next() % 4 == 0 ? $0 : nil } ?? self.release()) : nil
        return NewRecord(gtin: gtin(), addMethod: matched ? .import : .wedge, release: release)
    }
}
