import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesApp

/// The session's side of the sign-in form: credentials checked with the loopback Discogs
/// before they are saved, the worker started again with them, the reasons in the form's words.
@Suite("CollectionSession: signing in from the form", .serialized)
struct SessionSignInTests {
    static func environment(_ server: DiscogsTestServer, _ config: TemporaryDirectory) -> [String: String] {
        ["XDG_CONFIG_HOME": config.url.path, "CRATES_DISCOGS_API": server.base, "CRATES_DISCOGS_WEB": server.base]
    }

    @Test("a token Discogs accepts is saved, and the worker starts again with it; one it refuses is not")
    func tokenSignIn() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let config = try TemporaryDirectory(prefix: "crates-signin")
        let log = EventLog()
        let environment = Self.environment(server, config)
        let credentials = config.url.appendingPathComponent("crates/credentials.json").path
        let session = CollectionSession(
            store: temporary.store, discogs: try access(server, token: nil), lookups: true, scanner: nil,
            environment: environment, post: log.post)
        try await running(session) {
            session.perform(.signIn(.account))
            let before = try await log.first("the account") { if case .signIn(.account(let a)) = $0 { a } else { nil } }
            #expect(before == SignInAccount(username: nil, kind: nil, offersOAuth: false))

            session.perform(.signIn(.token(SecretText("not-the-token"))))
            let refused = try await log.first("the refusal") { if case .signIn(.failed(let why)) = $0 { why } else { nil } }
            #expect(refused.hasPrefix("Discogs refused this token: it is wrong or was revoked"), "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: credentials))

            session.perform(.signIn(.token(SecretText(DiscogsTestServer.token))))
            let username = try await log.first("the sign-in") { if case .signIn(.signedIn(let u)) = $0 { u } else { nil } }
            #expect(username == "DamIDhagor")
            #expect(FileManager.default.fileExists(atPath: credentials))
            try await waitUntil("the worker started with the new credentials") {
                log.count { if case .discogs(.signedIn(let u)) = $0 { u == "DamIDhagor" } else { false } } >= 1
            }
            #expect(session.workersRunning == 1)

            session.perform(.signIn(.account))
            try await waitUntil("the account again") {
                log.count { if case .signIn(.account(let a)) = $0 { a.username == "DamIDhagor" && a.kind == "personal access token" } else { false } } == 1
            }
            session.perform(.signIn(.signOut))
            _ = try await log.first("the sign-out") { if case .signIn(.signedOut) = $0 { true } else { nil } }
            #expect(!FileManager.default.fileExists(atPath: credentials))
            try await waitUntil("the status line back to not signed in") {
                log.count { if case .discogs(.notSignedIn) = $0 { true } else { false } } >= 2
            }
        }
        await server.stop()
    }

    @Test("not signed in, the session says so as such (the UI names its way in), not with a shell command")
    func notSignedInSaysA() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let config = try TemporaryDirectory(prefix: "crates-signin")
        let log = EventLog()
        let session = CollectionSession(
            store: temporary.store, discogs: try access(server, token: nil), lookups: true, scanner: nil,
            environment: Self.environment(server, config), post: log.post)
        try await running(session) {
            session.perform(.search(try ReleaseSearchQuery(artist: "Björk"), for: nil))
            let answer = try await log.first("the search's answer") { if case .found(let a) = $0 { a } else { nil } }
            #expect(answer.notSignedIn && answer.failure == nil)
            session.perform(.sync)
            let need = try await log.first("the sync's refusal") { event -> String?? in
                if case .notSignedIn(let need) = event { need } else { nil }
            }
            #expect(need == "Sync needs Discogs")
        }
        #expect(try await server.stats().requests == 0)
        await server.stop()
    }

    @Test("no Discogs at all, a catalogue without the pressing chosen: the choice's refusal names A too")
    func choiceWithoutDiscogsSaysA() async throws {
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = CollectionSession(
            store: temporary.store, discogs: nil, lookups: false, scanner: nil, catalogue: CatalogueUseTests.catalogue(),
            post: log.post)
        let gtin = try #require(GTIN(canonical: "5012345678900"))
        let record = try await temporary.store.add(NewRecord(gtin: gtin, addMethod: .typed))
        try await running(session) {
            session.perform(.choose(recordID: record.id, releaseID: 99_999_999))
            let need = try await log.first("the choice's refusal") { event -> String?? in
                if case .notSignedIn(let need) = event { need } else { nil }
            }
            #expect(need == .some(nil))
        }
    }
}
