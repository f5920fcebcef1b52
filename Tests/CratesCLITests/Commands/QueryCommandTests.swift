import CratesCore
import CratesStore
import Foundation
import CratesTestSupport
import Testing

/// The query language on the command line: `crates list QUERY...` and the commands that take
/// the same words (`export`, `stats`, `move --query`, `labels --records`).
@Suite("crates list QUERY (process)", .processTimeLimit)
struct QueryCommandTests {
    private func listedIDs(_ result: ProcessResult) -> [Int64] {
        result.stdoutLines.compactMap { Int64($0.prefix { $0 != "\t" }) }
    }

    @Test("field:value terms, ranges, -negation and a place given as one argument keep what they say")
    func list() async throws {
        let sandbox = try CommandSandbox()
        let ids = try await ListCommandTests.seedRock(try sandbox.openStore())
        func listed(_ arguments: [String]) async throws -> [Int64] {
            let result = try await sandbox.crates(["list", "--sort", "artist"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            return self.listedIDs(result)
        }
        #expect(try await listed(["artist:queen"]) == [ids.queen])
        #expect(try await listed(["year:1965..1979"]) == [ids.beatles, ids.queen])
        #expect(try await listed(["year:1965..1979", "-artist:beatles"]) == [ids.queen])
        #expect(try await listed(["format:cd"]) == [ids.motorhead])
        #expect(try await listed(["place:Living Room"]) == [ids.motorhead])
        #expect(try await listed(["-place:", "state:matched"]) == [ids.beatles, ids.queen])
        #expect(try await listed(["motorhead"]) == [ids.motorhead], "a bare word, accents folded")
        #expect(try await listed(["abbey 1969"]) == [ids.beatles], "one argument of several terms")
        #expect(try await listed(["label:apple records"]) == [ids.beatles], "an argument that starts with field: is one term")
        // The same query, in JSON too.
        let json = try await sandbox.crates(["list", "--json", "artist:queen"])
        #expect(json.stdoutLines.count == 1 && json.stdout.contains("\"id\":\(ids.queen)"), "\(json)")
    }

    @Test("a term crates cannot read, or a place it does not have: the term and what it takes, exit 64")
    func refusals() async throws {
        let sandbox = try CommandSandbox()
        _ = try await ListCommandTests.seedRock(try sandbox.openStore())
        for (arguments, said) in [
            (["artst:queen"], "crates list: artst:queen: artst is not a field"),
            (["year:1979..1970"], "crates list: year:1979..1970: the range runs the wrong way round"),
            (["place:\"Crate"], "crates list: place:\"Crate: a quote is left open"),
            (["added:2026-02-30"], "crates list: added:2026-02-30: not a date; added: takes"),
            (["paid:10GPB.."], "crates list: paid:10GPB..: GPB is no currency crates knows"),
            (["place:Attic"], "crates list: place:Attic: no place is called “Attic”"),
        ] {
            let result = try await sandbox.crates(["list"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(said), "\(arguments): \(result.stderr)")
        }
    }

    @Test("export, stats, move --query and labels --records take the same query")
    func otherCommands() async throws {
        let sandbox = try CommandSandbox()
        let ids = try await ListCommandTests.seedRock(try sandbox.openStore())
        let export = try await sandbox.crates(["export", "--csv", "-", "year:..1970"])
        #expect(export.status == 0, "\(export)")
        #expect(export.stdoutLines.count == 2 && export.stdout.contains("Abbey Road"), "\(export)")
        let stats = try await sandbox.crates(["stats", "--json", "--by", "decade", "format:lp"])
        #expect(stats.status == 0, "\(stats)")
        #expect(stats.stdout.contains("\"copies\":2"), "\(stats)")
        let move = try await sandbox.crates(["move", "--query", "format:lp", "--to", "Crate 2"])
        #expect(move.status == 0, "\(move)")
        let moved = try await sandbox.crates(["list", "place:Crate 2"])
        #expect(Set(listedIDs(moved)) == [ids.queen, ids.beatles, ids.motorhead], "\(moved)")
        let labels = try await sandbox.crates(["labels", "--records", "artist:queen", "-o", sandbox.directory.appendingPathComponent("q.pdf").path])
        #expect(labels.status == 0, "\(labels)")
        #expect(labels.stderr.contains("1 label"), "\(labels)")
        let none = try await sandbox.crates(["move", "--query", "artst:x", "--to", "Crate 2"])
        #expect(none.status == 64, "\(none)")
    }
}
