import CratesApp
import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Testing

/// The rules for adding one copy, against a real store file.
@Suite("RecordAdder: the admission and duplicate rules")
struct RecordAdderTests {
    @Test("a record's barcode is added pending; again, it is held as another copy until allowed")
    func duplicates() async throws {
        let temporary = try TemporaryStore()
        let adder = RecordAdder(store: temporary.store, discogs: nil)
        let code = Fixtures.gtin("5099750442227")
        guard case .added(let first, nil) = try await adder.add(.barcode(code), method: .typed) else {
            Issue.record("not added")
            return
        }
        #expect(first.lookupState == .pending && first.addMethod == .typed)
        guard case .held(let question) = try await adder.add(.barcode(code), method: .wedge) else {
            Issue.record("a duplicate must be held")
            return
        }
        #expect(question.kind == .anotherCopy(copies: 1))
        #expect(question.text == "5099750442227: already have 1 copy: add another?")
        #expect(question.yes == .add(.barcode(code), method: .wedge, allowing: .anotherCopy))
        guard case .added = try await adder.add(.barcode(code), method: .wedge, allowing: .anotherCopy) else {
            Issue.record("allowed, another copy is added")
            return
        }
        #expect(try await temporary.store.copies(of: code) == 2)
    }

    @Test("already have: the question names where the copies are and their grades")
    func alreadyHaveNamesPlaceAndGrade() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let adder = RecordAdder(store: store, discogs: nil)
        let code = Fixtures.gtin("5099750442227")
        let shelf = try await store.addLocation(name: "Shelf 2", in: try await store.addLocation(name: "Room", in: nil).id)
        _ = try await store.add(NewRecord(
            gtin: code, addMethod: .typed, locationID: shelf.id, grading: CopyGrading(media: .veryGoodPlus, sleeve: .veryGood)))
        guard case .held(let question) = try await adder.add(.barcode(code), method: .wedge) else {
            Issue.record("a duplicate must be held")
            return
        }
        #expect(question.text == "5099750442227: already have 1 copy (in Room › Shelf 2, VG+/VG): add another?")
    }

    @Test("a book is held until allowed, then added to be looked up; a duplicate book asks twice")
    func books() async throws {
        let temporary = try TemporaryStore()
        let adder = RecordAdder(store: temporary.store, discogs: nil)
        let isbn = Fixtures.gtin("9781617292156")
        guard case .held(let question) = try await adder.add(.barcode(isbn), method: .typed) else {
            Issue.record("a book must be held")
            return
        }
        #expect(question.text == "This is a book (ISBN 9781617292156): add it anyway?")
        #expect(try await temporary.store.copies(of: isbn) == 0)
        guard case .added(let record, _) = try await adder.add(.barcode(isbn), method: .typed, allowing: .notARecord) else {
            Issue.record("allowed, the book is added")
            return
        }
        #expect(record.lookupState == .pending)
        guard case .held(let again) = try await adder.add(.barcode(isbn), method: .typed, allowing: .notARecord) else {
            Issue.record("a second copy of the book must be held")
            return
        }
        #expect(again.kind == .anotherCopy(copies: 1))
        #expect(again.yes == .add(.barcode(isbn), method: .typed, allowing: [.notARecord, .anotherCopy]))
    }

    @Test("a shop's price label is refused whatever is allowed, and nothing is stored")
    func priceLabel() async throws {
        let temporary = try TemporaryStore()
        let adder = RecordAdder(store: temporary.store, discogs: nil)
        let label = Fixtures.gtin("2012345678903")
        guard case .refused(let reason) = try await adder.add(.barcode(label), method: .typed, allowing: [.notARecord, .anotherCopy])
        else {
            Issue.record("a price label must be refused")
            return
        }
        #expect(reason.contains("restricted-circulation"))
        #expect(try await temporary.store.copies(of: label) == 0)
    }

    @Test("a release without Discogs set up is refused with the reason")
    func releaseWithoutDiscogs() async throws {
        let temporary = try TemporaryStore()
        guard case .refused(let reason) = try await RecordAdder(store: temporary.store, discogs: nil).add(.release(1), method: .releaseID)
        else {
            Issue.record("refused")
            return
        }
        #expect(reason == "adding by release needs Discogs, which is not set up")
    }
}
