import CratesApp
import CratesCore
import CratesStore
import Foundation
import Testing

/// The collection UI's session, in process: requests in, events out, against a real store
/// file (no Discogs: lookups off).
@Suite("CollectionSession: requests in, events out")
struct CollectionSessionTests {
    @Test("add, duplicate question, allowed copy, delete and undo, each reported as the UI needs it")
    func addDeleteUndo() async throws {
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = CollectionSession(store: temporary.store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        session.start()
        defer { session.stop() }
        #expect(await log.first { if case .discogs(.lookupsOff) = $0 { true } else { nil } } == true)
        #expect(await log.first { if case .window(let w) = $0, w.totalRecords == 0 { true } else { nil } } == true)

        let code = try gtin("5099750442227")
        session.perform(.add(.barcode(code), method: .wedge))
        let id = try #require(await log.first { if case .added(let id) = $0 { id } else { nil } })
        let window = await log.first { event -> CollectionWindow? in
            if case .window(let w) = event, w.rows.contains(where: { $0.recordID == id }) { return w }
            return nil
        }
        #expect(window?.rows.first?.lookupState == .pending)

        session.perform(.add(.barcode(code), method: .wedge))
        let question = try #require(await log.first { if case .ask(let q) = $0 { q } else { nil } })
        #expect(question.kind == .anotherCopy(copies: 1))
        session.perform(question.yes)
        #expect(await log.first { if case .window(let w) = $0, w.totalRecords == 2 { true } else { nil } } == true)

        session.perform(.delete([id]))
        let token = try #require(await log.first { if case .deleted(1, let token) = $0 { token } else { nil } })
        session.perform(.undo(token))
        #expect(await log.first { if case .restored(1) = $0 { true } else { nil } } == true)
        #expect(try await temporary.store.record(id)?.gtin == code)
    }

    @Test("a book asks; a price label is refused with a message; details come back for a record")
    func rulesAndDetails() async throws {
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = CollectionSession(store: temporary.store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        session.start()
        defer { session.stop() }
        session.perform(.add(.barcode(try gtin("9781617292156")), method: .typed))
        let question = try #require(await log.first { if case .ask(let q) = $0 { q } else { nil } })
        #expect(question.text == "This is a book (ISBN 9781617292156): add it anyway?")
        session.perform(.add(.barcode(try gtin("2012345678903")), method: .camera))
        let message = await log.first { if case .message(let text, true) = $0 { text } else { nil } }
        #expect(message?.contains("restricted-circulation") == true)
        session.perform(question.yes)
        let id = try #require(await log.first { if case .added(let id) = $0 { id } else { nil } })
        session.perform(.loadDetails(id))
        let details = await log.first { if case .details(let d) = $0 { d } else { nil } }
        #expect(details?.record.gtin.canonical == "9781617292156")
        session.perform(.loadDetails(9_999))
        #expect(await log.first { if case .message("That record is gone", true) = $0 { true } else { nil } } == true)
    }
}
