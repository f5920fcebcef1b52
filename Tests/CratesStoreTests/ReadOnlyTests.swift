import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A collection the user may not write can still be read (issue 12, item 10), and a
/// read-only open never writes: no file created, no migration.
@Suite struct ReadOnlyTests {
    /// A collection of three records, closed (so everything is in the main file).
    private func collection(in directory: String) async throws -> String {
        let path = directory + "/crates.sqlite"
        let store = try CollectionStore(path: path)
        for n in 1...3 { _ = try await store.add(NewRecord(gtin: Fixtures.gtin(n), addMethod: .typed)) }
        return path
    }

    @Test func aMissingFileIsNotCreated() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("none.sqlite")
        #expect(throws: StoreError.noDatabase(path: path)) { try CollectionStore(readingAt: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aDatabaseThatNeedsAMigrationIsRefusedUntouched() async throws {
        let directory = try TemporaryDirectory()
        let path = try await collection(in: directory.path)
        // As an older crates left it: the latest migration not applied.
        let sqlite = try #require(SQLiteLock.shell)
        let older = try await ProcessRunner.run(
            URL(fileURLWithPath: sqlite), arguments: [path, "DELETE FROM grdb_migrations WHERE identifier = 'v7 locations'"])
        #expect(older.status == 0, "\(older)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.needsMigration(path: path, pendingMigrations: ["v7 locations"])) {
            try CollectionStore(readingAt: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func writesThroughAReadOnlyStoreFail() async throws {
        let directory = try TemporaryDirectory()
        let path = try await collection(in: directory.path)
        let store = try CollectionStore(readingAt: path)
        #expect(store.isReadOnly)
        #expect(try await store.outline().rowCount == 3)
        await #expect(throws: StoreError.self) { _ = try await store.add(NewRecord(gtin: Fixtures.gtin(9), addMethod: .typed)) }
    }

    /// Read by another user (`setpriv` to nobody: the tests run as root, whom file modes do
    /// not stop): a file mode 0444 in a directory they may write (SQLite creates its -shm
    /// beside it), in one they may not (mode 0555: read as immutable), and a file and
    /// directory owned by someone else.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anotherUserReadsACollectionTheyMayNotWrite() async throws {
        let nobody: uid_t = 65534
        for (fileMode, directoryMode, owned) in [(0o444, 0o755, true), (0o444, 0o555, true), (0o644, 0o755, false)] {
            let directory = try TemporaryDirectory()
            // mkdtemp makes it 0700: nobody must be able to reach the collection inside.
            #expect(chmod(directory.path, 0o755) == 0)
            let inner = directory.file("collection")
            try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: false)
            let path = try await collection(in: inner)
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            if owned {
                #expect(chown(inner, nobody, gid_t(nobody)) == 0 && chown(path, nobody, gid_t(nobody)) == 0)
            }
            #expect(chmod(path, mode_t(fileMode)) == 0 && chmod(inner, mode_t(directoryMode)) == 0)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))

            let reader = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                arguments: [
                    "--reuid=65534", "--regid=65534", "--clear-groups",
                    try ProcessRunner.builtProduct(named: "crates-bench").path, "read", "--db", path,
                ],
                deadline: .seconds(120))
            let mode = String(fileMode, radix: 8) + " in " + String(directoryMode, radix: 8)
            #expect(reader.status == 0 && !reader.signalled, "\(mode): \(reader)")
            #expect(reader.stdoutLines.last == "records 3", "\(mode): \(reader)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(mode)")
        }
    }
}
