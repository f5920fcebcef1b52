import CratesApp
import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The UI's tagged records in the session, against a real store: every record shown
/// tagged, a copy label tagging its copy without moving it, and each tagged action in one go
/// with one undo; records another process deleted meanwhile counted and named.
@Suite("Session: tagged records")
struct TaggedSessionTests {
    static func add(_ store: CollectionStore, _ count: Int, in place: Int64? = nil) async throws -> [Int64] {
        var ids: [Int64] = []
        for n in 1...count {
            var new = NewRecord(gtin: Fixtures.gtin(n), addMethod: .typed)
            new.locationID = place
            ids.append(try await store.add(new).id)
        }
        return ids
    }

    @Test("T's request tags every record shown; a copy label in tag-by-scan mode tags its copy and moves nothing")
    func tagging() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let crate = try await store.addLocation(name: "Crate A1", in: nil)
        let ids = try await Self.add(store, 5)
        let log = EventLog()
        let session = CollectionSession(store: store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            session.perform(.tagShown(CollectionQuery(window: RowWindow(offset: 0, limit: 0))))
            let all = try await log.first("tagged") { if case .tagged(let ids, nil) = $0 { ids } else { nil } }
            #expect(Set(all) == Set(ids))
            // With a place current, a copy's label tags it and leaves it where it is.
            session.perform(.setLocation(crate.id))
            _ = try await log.first("the place") { if case .location(let place?) = $0 { place } else { nil } }
            session.perform(.tagCopy(try #require(LabelCode(kind: .copy, id: Int(ids[2])))))
            let one = try await log.first("tagged by scan") { if case .tagged(let ids, let title?) = $0 { (ids, title) } else { nil } }
            #expect(one.0 == [ids[2]] && one.1 == Fixtures.gtin(3).canonical)
            #expect(try await store.record(ids[2])?.location == nil, "tagging moves nothing")
            session.perform(.tagCopy(try #require(LabelCode(kind: .copy, id: 999))))
            _ = try await log.first("no such copy") { if case .message(let text, true) = $0, text.hasPrefix("No record has label") { true } else { nil } }
        }
    }

    @Test("a tagged move, grade, delete: one request each, one undo each; records deleted meanwhile are counted")
    func actions() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let crate = try await store.addLocation(name: "Crate A1", in: nil)
        let ids = try await Self.add(store, 40)
        let log = EventLog()
        let session = CollectionSession(store: store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            // Another process deletes two of the tagged records.
            let other = try CollectionStore(path: temporary.directory.file("crates.sqlite"))
            try await other.delete([ids[0], ids[1]])

            session.perform(.move(ids, to: crate.id))
            let moved = try await log.first("moved") { if case .moved(38, let to, let token) = $0, to?.id == crate.id { token } else { nil } }
            _ = try await log.first("said") { event -> Bool? in
                if case .message("Moved 38 records to Crate A1: u to undo; 2 could not be moved (deleted meanwhile)", false) = event { true } else { nil }
            }
            for id in ids.dropFirst(2) { #expect(try await store.record(id)?.location?.id == crate.id) }
            session.perform(.undo(moved))
            _ = try await log.first("moved back") { if case .message("Moved 38 records back", false) = $0 { true } else { nil } }
            for id in ids.dropFirst(2) { #expect(try await store.record(id)?.location == nil) }

            session.perform(.gradeRecords(ids, CopyGradingChange(media: .set(.nearMint))))
            let graded = try await log.first("graded") { event -> (String, Int)? in if case .edited(let text, let token) = event { (text, token) } else { nil } }
            #expect(graded.0 == "Set media \"Near Mint (NM or M-)\" on 38 records; 2 could not be edited (deleted meanwhile)")
            for id in ids.dropFirst(2) { #expect(try await store.record(id)?.grading.media == .nearMint) }
            session.perform(.undo(graded.1))
            _ = try await log.first("grades undone") { if case .message("Edit undone on 38 records", false) = $0 { true } else { nil } }
            for id in ids.dropFirst(2) { #expect(try await store.record(id)?.grading.media == nil) }

            session.perform(.delete(ids))
            let deleted = try await log.first("deleted") { if case .deleted(38, let token) = $0 { token } else { nil } }
            _ = try await log.first("said") { event -> Bool? in
                if case .message("Deleted 38 records: u to undo; 2 could not be deleted (deleted meanwhile)", false) = event { true } else { nil }
            }
            #expect(try await store.sections().flatMap(\.rows).isEmpty)
            session.perform(.undo(deleted))
            _ = try await log.first("restored") { if case .restored(38) = $0 { true } else { nil } }
            #expect(try await store.sections().flatMap(\.rows).count == 38)
        }
    }

    @Test("export of the tagged records: a CSV file in the directory started in, its path said; refresh queues them")
    func exportAndRefresh() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let ids = try await Self.add(store, 3)
        let directory = try TemporaryDirectory()
        let log = EventLog()
        let session = CollectionSession(
            store: store, discogs: nil, lookups: false, scanner: nil, exportDirectory: directory.path, post: log.post)
        try await running(session) {
            session.perform(.exportRecords([ids[0], ids[2], 999]))
            let said = try await log.first("exported") { if case .message(let text, false) = $0, text.hasPrefix("Exported") { text } else { nil } }
            let prefix = "Exported 2 records to "
            #expect(said.hasPrefix(prefix) && said.hasSuffix("; 1 could not be exported (deleted meanwhile)"), "\(said)")
            let path = String(said.dropFirst(prefix.count).prefix { $0 != ";" })
            #expect(path.hasPrefix(directory.path + "/crates-tagged-") && path.hasSuffix(".csv"))
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(Fixtures.gtin(1).canonical) && text.contains(Fixtures.gtin(3).canonical))
            #expect(!text.contains(Fixtures.gtin(2).canonical))

            session.perform(.refresh(ids))
            _ = try await log.first("queued") { if case .message("3 records queued to be looked up again", false) = $0 { true } else { nil } }
        }
    }
}
