import Foundation

/// One page of a user's wantlist (`GET /users/{username}/wants`), and the want a `PUT` or
/// `POST` of one answers with.
public struct DiscogsWantlistPage: Decodable, Hashable, Sendable {
    public var pagination: DiscogsPagination
    public var wants: [DiscogsWant]

    enum CodingKeys: String, CodingKey { case pagination, wants }

    public init(pagination: DiscogsPagination, wants: [DiscogsWant]) {
        self.pagination = pagination
        self.wants = wants
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pagination = (try? c.decodeIfPresent(DiscogsPagination.self, forKey: .pagination)) ?? DiscogsPagination()
        wants = try c.decodeIfPresent([DiscogsWant].self, forKey: .wants) ?? []
    }
}

/// A release on a Discogs wantlist: its id, the owner's rating (0: none) and notes (only
/// the owner sees them: nil when Discogs did not send them), when it was added, and the
/// release's `basic_information`.
public struct DiscogsWant: Decodable, Hashable, Sendable {
    public var releaseID: Int
    public var rating: Rating
    public var notes: String?
    public var dateAdded: String?
    public var basicInformation: DiscogsRelease?
    public var basicInformationJSON: JSONValue?

    enum CodingKeys: String, CodingKey {
        case id, rating, notes
        case dateAdded = "date_added"
        case basicInformation = "basic_information"
    }

    public init(releaseID: Int, rating: Rating = .unrated, notes: String? = nil, dateAdded: String? = nil) {
        self.releaseID = releaseID
        self.rating = rating
        self.notes = notes
        self.dateAdded = dateAdded
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        basicInformation = try? c.decodeIfPresent(DiscogsRelease.self, forKey: .basicInformation)
        basicInformationJSON = try? c.decodeIfPresent(JSONValue.self, forKey: .basicInformation)
        guard let id = (try? c.decodeIfPresent(Int.self, forKey: .id)) ?? basicInformation?.id else {
            throw DecodingError.keyNotFound(CodingKeys.id, .init(codingPath: c.codingPath, debugDescription: "a want without a release id"))
        }
        releaseID = id
        rating = Rating(clamping: (try? c.decodeIfPresent(Int.self, forKey: .rating)) ?? 0)
        notes = try? c.decodeIfPresent(String.self, forKey: .notes)
        dateAdded = try? c.decodeIfPresent(String.self, forKey: .dateAdded)
    }

    /// When it was put on the wantlist; nil when Discogs sent no readable date.
    public var addedAt: Date? { dateAdded.flatMap(DiscogsTimestamp.parse) }

    /// The release as the wantlist keeps it, from `basic_information`; nil without one.
    public func release(webBase: String = "https://www.discogs.com") -> Release? {
        guard let basicInformation else { return nil }
        let json = basicInformationJSON.map(DiscogsCollectionInstance.text(of:)) ?? "{}"
        var release = basicInformation.release(rawJSON: json, webBase: webBase)
        release.hasFullDetails = false
        return release
    }
}
