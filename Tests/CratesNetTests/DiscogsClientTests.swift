import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// Every kind of credentials and every response check, through the real libcurl transport.
@Suite struct DiscogsClientTests {
    @Test func personalToken() async throws {
        let server = try await DiscogsTestServer.start()
        let identity = try await testClient(server).identity()
        #expect(identity.username == "DamIDhagor")
        #expect(try await server.stats().auth == ["token": 1])
    }

    @Test func consumerKeyAndSecret() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server, credentials: .consumer(key: DiscogsTestServer.consumerKey, secret: DiscogsTestServer.consumerSecret))
        let page = try await client.searchReleases(barcode: "7 27361 62652 5")
        #expect(page.results.map(\.id) == [5_134_861])
        #expect(try await server.stats().auth == ["key": 1])
    }

    /// The three legs, then signed requests with a query (the server checks every signature
    /// with its own base-string code).
    @Test func oauthThreeLegged() async throws {
        let server = try await DiscogsTestServer.start()
        let anonymous = try testClient(server, credentials: nil)
        let request = try await anonymous.requestToken(consumerKey: DiscogsTestServer.consumerKey, consumerSecret: DiscogsTestServer.consumerSecret)
        let page = anonymous.authorizeURL(requestToken: request)
        #expect(page.hasPrefix(server.base + "/oauth/authorize?oauth_token="))
        // The user's browser: the page shows the verifier.
        let html = try await testTransport().send(HTTPRequest(url: page))
        #expect(String(decoding: html.body, as: UTF8.self).contains(DiscogsTestServer.verifier))
        let access = try await anonymous.accessToken(
            consumerKey: DiscogsTestServer.consumerKey, consumerSecret: DiscogsTestServer.consumerSecret, requestToken: request,
            verifier: DiscogsTestServer.verifier)
        let client = try testClient(
            server,
            credentials: .oauth(
                consumerKey: DiscogsTestServer.consumerKey, consumerSecret: DiscogsTestServer.consumerSecret, token: access.token, tokenSecret: access.secret))
        #expect(try await client.identity().username == "DamIDhagor")
        let found = try await client.searchReleases(barcode: "7 27361 62652 5")  // spaces in the signed query
        #expect(found.results.count == 1)
        let stats = try await server.stats()
        #expect(stats.auth["oauth"] == 4)
        #expect(stats.badSignatures == 0)
    }

    @Test func aWrongVerifierIsRefused() async throws {
        let server = try await DiscogsTestServer.start()
        let anonymous = try testClient(server, credentials: nil)
        let request = try await anonymous.requestToken(consumerKey: DiscogsTestServer.consumerKey, consumerSecret: DiscogsTestServer.consumerSecret)
        _ = try await testTransport().send(HTTPRequest(url: anonymous.authorizeURL(requestToken: request)))
        await #expect(throws: DiscogsError.unauthorized(message: "Invalid verifier.")) {
            _ = try await anonymous.accessToken(
                consumerKey: DiscogsTestServer.consumerKey, consumerSecret: DiscogsTestServer.consumerSecret, requestToken: request, verifier: "WRONG")
        }
    }

    @Test func aWrongSignatureIsRefused() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(
            server, credentials: .oauth(consumerKey: DiscogsTestServer.consumerKey, consumerSecret: "not-the-secret", token: "t", tokenSecret: "s"))
        await #expect(throws: DiscogsError.self) { _ = try await client.identity() }
        let anonymous = try testClient(server, credentials: nil)
        await #expect(throws: DiscogsError.unauthorized(message: "Invalid OAuth signature.")) {
            _ = try await anonymous.requestToken(consumerKey: DiscogsTestServer.consumerKey, consumerSecret: "not-the-secret")
        }
        #expect(try await server.stats().badSignatures == 1)
    }

    @Test func aBadTokenIsUnauthorizedWithDiscogsMessage() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server, credentials: .personalToken("revoked-token-value"))
        do {
            _ = try await client.searchReleases(barcode: "5099750442227")
            Issue.record("expected 401")
        } catch {
            #expect(error == .unauthorized(message: "Invalid consumer token. Please register an app before making requests."))
            #expect(error.description.contains("run `crates auth --token`"))
            #expect(!error.description.contains("revoked-token-value"))
        }
    }

    @Test func noCredentialsIsUnauthorized() async throws {
        let server = try await DiscogsTestServer.start()
        await #expect(throws: DiscogsError.unauthorized(message: "You must authenticate to access this resource.")) {
            _ = try await testClient(server, credentials: nil).searchReleases(barcode: "5099750442227")
        }
    }

    @Test func aMissingReleaseIsNotFound() async throws {
        let server = try await DiscogsTestServer.start()
        await #expect(throws: DiscogsError.notFound(message: "That release does not exist or may have been deleted.")) {
            _ = try await testClient(server).release(id: 2_147_483_647)
        }
    }

    /// Each fault the server can inject, and the error it must become.
    @Test(arguments: [
        ("5000000000012", "html500"), ("5000000000074", "json500"), ("5000000000029", "wrongtype"),
        ("5000000000036", "truncated"), ("5000000000043", "redirect"),
    ])
    func faultsBecomeErrors(barcode: String, kind: String) async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server)
        do {
            _ = try await client.searchReleases(barcode: barcode)
            Issue.record("expected an error for \(kind)")
        } catch {
            switch (kind, error) {
            case ("html500", .server(500, let message)):
                // An HTML page is Discogs' message in no sense: never quoted (`--verbose` shows it).
                #expect(message.isEmpty, "\(message)")
                #expect(error.description == "Discogs had a problem (HTTP 500)")
            case ("json500", .server(500, let message)):
                #expect(message == "Query time exceeded. Please try a simpler query.")
            case ("wrongtype", .unexpectedContentType(let type, _)):
                #expect(type == "text/html")
            case ("truncated", .malformedBody(let preview)):
                #expect(preview.hasPrefix("{\"pagination\""))
                #expect(!error.description.contains("{"), "\(error)")
            case ("redirect", .redirected(302, let location)):
                #expect(location == "evil.example")
                #expect(error.description == "Discogs' address answered with a redirect to evil.example: a network login page?")
            default:
                Issue.record("\(kind) gave \(error)")
            }
            #expect(error.isRetryable == ["html500", "json500", "wrongtype", "truncated", "redirect"].contains(kind))
            #expect(error.isTransient == ["html500", "json500", "wrongtype", "truncated", "redirect"].contains(kind))
        }
    }

    @Test func answersFromAnotherHostAreRefused() throws {
        let response = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data("{}".utf8), effectiveURL: "https://evil.example/x")
        #expect(throws: DiscogsError.wrongHost(expected: "api.discogs.com", actual: "evil.example")) {
            try DiscogsClient.check(response, expectedHost: "api.discogs.com", accept: .json)
        }
    }

    /// A 429 pauses (no Retry-After: a whole window) and the same request goes again.
    @Test func a429IsHonouredAndTheRequestSentAgain() async throws {
        let server = try await DiscogsTestServer.start(["--limit", "60", "--window", "1"])
        try await server.inject("429", count: 2, match: "/database/search")
        let limiter = RateLimiter(configuration: .init(limit: 60, window: 1))
        let page = try await testClient(server, limiter: limiter).searchReleases(barcode: "7 27361 62652 5")
        #expect(page.results.count == 1)
        #expect(await limiter.statistics.throttled == 2)
        #expect(try await server.stats().searches == ["7 27361 62652 5"])
    }

    @Test func secretsNeverAppearInErrors() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.inject("html500")
        let client = try testClient(server)
        do {
            _ = try await client.identity()
        } catch {
            #expect(!error.description.contains(DiscogsTestServer.token))
        }
    }
}
