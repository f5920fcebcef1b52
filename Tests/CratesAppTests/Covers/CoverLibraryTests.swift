import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Covers fetched from the loopback Discogs server through real libcurl: once, ever.
@Suite struct CoverLibraryTests {
    private func library(_ server: DiscogsTestServer, _ directory: TemporaryDirectory, token: String? = DiscogsTestServer.token) throws -> CoverLibrary {
        let cache = CoverCache(directory: directory.file("covers"), limitBytes: 1_000_000)
        return CoverLibrary(cache: cache, budget: CoverBudget(cache: cache), store: nil, access: try access(server, token: token))
    }

    /// The release's signed fetch gives the address; the image is fetched once, then comes
    /// from the cache (another library over the same directory: another run).
    @Test func aCoverIsFetchedOnce() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "jpeg")
        try await server.setCover(release: 1, "png")
        let directory = try TemporaryDirectory(prefix: "crates-covers")
        let first = try await library(server, directory).cover(release: 5_134_861)
        #expect(first.fetched && first.bytes.starts(with: [0xFF, 0xD8]))
        let second = try await library(server, directory).cover(release: 5_134_861)
        #expect(!second.fetched && second.bytes == first.bytes)
        #expect(try await server.coverCounts().requests == 1)
        let png = try await library(server, directory).cover(release: 1)
        #expect(png.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// A 404 is remembered: asked again, the image is not.
    @Test func aMissingImageIsRememberedAsNoCover() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "404")
        let directory = try TemporaryDirectory(prefix: "crates-covers")
        await #expect(throws: CoverError.noCover) { try await library(server, directory).cover(release: 5_134_861) }
        await #expect(throws: CoverError.noCover) { try await library(server, directory).cover(release: 5_134_861) }
        #expect(try await server.coverCounts().requests == 1)
        #expect(try await server.stats().releases == ["5134861"], "the release too is asked once")
    }

    /// Anonymous answers carry no image address (as Discogs'): without an account, no cover.
    @Test func anonymousAnswersHaveNoAddresses() async throws {
        let server = try await DiscogsTestServer.start()
        let anonymous = try access(server, token: nil).client
        #expect(CoverAddress.url(in: try await anonymous.release(id: 5_134_861).rawJSON) == nil)
        let signed = try access(server).client
        let url = try #require(CoverAddress.url(in: try await signed.release(id: 5_134_861).rawJSON))
        #expect(url.hasPrefix(server.base + "/images/"))
        let directory = try TemporaryDirectory(prefix: "crates-covers")
        await #expect(throws: CoverError.notSignedIn) { try await library(server, directory, token: nil).cover(release: 5_134_861) }
        #expect(try await server.coverCounts().requests == 0)
    }

    /// The day's budget spent: said, and nothing fetched.
    @Test func aSpentBudgetFetchesNothing() async throws {
        let server = try await DiscogsTestServer.start()
        let directory = try TemporaryDirectory(prefix: "crates-covers")
        let cache = CoverCache(directory: directory.file("covers"), limitBytes: 1_000_000)
        let covers = CoverLibrary(
            cache: cache, budget: CoverBudget(cache: cache, dailyLimit: 1), store: nil, access: try access(server))
        _ = try await covers.cover(release: 5_134_861)
        await #expect(throws: CoverError.budgetReached(1)) { try await covers.cover(release: 1) }
        #expect(try await server.coverCounts().requests == 1)
    }

    /// An image fetch waits at background priority: with the window full and a lookup waiting
    /// too, the lookup goes first, and the image only once the window has room again.
    @Test func anImageNeverGoesAheadOfAWaitingLookup() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "jpeg")
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 10, margin: 0, backgroundShare: 1), clock: clock)
        let transport = WithoutRateHeaders(
            inner: try CurlTransport(configuration: .init(userAgent: "crates-tests", connectTimeout: 5, totalTimeout: 20)))
        let client = DiscogsClient(
            transport: transport, endpoints: server.endpoints, credentials: .personalToken(DiscogsTestServer.token), rateLimiter: limiter)
        let url = try #require(CoverAddress.url(in: try await client.release(id: 5_134_861).rawJSON))  // fills the window
        let image = Task {
            try await RequestPriority.at(.background) { () async throws(DiscogsError) in try await client.image(url: url) }
        }
        try await waitUntil("the image waits") { await limiter.waiting(.background) == 1 }
        let lookup = Task { try await client.searchReleases(barcode: "7 27361 62652 5") }
        try await waitUntil("the lookup waits") { await limiter.waiting(.lookup) == 1 }
        clock.advance(by: .seconds(11))
        _ = try await lookup.value
        #expect(try await server.coverCounts().requests == 0, "the lookup went first; the image still waits")
        #expect(await limiter.waiting(.background) == 1)
        clock.advance(by: .seconds(11))
        let bytes = try await image.value
        #expect(bytes.starts(with: [0xFF, 0xD8]))
        #expect(try await server.coverCounts().requests == 1)
    }
}

/// The server's answers without its X-Discogs-Ratelimit headers, so that the limiter keeps
/// the test's own limit (one request a window) instead of the server's 60.
private struct WithoutRateHeaders: HTTPTransport {
    let inner: CurlTransport

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var response = try await inner.send(request)
        let kept = response.headers.names.filter { !$0.hasPrefix("x-discogs-ratelimit") }
        response.headers = HTTPHeaders(kept.compactMap { name in response.headers[name].map { (name, $0) } })
        return response
    }
}
