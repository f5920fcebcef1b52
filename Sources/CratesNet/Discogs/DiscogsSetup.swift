import CratesCore

/// Wiring for the commands that talk to Discogs: one place that turns the environment and
/// the saved credentials into a client.
public enum DiscogsSetup {
    /// The client crates uses: the saved credentials (none: anonymous, and the first search
    /// answers 401, which stops the worker with "run `crates auth`"), the base URLs from
    /// `CRATES_DISCOGS_API` / `CRATES_DISCOGS_WEB`, libcurl, and a rate limiter at Discogs'
    /// published rate for those credentials until its headers say otherwise.
    public static func client(environment: [String: String], version: String) throws -> DiscogsClient {
        let stored = try CredentialStore(environment: environment).load()
        let transport = try CurlTransport(configuration: .init(userAgent: DiscogsUserAgent.make(version: version)))
        let limiter = RateLimiter(configuration: stored == nil ? .anonymous : .authenticated)
        return DiscogsClient(
            transport: transport, endpoints: DiscogsEndpoints(environment: environment), credentials: stored?.credentials, rateLimiter: limiter)
    }
}
