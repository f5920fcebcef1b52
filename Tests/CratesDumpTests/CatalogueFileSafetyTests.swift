import CratesCore
import CratesDump
import CratesDumpGenerator
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// What a catalogue build may replace, `remove` may remove, and a lookup may trust: only a
/// catalogue crates built, never the collection or another file; never through a link
/// planted at the building file; never a file another user could have written.
@Suite struct CatalogueFileSafetyTests {
    static let edition = CatalogueEdition(dumpDate: "20250601")

    /// A collection of three records, its store kept open (its -wal file holds them): the
    /// bytes of the database and the -wal, to compare after.
    static func collection(in directory: TemporaryDirectory) async throws -> (path: String, bytes: Data, store: CollectionStore) {
        let path = directory.file("crates.sqlite")
        let store = try CollectionStore(path: path)
        for n in 1...3 { _ = try await store.add(NewRecord(gtin: Fixtures.gtin(n), addMethod: .typed)) }
        return (path, try bytes(path), store)
    }

    static func bytes(_ database: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: database)) + Data(contentsOf: URL(fileURLWithPath: database + "-wal"))
    }

    static func builder(_ path: String, sparing collection: String? = nil) throws -> DiscogsCatalogueBuilder {
        try DiscogsCatalogueBuilder(path: path, edition: edition, neededBytes: 0, sparing: collection)
    }

    @Test("a build aimed at the collection, or at its -wal, is refused and the collection is left as it was")
    func buildRefusesTheCollection() async throws {
        let directory = try TemporaryDirectory()
        let (database, bytes, store) = try await Self.collection(in: directory)
        #expect(throws: CatalogueFileError.isCollection(path: database, file: .database)) { _ = try Self.builder(database, sparing: database) }
        // Without naming it, a collection is still no catalogue.
        #expect {
            _ = try Self.builder(database)
        } throws: { error in
            guard case .notACatalogue(_, let what, "replace") = error as? CatalogueFileError else { return false }
            return what.contains("crates collection")
        }
        #expect(throws: CatalogueFileError.self) { _ = try Self.builder(database + "-wal", sparing: database) }
        // Even another database's side-file name is refused: SQLite would take it for a journal.
        #expect(throws: CatalogueFileError.self) { _ = try Self.builder(directory.file("other.sqlite-wal")) }
        #expect(try Self.bytes(database) == bytes)
        #expect(!FileManager.default.fileExists(atPath: CatalogueLocation.buildingPath(for: database)))
        _ = store
    }

    @Test("a build replaces only a catalogue or nothing: a note, a directory or a FIFO stays")
    func buildReplacesOnlyACatalogue() throws {
        let directory = try TemporaryDirectory()
        let notes = directory.file("notes.txt")
        try "my notes".write(toFile: notes, atomically: false, encoding: .utf8)
        #expect(throws: CatalogueFileError.self) { _ = try Self.builder(notes) }
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes")
        let folder = directory.file("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(throws: CatalogueFileError.self) { _ = try Self.builder(folder) }
        let fifo = directory.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: CatalogueFileError.self) { _ = try Self.builder(fifo) }

        // An empty file, or a catalogue, is replaced.
        let empty = directory.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let builder = try Self.builder(empty)
        try builder.add(CatalogueFileTests.generated(20, seed: 3))
        _ = try builder.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
        let again = try Self.builder(empty)
        let releases = CatalogueFileTests.generated(20, seed: 4)
        try again.add(releases)
        #expect(try again.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0).releases == releases.count)
    }

    @Test("remove removes a catalogue only: the collection, a note and a directory are refused and kept")
    func removeOnlyACatalogue() async throws {
        let directory = try TemporaryDirectory()
        let (database, bytes, store) = try await Self.collection(in: directory)
        #expect(throws: CatalogueFileError.isCollection(path: database, file: .database)) {
            try DiscogsCatalogueFile.remove(path: database, sparing: database)
        }
        #expect(throws: CatalogueFileError.self) { try DiscogsCatalogueFile.remove(path: database, sparing: nil) }
        #expect(throws: CatalogueFileError.self) { try DiscogsCatalogueFile.remove(path: database + "-wal", sparing: database) }
        #expect(try Self.bytes(database) == bytes)
        _ = store
        let notes = directory.file("notes.txt")
        try "my notes".write(toFile: notes, atomically: false, encoding: .utf8)
        #expect(throws: CatalogueFileError.self) { try DiscogsCatalogueFile.remove(path: notes, sparing: database) }
        #expect(FileManager.default.fileExists(atPath: notes))
        #expect {
            try DiscogsCatalogueFile.remove(path: directory.path, sparing: nil)
        } throws: { error in
            (error as? CatalogueFileError)?.description.contains("it is a directory") == true
        }
        let catalogue = directory.file("catalogue.sqlite")
        let builder = try Self.builder(catalogue)
        try builder.add(CatalogueFileTests.generated(10, seed: 1))
        _ = try builder.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
        try DiscogsCatalogueFile.remove(path: catalogue, sparing: database)
        #expect(!FileManager.default.fileExists(atPath: catalogue))
    }

    @Test("a symbolic link planted at the building file is neither written through nor removed")
    func plantedLink() throws {
        let directory = try TemporaryDirectory()
        let precious = directory.file("precious")
        try "precious".write(toFile: precious, atomically: false, encoding: .utf8)
        let catalogue = directory.file("catalogue.sqlite")
        let building = CatalogueLocation.buildingPath(for: catalogue)
        try FileManager.default.createSymbolicLink(atPath: building, withDestinationPath: precious)
        #expect {
            _ = try Self.builder(catalogue)
        } throws: { error in
            guard case .unsafeBuildingFile(let path, let reason) = error as? CatalogueFileError else { return false }
            return path == building && reason.contains("symbolic link")
        }
        #expect(try String(contentsOfFile: precious, encoding: .utf8) == "precious")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: building) == precious)
        // A link to nothing is not followed either.
        try FileManager.default.removeItem(atPath: building)
        let nowhere = directory.file("nowhere")
        try FileManager.default.createSymbolicLink(atPath: building, withDestinationPath: nowhere)
        #expect(throws: CatalogueFileError.self) { _ = try Self.builder(catalogue) }
        #expect(!FileManager.default.fileExists(atPath: nowhere))
    }

    @Test("a second build, refused, leaves the first's building file, and the first completes")
    func secondBuildLeavesTheFirst() throws {
        let directory = try TemporaryDirectory()
        let catalogue = directory.file("catalogue.sqlite")
        let first = try Self.builder(catalogue)
        let releases = CatalogueFileTests.generated(30, seed: 5)
        try first.add(releases)
        for _ in 0..<3 {
            #expect(throws: CatalogueFileError.buildUnderWay(path: catalogue)) { _ = try Self.builder(catalogue) }
        }
        #expect(FileManager.default.fileExists(atPath: CatalogueLocation.buildingPath(for: catalogue)))
        let summary = try first.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
        #expect(summary.releases == releases.count)
        #expect(try DiscogsCatalogueFile(path: catalogue).summary.releases == releases.count)
    }

    @Test("a building file left by a killed build (this user's, unlocked) is taken over")
    func staleBuildingFile() throws {
        let directory = try TemporaryDirectory()
        let catalogue = directory.file("catalogue.sqlite")
        try "left by a build that was killed".write(toFile: CatalogueLocation.buildingPath(for: catalogue), atomically: false, encoding: .utf8)
        let builder = try Self.builder(catalogue)
        let releases = CatalogueFileTests.generated(10, seed: 6)
        try builder.add(releases)
        #expect(try builder.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0).releases == releases.count)
    }

    @Test("a build that keeps nothing, or fewer than half the releases it replaces, is not swapped in without force")
    func keptTooFew() throws {
        let directory = try TemporaryDirectory()
        let catalogue = directory.file("catalogue.sqlite")
        let nothing = try Self.builder(catalogue)
        #expect(throws: CatalogueFileError.keptTooFew(path: catalogue, releases: 0, replacing: nil)) {
            _ = try nothing.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
        }
        #expect(!FileManager.default.fileExists(atPath: catalogue))
        #expect(!FileManager.default.fileExists(atPath: CatalogueLocation.buildingPath(for: catalogue)))

        let good = try Self.builder(catalogue)
        let hundred = CatalogueFileTests.generated(100, seed: 7)
        try good.add(hundred)
        _ = try good.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)

        let empty = try Self.builder(catalogue)
        #expect(throws: CatalogueFileError.keptTooFew(path: catalogue, releases: 0, replacing: hundred.count)) {
            _ = try empty.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
        }
        let forty = CatalogueFileTests.generated(40, seed: 8)
        try #require(forty.count < hundred.count / 2)
        let few = try Self.builder(catalogue)
        try few.add(forty)
        #expect(throws: CatalogueFileError.keptTooFew(path: catalogue, releases: forty.count, replacing: hundred.count)) {
            _ = try few.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
        }
        #expect(try DiscogsCatalogueFile(path: catalogue).summary.releases == hundred.count)
        let forced = try Self.builder(catalogue)
        try forced.add(forty)
        _ = try forced.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0, force: true)
        #expect(try DiscogsCatalogueFile(path: catalogue).summary.releases == forty.count)
        // Half or more replaces it without a word.
        let thirty = CatalogueFileTests.generated(30, seed: 9)
        try #require(thirty.count >= forty.count / 2)
        let half = try Self.builder(catalogue)
        try half.add(thirty)
        #expect(try half.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0).releases == thirty.count)
    }

    @Test("a catalogue every user may write, or another user's in a directory every user may write, is not trusted")
    func untrusted() throws {
        let directory = try TemporaryDirectory()
        let shared = directory.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        #expect(chmod(shared, 0o1777) == 0)
        let catalogue = shared + "/catalogue.sqlite"
        let builder = try Self.builder(catalogue)
        let releases = CatalogueFileTests.generated(10, seed: 2)
        try builder.add(releases)
        _ = try builder.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
        #expect(try DiscogsCatalogueFile(path: catalogue).summary.releases == releases.count)

        #expect(chmod(catalogue, 0o666) == 0)
        #expect {
            _ = try DiscogsCatalogueFile(path: catalogue)
        } throws: { error in
            guard case .untrusted(_, let reason, _) = error as? CatalogueFileError else { return false }
            return reason.contains("every user may write it")
        }
        #expect(chmod(catalogue, 0o644) == 0)
        // Another user's (nobody's) in the shared directory: refused; in a private one: read.
        try #require(getuid() == 0, "changing a file's owner needs root, as the suite runs")
        #expect(chown(catalogue, 65534, 65534) == 0)
        #expect {
            _ = try DiscogsCatalogueFile(path: catalogue)
        } throws: { error in
            guard case .untrusted(_, let reason, _) = error as? CatalogueFileError else { return false }
            return reason.contains("another user")
        }
        #expect(chmod(shared, 0o755) == 0)
        #expect(try DiscogsCatalogueFile(path: catalogue).summary.releases == releases.count)
    }

    @Test("a FIFO at the catalogue's path is refused before it is opened, at once")
    func fifoCatalogue() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.file("catalogue.sqlite")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect {
            _ = try DiscogsCatalogueFile(path: fifo)
        } throws: { error in
            (error as? CatalogueFileError)?.description.contains("not a regular file") == true
        }
    }
}
