import CratesCore
import CratesNet
import CratesStore
import Foundation

/// Why a sync stopped before its end.
public enum SyncError: Error, Hashable, Sendable, CustomStringConvertible {
    case notSignedIn
    /// 401 or 403: the credentials, or this user's access to the collection.
    case refused(String)
    /// The collection was synced with another Discogs account than the one signed in.
    case otherAccount(synced: String, signedIn: String)
    /// No answer, or Discogs' own trouble (5xx, rate limit that does not end).
    case unreachable(String)
    /// `--folder` names no folder, or the configuration's folder cannot be read.
    case folder(String)
    /// The listing did not add up after every reading (the reason): nothing it did not
    /// show was changed on either side, and no copy was added to Discogs.
    case incompleteListing(String, readings: Int)
    /// Anything else: the store, an answer that does not parse.
    case other(String)

    public var description: String {
        switch self {
        case .notSignedIn: DiscogsAccessError.notSignedIn.description
        case .refused(let message): message
        case .otherAccount(let synced, let signedIn):
            "this collection is synced with the Discogs user \(ControlCharacters.cleaned(synced)), but crates is signed in as \(ControlCharacters.cleaned(signedIn)): sign in as \(ControlCharacters.cleaned(synced)) (`crates auth`), or use another database (--db)"
        case .unreachable(let message): message
        case .folder(let message): message
        case .incompleteListing(let problem, let readings):
            "Discogs' listing of your collection did not add up after \(readings) readings (\(problem)): copies it did not show were left as they are on both sides, and none was added to Discogs, so that none is added twice; run `crates sync` again"
        case .other(let message): message
        }
    }

    /// The failure an error stops a sync with: a Discogs error by its kind, a store error
    /// (or anything else) as it says.
    static func from(_ error: any Error) -> SyncError {
        switch error {
        case let failure as SyncError: failure
        case is CancellationError: .other("stopped before it ended: what was done is kept, and the next sync goes on from there")
        case let error as DiscogsError:
            switch error {
            case .unauthorized, .forbidden: .refused(error.description)
            // Every failure that may pass (a timeout, a 5xx, an answer cut short) is one a
            // later run may get past, and says so by its status.
            case _ where error.isTransient: .unreachable(error.description)
            default: .other(error.description)
            }
        default: .other(SystemError.describe(error))
        }
    }
}

/// A value that differs on both sides since the last sync, left as it is in crates.
public struct SyncConflict: Hashable, Sendable {
    public var recordID: Int64
    public var title: String
    public var field: SyncField
    public var crates: String?
    public var discogs: String?

    public init(recordID: Int64, title: String, field: SyncField, crates: String?, discogs: String?) {
        self.recordID = recordID
        self.title = title
        self.field = field
        self.crates = crates
        self.discogs = discogs
    }
}

/// One copy named in a sync's report.
public struct SyncListedCopy: Hashable, Sendable {
    /// Nil for a copy deleted in crates.
    public var recordID: Int64?
    public var instanceID: Int64?
    public var title: String

    public init(recordID: Int64?, instanceID: Int64?, title: String) {
        self.recordID = recordID
        self.instanceID = instanceID
        self.title = title
    }
}

