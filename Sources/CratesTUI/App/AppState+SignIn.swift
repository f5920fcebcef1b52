import CratesCore

/// The sign-in form (`A`). A text field like the other forms: every printable key types into
/// it, so a pasted token (or a wedge's burst) goes in whole and runs no command; the form's
/// own commands are Enter, Tab and control keys.
extension AppState {
    mutating func openSignIn(back: Back) -> [AppCommand] {
        mode = .signIn(SignInState(back: back))
        return [.session(.signIn(.account))]
    }

    mutating func signInKey(_ key: Key, _ state: SignInState) -> [AppCommand] {
        var state = state
        switch key {
        case .character(let c):
            guard state.editing else { return [] }
            if state.error != nil {
                // A paste after a refused token replaces it rather than appending to it.
                state.text = ""
                state.error = nil
            }
            if state.text.count < SignInState.maximumTyped { state.text.append(c) }
            mode = .signIn(state)
            return []
        case .backspace:
            guard state.editing else { return [] }
            if !state.text.isEmpty { state.text.removeLast() }
            state.error = nil
            mode = .signIn(state)
            return []
        default:
            break
        }
        guard let action = KeyMap.action(for: key, in: .signIn) else { return [] }
        if action == .back { return goBack(state.back, settled: false) }
        guard state.account != nil, state.waiting == nil else { return [] }
        var commands: [AppCommand] = []
        switch action {
        case .clearField:
            state.text = ""
            state.error = nil
        case .submit:
            guard state.editing else { return [] }
            state.error = nil
            if state.route == .token {
                state.waiting = "Checking the token with Discogs…"
                commands = [.session(.signIn(.token(SecretText(state.text))))]
            } else {
                state.waiting = "Checking the code with Discogs…"
                commands = [.session(.signIn(.finishOAuth(verifier: state.text)))]
            }
        case .nextField, .previousField:
            guard state.account?.offersOAuth == true else {
                state.error = "OAuth needs a Discogs application's consumer key and secret (discogs_consumer_key and discogs_consumer_secret in config.json): paste a personal access token instead"
                break
            }
            state.text = ""
            state.error = nil
            state.page = nil
            if state.route == .token {
                state.route = .oauth
                state.waiting = "Asking Discogs for the page to allow crates on…"
                commands = [.session(.signIn(.startOAuth))]
            } else {
                state.route = .token
            }
        case .delete:
            guard state.account?.isSignedIn == true else { return [] }
            state.waiting = "Signing out…"
            commands = [.session(.signIn(.signOut))]
        default:
            return []
        }
        mode = .signIn(state)
        return commands
    }

    /// The session's answers: applied to the form while it is open; a sign-in that ends
    /// after the form was closed is said on the message line.
    mutating func applySignIn(_ event: SignInEvent) -> [AppCommand] {
        let open: SignInState? = if case .signIn(let state) = mode { state } else { nil }
        switch event {
        case .account(let account):
            guard var state = open else { return [] }
            state.account = account
            mode = .signIn(state)
        case .authorizePage(let url, let opened):
            guard var state = open, state.route == .oauth else { return [] }
            state.page = SignInState.Page(url: url, opened: opened)
            state.waiting = nil
            mode = .signIn(state)
        case .signedIn(let username):
            discogs = .signedIn(username: username)
            say("Signed in to Discogs as \(username)")
            if let state = open { return goBack(state.back, settled: false) }
        case .signedOut:
            discogs = .notSignedIn
            say("Signed out of Discogs")
            guard var state = open else { return [] }
            state.account?.username = nil
            state.account?.kind = nil
            state.waiting = nil
            state.text = ""
            mode = .signIn(state)
        case .failed(let reason), .pageNeeded(let reason):
            guard var state = open, state.waiting != nil else {
                say("Not signed in: \(reason)", isError: true)
                return []
            }
            state.waiting = nil
            state.error = ControlCharacters.cleaned(reason)
            if case .pageNeeded = event { state.error? += ": " + SignInState.newPageKeys(route: state.route) }
            // A refused token is gone from the field: shown masked, it read as kept. (A code
            // stays in sight, since it is shown: the next paste replaces it.)
            if state.route == .token { state.text = "" }
            mode = .signIn(state)
        }
        return []
    }
}
