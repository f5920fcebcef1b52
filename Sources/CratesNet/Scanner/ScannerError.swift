import CratesCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why the scanner socket or the decoder could not do its work, with what to do about it.
public enum ScannerError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// A Unix socket path holds at most 107 bytes (sockaddr_un.sun_path, with its NUL).
    case socketPathTooLong(path: String, limit: Int)
    /// The directory for the socket is not a directory (or is a symbolic link).
    case notADirectory(path: String)
    /// The directory belongs to another user: they could read the scans or fake a daemon.
    case directoryNotOwned(path: String, owner: UInt32)
    /// The directory can be entered by others (group or other permission bits) and was
    /// named by the user, so crates does not change it.
    case directoryNotPrivate(path: String, mode: UInt32)
    /// Something that is not a socket is in the socket's place.
    case notASocket(path: String)
    /// Another daemon is serving this socket.
    case daemonRunning(path: String, pid: Int32?)
    /// No daemon is listening on the socket (no file, or a stale one).
    case noDaemon(path: String)
    /// A system call failed: the call, the path it was about, and errno's text.
    case system(call: String, path: String, errno: Int32)
    /// The connection to the daemon ended.
    case connectionClosed(path: String)
    /// The daemon turned this client away and said why (it has as many clients as it takes).
    case turnedAway(path: String, reason: String)

    public var description: String {
        switch self {
        case let .socketPathTooLong(path, limit):
            "the socket path \(path) is longer than the \(limit) bytes a Unix socket address holds: choose a shorter --socket"
        case let .notADirectory(path):
            "\(path) is not a directory (or is a symbolic link): remove it, or choose another --socket"
        case let .directoryNotOwned(path, owner):
            "\(path) belongs to user \(owner), not to you: another user could read your scans or pose as the daemon; remove it, or choose another --socket"
        case let .directoryNotPrivate(path, mode):
            "\(path) can be entered by other users (mode \(String(mode & 0o7777, radix: 8))): the socket must be in a directory only you can enter; run `chmod 700 \(path)`, or choose another --socket"
        case let .notASocket(path):
            "\(path) exists and is not a socket: remove it, or choose another --socket"
        case let .daemonRunning(path, pid):
            "another crates scand\(pid.map { " (pid \($0))" } ?? "") is already serving \(path): stop it first, or give this one another --socket"
        case let .noDaemon(path):
            "no camera daemon is listening on \(path): start one with `crates scand` (or name its socket with --socket)"
        case let .system(call, path, code):
            Self.systemFailure(call: call, path: path, errno: code)
        case let .connectionClosed(path):
            "the camera daemon on \(path) closed the connection"
        case let .turnedAway(path, reason):
            "the camera daemon on \(path) turned this client away: \(GTIN.displayForm(of: reason, limit: 200))"
        }
    }

    public var errorDescription: String? { description }

    /// The system call and its errno as they were, for `--verbose`; nil when the message
    /// says all there is.
    public var detail: String? {
        guard case let .system(call, path, code) = self else { return nil }
        return "\(call)(\(path)) failed: \(String(cString: strerror(code))) (errno \(code))"
    }

    /// What a failed system call meant for the scans, in crates' words.
    private static func systemFailure(call: String, path: String, errno code: Int32) -> String {
        let why: String
        switch code {
        case EACCES, EPERM: why = "permission denied: the socket or a directory on its path is not open to you"
        case ENOENT: why = "it does not exist"
        case ECONNREFUSED: why = "nothing accepts connections there (a daemon that was stopped)"
        case ENOSPC: why = "no space left on the device"
        case EROFS: why = "the file system is read-only"
        case ENOTDIR: why = "a part of the path is not a directory"
        default: why = String(cString: strerror(code)).lowercased()
        }
        let what: String
        switch call {
        case "connect": what = "cannot connect to the camera daemon at \(path)"
        case "recv": what = "cannot read the scans from the camera daemon at \(path)"
        case "bind": what = "cannot make the socket \(path)"
        case "listen": what = "cannot take connections on \(path)"
        case "unlink": what = "cannot replace the old socket \(path)"
        case "open": what = "cannot open \(path)"
        case "stat": what = "cannot look at the directory \(path)"
        case "chmod": what = "cannot make the directory \(path) private"
        case "mkdir": what = "cannot make the directory \(path)"
        case "socket", "pipe": what = "the system refused a \(call) for the camera daemon"
        default: what = path.isEmpty ? "the camera daemon's \(call) failed" : "cannot use \(path)"
        }
        return "\(what): \(why)"
    }
}
