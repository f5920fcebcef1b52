import CratesCore
import CCurl
import Foundation

/// One libcurl easy handle and the serial queue it is used on: one request at a time, its
/// connection kept open for the next (`curl_easy_reset` keeps it).
final class CurlEasyHandle: @unchecked Sendable {
    // @unchecked Sendable: `handle` and `errorBuffer` are touched only on `queue`, a serial
    // DispatchQueue, which is the lock that makes sharing this object safe (the pool hands
    // the object to one request at a time as well); the other stored properties are
    // immutable.
    let queue = DispatchQueue(label: "crates.curl-handle")
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Fails when libcurl cannot be loaded (not installed: said with the loader's words) or
    /// cannot make a handle (out of memory).
    init() throws(TransportError) {
        guard let handle = crates_curl_easy_init() else {
            let reason = crates_curl_load_error().map { String(cString: $0) } ?? "libcurl could not create a handle"
            throw .curl(code: -1, message: reason)
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        crates_curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Runs on `queue` only.
    func perform(_ request: HTTPRequest, configuration: CurlTransport.Configuration, abort: CurlAbortFlag) -> Result<HTTPResponse, TransportError> {
        let sink = ResponseSink(limit: configuration.maximumBodyBytes, abort: abort)
        return transfer(request, configuration: configuration, sink: sink, stream: nil).map { status, effectiveURL in
            HTTPResponse(status: status, headers: sink.headers, body: sink.body, effectiveURL: effectiveURL)
        }
    }

    /// Runs on `queue` only: the body goes to `receiver` as it comes, never into memory.
    func stream(
        _ request: HTTPRequest, into receiver: any HTTPBodyReceiver, options: HTTPStreamOptions,
        configuration: CurlTransport.Configuration, abort: CurlAbortFlag
    ) -> Result<HTTPStreamResult, TransportError> {
        let sink = ResponseSink(limit: 0, abort: abort)
        sink.receiver = receiver
        sink.followsRedirects = options.followRedirects
        let result = transfer(request, configuration: configuration, sink: sink, stream: options)
        // A refused body ends the transfer with a write error: an answer, not a failure.
        if sink.refused, !abort.isRaised {
            return .success(HTTPStreamResult(status: sink.status, headers: sink.headers, refused: true, effectiveURL: request.url))
        }
        return result.map { status, effectiveURL in
            HTTPStreamResult(status: status, headers: sink.headers, refused: false, effectiveURL: effectiveURL)
        }
    }

    /// One request on this handle: the status and the effective URL, the rest in `sink`.
    private func transfer(
        _ request: HTTPRequest, configuration: CurlTransport.Configuration, sink: ResponseSink, stream: HTTPStreamOptions?
    ) -> Result<(Int, String), TransportError> {
        let abort = sink.abort
        if abort.isRaised { return .failure(.cancelled) }
        crates_curl_easy_reset(handle)  // keeps the open connection, forgets the last request's options
        errorBuffer[0] = 0
        let sinkPointer = Unmanaged.passRetained(sink).toOpaque()
        defer { Unmanaged<ResponseSink>.fromOpaque(sinkPointer).release() }

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { crates_curl_slist_free_all(headerList) }
        // An explicit empty Expect stops curl waiting for "100 Continue" on POST bodies.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            headerList = crates_curl_slist_append(headerList, line)
        }

        var code = CURLE_OK
        func set(_ c: CURLcode) { if code == CURLE_OK { code = c } }
        set(crates_curl_setopt_string(handle, CURLOPT_URL, request.url))
        set(crates_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(crates_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(crates_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        set(crates_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        set(crates_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000)))
        if let stream {
            // A file is taken as it is sent (no decoding: a .gz stays the bytes its checksum
            // names), for as long as it takes, unless it stalls.
            set(crates_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, stream.followRedirects ? 1 : 0))
            set(crates_curl_setopt_long(handle, CURLOPT_MAXREDIRS, 5))
            set(crates_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "https"))
            set(crates_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1))
            set(crates_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(stream.stallTimeout.rounded(.up)))))
        } else {
            set(crates_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
            set(crates_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""))  // every encoding curl decodes: gzip at least
            set(crates_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(configuration.totalTimeout * 1000)))
        }
        set(crates_curl_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1))
        set(crates_curl_setopt_string(handle, CURLOPT_USERAGENT, configuration.userAgent))
        set(crates_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList))
        set(crates_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        set(crates_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlWriteBody))
        set(crates_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, sinkPointer))
        set(crates_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader))
        set(crates_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, sinkPointer))
        // The progress callback is where a cancelled task's transfer is aborted.
        set(crates_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
        set(crates_curl_setopt_xferinfo_function(handle, CURLOPT_XFERINFOFUNCTION, curlProgress))
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

        let result = crates_curl_easy_perform(handle)
        guard result == CURLE_OK else {
            if abort.isRaised { return .failure(.cancelled) }
            if sink.overflowed {
                return .failure(.tooLarge(limit: configuration.maximumBodyBytes))
            }
            return .failure(error(for: result, timeout: stream?.stallTimeout ?? configuration.totalTimeout))
        }
        var status = 0
        _ = crates_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>? = nil
        _ = crates_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        let effectiveURL = effective.map { String(cString: $0) } ?? request.url
        return .success((status, effectiveURL))
    }

    private func error(for code: CURLcode, timeout: Double) -> TransportError {
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : Self.text(of: code)
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            return .cannotConnect(detail)
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE:
            // Connected, then the connection broke (reset, closed without an answer, an
            // answer shorter than its Content-Length).
            return .connectionLost(detail)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(seconds: timeout)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR:
            return .tls(detail)
        default:
            return .curl(code: Int(code.rawValue), message: detail)
        }
    }

    private static func text(of code: CURLcode) -> String {
        crates_curl_easy_strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
    }
}

