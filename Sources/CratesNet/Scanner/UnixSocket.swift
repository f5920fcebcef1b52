import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The few socket calls the scanner needs, with Swift types around sockaddr_un.
enum UnixSocket {
    /// sun_path's size, NUL included.
    static let pathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// A new AF_UNIX stream socket, close-on-exec so the decoder child never inherits it
    /// (a child holding the listener would keep a dead daemon's socket "live").
    static func make(path: String) throws(ScannerError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", path: path, errno: errno) }
        return fd
    }

    /// Calls `body` with the socket address of `path`.
    static func withAddress<R>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) throws(ScannerError) -> R {
        let bytes = Array(path.utf8)
        guard bytes.count < pathCapacity, !bytes.contains(0) else {
            throw .socketPathTooLong(path: path, limit: pathCapacity - 1)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Connects a new socket to `path`: the descriptor, or the errno of the failure.
    static func connect(to path: String) throws(ScannerError) -> Result<Int32, SystemCallError> {
        let fd = try make(path: path)
        let status = try withAddress(path) { Glibc.connect(fd, $0, $1) }
        if status == 0 { return .success(fd) }
        let code = errno
        close(fd)
        return .failure(SystemCallError(code))
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// A pipe whose ends are close-on-exec and non-blocking: wakes a poll loop.
    static func wakePipe() throws(ScannerError) -> (read: Int32, write: Int32) {
        let fds = try closeOnExecPipe()
        setNonBlocking(fds.read)
        setNonBlocking(fds.write)
        return fds
    }

    /// A pipe whose ends are close-on-exec. pipe2 and accept4 do not import (they need
    /// _GNU_SOURCE), so descriptors are made with the plain call and marked after, under
    /// `descriptorLock`, which `DecoderProcess` also holds around posix_spawn: no child is
    /// ever started between the two steps and inherits a descriptor meant for this process.
    static func closeOnExecPipe() throws(ScannerError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let status = descriptorLock.withLock { _ in
            guard pipe(&fds) == 0 else { return errno }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return 0
        }
        guard status == 0 else { throw .system(call: "pipe", path: "", errno: status) }
        return (fds[0], fds[1])
    }

    /// Accepts a connection as a close-on-exec, non-blocking descriptor (see
    /// `closeOnExecPipe`); -1 with errno set when there is none.
    static func accept(_ listener: Int32) -> Int32 {
        descriptorLock.withLock { _ in
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                setNonBlocking(fd)
            }
            return fd
        }
    }

    /// Held while a descriptor exists without its close-on-exec flag, and around spawning.
    static let descriptorLock = Mutex(())
}

/// An errno value, as an error.
struct SystemCallError: Error, Hashable, Sendable {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}
