import CratesCore
import CratesStore
import Synchronization

/// The collection UI's place, the book's "spot in the store": which place is current, and
/// what scanning a crates label does to it. Scanning a place's label makes it current (the
/// list shows what is in it, and what is added next goes in it); scanning it again changes
/// nothing; scanning another switches; a label no place has any more (removed, or another
/// collection's) leaves no place current, so the whole collection shows. Scanning a copy's
/// label selects that copy.
///
/// The session runs requests one at a time, so a record scanned right after a place's label
/// goes in that place however fast the scanner types.
public final class ScanContext: Sendable {
    private let current = Mutex<Location?>(nil)
    private let store: CollectionStore

    public init(store: CollectionStore) {
        self.store = store
    }

    /// The current place; nil: none.
    public var location: Location? { current.withLock { $0 } }

    /// What a scanned label did.
    public enum Outcome: Equatable, Sendable {
        /// A place's label: that place is current now.
        case entered(Location)
        /// The current place's own label again: nothing changed.
        case unchanged(Location)
        /// A place's label that no place has: no place is current now (the message says why).
        case left(String)
        /// A copy's label: the copy to select.
        case select(CollectionRecord)
        /// A copy's label that no record has (deleted?).
        case noSuchCopy(String)
    }

    /// Acts on a scanned label (see the type's rules).
    public func scan(_ code: LabelCode) async throws(StoreError) -> Outcome {
        switch code.kind {
        case .location:
            guard let location = try await store.location(Int64(code.id)) else {
                current.withLock { $0 = nil }
                return .left("No place has label \(code.digits) (\(code.summary): removed?): showing every record")
            }
            return current.withLock { current in
                if current?.id == location.id {
                    current = location
                    return .unchanged(location)
                }
                current = location
                return .entered(location)
            }
        case .copy:
            guard let record = try await store.record(Int64(code.id)) else {
                return .noSuchCopy("No record has label \(code.digits) (\(code.summary): deleted?)")
            }
            return .select(record)
        }
    }

    /// Makes the place `id` current (nil: none); returns it (nil when none, or when it is
    /// gone).
    @discardableResult
    public func set(_ id: Int64?) async throws(StoreError) -> Location? {
        var location: Location?
        if let id { location = try await store.location(id) }
        current.withLock { $0 = location }
        return location
    }
}
