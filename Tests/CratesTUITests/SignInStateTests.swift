import CratesCore
import Foundation
import Testing

@testable import CratesTUI

/// The sign-in form (`A`) as a value: the token field, masked and taking a paste whole, the
/// session's answers, OAuth when an application's key is there, signing out.
@Suite struct SignInStateTests {
    static let token = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789qxsd"

    static func signInRequests(_ commands: [AppCommand]) -> [SignInRequest] {
        commands.compactMap { if case .session(.signIn(let request)) = $0 { request } else { nil } }
    }

    static func form(_ h: Harness) -> SignInState? {
        if case .signIn(let state) = h.state.mode { state } else { nil }
    }

    @Test func aOpensTheFormWhichAsksWhoIsSignedIn() throws {
        var h = Harness()
        let sent = h.type([.character("A")])
        #expect(Self.signInRequests(sent) == [.account])
        #expect(Self.form(h) != nil)
        #expect(h.lines.contains { $0.contains("Loading…") })
        h.send(.signIn(.account(SignInAccount(username: nil, kind: nil, offersOAuth: false))))
        #expect(h.lines.contains { $0.contains("Not signed in to Discogs") })
        #expect(h.lines.contains { $0.contains("Paste a personal access token") })
        #expect(!h.lines.contains { $0.contains("Tab: OAuth") }, "no OAuth without an application's key")
        #expect(!h.lines.contains { $0.contains("Ctrl-X") }, "nothing to sign out of")
    }

    @Test func aPastedTokenGoesInWholeMaskedAndRunsNoCommand() throws {
        var h = Harness()
        h.type([.character("A")])
        h.send(.signIn(.account(SignInAccount(username: nil, kind: nil, offersOAuth: false))))
        // A paste: every key within a millisecond, with letters that are commands in the list
        // (q quits, d deletes, s searches) and digits (a scan in the list).
        let sent = h.type(Self.token, interval: 0.001)
        #expect(sent.isEmpty)
        #expect(!h.state.hasQuit && h.state.prompt == nil)
        #expect(Self.form(h)?.text == Self.token)
        let screen = h.lines.joined(separator: "\n")
        #expect(!screen.contains(Self.token) && !screen.contains("AbCd"), "the token is never shown")
        #expect(screen.contains("(40 characters)"))
        let submitted = h.type([.enter])
        #expect(Self.signInRequests(submitted) == [.token(SecretText(Self.token))])
        #expect(h.lines.contains { $0.contains("Checking the token with Discogs") })
        // Keys wait while Discogs is asked.
        #expect(h.type("x").isEmpty && Self.form(h)?.text == Self.token)
        h.send(.signIn(.signedIn(username: "tester")))
        #expect(h.state.mode == .list)
        #expect(h.state.message?.text == "Signed in to Discogs as tester")
        #expect(h.state.discogs == .signedIn(username: "tester"))
    }

    @Test func aRefusedTokenShowsTheReasonAndTheNextPasteReplacesIt() throws {
        var h = Harness()
        h.type([.character("A")])
        h.send(.signIn(.account(SignInAccount(username: nil, kind: nil, offersOAuth: false))))
        h.type("wrong-token", interval: 0.001)
        h.type([.enter])
        h.send(.signIn(.failed("Discogs refused this token: it is wrong or was revoked.")))
        #expect(Self.form(h)?.error == "Discogs refused this token: it is wrong or was revoked.")
        #expect(h.lines.contains { $0.contains("Discogs refused this token") })
        #expect(h.state.discogs == .notSignedIn)
        // The refused token is gone from the field, not kept (masked) for the next paste.
        #expect(Self.form(h)?.text == "")
        #expect(!h.lines.contains { $0.contains("(11 characters)") })
        h.type(Self.token, interval: 0.001)
        #expect(Self.form(h)?.text == Self.token && Self.form(h)?.error == nil)
        // Esc cancels: back to the list, nothing sent.
        #expect(Self.signInRequests(h.type([.escape])).isEmpty)
        #expect(h.state.mode == .list)
    }

