import CratesCore
import Foundation
import Synchronization

/// What the reader hands over at a time: releases in dump order, and how far it got.
public struct DumpBatch: Sendable {
    public var releases: [DumpRelease]
    /// Each release's index keys (`keys[i]` is `releases[i]`'s), worked out on the parsing
    /// thread.
    public var keys: [DumpReleaseKeys]
    /// Releases that could not be read in this stretch (named, in order).
    public var skipped: [DumpSkip]
    /// Releases not Accepted (drafts, deleted, rejected: older dumps list them).
    public var unlisted: Int
    /// How much of the file was read (compressed bytes for a `.gz`).
    public var fileBytesRead: Int64
    /// How many uncompressed bytes were parsed.
    public var bytesParsed: Int64
}

/// Discogs' releases dump read as a stream, never held whole: ISA-L inflates (and the strip
/// cuts what the catalogue does not read) on one thread, the scanner reads releases on
/// another, and the caller takes batches of releases on its own thread (three stages that
/// overlap on a machine of two cores). Bounded queues between the stages keep the
/// memory to a few megabytes whatever the dump's size.
public final class DumpReader: Sendable {
    public let path: String
    /// The file's size in bytes, for progress; nil for standard input.
    public let fileSize: Int64?
    /// The input, taken once by the inflating thread, which alone uses it. Behind this
    /// reader's own lock, not a `LockedBox`: `DumpInput` (a file descriptor, an inflater's
    /// state) is not `Sendable`, and a `Mutex` hands a value of any kind from one thread to
    /// another.
    private let input: Mutex<DumpInput?>
    private let chunks = BlockingChannel<DumpInput.Chunk>(capacity: 4)
    private let batches = BlockingChannel<DumpBatch>(capacity: 4)
    private let cancelled = Atomic<Bool>(false)
    /// Whether the file's document element is `<releases>`, once the parsing thread knows.
    private let rootIsReleases = LockedBox<Bool?>(nil)

    /// Opens `path` (a `.xml.gz`, an `.xml`, or "-" for standard input); throws when it cannot
    /// be opened.
    public init(path: String) throws(DumpError) {
        self.path = path
        fileSize = Self.fileSize(of: path)
        input = Mutex(try DumpInput(path: path))
    }

    /// Throws unless `path` is "-" or names a file or a FIFO that is there, without opening it.
    public static func checkExists(_ path: String) throws(DumpError) { try DumpInput.check(path) }

    /// The size of the dump at `path` in bytes, without opening it; nil for standard input
    /// or a pipe.
    public static func fileSize(of path: String) -> Int64? { DumpInput.size(of: path) }

    /// Reads the whole dump, calling `body` on this thread with each batch of at most
    /// `batchSize` releases. Throws `DumpError` when the file is damaged or cut short, or what
    /// `body` throws (which stops the reading at once). Once only.
    public func read(batchSize: Int = 2_000, _ body: (DumpBatch) throws -> Void) throws {
        let chunks = self.chunks
        let batches = self.batches
        // The first error of the inflating or parsing thread.
        let failure = LockedBox<DumpError?>(nil)
        let inputDone = DispatchSemaphore(value: 0)
        let parserDone = DispatchSemaphore(value: 0)
        let path = self.path
        let rootIsReleases = self.rootIsReleases

        let inflating = Thread { [self] in
            defer {
                chunks.finish()
                inputDone.signal()
            }
            // Taken out of the lock by this thread, which alone reads it from here on.
            guard let input = self.input.withLock({ $0.take() }) else { return }
            do throws(DumpError) {
                while let chunk = try input.next() {
                    guard chunks.send(chunk) else { return }
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        inflating.name = "crates.dump.inflate"
        inflating.stackSize = 1 << 20

        let parsing = Thread {
            defer {
                batches.finish()
                parserDone.signal()
            }
            let parser = ReleaseScanner()
            defer { rootIsReleases.withLock { $0 = parser.rootIsReleases } }
            var fileBytesRead: Int64 = 0
            var bytesParsed: Int64 = 0
            func handOver() -> Bool {
                let output = parser.take()
                return batches.send(DumpBatch(
                    releases: output.releases, keys: output.releases.map(DumpReleaseKeys.init),
                    skipped: output.skipped, unlisted: output.unlisted,
                    fileBytesRead: fileBytesRead, bytesParsed: bytesParsed))
            }
            while let chunk = chunks.receive() {
                if let offset = parser.parse(chunk) {
                    failure.withLock { $0 = $0 ?? .truncated(path: path, offset: offset) }
                    chunks.cancel()
                    return
                }
                fileBytesRead = chunk.fileBytesRead
                bytesParsed = chunk.offset + Int64(chunk.originalLength)
                if parser.pendingReleases >= batchSize || chunk.isLast {
                    guard handOver() else {
                        chunks.cancel()
                        return
                    }
                }
            }
            if parser.hasPending {
                _ = handOver()
            }
        }
        parsing.name = "crates.dump.parse"
        parsing.stackSize = 4 << 20

        inflating.start()
        parsing.start()
        defer {
            // Once cancelled, the inflating thread may be blocked reading a pipe that will not
            // say more: the caller does not wait for it (the process is ending).
            if !cancelled.load(ordering: .relaxed) {
                inputDone.wait()
                parserDone.wait()
            }
        }
        var releases = 0
        var skipped = 0
        do {
            while let batch = batches.receive() {
                if failure.withLock({ $0 }) != nil { break }
                releases += batch.releases.count
                skipped += batch.skipped.count + batch.unlisted
                try body(batch)
            }
        } catch {
            chunks.cancel()
            batches.cancel()
            throw error
        }
        chunks.cancel()
        batches.cancel()
        if cancelled.load(ordering: .relaxed) { return }
        if let error = failure.withLock({ $0 }) { throw error }
        if releases == 0, skipped == 0 {
            throw rootIsReleases.withLock({ $0 }) == true ? DumpError.noRelease(path: path) : DumpError.notADump(path: path)
        }
    }
}

extension DumpReader {
    /// Stops a `read` under way from another thread: it returns after the batch in hand.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
        chunks.cancel()
        batches.cancel()
    }
}

