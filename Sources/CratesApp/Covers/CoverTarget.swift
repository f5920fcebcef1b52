import CratesCore

/// Whose cover `crates cover` is asked for: a record (its id, as `crates list` shows it) or a
/// Discogs release (`r249504`).
public enum CoverTarget: Hashable, Sendable {
    case record(Int64)
    case release(Int)

    /// "12" or "r249504"; nil for anything else.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let first = trimmed.first, first == "r" || first == "R" {
            guard let id = Int(trimmed.dropFirst()), id > 0, trimmed.dropFirst().allSatisfy(\.isASCII) else { return nil }
            self = .release(id)
        } else {
            guard let id = Int64(trimmed), id > 0, trimmed.allSatisfy(\.isASCII) else { return nil }
            self = .record(id)
        }
    }
}

extension CoverLibrary {
    /// The cover of a record's release, or of a release.
    public func cover(of target: CoverTarget) async throws(CoverError) -> Image {
        switch target {
        case .release(let id):
            return try await cover(release: id)
        case .record(let id):
            let record: CollectionRecord?
            do {
                record = try await store?.record(id)
            } catch {
                throw .collection("\(error)")
            }
            guard let record else { throw .noSuchRecord(id) }
            guard let release = record.releaseID else { throw .notMatched }
            return try await cover(release: release)
        }
    }
}
