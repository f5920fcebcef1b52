import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Places in the real collection UI under tmux, with no Discogs server: a place's label
/// scanned by a keyboard-wedge scanner makes it current, what is scanned next goes in it,
/// and a record scanned again with another place current is moved on y.
@Suite("TUI end to end: places", .serialized, .processTimeLimit)
struct TUILocationEndToEndTests {
    @Test("scan a place's label then two records: both are there; another place's label and one of them again, y: it moved")
    func scanIntoPlaces() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let (first, second): (Location, Location)
        do {
            let store = try CollectionStore(path: sandbox.database)
            let room = try await store.addLocation(name: "Living Room", in: nil)
            let shelf1 = try await store.addLocation(name: "Shelf 1", in: room.id)
            let shelf2 = try await store.addLocation(name: "Shelf 2", in: room.id)
            first = try await store.addLocation(name: "Crate A1", in: shelf1.id)
            second = try await store.addLocation(name: "Crate A3", in: shelf2.id)
        }
        let firstLabel = try #require(first.code).digits
        let secondLabel = try #require(second.code).digits
        let records = ["5029141777638", "5017066907438"]

        let tmux = try await sandbox.start(width: 100, height: 24)
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.type(firstLabel + "\r")
        try await tmux.waitFor(text: "→ Crate A1 (Living Room › Shelf 1)")
        try await tmux.type(records.map { $0 + "\r" }.joined())
        try await tmux.waitFor(text: "2 records")
        let store = try CollectionStore(path: sandbox.database)
        try await waitUntil("both records in Crate A1") {
            try await Self.places(store) == [records[0]: first.id, records[1]: first.id]
        }
        // The same label again changes nothing.
        try await tmux.type(firstLabel + "\r")
        try await tmux.waitFor(text: "→ Crate A1 (Living Room › Shelf 1)")

        try await tmux.type(secondLabel + "\r")
        try await tmux.waitFor(text: "→ Crate A3 (Living Room › Shelf 2)")
        try await tmux.waitFor(text: "Nothing in Crate A3 yet.")
        try await tmux.type(records[0] + "\r")
        try await tmux.waitFor(text: "\(records[0]), in Crate A1: move it here? (Y/n, c: another copy)")
        try await tmux.press("y")
        try await tmux.waitFor(text: "Moved to Crate A3: u to undo")
        try await waitUntil("the first record in Crate A3, the second still in Crate A1") {
            try await Self.places(store) == [records[0]: second.id, records[1]: first.id]
        }
        try await tmux.waitFor(text: records[0])

        // A label typed with a wrong check digit is refused in the prompt, saying which it meant.
        let mistyped = String(secondLabel.dropLast()) + (secondLabel.last == "9" ? "0" : "9")
        try await tmux.type(mistyped + "\r")
        try await tmux.waitFor(text: "looks like crates location label \(second.id)")
        try await tmux.press("Escape")
        // L: the tree with counts; Esc back; Esc again leaves the place.
        try await tmux.press("L")
        try await tmux.waitFor(text: "crates · places")
        // The room holds both records (one in each crate): its count is 2.
        try await tmux.waitFor("the tree with the room's count") { lines in
            lines.contains { $0.contains("Living Room") && $0.hasSuffix(" 2") }
        }
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "crates · in Crate A3")
        try await tmux.press("Escape")
        try await tmux.waitFor("the place left") { lines in !lines.contains { $0.contains("→ Crate A3") } && lines.contains { $0.contains("2 records") } }
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)

        // The labels were never stored as records.
        let rows = try await store.sections().flatMap(\.rows)
        #expect(rows.map(\.gtin).sorted() == records.sorted())
        for label in [first, second] {
            #expect(try await store.copies(of: try #require(label.code).gtin) == 0)
        }
    }

    /// Each record's place, by barcode.
    static func places(_ store: CollectionStore) async throws -> [String: Int64] {
        var places: [String: Int64] = [:]
        for row in try await store.sections().flatMap(\.rows) {
            if let place = try await store.record(row.recordID)?.location { places[row.gtin] = place.id }
        }
        return places
    }
}
