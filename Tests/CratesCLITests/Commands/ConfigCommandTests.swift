import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates config` and the configuration file, through the built binary and real files.
@Suite("crates config (process)", .processTimeLimit)
struct ConfigCommandTests {
    static func configFile(_ sandbox: CommandSandbox) -> URL {
        sandbox.directory.appendingPathComponent("config/crates/config.json")
    }

    static func write(_ text: String, in sandbox: CommandSandbox) throws {
        let file = configFile(sandbox)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    static func contents(_ sandbox: CommandSandbox) -> String? {
        (try? Data(contentsOf: configFile(sandbox))).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("no file: every setting listed with its default; KEY prints one; KEY VALUE writes the file")
    func listAndSet() async throws {
        let sandbox = try CommandSandbox()
        let listing = try await sandbox.crates(["config"])
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stderr.isEmpty, "\(listing)")
        let lines = listing.stdoutLines
        for key in PreferenceKey.allCases {
            #expect(lines.contains { $0.hasPrefix(key.rawValue + " ") }, "\(key) in \(lines)")
        }
        #expect(lines.contains { $0.hasPrefix("covers.cacheMB") && $0.contains(" 500 ") && $0.hasSuffix("(default)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("currency") && $0.contains("(none)") }, "\(lines)")
        #expect(lines.last == "# \(Self.configFile(sandbox).path) (not there yet: every setting has its default)")

        let one = try await sandbox.crates(["config", "labels.layout"])
        #expect(one.status == 0 && one.stdout == "a4-3x7\n", "\(one)")
        let none = try await sandbox.crates(["config", "currency"])
        #expect(none.status == 0 && none.stdout.isEmpty, "\(none)")

        let set = try await sandbox.crates(["config", "covers.cacheMB", "200"])
        #expect(set.status == 0, "\(set)")
        #expect(set.stderr == "covers.cacheMB is 200 (in \(Self.configFile(sandbox).path))\n", "\(set)")
        #expect(Self.contents(sandbox) == "{\n  \"covers.cacheMB\": 200\n}\n")
        for (key, value, stored) in [("covers", "off", "false"), ("currency", "gbp", "GBP"), ("sort", "Year", "year"),
                                     ("labels.layout", "letter-3x10", "letter-3x10"), ("discogs_sync_folder", "Vinyl", "Vinyl")] {
            let result = try await sandbox.crates(["config", key, value])
            #expect(result.status == 0, "\(result)")
            let read = try await sandbox.crates(["config", key])
            #expect(read.stdout == stored + "\n", "\(key): \(read)")
        }
        let after = try await sandbox.crates(["config"])
        #expect(after.stdoutLines.contains { $0.hasPrefix("covers.cacheMB") && $0.contains(" 200 ") && $0.hasSuffix("default: 500") },
                "\(after)")
        #expect(after.stdoutLines.last == "# \(Self.configFile(sandbox).path)")

        let reset = try await sandbox.crates(["config", "covers.cacheMB", "--reset"])
        #expect(reset.status == 0, "\(reset)")
        #expect(try await sandbox.crates(["config", "covers.cacheMB"]).stdout == "500\n")
        #expect(Self.contents(sandbox)?.contains("cacheMB") == false)
    }

    @Test("a change keeps the members crates does not know, the order and the spacing")
    func keepsTheRest() async throws {
        let sandbox = try CommandSandbox()
        let text = "{\n    \"theme\": \"dark\",\n    \"discogs_consumer_key\": \"k\",   \"covers\": true\n}\n"
        try Self.write(text, in: sandbox)
        let result = try await sandbox.crates(["config", "covers", "false"])
        #expect(result.status == 0, "\(result)")
        // "theme" is not crates': said when crates starts, and kept.
        #expect(result.stderr.hasPrefix("crates: \(Self.configFile(sandbox).path), line 2: \"theme\" is not a setting crates knows"), "\(result)")
        #expect(Self.contents(sandbox) == "{\n    \"theme\": \"dark\",\n    \"discogs_consumer_key\": \"k\",   \"covers\": false\n}\n")
        let added = try await sandbox.crates(["config", "sort", "label"])
        #expect(added.status == 0, "\(added)")
        #expect(Self.contents(sandbox)
            == "{\n    \"theme\": \"dark\",\n    \"discogs_consumer_key\": \"k\",   \"covers\": false,\n    \"sort\": \"label\"\n}\n")
    }

    @Test("an unknown key or a value of the wrong type is refused with what is allowed (64), the file untouched",
          arguments: [
            (["config", "colour", "red"], "colour is not a setting; the settings are covers, covers.cacheMB, currency"),
            (["config", "colour"], "colour is not a setting"),
            (["config", "covers", "maybe"], "covers cannot be \"maybe\": it takes true or false"),
            (["config", "covers.cacheMB", "lots"], "covers.cacheMB cannot be \"lots\": it takes a whole number from 1 to 1000000"),
            (["config", "currency", "DEM"], "currency cannot be \"DEM\": it takes one of USD, GBP, EUR, CAD, AUD, JPY, CHF, MXN, BRL, NZD, SEK, ZAR"),
            (["config", "sort", "genre"], "sort cannot be \"genre\": it takes one of artist, title, year, added, label, place"),
            (["config", "labels.layout", "a5"], "labels.layout cannot be \"a5\": it takes a label layout: a4-3x7, letter-3x10, roll-62, roll-29x90"),
            (["config", "discogs_sync_folder", ""], "discogs_sync_folder cannot be empty"),
            (["config", "discogs_consumer_secret", "s"], "discogs_consumer_secret is not given on the command line"),
          ])
    func refused(_ arguments: [String], _ message: String) async throws {
        let sandbox = try CommandSandbox()
        try Self.write("{\"covers\": true}\n", in: sandbox)
        let result = try await sandbox.crates(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        // With config's usage, not the root command's.
        #expect(result.stderr.contains("Usage: crates config"), "\(result)")
        #expect(Self.contents(sandbox) == "{\"covers\": true}\n")
    }

    @Test("a file that does not parse: named with its line and what is wrong at every start, defaults used, never written over")
    func brokenFile() async throws {
        let sandbox = try CommandSandbox()
        let broken = "{\n  \"labels.layout\": \"letter-3x10\",\n  \"covers\": false,\n}\n"
        try Self.write(broken, in: sandbox)
        let path = Self.configFile(sandbox).path
        let warning = "crates: \(path) is not valid JSON: line 4, column 1: a comma after the last member: JSON allows none "
            + "(remove it): every setting has its default until it is fixed, and `crates sync` adds no copies\n"
        for arguments in [["list"], ["stats", "--json"], ["config", "covers"]] {
            let result = try await sandbox.crates(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(result.stderr == warning, "\(arguments): \(result)")
        }
        #expect(try await sandbox.crates(["config", "covers"]).stdout == "true\n")
        let set = try await sandbox.crates(["config", "covers", "false"])
        #expect(set.status == 1, "\(set)")
        #expect(set.stderr.contains("\(path) is not valid JSON: line 4, column 1: a comma after the last member")
            && set.stderr.contains("fix it or remove it first"), "\(set)")
        #expect(Self.contents(sandbox) == broken)
    }

    @Test("a value of the wrong type in the file: said with its line at every start, that key at its default")
    func wrongValueInFile() async throws {
        let sandbox = try CommandSandbox()
        try Self.write("{\n  \"covers\": \"yes\",\n  \"sort\": \"year\"\n}\n", in: sandbox)
        let result = try await sandbox.crates(["config"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "crates: \(Self.configFile(sandbox).path), line 2: covers is \"yes\": it takes true or false; "
            + "using the default, true\n", "\(result)")
        #expect(result.stdoutLines.contains { $0.hasPrefix("covers ") && $0.contains(" true ") }, "\(result)")
        #expect(result.stdoutLines.contains { $0.hasPrefix("sort ") && $0.contains(" year ") }, "\(result)")
    }

    @Test("labels without --layout: labels.layout from the configuration, else a4-3x7")
    func defaultLabelLayout() async throws {
        let sandbox = try CommandSandbox()
        _ = try await sandbox.openStore().addLocation(name: "Crate 1", in: nil)
        let pdf = sandbox.directory.appendingPathComponent("labels.pdf").path
        let plain = try await sandbox.crates(["labels", "--all", "-o", pdf])
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stderr.hasPrefix("Wrote 1 label on 1 page (a4-3x7) to "), "\(plain)")
        let set = try await sandbox.crates(["config", "labels.layout", "letter-3x10"])
        #expect(set.status == 0, "\(set)")
        let configured = try await sandbox.crates(["labels", "--all", "-o", pdf])
        #expect(configured.status == 0, "\(configured)")
        #expect(configured.stderr.hasPrefix("Wrote 1 label on 1 page (letter-3x10) to "), "\(configured)")
        let given = try await sandbox.crates(["labels", "--all", "--layout", "roll-62", "-o", pdf])
        #expect(given.stderr.hasPrefix("Wrote 1 label on 1 page (roll-62) to "), "\(given)")
    }
}