/// What a sync did (or, dry, would do), for `crates sync` to print and the collection UI to
/// show.
public struct SyncReport: Sendable {
    public var username: String?
    public var dryRun = false
    /// Instances that became new crates copies.
    public var pulled = 0
    /// Copies added to Discogs.
    public var pushed = 0
    /// The name of the folder new copies go to (nil until the folders were read).
    public var folder: String?
    /// Copies and instances linked as one (a first sync, or a copy added on both sides).
    public var linked = 0
    /// Copies whose values came from Discogs, and copies whose values were written there.
    public var updatedHere: Set<Int64> = []
    public var updatedThere: Set<Int64> = []
    public var conflicts: [SyncConflict] = []
    /// Copies flagged "removed on Discogs" (found gone now or before).
    public var removedOnDiscogs: [SyncListedCopy] = []
    /// How many of those this sync found gone.
    public var newlyRemoved = 0
    /// Copies deleted in crates whose instances are still on Discogs (without `--delete`).
    public var deletedHere: [SyncListedCopy] = []
    /// Links to copies crates does not have, though it never deleted them (a restore from an
    /// export that lost records): a fault, left alone on Discogs whatever the options.
    public var missingHere: [SyncListedCopy] = []
    /// Instances removed from Discogs (`--delete`, or the collection UI's yes).
    public var removedThere = 0
    /// Instances on Discogs only, not pulled (`--push`).
    public var notPulled = 0
    /// Copies not on Discogs, not pushed (`--pull`).
    public var notPushed = 0
    /// Copies not on Discogs, not added because the listing did not add up.
    public var notAdded = 0
    /// Adds a killed sync had sent, found done on Discogs and linked.
    public var reconciled = 0
    /// What a dry run would do, one line per copy and side.
    public var planned: [String] = []
    /// Values left alone, with why (a field Discogs cannot clear, an option it lacks…).
    public var notices: [String] = []
    /// Conflicts a person settled (the collection UI's conflicts view).
    public var settled: [SyncCopyConflict] = []
    /// What the sync did to the wantlist.
    public var wantlist = WantlistSyncReport()
    public var requests = 0
    public var failure: SyncError?

    /// Copies updated on either side.
    public var updated: Int { updatedHere.union(updatedThere).count }

    /// Copies this sync tried to add and Discogs refused (a release it does not have).
    public var refusedAdds: [SyncListedCopy] = []
    /// Copies Discogs refused at an earlier sync, not sent again until another release is
    /// chosen for them.
    public var heldRefused = 0

    /// Copies deleted in crates that the collection UI may offer to remove on Discogs.
    public var deletedHereInstances: [Int64] { deletedHere.compactMap(\.instanceID) }

    /// `Synced with Discogs (DamIDhagor): 3 pulled, 2 pushed, 5 linked, 1 updated, 1 conflict,
    /// 0 removed; 12 requests.`
    public var summary: String {
        let who = username.map { " (\(ControlCharacters.cleaned($0)))" } ?? ""
        let head = dryRun ? "Dry run, nothing written: Discogs\(who) would give" : (failure == nil ? "Synced with Discogs\(who):" : "Sync with Discogs\(who) stopped:")
        var parts = [
            "\(pulled) pulled", "\(pushed) pushed", "\(linked) linked", "\(updated) updated",
            counted(conflicts.count, "conflict"), "\(removedOnDiscogs.count) removed",
        ]
        if removedThere > 0 { parts.append("\(removedThere) removed from Discogs") }
        if !refusedAdds.isEmpty { parts.append("\(refusedAdds.count) refused") }
        return "\(head) \(parts.joined(separator: ", ")); \(counted(requests, "request")) used."
    }

