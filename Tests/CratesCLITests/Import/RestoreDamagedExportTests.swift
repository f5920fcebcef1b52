import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// An export cut short, closed again by hand, or filtered restores nothing; and a collection
/// restored from an older export that lost records never has their copies removed from the
/// Discogs account by a sync, even with `--delete`.
@Suite("crates import of a damaged export (process)", .serialized, .processTimeLimit)
struct RestoreDamagedExportTests {
    /// A collection of every kind of record, synced (three linked copies), and its export.
    static func exported() async throws -> (CommandSandbox, DiscogsTestServer, text: String) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "sync-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "sync-token")
        try await RestoreCommandTests.seedEverything(sandbox)
        let sync = try await sandbox.crates(["sync"])
        #expect(sync.status == 0, "\(sync)")
        let file = sandbox.directory.appendingPathComponent("export.json").path
        #expect(try await sandbox.crates(["export", "--json", file]).status == 0)
        return (sandbox, server, try RestoreCommandTests.read(file))
    }

    /// The export's lines up to and including its `count`th record line, then `closing`.
    static func cut(_ text: String, afterRecords count: Int, closing: [String]) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: #""records":["#) else { return text }
        var kept = Array(lines[...(start + count)])
        kept[kept.count - 1] = String(kept[kept.count - 1].dropLast())  // its comma
        return (kept + closing).joined(separator: "\n") + "\n"
    }

    /// Restores `text` into a new collection: the result, and what that collection lists.
    static func restore(_ text: String, _ sandbox: CommandSandbox, name: String) async throws -> (ProcessResult, list: String) {
        let file = sandbox.directory.appendingPathComponent(name + ".json").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let database = sandbox.directory.appendingPathComponent(name + ".sqlite").path
        let result = try await sandbox.crates(["import", "--db", database, file])
        let list = try await sandbox.crates(["list", "--db", database])
        return (result, list.stdout)
    }

    @Test("an export cut after a record and closed with ]} restores nothing")
    func cutAndClosed() async throws {
        let (sandbox, server, text) = try await Self.exported()
        defer { Task { await server.stop() } }
        #expect(text.contains(#""counts":{"#) && text.contains(#""records":9"#), "the header counts the records")
        let (result, list) = try await Self.restore(Self.cut(text, afterRecords: 3, closing: ["]}"]), sandbox, name: "cut")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("cut short") && result.stderr.contains("nothing was restored"), "\(result)")
        #expect(list.isEmpty, "nothing restored: \(list)")
    }

    @Test("an export cut and closed with its own digest line, or with a record line taken out, restores nothing")
    func cutWithItsDigest() async throws {
        let (sandbox, server, text) = try await Self.exported()
        defer { Task { await server.stop() } }
        let digestLine = try #require(text.split(separator: "\n").last.map(String.init))
        let (cut, cutList) = try await Self.restore(Self.cut(text, afterRecords: 3, closing: ["],", digestLine]), sandbox, name: "cut-digest")
        #expect(cut.status == 1, "\(cut)")
        #expect(cut.stderr.contains("SHA-256 differs") || cut.stderr.contains("lines are missing"), "\(cut)")
        #expect(cutList.isEmpty)

        // A record line taken out (grep -v), the commas mended: the counts and the digest say so.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let record = try #require(lines.firstIndex { $0.hasPrefix(#"{"addMethod""#) || $0.contains(#""addedAt":"#) && $0.hasPrefix("{") })
        lines.remove(at: record)
        let (filtered, filteredList) = try await Self.restore(lines.joined(separator: "\n"), sandbox, name: "filtered")
        #expect(filtered.status == 1, "\(filtered)")
        #expect(filteredList.isEmpty)
    }

    @Test("a link to a record the file does not hold is refused; a v2 file's is kept, and sync --delete removes nothing")
    func linksWithoutTheirRecords() async throws {
        let (sandbox, server, text) = try await Self.exported()
        defer { Task { await server.stop() } }
        let linked = try await server.collection.dump().instances.count
        #expect(linked == 3, "the three matched copies were pushed and linked")

        // Version 3 with a linked record's line taken out, its count and digest mended to
        // match (as a careful forger, or a buggy tool, would): the link to that record is
        // still refused.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let recordsStart = try #require(lines.firstIndex(of: #""records":["#))
        let linkedLine = try #require(lines.indices.first { $0 > recordsStart && lines[$0].contains(#""discogs":{"#) })
        lines.remove(at: linkedLine)
        if lines[linkedLine] == "]," { lines[linkedLine - 1] = String(lines[linkedLine - 1].dropLast()) }
        lines[0] = lines[0].replacingOccurrences(of: #""records":9"#, with: #""records":8"#)
        let digestIndex = try #require(lines.lastIndex { $0.hasPrefix(#""digest":"#) })
        let body = lines[1..<digestIndex].map { $0 + "\n" }.joined()
        let sha = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), arguments: [], stdin: Data(body.utf8))
        let hex = try #require(sha.stdout.split(separator: " ").first.map(String.init))
        lines[digestIndex] = #""digest":"sha256:\#(hex)"}"#
        let (mended, mendedList) = try await Self.restore(lines.joined(separator: "\n"), sandbox, name: "mended")
        #expect(mended.status == 1, "\(mended)")
        #expect(mended.stderr.contains("which the export does not hold"), "\(mended)")
        #expect(mendedList.isEmpty)

        // Version 2 (an older crates'), cut after the first record: restored, the links kept.
        let older = Self.cut(RestoreCommandTests.asVersion2(text), afterRecords: 1, closing: ["]}"])
        let (restored, list) = try await Self.restore(older, sandbox, name: "older-cut")
        #expect(restored.status == 0, "\(restored)")
        #expect(restored.stderr.contains("Discogs links name records this export does not hold"), "\(restored)")
        #expect(list.split(separator: "\n").count == 1, "\(list)")

        let database = sandbox.directory.appendingPathComponent("older-cut.sqlite").path
        let sync = try await sandbox.crates(["sync", "--delete", "--db", database])
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.stdout.contains("linked to records crates does not have and never deleted"), "\(sync)")
        #expect(!sync.stdout.contains("removed from Discogs"), "\(sync)")
        #expect(try await server.collection.stats().requests["delete"] == nil, "no DELETE was sent")
        #expect(try await server.collection.dump().instances.count == linked)
    }
}
