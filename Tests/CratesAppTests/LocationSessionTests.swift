import CratesApp
import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The collection UI's place, in process: labels scanned into the session, records added
/// into the current place, the move question and its undo.
@Suite("Locations in the session and the adder")
struct LocationSessionTests {
    static func label(_ location: Location) throws -> CodeEntry { .label(try #require(location.code)) }

    @Test("a place's label makes it current; records added next go in it; the same label changes nothing; another switches")
    func labelsAndAdds() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let room = try await store.addLocation(name: "Living Room", in: nil)
        let crate = try await store.addLocation(name: "Crate A3", in: room.id)
        let other = try await store.addLocation(name: "Crate A4", in: room.id)
        let log = EventLog()
        let session = CollectionSession(store: store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        try await running(session) {

            session.perform(.add(try Self.label(crate), method: .wedge))
            let first = Fixtures.gtin("5029141777638")
            let second = Fixtures.gtin("5017066907438")
            // Straight after the label, before its event could have come back: the order of the
            // requests is what puts them in the place.
            session.perform(.add(.barcode(first), method: .wedge))
            session.perform(.add(.barcode(second), method: .wedge))
            let entered = try await log.first("the place") { if case .location(let place?) = $0 { place } else { nil } }
            #expect(entered.display == "Crate A3 (Living Room)")
            _ = try await log.first("two added") { event -> Bool? in
                if case .window(let w) = event, w.totalRecords == 2 { return true }
                return nil
            }
            for row in try await store.sections().flatMap(\.rows) {
                #expect(try await store.record(row.recordID)?.location?.id == crate.id)
            }
            #expect(try await store.copies(of: try #require(crate.code).gtin) == 0, "the label is never a record")

            // The same label again: no new place event; then another place: one.
            session.perform(.add(try Self.label(crate), method: .wedge))
            session.perform(.add(try Self.label(other), method: .camera))
            let switched = try await log.first("the other place") { if case .location(let place?) = $0, place.id == other.id { place } else { nil } }
            #expect(switched.name == "Crate A4")
            #expect(log.count { if case .location = $0 { true } else { false } } == 2)

            // A record of the collection scanned with another place current: asked, moved, undone.
            session.perform(.add(.barcode(first), method: .wedge))
            let question = try await log.first("the move question") { if case .ask(let q) = $0 { q } else { nil } }
            guard case .moveHere(let move) = question.kind else {
                Issue.record("expected a move question, got \(question.kind)")
                return
            }
            #expect(move.from?.id == crate.id && move.to.id == other.id)
            #expect(question.text == "5029141777638, in Crate A3: move it here?")
            session.perform(try #require(question.request(for: question.defaultAnswer)))
            let token = try await log.first("moved") { if case .moved(1, let to, let token) = $0, to?.id == other.id { token } else { nil } }
            #expect(try await store.record(move.recordID)?.location?.id == other.id)
            session.perform(.undo(token))
            _ = try await log.first("moved back") { if case .message("Moved 1 record back", false) = $0 { true } else { nil } }
            #expect(try await store.record(move.recordID)?.location?.id == crate.id)

            // "c": another copy, here.
            let before = Set(try await store.sections().flatMap(\.rows).map(\.recordID))
            session.perform(try #require(question.request(for: .anotherCopy)))
            let added = try await log.first("another copy") { if case .added(let id) = $0, !before.contains(id) { id } else { nil } }
            #expect(try await store.record(added)?.location?.id == other.id)
            #expect(try await store.copies(of: first) == 2)
        }
    }

    @Test("a copy's label with a place current shelves that copy there (undo puts it back), in no place or in another")
    func copyLabelShelves() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let crate = try await store.addLocation(name: "Crate A3", in: nil)
        let shelf = try await store.addLocation(name: "Shelf 1", in: nil)
        let loose = try await store.add(NewRecord(gtin: Fixtures.gtin("5029141777638"), addMethod: .typed))
        let shelved = try await store.add(NewRecord(gtin: Fixtures.gtin("5017066907438"), addMethod: .typed, locationID: shelf.id))
        let log = EventLog()
        let session = CollectionSession(store: store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            session.perform(.add(try Self.label(crate), method: .wedge))
            _ = try await log.first("entered") { if case .location(.some) = $0 { true } else { nil } }
            // In another place: moved from there, and undo puts it back.
            session.perform(.add(.label(try #require(LabelCode(kind: .copy, id: Int(shelved.id)))), method: .wedge))
            _ = try await log.first("selected") { if case .select(let id) = $0, id == shelved.id { id } else { nil } }
            let token = try await log.first("moved") { if case .moved(1, let to, let token) = $0, to?.id == crate.id { token } else { nil } }
            let said = try await log.first("said") { if case .message(let text, false) = $0, text.hasPrefix("Put ") { text } else { nil } }
            #expect(said.hasSuffix(" from Shelf 1 in Crate A3: u to undo"), "\(said)")
            #expect(try await store.record(shelved.id)?.location?.id == crate.id)
            session.perform(.undo(token))
            _ = try await log.first("moved back") { if case .message("Moved 1 record back", false) = $0 { true } else { nil } }
            #expect(try await store.record(shelved.id)?.location?.id == shelf.id)
            // In no place: put in the current one.
            session.perform(.add(.label(try #require(LabelCode(kind: .copy, id: Int(loose.id)))), method: .wedge))
            let loosePut = try await log.first("put") {
                if case .message(let text, false) = $0, text.hasPrefix("Put "), !text.contains(" from ") { text } else { nil }
            }
            #expect(loosePut.hasSuffix(" in Crate A3: u to undo"), "\(loosePut)")
            #expect(try await store.record(loose.id)?.location?.id == crate.id)
        }
    }

    @Test("a label of no place leaves the place; a copy's label selects it; none can be added by the command line")
    func unknownAndCopies() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let crate = try await store.addLocation(name: "Crate A3", in: nil)
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin("5029141777638"), addMethod: .typed))
        let log = EventLog()
        let session = CollectionSession(store: store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            session.perform(.add(try Self.label(crate), method: .wedge))
            _ = try await log.first("entered") { if case .location(.some) = $0 { true } else { nil } }
            session.perform(.add(.label(try #require(LabelCode(kind: .location, id: 999))), method: .wedge))
            _ = try await log.first("left") { if case .location(nil) = $0 { true } else { nil } }
            let message = try await log.first("why") { if case .message(let text, true) = $0 { text } else { nil } }
            #expect(message == "No place has label 2900000009998 (crates location label 999: removed?): showing every record")
            session.perform(.add(.label(try #require(LabelCode(kind: .copy, id: Int(record.id)))), method: .camera))
            let selected = try await log.first("selected") { if case .select(let id) = $0 { id } else { nil } }
            #expect(selected == record.id)
        }

        let adder = RecordAdder(store: store, discogs: nil)
        guard case .refused(let reason) = try await adder.add(try Self.label(crate), method: .typed) else {
            Issue.record("a label must be refused as a record")
            return
        }
        #expect(reason == "crates location label \(crate.id): a place's own label, not a record's barcode")
        // Every copy already in the place: the question is another copy's, not a move.
        _ = try await store.moveRecords([record.id], to: crate.id)
        guard case .held(let question) = try await adder.add(.barcode(Fixtures.gtin("5029141777638")), method: .wedge, into: crate)
        else {
            Issue.record("a duplicate must be held")
            return
        }
        #expect(question.kind == .anotherCopy(copies: 1))
    }

    @Test("the directory: names, paths and ids; what a removal would take; record ids and copy labels")
    func directory() async throws {
        let temporary = try TemporaryStore()
        let directory = LocationDirectory(store: temporary.store)
        let room = try await directory.add("Living Room", in: nil)
        let shelf = try await directory.add("Shelf 2", in: "living room")
        _ = try await directory.add("Crate A3", in: "Living Room/Shelf 2")
        let record = try await temporary.store.add(NewRecord(gtin: Fixtures.gtin("5029141777638"), addMethod: .typed))
        let moved = try await directory.move([record.id, 77], to: "Shelf 2/Crate A3")
        #expect(moved.moved == [record.id] && moved.missing == [77])
        #expect(moved.summary == "Moved 1 record into Crate A3 (Living Room › Shelf 2)")
        let removal = try await directory.removal(of: "#\(room.id)")
        #expect(removal.records == 1 && removal.places == 2 && removal.holdsSomething)
        #expect(removal.question == "Living Room holds 1 record and 2 places: remove it and the places inside it? "
            + "The records stay in the collection, in no place (--move-to PLACE moves them instead).")
        let entries = try await directory.entries()
        #expect(entries.map(LocationDirectory.line) == [
            "\(room.id)\t2900000000018\t1\tLiving Room", "\(shelf.id)\t2900000000025\t1\tLiving Room › Shelf 2",
            "3\t2900000000032\t1\tLiving Room › Shelf 2 › Crate A3",
        ])
        #expect(try LocationDirectory.jsonLine(entries[1])
            == #"{"code":"2900000000025","count":1,"id":2,"name":"Shelf 2","parent":1,"path":"Living Room › Shelf 2"}"#)
        #expect(try LocationDirectory.recordID("12").get() == 12)
        #expect(try LocationDirectory.recordID("2910000000055").get() == 5)
        #expect(throws: LocationError.self) { try LocationDirectory.recordID("2900000000018").get() }
        #expect(throws: LocationError.label(.checkDigit(kind: .copy, id: 5, expected: 5, found: 4))) {
            try LocationDirectory.recordID("2910000000054").get()
        }
        let done = try await directory.remove(removal.location, moveTo: nil)
        #expect(done == "Removed Living Room and 2 places inside it; 1 record now in no place")
    }

    @Test("records without a barcode and places: one entered by hand goes in the current place; a release that lists none is offered to move here")
    func withoutABarcode() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let crate = try await store.addLocation(name: "Crate A3", in: nil)
        let other = try await store.addLocation(name: "Crate A4", in: nil)
        let log = EventLog()
        let session = CollectionSession(store: store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            session.perform(.setLocation(crate.id))
            _ = try await log.first("the place") { if case .location(let place?) = $0, place.id == crate.id { true } else { nil } }
            let typed = try RecordFields.handEntered([.artist: "The Nice", .title: "Ars Longa Vita Brevis"])
            session.perform(.enterByHand(typed, for: nil))
            let id = try await log.first("entered") { if case .added(let id) = $0 { id } else { nil } }
            let entered = try #require(try await store.record(id))
            #expect(entered.gtin == nil && entered.lookupState == .handEntered && entered.location?.id == crate.id)
        }

        // A release that lists no barcode, already in one place (`known`: no Discogs needed).
        let bare = Release(
            id: 1, artist: "The Persuader", title: "Stockholm", genres: ["Electronic"], styles: [], formats: ["Vinyl"],
            year: 1999, country: "Sweden", labels: [], url: "https://www.discogs.com/release/1", thumbURL: nil, rawJSON: "{}")
        let adder = RecordAdder(store: store, discogs: nil)
        guard case .added(let first, _) = try await adder.add(.release(1), method: .search, into: crate, known: bare) else {
            Issue.record("a release without a barcode is added")
            return
        }
        #expect(first.gtin == nil && first.location?.id == crate.id)
        guard case .held(let question) = try await adder.add(.release(1), method: .search, into: other, known: bare) else {
            Issue.record("the same release with another place current: asked")
            return
        }
        guard case .moveHere(let move) = question.kind else {
            Issue.record("expected a move question, got \(question.kind)")
            return
        }
        #expect(move.recordID == first.id && move.from?.id == crate.id && move.to.id == other.id)
        #expect(question.text == "The Persuader — Stockholm, in Crate A3: move it here?")
        #expect(question.request(for: .anotherCopy) == .add(.release(1), method: .search, allowing: .anotherCopy))
    }
}

/// The statistics screen's request, in process: two answers, the totals and genres first,
/// then the other charts, with the same totals as `crates stats` counts.
@Suite("Statistics in the session")
struct StatisticsSessionTests {
    @Test("loadStatistics: the genres' chart first, then every other dimension, the totals in both")
    func twoAnswers() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin("5029141777638"), addMethod: .typed))
        let log = EventLog()
        let session = CollectionSession(store: store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        session.start()
        session.perform(.loadStatistics)
        let answers = try await log.first("two statistics answers") { _ -> [CollectionStatistics]? in
            let all = log.all.compactMap { event -> CollectionStatistics? in
                if case .statistics(let statistics) = event { statistics } else { nil }
            }
            return all.count == 2 ? all : nil
        }
        #expect(answers[0].dimensions.map(\.dimension) == [.genre])
        #expect(answers[1].dimensions.map(\.dimension) == StatisticsDimension.allCases.filter { $0 != .genre })
        #expect(answers.allSatisfy { $0.totals.copies == 1 && $0.totals.waiting == 1 })
        await session.stopped()
    }
}
