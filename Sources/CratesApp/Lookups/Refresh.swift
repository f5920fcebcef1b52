import CratesCore
import CratesStore
import Foundation

/// `crates refresh ID...` / `--all`: looks records up again now, as the collection UI's `r`
/// does. A matched record is fetched again by its release (Discogs' values refreshed; the
/// collector's own values still win); the others are searched again. Records entered by
/// hand are never looked up.
public enum Refresh {
    /// What a refresh came to, for the command to print.
    public struct Outcome: Sendable {
        /// `id  gtin  state  detail` for each record looked up, in the order asked.
        public var lines: [String] = []
        /// For standard error: ids not found, records entered by hand, why lookups stopped.
        public var messages: [String] = []
        /// How it ended.
        public var ending = Ending.complete
    }

    /// How a refresh ended; when both are true of it, the first.
    public enum Ending: Sendable, Hashable {
        /// Every record asked looked up.
        case complete
        /// An id not in the collection, or a record entered by hand: not looked up.
        case notLookedUp
        /// Some lookup did not finish (not signed in, refused, offline, timed out, failed).
        case unfinished
    }

    /// Queues `ids` (every record but those entered by hand when nil) and looks them up
    /// until they are settled or `timeout` passes.
    public static func run(
        _ ids: [Int64]?, store: CollectionStore, access: DiscogsAccess?, timeout: Double
    ) async throws -> Outcome {
        var outcome = Outcome()
        var wanted: [Int64] = []
        if let ids {
            for id in ids {
                guard let record = try await store.record(id) else {
                    outcome.messages.append("\(id): no record has this id (see `crates list`)")
                    outcome.ending = .notLookedUp
                    continue
                }
                if record.lookupState == .handEntered {
                    outcome.messages.append(
                        "\(id): entered by hand: never looked up (link it to a Discogs release with s on it in the collection UI)")
                    outcome.ending = .notLookedUp
                    continue
                }
                if !wanted.contains(id) { wanted.append(id) }
            }
        } else {
            wanted = try await store.lookupableIDs()
        }
        guard !wanted.isEmpty else { return outcome }
        let queued = try await store.retry(wanted)
        if let unfinished = try await AddCodes.waitForLookups(queued, store: store, access: access, timeout: timeout) {
            if let message = unfinished.message { outcome.messages.append(message) }
            if outcome.ending == .complete { outcome.ending = .unfinished }
        }
        for id in queued { outcome.lines.append(try await AddCodes.line(for: id, store: store)) }
        return outcome
    }
}
