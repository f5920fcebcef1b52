import CratesCore
import CratesStore
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `crates import` stopped half-way: killed (-9) while adding, interrupted (Ctrl-C) while
/// looking up, on a pipe and on a terminal. Nothing added is lost, nothing is added twice,
/// and the lookups not made wait in the queue.
@Suite("crates import, interrupted (process)", .serialized)
struct ImportInterruptTests {
    /// Starts `crates ARGUMENTS` through a shell that writes its pid to `pidFile` and then
    /// execs crates (same pid), so the test can signal the very process. Runs in the
    /// background; the result comes when it ends (or at the deadline).
    private func start(
        _ arguments: [String], sandbox: CommandSandbox, pidFile: String, deadline: Duration
    ) throws -> Task<ProcessResult, any Error> {
        let binary = try ProcessRunner.cratesBinary().path
        let environment = sandbox.environment
        return Task {
            try await ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo $$ > \"$0\"; exec \"$@\"", pidFile, binary] + arguments,
                environment: environment, deadline: deadline)
        }
    }

    /// Polls `condition` every 10 ms until it holds or `seconds` pass.
    private func poll(seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }

    private func readPID(_ file: String) -> pid_t? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The collection the import is writing, opened once the import has created and
    /// migrated it, or nil when that does not happen within `seconds`. (Opened while the
    /// importer is still creating the tables, the store would take the half-made file for
    /// another application's: so it is tried until it opens.)
    private func openWhenCreated(_ database: String, seconds: Double) async -> CatalogueStore? {
        var store: CatalogueStore?
        _ = await poll(seconds: seconds) {
            guard ((try? FileManager.default.attributesOfItem(atPath: database)[.size] as? Int) ?? 0) >= 4096 else {
                return false
            }
            store = try? CatalogueStore(path: database)
            return store != nil
        }
        return store
    }

    @Test("kill -9 while adding, then the same import again: every line once, none twice")
    func killedWhileAdding() async throws {
        let sandbox = try CommandSandbox()
        let lines = 40_000
        let file = sandbox.directory.appendingPathComponent("big.txt").path
        try Data((0..<lines).map { Seed.gtin($0).canonical + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let pidFile = sandbox.directory.appendingPathComponent("pid").path
        let running = try start(["import", "--no-lookup", file], sandbox: sandbox, pidFile: pidFile, deadline: .seconds(120))

        // Killed as soon as a batch is in (each batch is one transaction of 5,000 records).
        let watcher = try #require(await openWhenCreated(sandbox.database, seconds: 90))
        let started = try await poll(seconds: 90) { try await watcher.waitingCount() > 0 }
        #expect(started)
        let pid = try #require(readPID(pidFile))
        kill(pid, SIGKILL)
        let killed = try await running.value
        #expect(killed.signalled && killed.status == SIGKILL, "\(killed)")
        let kept = try await watcher.waitingCount()
        #expect(kept % CatalogueStore.defaultBatchSize == 0, "whole batches only: \(kept)")
        #expect(kept < lines, "killed after the import had added everything: the test proved less than it should")

        let again = try await sandbox.crates(["import", "--no-lookup", file], deadline: .seconds(120))
        #expect(again.status == 0, "\(again)")
        #expect(again.stdoutLines.first == "\(file): \(lines - kept) added, \(kept) already in the collection.", "\(again)")
        let store = try sandbox.openStore()
        let gtins = try await store.sections().flatMap(\.rows).map(\.gtin)
        #expect(gtins.count == lines)
        #expect(Set(gtins).count == lines)
        #expect(try await store.integrityProblems().isEmpty)
    }

    @Test("Ctrl-C while looking up: exit 130 at once, records kept, the lookups not made still queued")
    func interruptedWhileLookingUp() async throws {
        var sandbox = try CommandSandbox()
        let server = try TUILookupEndToEndTests.DiscogsServer(token: "import-token")
        defer { _ = server }
        sandbox.api = "http://127.0.0.1:\(server.port)"
        try await sandbox.signIn(token: "import-token")
        // 40 barcodes Discogs does not know, two searches each: more than the 60 requests a
        // minute allows, so the import is still looking up (or waiting) when stopped.
        let file = sandbox.directory.appendingPathComponent("shelf.txt").path
        try Data((1...40).map { Seed.gtin(700_000 + $0).canonical + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let pidFile = sandbox.directory.appendingPathComponent("pid").path
        let running = try start(["import", file], sandbox: sandbox, pidFile: pidFile, deadline: .seconds(30))

        let watcher = try #require(await openWhenCreated(sandbox.database, seconds: 25))
        let gtins = Set((1...40).map { Seed.gtin(700_000 + $0) })
        let lookingUp = try await poll(seconds: 25) { try await watcher.importFollowUp(gtins: gtins).needsPerson.count >= 3 }
        #expect(lookingUp)
        kill(try #require(readPID(pidFile)), SIGINT)
        // Well before the rate limit's minute is out: the lookup in hand is cancelled.
        let result = try await running.value
        #expect(!result.timedOut && !result.signalled && result.status == 130, "\(result)")
        #expect(result.stderr.contains("Stopping: the records added so far are kept"), "\(result)")
        #expect(result.stderr.contains("Interrupted: 40 records added and kept"), "\(result)")
        #expect(result.stdout.contains(" Interrupted."), "\(result)")

        let store = try sandbox.openStore()
        let rows = try await store.sections().flatMap(\.rows)
        #expect(rows.count == 40)
        #expect(!rows.contains { $0.lookupState == .lookingUp }, "the lookup in hand went back to the queue")
        #expect(rows.contains { $0.lookupState == .pending })
        #expect(!rows.contains { $0.lookupState == .failed }, "cancelled, not failed")
        #expect(rows.count(where: { $0.lookupState == .notFound }) >= 3)
    }

    @Test("on a terminal: a progress bar, Ctrl-C stops cleanly and leaves the terminal sane")
    func terminalProgressAndInterrupt() async throws {
        var sandbox = try CommandSandbox()
        let server = try TUILookupEndToEndTests.DiscogsServer(token: "import-token")
        defer { _ = server }
        sandbox.api = "http://127.0.0.1:\(server.port)"
        try await sandbox.signIn(token: "import-token")
        let file = sandbox.directory.appendingPathComponent("shelf.txt").path
        try Data((1...40).map { Seed.gtin(800_000 + $0).canonical + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) import \(TmuxSession.quote(file))", environment: sandbox.environment,
            // Tall enough that the summary never scrolls the screen (the exit report reads
            // the lines below the exit marker where they were first seen).
            width: 120, height: 70)
        let screen = try await tmux.waitFor("the progress bar", deadline: .seconds(30)) { lines in
            lines.contains { $0.hasPrefix("Looking up [#") && $0.contains("/40 · matched 0 · ambiguous 0 · not found ") }
        }
        #expect(screen.filter { $0.hasPrefix("Looking up [") }.count == 1, "redrawn in place: \(screen)")
        try await tmux.press("C-c")
        let report = try await tmux.exitReport(deadline: .seconds(20))
        #expect(report.status == 130)
        #expect(report.saneTerminal)
        let after = try await tmux.screen()
        #expect(after.contains { $0.contains("Interrupted: 40 records added and kept") }, "\(after)")
        #expect(try await sandbox.openStore().waitingCount() > 0)
    }
}
