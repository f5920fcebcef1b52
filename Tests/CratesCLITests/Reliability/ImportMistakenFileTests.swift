import CratesTestSupport
import Foundation
import Testing

/// Files collectors give `crates import` by mistake: a compressed list, a zipped CSV (or a
/// spreadsheet), a `crates backup` copy, a photo of a barcode. Each is refused before the
/// collection is opened, saying what the file is, and the command it suggests imports what
/// the file holds: the test runs that command as a person would paste it.
@Suite("crates import: a file that is not a list says what it is and how to import it (process)", .processTimeLimit)
struct ImportMistakenFileTests {
    enum Kind: String, CaseIterable, Sendable {
        case gzip, zip, backup, png
    }

    static let barcodes = ["5099750442227", "0077774620024"]

    @Test("refused with what it is; the command it names imports the records", arguments: Kind.allCases)
    func namedAndImportable(_ kind: Kind) async throws {
        let sandbox = try CommandSandbox()
        // A name with a space: the command suggested must quote it.
        let (path, what, expected) = try await Self.make(kind, in: sandbox)
        let refused = try await sandbox.crates(["import", "--no-lookup", path])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("crates import: \(path): this is \(what)"), "\(refused)")
        Reliability.expectPlainText(refused)
        #expect(!FileManager.default.fileExists(atPath: sandbox.database), "nothing opened, nothing created")

        // The command in backquotes that imports, run by a shell with this crates first on the PATH.
        let quoted = refused.stderr.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        let command = try #require(quoted.first { $0.hasSuffix("| crates import -") }, "\(refused)")
        var environment = sandbox.environment
        let binaries = try ProcessRunner.cratesBinary().deletingLastPathComponent().path
        environment["PATH"] = binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let followed = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", command], environment: environment)
        #expect(followed.status == 0, "\(command): \(followed)")
        let listed = try await sandbox.crates(["list"])
        let imported = listed.stdoutLines.compactMap { $0.split(separator: "\t").dropFirst().first.map(String.init) }
        #expect(imported.sorted() == expected.sorted(), "\(command): \(listed)")
    }

    /// The file of `kind` in the sandbox, under a name with a space, how the refusal begins
    /// to describe it, and the barcodes it holds.
    static func make(_ kind: Kind, in sandbox: CommandSandbox) async throws -> (path: String, what: String, barcodes: [String]) {
        let directory = sandbox.directory.path
        let list = try Reliability.write("barcode\n" + barcodes.joined(separator: "\n") + "\n", "my records.csv", in: sandbox)
        func shell(_ command: String) async throws {
            let result = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", command], directory: sandbox.directory)
            try #require(result.status == 0, "\(command): \(result)")
        }
        switch kind {
        case .gzip:
            try await shell("gzip -k 'my records.csv'")
            return (list + ".gz", "a gzip-compressed file", barcodes)
        case .zip:
            try await shell("python3 -m zipfile -c 'my records.zip' 'my records.csv'")
            return (directory + "/my records.zip", "a ZIP archive", barcodes)
        case .backup:
            // Another collection, backed up: what a collector restoring a backup holds.
            let other = directory + "/other.sqlite"
            let added = try await sandbox.crates(["--db", other, "--no-lookup", "add"] + barcodes)
            try #require(added.status == 0, "\(added)")
            let backedUp = try await sandbox.crates(["--db", other, "backup", directory + "/my backup.sqlite"])
            try #require(backedUp.status == 0, "\(backedUp)")
            return (directory + "/my backup.sqlite", "a SQLite database", barcodes)
        case .png:
            try await shell("zint -b 13 -d \(barcodes[0]) -o 'my photo.png'")
            return (directory + "/my photo.png", "a PNG image", [barcodes[0]])
        }
    }
}
