import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

func release(_ id: Int, artist: String = "Artist", title: String = "Title", genres: [String] = ["Rock"]) -> Release {
    Release(
        id: id, artist: artist, title: title, genres: genres, styles: ["Indie"], formats: ["CD, Album"],
        year: 1997, country: "UK", labels: [.init(name: "One Little Indian", catno: "TPLP \(id)")],
        url: "https://www.discogs.com/release/\(id)", thumbURL: nil, rawJSON: "{\"id\": \(id)}")
}

/// Where a test's store lives: both kinds must behave the same.
enum StoreKind: String, CaseIterable, Sendable {
    case memory, file

    /// A new, empty store; `directory` keeps a file store's directory alive.
    func make() throws -> (CollectionStore, TemporaryDirectory?) {
        switch self {
        case .memory:
            return (try CollectionStore.inMemory(), nil)
        case .file:
            let directory = try TemporaryDirectory()
            return (try CollectionStore(path: directory.file("crates.sqlite")), directory)
        }
    }
}


/// The outline's counts (kept by triggers) must agree with the rows themselves.
func expectOutlineMatchesSections(_ store: CollectionStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let sections = try await store.sections()
    let outline = try await store.outline()
    #expect(outline.sections.map(\.name) == sections.map(\.name), sourceLocation: sourceLocation)
    #expect(outline.sections.map(\.count) == sections.map(\.rows.count), sourceLocation: sourceLocation)
}
