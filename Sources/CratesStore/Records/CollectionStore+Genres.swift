import CratesCore
import GRDB

extension CollectionStore {
    /// The collection's genre sections by name, those with the most copies first (the
    /// unknown section left out): what the entry by hand and the edit offer as the genre is
    /// typed, so that "Folk" joins the "Folk, World, & Country" the collection already has
    /// rather than making a section beside it. Read from the section counts: tens of rows.
    public func genreSections() async throws(StoreError) -> [String] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT sectionKey, count FROM sectionCount WHERE count > 0 AND sectionKey != ?",
                             arguments: [SortKey.unknownSection])
                .map { (name: SortKey.sectionName(fromKey: $0["sectionKey"]), count: $0["count"] as Int) }
                .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
                .map(\.name)
        }
    }
}
