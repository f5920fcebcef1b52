import CratesCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads the file an import names (or standard input for `-`) into an `ImportParser`, a
/// chunk at a time: the I/O half of `crates import`'s reading, CratesCore doing the rest
/// without I/O, with a message a user can act on for each way it can fail.
///
/// Never holds more than a chunk and a line (see `ImportParser`); stops at the first chunk
/// that shows the input is binary; and between chunks looks at its `StopFlag`, waiting for
/// input at most `pollInterval` at a time, so that a SIGINT or SIGTERM stops the reading of
/// a pipe that sends nothing, or of `/dev/zero`, at once. The async forms read on a thread
/// of their own (`BlockingWork`) and set the flag when their task is cancelled.
public enum ImportInput {
    /// Bytes read at a time.
    public static let chunkSize = 64 * 1024
    /// How long one wait for input lasts before the stop flag is looked at again, in ms.
    public static let pollInterval: Int32 = 100

    /// Why an import file could not be read.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file cannot be opened (missing, a directory, permissions).
        case cannotOpen(path: String, reason: String)
        /// Reading failed part-way (an I/O error).
        case readFailed(name: String, reason: String)
        /// The content cannot be imported as a whole (UTF-16, binary, a bad header).
        case content(name: String, ImportError)

        public var description: String {
            switch self {
            case .cannotOpen(let path, let reason): "\(path): \(reason)"
            case .readFailed(let name, let reason): "cannot read \(name): \(reason)"
            case .content(let name, let error):
                "\(name): \(error.description(file: name == "stdin" ? "FILE" : BinaryFormat.shellWord(name)))"
            }
        }
    }

    /// How reading ended.
    public enum Result: Sendable {
        /// The whole input was read.
        case complete(ImportFile)
        /// The reading was stopped (its task cancelled); `bytesRead` bytes had been read.
        case stopped(bytesRead: Int)
    }

    /// An import's input, opened once: a pipe or a FIFO (`crates import <(grep … list)`)
    /// cannot be opened again without losing what the first reader took, so whatever looks
    /// at its first bytes (`peek`) hands them on to the reader (`prefix`). Its opener
    /// closes it (`close()`; standard input stays open).
    public struct Source: Sendable {
        public let descriptor: Int32
        /// How messages call it: the path, or "stdin".
        public let name: String
        private let owned: Bool

        init(descriptor: Int32, name: String, owned: Bool) {
            self.descriptor = descriptor
            self.name = name
            self.owned = owned
        }

        public func close() {
            if owned { _ = Glibc.close(descriptor) }
        }
    }

    /// Opens the file at `path` ("-": standard input), once.
    public static func open(path: String) throws(Failure) -> Source {
        if path == "-" { return Source(descriptor: 0, name: "stdin", owned: false) }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let reason = code == ENOENT ? "no such file" : code == EACCES ? "cannot be read (permission denied)" : Self.text(code)
            throw .cannotOpen(path: path, reason: reason)
        }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            _ = Glibc.close(fd)
            throw .cannotOpen(path: path, reason: "it is a directory: name a file of barcodes")
        }
        return Source(descriptor: fd, name: path, owned: true)
    }

    /// The first `count` bytes of `source` (fewer when it ends first), read as the reading
    /// itself reads: waiting at most `pollInterval` at a time, so that a signal stops a pipe
    /// that sends nothing. Nil when `stop` was set. The reader is then given them as its
    /// `prefix`.
    public static func peek(_ source: Source, count: Int, stop: StopFlag = StopFlag()) throws(Failure) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while bytes.count < count {
            guard !stop.isSet else { return nil }
            guard let read = try readSome(source.descriptor, into: &buffer, upTo: count - bytes.count, name: source.name) else { continue }
            if read == 0 { break }
            bytes += buffer[0..<read]
        }
        return bytes
    }

    /// Reads the file at `path` ("-": standard input). With `force`, barcodes that are not a
    /// record's are taken (`ImportParser`).
    public static func read(
        path: String, strict: Bool = false, force: Bool = false, folderPlaces: Bool = true,
        limits: ImportParser.Limits = ImportParser.Limits(), stop: StopFlag = StopFlag()
    ) throws(Failure) -> Result {
        let source = try open(path: path)
        defer { source.close() }
        return try read(
            descriptor: source.descriptor, name: source.name, strict: strict, force: force, folderPlaces: folderPlaces,
            limits: limits, stop: stop)
    }

    /// Reads `descriptor` to its end (it is not closed), `prefix` first: the bytes `peek`
    /// took from it. `name` is how messages call it.
    public static func read(
        descriptor fd: Int32, name: String, prefix: [UInt8] = [], strict: Bool = false, force: Bool = false,
        folderPlaces: Bool = true, limits: ImportParser.Limits = ImportParser.Limits(), stop: StopFlag = StopFlag()
    ) throws(Failure) -> Result {
        // The rows' notes, places and values wait on disk, not in memory (`FileSpill`).
        var parser = ImportParser(limits: limits, strict: strict, force: force, spill: FileSpill())
        parser.folderPlaces = folderPlaces
        if !prefix.isEmpty {
            do {
                try parser.consume(prefix)
            } catch {
                throw .content(name: name, error)
            }
        }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            guard !stop.isSet else { return .stopped(bytesRead: parser.bytesConsumed) }
            guard let count = try readSome(fd, into: &buffer, upTo: buffer.count, name: name) else { continue }
            if count == 0 { break }
            do {
                try parser.consume(count == buffer.count ? buffer : Array(buffer[0..<count]))
            } catch {
                throw .content(name: name, error)
            }
        }
        do {
            return .complete(try parser.finish())
        } catch {
            throw .content(name: name, error)
        }
    }

    /// `peek` on a thread of its own; nil when the task was cancelled.
    public static func peek(_ source: Source, count: Int) async throws(Failure) -> [UInt8]? {
        try await BlockingWork.run("crates.import.read") { stop throws(Failure) in try peek(source, count: count, stop: stop) }
    }

    /// `read(descriptor:…)` on a thread of its own; `.stopped` when the task was cancelled.
    public static func read(
        _ source: Source, prefix: [UInt8] = [], strict: Bool = false, force: Bool = false, folderPlaces: Bool = true,
        limits: ImportParser.Limits = ImportParser.Limits()
    ) async throws(Failure) -> Result {
        try await BlockingWork.run("crates.import.read") { stop throws(Failure) in
            try read(
                descriptor: source.descriptor, name: source.name, prefix: prefix, strict: strict, force: force,
                folderPlaces: folderPlaces, limits: limits, stop: stop)
        }
    }

    /// One wait of at most `pollInterval` for input, then one read of up to `limit` bytes
    /// into `buffer`: the count (0 at the end), or nil when nothing came yet (or a signal
    /// interrupted), for the caller to look at its stop flag again.
    private static func readSome(_ fd: Int32, into buffer: inout [UInt8], upTo limit: Int, name: String) throws(Failure) -> Int? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, pollInterval)
        if ready < 0, errno != EINTR { throw .readFailed(name: name, reason: text(errno)) }
        if ready <= 0 { return nil }  // nothing yet, or a signal: ask again
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min(limit, $0.count)) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return nil }
            throw .readFailed(name: name, reason: text(errno))
        }
        return count
    }

    private static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
