import CZlib
import Foundation

/// Where a dump is written: gzip through zlib for `.gz`, else the bytes as they are.
final class DumpOutput {
    private var gz: gzFile?
    private var handle: FileHandle?
    private var ownsHandle = false
    private var buffer: [UInt8] = []
    private var written: Int64 = 0
    private let path: String

    init(path: String) throws {
        self.path = path
        if path.hasSuffix(".gz") {
            guard let file = gzopen(path, "wb6") else { throw GeneratorError("cannot write \(path)") }
            gz = file
        } else if path == "-" {
            handle = FileHandle.standardOutput
        } else {
            // Opened in place, not made by FileManager.createFile: that writes a new file and
            // renames it over the path, which as root replaced /dev/null with a regular file.
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw GeneratorError("cannot write \(path): \(String(cString: strerror(errno)))") }
            handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
            ownsHandle = true
        }
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        written += Int64(buffer.count)
        if let gz {
            let count = buffer.withUnsafeBytes { gzwrite(gz, $0.baseAddress, UInt32($0.count)) }
            guard count == buffer.count else { throw GeneratorError("cannot write \(path)") }
        } else if let handle {
            try handle.write(contentsOf: buffer)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes; returns the uncompressed bytes written.
    func close() throws -> Int64 {
        try flush()
        if let gz { gzclose(gz) }
        if let handle, ownsHandle { try handle.close() }
        return written
    }
}

struct GeneratorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
