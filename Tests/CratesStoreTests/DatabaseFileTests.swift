import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An output path that is the collection, however it is spelt, is recognised before
/// anything is written to it (issue 12, item 2).
@Suite struct DatabaseFileTests {
    @Test func theDatabaseAndItsSideFilesByAnyName() async throws {
        let directory = try TemporaryDirectory()
        let database = directory.file("crates.sqlite")
        let store = try CollectionStore(path: database)
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        // While the store is open, the -wal and -shm files exist.
        #expect(FileManager.default.fileExists(atPath: database + "-wal"))
        func file(_ path: String) -> StoreLocation.DatabaseFile? { StoreLocation.databaseFile(at: path, database: database) }

        #expect(file(database) == .database)
        try FileManager.default.createDirectory(atPath: directory.file("sub"), withIntermediateDirectories: false)
        #expect(file(directory.path + "/./sub/../crates.sqlite") == .database)
        #expect(file(directory.path + "/./sub/../crates.sqlite-journal") == .journal)
        #expect(file(database + "-wal") == .wal)
        #expect(file(database + "-shm") == .shm)
        #expect(file(database + "-journal") == .journal)  // does not exist: by where it would be
        #expect(file(directory.file("other.csv")) == nil)
        #expect(file(directory.file("crates.sqlite.csv")) == nil)

        // Links: symbolic (also to a side file, and dangling to where the journal would be), hard.
        #expect(symlink(database, directory.file("link.csv")) == 0)
        #expect(file(directory.file("link.csv")) == .database)
        #expect(symlink("crates.sqlite-wal", directory.file("relative-link")) == 0)
        #expect(file(directory.file("relative-link")) == .wal)
        #expect(symlink(database + "-journal", directory.file("dangling")) == 0)
        #expect(file(directory.file("dangling")) == .journal)
        #expect(link(database, directory.file("hard.csv")) == 0)
        #expect(file(directory.file("hard.csv")) == .database)
        #expect(link(database + "-shm", directory.file("hard-shm")) == 0)
        #expect(file(directory.file("hard-shm")) == .shm)

        // A directory reached through a link.
        #expect(symlink(directory.path, directory.file("again")) == 0)
        #expect(file(directory.file("again") + "/crates.sqlite") == .database)
        #expect(file(directory.file("again") + "/crates.sqlite-journal") == .journal)
        // Standard output sent to the database.
        let fd = open(database, O_WRONLY | O_APPEND)
        #expect(fd >= 0)
        #expect(file("/proc/self/fd/\(fd)") == .database)
        close(fd)
    }

    /// The database named through a link: its side files are found beside the file it points
    /// to, where SQLite puts them.
    @Test func aDatabaseNamedThroughALink() async throws {
        let directory = try TemporaryDirectory()
        let real = directory.file("real.sqlite")
        let store = try CollectionStore(path: real)
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        let named = directory.file("named.sqlite")
        #expect(symlink(real, named) == 0)
        #expect(StoreLocation.databaseFile(at: real, database: named) == .database)
        #expect(StoreLocation.databaseFile(at: real + "-wal", database: named) == .wal)
        #expect(StoreLocation.databaseFile(at: real + "-journal", database: named) == .journal)
        #expect(StoreLocation.databaseFile(at: named + "-journal", database: named) == .journal)
        #expect(StoreLocation.databaseFile(at: directory.file("x"), database: named) == nil)
    }

    @Test func outputPathsAreCheckedBeforeAnythingIsWritten() async throws {
        let directory = try TemporaryDirectory()
        let database = directory.file("crates.sqlite")
        let store = try CollectionStore(path: database)
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        #expect(throws: StoreLocation.OutputError.isTheDatabase(path: database + "-wal", .wal)) {
            try StoreLocation.checkOutput(database + "-wal", database: database)
        }
        #expect(throws: StoreLocation.OutputError.noDirectory(path: "/nonexistent/r.tsv", directory: "/nonexistent")) {
            try StoreLocation.checkOutput("/nonexistent/r.tsv", database: database)
        }
        #expect(throws: StoreLocation.OutputError.isADirectory(path: directory.path)) {
            try StoreLocation.checkOutput(directory.path, database: database)
        }
        try StoreLocation.checkOutput(directory.file("report.tsv"), database: database)
        try StoreLocation.checkOutput("/dev/stdout", database: database)
        #expect(!FileManager.default.fileExists(atPath: directory.file("report.tsv")))
        #expect(StoreLocation.OutputError.isTheDatabase(path: "x", .database).description
            == "x is the collection's database: writing there would destroy the collection; choose another file")
    }
}
