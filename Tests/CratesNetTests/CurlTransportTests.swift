import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// The real libcurl transport against the loopback server.
@Suite struct CurlTransportTests {
    @Test func reusesOneConnectionAndDecodesGzip() async throws {
        let server = try await DiscogsTestServer.start()
        let transport = try testTransport()
        var bodies: [Data] = []
        for _ in 0..<5 {
            let r = try await transport.send(
                HTTPRequest(url: server.base + "/releases/5134861", headers: [("Authorization", "Discogs token=\(DiscogsTestServer.token)")]))
            #expect(r.status == 200)
            #expect(r.headers["content-encoding"] == "gzip")  // sent compressed…
            bodies.append(r.body)
        }
        // …and decoded: the release as the server sent it (its image addresses are the
        // server's own, so the body is compared whole across requests, and read as JSON).
        #expect(bodies.allSatisfy { $0 == bodies.first })
        let first = try #require(bodies.first)
        let release = try JSONSerialization.jsonObject(with: first) as? [String: Any]
        #expect(release?["id"] as? Int == 5_134_861)
        let stats = try await server.stats()
        #expect(stats.connections == 2)  // one for the five requests, one for this stats request
        #expect(stats.gzip == 5)
    }

    @Test func headersAreCaseInsensitive() async throws {
        let server = try await DiscogsTestServer.start()
        let r = try await testTransport().send(HTTPRequest(url: server.base + "/releases/1"))
        #expect(r.headers["X-Discogs-Ratelimit"] == r.headers["x-discogs-ratelimit"])
        #expect(r.headers["X-DISCOGS-RATELIMIT-REMAINING"] != nil)
        #expect(r.mediaType == "application/json")
        #expect(r.effectiveURL == server.base + "/releases/1")
    }

    @Test(arguments: [
        "http://api.discogs.com/database/search", "http://192.168.1.10/x", "http://128.0.0.1/x", "http://localhost.evil.example/x",
    ])
    func plainHTTPOnlyToLoopback(url: String) async throws {
        await #expect(throws: TransportError.self) {
            _ = try await testTransport().send(HTTPRequest(url: url))
        }
    }

    @Test(arguments: [("127.0.0.1", true), ("127.255.3.4", true), ("localhost", true), ("[::1]", true), ("::1", true),
        ("128.0.0.1", false), ("127.0.0.1.evil", false), ("api.discogs.com", false), ("1270.0.0.1", false)])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(CurlTransport.isLoopback(host) == loopback)
    }

    @Test func otherSchemesAreRefused() async throws {
        await #expect(throws: TransportError.invalidURL("file:///etc/passwd")) {
            _ = try await testTransport().send(HTTPRequest(url: "file:///etc/passwd"))
        }
    }

    /// An answer that does not come (the server holds it until the test is done).
    @Test func aSlowAnswerTimesOut() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.hold(match: "/releases/1")
        await #expect(throws: TransportError.timedOut(seconds: 1)) {
            _ = try await testTransport(timeout: 1).send(HTTPRequest(url: server.base + "/releases/1"))
        }
        #expect(try await server.stats().held == 1, "the request reached the server and waited there")
        try await server.release()
    }

    @Test func aClosedPortCannotConnect() async throws {
        // A port that was just in use and is now closed: the server is gone (stop() returns
        // once it has exited).
        let server = try await DiscogsTestServer.start()
        let port = server.port
        await server.stop()
        let transport = try testTransport()
        do {
            _ = try await transport.send(HTTPRequest(url: "http://127.0.0.1:\(port)/releases/1"))
            Issue.record("expected a connection error")
        } catch {
            #expect(error.isOffline)
        }
    }

    @Test func postsAFormBody() async throws {
        let server = try await DiscogsTestServer.start()
        let r = try await testTransport().send(
            HTTPRequest(method: "POST", url: server.base + "/oauth/access_token", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data("a=b".utf8)))
        #expect(r.status == 401)  // unsigned: refused, but the POST went through
    }
}