    @Test func signedInTheFormSaysWhoAndSignsOut() throws {
        var h = Harness()
        h.send(.discogs(.signedIn(username: "tester")))
        h.type([.character("A")])
        h.send(.signIn(.account(SignInAccount(username: "tester", kind: "personal access token", offersOAuth: false))))
        let screen = h.lines.joined(separator: "\n")
        #expect(screen.contains("Signed in to Discogs as tester (personal access token)"))
        #expect(!screen.contains("Not signed in"))
        #expect(screen.contains("Ctrl-X: sign out"))
        #expect(Self.signInRequests(h.type([.control("x")])) == [.signOut])
        h.send(.signIn(.signedOut))
        #expect(h.lines.contains { $0.contains("Not signed in to Discogs") })
        #expect(h.state.discogs == .notSignedIn)
        #expect(Self.form(h)?.account?.isSignedIn == false)
    }

    @Test func withAnApplicationKeyTabTakesTheOAuthRoute() throws {
        var h = Harness(width: 100)
        h.type([.character("A")])
        h.send(.signIn(.account(SignInAccount(username: nil, kind: nil, offersOAuth: true))))
        #expect(h.lines.contains { $0.contains("Tab: OAuth in a browser") })
        #expect(Self.signInRequests(h.type([.tab])) == [.startOAuth])
        #expect(h.lines.contains { $0.contains("Asking Discogs for the page") })
        let url = "http://127.0.0.1:8080/oauth/authorize?oauth_token=request-token-1"
        h.send(.signIn(.authorizePage(url: url, opened: false)))
        #expect(h.lines.contains { $0.contains(url) })
        h.type("code-123")
        #expect(h.lines.contains { $0.contains("code-123") }, "a code is not a secret: it is shown")
        #expect(Self.signInRequests(h.type([.enter])) == [.finishOAuth(verifier: "code-123")])
        h.send(.signIn(.pageNeeded("Discogs refused the code (Invalid verifier.)")))
        // The form says which keys ask for a new page: the session's words name none.
        #expect(Self.form(h)?.error == "Discogs refused the code (Invalid verifier.): Tab twice asks Discogs for a new page and code")
        // Tab goes back to the token.
        h.type([.tab])
        #expect(Self.form(h)?.route == .token && Self.form(h)?.page == nil)
    }

    @Test func withoutAnApplicationKeyTabSaysWhy() throws {
        var h = Harness()
        h.type([.character("A")])
        h.send(.signIn(.account(SignInAccount(username: nil, kind: nil, offersOAuth: false))))
        #expect(h.type([.tab]).isEmpty)
        #expect(Self.form(h)?.route == .token)
        #expect(Self.form(h)?.error?.contains("consumer key") == true)
    }

    @Test func aSignInEndingAfterTheFormClosedIsSaid() throws {
        var h = Harness()
        h.type([.character("A")])
        h.send(.signIn(.account(SignInAccount(username: nil, kind: nil, offersOAuth: false))))
        h.type(Self.token, interval: 0.001)
        h.type([.enter])
        h.type([.escape])
        #expect(h.state.mode == .list)
        h.send(.signIn(.failed("Discogs is unreachable")))
        #expect(h.state.message == AppState.Message(text: "Not signed in: Discogs is unreachable", isError: true))
    }

    @Test func aCameraScanWaitsForTheForm() throws {
        var h = Harness()
        h.type([.character("A")])
        h.send(.signIn(.account(SignInAccount(username: nil, kind: nil, offersOAuth: false))))
        #expect(h.send(.scan("5099750442227", method: .camera)).isEmpty)
        #expect(h.state.queued.count == 1)
        let back = h.type([.escape])
        #expect(back.contains { $0.addedBarcode != nil })
    }
}
