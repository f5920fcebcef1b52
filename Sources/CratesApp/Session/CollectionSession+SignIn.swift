import CratesCore
import CratesNet
import Foundation

/// The sign-in form of the collection UI (`A`): a personal access token, or OAuth when the
/// build or the configuration has an application's key, each checked with Discogs before it
/// is saved (`SignIn`, as `crates auth`). A sign-in (or out) restarts the lookups with the
/// new credentials through `signedIn(_:)`, a step of the worker's lifecycle like any other.
extension CollectionSession {
    func signIn(_ request: SignInRequest) {
        switch request {
        case .account:
            post(.signIn(.account(account())))
        case .token(let secret):
            // Waits for Discogs: off the serial line, as a search.
            spawn { await self.signIn(token: secret.value) }
        case .startOAuth:
            spawn { await self.startOAuth() }
        case .finishOAuth(let verifier):
            spawn { await self.finishOAuth(verifier: verifier) }
        case .signOut:
            signOut()
        }
    }

    /// Who the credentials file names: the status line's account, read again.
    private func account() -> SignInAccount {
        let signIn: SignIn
        do {
            signIn = try SignIn(environment: environment)
        } catch {
            return SignInAccount(username: nil, kind: nil, offersOAuth: false, problem: error.inForm(token: true))
        }
        do {
            guard let stored = try signIn.credentials.load() else {
                return SignInAccount(username: nil, kind: nil, offersOAuth: signIn.offersOAuth)
            }
            return SignInAccount(
                username: stored.username.map(ControlCharacters.cleaned), kind: stored.credentials.kindDescription,
                offersOAuth: signIn.offersOAuth)
        } catch {
            return SignInAccount(username: nil, kind: nil, offersOAuth: signIn.offersOAuth, problem: error.description)
        }
    }

    private func signIn(token typed: String) async {
        do throws(SignInError) {
            let token = try SignInError.token(from: typed)
            let username = try await SignIn(environment: environment).withToken(token)
            restart(signedInAs: username)
        } catch {
            post(.signIn(.failed(error.inForm(token: true))))
        }
    }

    private func startOAuth() async {
        do throws(SignInError) {
            let start = try await SignIn(environment: environment).startOAuth()
            state.withLock { $0.oauth = start }
            let opened = ExternalPrograms.openInBrowser(start.authorizeURL, environment: environment)
            post(.signIn(.authorizePage(url: start.authorizeURL, opened: opened)))
        } catch {
            post(.signIn(.failed(error.inForm(token: false))))
        }
    }

    private func finishOAuth(verifier typed: String) async {
        let verifier = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        do throws(SignInError) {
            guard !verifier.isEmpty else { throw .noVerifier }
            guard let start = state.withLock({ $0.oauth }) else {
                post(.signIn(.pageNeeded("No Discogs page was asked for yet")))
                return
            }
            let username = try await SignIn(environment: environment).finishOAuth(start, verifier: verifier)
            state.withLock { $0.oauth = nil }
            restart(signedInAs: username)
        } catch .refused(let message) {
            post(.signIn(.pageNeeded(SignInError.refused(message).inForm(token: false))))
        } catch {
            post(.signIn(.failed(error.inForm(token: false))))
        }
    }

    private func signOut() {
        do throws(SignInError) {
            _ = try SignIn(environment: environment).logout()
        } catch {
            post(.signIn(.failed(error.inForm(token: true))))
            return
        }
        post(.signIn(.signedOut))
        restart(signedInAs: nil)
    }

    /// The credentials just saved (or removed) become the session's: searches at once, the
    /// lookups once the worker has started again with them.
    private func restart(signedInAs username: String?) {
        do {
            let access = try DiscogsAccess.make(environment: environment)
            if let username { post(.signIn(.signedIn(username: username))) }
            signedIn(access)
        } catch {
            post(.signIn(.failed("Saved, but crates cannot use them: \(error)")))
        }
    }
}
