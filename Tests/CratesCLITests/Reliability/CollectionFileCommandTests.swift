import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The collection file on its own: what a collector copies to back it up or to move it. Every
/// process that wrote leaves the file complete as it ends (done, Ctrl-C, SIGTERM), even while
/// another connection keeps the collection open (the UI, say), and `crates backup` copies a
/// collection in use whole.
///
/// In each test the test itself holds the collection open, as the collection UI would: then
/// no command's connection is the last one, and SQLite's own checkpoint on the last close
/// never comes (before, the copy of `crates.sqlite` alone then held nothing the commands
/// added, and `crates list` called it "written by an older version of crates").
@Suite("the collection file alone holds the collection (process)", .serialized, .processTimeLimit)
struct CollectionFileCommandTests {
    /// Copies the collection file alone (no -wal, no -shm) into a directory of its own and
    /// lists the copy with `crates list`.
    private func listCopy(of sandbox: CommandSandbox) async throws -> (ProcessResult, TemporaryDirectory) {
        let elsewhere = try TemporaryDirectory()
        let copy = elsewhere.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: sandbox.database, toPath: copy)
        return (try await sandbox.crates(["list", "--db", copy]), elsewhere)
    }

    private static func barcodes(_ range: Range<Int>, in sandbox: CommandSandbox, name: String) throws -> String {
        let file = sandbox.directory.appendingPathComponent(name).path
        try Data(range.map { Fixtures.gtin($0).canonical + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test("two crates import of 2,000 barcodes at once, the collection held open: crates.sqlite copied alone holds every record")
    func twoImportsAtOnce() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let first = try Self.barcodes(0..<2000, in: sandbox, name: "first.txt")
        let second = try Self.barcodes(2000..<4000, in: sandbox, name: "second.txt")
        let imports = try [first, second].map {
            try ProcessRunner.startCrates(["import", "--no-lookup", $0], environment: sandbox.environment, deadline: .seconds(180))
        }
        for running in imports {
            let result = await running.result()
            #expect(result.succeeded, "\(result)")
        }
        #expect(try await store.outline().rowCount == 4000)
        let (list, _) = try await listCopy(of: sandbox)
        #expect(list.status == 0, "\(list)")
        #expect(list.stdoutLines.count == 4000, "the copy holds \(list.stdoutLines.count) records: \(list.stderr)")
    }

    @Test("SIGTERM while an import looks up: exit 143, and crates.sqlite copied alone holds the 40 records added")
    func importStoppedBySIGTERM() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "file-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "file-token")
        let store = try sandbox.openStore()
        let file = try Self.barcodes(900_001..<900_041, in: sandbox, name: "shelf.txt")
        // The import is looking the fourth up, and waits for the test, when it is stopped.
        try await server.hold(match: "barcode=" + Fixtures.gtin(900_004).canonical)
        let running = try ProcessRunner.startCrates(["import", file], environment: sandbox.environment, deadline: .seconds(120))
        try await server.waitUntilHeld()
        #expect(try await store.outline().rowCount == 40)
        #expect(running.signal(SIGTERM))
        try await waitUntil("the import stopping", lastSeen: { running.stderrSoFar }) {
            running.stderrSoFar.contains("Stopping: the records added so far are kept")
        }
        try await server.release()
        let result = await running.result()
        #expect(!result.signalled && result.status == 128 + SIGTERM, "\(result)")
        let (list, _) = try await listCopy(of: sandbox)
        #expect(list.status == 0 && list.stdoutLines.count == 40, "\(list)")
    }

    @Test("SIGTERM while crates refresh waits for Discogs (a command with no clean stop): exit 143, the file complete")
    func refreshStoppedBySIGTERM() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "file-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "file-token")
        let store = try sandbox.openStore()
        for n in 1...3 { _ = try await store.add(NewRecord(gtin: Fixtures.gtin(910_000 + n), addMethod: .typed)) }
        try await server.hold(match: "barcode=" + Fixtures.gtin(910_001).canonical)
        let running = try ProcessRunner.startCrates(["refresh", "1"], environment: sandbox.environment, deadline: .seconds(120))
        try await server.waitUntilHeld()
        #expect(running.signal(SIGTERM))
        let result = await running.result()
        try await server.release()
        #expect(!result.signalled && result.status == 128 + SIGTERM, "\(result)")
        // The records the test added are in the -wal file until a checkpoint: the refresh's.
        let (list, _) = try await listCopy(of: sandbox)
        #expect(list.status == 0 && list.stdoutLines.count == 3, "\(list)")
    }

    @Test("SIGTERM to the collection UI after a scan: exit 143, and crates.sqlite copied alone holds the scan")
    func collectionUIStoppedBySIGTERM() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(905_001), addMethod: .typed))
        let tmux = try await sandbox.sandbox.start(extra: "--no-lookup --no-scanner")
        try await tmux.waitFor(text: "1 record")
        try await tmux.type("5099750442227\r")
        try await tmux.waitFor(text: "2 records")
        let pid = try #require(try await tmux.programPID(), "the collection UI's process in the pane")
        #expect(kill(pid, SIGTERM) == 0)
        #expect(try await tmux.exitReport().status == 128 + Int(SIGTERM))
        let (list, _) = try await listCopy(of: sandbox)
        #expect(list.status == 0 && list.stdoutLines.count == 2, "\(list)")
    }

    @Test("a copy of crates.sqlite made without its -wal file is said to be incomplete, not an older version's")
    func copyWithoutItsWal() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        for n in 1...3 { _ = try await store.add(NewRecord(gtin: Fixtures.gtin(920_000 + n), addMethod: .typed)) }
        let (list, _) = try await listCopy(of: sandbox)
        #expect(list.status == 1, "\(list)")
        #expect(list.stderr.contains("looks incomplete") && list.stderr.contains("-wal file"), "\(list)")
        #expect(!list.stderr.contains("older version"), "\(list)")
    }

    // MARK: crates backup

    @Test("crates backup while another program holds the write lock: the copy holds every record, and opens read-only as another user")
    func backupWhileInUse() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        for n in 1...25 { _ = try await store.add(NewRecord(gtin: Fixtures.gtin(930_000 + n), addMethod: .typed)) }
        let lock = SQLiteLock(path: sandbox.database)
        try await lock.acquire()
        let elsewhere = try TemporaryDirectory()
        let copy = elsewhere.file("backup.sqlite")
        let backup = try await sandbox.crates(["backup", copy])
        #expect(await lock.release()?.status == 0)
        #expect(backup.status == 0 && backup.stderr.isEmpty, "\(backup)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["backup.sqlite"], "no temporary file left")

        #expect(chmod(copy, 0o444) == 0 && chmod(elsewhere.path, 0o755) == 0)
        let list = try await sandbox.crates(["list", "--db", copy])
        #expect(list.status == 0 && list.stdoutLines.count == 25, "\(list)")
        if getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            // Another user (nobody), who may write neither the copy nor its directory.
            let reader = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", try ProcessRunner.cratesBinary().path, "list", "--db", copy],
                environment: ["HOME": "/nonexistent", "XDG_CONFIG_HOME": "/nonexistent"], deadline: .seconds(120))
            #expect(reader.status == 0 && reader.stdoutLines.count == 25, "\(reader)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["backup.sqlite"], "read without side files")
    }

    @Test("crates backup refuses the collection's own files and a directory, and replaces a file only when the copy is whole")
    func backupRefusalsAndReplacing() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(940_001), addMethod: .typed))
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))
        let link = sandbox.directory.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.database)
        for own in [sandbox.database, sandbox.database + "-wal", sandbox.database + "-shm", link] {
            let refused = try await sandbox.crates(["backup", own])
            #expect(refused.status == 1 && refused.stderr.contains("writing there would destroy the collection"), "\(own): \(refused)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == before)
        let directory = try await sandbox.crates(["backup", sandbox.directory.path])
        #expect(directory.status == 1 && directory.stderr.contains("it is a directory"), "\(directory)")
        let standardOutput = try await sandbox.crates(["backup", "-"])
        #expect(standardOutput.status == 64, "\(standardOutput)")

        // A file there already: replaced by the whole copy, keeping its permissions; left as
        // it was when there is nothing to copy.
        let elsewhere = try TemporaryDirectory()
        let target = elsewhere.file("kept.sqlite")
        try Data("yesterday's\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(chmod(target, 0o600) == 0)
        let missing = try await ProcessRunner.crates(
            ["backup", "--db", elsewhere.file("none.sqlite"), target], environment: sandbox.environment)
        #expect(missing.status == 1 && missing.stderr.contains("there is no collection at"), "\(missing)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "yesterday's\n")
        let replaced = try await sandbox.crates(["backup", target])
        #expect(replaced.status == 0, "\(replaced)")
        #expect(fileMode(target) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["kept.sqlite"], "no temporary file left")
        let list = try await sandbox.crates(["list", "--db", target])
        #expect(list.status == 0 && list.stdoutLines.count == 1, "\(list)")
    }

    /// swift-corelibs-foundation's `deletingLastPathComponent` traps on a one-character name:
    /// `--db z` crashed `crates add`, and an output named `q` crashed the output check.
    @Test("a collection or an output named with one character: no crash")
    func oneCharacterNames() async throws {
        let sandbox = try CommandSandbox()
        let add = try await ProcessRunner.run(
            try ProcessRunner.cratesBinary(), arguments: ["add", "--db", "z", "5099750442227"], environment: sandbox.environment,
            directory: sandbox.directory)
        #expect(add.status == 0 && !add.signalled, "\(add)")
        let backup = try await ProcessRunner.run(
            try ProcessRunner.cratesBinary(), arguments: ["backup", "--db", "z", "q"], environment: sandbox.environment,
            directory: sandbox.directory)
        #expect(backup.status == 0 && !backup.signalled, "\(backup)")
        #expect(FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("q").path))
    }

    // MARK: Another user's files

    /// A shared sticky directory (mode 1777, as /tmp), where the collector is nobody (by
    /// setpriv: the tests run as root, whom file modes do not stop) and the files were put
    /// there by other users beforehand.
    private static func asNobody(_ arguments: [String], in directory: String) async throws -> ProcessResult {
        try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", try ProcessRunner.cratesBinary().path] + arguments,
            environment: ["HOME": "/nonexistent", "XDG_CONFIG_HOME": "/nonexistent", "CRATES_DISCOGS_API": "http://127.0.0.1:9"],
            directory: URL(fileURLWithPath: directory), deadline: .seconds(120))
    }

    private static func stickyDirectory() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory()
        #expect(chmod(scratch.path, 0o755) == 0)
        try FileManager.default.createDirectory(atPath: scratch.file("shared"), withIntermediateDirectories: false)
        #expect(chmod(scratch.file("shared"), 0o1777) == 0)
        return scratch
    }

    @Test("a collection file planted by another user in a shared directory is refused, and left as it was",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func plantedCollectionFile() async throws {
        let scratch = try Self.stickyDirectory()
        let shared = scratch.file("shared")
        // Empty, writable by everyone, root's: SQLite takes an empty file for an empty
        // database, and its owner would read everything written into it.
        let planted = shared + "/crates.sqlite"
        #expect(FileManager.default.createFile(atPath: planted, contents: nil))
        #expect(chmod(planted, 0o666) == 0)
        let add = try await Self.asNobody(["add", "--db", planted, "5099750442227"], in: shared)
        #expect(add.status == 1, "\(add)")
        #expect(add.stderr.contains("belongs to another user (uid 0)") && add.stderr.contains("created or changed nothing"), "\(add)")
        #expect(try FileManager.default.attributesOfItem(atPath: planted)[.size] as? Int == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared) == ["crates.sqlite"])

        // The collector's own file, but writable by everyone: refused for writing and for reading.
        #expect(unlink(planted) == 0)
        let own = try await Self.asNobody(["add", "--db", planted, "5099750442227"], in: shared)
        #expect(own.status == 0, "\(own)")
        #expect(chmod(planted, 0o666) == 0)
        let size = try FileManager.default.attributesOfItem(atPath: planted)[.size] as? Int
        for arguments in [["add", "--db", planted, "4004064480149"], ["list", "--db", planted]] {
            let refused = try await Self.asNobody(arguments, in: shared)
            #expect(refused.status == 1 && refused.stderr.contains("may be written by every user (mode 666)"), "\(arguments): \(refused)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: planted)[.size] as? Int == size)
    }

    @Test("a -wal link planted by another user beside a collection to be made: refused, and nothing is created",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func plantedWalLink() async throws {
        let scratch = try Self.stickyDirectory()
        let shared = scratch.file("shared")
        let collection = shared + "/crates.sqlite"
        // Another user's link (uid 4321), to where that user could read what is written.
        #expect(symlink(scratch.file("theirs"), collection + "-wal") == 0)
        #expect(lchown(collection + "-wal", 4321, 4321) == 0)
        let add = try await Self.asNobody(["add", "--db", collection, "5099750442227"], in: shared)
        #expect(add.status == 1, "\(add)")
        #expect(add.stderr.contains("crates.sqlite-wal is a symbolic link"), "\(add)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared) == ["crates.sqlite-wal"], "nothing created")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("theirs")))
    }
}
