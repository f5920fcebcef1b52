import CratesApp
import CratesCore
import CratesStore

/// What the collection holds of the releases a command lists (`crates lookup`, `crates
/// search`): read from the collection opened read-only; none when there is no collection,
/// or it cannot be read (the listing is the command's answer, the marks only help it).
enum CollectionMarks {
    static func read(_ store: StoreOptions, _ releaseIDs: [Int]) -> [Int: ReleaseMarks] {
        guard !releaseIDs.isEmpty, let path = try? store.path(), let collection = try? CollectionStore(readingAt: path) else { return [:] }
        return (try? blocking { try await collection.releaseMarks(releaseIDs) }) ?? [:]
    }

    /// The terminal's column of them: "owned ×2 (Room › Shelf)", "wanted".
    static func column(field: Int) -> TableColumn {
        TableColumn(heading: "HAVE", field: field, cap: 30)
    }
}
