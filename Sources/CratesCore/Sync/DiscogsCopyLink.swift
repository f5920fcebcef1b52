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
    /// What the Discogs copy holds as far as crates knows: the values of the last sync,
    /// and Discogs' value of each field in conflict (nil: not known).
    public var discogsValues: SyncedValues?
    /// The fields the last sync found changed differently on both sides, not settled yet.
    public var conflicts: Set<SyncField>

    public init(
        instanceID: Int64, releaseID: Int, folderID: Int, folderName: String? = nil, removedOnDiscogs: Bool = false,
        discogsValues: SyncedValues? = nil, conflicts: Set<SyncField> = []
    ) {
        self.instanceID = instanceID
        self.releaseID = releaseID
        self.folderID = folderID
        self.folderName = folderName
        self.removedOnDiscogs = removedOnDiscogs
        self.discogsValues = discogsValues
        self.conflicts = conflicts
    }

    /// One field whose Discogs value differs from the copy's.
    public struct Difference: Hashable, Sendable {
        public var field: SyncField
        public var discogs: String?
        public var yours: String?
        /// Changed on both sides since the last sync (else crates' value is the newer, and
        /// the next sync sends it).
        public var isConflict: Bool

        /// "Discogs: ★★ (yours ★★★★)".
        public var text: String { "Discogs: \(field.shown(discogs)) (yours \(field.shown(yours)))" }
    }

    /// The fields whose Discogs value differs from `copy`'s, in `SyncField` order (none for
    /// a copy removed on Discogs, whose values are no longer there).
    public func differences(from copy: SyncedValues) -> [Difference] {
        guard let discogsValues, !removedOnDiscogs else { return [] }
        return SyncField.allCases.compactMap { field in
            guard copy.differs(from: discogsValues, in: field) else { return nil }
            return Difference(field: field, discogs: discogsValues.text(field), yours: copy.text(field), isConflict: conflicts.contains(field))
        }
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
