import CratesCore
import CratesNet
import Foundation

/// The Discogs client of this run and who it is signed in as: from the environment
/// (`CRATES_DISCOGS_API`, `CRATES_DISCOGS_WEB`) and the saved credentials. Without
/// credentials the client is anonymous: releases can be fetched, searches answer 401.
public struct DiscogsAccess: Sendable {
    public let client: DiscogsClient
    public let username: String?
    public let signedIn: Bool

    public init(client: DiscogsClient, username: String?, signedIn: Bool) {
        self.client = client
        self.username = username
        self.signedIn = signedIn
    }

    public static func make(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DiscogsAccessError) -> DiscogsAccess {
        do {
            let stored = try CredentialStore(environment: environment).load()
            let client = try DiscogsSetup.client(environment: environment, version: CratesVersion.current)
            return DiscogsAccess(client: client, username: stored?.username, signedIn: stored != nil)
        } catch {
            throw .unusable("\(error)")
        }
    }

    /// The access for a question the local catalogue may answer: nil when the credentials
    /// cannot be used but `catalogue` is there (it answers all the same; Discogs cannot);
    /// throws why when neither can answer.
    public static func make(
        beside catalogue: (any ReleaseCatalogue)?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DiscogsAccessError) -> DiscogsAccess? {
        do throws(DiscogsAccessError) {
            return try make(environment: environment)
        } catch {
            if catalogue == nil { throw error }
            return nil
        }
    }

    /// Throws `notSignedIn` for an anonymous client: searches need an account.
    public func requireSignedIn() throws(DiscogsAccessError) {
        if !signedIn { throw .notSignedIn }
    }

    /// Who, for a status line: the username, or "signed in" when Discogs did not say.
    public var displayName: String { username.map(ControlCharacters.cleaned) ?? "signed in" }
}

/// Why Discogs cannot be used now: the one wording of credential trouble, for every command
/// and the TUI.
public enum DiscogsAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No saved credentials.
    case notSignedIn
    /// Discogs answered 401 to the saved credentials.
    case refused(message: String)
    /// The credentials file cannot be read, or a base URL is not usable.
    case unusable(String)

    public var description: String {
        switch self {
        case .notSignedIn:
            "not signed in to Discogs: run `crates auth` (or `crates auth --token`) first"
        case .refused(let message):
            DiscogsError.unauthorized(message: message).description
        case .unusable(let reason):
            "cannot use Discogs: \(reason)"
        }
    }
}
