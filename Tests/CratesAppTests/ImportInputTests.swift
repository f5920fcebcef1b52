import CratesApp
import CratesCore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Reading an import's input as a stream (issue 12, items 6 and 7): in chunks, refused at the
/// first chunk that shows binary data, stopped between chunks when asked.
@Suite(.offThePool) struct ImportInputTests {
    @Test func inputIsReadInChunksAndStopsWhenAsked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("gtins.txt")
        try (1...20_000).map { Fixtures.gtin($0).canonical }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        guard case .complete(let file) = try ImportInput.read(path: path) else {
            Issue.record("not read to the end")
            return
        }
        #expect(file.entries.count == 20_000 && file.lineCount == 20_000)

        // /dev/zero: refused by its first chunk.
        #expect(throws: ImportInput.Failure.content(name: "/dev/zero", .binary(offset: 0))) {
            try ImportInput.read(path: "/dev/zero")
        }
        #expect(throws: ImportInput.Failure.cannotOpen(path: directory.path, reason: "it is a directory: name a file of barcodes")) {
            try ImportInput.read(path: directory.path)
        }

        // A pipe that sends a line and then nothing: the reading looks at its stop flag (set
        // when its task is cancelled: below) between reads.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = "5099750442227\n".withCString { write(fds[1], $0, 14) }
        let stop = StopFlag()
        stop.set()
        let result = try ImportInput.read(descriptor: fds[0], name: "stdin", stop: stop)
        guard case .stopped = result else {
            Issue.record("not stopped: \(result)")
            return
        }
    }

    @Test("a pipe that sends nothing: cancelling the reading's task ends it, nothing read")
    func cancelledWhileWaiting() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let source = try ImportInput.open(path: "/proc/self/fd/\(fds[0])")
        defer { source.close() }
        let reading = Task { try await ImportInput.read(source) }
        reading.cancel()
        guard case .stopped(let bytes) = try await reading.value else {
            Issue.record("not stopped")
            return
        }
        #expect(bytes == 0)
    }
}
