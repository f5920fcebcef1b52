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
/// that shows the input is binary; and between chunks asks `shouldContinue`, waiting for
/// input at most `pollInterval` at a time, so that a SIGINT or SIGTERM stops the reading of
/// a pipe that sends nothing, or of `/dev/zero`, at once (issue 12).
public enum ImportInput {
    /// Bytes read at a time.
    public static let chunkSize = 64 * 1024
    /// How long one wait for input lasts before `shouldContinue` is asked again, in ms.
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
            case .content(let name, let error): "\(name): \(error)"
            }
        }
    }

    /// How reading ended.
    public enum Result: Sendable {
        /// The whole input was read.
        case complete(ImportFile)
        /// `shouldContinue` said stop; `bytesRead` bytes had been read.
        case stopped(bytesRead: Int)
    }

    /// Reads the file at `path` ("-": standard input). `name` is how messages call it.
    /// With `force`, barcodes that are not a record's are taken (`ImportParser`).
    public static func read(
        path: String, strict: Bool = false, force: Bool = false, limits: ImportParser.Limits = ImportParser.Limits(),
        shouldContinue: () -> Bool = { true }
    ) throws(Failure) -> Result {
        if path == "-" {
            return try read(
                descriptor: 0, name: "stdin", strict: strict, force: force, limits: limits, shouldContinue: shouldContinue)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let reason = code == ENOENT ? "no such file" : code == EACCES ? "cannot be read (permission denied)" : Self.text(code)
            throw .cannotOpen(path: path, reason: reason)
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw .cannotOpen(path: path, reason: "it is a directory: name a file of barcodes")
        }
        return try read(descriptor: fd, name: path, strict: strict, force: force, limits: limits, shouldContinue: shouldContinue)
    }

    /// Reads `descriptor` to its end (it is not closed).
    public static func read(
        descriptor fd: Int32, name: String, strict: Bool = false, force: Bool = false,
        limits: ImportParser.Limits = ImportParser.Limits(), shouldContinue: () -> Bool = { true }
    ) throws(Failure) -> Result {
        // The rows' notes, places and values wait on disk, not in memory (`FileSpill`).
        var parser = ImportParser(limits: limits, strict: strict, force: force, spill: FileSpill())
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            guard shouldContinue() else { return .stopped(bytesRead: parser.bytesConsumed) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, pollInterval)
            if ready < 0, errno != EINTR { throw .readFailed(name: name, reason: text(errno)) }
            if ready <= 0 { continue }  // nothing yet, or a signal: ask again
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .readFailed(name: name, reason: text(errno))
            }
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

    private static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
