import CratesCore
import CratesStore
import CratesTestSupport
import Testing

/// The list's queries: a filter over artist, title, label, catno and GTIN; a record located.
@Suite struct QueryTests {
    /// Björk (Electronic), Portishead (Electronic), Nick Drake (Folk), and one unmatched.
    static func collection(_ kind: StoreKind) async throws -> (CollectionStore, TemporaryDirectory?, [Int64]) {
        let (store, directory) = try kind.make()
        let ids = try await store.addAll([
            NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed, release: release(1, artist: "Björk", title: "Homogenic", genres: ["Electronic"])),
            NewRecord(gtin: Fixtures.gtin(2), addMethod: .typed, release: release(2, artist: "Portishead", title: "Dummy", genres: ["Electronic"])),
            NewRecord(gtin: Fixtures.gtin(3), addMethod: .typed, release: release(3, artist: "Nick Drake", title: "Pink Moon", genres: ["Folk, World, & Country"])),
            NewRecord(gtin: Fixtures.gtin(4), addMethod: .wedge),
        ])
        return (store, directory, ids)
    }

    @Test(arguments: StoreKind.allCases)
    func filterMatchesEveryWordFoldedAcrossFields(_ kind: StoreKind) async throws {
        let (store, directory, ids) = try await Self.collection(kind)
        _ = directory
        func rows(_ filter: String) async throws -> [Int64] {
            try await store.window(CollectionQuery(filter: filter, window: RowWindow(offset: 0, limit: 50))).rows.map(\.recordID)
        }
        #expect(try await rows("bjork") == [ids[0]], "accents folded")
        #expect(try await rows("PINK moon") == [ids[2]], "case folded, every word")
        #expect(try await rows("pink dummy").isEmpty)
        #expect(try await rows("tplp").count == 3, "catalogue numbers")
        #expect(try await rows("little indian").count == 3, "label names")
        #expect(try await rows(Fixtures.gtin(4).canonical) == [ids[3]], "barcodes, matched or not")
        let window = try await store.window(CollectionQuery(filter: "moon", window: RowWindow(offset: 0, limit: 50)))
        #expect(window.outline.sections.map(\.name) == ["Folk, World, & Country"])
        #expect(window.outline.rowCount == 1)
        #expect(window.totalRecords == 4, "the whole collection's size, whatever the filter")
        #expect(window.filter == "moon")
    }

    @Test(arguments: StoreKind.allCases)
    func focusRowLocatesARecordOutsideTheWindow(_ kind: StoreKind) async throws {
        let (store, directory, ids) = try await Self.collection(kind)
        _ = directory
        // By title: Electronic (Dummy, Homogenic), Folk (Pink Moon), Unknown (the unmatched one).
        var window = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 1), focus: ids[3], order: .title))
        #expect(window.rows.map(\.recordID) == [ids[1]])
        #expect(window.focusRow == 3)
        window = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 1), focus: ids[0], order: .title))
        #expect(window.focusRow == 1)
        window = try await store.window(CollectionQuery(filter: "moon", window: RowWindow(offset: 0, limit: 5), focus: ids[2]))
        #expect(window.focusRow == 0)
        window = try await store.window(CollectionQuery(filter: "moon", window: RowWindow(offset: 0, limit: 5), focus: ids[0]))
        #expect(window.focusRow == nil, "filtered out")
        _ = try await store.delete([ids[0]])
        window = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 5), focus: ids[0]))
        #expect(window.focusRow == nil, "deleted")
    }

    @Test func nonASCIINamesAreFoldedForSearch() async throws {
        let (store, _) = try StoreKind.memory.make()
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(9), addMethod: .typed, release: release(9, artist: "Sigur Rós", title: "( )")))
        let rows = try await store.window(CollectionQuery(filter: "sigur ros", window: RowWindow(offset: 0, limit: 5))).rows
        #expect(rows.count == 1)
    }
}
