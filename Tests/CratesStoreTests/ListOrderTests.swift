import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The list's orders within a section (`ListOrder`), from the store's sort key columns.
@Suite struct ListOrderTests {
    private func rockRelease(_ id: Int, _ artist: String, _ title: String, year: Int?, label: String, catno: String) -> Release {
        Release(
            id: id, artist: artist, title: title, genres: ["Rock"], styles: [], formats: ["Vinyl, LP"],
            year: year, country: "UK", labels: [.init(name: label, catno: catno)],
            url: nil, thumbURL: nil, rawJSON: "{\"id\": \(id)}")
    }

    /// Queen 1975 EMI, The Beatles 1969 Apple, Motörhead 1980 Bronze, Die Ärzte 1998 Hot
    /// Action, La Roux 2009 Polydor; and a record not matched yet.
    private func fill(_ store: CollectionStore) async throws -> [String: Int64] {
        let entries: [(String, Release?)] = [
            ("queen", rockRelease(1, "Queen", "A Night At The Opera", year: 1975, label: "EMI", catno: "EMTC 103")),
            ("beatles", rockRelease(2, "The Beatles", "Abbey Road", year: 1969, label: "Apple Records", catno: "PCS 7088")),
            ("motorhead", rockRelease(3, "Motörhead", "Ace Of Spades", year: 1980, label: "Bronze", catno: "BRON 531")),
            ("arzte", rockRelease(4, "Die Ärzte", "13", year: 1998, label: "Hot Action Records", catno: "HAR 1")),
            ("laroux", rockRelease(5, "La Roux", "La Roux", year: 2009, label: "Polydor", catno: "2701447")),
        ]
        var ids: [String: Int64] = [:]
        for (index, entry) in entries.enumerated() {
            ids[entry.0] = try await store.add(NewRecord(
                gtin: Fixtures.gtin(index + 1), addedAt: Date(timeIntervalSince1970: Double(1000 - index)), addMethod: .typed, release: entry.1)).id
        }
        return ids
    }

    private func rock(_ store: CollectionStore, _ order: ListOrder) async throws -> [Int64] {
        try await store.sections(order: order).first { $0.name == "Rock" }?.rows.map(\.recordID) ?? []
    }

    @Test(arguments: StoreKind.allCases)
    func eachOrderSortsTheSectionAsACollectorFilesIt(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let ids = try await fill(store)
        func names(_ rows: [Int64]) -> [String] { rows.map { id in ids.first { $0.value == id }?.key ?? "?" } }

        // Articles skipped: Ärzte (Die), Beatles (The); La Roux stays under L.
        #expect(names(try await rock(store, .artist)) == ["arzte", "beatles", "laroux", "motorhead", "queen"])
        #expect(names(try await rock(store, .title)) == ["arzte", "queen", "beatles", "motorhead", "laroux"])
        #expect(names(try await rock(store, .year)) == ["beatles", "queen", "motorhead", "arzte", "laroux"])
        // Added last first here: addedAt counts down.
        #expect(names(try await rock(store, .added)) == ["laroux", "arzte", "motorhead", "beatles", "queen"])
        #expect(names(try await rock(store, .label)) == ["beatles", "motorhead", "queen", "arzte", "laroux"])

        // The place order: no place first, then places by path, numbers as numbers.
        let room = try await store.addLocation(name: "Room", in: nil)
        let crate10 = try await store.addLocation(name: "Crate 10", in: room.id)
        let crate2 = try await store.addLocation(name: "Crate 2", in: room.id)
        _ = try await store.moveRecords([ids["queen"]!], to: crate10.id)
        _ = try await store.moveRecords([ids["beatles"]!, ids["motorhead"]!], to: crate2.id)
        #expect(names(try await rock(store, .place)) == ["arzte", "laroux", "beatles", "motorhead", "queen"])
        // A place renamed: its records follow.
        _ = try await store.changeLocation(crate10.id, name: "Crate 1")
        #expect(names(try await rock(store, .place)) == ["arzte", "laroux", "queen", "beatles", "motorhead"])

        // The collector's year wins, and the keys follow an edit.
        _ = try await store.edit(ids["laroux"]!, RecordEdit(values: RecordFields(year: 1960)))
        #expect(names(try await rock(store, .year)) == ["laroux", "beatles", "queen", "motorhead", "arzte"])

        // A window in each order agrees with the full list, and locates its focus.
        for order in ListOrder.allCases {
            let all = try await store.sections(order: order).flatMap(\.rows).map(\.recordID)
            let window = try await store.window(CollectionQuery(window: RowWindow(offset: 1, limit: 3), focus: all[4], order: order))
            #expect(window.rows.map(\.recordID) == Array(all[1...3]), "\(order)")
            #expect(window.focusRow == 4, "\(order)")
            #expect(window.order == order)
            // The filtered path too ("r" is in every record's text: the scan plan).
            let filtered = try await store.window(CollectionQuery(filter: "r", window: RowWindow(offset: 0, limit: 10), order: order))
            #expect(filtered.rows.map(\.recordID) == all.filter { id in filtered.rows.contains { $0.recordID == id } }, "\(order)")
            // `crates list`'s pages, one record each (paging by key in every order).
            let listed = LockedBox<[Int64]>([])
            try await store.forEachPage(ExportFilter(order: order), detail: .listing, pageSize: 1) { page in
                listed.withLock { $0 += page.map(\.record.id) }
            }
            #expect(listed.withLock { $0 } == all, "\(order)")
        }
    }

    @Test func filingArtistSkipsALeadingArticle() {
        #expect(ListOrder.filingArtist("the beatles") == "beatles")
        #expect(ListOrder.filingArtist("die arzte") == "arzte")
        #expect(ListOrder.filingArtist("les rita mitsouko") == "rita mitsouko")
        #expect(ListOrder.filingArtist("la roux") == "la roux")
        #expect(ListOrder.filingArtist("the the") == "the")
        #expect(ListOrder.filingArtist("theatre of hate") == "theatre of hate")
        #expect(ListOrder.filingArtist("the") == "the")
    }
}
