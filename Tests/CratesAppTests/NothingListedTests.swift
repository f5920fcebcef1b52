import CratesCore
import CratesStore
import Testing

@testable import CratesApp

/// What `crates list` tells a person when nothing was listed: how to begin in an empty
/// collection; in one that holds records, that the filter kept none of them.
@Suite("CollectionExport: nothing listed")
struct NothingListedTests {
    @Test("empty, then one record that the filter does not keep")
    func words() async throws {
        let store = try CollectionStore.inMemory()
        let export = CollectionExport(store: store, filter: ExportFilter())
        #expect(try await export.nothingListed().hasPrefix("The collection is empty. Add the first record"))
        try await addPending(store, "5099750442227")
        #expect(try await export.nothingListed() == "No record matches (1 in the collection).")
    }
}
