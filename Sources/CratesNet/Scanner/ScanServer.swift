import CratesCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's end of the scanner socket: listens on a Unix domain stream socket and sends
/// every event line to every connected client.
///
/// One thread runs a poll(2) loop that owns every descriptor; `broadcast` only queues a line
/// and wakes it. Writes are non-blocking: a client that stops reading has its lines buffered
/// up to `maximumBuffered` bytes and is then dropped, and a client that went away (EPIPE,
/// ECONNRESET, hang-up) is dropped at once, so no client ever blocks the daemon or the
/// others. Sends use MSG_NOSIGNAL, so a dead client never raises SIGPIPE.
///
/// The socket is created mode 0600 in a directory only the user can enter; a lock file beside
/// it (`scan.sock.lock`, flock(2)) makes a second daemon on the same path refuse to start,
/// and a socket left by a crashed daemon (nobody accepts: ECONNREFUSED) is replaced.
public final class ScanServer: Sendable {
    /// Clients beyond this many are turned away (closed at once).
    public static let maximumClients = 256
    /// Bytes queued for one client before it counts as not reading and is dropped.
    public static let maximumBuffered = 64 * 1024

    /// Where the socket is.
    public let socket: ScanSocketPath
    /// What setting up did that the log should mention (a directory created or made private,
    /// a stale socket replaced).
    public let setupNotes: [String]

    let listenerFD: Int32
    let wakeReadFD: Int32
    let log: @Sendable (String) -> Void
    private let lockFile: Int32
    private let wakeWrite: Int32
    private let inode: UInt64
    private let state = Mutex(State())

    private struct State {
        var outgoing: [[UInt8]] = []
        var stopping = false
        var finished = false
        var clients = 0
    }

    /// Creates the socket (see the type's notes) and starts serving it. `log` receives notes
    /// about clients dropped for not reading.
    public init(socket: ScanSocketPath, log: @escaping @Sendable (String) -> Void = { _ in }) throws(ScannerError) {
        self.socket = socket
        self.log = log
        let path = socket.path
        _ = try UnixSocket.withAddress(path) { _, _ in 0 }  // the length check, before touching anything
        var notes: [String] = []
        if let note = try ScanSocketDirectory.prepare(socket.directory, repair: socket.isDefault) { notes.append(note) }

        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw .system(call: "open", path: path + ".lock", errno: errno) }
        var ready = false
        defer { if !ready { close(lock) } }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            throw .daemonRunning(path: path, pid: Self.readPID(lock))
        }
        if let note = try Self.removeStaleSocket(path) { notes.append(note) }

        let fd = try UnixSocket.make(path: path)
        defer { if !ready { close(fd) } }
        let bound = try UnixSocket.withAddress(path) { bind(fd, $0, $1) }
        guard bound == 0 else {
            let code = errno
            if code == EADDRINUSE { throw .daemonRunning(path: path, pid: nil) }
            throw .system(call: "bind", path: path, errno: code)
        }
        // The directory is private, so the moment between bind and chmod exposes nothing.
        guard chmod(path, 0o600) == 0, listen(fd, 16) == 0 else {
            let code = errno
            unlink(path)
            throw .system(call: "listen", path: path, errno: code)
        }
        UnixSocket.setNonBlocking(fd)
        var info = stat()
        _ = lstat(path, &info)
        let wake = try UnixSocket.wakePipe()

        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(lock, 0)
        _ = pid.withUnsafeBytes { pwrite(lock, $0.baseAddress, $0.count, 0) }

        listenerFD = fd
        lockFile = lock
        wakeReadFD = wake.read
        wakeWrite = wake.write
        inode = UInt64(info.st_ino)
        setupNotes = notes
        ready = true
        Thread.detachNewThread { [self] in run() }
    }

    /// Queues one event for every connected client. Throws `.tooLong` for an event no reader
    /// would accept (and sends nothing).
    public func broadcast(_ event: ScanEvent) throws(ScanLineError) {
        broadcast(line: try event.encodedLine())
    }

    /// Queues raw bytes for every client (a newline-terminated line; tests use it to send
    /// malformed ones). Does nothing once stopped.
    public func broadcast(line: [UInt8]) {
        state.withLock { state in
            guard !state.stopping else { return }
            state.outgoing.append(line)
            wakeLoop()
        }
    }

    /// How many clients are connected (as of the loop's last turn).
    public var clientCount: Int { state.withLock { $0.clients } }

    /// Asks the loop to close every connection, remove the socket and release the lock.
    /// Returns at once; see `waitUntilStopped`.
    public func stop() {
        state.withLock { state in
            guard !state.stopping else { return }
            state.stopping = true
            wakeLoop()
        }
    }

    /// Waits (blocking this thread) until the loop has cleaned up; false at the timeout.
    public func waitUntilStopped(timeout: Duration = .seconds(5)) -> Bool {
        StopWait.blocking(timeout: timeout) { state.withLock { $0.finished } }
    }

    /// Waits without blocking a thread until the loop has cleaned up; false at the timeout.
    public func waitUntilStopped(timeout: Duration = .seconds(5)) async -> Bool {
        await StopWait.suspending(timeout: timeout) { state.withLock { $0.finished } }
    }

    /// The lines queued since the last turn, and whether to stop.
    func takeOutgoing() -> (lines: [[UInt8]], stopping: Bool) {
        state.withLock { state in
            defer { state.outgoing.removeAll() }
            return (state.outgoing, state.stopping)
        }
    }

    func recordClients(_ count: Int) {
        state.withLock { $0.clients = count }
    }

    /// The loop's last act: the socket removed (if it is still ours), the lock released,
    /// the wake pipe closed under the state lock so that no late `broadcast` writes to it.
    func finish() {
        close(listenerFD)
        var info = stat()
        if lstat(socket.path, &info) == 0, UInt64(info.st_ino) == inode { unlink(socket.path) }
        close(lockFile)
        state.withLock { state in
            close(wakeReadFD)
            close(wakeWrite)
            state.clients = 0
            state.finished = true
        }
    }

    /// Called with the state lock held, so the pipe is never written after it is closed.
    private func wakeLoop() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // EAGAIN: the pipe is full, the loop wakes anyway
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// With the lock held, a socket file at `path` is either stale (nobody accepts) or served
    /// by something that does not take crates' lock: the first is removed, the second refused.
    private static func removeStaleSocket(_ path: String) throws(ScannerError) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        switch try UnixSocket.connect(to: path) {
        case .success(let fd):
            close(fd)
            throw .daemonRunning(path: path, pid: nil)
        case .failure(let error) where error.code == ECONNREFUSED || error.code == ENOENT:
            guard unlink(path) == 0 || errno == ENOENT else { throw .system(call: "unlink", path: path, errno: errno) }
            return "replaced a stale socket left by a daemon that did not shut down"
        case .failure(let error):
            throw .system(call: "connect", path: path, errno: error.code)
        }
    }
}
