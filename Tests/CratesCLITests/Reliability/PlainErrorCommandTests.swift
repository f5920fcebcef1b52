import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 12, item 9: file errors are said in words a person can act on, never as Foundation's
/// "The operation could not be completed. (NSCocoaErrorDomain error 256/512/640.)". The
/// places the fault run found it: standard output on /dev/full or closed, `HOME=/etc/passwd`
/// (a file where the data and configuration directories would be), a directory or an
/// unreadable file given as input, an output in a directory the user may not write. (A full
/// disk, error 640: `FullDiskCommandTests`.)
@Suite("file errors in plain words, never NSCocoaErrorDomain (process)", .processTimeLimit)
struct PlainErrorCommandTests {
    /// A collection of two records and a place, and a list to import.
    private func seeded() async throws -> (CommandSandbox, list: String) {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        for digits in ["5099750442227", "0077774620024"] {
            _ = try await store.add(NewRecord(gtin: try GTIN.parse(digits).gtin, addMethod: .typed))
        }
        let place = try await sandbox.crates(["location", "add", "Shelf 1"])
        #expect(place.status == 0, "\(place)")
        return (sandbox, try Reliability.write("4004064480149\n", "list.txt", in: sandbox))
    }

    /// Commands that print on standard output, and what they print (never empty here).
    private func printing(_ list: String) -> [[String]] {
        [
            ["list"], ["list", "--json"], ["export", "--csv", "-"], ["export", "--json", "-"], ["location", "list"],
            ["import", "--dry-run", list], ["barcode", "5099750442227"],
            ["labels", "--all", "--layout", "roll-62", "-o", "-"],
        ]
    }

