import CratesTestSupport
import Foundation
import Testing

/// `crates add --wait` ends when it says it will: at its `--timeout`, or at SIGTERM, whatever it
/// is waiting for (a lookup Discogs holds, a catalogue that cannot be used, a release asked
/// again through Discogs' faults). The loopback server holds the answers, so each test proves
/// the same on a slow machine as on a fast one.
@Suite("crates add --wait: its timeout and SIGTERM (process)", .serialized, .processTimeLimit)
struct AddStopTests {
    /// A FIFO at the catalogue's default path: nothing ever writes it.
    static func fifoCatalogue(_ sandbox: CommandSandbox) throws -> String {
        let catalogue = CatalogueCommandTests.cataloguePath(sandbox)
        try FileManager.default.createDirectory(
            atPath: (catalogue as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(mkfifo(catalogue, 0o600) == 0)
        return catalogue
    }

    @Test("SIGTERM while Discogs holds the lookup: exit 143, the record back in the queue, its line printed", arguments: [false, true])
    func sigtermDuringALookup(fifo: Bool) async throws {
        let (sandbox, server) = try await AddByReleaseFaultsTests.signedIn()
        if fifo { _ = try Self.fifoCatalogue(sandbox) }
        try await server.hold(match: "/database/search")
        let adding = try ProcessRunner.startCrates(["add", "--wait", "727361626525"], environment: sandbox.environment, deadline: .seconds(120))
        try await server.waitUntilHeld()
        #expect(adding.signal(SIGTERM))
        let result = await adding.result()
        try await server.release()
        #expect(result.status == 143 && !result.signalled && !result.timedOut, "\(result)")
        #expect(result.stdoutLines == ["1\t0727361626525\tpending\t"], "\(result)")
        if fifo { #expect(result.stderr.contains("not a regular file"), "\(result)") }
        #expect(try await sandbox.openStore().waitingCount() == 1, "the lookup in hand went back to the queue")
    }

    @Test("a catalogue that cannot be used (a FIFO) and Discogs holding the lookup: --timeout 5 ends it, exit 3")
    func timeoutWithAFIFOCatalogue() async throws {
        let (sandbox, server) = try await AddByReleaseFaultsTests.signedIn()
        _ = try Self.fifoCatalogue(sandbox)
        try await server.hold(match: "/database/search")
        let result = try await sandbox.crates(["add", "--wait", "--timeout", "5", "727361626525"], deadline: .seconds(120))
        try await server.release()
        #expect(result.status == 3 && !result.timedOut, "\(result)")
        #expect(result.stderr.contains("gave up waiting after 5 s"), "\(result)")
        #expect(result.stderr.contains("not a regular file"), "\(result)")
    }

    @Test("SIGTERM while a release is asked again through Discogs' faults: ends at once (143), nothing added, the retries not all sent", arguments: [false, true])
    func sigtermDuringRetries(wait: Bool) async throws {
        let (sandbox, server) = try await AddByReleaseFaultsTests.signedIn()
        try await server.inject("html500", count: 5, match: "/releases/5134861")
        let before = try await server.stats().requests
        let adding = try ProcessRunner.startCrates(
            ["add"] + (wait ? ["--wait"] : []) + ["r5134861"], environment: sandbox.environment, deadline: .seconds(120))
        // The first answer failed: the add now pauses before asking again.
        try await waitUntil("the first request", within: .seconds(60)) { try await server.stats().requests > before }
        #expect(adding.signal(SIGTERM))
        let result = await adding.result()
        #expect(result.status == 143 && !result.signalled && !result.timedOut, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(try await server.stats().requests - before < 5, "stopped before its last retry")
        #expect(try await sandbox.crates(["list"]).stdout.isEmpty, "nothing added")
    }
}
