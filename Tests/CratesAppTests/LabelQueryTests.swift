import CratesCore
import CratesStore
import Testing

@testable import CratesApp

/// `crates labels --records QUERY`: the query is read against the collection in the use
/// case, a label for each copy it keeps; a query that keeps none is refused with the query as
/// typed, before anything is written.
@Suite("LabelPrinting: --records as a query")
struct LabelQueryTests {
    @Test("a label per copy the query keeps; none kept is refused")
    func query() async throws {
        let store = try CollectionStore.inMemory()
        try await addPending(store, "5099750442227")
        try await addPending(store, "0727361626525")
        let printing = LabelPrinting(store: store)
        let pending = LabelPrinting.Request(
            records: ["state:pending"], recordQuery: try RecordQuery(arguments: ["state:pending"]), layout: "a4-3x7")
        let document = try await printing.document(for: pending)
        #expect(document.plan.pages.reduce(0) { $0 + $1.labels.count } == 2)
        let none = LabelPrinting.Request(
            records: ["state:notFound"], recordQuery: try RecordQuery(arguments: ["state:notFound"]), layout: "a4-3x7")
        await #expect {
            _ = try await printing.document(for: none)
        } throws: { error in
            "\(error)" == "nothing to print: no record matches state:notFound"
        }
    }
}
