import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// A pressing chosen in the UI: its release fetched and the record matched to it; when the
/// release cannot be fetched, the choice is the person's, kept whatever the network does
/// (the quit before the answer is `TUIPressingChoiceEndToEndTests`).
@Suite("A pressing chosen in the UI: fetched, or kept while Discogs fails", .serialized)
struct PressingChoiceTests {
    @Test("Discogs failing past its retries: the choice is said to be kept, the record queued with that release, which a lookup then fetches")
    func keptWhenDiscogsFails() async throws {
        let (server, temporary, log, session) = try await NoBarcodeTests.session()
        let gtin = try #require(GTIN(canonical: "5012345678900"))
        let record = try await temporary.store.add(NewRecord(gtin: gtin, addMethod: .typed))
        try await server.inject("html500", count: 100, match: "/releases/20000005")
        try await running(session) {
            session.perform(.choose(recordID: record.id, releaseID: 20_000_005))
            let said = try await log.first("the choice kept") { event -> String? in
                if case .message(let text, _) = event, text.contains("the choice is kept") { text } else { nil }
            }
            #expect(said == "Discogs had a problem (HTTP 500): the choice is kept, and release 20000005 is fetched when Discogs answers")
        }
        // A person watches: two retries (3 s), not a one-shot command's four (15 s).
        #expect(try await server.lookupStats().count("/releases/20000005") == 1 + RequestRetry.choicePauses.count)
        let queued = try #require(try await temporary.store.details(record.id))
        #expect(queued.record.lookupState == .pending)
        #expect(queued.history.last?.message == "chose release 20000005: fetched when Discogs answers")
        // Discogs answers again: the lookup fetches the release chosen, not the barcode's search.
        try await server.reset()
        let outcome = try await Refresh.run([record.id], store: temporary.store, access: try NoBarcodeTests.access(server), timeout: 30)
        #expect(outcome.ending == .complete, "\(outcome.messages)")
        #expect(try await temporary.store.details(record.id)?.release?.id == 20_000_005)
        let stats = try await server.stats()
        #expect(stats.releases == ["20000005"] && stats.searches.isEmpty, "\(stats)")
    }

    @Test("a pressing of the fixtures' shared barcode chosen: its release fetched, the record matched to it")
    func chosenAndFetched() async throws {
        let (server, temporary, _, session) = try await NoBarcodeTests.session()
        let gtin = try #require(GTIN(canonical: "5012345678900"))
        let record = try await temporary.store.add(NewRecord(gtin: gtin, addMethod: .typed))
        try await running(session) {
            session.perform(.choose(recordID: record.id, releaseID: 13_416_116))
            try await waitUntil("matched to the pressing chosen") {
                try await temporary.store.details(record.id)?.release?.id == 13_416_116
            }
        }
        let details = try #require(try await temporary.store.details(record.id))
        #expect(details.record.lookupState == .matched)
        #expect(details.displayTitle == "DJ Healer — Nothing 2 Loose" && details.release?.year == 2019)
        #expect(try await temporary.store.sections().map(\.name) == ["Electronic"])
        #expect(try await server.stats().releases == ["13416116"])
    }
}
