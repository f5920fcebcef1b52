/// The words of Discogs' status, once: the collection UI's status line (`DiscogsStatus`)
/// and the commands' progress (`LookupStatus`) say the same thing the same way.
public enum StatusWording {
    /// A status of Discogs: "Discogs: " and what it is doing.
    public static func discogs(_ text: String) -> String { "Discogs: \(text)" }

    public static let lookingUp = "looking up"
    public static let offline = "offline"

    /// Holding back for Discogs' rate limit for about `seconds`.
    public static func rateLimit(seconds: Int) -> String { "rate limit: resuming in \(seconds) s" }
}
