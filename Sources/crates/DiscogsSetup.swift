import CratesCore
import CratesNet
import Foundation

/// The Discogs client every command uses, from the environment and the saved credentials.
struct DiscogsSetup {
    let client: DiscogsClient
    let username: String?
    let signedIn: Bool

    /// A client with the saved credentials (or none: anonymous, 25 requests a minute, and
    /// Discogs refuses searches without credentials, which the caller reports).
    static func make(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DiscogsSetup {
        let stored: StoredCredentials?
        do {
            stored = try CredentialStore(environment: environment).load()
        } catch {
            throw CLIError("\(error)")
        }
        let transport: CurlTransport
        do {
            transport = try CurlTransport(configuration: .init(userAgent: DiscogsUserAgent.make(version: Crates.version)))
        } catch {
            throw CLIError("\(error)")
        }
        let limiter = RateLimiter(configuration: stored == nil ? .anonymous : .authenticated)
        let client = DiscogsClient(
            transport: transport, endpoints: DiscogsEndpoints(environment: environment),
            credentials: stored?.credentials, rateLimiter: limiter)
        return DiscogsSetup(client: client, username: stored?.username, signedIn: stored != nil)
    }
}
