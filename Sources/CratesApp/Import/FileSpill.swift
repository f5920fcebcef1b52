import CratesCore
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An `ImportSpill` in a temporary file that no directory lists (made and unlinked at once,
/// in `$TMPDIR` or `/tmp`; gone when the import ends, however it ends): the rows' notes,
/// dates, places and values of a million-row CSV stay on disk, and the import's memory holds
/// a few bytes a row (a `barcode,note` CSV of 1,000,000 rows peaked at 686 MB).
///
/// Appends are gathered in a 1 MB buffer and written a buffer at a time. When the file
/// cannot be made or written (a full `/tmp`), the bytes stay in memory instead: the import
/// goes on, only bigger.
public final class FileSpill: ImportSpill {
    private struct State {
        var fd: Int32
        /// False once a write failed: the file keeps what it has, the rest stays in memory.
        var writable: Bool
        /// Bytes written to the file.
        var flushed: UInt64 = 0
        /// Bytes after `flushed`, not written yet (all of them once the file failed).
        var pending: [UInt8] = []
        var failure: String?
    }

    private let state: Mutex<State>
    private static let bufferSize = 1 << 20

    /// A spill in a new temporary file (in memory when none can be made).
    public init() {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/crates-import-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        if fd >= 0 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        state = Mutex(State(fd: fd, writable: fd >= 0))
    }

    deinit {
        state.withLock { if $0.fd >= 0 { close($0.fd) } }
    }

    public func append(_ bytes: [UInt8]) -> UInt64 {
        state.withLock { state in
            let offset = state.flushed + UInt64(state.pending.count)
            state.pending.append(contentsOf: bytes)
            if state.writable, state.pending.count >= Self.bufferSize { Self.flush(&state) }
            return Self.place(offset: offset, length: bytes.count)
        }
    }

    public func read(_ place: UInt64) -> [UInt8] {
        let offset = Self.offset(of: place)
        let length = Self.length(of: place)
        return state.withLock { state in
            if offset >= state.flushed {
                let start = Int(offset - state.flushed)
                guard start + length <= state.pending.count else { return [] }
                return Array(state.pending[start..<start + length])
            }
            var bytes = [UInt8](repeating: 0, count: length)
            var done = 0
            while done < length {
                let count = bytes.withUnsafeMutableBytes { buffer in
                    pread(state.fd, buffer.baseAddress! + done, length - done, off_t(offset) + off_t(done))
                }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    state.failure = state.failure ?? "cannot read back the rows held aside: "
                        + (count < 0 ? String(cString: strerror(errno)) : "the temporary file is shorter than written")
                    return []
                }
                done += count
            }
            return bytes
        }
    }

    public var failure: String? { state.withLock { $0.failure } }

    /// Writes the buffer to the file; on failure keeps it (and all that follows) in memory.
    private static func flush(_ state: inout State) {
        var done = 0
        let count = state.pending.count
        while done < count {
            let written = state.pending.withUnsafeBytes { buffer in
                pwrite(state.fd, buffer.baseAddress! + done, count - done, off_t(state.flushed) + off_t(done))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                // What was written stays readable; the rest is kept in memory from here on.
                state.flushed += UInt64(done)
                state.pending.removeFirst(done)
                state.writable = false
                return
            }
            done += written
        }
        state.flushed += UInt64(count)
        state.pending.removeAll(keepingCapacity: true)
    }
}
