/// One page of a collection folder (`GET /users/{username}/collection/folders/{folder_id}/releases`)
/// or of the instances of one release (`GET /users/{username}/collection/releases/{release_id}`).
public struct DiscogsCollectionPage: Decodable, Hashable, Sendable {
    public var pagination: DiscogsPagination
    public var releases: [DiscogsCollectionInstance]

    enum CodingKeys: String, CodingKey {
        case pagination, releases
    }

    public init(pagination: DiscogsPagination, releases: [DiscogsCollectionInstance]) {
        self.pagination = pagination
        self.releases = releases
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pagination = (try? c.decodeIfPresent(DiscogsPagination.self, forKey: .pagination)) ?? DiscogsPagination()
        releases = try c.decodeIfPresent([DiscogsCollectionInstance].self, forKey: .releases) ?? []
    }
}
