import CratesApp
import CratesCore
import CratesStore
import CratesTestSupport
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
        try await running(session) {
            _ = try await log.first("lookups off") { if case .discogs(.lookupsOff) = $0 { true } else { nil } }
            _ = try await log.first("the empty collection") { if case .window(let w) = $0, w.totalRecords == 0 { true } else { nil } }

            let code = Fixtures.gtin("5099750442227")
            session.perform(.add(.barcode(code), method: .wedge))
            let id = try await log.first("added") { if case .added(let id) = $0 { id } else { nil } }
            _ = try await log.first("said added") { if case .message("Added 5099750442227", false) = $0 { true } else { nil } }
            let window = try await log.first("a window with the new record") { event -> CollectionWindow? in
                if case .window(let w) = event, w.rows.contains(where: { $0.recordID == id }) { return w }
                return nil
            }
            #expect(window.rows.first?.lookupState == .pending)

            session.perform(.add(.barcode(code), method: .wedge))
            let question = try await log.first("a question") { if case .ask(let q) = $0 { q } else { nil } }
            #expect(question.kind == .anotherCopy(copies: 1))
            #expect(log.count { if case .message(let text, _) = $0 { text.hasPrefix("Added") } else { false } } == 1, "the duplicate is asked, not added")
            session.perform(question.yes)
            _ = try await log.first("two copies listed") { if case .window(let w) = $0, w.totalRecords == 2 { true } else { nil } }
            try await waitUntil("the copy said added") {
                log.count { if case .message("Added 5099750442227", false) = $0 { true } else { false } } == 2
            }

            session.perform(.delete([id]))
            let token = try await log.first("deleted") { if case .deleted(1, let token) = $0 { token } else { nil } }
            session.perform(.undo(token))
            _ = try await log.first("restored") { if case .restored(1) = $0 { true } else { nil } }
            #expect(try await temporary.store.record(id)?.gtin == code)
        }
    }

    @Test("a book asks; a price label is refused with a message; details come back for a record")
    func rulesAndDetails() async throws {
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = CollectionSession(store: temporary.store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            session.perform(.add(.barcode(Fixtures.gtin("9781617292156")), method: .typed))
            let question = try await log.first("a question") { if case .ask(let q) = $0 { q } else { nil } }
            #expect(question.text == "This is a book (ISBN 9781617292156): add it anyway?")
            session.perform(.add(.barcode(Fixtures.gtin("2012345678903")), method: .camera))
            let message = try await log.first("an error message") { if case .message(let text, true) = $0 { text } else { nil } }
            #expect(message.contains("restricted-circulation"))
            session.perform(question.yes)
            let id = try await log.first("added") { if case .added(let id) = $0 { id } else { nil } }
            session.perform(.loadDetails(id))
            let details = try await log.first("details") { if case .details(let d) = $0 { d } else { nil } }
            #expect(details.record.gtin?.canonical == "9781617292156")
            session.perform(.loadDetails(9_999))
            _ = try await log.first("gone") { if case .message("That record is gone", true) = $0 { true } else { nil } }
        }
    }
}
