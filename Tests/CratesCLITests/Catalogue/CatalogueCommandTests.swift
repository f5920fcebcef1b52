import CratesDumpGenerator
import CratesTestSupport
import Foundation
import Testing

/// `crates catalogue build`, `status` and `remove`, run as processes.
@Suite("crates catalogue (process)", .processTimeLimit)
struct CatalogueCommandTests {
    /// The catalogue's default place in the sandbox ($XDG_DATA_HOME/crates/…).
    static func cataloguePath(_ sandbox: CommandSandbox) -> String {
        sandbox.directory.appendingPathComponent("data/crates/discogs-catalogue.sqlite").path
    }

    static func dump(_ sandbox: CommandSandbox, date: String, count: Int, seed: UInt64, faults: Bool = true) throws -> (path: String, summary: DumpGenerator.Summary) {
        let path = sandbox.directory.appendingPathComponent("discogs_\(date)_releases.xml.gz").path
        let summary = try DumpGenerator.write(count: count, seed: seed, faults: faults, to: path)
        return (path, summary)
    }

    @Test("build, then status and status --json say what it holds; remove; then status exits 1", .offThePool)
    func buildStatusRemove() async throws {
        let sandbox = try CommandSandbox()
        let (dump, generated) = try Self.dump(sandbox, date: "20250601", count: 900, seed: 8)
        let built = try await sandbox.crates(["catalogue", "build", dump])
        #expect(built.status == 0, "\(built)")
        #expect(built.stdout.contains("Built the Discogs catalogue of 2025-06-01: \(generated.listed) releases"), "\(built)")
        // The two releases that do not parse are named.
        #expect(built.stdout.contains("Skipped 2 releases that could not be read:"), "\(built)")
        for (id, _) in generated.faulty { #expect(built.stdout.contains("release \(id): "), "\(built)") }

        let status = try await sandbox.crates(["catalogue", "status"])
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("Discogs' data of 2025-06-01"))

        let json = try await sandbox.crates(["catalogue", "status", "--json"])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["path", "date", "releases", "barcodes", "bytes", "builtAt", "seconds", "skipped"])
        #expect(object["path"] as? String == Self.cataloguePath(sandbox))
        #expect(object["date"] as? String == "2025-06-01")
        #expect(object["releases"] as? Int == generated.listed)
        #expect(object["barcodes"] as? Int == generated.barcodeKeys)
        #expect((object["bytes"] as? Int ?? 0) > 0)
        #expect(object["skipped"] as? Int == 2)
        #expect(object["seconds"] is Double || object["seconds"] is Int)
        #expect((object["builtAt"] as? String)?.hasSuffix("Z") == true)

        // --catalogue and $CRATES_CATALOGUE name another file.
        let elsewhere = sandbox.directory.appendingPathComponent("other.sqlite").path
        let none = try await sandbox.crates(["catalogue", "status", "--catalogue", elsewhere])
        #expect(none.status == 1)
        #expect(none.stderr.contains("There is no Discogs catalogue at \(elsewhere)"), "\(none)")

