import Foundation

/// Where a streamed response's body goes (`HTTPStreamingTransport.stream`): told the status
/// and headers before any byte of the body, then handed the body as it comes, so that a body
/// of gigabytes goes straight to a file and never into memory.
///
/// Called on the transfer's own thread, one call at a time, and never after `stream`
/// returns: an implementation guards what it shares with its caller by that order.
public protocol HTTPBodyReceiver: AnyObject, Sendable {
    /// The final response's status and headers (not a `100 Continue`, nor a redirect that is
    /// followed). False refuses the body: the transfer stops at once, before any of it is
    /// read, and `stream` returns with `refused` set.
    func responseBegins(status: Int, headers: HTTPHeaders) -> Bool

    /// The next bytes of the body. False stops the transfer (a write that failed): `stream`
    /// returns with `refused` set.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool

    /// Called often while the transfer runs, and about once a second while nothing moves
    /// (libcurl's progress callback): a progress display stays current through a stall.
    func transferTick()
}

extension HTTPBodyReceiver {
    public func transferTick() {}
}

/// How a streamed transfer is run.
public struct HTTPStreamOptions: Sendable {
    /// A transfer that moves less than a byte a second for this long is given up
    /// (`TransportError.timedOut`): there is no limit on the whole, which takes what it takes.
    public var stallTimeout: Double
    /// Redirects are followed (at most five, to https only): a download may be served from
    /// elsewhere than the address asked. Nothing secret travels with these requests.
    public var followRedirects: Bool

    public init(stallTimeout: Double = 60, followRedirects: Bool = true) {
        self.stallTimeout = stallTimeout
        self.followRedirects = followRedirects
    }
}

/// How a streamed transfer ended, when it got an answer.
public struct HTTPStreamResult: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    /// The receiver refused the body or stopped taking it: the transfer was cut there, and
    /// the receiver knows why.
    public var refused: Bool
    public var effectiveURL: String

    public init(status: Int, headers: HTTPHeaders, refused: Bool, effectiveURL: String) {
        self.status = status
        self.headers = headers
        self.refused = refused
        self.effectiveURL = effectiveURL
    }
}

/// A transport that can also stream a body to a receiver (a download of any size).
public protocol HTTPStreamingTransport: HTTPTransport {
    func stream(_ request: HTTPRequest, options: HTTPStreamOptions, into receiver: any HTTPBodyReceiver)
        async throws(TransportError) -> HTTPStreamResult
}
