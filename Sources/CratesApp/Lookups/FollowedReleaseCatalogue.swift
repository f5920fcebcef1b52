import CratesCore
import Foundation
import Synchronization

/// The local catalogue as a long run uses it (the collection UI, open for hours): the file
/// opened at the start, and a newer one built in its place meanwhile taken when the lookup
/// worker asks, between two batches (`takeReplacement`). A build renames its new file over
/// the path, so the file opened stays readable but is no longer the one there: without this,
/// every scan the new dump knows would be answered from the old one, or cost a request. The
/// file there is told apart from the one opened by its device, inode, size and modification
/// time (`FileIdentity`), one stat(2) a batch.
public final class FollowedReleaseCatalogue: ReleaseCatalogue {
    /// A file as stat(2) tells it apart from another at the same path.
    struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int

        /// The file at `path` now; nil when there is none (or it cannot be looked at).
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }

    private struct State {
        var catalogue: any ReleaseCatalogue
        /// The file `catalogue` was opened from, as it was just before it was opened.
        var identity: FileIdentity?
        /// A newer file that could not be opened: not tried again until it changes.
        var refused: FileIdentity?
        var onReplaced: [@Sendable (CatalogueEdition) -> Void] = []
    }

    public let path: String
    private let state: Mutex<State>
    private let reopen: @Sendable (String) -> (any ReleaseCatalogue)?

    /// Opens the catalogue at `path` with `open` (nil: there is none, or it cannot be used);
    /// the same `open` takes a newer one later.
    public static func open(
        path: String, using open: @escaping @Sendable (String) -> (any ReleaseCatalogue)?
    ) -> FollowedReleaseCatalogue? {
        // Looked at before it is opened: a build that renames its file in between is seen as
        // a change at the next look (and opened again), never missed.
        let identity = FileIdentity(path: path)
        guard let catalogue = open(path) else { return nil }
        return FollowedReleaseCatalogue(path: path, catalogue: catalogue, identity: identity, reopen: open)
    }

    init(
        path: String, catalogue: any ReleaseCatalogue, identity: FileIdentity?,
        reopen: @escaping @Sendable (String) -> (any ReleaseCatalogue)?
    ) {
        self.path = path
        self.reopen = reopen
        state = Mutex(State(catalogue: catalogue, identity: identity))
    }

    /// Runs `body` with the edition of each newer catalogue taken (for the UI's status line).
    public func onReplaced(_ body: @escaping @Sendable (CatalogueEdition) -> Void) {
        state.withLock { $0.onReplaced.append(body) }
    }

    private var current: any ReleaseCatalogue { state.withLock { $0.catalogue } }

    public var edition: CatalogueEdition { current.edition }

    public func blockingReleases(barcode: GTIN) throws(ReleaseCatalogueError) -> [Release] {
        try current.blockingReleases(barcode: barcode)
    }

    public func blockingSearch(_ query: ReleaseSearchQuery, limit: Int) throws(ReleaseCatalogueError) -> [Release] {
        try current.blockingSearch(query, limit: limit)
    }

    public func blockingRelease(id: Int) throws(ReleaseCatalogueError) -> Release? {
        try current.blockingRelease(id: id)
    }

    /// Takes the catalogue at `path` when it is another file than the one opened: a newer
    /// build. Nothing there (removed) keeps the one opened, which stays readable; one that
    /// cannot be used (damaged, another user's) too, and is not tried again until it changes.
    public func takeReplacement() -> Bool {
        guard let now = FileIdentity(path: path) else { return false }
        let unchanged = state.withLock { $0.identity == now || $0.refused == now }
        if unchanged { return false }
        guard let newer = reopen(path) else {
            state.withLock { $0.refused = now }
            return false
        }
        let (edition, listeners) = state.withLock { state in
            state.catalogue = newer
            state.identity = now
            state.refused = nil
            return (newer.edition, state.onReplaced)
        }
        for listener in listeners { listener(edition) }
        return true
    }
}
