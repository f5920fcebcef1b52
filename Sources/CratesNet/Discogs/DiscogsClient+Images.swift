import CratesCore
import Foundation

extension DiscogsClient {
    /// `GET` an image's address, as a release's `images` or a search result's `cover_image`
    /// give it: the bytes as they came (the renderer tells a JPEG from a PNG). Not signed
    /// (Discogs' image host needs no credentials), but paced by the same rate limiter as
    /// every request and counted with them, at the task's priority (covers ask at
    /// `.background`: never ahead of a lookup); a 429 pauses every request and is sent again,
    /// as for any request. A 404 is `.notFound`: the image is gone.
    public func image(url: String) async throws(DiscogsError) -> [UInt8] {
        guard let expectedHost = URLComponents(string: url)?.host?.lowercased() else { throw .invalidURL(url) }
        var attempt = 0
        while true {
            attempt += 1
            if Task.isCancelled { throw .transport(.cancelled) }
            let ticket: RateLimiter.Ticket
            do { ticket = try await rateLimiter.acquire(priority: RequestPriority.current) } catch { throw .transport(.cancelled) }
            SentRequests.current?.add()
            let response: HTTPResponse
            do {
                response = try await transport.send(HTTPRequest(method: "GET", url: url, headers: [("Accept", "image/*")]))
            } catch {
                await rateLimiter.abandon(ticket)
                if error != .cancelled { Diagnostics.note("GET \(Self.shown(url)): \(error.detail ?? error.description)") }
                throw .transport(error)
            }
            // A 429 pauses every request (for its Retry-After, when it gives one).
            await rateLimiter.complete(ticket, status: response.status, headers: response.headers)
            if response.status == 429, attempt < maximumThrottledAttempts { continue }
            try Self.check(response, expectedHost: expectedHost, accept: .nothing)
            return [UInt8](response.body)
        }
    }
}
