import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The use cases that talk to Discogs, in process: a real store file, libcurl and the
/// loopback server.
@Suite("Use cases with Discogs (in process)")
struct DiscogsUseCaseTests {
    @Test("add by release: the release names the barcode and the record is stored matched; a release without one makes a record without a barcode")
    func addRelease() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let adder = RecordAdder(store: temporary.store, discogs: try access(server))
        guard case .added(let record, let release?) = try await adder.add(.release(5_134_861), method: .releaseID) else {
            Issue.record("added, with its release")
            return
        }
        #expect(record.gtin?.canonical == "0727361626525" && record.lookupState == .matched && record.releaseID == 5_134_861)
        #expect(release.displayTitle == "HammerFall — Glory To The Brave")
        // The same release again is another copy of the same barcode: asked first.
        guard case .held(let question) = try await adder.add(.release(5_134_861), method: .releaseID) else {
            Issue.record("held as another copy")
            return
        }
        #expect(question.yes == .add(.release(5_134_861), method: .releaseID, allowing: .anotherCopy))
        // A release that lists no barcode makes a record without one (issue 14); its copies
        // are counted by release.
        guard case .added(let bare, _) = try await adder.add(.release(1), method: .releaseID) else {
            Issue.record("release 1 lists no barcode: added without one")
            return
        }
        #expect(bare.gtin == nil && bare.lookupState == .matched && bare.releaseID == 1)
        guard case .held(let again) = try await adder.add(.release(1), method: .releaseID) else {
            Issue.record("release 1 again: held as another copy")
            return
        }
        #expect(again.kind == .anotherCopy(copies: 1) && again.subject == "release 1")
        guard case .refused(let missing) = try await adder.add(.release(999), method: .releaseID) else {
            Issue.record("release 999 does not exist")
            return
        }
        #expect(missing == "Discogs has no release 999")
    }

    @Test("import with lookups: the queue drained, the release row added matched, the summary adds up")
    func importWithLookups() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let importer = Importer(store: temporary.store, progress: QuietImportProgress())
        let file = try ImportFile.parse(Array("5099750442227\n5012345678900\n5012345678917\nr5134861\n".utf8))
        let discogs = try access(server)
        let outcome = try await importer.run(file, name: "shelf.txt", options: .init(), discogs: { .success(discogs) })
        #expect(outcome.ending == .complete, "\(outcome.lines)")
        #expect(outcome.added == 4)
        #expect(outcome.lines.contains("Discogs: 4 lookups: 2 matched, 1 ambiguous, 1 not found, 0 failed."), "\(outcome.lines)")
        #expect(outcome.report.items.map(\.kind) == ["ambiguous", "not-found"])
        #expect(try await temporary.store.waitingCount() == 0)
    }

    @Test("crates lookup's answer: matched, several pressings, none; a barcode search needs an account")
    func lookupAnswer() async throws {
        let server = try await DiscogsTestServer.start()
        let signedIn = try access(server)
        let matched = try await DiscogsAnswer.ask(.barcode(Fixtures.gtin("0727361626525")), access: signedIn)
        #expect(matched.outcome == "matched" && matched.matchedForm == "7 27361 62652 5")
        let several = try await DiscogsAnswer.ask(.barcode(Fixtures.gtin("5012345678900")), access: signedIn)
        #expect(several.outcome == "ambiguous" && several.releases.count == 2)
        let none = try await DiscogsAnswer.ask(.barcode(Fixtures.gtin("5012345678917")), access: signedIn)
        #expect(none.outcome == "notFound" && none.releases.isEmpty && !none.searched.isEmpty)
        #expect(none.nothingFound(shown: "5012345678917")
            == "Discogs knows no release with barcode 5012345678917 (searched: \(none.searched.joined(separator: "; ")))")
        #expect(several.lines(web: "https://d.test").allSatisfy { $0.line.hasPrefix("ambiguous\t") })
        #expect(several.lines(web: "https://d.test").map(\.releaseID) == several.releases.map(\.id))
        await #expect(throws: DiscogsAnswerError.self) {
            _ = try await DiscogsAnswer.ask(.barcode(Fixtures.gtin("0727361626525")), access: try access(server, token: nil))
        }
        do {
            _ = try await DiscogsAnswer.ask(.release(999), access: signedIn)
            Issue.record("release 999 does not exist")
        } catch {
            guard case .noSuchRelease = error else { Issue.record("\(error)"); return }
            #expect(error.description == "Discogs has no release 999")
        }
    }

    @Test("sign in with a token: checked, saved for the user; status checked with Discogs; a refused token is said so")
    func signIn() async throws {
        let server = try await DiscogsTestServer.start()
        let home = try TemporaryDirectory(prefix: "crates-signin")
        let environment = ["XDG_CONFIG_HOME": home.path, "HOME": home.path, "CRATES_DISCOGS_API": server.base, "CRATES_DISCOGS_WEB": server.base]
        let signIn = try SignIn(environment: environment)
        #expect(try await signIn.status() == .signedOut)
        do {
            _ = try await signIn.withToken("not-the-token")
            Issue.record("a wrong token is refused")
        } catch {
            guard case .refused = error else {
                Issue.record("refused, not \(error)")
                return
            }
        }
        #expect(try await signIn.withToken(DiscogsTestServer.token) == "DamIDhagor")
        guard case .checked(let line) = try await signIn.status() else {
            Issue.record("checked with Discogs")
            return
        }
        #expect(line.hasPrefix("Signed in to Discogs as DamIDhagor with a personal access token"))
        #expect(!line.contains(DiscogsTestServer.token))
        #expect(fileMode(signIn.credentials.path) == 0o600)
        // Discogs no longer takes the saved token (revoked): status says so.
        let revoked = try SignIn(environment: environment)
        try revoked.credentials.save(StoredCredentials(credentials: .personalToken("revoked"), username: "DamIDhagor"))
        guard case .refused(_, let why) = try await revoked.status() else {
            Issue.record("refused")
            return
        }
        #expect(why.hasPrefix("Discogs refused the credentials"))
        await server.stop()
        guard case .unchecked(let unchecked) = try await revoked.status() else {
            Issue.record("unchecked when Discogs cannot be reached")
            return
        }
        #expect(unchecked.contains("not checked: Discogs is unreachable"))
        #expect(try revoked.logout() && !(try revoked.logout()))
    }
}
