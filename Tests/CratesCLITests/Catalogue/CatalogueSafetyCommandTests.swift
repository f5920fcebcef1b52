import CratesDumpGenerator
import CratesTestSupport
import Foundation
import Testing

/// The catalogue commands pointed at the wrong file (a stale `CRATES_CATALOGUE`, two
/// variables swapped): the collection and any other file are refused and left as they were.
@Suite("crates catalogue: the wrong file (process)", .processTimeLimit)
struct CatalogueSafetyCommandTests {
    /// A sandbox whose collection holds two records, and a small dump.
    static func seeded() async throws -> (CommandSandbox, dump: String) {
        let sandbox = try CommandSandbox()
        let added = try await sandbox.crates(["add", "5099750442227", "0602547924001"])
        #expect(added.status == 0, "\(added)")
        let (dump, _) = try CatalogueCommandTests.dump(sandbox, date: "20250601", count: 50, seed: 3, faults: false)
        return (sandbox, dump)
    }

    static func listed(_ sandbox: CommandSandbox) async throws -> Int {
        let list = try await sandbox.crates(["list"])
        #expect(list.status == 0, "\(list)")
        return list.stdout.split(separator: "\n").count
    }

    @Test("build and remove aimed at the collection (by flag, or by a swapped CRATES_CATALOGUE) exit 1 and keep it")
    func theCollection() async throws {
        let (sandbox, dump) = try await Self.seeded()
        let db = sandbox.database
        let build = try await sandbox.crates(["catalogue", "build", "--catalogue", db, dump])
        #expect(build.status == 1, "\(build)")
        #expect(build.stderr.contains("is the collection's database, not a Discogs catalogue"), "\(build)")
        #expect(!build.stdout.contains("Built"), "\(build)")
        let wal = try await sandbox.crates(["catalogue", "build", "--catalogue", db + "-wal", dump])
        #expect(wal.status == 1, "\(wal)")
        let remove = try await sandbox.crates(["catalogue", "remove", "--catalogue", db])
        #expect(remove.status == 1, "\(remove)")
        #expect(remove.stderr.contains("is the collection's database"), "\(remove)")

        // The variables swapped in a profile: CRATES_CATALOGUE names the collection.
        var swapped = sandbox.environment
        swapped["CRATES_CATALOGUE"] = db
        let viaVariable = try await ProcessRunner.crates(["catalogue", "build", dump], environment: swapped, stdin: nil, deadline: .seconds(120))
        #expect(viaVariable.status == 1, "\(viaVariable)")
        let removeViaVariable = try await ProcessRunner.crates(["catalogue", "remove"], environment: swapped, stdin: nil, deadline: .seconds(120))
        #expect(removeViaVariable.status == 1, "\(removeViaVariable)")

        #expect(FileManager.default.fileExists(atPath: db))
        #expect(try await Self.listed(sandbox) == 2)
    }

    @Test("remove of a note or a directory, and a build over a note, exit 1 and leave them")
    func otherFiles() async throws {
        let (sandbox, dump) = try await Self.seeded()
        let notes = sandbox.directory.appendingPathComponent("notes.txt").path
        try "call Anna about the Kraftwerk LP".write(toFile: notes, atomically: false, encoding: .utf8)
        let remove = try await sandbox.crates(["catalogue", "remove", "--catalogue", notes])
        #expect(remove.status == 1, "\(remove)")
        #expect(remove.stderr.contains("Cannot remove \(notes)"), "\(remove)")
        let build = try await sandbox.crates(["catalogue", "build", "--catalogue", notes, dump])
        #expect(build.status == 1, "\(build)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "call Anna about the Kraftwerk LP")
        let directory = try await sandbox.crates(["catalogue", "remove", "--catalogue", sandbox.directory.path])
        #expect(directory.status == 1, "\(directory)")
        #expect(directory.stderr.contains("it is a directory"), "\(directory)")
        #expect(!directory.stderr.contains("Cannot build"), "\(directory)")
    }

    @Test("cover -o refuses the catalogue's file as it refuses the collection's")
    func coverOutput() async throws {
        let (sandbox, dump) = try await Self.seeded()
        #expect(try await sandbox.crates(["catalogue", "build", dump]).status == 0)
        let catalogue = CatalogueCommandTests.cataloguePath(sandbox)
        let before = try Data(contentsOf: URL(fileURLWithPath: catalogue))
        let cover = try await sandbox.crates(["cover", "1", "-o", catalogue])
        #expect(cover.status == 1, "\(cover)")
        #expect(cover.stderr.contains("is the Discogs catalogue"), "\(cover)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalogue)) == before)
    }

    @Test("a dump that keeps fewer than half the catalogue's releases is not swapped in without --force")
    func keptTooFew() async throws {
        let (sandbox, big) = try await Self.seeded()
        #expect(try await sandbox.crates(["catalogue", "build", big]).status == 0)
        let (small, _) = try CatalogueCommandTests.dump(sandbox, date: "20250701", count: 10, seed: 4, faults: false)
        let refused = try await sandbox.crates(["catalogue", "build", small])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("the catalogue was not replaced"), "\(refused)")
        #expect(try await sandbox.crates(["catalogue", "status"]).stdout.contains("2025-06-01"))
        let forced = try await sandbox.crates(["catalogue", "build", "--force", small])
        #expect(forced.status == 0, "\(forced)")
        #expect(try await sandbox.crates(["catalogue", "status"]).stdout.contains("2025-07-01"))
    }

    @Test("a symbolic link planted at the building file: the build exits 1 and the file it names is untouched")
    func plantedLink() async throws {
        let (sandbox, dump) = try await Self.seeded()
        let precious = sandbox.directory.appendingPathComponent("precious").path
        try "precious".write(toFile: precious, atomically: false, encoding: .utf8)
        let catalogue = CatalogueCommandTests.cataloguePath(sandbox)
        try FileManager.default.createDirectory(atPath: (catalogue as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: catalogue + ".building", withDestinationPath: precious)
        let build = try await sandbox.crates(["catalogue", "build", dump])
        #expect(build.status == 1, "\(build)")
        #expect(build.stderr.contains("is a symbolic link"), "\(build)")
        #expect(try String(contentsOfFile: precious, encoding: .utf8) == "precious")
    }

    @Test("a FIFO at the catalogue's path is refused before it is opened: status, lookup and add --wait end")
    func fifoCatalogue() async throws {
        let sandbox = try CommandSandbox()
        let catalogue = CatalogueCommandTests.cataloguePath(sandbox)
        try FileManager.default.createDirectory(atPath: (catalogue as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(mkfifo(catalogue, 0o600) == 0)
        // Each would wait in open(2) for a writer for ever; the deadline only bounds a failure.
        let status = try await sandbox.crates(["catalogue", "status"], deadline: .seconds(60))
        #expect(status.status == 1, "\(status)")
        #expect(status.stderr.contains("not a regular file"), "\(status)")
        let lookup = try await sandbox.crates(["lookup", "5099750442227"], deadline: .seconds(60))
        #expect(!lookup.timedOut && [3, 4].contains(lookup.status), "\(lookup)")
        #expect(lookup.stderr.contains("not a regular file"), "\(lookup)")
        let add = try await sandbox.crates(["add", "--wait", "--timeout", "5", "5099750442227"], deadline: .seconds(60))
        #expect(!add.timedOut && add.status == 3, "\(add)")
    }
}
