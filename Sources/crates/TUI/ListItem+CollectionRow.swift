import CratesCore
import CratesTUI

extension ListItem {
    /// The list's view of a store row.
    init(_ row: CollectionRow) {
        self.init(
            recordID: row.recordID, gtin: row.gtin, artist: row.artist ?? "", title: row.title ?? "",
            format: row.formats ?? "", year: row.year, state: row.lookupState, candidates: row.candidateCount,
            labelsAndCatnos: "")
    }
}

extension CollectionView {
    /// Built on the observer's queue, never on the UI thread.
    init(_ sections: [CollectionSection]) {
        self.init(sections: sections.map { section in
            ListSection(name: section.name, items: section.rows.map(ListItem.init))
        })
    }
}
