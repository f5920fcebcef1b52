import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// A Discogs collection export's folders: made places, and said so; or, with
/// `--no-folder-places`, left as Discogs folders only.
@Suite("crates import: Discogs folders", .serialized, .processTimeLimit)
struct ImportFoldersCommandTests {
    static func export(in sandbox: CommandSandbox) throws {
        try Data("""
            Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,Barcode
            A 1,Ada,One,Label,LP,,1970,,Jazz,2024-05-01 10:00:00,\(Fixtures.gtin(1).canonical)
            A 2,Ada,Two,Label,LP,,1971,,Rock Shelf,2024-05-01 10:00:00,\(Fixtures.gtin(2).canonical)
            A 3,Ada,Three,Label,LP,,1972,,Jazz,2024-05-01 10:00:00,\(Fixtures.gtin(3).canonical)
            A 4,Ada,Four,Label,LP,,1973,,Uncategorized,2024-05-01 10:00:00,\(Fixtures.gtin(4).canonical)

            """.utf8).write(to: URL(fileURLWithPath: sandbox.directory.appendingPathComponent("discogs.csv").path))
    }

    @Test("the folders become places, and the summary says which and how to keep them folders only")
    func foldersBecomePlacesAndItIsSaid() async throws {
        let sandbox = try CommandSandbox()
        try Self.export(in: sandbox)
        let result = try await ProcessRunner.run(
            try ProcessRunner.cratesBinary(), arguments: ["import", "--no-lookup", "discogs.csv"],
            environment: sandbox.environment, directory: sandbox.directory)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(
            "discogs.csv: 2 Discogs folders became places: Jazz, Rock Shelf (--no-folder-places keeps them folders only)"), "\(result)")
        let places = try await sandbox.openStore().locationTree().nodes.map(\.name)
        #expect(Set(places) == ["Jazz", "Rock Shelf"])
    }

    @Test("--no-folder-places: no place is made, the copies are in none, and the summary says so")
    func noFolderPlaces() async throws {
        let sandbox = try CommandSandbox()
        try Self.export(in: sandbox)
        let result = try await ProcessRunner.run(
            try ProcessRunner.cratesBinary(), arguments: ["import", "--no-lookup", "--no-folder-places", "discogs.csv"],
            environment: sandbox.environment, directory: sandbox.directory)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("4 added"), "\(result)")
        #expect(result.stdout.contains("discogs.csv: Discogs folders not made places (--no-folder-places)"), "\(result)")
        #expect(try await sandbox.openStore().locationTree().nodes.isEmpty)
    }
}
