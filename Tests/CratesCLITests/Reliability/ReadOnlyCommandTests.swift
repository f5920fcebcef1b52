import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 12, item 10: a collection the user may not write can still be read. `crates list`,
/// `crates export`, `crates location list` and `crates labels` open it read-only, and never
/// create a collection.
@Suite("a read-only collection can be read (process)", .processTimeLimit)
struct ReadOnlyCommandTests {
    @Test("list, export, location list and labels as another user (nobody, by setpriv): file 0444, directory 0555, or owned by someone else",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anotherUserReadsIt() async throws {
        let crates = try ProcessRunner.cratesBinary().path
        for (fileMode, directoryMode, owned) in [(0o444, 0o755, true), (0o444, 0o555, true), (0o644, 0o755, false)] {
            let sandbox = try CommandSandbox()
            try await Self.seed(sandbox)
            let collection = sandbox.directory.path
            // mkdtemp's 0700 on the sandbox: nobody must reach the collection inside.
            #expect(chmod(collection, 0o755) == 0)
            #expect(!FileManager.default.fileExists(atPath: sandbox.database + "-wal"))
            if owned {
                #expect(chown(collection, 65534, 65534) == 0 && chown(sandbox.database, 65534, 65534) == 0)
            }
            #expect(chmod(sandbox.database, mode_t(fileMode)) == 0 && chmod(collection, mode_t(directoryMode)) == 0)
            defer { chmod(collection, 0o755) }
            let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))
            let mode = String(fileMode, radix: 8) + " in " + String(directoryMode, radix: 8) + (owned ? ", theirs" : ", root's")
            let reads: [(arguments: [String], shows: [String])] = [
                (["list"], ["5099750442227", "4004064480149"]), (["export", "--csv", "-"], ["5099750442227", "4004064480149"]),
                (["list", "--json"], ["5099750442227", "4004064480149"]), (["location", "list"], ["Shelf 1"]),
                (["labels", "--all", "--layout", "roll-62", "-o", "-"], ["%PDF-"]),
            ]
            for (arguments, shows) in reads {
                let result = try await ProcessRunner.run(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", crates] + arguments,
                    environment: ["CRATES_DB": sandbox.database, "HOME": "/nonexistent", "XDG_CONFIG_HOME": "/nonexistent"],
                    deadline: .seconds(120))
                #expect(result.status == 0 && !result.signalled, "\(mode) \(arguments): \(result)")
                for text in shows { #expect(result.stdout.contains(text), "\(mode) \(arguments): \(result)") }
                #expect(!result.stderr.contains("readonly"), "\(mode) \(arguments): \(result)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == before, "\(mode): the file is unchanged")
        }
    }

    /// Three records and a place, the store closed again (so everything is in the main file,
    /// no -wal).
    private static func seed(_ sandbox: CommandSandbox) async throws {
        let store = try sandbox.openStore()
        for digits in ["5099750442227", "0077774620024", "4004064480149"] {
            _ = try await store.add(NewRecord(gtin: try GTIN.parse(digits).gtin, addMethod: .typed))
        }
        _ = try await store.addLocation(name: "Shelf 1", in: nil)
    }

    @Test("list, export and location list of a collection that does not exist: empty, and no file is created")
    func noCollectionIsCreated() async throws {
        let sandbox = try CommandSandbox()
        let list = try await sandbox.crates(["list"])
        #expect(list.status == 0 && list.stdout.isEmpty, "\(list)")
        let json = try await sandbox.crates(["export", "--json", "-"])
        #expect(json.status == 0 && json.stdout == ExportCommandTests.emptyJSON, "\(json)")
        let places = try await sandbox.crates(["location", "list"])
        #expect(places.status == 0 && places.stdout.isEmpty, "\(places)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        #expect(!FileManager.default.fileExists(atPath: sandbox.database + "-wal"))
    }
}
