import CratesCore
import Foundation
import Synchronization

/// Discogs' data site, where the monthly dumps are published (CC0). It has no
/// machine-readable listing: a file is asked for by name through
/// `BASE/?download=data%2FYYYY%2FNAME`. It ignores `Range` (answers 200 with the whole
/// file), gives no `Content-Length` to a HEAD, and after about 15 requests in 6 minutes
/// answers 429 with a `Retry-After` of about an hour for the whole host.
public struct DiscogsDataSite: Hashable, Sendable {
    public static let production = "https://data.discogs.com"
    /// Names another base address (the tests' loopback server).
    public static let environmentVariable = "CRATES_DISCOGS_DATA"

    /// The base address, without a trailing slash.
    public let base: String

    public init(base: String) {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
    }

    /// `$CRATES_DISCOGS_DATA`, else Discogs' own.
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> DiscogsDataSite {
        DiscogsDataSite(base: environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 } ?? production)
    }

    /// Where the file `name` of the dump of `date` is downloaded from.
    public func url(of name: String, date: DiscogsDumpDate) -> String {
        base + "/?download=data%2F\(date.year)%2F" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "._-"))) ?? name)
    }

    /// When a 429's `Retry-After` says to ask again: seconds (RFC 9110 section 10.2.3) or an
    /// HTTP date; `fallback` seconds from `now` when it says neither.
    public static func retryTime(_ value: String?, now: Date, fallback: Double = 3600) -> Date {
        let text = value?.trimmingCharacters(in: .whitespaces) ?? ""
        if let seconds = Double(text), seconds >= 0, seconds.isFinite { return now.addingTimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        if let date = formatter.date(from: text) { return max(now, date) }
        return now.addingTimeInterval(fallback)
    }
}

/// Takes a small body into memory (a checksum file), up to `limit` bytes: more is refused.
public final class MemoryBodyReceiver: HTTPBodyReceiver, Sendable {
    public let limit: Int
    private let state = Mutex<(status: Int, body: Data, overflowed: Bool)>((0, Data(), false))

    public init(limit: Int) { self.limit = limit }

    public func responseBegins(status: Int, headers: HTTPHeaders) -> Bool {
        state.withLock { $0.status = status }
        return true
    }

    public func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        state.withLock { state in
            guard state.body.count + bytes.count <= limit else {
                state.overflowed = true
                return false
            }
            state.body.append(contentsOf: bytes)
            return true
        }
    }

    public var body: Data { state.withLock { $0.body } }
    public var overflowed: Bool { state.withLock { $0.overflowed } }
}
