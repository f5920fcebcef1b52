import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates import` with Discogs: the lookups drained in the process by the real worker and
/// libcurl against the loopback server (Tests/DiscogsServer/server.py), rows known by
/// release id, and the CSV round trip through `crates export --csv`.
@Suite("crates import with Discogs (process)", .serialized, .processTimeLimit)
struct ImportLookupTests {
    /// A sandbox signed in to a fresh loopback server.
    private func signedIn() async throws -> (CommandSandbox, DiscogsTestServer) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "import-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "import-token")
        return (sandbox, server)
    }

    private func write(_ text: String, _ name: String, in sandbox: CommandSandbox) throws -> String {
        let path = sandbox.directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the lookups drain in the process: summary, progress lines, what needs a person")
    func drain() async throws {
        let (sandbox, server) = try await signedIn()
        defer { _ = server }
        let path = try write("727361626525\n5099750442227\n5012345678900\n5000000000098\n", "shelf.txt", in: sandbox)
        let result = try await sandbox.crates(["import", path], deadline: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.prefix(4) == [
            "\(path): 4 added, 0 already in the collection.",
            "Discogs: 4 lookups: 2 matched, 1 ambiguous, 1 not found, 0 failed.",
            "Needs a person (2):",
            "  \(path):3: 5012345678900: ambiguous: 2 pressings share this barcode: choose one in the collection UI (Enter on the record)",
        ], "\(result)")
        #expect(result.stdoutLines.count == 6)
        #expect(result.stdoutLines[4].hasPrefix("  \(path):4: 5000000000098: not-found: Discogs knows no release"))
        #expect(result.stdoutLines.last?.contains("press N") == true, "the closing report points to the walk: \(result)")
        // Not a terminal: plain lines, the last one final.
        #expect(result.stderrLines.last == "lookups: 4/4 done, matched 2, ambiguous 1, not found 1, failed 0", "\(result)")
        let store = try sandbox.openStore()
        #expect(try await store.waitingCount() == 0)
        #expect(try await store.sections().map(\.name) == ["Electronic", "Rock", "Unknown"])
    }

    @Test("rows known only by release id: Discogs names the barcode, or none (a record without one); no such release: listed, exit 3")
    func releaseRows() async throws {
        let (sandbox, server) = try await signedIn()
        defer { _ = server }
        let csv = #"""
            Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes
            NB 265-2,HammerFall,Glory To The Brave,Nuclear Blast,"CD, Album",,1997,5134861,Metal,2020-01-02 03:04:05,,,"signed, by ""all"""
            SK032,The Persuader,Stockholm,Svek,"2x12""",,1999,1,Uncategorized,2019-03-14 10:23:45,,,
            X,Y,Z,L,F,,,999,Uncategorized,2019-03-14 10:23:45,,,

            """#
        let path = try write(csv, "discogs.csv", in: sandbox)
        let result = try await sandbox.crates(["import", path], deadline: .seconds(120))
        #expect(result.status == 3, "\(result)")
        #expect(result.stdoutLines.first == "\(path): 2 added, 0 already in the collection, 1 not added (known by release id only).")
        #expect(!result.stdout.contains("\(path):3:"), "a release without a barcode is a record without one: \(result)")
        #expect(result.stdout.contains("\(path):4: release 999: not-added: Discogs has no such release"), "\(result)")
        let store = try sandbox.openStore()
        let details = try #require(try await store.details(1))
        #expect(details.record.gtin?.canonical == "0727361626525")
        let persuader = try #require(try await store.details(2))
        #expect(persuader.record.gtin == nil && persuader.record.lookupState == .matched && persuader.release?.id == 1)
        #expect(details.record.lookupState == .matched && details.release?.id == 5_134_861)
        #expect(details.record.note == "signed, by \"all\"" && details.record.location?.pathText == "Metal")
        #expect(details.record.addedAt == ImportDate.parse("2020-01-02 03:04:05"))

        // Again: the releases already there are not fetched again; the missing one still fails.
        try await server.reset()
        let again = try await sandbox.crates(["import", path], deadline: .seconds(120))
        #expect(again.status == 3, "\(again)")
        #expect(again.stdoutLines.first == "\(path): 0 added, 2 already in the collection, 1 not added (known by release id only).")
        #expect(try await server.stats().releases == ["999"])
    }

    @Test("Discogs unreachable (connections refused for a few seconds), or refusing the credentials: the lookups stop, exit 4, the records wait in the queue")
    func stoppedLookups() async throws {
        var (sandbox, server) = try await signedIn()
        defer { _ = server }
        let path = try write("727361626525\n5099750442227\n0077774620024\n4004064480149\n", "shelf.txt", in: sandbox)
        // Nothing listens on port 9: every connection is refused.
        sandbox.api = "http://127.0.0.1:9"
        let offline = try await sandbox.crates(["import", path], deadline: .seconds(120))
        #expect(offline.status == 4, "\(offline)")
        #expect(offline.stdoutLines.first == "\(path): 4 added, 0 already in the collection.", "\(offline)")
        // One sentence: not "4/4 done … failed 4" beside "4 lookups wait in the queue".
        #expect(
            offline.stdoutLines.dropFirst().first
                == "Discogs cannot be reached: 4 lookups wait in the queue, and `crates`, or this import again, looks them up.",
            "\(offline)")
        #expect(!offline.stdout.contains("failed") && !offline.stdout.contains("Discogs: 4 lookups"), "\(offline)")
        #expect(!offline.stderr.contains("4/4 done"), "\(offline)")

        // A server that no longer takes the saved token, as after revoking it on Discogs.
        server = try await DiscogsTestServer.start(token: "another-token")
        sandbox.api = server.base
        let refused = try await sandbox.crates(["import", path], deadline: .seconds(120))
        #expect(refused.status == 4, "\(refused)")
        #expect(refused.stdoutLines.first == "\(path): 0 added, 4 already in the collection.", "\(refused)")
        #expect(refused.stdout.contains("Stopped: Discogs refused the credentials"), "\(refused)")
        #expect(refused.stdout.contains("the personal access token is wrong or was revoked") && refused.stdout.contains("run `crates auth --token`"), "\(refused)")
        let store = try sandbox.openStore()
        #expect(try await store.waitingCount() == 4)
        #expect(try await store.sections().flatMap(\.rows).allSatisfy { $0.lookupState != .lookingUp })
    }

    /// Export then import into an empty database gives the same collection: GTINs, release
    /// ids, notes, dates and locations; matched rows come back by release id, not by search.
    @Test("CSV round trip through crates export --csv")
    func roundTrip() async throws {
        let (sandbox, server) = try await signedIn()
        defer { _ = server }
        let seed = #"""
            barcode,note,date added,location
            727361626525,"signed, ""mint""
            sleeve worn",2020-01-02 03:04:05,Crate 1
            5099750442227,,2021-02-03 04:05:06,
            5099750442227,second copy,2021-02-03 04:05:07,Crate 2
            074643260619,,2022-03-04 05:06:07,
            5012345678900,ambiguous one,2023-04-05 06:07:08,
            5000000000098,,2023-04-05 06:07:09,

            """#
        let seeded = try await sandbox.crates(["import", try write(seed, "seed.csv", in: sandbox)], deadline: .seconds(120))
        #expect(seeded.status == 0, "\(seeded)")
        let exported = sandbox.directory.appendingPathComponent("collection.csv").path
        let export = try await sandbox.crates(["export", "--csv", exported])
        #expect(export.status == 0, "\(export)")

        try await server.reset()
        let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
        let imported = try await sandbox.crates(["import", "--db", copy, exported], deadline: .seconds(120))
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdoutLines.first == "\(exported): 6 added, 0 already in the collection.", "\(imported)")

        struct Copy: Hashable, Comparable {
            var gtin: String, release: Int?, note: String?, added: Date, location: String?, state: LookupState
            static func < (a: Copy, b: Copy) -> Bool { (a.gtin, a.added) < (b.gtin, b.added) }
        }
        func copies(_ store: CollectionStore) async throws -> [Copy] {
            var result: [Copy] = []
            for row in try await store.sections().flatMap(\.rows) {
                guard let record = try await store.record(row.recordID) else {
                    Issue.record("record \(row.recordID) is gone")
                    continue
                }
                result.append(Copy(
                    gtin: record.gtin?.canonical ?? "", release: record.releaseID, note: record.note, added: record.addedAt,
                    location: record.location?.pathText, state: record.lookupState))
            }
            return result.sorted()
        }
        let original = try await copies(try sandbox.openStore())
        let roundTripped = try await copies(try CollectionStore(path: copy))
        #expect(original.count == 6)
        #expect(original.compactMap(\.release).sorted() == [1, 5_134_861, 10_507_194, 10_507_194])
        #expect(original.first { $0.gtin == "0727361626525" }?.note == "signed, \"mint\"\nsleeve worn")
        #expect(roundTripped == original)

        // The matched records were fetched by their release id; only the others were searched.
        let stats = try await server.stats()
        #expect(Set(stats.releases) == ["1", "5134861", "10507194"])
        let searched = stats.searches
        let unmatched = ["5012345678900", "5000000000098"].compactMap { GTIN(canonical: $0) }.flatMap { DiscogsBarcodeQuery(gtin: $0).forms }
        #expect(!searched.isEmpty && searched.allSatisfy { unmatched.contains($0) }, "\(searched)")
    }
}
