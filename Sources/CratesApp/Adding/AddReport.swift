import CratesCore
import CratesNet
import CratesStore
import Foundation

/// What `crates add` prints and waits for.
public enum AddReport {
    /// `id  gtin  state  detail` for the record as stored now.
    public static func line(for id: Int64, store: CatalogueStore) async throws -> String {
        guard let details = try await store.details(id) else {
            return TabSeparatedText.line([String(id), "", "deleted", "deleted meanwhile"]) + "\n"
        }
        let record = details.record
        return TabSeparatedText.line([String(record.id), record.gtin.canonical, record.lookupState.rawValue, detail(details)]) + "\n"
    }

    /// What Discogs found: Artist — Title, how many pressings share the barcode, why the
    /// lookup failed; empty while pending.
    static func detail(_ details: RecordDetails) -> String {
        let record = details.record
        switch record.lookupState {
        case .matched: return details.release?.displayTitle ?? ""
        case .pending, .lookingUp: return ""
        case .ambiguous: return (record.statusText ?? "") + ": choose one in the collection UI"
        default: return record.statusText ?? ""
        }
    }

    /// `--wait`: looks the records `ids` up (after any lookups already waiting in the queue),
    /// until they are settled or `timeout` passes. Nil when every lookup finished well;
    /// otherwise why not (a failed lookup says nothing more: its line shows the error).
    public static func waitForLookups(
        _ ids: [Int64], store: CatalogueStore, access: DiscogsAccess?, timeout: Double
    ) async throws -> Unfinished? {
        guard let access, access.signedIn else { return .notSignedIn }
        let worker = LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: access.client))
        let run = await LookupDriver(worker: worker).run(until: .settled(Set(ids)), timeout: .milliseconds(Int(timeout * 1000)))
        switch run.stop {
        case .unauthorized(let message): return .refused(message)
        case .offline: return .offline
        case .timedOut, .interrupted: return .timedOut(seconds: Int(timeout))
        case nil: break
        }
        for id in ids where try await store.record(id)?.lookupState == .failed { return .failed }
        return nil
    }

    /// Why `crates add --wait` did not see every lookup finish well (exit status 3).
    public enum Unfinished: Equatable, Sendable {
        case notSignedIn
        case refused(String)
        case timedOut(seconds: Int)
        case offline
        case failed

        /// Nil for `failed`.
        public var message: String? {
            switch self {
            case .notSignedIn:
                "not signed in to Discogs: the records wait in the queue; run `crates auth` to look them up"
            case .refused(let message):
                "\(DiscogsAccessProblem.refused(message: message)); the records wait in the queue"
            case .timedOut(let seconds):
                "gave up waiting after \(seconds) s: the remaining lookups stay in the queue"
            case .offline:
                "Discogs cannot be reached: the remaining lookups stay in the queue, for the collection UI or `crates import` to finish later"
            case .failed:
                nil
            }
        }
    }
}
