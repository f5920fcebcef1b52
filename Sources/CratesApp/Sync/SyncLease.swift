import CratesCore
import CratesStore
import Foundation

/// The lease a writing sync holds on its collection (`CollectionStore+SyncLease`): taken
/// before its first write, waited for while another sync holds it, renewed while the sync
/// runs, given back at its end. A holder killed -9 frees it at once.
struct SyncLease: Sendable {
    /// How often a waiting sync asks again, and how often a holder renews (well inside the
    /// store's expiry, so a long request never lets it lapse).
    static let pollInterval: Duration = .milliseconds(250)
    static let renewInterval: Duration = .seconds(30)

    let store: CollectionStore
    let token: String
    private let renewing: Task<Void, Never>

    /// Waits until this sync holds the lease, saying so through `progress` while another one
    /// does. Throws `CancellationError` when the task is cancelled while waiting.
    static func take(_ store: CollectionStore, progress: @Sendable (SyncStatus) -> Void) async throws -> SyncLease {
        let token = UUID().uuidString
        var said: CollectionStore.SyncLeaseHolder?
        while let holder = try await store.takeSyncLease(token) {
            if holder != said {
                progress(.waiting(pid: holder.pid))
                said = holder
            }
            try await Task.sleep(for: pollInterval)
        }
        return SyncLease(store: store, token: token)
    }

    private init(store: CollectionStore, token: String) {
        self.store = store
        self.token = token
        renewing = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.renewInterval)
                if Task.isCancelled { return }
                // A renewal that fails (the database busy) is tried again at the next turn;
                // the expiry is ten turns away.
                _ = try? await store.renewSyncLease(token)
            }
        }
    }

    /// Gives the lease back. A failure to write leaves it to expire (or, once this process
    /// ends, to be taken at once).
    func release() async {
        renewing.cancel()
        try? await store.releaseSyncLease(token)
    }
}
