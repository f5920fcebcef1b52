import CratesApp
import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A stop of `crates import` in process: a signal cancels the command's root task, and the
/// import hears nothing else. The tests cancel the task that runs the import at a point the
/// import itself chooses (its progress, called in that task), so no timing decides.
@Suite("Import: stopped by cancelling its task")
struct ImportStopTests {
    /// Cancels the task it is called in once the first batch is committed.
    struct CancelAfterFirstBatch: ImportReporting {
        let notes = LockBox<[String]>()
        func adding(_ done: Int, of total: Int) { withUnsafeCurrentTask { $0?.cancel() } }
        func lookups(_ value: ImportLookupsProgress, final: Bool) {}
        func rateWait(_ secondsLeft: Int?) {}
        func note(_ text: String) { notes.withLock { $0.append(text) } }
        func finish() {}
    }

    /// One batch and a bit: 5,000 lines a batch (`CollectionStore.defaultBatchSize`).
    static func shelf(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.file("shelf.txt")
        let count = CollectionStore.defaultBatchSize + 100
        try (1...count).map { Fixtures.gtin($0).canonical }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func run(_ request: ImportRun.Request, _ temporary: TemporaryStore, progress: any ImportReporting) -> ImportRun {
        let store = temporary.store
        return ImportRun(
            request, progress: progress, databasePath: temporary.directory.file("crates.sqlite"), openStore: { store },
            discogs: { .failure(.notSignedIn) })
    }

    @Test("cancelled after the first batch: that batch is kept, no other begun, the outcome says interrupted")
    func cancelledBetweenBatches() async throws {
        let temporary = try TemporaryStore()
        var request = ImportRun.Request(path: try Self.shelf(temporary.directory))
        request.lookups = false
        let run = Self.run(request, temporary, progress: CancelAfterFirstBatch())
        let outcome = try await Task { try await run.run() }.value
        guard case .imported(let imported, _) = outcome else {
            Issue.record("not imported: \(outcome)")
            return
        }
        let batch = CollectionStore.defaultBatchSize
        #expect(imported.ending == .interrupted)
        #expect(imported.added == batch)
        #expect(try await temporary.store.outline().rowCount == batch)
        #expect(imported.lines.first == "\(request.path): \(batch) added, 0 already in the collection, 100 not added (interrupted).")
        // The report was made after the stop (its reads outside the cancelled task): the
        // records added wait for their lookups, and the message says how to finish.
        #expect(imported.lines.contains("\(batch) lookups wait in the queue: `crates`, or this import again, looks them up."))
        #expect(imported.closingMessage == "Interrupted: \(batch) records added and kept; run the same import again to finish.")

        // Run again, not stopped: the rest is added, nothing twice.
        let again = try await Self.run(request, temporary, progress: QuietImportProgress()).run()
        guard case .imported(let rest, _) = again else {
            Issue.record("not imported: \(again)")
            return
        }
        #expect(rest.added == 100)
        #expect(try await temporary.store.outline().rowCount == batch + 100)
    }

    @Test("a pipe that sends nothing: cancelling the run ends the reading, nothing written")
    func cancelledWhileReading() async throws {
        let temporary = try TemporaryStore()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let run = Self.run(ImportRun.Request(path: "/proc/self/fd/\(fds[0])"), temporary, progress: QuietImportProgress())
        let task = Task { try await run.run() }
        task.cancel()
        guard case .stopped(nil) = try await task.value else {
            Issue.record("not stopped")
            return
        }
        #expect(try await temporary.store.outline().rowCount == 0)
    }

    @Test("crates' JSON export, its restore cancelled: interrupted, nothing restored")
    func restoreCancelled() async throws {
        let source = try TemporaryStore()
        _ = try await source.store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        let path = source.directory.file("export.json")
        let export = try ExportFile(path: path)
        try await CollectionExport(store: source.store, filter: ExportFilter()).writeJSON(to: export)
        try export.commit()
        let temporary = try TemporaryStore()
        let input = try ImportInput.open(path: path)
        defer { input.close() }
        let restoring = Task { [store = temporary.store] () async -> CollectionRestore.Failure? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(CollectionRestore.Failure) {
                _ = try await CollectionRestore.run(source: input, prefix: [], store: store)
                return nil
            } catch {
                return error
            }
        }
        let failure = await restoring.value
        #expect(failure?.description == "Interrupted: nothing was restored")
        #expect(try await temporary.store.outline().rowCount == 0)
    }

    @Test("cancelled while a lookup is in hand: its record goes back to the queue, the report is made, interrupted")
    func cancelledDuringLookups() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        try await server.hold(match: "5099750442227")
        let importer = Importer(store: temporary.store, progress: QuietImportProgress())
        let file = try ImportFile.parse(Array("5099750442227\n".utf8))
        let discogs = try access(server)
        let importing = Task { try await importer.run(file, name: "shelf.txt", options: .init(), discogs: { .success(discogs) }) }
        try await server.waitUntilHeld()
        // As a signal cancels the command's root task.
        importing.cancel()
        try await server.release()
        let outcome = try await importing.value
        #expect(outcome.ending == .interrupted, "\(outcome.lines)")
        #expect(outcome.added == 1)
        #expect(outcome.closingMessage == "Interrupted: 1 record added and kept; run the same import again to finish.")
        // The report's reads ran after the stop: the record waits in the queue, given back
        // untouched, never left claimed nor failed.
        #expect(outcome.lines.contains("1 lookup waits in the queue: `crates`, or this import again, looks them up."), "\(outcome.lines)")
        let records = try await temporary.store.sections().flatMap(\.rows)
        #expect(records.map(\.lookupState) == [.pending])
    }
}
