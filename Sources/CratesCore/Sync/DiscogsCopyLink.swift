/// How one crates copy stands with the user's Discogs collection, as the last sync left it:
/// the instance it is linked to, that instance's folder, and whether a sync found the
/// instance gone from Discogs.
public struct DiscogsCopyLink: Hashable, Sendable {
    /// 64-bit (see `DiscogsInstanceKey`).
    public var instanceID: Int64
    public var releaseID: Int
    public var folderID: Int
    /// The folder's name, from the last sync's list of folders (nil when unknown).
    public var folderName: String?
    /// A sync found the instance gone from Discogs: the copy is kept and listed, never
    /// deleted on its own.
    public var removedOnDiscogs: Bool

    public init(instanceID: Int64, releaseID: Int, folderID: Int, folderName: String? = nil, removedOnDiscogs: Bool = false) {
        self.instanceID = instanceID
        self.releaseID = releaseID
        self.folderID = folderID
        self.folderName = folderName
        self.removedOnDiscogs = removedOnDiscogs
    }

    /// What names the instance in Discogs' instance calls.
    public var key: DiscogsInstanceKey {
        DiscogsInstanceKey(folderID: folderID, releaseID: releaseID, instanceID: instanceID)
    }

    /// "in Uncategorized", "removed on Discogs".
    public var summary: String {
        if removedOnDiscogs { return "removed on Discogs" }
        return "in " + (folderName.map { "\"\(ControlCharacters.cleaned($0))\"" } ?? "folder \(folderID)")
    }
}

/// "on Discogs: 2 copies": how many instances of a release the user's Discogs collection
/// held at the last sync, for what a scan says.
public enum DiscogsOwnership {
    /// Nil when there are none.
    public static func text(copies: Int) -> String? {
        guard copies > 0 else { return nil }
        return "on Discogs: \(copies == 1 ? "1 copy" : "\(copies) copies")"
    }
}
