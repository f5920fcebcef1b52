import CratesCore
import CratesStore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A writer process killed with SIGKILL in the middle of its work loses nothing it had
/// committed, and leaves a sound database.
@Suite struct ProcessTests {
    /// `crates-bench` sits next to the test bundle: the test target depends on it.
    private func writerExecutable() throws -> URL {
        let candidates = [
            ProcessInfo.processInfo.environment["CRATES_BENCH"],
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                .map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("crates-bench").path },
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("crates-bench").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("crates-bench").path,
        ].compactMap { $0 }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw WriterMissing(searched: candidates)
        }
        return URL(fileURLWithPath: found)
    }

    struct WriterMissing: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "crates-bench not found (build it: swift build --product crates-bench); looked in \(searched)"
        }
    }

    @Test func killingAWriterMidBatchLosesNothingCommitted() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let batch = 500
        // Created first, so the test's store and the writer share one initialised file.
        let store = try CatalogueStore(path: path)

        let process = Process()
        process.executableURL = try writerExecutable()
        process.arguments = ["writer", "--db", path, "--batch", "\(batch)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let lines = Inbox<Int>()
        output.fileHandleForReading.readabilityHandler = { handle in
            for line in String(decoding: handle.availableData, as: UTF8.self).split(separator: "\n") {
                if let count = Int(line) { lines.append(count) }
            }
        }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // Let it commit a few batches; it is then always in the middle of the next one.
        let committedEnough = await eventually(within: 60) { (lines.last ?? 0) >= 6 * batch }
        kill(process.processIdentifier, SIGKILL)
        #expect(committedEnough, "the writer committed \(lines.last ?? 0) records in 60 s")
        #expect(await eventually(within: 10) { !process.isRunning })
        output.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationReason == .uncaughtSignal)
        let reported = lines.last ?? 0

        // Reopened as a new process would (the killed one held no lock that survives it).
        let reopened = try CatalogueStore(path: path)
        let count = try await reopened.outline().rowCount
        #expect(count >= reported)
        // A batch is one transaction: all of it or none.
        #expect(count % batch == 0)
        #expect(try await reopened.integrityProblems().isEmpty)
        #expect(try await store.outline().rowCount == count)
    }
}
