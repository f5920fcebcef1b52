import CratesApp
import CratesCore
import CratesStore
import Foundation
import Testing

/// `crates import`'s use case in process, without Discogs.
@Suite("Importer: plan, add, report")
struct ImporterTests {
    static let file = Array("5099750442227\n5099750442227\nhello\n0077774620024\nr249504\n".utf8)

    @Test("the plan adds each copy once; a second run adds nothing; lines refused and release rows said")
    func twice() async throws {
        let temporary = try TemporaryStore()
        let importer = Importer(store: temporary.store, progress: QuietImportProgress())
        let parsed = try ImportFile.parse(Self.file)
        let options = Importer.Options(lookups: false)
        let first = try await importer.run(parsed, name: "shelf.txt", options: options, discogs: { .failure(.notSignedIn) })
        #expect(first.added == 3)
        #expect(first.lines.first
            == "shelf.txt: 3 added, 0 already in the collection, 1 not added (known by release id only), 1 refused.")
        #expect(first.ending == .linesRefused, "lines refused outrank release rows not added")
        #expect(first.report.allItems.map(\.kind) == ["invalid", "not-added"])
        let again = try await importer.run(parsed, name: "shelf.txt", options: options, discogs: { .failure(.notSignedIn) })
        #expect(again.added == 0)
        #expect(again.lines.first?.hasPrefix("shelf.txt: 0 added, 3 already in the collection") == true)
        #expect(try await temporary.store.sections().flatMap(\.rows).count == 3)
    }

    @Test("a stop (the task cancelled) before the first batch adds nothing and says how to finish")
    func stopped() async throws {
        let temporary = try TemporaryStore()
        let importer = Importer(store: temporary.store, progress: QuietImportProgress())
        let parsed = try ImportFile.parse(Self.file)
        let outcome = try await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await importer.run(parsed, name: "shelf.txt", options: .init(lookups: false), discogs: { .failure(.notSignedIn) })
        }.value
        #expect(outcome.added == 0)
        #expect(outcome.ending == .interrupted)
        #expect(outcome.closingMessage == "Interrupted: 0 records added and kept; run the same import again to finish.")
    }

    @Test("lookups on, but the credentials cannot be read: the import stands and says why")
    func unusableCredentials() async throws {
        let temporary = try TemporaryStore()
        let importer = Importer(store: temporary.store, progress: QuietImportProgress())
        let outcome = try await importer.run(
            try ImportFile.parse(Array("5099750442227\n".utf8)), name: "one.txt", options: .init(),
            discogs: { .failure(.unusable("credentials.json is not valid JSON")) })
        #expect(outcome.added == 1)
        #expect(outcome.lines.contains("No lookups: cannot use Discogs: credentials.json is not valid JSON"))
        #expect(outcome.lines.contains("1 lookup waits in the queue: `crates`, or this import again, looks them up."))
    }
}
