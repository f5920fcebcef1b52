import CratesCore
import Foundation

/// What a sync did to the wantlist (or, dry, would do).
public struct WantlistSyncReport: Sendable, Hashable {
    /// Wants only on Discogs that came into crates.
    public var pulled = 0
    /// Wants only in crates put on the Discogs wantlist.
    public var pushed = 0
    /// Wants whose notes or rating came from Discogs, and those written there.
    public var updatedHere: Set<Int> = []
    public var updatedThere: Set<Int> = []
    /// Wants removed on Discogs, so removed here.
    public var removedHere: [String] = []
    /// Wants removed here, so removed from Discogs.
    public var removedThere = 0
    /// Values changed differently on both sides: release, title, field, crates', Discogs'.
    public var conflicts: [(releaseID: Int, title: String, field: SyncField, crates: String?, discogs: String?)] = []
    /// Wants removed on Discogs but changed here since: kept, for a person to settle.
    public var removedButChanged: [(releaseID: Int, title: String)] = []
    /// Wants only in crates not put on Discogs because the listing did not add up.
    public var notAdded = 0
    /// Wants only on Discogs not pulled (`--push`), only in crates not pushed (`--pull`).
    public var notPulled = 0
    public var notPushed = 0
    /// Wanted releases whose marketplace figures were asked again.
    public var priced = 0

    public init() {}

    public static func == (a: WantlistSyncReport, b: WantlistSyncReport) -> Bool { a.lines == b.lines }
    public func hash(into hasher: inout Hasher) { hasher.combine(lines) }

    /// Whether there is anything to say.
    public var isQuiet: Bool { lines.isEmpty }

    /// "Wantlist: 1 pulled, 2 pushed, 1 updated, 1 removed here, 0 removed from Discogs, 1
    /// conflict.", then a line per conflict and what was left alone; nothing when nothing
    /// happened.
    public var lines: [String] {
        let updated = updatedHere.union(updatedThere).count
        let conflictCount = conflicts.count + removedButChanged.count
        var lines: [String] = []
        if pulled + pushed + updated + removedHere.count + removedThere + conflictCount > 0 {
            lines.append(
                "Wantlist: \(pulled) pulled, \(pushed) pushed, \(updated) updated, \(removedHere.count) removed here, "
                    + "\(removedThere) removed from Discogs, \(counted(conflictCount, "conflict"))."
            )
        }
        for conflict in conflicts {
            lines.append(
                "wantlist conflict: r\(conflict.releaseID) \(SyncReport.clean(conflict.title)): \(conflict.field.label) is "
                    + "\(SyncReport.shown(conflict.crates)) in crates, \(SyncReport.shown(conflict.discogs)) on Discogs: "
                    + "crates' kept (--prefer discogs or --prefer crates settles it)")
        }
        for want in removedButChanged {
            lines.append(
                "wantlist conflict: r\(want.releaseID) \(SyncReport.clean(want.title)) was removed from your Discogs wantlist, "
                    + "but changed here since: kept here (`crates want remove r\(want.releaseID)` removes it, or "
                    + "--prefer crates puts it back on Discogs)")
        }
        for title in removedHere { lines.append("removed from the wantlist (removed on Discogs): \(SyncReport.clean(title))") }
        if notAdded > 0 {
            lines.append("\(counted(notAdded, "want")) only in crates not put on Discogs: the wantlist's listing did not add up.")
        }
        if notPulled > 0 { lines.append("\(counted(notPulled, "want")) only on Discogs not pulled (--push).") }
        if notPushed > 0 { lines.append("\(counted(notPushed, "want")) only in crates not pushed (--pull).") }
        return lines
    }
}