    /// Runs crates with its standard output redirected by the shell (`> /dev/full`, `>&-`).
    private func crates(_ arguments: [String], stdout redirection: String, in sandbox: CommandSandbox) async throws -> ProcessResult {
        try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "exec \"$0\" \"$@\" \(redirection)", try ProcessRunner.cratesBinary().path] + arguments,
            environment: sandbox.environment, deadline: .seconds(120))
    }

    @Test("standard output on /dev/full or closed: exit 1, 'cannot write to standard output: …', for every command that prints")
    func standardOutputThatCannotBeWritten() async throws {
        let (sandbox, list) = try await seeded()
        for arguments in printing(list) {
            let full = try await crates(arguments, stdout: "> /dev/full", in: sandbox)
            #expect(full.status == 1 && !full.signalled, "\(arguments) > /dev/full: \(full)")
            #expect(full.stderr.contains("cannot write to standard output: No space left on device"), "\(arguments): \(full)")
            Reliability.expectPlainText(full)
            let closed = try await crates(arguments, stdout: ">&-", in: sandbox)
            #expect(closed.status == 1 && !closed.signalled, "\(arguments) >&-: \(closed)")
            #expect(closed.stderr.contains("cannot write to standard output: it was closed when crates started"), "\(arguments): \(closed)")
            Reliability.expectPlainText(closed)
        }
        // Nothing was added by the dry run, whatever became of its output.
        #expect(try await sandbox.openStore().outline().rowCount == 2)
    }

    /// `HOME=/etc/passwd`, no XDG variables: every default path runs through a file.
    @Test("HOME=/etc/passwd: each command names the path and says 'Not a directory'; never Foundation's text")
    func homeIsAFile() async throws {
        let sandbox = try CommandSandbox()
        let list = try Reliability.write("5099750442227\n", "list.txt", in: sandbox)
        let runs: [(arguments: [String], status: Int32)] = [
            (["list"], 1), (["export", "--csv", "-"], 1), (["add", "5099750442227"], 1), (["import", "--no-lookup", list], 1),
            (["location", "add", "Shelf"], 1), (["location", "list"], 1), (["edit", "1", "--note", "x"], 1),
            (["auth", "--status"], 1), (["auth", "--logout"], 1), (["lookup", "5099750442227"], 1),
            (["search", "--catno", "SHVL 804"], 3),
        ]
        for (arguments, status) in runs {
            let result = try await ProcessRunner.run(
                try ProcessRunner.cratesBinary(), arguments: arguments,
                environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/etc/passwd"], deadline: .seconds(120))
            #expect(result.status == status && !result.signalled, "\(arguments): \(result)")
            #expect(result.stderr.contains("/etc/passwd/") && result.stderr.contains("Not a directory"), "\(arguments): \(result)")
            Reliability.expectPlainText(result)
        }
    }

    @Test("a directory to import, or to export onto: 'it is a directory', exit 1, nothing added")
    func directories() async throws {
        let (sandbox, _) = try await seeded()
        let folder = sandbox.directory.path
        let imported = try await sandbox.crates(["import", "--no-lookup", folder])
        #expect(imported.status == 1 && imported.stderr.contains("\(folder): it is a directory"), "\(imported)")
        Reliability.expectPlainText(imported)
        for format in ["--csv", "--json"] {
            let exported = try await sandbox.crates(["export", format, folder])
            #expect(exported.status == 1 && exported.stderr.contains("cannot write \(folder): it is a directory"), "\(exported)")
            Reliability.expectPlainText(exported)
        }
        let report = try await sandbox.crates(["import", "--no-lookup", try Reliability.write("4004064480149\n", "more.txt", in: sandbox),
                                               "--report", folder])
        #expect(report.status == 1 && report.stderr.contains("it is a directory"), "\(report)")
        Reliability.expectPlainText(report)
        #expect(try await sandbox.openStore().outline().rowCount == 2, "nothing added")
    }

    /// As another user (nobody): a list it may not read, an export into a directory it may
    /// not write. Root reads and writes anything, so these drop privileges.
    @Test("as another user: an unreadable list, an export into a directory it may not write: 'permission denied', exit 1",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func permissionDenied() async throws {
        let sandbox = try CommandSandbox()
        #expect(chmod(sandbox.directory.path, 0o755) == 0)
        let secret = try Reliability.write("5099750442227\n", "secret.txt", in: sandbox)
        #expect(chmod(secret, 0o600) == 0)
        let database = "/tmp/crates-nobody-\(getpid()).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(database + suffix) } }
        let runs: [(arguments: [String], text: String)] = [
            (["import", "--no-lookup", "--db", database, secret], "\(secret): cannot be read (permission denied)"),
            (["export", "--csv", sandbox.directory.appendingPathComponent("out.csv").path, "--db", database],
             "cannot write \(sandbox.directory.appendingPathComponent("out.csv").path): permission denied"),
        ]
        for (arguments, text) in runs {
            let result = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", try ProcessRunner.cratesBinary().path] + arguments,
                environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "XDG_CONFIG_HOME": "/nonexistent"],
                deadline: .seconds(120))
            #expect(result.status == 1 && !result.signalled, "\(arguments): \(result)")
            #expect(result.stderr.contains(text), "\(arguments): \(result)")
            Reliability.expectPlainText(result)
        }
        #expect(!FileManager.default.fileExists(atPath: database), "the refused import made no collection")
    }

    /// The records are in the collection before their lines are printed: an output that
    /// fails says so, and the codes after it are added all the same.
    @Test("add and import with standard output on /dev/full or closed: the records are added, said kept on stderr, exit 74")
    func addingWithStandardOutputThatCannotBeWritten() async throws {
        let (sandbox, list) = try await seeded()
        let add = try await crates(["add", "4006381333931", "5012345678900"], stdout: "> /dev/full", in: sandbox)
        #expect(add.status == 74 && !add.signalled, "\(add)")
        #expect(add.stderr.contains(
            "crates add: 2 records added and kept (ids 3, 4), but not printed: cannot write to standard output: No space left on device"),
            "\(add)")
        Reliability.expectPlainText(add)
        let manual = try await crates(["add", "--manual", "--artist", "Can", "--title", "Tago Mago"], stdout: ">&-", in: sandbox)
        #expect(manual.status == 74 && !manual.signalled, "\(manual)")
        #expect(manual.stderr.contains("1 record added and kept (id 5), but not printed: cannot write to standard output: it was closed"),
            "\(manual)")
        let imported = try await crates(["import", "--no-lookup", list], stdout: "> /dev/full", in: sandbox)
        #expect(imported.status == 74 && !imported.signalled, "\(imported)")
        #expect(imported.stderr.contains(
            "1 record added and kept, but the summary was not printed: cannot write to standard output: No space left on device"),
            "\(imported)")
        Reliability.expectPlainText(imported)
        #expect(try await sandbox.openStore().outline().rowCount == 6, "every record kept")
    }
}