        let removed = try await sandbox.crates(["catalogue", "remove"])
        #expect(removed.status == 0, "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: Self.cataloguePath(sandbox)))
        let after = try await sandbox.crates(["catalogue", "status", "--json"])
        #expect(after.status == 1)
        #expect(after.stdout.isEmpty)
        let again = try await sandbox.crates(["catalogue", "remove"])
        #expect(again.status == 1)
    }

    @Test("a truncated dump fails the build with a clear message and the catalogue stays as it was")
    func truncated() async throws {
        let sandbox = try CommandSandbox()
        let (old, _) = try Self.dump(sandbox, date: "20250501", count: 200, seed: 1, faults: false)
        #expect(try await sandbox.crates(["catalogue", "build", old]).status == 0)
        let (dump, _) = try Self.dump(sandbox, date: "20250601", count: 3_000, seed: 2, faults: false)
        let data = try Data(contentsOf: URL(fileURLWithPath: dump))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: dump))

        let result = try await sandbox.crates(["catalogue", "build", dump])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("is damaged or cut short"), "\(result)")
        #expect(result.stderr.contains("The catalogue was not changed."), "\(result)")
        let status = try await sandbox.crates(["catalogue", "status"])
        #expect(status.stdout.contains("2025-05-01"), "\(status)")
        #expect(!FileManager.default.fileExists(atPath: Self.cataloguePath(sandbox) + ".building"))
    }

    @Test("a dump whose name has no date needs --date")
    func date() async throws {
        let sandbox = try CommandSandbox()
        let path = sandbox.directory.appendingPathComponent("releases.xml").path
        try DumpGenerator.write(count: 20, seed: 1, faults: false, to: path)
        let refused = try await sandbox.crates(["catalogue", "build", path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--date YYYYMMDD"), "\(refused)")
        let built = try await sandbox.crates(["catalogue", "build", "--date", "20260601", path])
        #expect(built.status == 0, "\(built)")
        #expect(built.stdout.contains("2026-06-01"))
    }

    @Test("--date after today, or no calendar date, is refused; the dump's name is held to the same")
    func impossibleDates() async throws {
        let sandbox = try CommandSandbox()
        let path = sandbox.directory.appendingPathComponent("releases.xml").path
        try DumpGenerator.write(count: 20, seed: 1, faults: false, to: path)
        for date in ["20990101", "20260230", "19990101"] {
            let refused = try await sandbox.crates(["catalogue", "build", "--date", date, path])
            #expect(refused.status == 1, "\(date): \(refused)")
            #expect(refused.stderr.contains(date == "20990101" ? "is after today" : "--date takes the dump's date"), "\(date): \(refused)")
        }
        let named = sandbox.directory.appendingPathComponent("discogs_20990101_releases.xml").path
        try FileManager.default.copyItem(atPath: path, toPath: named)
        let future = try await sandbox.crates(["catalogue", "build", named])
        #expect(future.status == 1 && future.stderr.contains("is after today"), "\(future)")
        #expect(!FileManager.default.fileExists(atPath: Self.cataloguePath(sandbox)))
    }

    @Test("a dump that is not there is said to be missing, before its date is asked for")
    func missingDump() async throws {
        let sandbox = try CommandSandbox()
        for name in ["releases.xml", "discogs_20250601_releases.xml.gz"] {
            let path = sandbox.directory.appendingPathComponent(name).path
            let result = try await sandbox.crates(["catalogue", "build", path])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("Cannot read the dump \(path): there is no such file."), "\(result)")
            #expect(!result.stderr.contains("date"), "\(result)")
        }
    }

    @Test("a catalogue that is no catalogue is said in crates' words, not SQLite's")
    func notACatalogueWords() async throws {
        let sandbox = try CommandSandbox()
        let text = sandbox.directory.appendingPathComponent("text.sqlite").path
        try "not sqlite\n".write(toFile: text, atomically: false, encoding: .utf8)
        let database = sandbox.directory.appendingPathComponent("other.sqlite").path
        let made = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["sqlite3", database, "CREATE TABLE notes(a)"])
        #expect(made.status == 0, "\(made)")
        for path in [text, database] {
            chmod(path, 0o600)
            let status = try await sandbox.crates(["catalogue", "status", "--catalogue", path])
            #expect(status.status == 1, "\(status)")
            #expect(status.stderr.contains("it is not a catalogue crates built"), "\(status)")
            for words in ["file is not a database", "no such table"] { #expect(!status.stderr.contains(words), "\(status)") }
        }
    }

    @Test("Ctrl-C during a build exits 130, removes the building file, and leaves the old catalogue")
    func interrupted() async throws {
        let sandbox = try CommandSandbox()
        let (old, _) = try Self.dump(sandbox, date: "20250501", count: 200, seed: 1, faults: false)
        #expect(try await sandbox.crates(["catalogue", "build", old]).status == 0)
        let building = Self.cataloguePath(sandbox) + ".building"

        // The new dump comes on standard input, and only its first part: the build waits for
        // the rest, so it is under way for certain when Ctrl-C comes.
        let xml = sandbox.directory.appendingPathComponent("new.xml").path
        try DumpGenerator.write(count: 2_000, seed: 3, faults: false, to: xml)
        let data = try Data(contentsOf: URL(fileURLWithPath: xml))
        let child = try ProcessRunner.startCrates(
            ["catalogue", "build", "--date", "20250601", "-"], environment: sandbox.environment, keepStdinOpen: true)
        child.write(data.prefix(data.count / 3))
        try await waitUntil("the build writes \(building)", lastSeen: { child.stderrSoFar }) {
            FileManager.default.fileExists(atPath: building)
        }
        child.signal(SIGINT)
        let result = await child.result()
        #expect(result.status == 130 && !result.signalled, "\(result)")
        #expect(result.stderr.contains("Stopping the build"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: building))
        let status = try await sandbox.crates(["catalogue", "status", "--json"])
        #expect(status.stdout.contains("\"date\":\"2025-05-01\""), "\(status)")
    }
}
