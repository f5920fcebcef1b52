import CratesCore

extension ListItem {
    /// The list's view of a store row.
    public init(_ row: CollectionRow) {
        self.init(
            recordID: row.recordID, gtin: row.gtin, artist: row.artist ?? "", title: row.title ?? "",
            format: row.formats ?? "", year: row.year, state: row.lookupState, candidates: row.candidateCount)
    }
}

extension ListModel {
    /// The list's view of what the store answered.
    public init(_ window: CollectionWindow) {
        self.init(
            sections: window.outline.sections.map { Section(name: $0.name, count: $0.count, firstRow: $0.firstRow) },
            totalRecords: window.totalRecords, filter: window.filter, offset: window.window.offset,
            rows: window.rows.map(ListItem.init), focus: window.focus, focusRow: window.focusRow)
    }
}