/// Collects one response's headers and body. Used only from the curl callbacks, which run
/// inside `curl_easy_perform` on the handle's queue.
private final class ResponseSink {
    var headers = HTTPHeaders()
    var body = Data()
    var overflowed = false
    /// Streaming: where the body goes instead of `body`, once `begun`.
    var receiver: (any HTTPBodyReceiver)?
    var followsRedirects = false
    /// The status of the response whose headers are being read.
    var status = 0
    var begun = false
    var refused = false
    let limit: Int
    let abort: CurlAbortFlag

    init(limit: Int, abort: CurlAbortFlag) {
        self.limit = limit
        self.abort = abort
    }
}

private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    guard let data, let user else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
    let n = size * count
    if let receiver = sink.receiver {
        // Before the final response began: the body of a redirect being followed.
        guard sink.begun else { return n }
        guard receiver.receive(UnsafeRawBufferPointer(start: data, count: n)) else {
            sink.refused = true
            return 0
        }
        return n
    }
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
        sink.status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    } else if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        // The end of a response's headers: the final one begins here, before its body.
        if let receiver = sink.receiver, !sink.begun, sink.status >= 200,
           !(sink.followsRedirects && (300..<400).contains(sink.status) && sink.headers["Location"] != nil) {
            sink.begun = true
            guard receiver.responseBegins(status: sink.status, headers: sink.headers) else {
                sink.refused = true
                return 0
            }
        }
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        if !name.isEmpty { sink.headers.add(name: name, value: value) }
    }
    return n
}

/// libcurl calls this often while a transfer runs (about once a second while nothing
/// moves): a non-zero answer aborts it (`CURLE_ABORTED_BY_CALLBACK`); a streamed body's
/// receiver hears it (`transferTick`).
private func curlProgress(_ user: UnsafeMutableRawPointer?, _: curl_off_t, _: curl_off_t, _: curl_off_t, _: curl_off_t) -> Int32 {
    guard let user else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
    if sink.begun { sink.receiver?.transferTick() }
    return sink.abort.isRaised ? 1 : 0
}
