import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// `crates list` and `crates export`: the collection, a page at a time from one snapshot, in
/// the order the collection UI shows it.
public struct CollectionExport: Sendable {
    public let store: CollectionStore
    public let filter: ExportFilter

    public init(store: CollectionStore, filter: ExportFilter) {
        self.store = store
        self.filter = filter
    }

    /// What `crates list` tells a person when it listed nothing: how to begin when the
    /// collection is empty, else that the filter kept nothing of how many.
    public func nothingListed() async throws -> String {
        let total = try await store.statistics(dimensions: []).totals.copies
        return total == 0
            ? "The collection is empty. Add the first record: scan or type its barcode in `crates`, "
                + "or run `crates add BARCODE`, or `crates import FILE` for a list."
            : "No record matches (\(total) in the collection)."
    }

    /// `crates list`: one line per copy (tab-separated columns, or JSON Lines), handed to
    /// `write` a page at a time.
    public func list(json: Bool, write: @escaping @Sendable (String) throws -> Void) async throws {
        try await store.forEachPage(filter, detail: .listing) { page in
            // Each page as UTF-8 bytes (`appendJSONLine`, `appendListingLine`), one String at
            // the end: a String grown a line or a field at a time cost more than the rest.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(page.count * (json ? 1024 : 160))
            for entry in page {
                if json {
                    entry.appendJSONLine(includeDiscogs: false, to: &bytes)
                } else {
                    entry.appendListingLine(to: &bytes)
                }
                bytes.append(UInt8(ascii: "\n"))
            }
            try write(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Discogs' collection CSV plus a Barcode column; how many records it wrote.
    @discardableResult
    public func writeCSV(to file: ExportFile, crlf: Bool) async throws -> Int {
        let writer = CSVWriter(lineEnding: crlf ? .crlf : .lf)
        let written = LockedBox(0)
        try file.write(DiscogsCollectionCSV.header(writer))
        try await store.forEachPage(filter, detail: .listing) { page in
            var text = ""
            for entry in page { text += DiscogsCollectionCSV.row(entry, writer) }
            try file.write(text)
            written.withLock { $0 += page.count }
        }
        return written.withLock { $0 }
    }

    /// The whole collection as one JSON object that is also easy to read a line at a time
    /// (`CollectionBackup`): a header, the places, the sync's tables, then the records, one
    /// object per line with a comma after all but the last of each section, and the digest
    /// of every line after the header. `crates import` restores it exactly. Returns how many
    /// records it wrote.
    @discardableResult
    public func writeJSON(to file: ExportFile) async throws -> Int {
        let written = LockedBox(0)
        let digest = Mutex(SHA256Digest())
        /// Writes `bytes`, which come after the header: they count in the digest.
        @Sendable func write(_ bytes: [UInt8]) throws {
            digest.withLock { digest in bytes.withUnsafeBytes { digest.update($0) } }
            try file.write(bytes: bytes)
        }
        try await store.forEachBackupPage(filter, snapshot: { snapshot in
            try file.write(CollectionBackup.headerLine(snapshot.header))
            var text = CollectionBackup.sectionOpening("places")
            text += snapshot.places.map(CollectionBackup.placeLine).joined(separator: ",\n")
            text += snapshot.places.isEmpty ? "" : "\n"
            text += CollectionBackup.sectionClosing(last: false)
            for (name, rows) in snapshot.tables {
                text += CollectionBackup.sectionOpening(name)
                text += rows.map(CollectionBackup.rowLine).joined(separator: ",\n")
                text += rows.isEmpty ? "" : "\n"
                text += CollectionBackup.sectionClosing(last: false)
            }
            text += CollectionBackup.sectionOpening("records")
            try write(Array(text.utf8))
        }) { page in
            // Each page as UTF-8 bytes, written once (`ExportedRecord.appendJSONLine`).
            var bytes: [UInt8] = []
            bytes.reserveCapacity(page.count * 768)
            for entry in page {
                let first = written.withLock { count in
                    defer { count += 1 }
                    return count == 0
                }
                if !first { bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: "\n")]) }
                entry.appendJSONLine(includeDiscogs: true, to: &bytes)
            }
            try write(bytes)
        }
        try write(Array(((written.withLock { $0 } == 0 ? "" : "\n") + CollectionBackup.sectionClosing(last: false)).utf8))
        let sha256 = digest.withLock { $0.finish() } ?? String(repeating: "0", count: 64)
        try file.write(CollectionBackup.digestLine(sha256: sha256))
        return written.withLock { $0 }
    }

    /// A genre no section has is most likely a typo: one warning each (the list is still
    /// empty, and the exit status 0, as for any filter nothing passes).
    public func unknownGenreWarnings() async throws -> [String] {
        guard !filter.sections.isEmpty else { return [] }
        let names = try await store.sectionNames()
        return filter.sections.filter { genre in !names.contains { $0.lowercased() == genre.lowercased() } }.map { genre in
            let known = names.isEmpty ? "the collection is empty" : "sections: " + names.joined(separator: ", ")
            return "crates: no section is named \"\(GTIN.displayForm(of: genre))\" (\(known))"
        }
    }
}
