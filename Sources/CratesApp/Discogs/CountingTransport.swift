import CratesNet
import Synchronization

/// A transport that counts the requests it sends, around another: what a `crates sync`
/// reports as "requests used" (each one sent, a 429's resend included), apart from the
/// lookups that share the client's rate limiter in the collection UI.
final class CountingTransport: HTTPTransport {
    let base: any HTTPTransport
    private let sent = Atomic<Int>(0)

    init(_ base: any HTTPTransport) {
        self.base = base
    }

    var count: Int { sent.load(ordering: .relaxed) }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        sent.add(1, ordering: .relaxed)
        return try await base.send(request)
    }
}
