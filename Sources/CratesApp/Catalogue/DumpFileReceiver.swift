import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// Writes one download attempt's body into the partial dump file: appends after the bytes
/// already there when the server resumes (206 from that offset), starts the file over when
/// it sends the whole file (200: a host that ignores `Range`, never appended), and checks
/// the disk has room for what is coming before the first byte is written.
final class DumpFileReceiver: HTTPBodyReceiver, Sendable {
    /// Why the body was refused or cut, for the fetch to act on.
    enum Stop: Sendable, Equatable {
        /// 429: the host asks for no request before this time.
        case waitRequested(Date)
        /// 416: the partial file already holds the whole file (or more).
        case rangeNotSatisfiable
        /// A 206 that does not start where the partial file ends.
        case wrongRange
        case noSpace(needed: Int64, available: Int64)
        case writeFailed(errno: Int32)
        case status(Int)
    }

    struct State {
        var stop: Stop?
        /// What the file holds now.
        var fileBytes: Int64
        /// The whole file's size, when the answer says it.
        var total: Int64?
        var status = 0
        var startedOver = false
        var resumed = false
    }

    let fd: Int32
    let directory: String
    /// Room needed when the answer gives no size (the real releases file is about 10.4 GB).
    let estimatedBytes: Int64
    let progress: any DownloadReporting
    /// Says a resume or a start over, as the answer begins.
    let say: @Sendable (String) -> Void
    private let state: Mutex<State>
    /// The SHA-256 of what the file holds, fed as the bytes are written: a verified download
    /// is not read again (10 GB) to be checked. Nil once it cannot be trusted (a write that
    /// failed, a prefix that could not be read).
    private let digest = Mutex<DigestBox?>(nil)

    init(
        fd: Int32, fileBytes: Int64, directory: String, estimatedBytes: Int64, progress: any DownloadReporting,
        say: @escaping @Sendable (String) -> Void
    ) {
        self.fd = fd
        self.say = say
        self.directory = directory
        self.estimatedBytes = estimatedBytes
        self.progress = progress
        state = Mutex(State(fileBytes: fileBytes))
    }

    var current: State { state.withLock { $0 } }

    func responseBegins(status: Int, headers: HTTPHeaders) -> Bool {
        let begun = state.withLock { state -> Bool in
            state.status = status
            let length = headers["Content-Length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            switch status {
            case 200:
                // The whole file, whatever was asked: what the partial file holds is replaced.
                let needed = length ?? estimatedBytes
                let available = FreeSpace.bytes(at: directory).map { $0 + state.fileBytes }
                if let available, available < needed {
                    state.stop = .noSpace(needed: needed, available: available)
                    return false
                }
                guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else {
                    state.stop = .writeFailed(errno: errno)
                    return false
                }
                state.startedOver = state.fileBytes > 0
                state.fileBytes = 0
                state.total = length
            case 206:
                guard let range = ContentRange(headers["Content-Range"]), range.first == state.fileBytes else {
                    state.stop = .wrongRange
                    return false
                }
                let needed = range.total.map { $0 - state.fileBytes } ?? length ?? estimatedBytes
                if let available = FreeSpace.bytes(at: directory), available < needed {
                    state.stop = .noSpace(needed: needed, available: available)
                    return false
                }
                guard lseek(fd, off_t(state.fileBytes), SEEK_SET) == off_t(state.fileBytes) else {
                    state.stop = .writeFailed(errno: errno)
                    return false
                }
                state.resumed = true
                state.total = range.total ?? length.map { $0 + state.fileBytes }
            case 416:
                state.stop = .rangeNotSatisfiable
                return false
            case 429:
                state.stop = .waitRequested(DiscogsDataSite.retryTime(headers["Retry-After"], now: Date()))
                return false
            default:
                state.stop = .status(status)
                return false
            }
            return true
        }
        if begun {
            startDigest()
            let now = current
            if now.startedOver {
                say("the site sends the whole file rather than the rest: starting over")
            } else if now.resumed {
                say("resuming after \(ProgressText.bytes(now.fileBytes))")
            }
            progress.begin(from: now.fileBytes, total: now.total)
        }
        return begun
    }

    func transferTick() {
        progress.tick()
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                let code = written < 0 ? errno : ENOSPC
                state.withLock { $0.stop = .writeFailed(errno: code) }
                return false
            }
            offset += written
        }
        digest.withLock { $0?.digest.update(bytes) }
        let now = state.withLock { state -> State in
            state.fileBytes += Int64(bytes.count)
            return state
        }
        progress.advance(to: now.fileBytes, total: now.total)
        return true
    }
}

extension DumpFileReceiver {
    /// The SHA-256 of the whole file as written, when this answer was hashed from its first
    /// byte (a resumed file's part read once first); nil otherwise.
    func finishedDigest() -> String? {
        digest.withLock { box in
            defer { box = nil }
            return box?.digest.finish()
        }
    }

    /// A fresh digest for the answer beginning: over nothing for a whole file (200), over
    /// the part already in the file for a resumed one (206), read once here.
    private func startDigest() {
        let kept = current.fileBytes
        let box = DigestBox()
        if kept > 0, !Self.hash(fd: fd, bytes: kept, into: box.digest) {
            digest.withLock { $0 = nil }
            return
        }
        digest.withLock { $0 = box }
    }

    private static func hash(fd: Int32, bytes: Int64, into digest: SHA256Digest) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while offset < bytes {
            let count = pread(fd, buffer.baseAddress, min(buffer.count, Int(bytes - offset)), off_t(offset))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += Int64(count)
        }
        return true
    }
}

/// A digest under way, kept behind the receiver's lock (curl's thread writes, the fetch reads
/// the result once the transfer is over). `@unchecked Sendable`: only touched under that lock.
///
/// Not `LockedBox`, which takes only `Sendable` values, nor the digest bare in the `Mutex`:
/// feeding it curl's buffer (a pointer the caller owns) inside `withLock` joins the digest's
/// region to the caller's, which the `Mutex`'s `inout sending` value may not end in; copying
/// each buffer out first would copy the whole 10 GB download.
final class DigestBox: @unchecked Sendable {
    let digest = SHA256Digest()
}

/// `Content-Range: bytes FIRST-LAST/TOTAL` (RFC 9110 section 14.4); TOTAL may be `*`.
struct ContentRange: Equatable {
    var first: Int64
    var last: Int64
    var total: Int64?

    init?(_ value: String?) {
        guard let value else { return nil }
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = text.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard spec.count == 2 else { return nil }
        let ends = spec[0].split(separator: "-", maxSplits: 1)
        guard ends.count == 2, let first = Int64(ends[0]), let last = Int64(ends[1]), first <= last else { return nil }
        self.first = first
        self.last = last
        total = spec[1] == "*" ? nil : Int64(spec[1])
    }
}
