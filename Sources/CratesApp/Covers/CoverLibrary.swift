import CratesCore
import CratesNet
import CratesStore
import Foundation

/// A release's cover image, fetched once, ever: from the cache on disk, else from Discogs.
///
/// The image's address is read from what the collection keeps of the release (its JSON:
/// `images`, `cover_image`, `thumb`); a release stored from an anonymous answer has none,
/// and then its full fetch, signed, gives it. The image itself is fetched without signing,
/// through the rate limiter of every request at background priority (never ahead of a
/// lookup or a person), within the day's budget. A 404 is remembered as "no cover".
public struct CoverLibrary: Sendable {
    public let cache: CoverCache
    public let budget: CoverBudget
    public let store: CollectionStore?
    public let access: DiscogsAccess?

    public init(cache: CoverCache, budget: CoverBudget, store: CollectionStore?, access: DiscogsAccess?) {
        self.cache = cache
        self.budget = budget
        self.store = store
        self.access = access
    }

    /// A cover as it came, and whether this call fetched it (false: from the cache).
    public struct Image: Sendable {
        public var bytes: [UInt8]
        public var fetched: Bool
        /// Why the cache could not keep it, when it could not (a full disk): the image is
        /// here all the same, and is fetched again next time.
        public var notKept: CoverError?

        /// Whether its bytes are a JPEG or a PNG: the only covers crates writes or draws.
        public var isCover: Bool { CoverImageFormat(sniffing: bytes) != nil }
    }

    /// The cover of `release`; `url`, when the caller knows the image's address (a search
    /// result's), saves reading it from the store.
    public func cover(release: Int, url known: String? = nil) async throws(CoverError) -> Image {
        switch cache.entry(release) {
        case .image(let bytes): return Image(bytes: bytes, fetched: false)
        case .noCover: throw .noCover
        case nil: break
        }
        guard let url = try await address(of: release, known: known) else {
            try cache.rememberNoCover(release)
            throw .noCover
        }
        guard let client = access?.client else { throw .notSignedIn }
        try budget.spend()
        let bytes: [UInt8]
        do {
            bytes = try await RequestPriority.at(.background) { () async throws(DiscogsError) in
                try await client.image(url: url)
            }
        } catch .notFound {
            try cache.rememberNoCover(release)
            throw .noCover
        } catch .transport(.tooLarge(let limit)) {
            throw .tooLarge(limit: limit)
        } catch {
            throw .unreachable(error.description)
        }
        do {
            try cache.store(bytes, release: release)
        } catch {
            return Image(bytes: bytes, fetched: true, notKept: error)
        }
        return Image(bytes: bytes, fetched: true)
    }

    /// The image's address: the one given, else the stored release's, else the release's
    /// full fetch's (signed). Nil when Discogs, asked with credentials, lists no image.
    func address(of release: Int, known: String?) async throws(CoverError) -> String? {
        if let known = known.flatMap({ $0.isEmpty ? nil : $0 }) { return known }
        let stored = try? await store?.storedRelease(release)
        if let stored, let url = CoverAddress.url(in: stored.rawJSON) { return url }
        guard let access, access.signedIn else { throw .notSignedIn }
        let full: Release
        do {
            full = try await access.client.release(id: release, priority: .background)
        } catch .notFound {
            return nil
        } catch {
            throw .unreachable(error.description)
        }
        // Kept when the collection has the release: its details are complete now too.
        if stored != nil { try? await store?.storeDetails(full) }
        return CoverAddress.url(in: full.rawJSON)
    }
}
