import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 12, items 2, 9 and 11: an output file is checked before anything is opened, read or
/// added. One that is the collection itself (the database, its -wal, -shm or -journal, or a
/// link to one, told by device and inode) is refused, so `export --csv "$CRATES_DB"` no
/// longer replaces the collection with CSV and `import --report "$CRATES_DB"` no longer
/// leaves it malformed; a report in a directory that does not exist adds nothing; and an
/// export keeps the mode of the file it replaces.
@Suite("output files: never the collection, checked first, modes kept (process)", .processTimeLimit)
struct OutputPathCommandTests {
    /// A collection of two records, its files as a busy collection has them (-wal and -shm
    /// while a store has it open).
    private func collection() async throws -> (CommandSandbox, CollectionStore) {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        for digits in ["5099750442227", "0077774620024"] {
            _ = try await store.add(NewRecord(gtin: try GTIN.parse(digits).gtin, addMethod: .typed))
        }
        return (sandbox, store)
    }

    @Test("export --csv/--json, import --report and labels -o refuse the database, its -wal, -shm, -journal, and links to them")
    func theCollectionsOwnFilesAreRefused() async throws {
        let (sandbox, store) = try await collection()
        let database = sandbox.database
        let list = try Reliability.write("4004064480149\n", "more.txt", in: sandbox)
        let symbolic = sandbox.directory.appendingPathComponent("link.sqlite").path
        #expect(symlink(database, symbolic) == 0)
        let hard = sandbox.directory.appendingPathComponent("hard.sqlite").path
        #expect(link(database, hard) == 0)
        let walLink = sandbox.directory.appendingPathComponent("wal-link").path
        #expect(symlink(database + "-wal", walLink) == 0)
        try FileManager.default.createDirectory(at: sandbox.directory.appendingPathComponent("x"), withIntermediateDirectories: false)
        let targets: [(path: String, file: String)] = [
            (database, "the collection's database"), (database + "-wal", "the collection's -wal file"),
            (database + "-shm", "the collection's -shm file"), (database + "-journal", "the collection's -journal file"),
            (symbolic, "the collection's database"), (hard, "the collection's database"),
            (walLink, "the collection's -wal file"),
            (sandbox.directory.appendingPathComponent("./x/../crates.sqlite").path, "the collection's database"),
        ]
        for (target, file) in targets {
            let runs: [[String]] = [
                ["export", "--csv", target], ["export", "--json", target],
                ["import", "--no-lookup", list, "--report", target],
                ["labels", "--all", "--layout", "roll-62", "-o", target],
            ]
            for arguments in runs {
                let result = try await sandbox.crates(arguments)
                #expect(result.status == 1, "\(arguments): \(result)")
                #expect(result.stderr.contains("is \(file): writing there would destroy the collection"), "\(arguments): \(result)")
            }
        }
        // Nothing was added, and the collection is whole.
        #expect(try await store.outline().rowCount == 2)
        #expect(try await store.integrityProblems().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: database + "-journal"))
        let check = try await ProcessRunner.run(
            URL(fileURLWithPath: try #require(SQLiteLock.shell)), arguments: [database, "PRAGMA integrity_check"])
        #expect(check.stdout == "ok\n", "\(check)")
    }

    @Test("import --report into a directory that does not exist: refused before anything is added; the database is not even created")
    func aReportThatCannotBeWrittenAddsNothing() async throws {
        let sandbox = try CommandSandbox()
        let list = try Reliability.write("5099750442227\n0077774620024\n", "list.txt", in: sandbox)
        let result = try await sandbox.crates(["import", "--no-lookup", list, "--report", "/nonexistent/r.tsv"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("cannot write /nonexistent/r.tsv: there is no directory /nonexistent"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        // And labels: checked before the collection is opened.
        let labels = try await sandbox.crates(["labels", "--all", "--layout", "roll-62", "-o", "/nonexistent/l.pdf"])
        #expect(labels.status == 1 && labels.stderr.contains("there is no directory /nonexistent"), "\(labels)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("export keeps the mode of the file it replaces, writes through a link, and writes a device as it is")
    func exportKeepsTheModeOfTheFileItReplaces() async throws {
        let (sandbox, _) = try await collection()
        let kept = sandbox.directory.appendingPathComponent("private.csv").path
        #expect(FileManager.default.createFile(atPath: kept, contents: Data("old\n".utf8)))
        #expect(chmod(kept, 0o600) == 0)
        let first = try await sandbox.crates(["export", "--csv", kept])
        #expect(first.status == 0, "\(first)")
        #expect(fileMode(kept) == 0o600)
        #expect(try String(contentsOfFile: kept, encoding: .utf8).contains("5099750442227"))

        // Through a symbolic link: the file it names is replaced, keeping its mode; the link stays.
        let linked = sandbox.directory.appendingPathComponent("linked.json").path
        #expect(symlink(kept, linked) == 0)
        let second = try await sandbox.crates(["export", "--json", linked])
        #expect(second.status == 0, "\(second)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: linked)) == kept)
        #expect(fileMode(kept) == 0o600)
        #expect(try String(contentsOfFile: kept, encoding: .utf8).hasPrefix(#"{"crates":"#))

        // A new file: the usual 0666 less the umask (0022 here: 0644).
        let fresh = sandbox.directory.appendingPathComponent("fresh.csv").path
        let third = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "umask 022; exec \"$0\" export --csv \"$1\"", try ProcessRunner.cratesBinary().path, fresh],
            environment: sandbox.environment)
        #expect(third.status == 0, "\(third)")
        #expect(fileMode(fresh) == 0o644)

        // A device is written, never replaced by a file of its name (/dev/full: no space).
        let full = try await sandbox.crates(["export", "--csv", "/dev/full"])
        #expect(full.status == 1 && full.stderr.contains("No space left on device"), "\(full)")
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
    }
}
