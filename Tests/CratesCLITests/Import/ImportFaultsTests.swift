import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Issue 13: `crates import` and `crates add --wait` end with every record final (matched,
/// ambiguous, not found, skipped) through transient faults, and say how to resume when
/// Discogs cannot be reached or refuses the credentials (see ImportLookupTests).
@Suite("crates import and add --wait through faults (process)", .serialized, .processTimeLimit)
struct ImportFaultsTests {
    /// A sandbox signed in to a fresh loopback server that answers every valid GTIN
    /// (`--generate`), with `arguments` (a fault mix, say).
    private func signedIn(_ arguments: [String]) async throws -> (CommandSandbox, DiscogsTestServer) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(["--generate"] + arguments)
        sandbox.api = server.base
        try await sandbox.signIn(token: server.token)
        return (sandbox, server)
    }

    /// The fault mix (20% HTML 500s, 10% truncated JSON, 5% stalled answers), seeded,
    /// with a short stall: one import, every record matched.
    @Test("one import under the fault mix: every record final, none left failed")
    func faultMix() async throws {
        let (sandbox, server) = try await signedIn([
            "--fault-mix", "html500=0.2,truncated=0.1,stall=0.05", "--stall", "1", "--seed", "2024",
        ])
        defer { _ = server }
        let count = 30
        let file = sandbox.directory.appendingPathComponent("shelf.txt").path
        try Data((1...count).map { Fixtures.gtin(900_000 + $0).canonical + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let result = try await sandbox.crates(["import", file], deadline: .seconds(300))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [
            "\(file): \(count) added, 0 already in the collection.",
            "Discogs: \(count) lookups: \(count) matched, 0 ambiguous, 0 not found, 0 failed.",
        ], "\(result)")
        let store = try sandbox.openStore()
        #expect(try await store.waitingCount() == 0)
        let rows = try await store.sections().flatMap(\.rows)
        #expect(rows.count == count && rows.allSatisfy { $0.lookupState == .matched })
        let counters = try await server.lookupStats()
        let faults = counters.mixedFaults
        #expect((faults["html500"] ?? 0) + (faults["truncated"] ?? 0) > 0, "the mix did strike: \(faults)")
        #expect(counters.throttled == 0)
    }

    /// A captive portal or a misconfigured proxy answers one search with a redirect to
    /// another host: crates follows none, and tries the request again as after a 5xx.
    @Test("one search answered with a redirect to another host: tried again, every record matched, exit 0")
    func offHostRedirect() async throws {
        let (sandbox, server) = try await signedIn([])
        let count = 40
        let gtins = (1...count).map { Fixtures.gtin(930_000 + $0).canonical }
        try await server.inject("portal", count: 1, match: "barcode=" + gtins[7])
        let file = sandbox.directory.appendingPathComponent("shelf.txt").path
        try Data(gtins.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let result = try await sandbox.crates(["import", file], deadline: .seconds(300))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [
            "\(file): \(count) added, 0 already in the collection.",
            "Discogs: \(count) lookups: \(count) matched, 0 ambiguous, 0 not found, 0 failed.",
        ], "\(result)")
        #expect(try await server.lookupStats().count("barcode=" + gtins[7]) == 2)
    }

    @Test("an import that leaves a record failed (to be retried) says why and exits 5")
    func failedRecordExitStatus() async throws {
        let (sandbox, server) = try await signedIn([])
        let gtins = (1...3).map { Fixtures.gtin(940_000 + $0).canonical }
        // A 404 to a search is not tried again within the run: the record fails at once.
        try await server.inject("404", count: 1, match: "barcode=" + gtins[1])
        let file = sandbox.directory.appendingPathComponent("shelf.txt").path
        try Data(gtins.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let result = try await sandbox.crates(["import", file], deadline: .seconds(300))
        #expect(result.status == 5, "\(result)")
        #expect(result.stdout.contains("Discogs: 3 lookups: 2 matched, 0 ambiguous, 0 not found, 1 failed."), "\(result)")
        #expect(result.stdout.contains("Failed, to be retried: Discogs has no such resource"), "\(result)")
        #expect(result.stdout.contains("1 lookup waits in the queue (1 failed, to be retried)"), "\(result)")
        #expect(!result.stdout.contains("{"), "no raw answer quoted: \(result)")
    }

    @Test("add --wait through transient faults: the lookup ends matched, exit 0")
    func addWaitThroughFaults() async throws {
        let (sandbox, server) = try await signedIn(["--fault-mix", "html500=0.3,truncated=0.2", "--seed", "7"])
        defer { _ = server }
        let codes = (1...3).map { Fixtures.gtin(910_000 + $0).canonical }
        let result = try await sandbox.crates(["add", "--wait", "--timeout", "120"] + codes, deadline: .seconds(180))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.count == 3 && result.stdoutLines.allSatisfy { $0.contains("\tmatched\tArtist ") }, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    /// Refused connections: Discogs is unreachable after a few seconds of trying, said with
    /// how to resume.
    @Test("Discogs unreachable: the import says so and how to resume; the records wait, none claimed")
    func unreachable() async throws {
        let (signedIn, server) = try await signedIn([])
        defer { _ = server }
        var sandbox = signedIn
        let file = sandbox.directory.appendingPathComponent("shelf.txt").path
        try Data((1...5).map { Fixtures.gtin(920_000 + $0).canonical + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        sandbox.api = "http://127.0.0.1:9"  // nothing listens there
        let result = try await sandbox.crates(["import", file], deadline: .seconds(120))
        // Exit 4: the lookups stopped before the end (issue 12: never exit 0 then).
        #expect(result.status == 4, "\(result)")
        #expect(
            result.stdout.contains("Discogs cannot be reached: 5 lookups wait in the queue, and `crates`, or this import again, looks them up."),
            "\(result)")
        #expect(!result.stdout.contains("failed"), "\(result)")
        let store = try sandbox.openStore()
        #expect(try await store.waitingCount() == 5)
        #expect(try await store.sections().flatMap(\.rows).allSatisfy { [.pending, .failed].contains($0.lookupState) })

        // Online again: the same import finishes the job.
        sandbox.api = server.base
        let again = try await sandbox.crates(["import", file], deadline: .seconds(120))
        #expect(again.status == 0, "\(again)")
        #expect(again.stdoutLines.prefix(2) == [
            "\(file): 0 added, 5 already in the collection.", "Discogs: 5 lookups: 5 matched, 0 ambiguous, 0 not found, 0 failed.",
        ], "\(again)")
        #expect(try await store.waitingCount() == 0)
    }
}
