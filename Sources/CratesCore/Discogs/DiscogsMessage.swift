/// The body Discogs sends with an error status: `{"message": "…"}` (e.g. 401 "You must
/// authenticate to access this resource.", 404 "That release does not exist or may have been
/// deleted.", 429 "You are making requests too quickly.", 500 "Query time exceeded…").
public struct DiscogsMessage: Decodable, Hashable, Sendable {
    public var message: String
}

/// `GET /oauth/identity`: who the credentials belong to.
public struct DiscogsIdentity: Decodable, Hashable, Sendable {
    public var id: Int
    public var username: String
    /// The application the credentials were issued to (for a personal token, the user).
    public var consumerName: String?

    enum CodingKeys: String, CodingKey {
        case id, username
        case consumerName = "consumer_name"
    }

    public init(id: Int, username: String, consumerName: String? = nil) {
        self.id = id
        self.username = username
        self.consumerName = consumerName
    }
}

/// `GET /users/{username}`: the user's profile, of which crates reads only the currency the
/// account chose for the marketplace (`curr_abbr`, one of Discogs' codes: "USD", "EUR"), in
/// which Discogs writes its prices for them. Absent from an answer that does not show it.
public struct DiscogsProfile: Decodable, Hashable, Sendable {
    public var username: String
    public var currency: String?

    enum CodingKeys: String, CodingKey {
        case username
        case currency = "curr_abbr"
    }

    public init(username: String, currency: String? = nil) {
        self.username = username
        self.currency = currency
    }
}

/// One entry of a release's `formats`: `{"name": "CD", "qty": "1", "descriptions": ["Album"]}`.
public struct DiscogsFormat: Decodable, Hashable, Sendable {
    public var name: String
    public var quantity: String?
    public var descriptions: [String]
    public var text: String?

    enum CodingKeys: String, CodingKey {
        case name, qty, descriptions, text
    }

    public init(name: String, quantity: String? = nil, descriptions: [String] = [], text: String? = nil) {
        self.name = name
        self.quantity = quantity
        self.descriptions = descriptions
        self.text = text
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = (try? c.decodeIfPresent(String.self, forKey: .name)) ?? ""
        // `qty` is a string in every recorded response; accept a number too.
        quantity = (try? c.decodeIfPresent(String.self, forKey: .qty)) ?? (try? c.decodeIfPresent(Int.self, forKey: .qty)).flatMap { $0.map(String.init) }
        descriptions = (try? c.decodeIfPresent([String].self, forKey: .descriptions)) ?? []
        text = try? c.decodeIfPresent(String.self, forKey: .text)
    }

    /// "CD, Album, Promo": the name, then the descriptions, as Discogs shows them.
    public var summary: String {
        ([name] + descriptions).map(ControlCharacters.cleaned).filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
