import CratesCore
import CCurl
import Foundation
import Synchronization

/// HTTP over libcurl: a few easy handles (`Configuration.connections`), each reused so that
/// its connection stays open between requests (Discogs answers over keep-alive), so that
/// that many requests can be in flight at once and one slow answer holds back only itself.
/// HTTPS with certificate verification always on, gzip, connect and total timeouts, no
/// redirects followed, plain http only to loopback.
///
/// libcurl easy handles are not thread-safe, and `curl_easy_perform` blocks: each handle
/// runs on its own serial dispatch queue (`CurlEasyHandle`), never on Swift's cooperative
/// thread pool. A request waits for a free handle when all are busy; a cancelled task stops
/// waiting, and its transfer in progress is aborted (within about a second: libcurl's
/// progress callback).
public final class CurlTransport: HTTPStreamingTransport, Sendable {
    /// What every request of this transport shares.
    public struct Configuration: Sendable {
        /// Discogs refuses requests without one.
        public var userAgent: String
        public var connectTimeout: Double
        /// The whole transfer, connect included.
        public var totalTimeout: Double
        /// A response body larger than this is cut off as an error: no Discogs answer is
        /// near it, and memory stays bounded whatever a server sends.
        public var maximumBodyBytes: Int
        /// Requests in flight at once, each on a connection of its own (made as needed: a
        /// few as a rule; more while some answers are slow to come).
        public var connections: Int

        public init(
            userAgent: String, connectTimeout: Double = 10, totalTimeout: Double = 30, maximumBodyBytes: Int = 16 << 20,
            connections: Int = 12
        ) {
            self.userAgent = userAgent
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maximumBodyBytes = maximumBodyBytes
            self.connections = max(1, connections)
        }
    }

    public let configuration: Configuration
    private let pool: CurlHandlePool

    /// Fails only when libcurl cannot make a handle (out of memory).
    public init(configuration: Configuration) throws(TransportError) {
        CurlGlobal.initialize()
        self.configuration = configuration
        // The first handle at once, so that a machine without memory for one fails here.
        pool = CurlHandlePool(capacity: configuration.connections, first: try CurlEasyHandle())
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        try Self.checkURL(request.url)
        let configuration = self.configuration
        return try await onFreeHandle { handle, abort in handle.perform(request, configuration: configuration, abort: abort) }
    }

    /// Sends `request` and hands the body to `receiver` as it comes (a download of any size),
    /// following redirects to https and giving up only when the transfer stalls (`options`).
    public func stream(_ request: HTTPRequest, options: HTTPStreamOptions, into receiver: any HTTPBodyReceiver)
        async throws(TransportError) -> HTTPStreamResult
    {
        try Self.checkURL(request.url)
        let configuration = self.configuration
        return try await onFreeHandle { handle, abort in
            handle.stream(request, into: receiver, options: options, configuration: configuration, abort: abort)
        }
    }

    /// Runs `transfer` on a free handle's queue (waiting for one when all are busy); a
    /// cancelled task raises the abort flag, which the transfer's progress callback obeys.
    private func onFreeHandle<T: Sendable>(
        _ transfer: @escaping @Sendable (CurlEasyHandle, CurlAbortFlag) -> Result<T, TransportError>
    ) async throws(TransportError) -> T {
        let handle = try await pool.take()
        defer { pool.give(handle) }
        let abort = CurlAbortFlag()
        let result: Result<T, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                handle.queue.async { continuation.resume(returning: transfer(handle, abort)) }
            }
        } onCancel: {
            abort.raise()
        }
        return try result.get()
    }

    /// Refuses what must never be sent: a URL that is not http(s), and plain http to a host
    /// other than loopback (127.0.0.0/8, ::1, localhost), where a token would travel in clear.
    static func checkURL(_ url: String) throws(TransportError) {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            let host = parts.host, !host.isEmpty
        else { throw .invalidURL(url) }
        switch scheme {
        case "https": return
        case "http" where isLoopback(host): return
        case "http": throw .insecureURL(host: ControlCharacters.clipped(host))
        default: throw .invalidURL(url)
        }
    }

    /// 127.0.0.0/8, ::1 and localhost.
    public static func isLoopback(_ rawHost: String) -> Bool {
        var host = rawHost.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { $0.count <= 3 && UInt8($0) != nil }
    }
}

/// The easy handles of one transport: made as needed up to `capacity`, handed out one
/// request at a time, the most recently used first (its connection is the freshest). A
/// request that finds them all busy waits in line.
final class CurlHandlePool: Sendable {
    private struct State {
        var free: [CurlEasyHandle] = []
        var made = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<CurlEasyHandle?, Never>)] = []
        var nextWaiter = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int, first: CurlEasyHandle) {
        self.capacity = max(1, capacity)
        state.withLock { state in
            state.free = [first]
            state.made = 1
        }
    }

    /// A free handle, a new one while fewer than `capacity` exist, or the next one given
    /// back. Throws `cancelled` when the task is cancelled while it waits.
    func take() async throws(TransportError) -> CurlEasyHandle {
        enum Now {
            case handle(CurlEasyHandle)
            case make
            case wait
        }
        let now = state.withLock { state -> Now in
            if let handle = state.free.popLast() { return .handle(handle) }
            if state.made < capacity {
                state.made += 1
                return .make
            }
            return .wait
        }
        switch now {
        case .handle(let handle):
            return handle
        case .make:
            do {
                return try CurlEasyHandle()
            } catch {
                state.withLock { $0.made -= 1 }
                throw error
            }
        case .wait:
            break
        }
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let handle: CurlEasyHandle? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let handNow = state.withLock { state -> CurlEasyHandle?? in
                    // Given back meanwhile, or cancelled before this line: answer at once.
                    if let handle = state.free.popLast() { return .some(handle) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters.append((id, continuation))
                    return .none
                }
                if case .some(let answer) = handNow { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<CurlEasyHandle?, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: nil)
        }
        guard let handle else { throw .cancelled }
        return handle
    }

    /// Gives a handle back: to the first request in line, else to the free list.
    func give(_ handle: CurlEasyHandle) {
        let waiter = state.withLock { state -> CheckedContinuation<CurlEasyHandle?, Never>? in
            if state.waiters.isEmpty {
                state.free.append(handle)
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        waiter?.resume(returning: handle)
    }
}

/// `curl_global_init` must run once per process before any handle, and is not thread-safe
/// itself: a Swift `static let` runs its initialiser exactly once, under a lock.
enum CurlGlobal {
    private static let done: Bool = {
        crates_curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    static func initialize() { _ = done }
}

/// Set when the task of a transfer is cancelled; libcurl's progress callback reads it on the
/// handle's queue and aborts the transfer.
final class CurlAbortFlag: Sendable {
    private let raised = Atomic(false)

    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
