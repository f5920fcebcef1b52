/// The three-way merge of one copy's values: crates' value and Discogs' value of each field,
/// each compared with the value both had at the last sync (`base`).
///
/// - Changed only in crates: pushed to Discogs.
/// - Changed only on Discogs: taken into crates.
/// - Changed on both sides to the same value: nothing to send; the base moves on.
/// - Changed on both sides differently: a conflict. crates' value stays and is not pushed,
///   until `prefer` settles it (crates: pushed; discogs: taken).
///
/// A copy never synced before (linked on a first sync) has an empty base: what only one side
/// has set goes to the other, and two different values are a conflict.
public struct CopyMerge: Hashable, Sendable {
    /// Fields whose crates value goes to Discogs.
    public var push: [SyncField] = []
    /// Fields whose Discogs value comes into crates.
    public var take: [SyncField] = []
    /// Fields changed differently on both sides, left as they are.
    public var conflicts: [SyncField] = []
    /// What the base becomes now: the fields taken, and those that agree. A pushed field
    /// keeps its old base until Discogs has taken the value (else a push that never
    /// happened would look like a change made on Discogs); a conflicting one keeps it so
    /// that it stays a conflict until settled.
    public var newBase: SyncedValues
    /// Whether `newBase` differs from the base given.
    public var baseChanged: Bool

    public init(base: SyncedValues, crates: SyncedValues, discogs: SyncedValues, prefer: SyncPreference? = nil) {
        var next = base
        for field in SyncField.allCases {
            let cratesChanged = crates.differs(from: base, in: field)
            let discogsChanged = discogs.differs(from: base, in: field)
            if !crates.differs(from: discogs, in: field) {
                next = next.with(field, from: crates)  // the same on both sides (changed or not)
            } else if cratesChanged && !discogsChanged {
                push.append(field)
            } else if discogsChanged && !cratesChanged {
                take.append(field)
                next = next.with(field, from: discogs)
            } else {
                switch prefer {
                case .crates?:
                    push.append(field)
                case .discogs?:
                    take.append(field)
                    next = next.with(field, from: discogs)
                case nil:
                    conflicts.append(field)
                }
            }
        }
        newBase = next
        baseChanged = next != base
    }

    /// Nothing to send, take or report.
    public var isQuiet: Bool { push.isEmpty && take.isEmpty && conflicts.isEmpty }
}
