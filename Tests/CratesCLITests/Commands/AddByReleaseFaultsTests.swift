import CratesTestSupport
import Foundation
import Testing

/// `crates add rID` through Discogs' transient faults, against the loopback server: the
/// release is asked again after 1, 2, 4 and 8 s, as a lookup by barcode and an import are, and
/// a fault that lasts has an exit status of its own (not 1, which is a code refused).
@Suite("crates add by release through faults (process)", .serialized, .processTimeLimit)
struct AddByReleaseFaultsTests {
    static func signedIn() async throws -> (CommandSandbox, DiscogsTestServer) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "add-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "add-token")
        return (sandbox, server)
    }

    @Test("a 5xx, an answer cut short and a dropped connection: asked again, added matched, exit 0", arguments: ["html500", "truncated", "drop"])
    func transientThenAnswered(fault: String) async throws {
        let (sandbox, server) = try await Self.signedIn()
        try await server.inject(fault, count: 2, match: "/releases/5134861")
        let before = try await server.stats().requests
        let result = try await sandbox.crates(["add", "r5134861"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == ["1\t0727361626525\tmatched\tHammerFall — Glory To The Brave"], "\(result)")
        #expect(result.stderrLines.isEmpty, "\(result)")
        #expect(try await server.stats().requests - before == 3, "two failures, then the answer")
    }

    @Test("a fault that lasts past the retries: nothing added, said as Discogs failing, exit 4 (not 1, a code refused); a refusal still outranks it")
    func faultThatLasts() async throws {
        let (sandbox, server) = try await Self.signedIn()
        try await server.inject("html500", count: 5, match: "/releases/5134861")
        let before = try await server.stats().requests
        let result = try await sandbox.crates(["add", "r5134861"])
        #expect(result.status == 4, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(try await server.stats().requests - before == 5, "the first request and four more, after 1, 2, 4 and 8 s")
        let line = try #require(result.stderrLines.last)
        #expect(line.hasPrefix("crates add: r5134861: "), "\(result)")
        #expect(line.contains("run it again"), "\(result)")
        #expect(try await sandbox.openStore().waitingCount() == 0)
        #expect(try await sandbox.crates(["list"]).stdout.isEmpty, "nothing added")

        try await server.inject("html500", count: 5, match: "/releases/5134861")
        let mixed = try await sandbox.crates(["add", "r5134861", "r999"])
        #expect(mixed.status == 1, "a code refused outranks a fault that lasted: \(mixed)")
        #expect(mixed.stderr.contains("r999: Discogs has no release 999"), "\(mixed)")
    }
}
