import CratesApp
import CratesCore
import CratesStore
import Foundation

/// The collection `scripts/bench-check.sh` checks against: for each barcode of `--file`
/// (one GTIN a line, from the catalogue), a copy matched to the catalogue's first release
/// of it, as a lookup from the catalogue would leave it; every tenth code's release also
/// priced, and every hundredth of the codes after the collection's on the wantlist.
///
///     crates-bench seed-check --db PATH --catalogue PATH --file GTINS [--copies N]
enum CheckCollection {
    static func seed(_ options: Options) async throws {
        let copies = try options.int("--copies", default: 100_000)
        let database = try options.required("--db")
        let file = try options.required("--file")
        let catalogue: any ReleaseCatalogue
        switch openReleaseCatalogue(path: try options.required("--catalogue")) {
        case .success(let opened): catalogue = opened
        case .failure(let error): throw UsageError("\(error)")
        }
        let codes = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").compactMap { GTIN(canonical: String($0)) }
        let store = try CollectionStore(path: database)
        var batch: [NewRecord] = []
        var added = 0
        var priced: [Int] = []
        for gtin in codes.prefix(copies) {
            guard let release = try await catalogue.releases(barcode: gtin).first else { continue }
            batch.append(NewRecord(gtin: gtin, addedAt: Date(timeIntervalSince1970: 1_600_000_000 + Double(added)), addMethod: .typed, release: release))
            if added % 10 == 0 { priced.append(release.id) }
            added += 1
            if batch.count == 5_000 {
                _ = try await store.addAll(batch)
                batch = []
            }
        }
        if !batch.isEmpty { _ = try await store.addAll(batch) }
        for releaseID in priced {
            try await store.storeReleasePrice(
                releaseID: releaseID, currency: "GBP", lowestPrice: Double(releaseID % 97) + 0.49, forSale: releaseID % 13,
                at: Date().addingTimeInterval(-3 * 86_400))
        }
        var wanted = 0
        for gtin in codes.dropFirst(copies).enumerated().filter({ $0.offset % 100 == 0 }).map(\.element) {
            guard let release = try await catalogue.releases(barcode: gtin).first else { continue }
            _ = try await store.addWant(WantEntry(release: release, addedAt: Date()))
            wanted += 1
        }
        FileHandle.standardError.write(Data("seeded \(added) copies (\(priced.count) releases priced) and \(wanted) wants\n".utf8))
    }
}
