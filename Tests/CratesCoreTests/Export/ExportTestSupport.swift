import CratesCore
import CratesTestSupport
import Foundation

/// Records for the export tests: one matched to a release whose texts hold commas, quotes and
/// line breaks, and one not matched.
enum ExportSample {
    static let addedAt = Date(timeIntervalSince1970: 1_706_704_496)  // 2024-01-31 12:34:56 UTC

    static let awkwardRelease = Release(
        id: 249_504, artist: "Crosby, Stills & Nash", title: "\"Déjà\" Vu,\nLive", genres: ["Rock", "Folk, World, & Country"],
        styles: ["Folk Rock"], formats: ["Vinyl, LP, Album", "CD, Album"], year: 1970, country: "US",
        labels: [.init(name: "Atlantic", catno: "SD 7200"), .init(name: "Rhino, Inc.", catno: nil)],
        url: "https://www.discogs.com/release/249504", thumbURL: nil,
        rawJSON: #"{"id": 249504, "released": "1970-03-11", "community": {"have": 1, "rating": 4.5}, "master": null, "blocked": false}"#)

    static var matched: ExportedRecord {
        ExportedRecord(
            record: CollectionRecord(
                id: 7, gtin: Fixtures.gtin("0075678190421"), addedAt: addedAt, addMethod: .wedge,
                note: "signed, \"mint\"\nsleeve worn", location: Location(id: 3, name: "Crate 3, top", parentID: 2, ancestors: ["Living Room"]), releaseID: 249_504,
                lookupState: .matched, lookupAttempts: 1, updatedAt: addedAt.addingTimeInterval(60)),
            release: awkwardRelease, section: "Rock")
    }

    static var unmatched: ExportedRecord {
        ExportedRecord(
            record: CollectionRecord(
                id: 8, gtin: Fixtures.gtin("5012345678900"), addedAt: addedAt, addMethod: .typed, lookupState: .ambiguous,
                lookupAttempts: 1,
                candidates: [
                    ReleaseCandidate(
                        releaseID: 11_849_140, artist: "DJ Healer", title: "Nothing 2 Loose", year: 2018, formats: ["Vinyl, 12\""],
                        thumbURL: "https://i.discogs.com/t/R-11849140.jpeg", coverURL: "https://i.discogs.com/c/R-11849140.jpeg"),
                    ReleaseCandidate(releaseID: 13_416_116, artist: "DJ Healer", title: "Nothing 2 Loose"),
                ],
                updatedAt: addedAt),
            release: nil, section: Section.unknown)
    }
}
