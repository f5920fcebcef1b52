import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// What was paid for a copy and who has it: `crates edit` sets them, `list --json` shows them,
/// and both exports bring them back exactly.
@Suite("crates edit --paid, --lent-to (process)", .processTimeLimit)
struct PurchaseLoanCommandTests {
    /// Two matched copies: 1 bought at a fair and lent to Anna, 2 lent to Bo and returned.
    static func seed(_ sandbox: CommandSandbox) async throws {
        let store = try sandbox.openStore()
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .typed, release: Seed.release(13, artist: "Ada", title: "Ambient", genre: "Electronic")))
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addedAt: Seed.addedAt, addMethod: .typed, release: Seed.release(14, artist: "Bea", title: "Beats", genre: "Electronic")))
        for arguments in [
            ["edit", "1", "--paid", "12.5", "--currency", "gbp", "--bought", "2026-11-20", "--bought-from", "Spitalfields fair"],
            ["edit", "1", "--lent-to", "Anna", "--lent-on", "2026-11-21"],
            ["edit", "2", "--lent-to", "Bo, \"the\" neighbour", "--lent-on", "2026-10-01"],
            ["edit", "2", "--returned"],
        ] {
            let result = try await sandbox.crates(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
    }

    /// Each record's `purchase` and `loan` as `list --json` prints them, by id.
    static func personal(_ sandbox: CommandSandbox, db: String? = nil) async throws -> [Int: String] {
        let result = try await sandbox.crates(["list", "--json"] + (db.map { ["--db", $0] } ?? []))
        #expect(result.status == 0, "\(result)")
        var found: [Int: String] = [:]
        for line in result.stdoutLines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try #require(object["id"] as? Int)
            let parts = try ["purchase", "loan"].map { key in
                String(decoding: try JSONSerialization.data(withJSONObject: object[key] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
            }
            found[id] = parts.joined(separator: " ")
        }
        return found
    }

    @Test("edit sets them, list --json shows purchase and loan; lent: finds who has what")
    func edit() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(sandbox)
        let today = DayText.today()
        #expect(try await Self.personal(sandbox) == [
            1: #"{"currency":"GBP","date":"2026-11-20","from":"Spitalfields fair","price":12.5} {"returned":null,"since":"2026-11-21","to":"Anna"}"#,
            2: #"null {"returned":"\#(today)","since":"2026-10-01","to":"Bo, \"the\" neighbour"}"#,
        ])
        let out = try await sandbox.crates(["list", "lent:"])
        #expect(out.stdoutLines.map { $0.prefix { $0 != "\t" } } == ["1"], "\(out)")
        let anna = try await sandbox.crates(["list", "lent:anna", "paid:10GBP..20"])
        #expect(anna.stdoutLines.count == 1, "\(anna)")
        for (arguments, said) in [
            (["edit", "1", "--paid", "12,50"], "--paid 12,50: not an amount"),
            (["edit", "1", "--currency", "GPB"], "--currency GPB: no currency crates knows"),
            (["edit", "1", "--bought", "2026-02-30"], "--bought 2026-02-30: not a day"),
            (["edit", "2", "--returned"], "record 2 is not out on loan"),
            (["edit", "1", "--lent-on", "2026-11-01"], "--lent-on: give --lent-to NAME with it"),
        ] {
            let refused = try await sandbox.crates(arguments)
            #expect(refused.status == 1, "\(arguments): \(refused)")
            #expect(refused.stderr.contains(said), "\(arguments): \(refused.stderr)")
        }
    }

    @Test("stats: spent per year and by where bought, with every chart; not with --by")
    func stats() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(sandbox)
        let edit = try await sandbox.crates(["edit", "2", "--paid", "3", "--currency", "GBP", "--bought", "2025-05-01"])
        #expect(edit.status == 0, "\(edit)")
        let text = try await sandbox.crates(["stats"])
        #expect(text.status == 0, "\(text)")
        let lines = text.stdoutLines
        let year = try #require(lines.firstIndex(of: "Spent per year"), "\(text)")
        #expect(Array(lines[(year + 1)...(year + 2)]) == ["  2025  GBP  3.00  (1 copy)", "  2026  GBP 12.50  (1 copy)"], "\(text)")
        let place = try #require(lines.firstIndex(of: "Spent by where bought"), "\(text)")
        #expect(Array(lines[(place + 1)...(place + 2)]) == ["  Spitalfields fair  GBP 12.50  (1 copy)", "  not said           GBP  3.00  (1 copy)"], "\(text)")
        let json = try await sandbox.crates(["stats", "--json", "lent:"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        let spent = try #require(object["spent"] as? [String: Any])
        #expect((spent["perYear"] as? [[String: Any]])?.map { "\($0["key"] ?? "") \($0["amount"] ?? "") \($0["copies"] ?? "")" } == ["2026 12.5 1"])
        let some = try await sandbox.crates(["stats", "--by", "genre"])
        #expect(!some.stdout.contains("Spent"), "\(some)")
    }

    @Test("the JSON export restores them exactly; the CSV export's own columns import them back")
    func roundTrips() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(sandbox)
        let before = try await Self.personal(sandbox)
        let json = sandbox.directory.appendingPathComponent("export.json").path
        let csv = sandbox.directory.appendingPathComponent("export.csv").path
        #expect(try await sandbox.crates(["export", "--json", json]).status == 0)
        #expect(try await sandbox.crates(["export", "--csv", csv]).status == 0)
        let header = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").first ?? ""
        #expect(header.hasSuffix(",Purchase Price,Purchase Currency,Purchase Date,Bought From,Lent To,Lent On,Returned On,Location Codes"))

        let restored = sandbox.directory.appendingPathComponent("restored.sqlite").path
        let restore = try await sandbox.crates(["import", "--db", restored, json])
        #expect(restore.status == 0, "\(restore)")
        #expect(try await Self.personal(sandbox, db: restored) == before)

        let imported = sandbox.directory.appendingPathComponent("imported.sqlite").path
        let load = try await sandbox.crates(["import", "--db", imported, "--no-lookup", csv])
        #expect(load.status == 0, "\(load)")
        // The CSV import numbers its records anew, in the file's order (the list's).
        let after = try await Self.personal(sandbox, db: imported)
        #expect(Set(after.values) == Set(before.values), "\(after) \(before)")
    }
}
