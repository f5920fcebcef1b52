/// What names one instance (one copy) in a user's collection for Discogs' instance calls
/// (`…/collection/folders/{folder_id}/releases/{release_id}/instances/{instance_id}`).
///
/// `instanceID` is 64-bit: Discogs' instance ids passed 2^31 long ago (the recorded 2022
/// answer carries 1,089,887,351) and keep growing; never store them in 32 bits.
public struct DiscogsInstanceKey: Hashable, Sendable, Codable {
    /// The folder the instance is in now (Discogs checks it; folder 0 "All" names none).
    public var folderID: Int
    public var releaseID: Int
    public var instanceID: Int64

    public init(folderID: Int, releaseID: Int, instanceID: Int64) {
        self.folderID = folderID
        self.releaseID = releaseID
        self.instanceID = instanceID
    }
}
