import ArgumentParser
import CratesApp
import Foundation

/// `crates auth`: signs in to Discogs (OAuth 1.0a, or a personal access token), shows who is
/// signed in, or signs out. Secrets never go through argv, and are never printed.
struct AuthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Sign in to Discogs, show who is signed in, or sign out.",
        discussion: """
            Without options, signs in with OAuth: crates prints a Discogs page to open, you \
            allow crates there, and paste the code Discogs shows. This needs the consumer key \
            and secret of a registered Discogs application (CRATES_DISCOGS_CONSUMER_KEY and \
            CRATES_DISCOGS_CONSUMER_SECRET, or discogs_consumer_key/discogs_consumer_secret in \
            config.json). A personal access token works without one: create it at \
            https://www.discogs.com/settings/developers and run `crates auth --token`.

            Credentials are saved in $XDG_CONFIG_HOME/crates/credentials.json (default \
            ~/.config/crates/), readable by you only. --status checks them with Discogs when \
            it can be reached (exit status 3 when Discogs refuses them).

            Examples:
              crates auth
              crates auth --token < token.txt
              crates auth --status
              crates auth --logout
            """)

    @Flag(help: "Sign in with a personal access token, read from standard input (or typed at a hidden prompt).")
    var token = false

    @Flag(help: "Show who is signed in and with which kind of credentials, checked with Discogs.")
    var status = false

    @Flag(help: "Forget the saved Discogs credentials.")
    var logout = false

    @Flag(help: "Do not open the Discogs authorize page in a browser; only print it.")
    var noBrowser = false

    func validate() throws {
        if [token, status, logout].filter({ $0 }).count > 1 {
            throw ValidationError("use one of --token, --status and --logout at a time")
        }
    }

    @OptionGroup var diagnostics: VerboseOption

    func run() throws {
        diagnostics.install("auth")
        do {
            try signIn(try SignIn())
        } catch let error as SignInError {
            throw CLIError(error.description)
        }
    }

    private func signIn(_ signIn: SignIn) throws {
        if status {
            switch try blocking({ try await signIn.status() }) {
            case .signedOut: try StandardStreams.out("Not signed in to Discogs: run `crates auth` (or `crates auth --token`).\n")
            case .checked(let line), .unchecked(let line): try StandardStreams.out(line + "\n")
            case .refused(let line, let why):
                try StandardStreams.out(line + "\n")
                throw ExitCode.failing(why, 3)
            }
            return
        }
        if logout {
            let path = signIn.credentials.path
            try StandardStreams.out((try signIn.logout() ? "Signed out of Discogs: removed \(path)" : "Not signed in to Discogs: nothing to remove.") + "\n")
            return
        }
        if token {
            let secret = try SignInError.token(from: readToken())
            let username = try blocking { try await signIn.withToken(secret) }
            try StandardStreams.out("Signed in to Discogs as \(username)\n")
            return
        }
        let start = try blocking { try await signIn.startOAuth() }
        // Written at once, not through stdout's buffer: the user (or a script) needs the page
        // before crates waits for the code.
        try StandardStreams.out("Open this page, sign in to Discogs and allow crates:\n\n  \(start.authorizeURL)\n\n")
        if !noBrowser { ExternalPrograms.openInBrowser(start.authorizeURL) }
        StandardStreams.err("Paste the code Discogs shows, then Enter: ")
        let verifier = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces)
        guard !verifier.isEmpty else { throw SignInError.noVerifier }
        let username = try blocking { try await signIn.finishOAuth(start, verifier: verifier) }
        try StandardStreams.out("Signed in to Discogs as \(username)\n")
    }

    /// The token from standard input: at a terminal, a prompt with echo off; otherwise the
    /// first line of the input (a pipe or a file).
    private func readToken() -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) }
        StandardStreams.err("Discogs personal access token (https://www.discogs.com/settings/developers): ")
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return readLine(strippingNewline: true) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            StandardStreams.err("\n")
        }
        return readLine(strippingNewline: true)
    }
}
