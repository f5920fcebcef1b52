import CratesCore

/// The answer to adding a release to a folder (`POST …/collection/folders/{folder_id}/releases/{release_id}`,
/// 201 Created). Discogs documents `{"instance_id", "resource_url"}`; its answers since at
/// least 2022 are the whole new instance (`id`, `rating`, `folder_id`, `date_added`,
/// `basic_information`), which `instance` then holds.
public struct DiscogsAddedInstance: Decodable, Hashable, Sendable {
    /// 64-bit: see `DiscogsInstanceKey`.
    public var instanceID: Int64
    public var resourceURL: String?
    /// The new instance in full, when Discogs sent it.
    public var instance: DiscogsCollectionInstance?

    enum CodingKeys: String, CodingKey {
        case instanceID = "instance_id"
        case resourceURL = "resource_url"
    }

    public init(instanceID: Int64, resourceURL: String? = nil, instance: DiscogsCollectionInstance? = nil) {
        self.instanceID = instanceID
        self.resourceURL = resourceURL
        self.instance = instance
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        instanceID = try c.decode(Int64.self, forKey: .instanceID)
        resourceURL = try? c.decodeIfPresent(String.self, forKey: .resourceURL)
        instance = try? DiscogsCollectionInstance(from: decoder)
    }
}
