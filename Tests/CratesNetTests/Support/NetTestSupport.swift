import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

// The loopback server itself (`DiscogsTestServer`, `ServerStats`) is in CratesTestSupport.

/// A transport under test. Its timeout is generous (a loaded machine answers slowly); a test
/// that wants a held answer to trip it passes a short one.
func testTransport(timeout: Double = 60) throws -> CurlTransport {
    try CurlTransport(configuration: .init(userAgent: DiscogsUserAgent.make(version: "test"), connectTimeout: 5, totalTimeout: timeout))
}

/// A client of `server`, with the server's personal token unless told otherwise.
func testClient(
    _ server: DiscogsTestServer, credentials: DiscogsCredentials? = .personalToken(DiscogsTestServer.token),
    limiter: RateLimiter = RateLimiter(configuration: .init(limit: 60, window: 60)), timeout: Double = 60
) throws -> DiscogsClient {
    DiscogsClient(transport: try testTransport(timeout: timeout), endpoints: server.endpoints, credentials: credentials, rateLimiter: limiter)
}

/// A fixture under Fixtures/discogs.
func fixture(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Fixtures/discogs/" + path))
}

/// A client of `server` signed in through OAuth 1.0a's three legs, as `crates auth login`
/// does: a request token, the authorize page (where the user would read the verifier), and
/// the access token. `DiscogsClientTests.oauthThreeLegged` checks each leg on its own.
func oauthClient(_ server: DiscogsTestServer) async throws -> DiscogsClient {
    let anonymous = try testClient(server, credentials: nil)
    let (key, secret) = (DiscogsTestServer.consumerKey, DiscogsTestServer.consumerSecret)
    let request = try await anonymous.requestToken(consumerKey: key, consumerSecret: secret)
    _ = try await testTransport().send(HTTPRequest(url: anonymous.authorizeURL(requestToken: request)))
    let access = try await anonymous.accessToken(
        consumerKey: key, consumerSecret: secret, requestToken: request, verifier: DiscogsTestServer.verifier)
    return try testClient(
        server, credentials: .oauth(consumerKey: key, consumerSecret: secret, token: access.token, tokenSecret: access.secret))
}
