import CratesCore
import CCurl
import Foundation
import Synchronization

/// HTTP over libcurl: one easy handle, reused so that its connection stays open between
/// requests (Discogs answers over keep-alive), HTTPS with certificate verification always on,
/// gzip, connect and total timeouts, no redirects followed, plain http only to loopback.
///
/// libcurl easy handles are not thread-safe, and `curl_easy_perform` blocks: every use of the
/// handle runs on one serial dispatch queue, never on Swift's cooperative thread pool.
public final class CurlTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked Sendable: `handle` and `errorBuffer` are touched only on `queue`, a serial
    // DispatchQueue, which is the lock that makes sharing this object safe; the other stored
    // properties are immutable.

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

        public init(userAgent: String, connectTimeout: Double = 10, totalTimeout: Double = 30, maximumBodyBytes: Int = 16 << 20) {
            self.userAgent = userAgent
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maximumBodyBytes = maximumBodyBytes
        }
    }

    public let configuration: Configuration
    private let queue = DispatchQueue(label: "crates.curl-transport")
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Fails only when libcurl cannot make a handle (out of memory).
    public init(configuration: Configuration) throws(TransportError) {
        CurlGlobal.initialize()
        guard let handle = curl_easy_init() else { throw .curl(code: -1, message: "libcurl could not create a handle") }
        self.handle = handle
        self.configuration = configuration
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sends `request`. Cancelling the calling task abandons the transfer within about a
    /// second (libcurl's progress callback, which it calls at least once a second, says
    /// stop): a Ctrl-C or SIGHUP of `crates import` does not wait out a 30 s timeout.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        try Self.checkURL(request.url)
        let cancellation = TransferCancellation()
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    continuation.resume(returning: self.perform(request, cancellation: cancellation))
                }
            }
        } onCancel: {
            cancellation.cancel()
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

    /// Runs on `queue` only.
    private func perform(_ request: HTTPRequest, cancellation: TransferCancellation) -> Result<HTTPResponse, TransportError> {
        curl_easy_reset(handle)  // keeps the open connection, forgets the last request's options
        errorBuffer[0] = 0
        guard !cancellation.isCancelled else { return .failure(.cancelled) }
        let sink = ResponseSink(limit: configuration.maximumBodyBytes, cancellation: cancellation)
        let sinkPointer = Unmanaged.passRetained(sink).toOpaque()
        defer { Unmanaged<ResponseSink>.fromOpaque(sinkPointer).release() }

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(headerList) }
        // An explicit empty Expect stops curl waiting for "100 Continue" on POST bodies.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            headerList = curl_slist_append(headerList, line)
        }

        var code = CURLE_OK
        func set(_ c: CURLcode) { if code == CURLE_OK { code = c } }
        set(crates_curl_setopt_string(handle, CURLOPT_URL, request.url))
        set(crates_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(crates_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(crates_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(crates_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        set(crates_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        set(crates_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""))  // every encoding curl decodes: gzip at least
        set(crates_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000)))
        set(crates_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(configuration.totalTimeout * 1000)))
        set(crates_curl_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1))
        set(crates_curl_setopt_string(handle, CURLOPT_USERAGENT, configuration.userAgent))
        set(crates_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList))
        set(crates_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        set(crates_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlWriteBody))
        set(crates_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, sinkPointer))
        set(crates_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader))
        set(crates_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, sinkPointer))
        set(crates_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
        set(crates_curl_setopt_xferinfo_function(handle, curlProgress))
        set(crates_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, sinkPointer))
        switch request.method.uppercased() {
        case "GET":
            set(crates_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case "POST":
            let body = request.body ?? Data()
            set(crates_curl_setopt_long(handle, CURLOPT_POST, 1))
            set(crates_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
            // COPYPOSTFIELDS: curl keeps its own copy, so the Data may go away.
            set(body.withUnsafeBytes { raw in
                crates_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)))
            })
        default:
            set(crates_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
        }
        guard code == CURLE_OK else { return .failure(.curl(code: Int(code.rawValue), message: Self.text(of: code))) }

        let result = curl_easy_perform(handle)
        guard result == CURLE_OK else {
            if result == CURLE_ABORTED_BY_CALLBACK, cancellation.isCancelled { return .failure(.cancelled) }
            if sink.overflowed {
                return .failure(.curl(code: Int(result.rawValue), message: "response larger than \(configuration.maximumBodyBytes) bytes"))
            }
            return .failure(error(for: result))
        }
        var status = 0
        _ = crates_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>? = nil
        _ = crates_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        let effectiveURL = effective.map { String(cString: $0) } ?? request.url
        return .success(HTTPResponse(status: status, headers: sink.headers, body: sink.body, effectiveURL: effectiveURL))
    }

    private func error(for code: CURLcode) -> TransportError {
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : Self.text(of: code)
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
            CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return .cannotConnect(detail)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(seconds: configuration.totalTimeout)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR:
            return .tls(detail)
        default:
            return .curl(code: Int(code.rawValue), message: detail)
        }
    }

    private static func text(of code: CURLcode) -> String {
        curl_easy_strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
    }
}

/// `curl_global_init` must run once per process before any handle, and is not thread-safe
/// itself: a Swift `static let` runs its initialiser exactly once, under a lock.
enum CurlGlobal {
    private static let done: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    static func initialize() { _ = done }
}

/// Collects one response's headers and body. Used only from the curl callbacks, which run
/// inside `curl_easy_perform` on the transport's queue.
private final class ResponseSink {
    var headers = HTTPHeaders()
    var body = Data()
    var overflowed = false
    let limit: Int
    let cancellation: TransferCancellation

    init(limit: Int, cancellation: TransferCancellation) {
        self.limit = limit
        self.cancellation = cancellation
    }
}

/// Set from the cancelled task, read by libcurl's progress callback on the transport's queue.
final class TransferCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// libcurl's progress callback: non-zero aborts the transfer (CURLE_ABORTED_BY_CALLBACK).
private func curlProgress(_ user: UnsafeMutableRawPointer?, _: curl_off_t, _: curl_off_t, _: curl_off_t, _: curl_off_t) -> Int32 {
    guard let user else { return 0 }
    return Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue().cancellation.isCancelled ? 1 : 0
}

private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    guard let data, let user else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
    let n = size * count
    guard sink.body.count + n <= sink.limit else {
        sink.overflowed = true
        return 0  // anything but n makes curl stop with CURLE_WRITE_ERROR
    }
    sink.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: n)
    return n
}

private func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    guard let data, let user else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
    let n = size * count
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: n), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        sink.headers = HTTPHeaders()  // a new status line (after "100 Continue"): start over
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        if !name.isEmpty { sink.headers.add(name: name, value: value) }
    }
    return n
}
