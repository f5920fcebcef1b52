import CratesCore
import CratesNet
import Foundation

/// The Discogs client for this run and who it is signed in as, for the status line.
struct DiscogsAccess {
    let client: DiscogsClient
    let username: String?
    let signedIn: Bool

    /// From the environment and the saved credentials (`DiscogsSetup.client`); errors become
    /// one line for the user.
    static func make(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DiscogsAccess {
        do {
            let stored = try CredentialStore(environment: environment).load()
            let client = try DiscogsSetup.client(environment: environment, version: Crates.version)
            return DiscogsAccess(client: client, username: stored?.username, signedIn: stored != nil)
        } catch {
            throw CLIError("\(error)")
        }
    }
}
