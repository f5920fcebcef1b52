import CratesCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A client's connection to the camera daemon: reads the socket's JSON lines and hands on
/// events, dropped lines and the disconnect as `ScanMessage`s.
///
///     let connection = try ScanConnection(path: socket.path)
///     connection.start { message in inbox.post(.scanner(message)) }
///     …
///     connection.close()
///
/// Reading happens on a thread of its own (blocking reads, never on the cooperative pool).
/// `close()` from any thread ends it: the reader then reports `.disconnected` and stops.
public final class ScanConnection: Sendable {
    public let path: String
    private let descriptor: Mutex<Int32?>

    /// Connects to the daemon's socket. Throws `.noDaemon` when nothing listens there (no
    /// socket file, or a stale one), another `ScannerError` for anything else.
    public init(path: String) throws(ScannerError) {
        self.path = path
        switch try UnixSocket.connect(to: path) {
        case .success(let fd):
            descriptor = Mutex(fd)
        case .failure(let error) where [ENOENT, ECONNREFUSED, ENOTDIR].contains(error.code):
            throw .noDaemon(path: path)
        case .failure(let error):
            throw .system(call: "connect", path: path, errno: error.code)
        }
    }

    /// Reads until the connection ends, calling `handler` for each event and dropped line,
    /// then once with `.disconnected`. Blocks the calling thread: call it from a thread of
    /// your own (or use `start`/`messages`). Blank lines are ignored (a keep-alive).
    public func run(_ handler: (ScanMessage) -> Void) {
        var lines = ScanLineBuffer()
        var buffer = [UInt8](repeating: 0, count: 8192)
        guard let fd = descriptor.withLock({ $0 }) else {
            handler(.disconnected(.connectionClosed(path: path)))
            return
        }
        var failure: ScannerError = .connectionClosed(path: path)
        reading: while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno != ECONNRESET { failure = .system(call: "recv", path: path, errno: errno) }
            guard count > 0 else { break reading }
            for item in lines.append(buffer.prefix(count)) {
                if let refusal = refusal(item) { failure = refusal } else { Self.deliver(item, to: handler) }
            }
        }
        for item in lines.finish() {
            if let refusal = refusal(item) { failure = refusal } else { Self.deliver(item, to: handler) }
        }
        descriptor.withLock { fd in
            if let open = fd { Glibc.close(open) }
            fd = nil
        }
        handler(.disconnected(failure))
    }

    /// Reads on a new thread, calling `handler` there (see `run`).
    public func start(_ handler: @escaping @Sendable (ScanMessage) -> Void) {
        Thread.detachNewThread { [self] in run(handler) }
    }

    /// The messages as an async sequence, which ends after `.disconnected`.
    public var messages: AsyncStream<ScanMessage> {
        AsyncStream { continuation in
            start { message in
                continuation.yield(message)
                if case .disconnected = message { continuation.finish() }
            }
            continuation.onTermination = { [self] _ in close() }
        }
    }

    /// Ends the connection; the reader reports `.disconnected` and returns. Safe to call
    /// more than once and from any thread: shutdown(2), under the lock that also guards the
    /// reader's close, so a descriptor number is never touched after it is reused.
    public func close() {
        descriptor.withLock { fd in
            if let open = fd { shutdown(open, Int32(SHUT_RDWR)) }
        }
    }

    /// The daemon's "turned away" line (see the README's socket protocol), as the reason the
    /// connection ends.
    private func refusal(_ item: ScanLineBuffer.Item) -> ScannerError? {
        guard case .line(let bytes) = item, let reason = ScanEvent.refusal(inJSONLine: bytes) else { return nil }
        return .turnedAway(path: path, reason: reason)
    }

    private static func deliver(_ item: ScanLineBuffer.Item, to handler: (ScanMessage) -> Void) {
        switch item {
        case .line(let bytes):
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            do {
                handler(.event(try ScanEvent(jsonLine: bytes)))
            } catch {
                handler(.dropped(error))
            }
        case .tooLong(let count):
            handler(.dropped(.tooLong(bytes: count)))
        }
    }
}