    /// Every line `crates sync` prints on standard output: the summary, then what needs the
    /// person; none when no one is signed in (the sync never began: a line of zeros would
    /// only hide the reason). The failure is not among them: the command says it on
    /// standard error.
    public var lines: [String] {
        if case .notSignedIn = failure { return [] }
        var lines = [summary]
        if reconciled > 0 {
            lines.append("\(counted(reconciled, "add")) an interrupted sync had sent \(reconciled == 1 ? "was" : "were") found on Discogs and linked (not added twice).")
        }
        lines += planned
        for conflict in conflicts {
            lines.append(
                "conflict: \(conflict.recordID) \(Self.clean(conflict.title)): \(conflict.field.label) is \(Self.shown(conflict.crates)) in crates, "
                    + "\(Self.shown(conflict.discogs)) on Discogs: crates' kept (--prefer discogs or --prefer crates settles it)")
        }
        for copy in removedOnDiscogs {
            lines.append(
                "removed on Discogs: \(copy.recordID.map(String.init) ?? "") \(Self.clean(copy.title)): kept here; delete it in crates, "
                    + "or `crates sync --restore-removed` adds it again")
        }
        for copy in deletedHere {
            lines.append(
                "deleted in crates, still on Discogs: \(Self.clean(copy.title)) (instance \(copy.instanceID.map(String.init) ?? "?")): "
                    + "`crates sync --delete` removes it there")
        }
        if !missingHere.isEmpty {
            lines.append(
                "\(counted(missingHere.count, "Discogs copy", plural: "Discogs copies")) \(missingHere.count == 1 ? "is" : "are") linked to "
                    + "\(missingHere.count == 1 ? "a record" : "records") crates does not have and never deleted (the collection was "
                    + "restored from an incomplete export?): left as \(missingHere.count == 1 ? "it is" : "they are") on Discogs, even with --delete. "
                    + "Restore a complete export into a new collection, or remove \(missingHere.count == 1 ? "it" : "them") on Discogs yourself.")
            for copy in missingHere.prefix(20) {
                lines.append(
                    "missing here: record \(copy.recordID.map(String.init) ?? "?") \(Self.clean(copy.title)) "
                        + "(instance \(copy.instanceID.map(String.init) ?? "?"))")
            }
            if missingHere.count > 20 { lines.append("missing here: … and \(missingHere.count - 20) more") }
        }
        if notPulled > 0 {
            lines.append("\(counted(notPulled, "copy", plural: "copies")) only on Discogs not pulled (--push): a sync without --push pulls them.")
        }
        if notAdded > 0 {
            lines.append("\(counted(notAdded, "copy", plural: "copies")) only in crates not added to Discogs: the listing did not add up, and such a copy may be one it did not show.")
        }
        if notPushed > 0 {
            lines.append("\(counted(notPushed, "copy", plural: "copies")) only in crates not pushed (--pull): a sync without --pull adds them.")
        }
        if heldRefused > 0 {
            lines.append(
                "\(counted(heldRefused, "copy", plural: "copies")) Discogs refused before \(heldRefused == 1 ? "is" : "are") not sent again "
                    + "until you choose another release for \(heldRefused == 1 ? "it" : "them") (the details say why).")
        }
        lines += wantlist.lines
        lines += notices.map(Self.clean)
        return lines
    }

    /// Takes in what a later run for the same sync did (the removal the collection UI asks
    /// about after it): its counts add to these, and the conflicts, the copies removed on
    /// Discogs and the rest of what this sync found stay.
    public mutating func add(_ later: SyncReport) {
        pulled += later.pulled
        pushed += later.pushed
        linked += later.linked
        updatedHere.formUnion(later.updatedHere)
        updatedThere.formUnion(later.updatedThere)
        removedThere += later.removedThere
        if later.failure == nil, later.removedThere > 0 { deletedHere = [] }
        notices += later.notices
        refusedAdds += later.refusedAdds
        requests += later.requests
        failure = later.failure ?? failure
    }

    /// What settling conflicts toward `side` did, in a sentence: "Sent crates' values to
    /// Discogs: The Persuader — Stockholm (rating ★★★★)."
    public func settlement(toward side: SyncPreference) -> String {
        let what: String
        if settled.count == 1, let copy = settled.first {
            let values = copy.fields.map { "\($0.field.label) \(side == .crates ? $0.field.shown($0.crates) : $0.field.shown($0.discogs))" }
            what = "\(Self.clean(copy.title)) (\(values.joined(separator: ", ")))"
        } else {
            what = counted(settled.count, "copy", plural: "copies")
        }
        var text: String
        if settled.isEmpty {
            text = failure == nil ? "No conflict left to settle (settled meanwhile)" : "Not settled"
        } else if side == .discogs {
            text = "Took Discogs' values: \(what)"
        } else if failure == nil {
            text = "Sent crates' values to Discogs: \(what)"
        } else {
            text = "Kept crates' values: \(what); not sent yet, the next sync sends them"
        }
        text += "."
        if let failure { text += " \(failure)" }
        for notice in notices { text += " " + Self.clean(notice) }
        return text
    }

    static func shown(_ value: String?) -> String {
        guard let value else { return "not set" }
        return "\"" + clean(value).replacingOccurrences(of: "\n", with: " ") + "\""
    }

    static func clean(_ text: String) -> String { ControlCharacters.cleaned(text) }
}
