import ArgumentParser
import CratesApp
import CratesCore
import CratesNet
import CratesStore

/// The releases `crates lookup` and `crates search` list, with what the collection holds of
/// each (HAVE: owned, where; wanted) on a terminal; to a pipe, the lines as scripts read them.
enum ReleaseListing {
    /// What the collection holds of `releaseIDs`: read from the collection opened read-only;
    /// none when there is no collection, or it cannot be read (the listing is the command's
    /// answer, the marks only help it).
    static func marks(_ store: StoreOptions, _ releaseIDs: [Int]) -> [Int: ReleaseMarks] {
        guard !releaseIDs.isEmpty, let path = try? store.path(), let collection = try? CollectionStore(readingAt: path) else { return [:] }
        return (try? blocking { try await collection.releaseMarks(releaseIDs) }) ?? [:]
    }

    /// Writes `rows` through `ColumnOutput`, a terminal's with a last HAVE column ("owned ×2
    /// (Room › Shelf)", "wanted").
    static func write(
        _ rows: [(line: String, releaseID: Int)], marks: [Int: ReleaseMarks], names: [String], columns: [TableColumn], header: Bool
    ) throws {
        let have = TableColumn(heading: "HAVE", field: names.count, cap: 30)
        let output = ColumnOutput(names: names, columns: columns + [have], header: header)
        let terminal = StandardStreams.outputIsTerminal
        try output.write(lines: rows.map { terminal ? $0.line + "\t" + (marks[$0.releaseID]?.text ?? "") : $0.line })
        try output.finish()
    }
}

/// `--online` and `--catalogue`: where `crates lookup` and `crates search` find releases.
struct ReleaseSourceOptions: ParsableArguments {
    @Flag(help: "Ask Discogs, not the local catalogue.")
    var online = false

    @OptionGroup var catalogue: CatalogueOption

    /// The catalogue (none with `--online`), Discogs beside it (none when unusable and the
    /// catalogue answers), and Discogs' web address for the release pages.
    func open(_ command: String) throws(DiscogsAccessError) -> (catalogue: (any ReleaseCatalogue)?, access: DiscogsAccess?, web: String) {
        let catalogue = online ? nil : self.catalogue.open(command)
        let access = try DiscogsAccess.make(beside: catalogue)
        return (catalogue, access, access?.client.endpoints.web ?? DiscogsEndpoints.production.web)
    }
}
