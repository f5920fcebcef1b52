import Foundation

/// One instance (one copy) of a release in a user's collection, as Discogs' collection lists
/// give it (`GET …/collection/folders/{folder_id}/releases`, `GET …/collection/releases/{id}`):
/// its ids, folder, rating, date added, custom field values, and the release's
/// `basic_information`, which is enough to list the record without asking for the release.
public struct DiscogsCollectionInstance: Decodable, Hashable, Sendable {
    public var releaseID: Int
    /// 64-bit: see `DiscogsInstanceKey`.
    public var instanceID: Int64
    public var folderID: Int
    /// 0 when the user has not rated this copy. Clamped to 0…5 if Discogs ever sent more.
    public var rating: Rating
    /// As Discogs wrote it, e.g. "2022-07-28T04:28:27-07:00".
    public var dateAdded: String?
    /// The user's custom field values (conditions, notes…); empty when none is set, or when
    /// someone else's public collection hides them.
    public var notes: [DiscogsInstanceNote]
    /// The release, decoded with the same rules as a full release (`DiscogsRelease`); the
    /// fields `basic_information` lacks (country, identifiers, images, uri) are empty.
    public var basicInformation: DiscogsRelease
    /// `basic_information` itself, kept to be stored as the release's JSON.
    public var basicInformationJSON: JSONValue

    enum CodingKeys: String, CodingKey {
        case id, rating, notes
        case instanceID = "instance_id"
        case folderID = "folder_id"
        case dateAdded = "date_added"
        case basicInformation = "basic_information"
    }

    /// An instance made rather than decoded (an in-memory twin of Discogs, in the tests of
    /// the layers above). Throws when `basicInformation` is not a release object (no `id`).
    public init(
        releaseID: Int, instanceID: Int64, folderID: Int, rating: Rating = .unrated, dateAdded: String? = nil,
        notes: [DiscogsInstanceNote] = [], basicInformation: JSONValue
    ) throws {
        self.basicInformation = try JSONDecoder().decode(DiscogsRelease.self, from: JSONEncoder().encode(basicInformation))
        basicInformationJSON = basicInformation
        self.releaseID = releaseID
        self.instanceID = instanceID
        self.folderID = folderID
        self.rating = rating
        self.dateAdded = dateAdded
        self.notes = notes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        basicInformation = try c.decode(DiscogsRelease.self, forKey: .basicInformation)
        basicInformationJSON = try c.decode(JSONValue.self, forKey: .basicInformation)
        releaseID = (try? c.decodeIfPresent(Int.self, forKey: .id)) ?? basicInformation.id
        instanceID = try c.decode(Int64.self, forKey: .instanceID)
        folderID = try c.decode(Int.self, forKey: .folderID)
        rating = Rating(clamping: (try? c.decodeIfPresent(Int.self, forKey: .rating)) ?? 0)
        dateAdded = try? c.decodeIfPresent(String.self, forKey: .dateAdded)
        notes = (try? c.decodeIfPresent([DiscogsInstanceNote].self, forKey: .notes)) ?? []
    }

    /// What the instance calls need to name this copy.
    public var key: DiscogsInstanceKey {
        DiscogsInstanceKey(folderID: folderID, releaseID: releaseID, instanceID: instanceID)
    }

    /// When the copy was added to the collection; nil when Discogs sent no readable date.
    public var addedAt: Date? { dateAdded.flatMap(DiscogsTimestamp.parse) }

    /// The release as crates keeps it, from `basic_information` alone: artist, title, genres,
    /// styles, formats, year, labels and thumbnail. Its page is `webBase/release/{id}` (the
    /// list gives no `uri`; Discogs completes the slug itself), and `rawJSON` is the
    /// `basic_information` object (keys sorted), not the full release (`hasFullDetails` false).
    public func release(webBase: String = "https://www.discogs.com") -> Release {
        var release = basicInformation.release(rawJSON: Self.text(of: basicInformationJSON), webBase: webBase)
        if release.url == nil { release.url = webBase + "/release/\(release.id)" }
        // Enough for the list; the tracklist, credits and notes come later, as for a record
        // completed from a search result (fetched when opened, or in the
        // background).
        release.hasFullDetails = false
        return release
    }

    static func text(of value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
