/// One folder of a user's collection (`GET /users/{username}/collection/folders`). Every
/// collection has folder 0, "All" (every instance; nothing can be added to it), and folder
/// 1, "Uncategorized"; the user's own folders have other ids.
public struct DiscogsCollectionFolder: Decodable, Hashable, Sendable {
    public var id: Int
    public var name: String
    /// How many instances the folder holds.
    public var count: Int

    /// Folder 0: every instance of the collection.
    public static let allID = 0
    /// Folder 1: where an instance goes when no folder is chosen.
    public static let uncategorizedID = 1

    public init(id: Int, name: String, count: Int) {
        self.id = id
        self.name = name
        self.count = count
    }

    enum CodingKeys: String, CodingKey {
        case id, name, count
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = ControlCharacters.cleaned((try? c.decodeIfPresent(String.self, forKey: .name)) ?? "")
        count = (try? c.decodeIfPresent(Int.self, forKey: .count)) ?? 0
    }
}

/// The body of `GET /users/{username}/collection/folders`: `{"folders": [...]}`.
public struct DiscogsCollectionFolders: Decodable, Hashable, Sendable {
    public var folders: [DiscogsCollectionFolder]
}
